"""The template's and the samples' data: the variants to rank, the hand-checked sample cases, the pairs to compare.

The sample cases' expected values are written as arithmetic on the counts, not computed by bleu-xl, so that the
tests that check the sample workbooks against them check bleu-xl too.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["COMPARE", "PAIRS", "RANK_REFERENCE", "RANK_VARIANTS", "SAMPLES", "THAI_REFERENCE", "Case"]

RANK_REFERENCE = "Free delivery on every order this week: shop the new summer collection today."
RANK_VARIANTS = [
    "Free delivery on every order this week: shop the new summer collection today.",
    "Free delivery on every order this week. Shop the new summer collection now!",
    "This week only: free delivery on every order. Shop the summer collection today.",
    "Shop the new summer collection today with free delivery on every order.",
    "Free shipping on all orders this week: discover the new summer collection.",
    "Enjoy free delivery this week on every order from the new summer collection.",
    "Free delivery on every order!",
    "Shop the new summer collection today.",
    "Summer is here: free delivery all week long on the new collection.",
    "Delivery is free on every single order this week only.",
    "Get the new summer collection delivered free, this week only.",
    "New summer collection: every order ships free this week.",
    "Livraison gratuite sur chaque commande cette semaine : découvrez la nouvelle collection d'été.",
    "Free delivery cette semaine sur toute la summer collection.",
    "Entrega grátis em todos os pedidos esta semana: conheça a nova coleção de verão.",
    "Free delivery on every order this week — nova coleção de verão já disponível.",
    "今週はすべてのご注文で送料無料：新しいサマーコレクションを今すぐ。",
    "Free delivery this week 本周全场免运费 summer collection.",
    "Free delivery on every order this week: 新しい summer collection today.",
    "Order today.",
]

#: "Free delivery on every order this week" in Thai: 27 character clusters (written without spaces).
THAI_REFERENCE = "จัดส่งฟรีสำหรับทุกคำสั่งซื้อในสัปดาห์นี้"

# Hand-checkable sample cases: (references, candidate, expected BLEU-2, how it is worked out by hand).
# The expected values are written as arithmetic on the counts, not computed by bleu-xl.
Case = tuple[list[str], str, Any, str]
SAMPLES: dict[str, tuple[str, list[Case]]] = {
    "marketing_en": (
        "English marketing copy against one approved line",
        [
            (["Free delivery on every order this week"], "Free delivery on every order this week", 1.0, "identical"),
            (
                ["Free delivery on every order this week"],
                "Free delivery on every order",
                math.exp(1 - 7 / 5),
                "p1 5/5, p2 4/4, BP exp(1-7/5)",
            ),
            (
                ["Free delivery on every order this week"],
                "Free delivery this week on every order",
                math.sqrt(4 / 6),
                "p1 7/7, p2 4/6, BP 1",
            ),
            (
                ["Free delivery on every order this week"],
                "Get free shipping on all orders",
                math.exp(1 - 7 / 6) * math.sqrt(2 / 6 * 1 / 6),
                "p1 2/6, p2 0/5 -> add-1 1/6, BP exp(1-7/6)",
            ),
            (
                ["Free delivery on every order this week"],
                "WEEK THIS ORDER EVERY ON DELIVERY FREE",
                math.sqrt(1 / 7),
                "same words, reversed: p1 7/7, p2 0/6 -> 1/7",
            ),
            (["Free delivery on every order this week"], "", "", "blank candidate: blank result"),
        ],
    ),
    "translations_fr": (
        "French translations against a reference translation",
        [
            (
                ["Le colis est arrivé à l'heure et bien emballé"],
                "Le colis est arrivé à l'heure",
                math.exp(1 - 10 / 7),
                "p1 7/7, p2 6/6, BP exp(1-10/7)",
            ),
            (
                ["Le colis est arrivé à l'heure et bien emballé"],
                "Le paquet est arrivé à l'heure et bien emballé",
                math.sqrt(9 / 10 * 7 / 9),
                "p1 9/10, p2 7/9, BP 1",
            ),
            (
                ["Le colis est arrivé à l'heure et bien emballé"],
                "LE COLIS EST ARRIVÉ À L'HEURE ET BIEN EMBALLÉ",
                1.0,
                "case does not count",
            ),
            (
                ["Le colis est arrivé à l'heure et bien emballé"],
                "Colis arrivé",
                math.exp(1 - 10 / 2) * math.sqrt(1 / 2),
                "p1 2/2, p2 0/1 -> 1/2, BP exp(1-10/2)",
            ),
        ],
    ),
    "cjk_mixed": (
        "Japanese, Korean, Thai and Latin mixed: each CJK character and each Thai character cluster is a token",
        [
            (["東京タワーは2026年に改装されます"], "東京タワーは2026年に改装されます", 1.0, "identical (15 tokens)"),
            (
                ["東京タワーは2026年に改装されます"],
                "東京タワーは改装されます",
                math.exp(1 - 15 / 12) * math.sqrt(10 / 11),
                "p1 12/12, p2 10/11, BP exp(1-15/12)",
            ),
            (
                ["東京タワーは2026年に改装されます"],
                "Tokyo Tower 2026年",
                math.exp(1 - 15 / 4) * math.sqrt(2 / 4 * 1 / 3),
                "p1 2/4, p2 1/3, BP exp(1-15/4)",
            ),
            (
                ["서울의 날씨가 좋습니다"],
                "서울 날씨가 좋습니다",
                math.exp(1 - 10 / 9) * math.sqrt(7 / 8),
                "p1 9/9, p2 7/8, BP exp(1-10/9)",
            ),
            (
                [THAI_REFERENCE],
                THAI_REFERENCE.replace("ฟรี", ""),
                math.exp(1 - 27 / 25) * math.sqrt(25 / 25 * 23 / 24),
                "without ฟรี (free): 27 clusters vs 25, p1 25/25, p2 23/24, BP exp(1-27/25)",
            ),
            (
                [THAI_REFERENCE],
                "ลดราคา",
                math.exp(1 - 27 / 6) * math.sqrt(3 / 6 * 1 / 6),
                "unrelated (discount): p1 3/6, p2 0/5 -> 1/6, BP exp(1-27/6)",
            ),
        ],
    ),
    "short_copy": (
        "Buttons and calls to action: a one-word candidate has no bigram, so p2 is left out (scoring 0.2)",
        [
            (["Shop now"], "Shop now", 1.0, "identical: p1 2/2, p2 1/1"),
            (["Shop now"], "Shop", math.exp(1 - 2 / 1), "one word: p1 1/1, p2 left out, BP exp(1-2/1)"),
            (["Shop now"], "Buy now", math.sqrt(1 / 2 * 1 / 2), "p1 1/2, p2 0/1 -> add-1 1/2, BP 1"),
            (["Shop"], "Shop", 1.0, "identical: p1 1/1, p2 left out"),
            (
                ["Shop"],
                "Buy",
                1 / 2,
                "no word in common: p1 0/1 -> add-1 1/2, p2 left out; a one-word score tells little (chrF suits "
                "very short copy)",
            ),
        ],
    ),
    "multi_reference": (
        "Several references per candidate (clipping by the largest count in one reference)",
        [
            (
                ["the cat is on the mat", "there is a cat on the mat"],
                "the cat is on the mat",
                1.0,
                "equals reference 1",
            ),
            (
                ["the cat is on the mat", "there is a cat on the mat"],
                "the the the the the the the",
                math.sqrt(2 / 7 * 1 / 7),
                "p1 2/7 (clipped at 2), p2 0/6 -> 1/7, r 7",
            ),
            (
                ["the cat is on the mat", "there is a cat on the mat"],
                "a cat on the mat",
                math.exp(1 - 6 / 5),
                "p1 5/5, p2 4/4, closest r 6, BP exp(1-6/5)",
            ),
        ],
    ),
}


PAIRS = [
    ("a entrega chegou no prazo e o produto veio bem embalado", "a entrega chegou no prazo e o produto veio intacto"),
    ("a entrega chegou no prazo e o produto veio bem embalado", "a entrega chegou no prazo"),
    (
        "a entrega chegou no prazo e o produto veio bem embalado",
        "o pedido foi entregue dentro do prazo e chegou bem embalado",
    ),
    ("Le colis est arrivé à l'heure et bien emballé", "Le paquet est arrivé à l'heure et bien emballé"),
    ("Free delivery on every order this week", "Free shipping on every order this week"),
    ("東京タワーは2026年に改装されます", "東京タワーは改装されます"),
]

# Two copy generators (say two prompts) against the approved lines: is B really better than A?
COMPARE = [
    ("Free delivery on every order this week", "Free shipping this week", "Free delivery on all orders this week"),
    ("Our new summer collection is here", "The summer collection has arrived", "Our new summer collection is here now"),
    (
        "Sign up today and save 20% on your first order",
        "Register and get 20% off",
        "Sign up today and save 20% on the first order",
    ),
    ("Limited stock: order before Friday", "Stock is limited, buy now", "Limited stock: order by Friday"),
    ("Returns are free for 30 days", "You can return for free", "Returns are free within 30 days"),
    (
        "Le colis est arrivé à l'heure et bien emballé",
        "Le paquet est venu à temps",
        "Le colis est arrivé à l'heure, bien emballé",
    ),
    ("Livraison gratuite dès 50 euros d'achat", "Livraison offerte pour 50 euros", "Livraison gratuite dès 50 euros"),
    (
        "a entrega chegou no prazo e o produto veio bem embalado",
        "a entrega chegou no prazo",
        "a entrega chegou no prazo e o produto veio embalado",
    ),
    (
        "Frete grátis em todo o site nesta semana",
        "Frete grátis nesta semana",
        "Frete grátis em todo o site esta semana",
    ),
    ("東京タワーは2026年に改装されます", "東京タワーは改装します", "東京タワーは2026年に改装されます"),
    ("Your order has shipped and arrives tomorrow", "Order shipped", "Your order has shipped and will arrive tomorrow"),
    ("Thank you for shopping with us", "Thanks for your purchase", "Thank you for shopping with us today"),
]
