"""Builds the ranking template and the sample workbooks (XlsxWriter: cached values, dynamic arrays, text as text).

``bleu-xl template [FOLDER]`` writes ``bleu2_ranking.xlsx`` and ``samples/*.xlsx``; the copies committed under
``workbooks/`` must equal what this writes (a test checks it). Every formula cell carries its computed value, so
the scores show in any viewer before Excel recalculates.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import xlsxwriter

from . import cells
from .compare import bootstrap_ci, paired_test
from .tokenizer import tokenize
from .xlsx_style import DATA_BAR, SAFE_OPTIONS

__all__ = ["FILL_ROWS", "RANK_REFERENCE", "RANK_VARIANTS", "SAMPLES", "build_all", "build_template"]

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
FILL_ROWS = 40  # candidate rows with formulas (the samples, then blank rows that stay blank)
SPILL_ROWS = 200
FIRST = 6  # first candidate row on the Rank and Spill sheets (Excel numbering)

GUIDE = [
    (
        "English",
        [
            "Paste the approved reference into Rank!B2 and the variants under Candidate (B6 down).",
            "BLEU-2 compares words (p1) and pairs of neighbouring words (p2) with the reference, and lowers the score "
            "of a text shorter than the reference (BP). 1 = identical; there is no universal pass mark.",
            "Use it to rank variants against the same reference, not to judge one text on its own: a faithful "
            "paraphrase can score low and a text with a wrong price can score high.",
            "p1, p2: shares of candidate words / word pairs found in the reference (add-1 smoothing when none is "
            "found). BP: brevity penalty. r, c: tokens in the reference and the candidate.",
        ],
    ),
    (
        "Français",
        [
            "Collez la référence validée en Rank!B2 et les variantes sous Candidate (B6 et suivantes).",
            "Le BLEU-2 compare les mots (p1) et les paires de mots voisins (p2) à la référence, et pénalise une "
            "candidate plus courte que la référence (BP). 1 = identique ; il n'existe pas de seuil universel.",
            "Il sert à classer des candidates face à la même référence, pas à juger une sortie isolée.",
            "p1, p2 : part des mots / paires de mots de la candidate présents dans la référence (lissage add-1 si "
            "aucun). BP : pénalité de brièveté. r, c : jetons de la référence et de la candidate.",
        ],
    ),
    (
        "Português",
        [
            "Cole a referência aprovada em Rank!B2 e as variantes abaixo de Candidate (B6 em diante).",
            "O BLEU-2 compara palavras (p1) e pares de palavras vizinhas (p2) com a referência e penaliza um texto "
            "mais curto que a referência (BP). 1 = idêntico; não há nota de corte universal.",
            "Serve para ordenar candidatos contra a mesma referência, não para julgar um texto isolado: uma paráfrase "
            "fiel pode tirar nota baixa e um preço errado, nota alta.",
            "p1, p2: fração das palavras / pares de palavras do candidato presentes na referência (suavização add-1 "
            "quando nenhuma). BP: penalidade de brevidade. r, c: tokens da referência e do candidato.",
        ],
    ),
]
DEFINITION = (
    "Tokens: NFKC + casefold; words of letters, marks and numbers; each CJK character is a token. "
    "p_n = clipped n-gram matches / candidate n-grams (add-1: (0+1)/(total+1) when nothing matches). "
    "BP = 1 if c >= r else exp(1 - r/c). BLEU-2 = BP * sqrt(p1 * p2)."
)

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
        "Japanese, Korean and Latin mixed: each CJK character is a token",
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

_CORE_PROPERTIES = {"author": "bleu-xl", "created": dt.datetime(2026, 1, 1)}  # fixed: the files are reproducible


def _book(path: Path) -> Any:
    book = xlsxwriter.Workbook(str(path), {**SAFE_OPTIONS, "use_future_functions": True})
    book.set_properties(_CORE_PROPERTIES)
    return book


def _formats(book: Any) -> dict[str, Any]:
    return {
        "title": book.add_format({"bold": True, "font_size": 14}),
        "label": book.add_format({"bold": True}),
        "input": book.add_format({"bg_color": "#FFF2CC", "border": 1, "text_wrap": True}),
        "header": book.add_format({"bold": True, "bg_color": "#DDEBF7", "border": 1}),
        "score": book.add_format({"num_format": "0.000"}),
        "wrap": book.add_format({"text_wrap": True, "valign": "top"}),
    }


def _value(result: Any) -> Any:
    return "" if result is None else result


def build_template(path: Path) -> None:
    """The ranking workbook: Rank, Spill, Pairs, Compare, Guide and xlwings.conf sheets."""
    book = _book(path)
    f = _formats(book)
    _rank_sheet(book, f)
    _spill_sheet(book, f)
    _pairs_sheet(book, f)
    _compare_sheet(book, f)
    _guide_sheet(book, f)
    conf = book.add_worksheet("xlwings.conf")
    conf.write_string(0, 0, "UDF Modules")
    conf.write_string(0, 1, "bleu_xl.udfs")
    book.define_name("Reference", "=Rank!$B$2")
    book.define_name("Candidates", f"=Rank!$B${FIRST}:$B${FIRST + FILL_ROWS - 1}")
    book.define_name("Scores", f"=Rank!$C${FIRST}:$C${FIRST + FILL_ROWS - 1}")
    book.close()


def _reference_sheet(book: Any, f: dict[str, Any], name: str, title: str) -> Any:
    """A sheet with its title in A1 and the labelled reference input cell in B2 (what the formulas point at)."""
    ws = book.add_worksheet(name)
    ws.write_string(0, 0, title, f["title"])
    ws.write_string(1, 0, "Reference", f["label"])
    ws.write_string(1, 1, RANK_REFERENCE, f["input"])
    return ws


def _rank_sheet(book: Any, f: dict[str, Any]) -> None:
    ws = _reference_sheet(book, f, "Rank", "bleu-xl: rank copy variants against one approved reference")
    last = FIRST + FILL_ROWS - 1
    ws.write_string(2, 0, "Best candidate", f["label"])
    ws.write_string(3, 0, "Paste the reference in B2 and the variants under Candidate; the scores fill in.")
    headers = ["#", "Candidate", "BLEU-2", "p1", "p2", "BP", "Tokens", "Rank"]
    for c, name in enumerate(headers):
        ws.write_string(FIRST - 2, c, name, f["header"])

    variants = RANK_VARIANTS + [""] * (FILL_ROWS - len(RANK_VARIANTS))
    scores = [cells.bleu_cells(RANK_REFERENCE, v, "bleu") for v in variants]
    ranked = [s for s in scores if isinstance(s, float)]
    for i, text in enumerate(variants):
        r = FIRST - 1 + i  # 0-based row
        row = r + 1
        if text:
            ws.write_number(r, 0, i + 1)
            ws.write_string(r, 1, text)
        cell = f"B{row}"
        for c, (name, measure) in enumerate(
            [("BLEU2", "bleu"), ("BLEU2_P1", "p1"), ("BLEU2_P2", "p2"), ("BLEU2_BP", "bp")], start=2
        ):
            ws.write_formula(
                r, c, f"={name}($B$2,{cell})", f["score"], _value(cells.bleu_cells(RANK_REFERENCE, text, measure))
            )
        ws.write_formula(
            r, 6, f'=IF({cell}="","",COUNTA(BLEU2_TOKENS({cell})))', None, len(tokenize(text)) if text else ""
        )
        rank = 1 + sum(1 for s in ranked if s > scores[i]) if isinstance(scores[i], float) else ""
        ws.write_formula(r, 7, f'=IF(C{row}="","",RANK.EQ(C{row},$C${FIRST}:$C${last}))', None, rank)

    best = RANK_VARIANTS[scores.index(max(ranked))]
    ws.write_formula(
        2, 1, f"=INDEX($B${FIRST}:$B${last},MATCH(MAX($C${FIRST}:$C${last}),$C${FIRST}:$C${last},0))", f["input"], best
    )
    ws.conditional_format(
        FIRST - 1,
        2,
        last - 1,
        2,
        DATA_BAR,
    )
    chart = book.add_chart({"type": "bar"})
    n = len(RANK_VARIANTS)
    chart.add_series(
        {
            "name": "BLEU-2",
            "categories": ["Rank", FIRST - 1, 0, FIRST - 2 + n, 0],
            "values": ["Rank", FIRST - 1, 2, FIRST - 2 + n, 2],
            "fill": {"color": "#5B9BD5"},
        }
    )
    chart.set_title({"name": "BLEU-2 by candidate"})
    chart.set_legend({"none": True})
    chart.set_x_axis({"min": 0, "max": 1})
    chart.set_y_axis({"reverse": True})
    chart.set_size({"width": 480, "height": 20 * (n + 1)})
    ws.insert_chart(FIRST - 2, 9, chart)
    ws.freeze_panes(FIRST - 1, 0)
    ws.set_landscape()
    ws.set_paper(9)  # A4
    ws.fit_to_pages(1, 1)
    ws.print_area(0, 0, FIRST - 2 + n, 16)  # the samples: blank rows would show #NAME? where no add-in runs
    ws.set_column(0, 0, 14)
    ws.set_column(1, 1, 70)
    ws.set_column(2, 5, 9)
    ws.set_column(6, 7, 8)
    ws.set_row(1, 30)


def _spill_sheet(book: Any, f: dict[str, Any]) -> None:
    ws = _reference_sheet(book, f, "Spill", "The same ranking from one range formula: the fast way for long lists")
    last = FIRST + SPILL_ROWS - 1
    ws.write_string(FIRST - 2, 1, "Candidate", f["header"])
    for i, text in enumerate(RANK_VARIANTS):
        ws.write_string(FIRST - 1 + i, 1, text)
    candidates = [[t] for t in RANK_VARIANTS] + [[None]] * (SPILL_ROWS - len(RANK_VARIANTS))
    grid = cells.detail_cells(RANK_REFERENCE, candidates, True)
    formula = f"=BLEU2_DETAIL($B$2,B{FIRST}:B{last},TRUE)"
    top, left = FIRST - 2, 2
    ws.write_dynamic_array_formula(top, left, top + len(grid) - 1, left + len(grid[0]) - 1, formula, None, grid[0][0])
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            if (r, c) != (0, 0):
                _write_cached(ws, top + r, left + c, value, f["header"] if r == 0 else f["score"])
    ws.set_column(1, 1, 60)
    ws.set_column(2, 11, 8)
    ws.freeze_panes(FIRST - 1, 0)


def _write_cached(ws: Any, row: int, col: int, value: Any, fmt: Any) -> None:
    """A cached value inside a spill range (Excel recomputes it; viewers show it)."""
    if isinstance(value, str):
        if value:
            ws.write_string(row, col, value, fmt)
    else:
        ws.write_number(row, col, value, fmt)


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
PAIRS_ROWS = 30


def _pairs_sheet(book: Any, f: dict[str, Any]) -> None:
    ws = book.add_worksheet("Pairs")
    headers = ["Reference", "Candidate", "BLEU-2", "p1", "p2", "BP"]
    for c, name in enumerate(headers):
        ws.write_string(0, c, name, f["header"])
    rows = PAIRS + [("", "")] * (PAIRS_ROWS - len(PAIRS))
    for i, (ref, cand) in enumerate(rows):
        r, row = i + 1, i + 2
        if ref:
            ws.write_string(r, 0, ref, f["wrap"])
            ws.write_string(r, 1, cand, f["wrap"])
        for c, (name, measure) in enumerate(
            [("BLEU2", "bleu"), ("BLEU2_P1", "p1"), ("BLEU2_P2", "p2"), ("BLEU2_BP", "bp")], start=2
        ):
            ws.write_formula(r, c, f"={name}(A{row},B{row})", f["score"], _value(cells.bleu_cells(ref, cand, measure)))
    last = PAIRS_ROWS + 1
    ws.write_string(0, 7, "Corpus BLEU-2", f["header"])
    corpus = cells.corpus_cells([[r] for r, _ in rows], [[c] for _, c in rows])
    ws.write_formula(1, 7, f"=BLEU2_CORPUS(A2:A{last},B2:B{last})", f["score"], corpus)
    ws.write_string(2, 7, "Corpus BLEU adds up the n-gram counts of all pairs, then scores once.")
    ws.set_column(0, 1, 50)
    ws.set_column(2, 5, 9)
    ws.set_column(7, 7, 16)
    ws.freeze_panes(1, 0)


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
COMPARE_ROWS = 30
COMPARE_FIRST = 4  # Excel row of the first pair


def _compare_sheet(book: Any, f: dict[str, Any]) -> None:
    ws = book.add_worksheet("Compare")
    top, last = COMPARE_FIRST, COMPARE_FIRST + COMPARE_ROWS - 1
    ws.write_string(0, 0, "Which set of candidates is better, and is the difference real?", f["title"])
    for c, name in enumerate(["Reference", "Candidate A", "Candidate B", "BLEU-2 A", "BLEU-2 B"]):
        ws.write_string(top - 2, c, name, f["header"])
    rows = COMPARE + [("", "", "")] * (COMPARE_ROWS - len(COMPARE))
    for i, (ref, a, b) in enumerate(rows):
        r, row = top - 1 + i, top + i
        if ref:
            for c, text in enumerate((ref, a, b)):
                ws.write_string(r, c, text)
        ws.write_formula(r, 3, f"=BLEU2(A{row},B{row})", f["score"], _value(cells.bleu_cells(ref, a, "bleu")))
        ws.write_formula(r, 4, f"=BLEU2(A{row},C{row})", f["score"], _value(cells.bleu_cells(ref, b, "bleu")))

    refs, cands_a, cands_b = (list(col) for col in zip(*COMPARE))
    paired = paired_test(refs, cands_a, cands_b)
    ranges = f"A{top}:A{last},B{top}:B{last},C{top}:C{last}"
    for c, name in enumerate(["BLEU-2 A", "BLEU-2 B", "B - A", "p-value"], start=7):
        ws.write_string(top - 2, c, name, f["header"])
    ws.write_string(top - 1, 6, "Paired test", f["label"])
    values = [paired.score_a, paired.score_b, paired.difference, paired.p_value]
    ws.write_dynamic_array_formula(top - 1, 7, top - 1, 10, f"=BLEU2_PAIRED({ranges})", f["score"], values[0])
    for c, value in enumerate(values[1:], start=8):
        ws.write_number(top - 1, c, value, f["score"])
    for c, name in enumerate(["low", "score", "high"], start=7):
        ws.write_string(top + 1, c, name, f["header"])
    for k, (label, column, cands) in enumerate((("A: 95% interval", "B", cands_a), ("B: 95% interval", "C", cands_b))):
        r = top + 2 + k
        ci = bootstrap_ci(refs, cands)
        ws.write_string(r, 6, label, f["label"])
        formula = f"=BLEU2_CI(A{top}:A{last},{column}{top}:{column}{last})"
        ws.write_dynamic_array_formula(r, 7, r, 9, formula, f["score"], ci.low)
        ws.write_number(r, 8, ci.score, f["score"])
        ws.write_number(r, 9, ci.high, f["score"])
    p, diff = f"K{top}", f"J{top}"
    p_text = f'TEXT({p},"0.000")'
    verdict = (
        f'=IF({diff}=0,"A and B score the same (p = "&{p_text}&")",'
        f'IF({p}<0.05,IF({diff}>0,"B is better than A","A is better than B")&"; the difference is unlikely to be '
        f'chance, p = "&{p_text},IF({diff}>0,"B scores higher than A","A scores higher than B")&", but the '
        f'difference may well be chance, p = "&{p_text}))'
    )
    ws.write_string(top + 5, 6, "Verdict", f["label"])
    ws.write_formula(top + 5, 7, verdict, None, paired.verdict())
    ws.write_string(top + 6, 6, "Null hypothesis", f["label"])
    ws.write_string(top + 6, 7, "A and B are equally good against these references (paired bootstrap, 1000 resamples).")
    ws.set_column(0, 2, 38)
    ws.set_column(3, 4, 9)
    ws.set_column(6, 6, 16)
    ws.set_column(7, 10, 10)
    ws.freeze_panes(top - 1, 0)


def _guide_sheet(book: Any, f: dict[str, Any]) -> None:
    ws = book.add_worksheet("Guide")
    ws.set_column(0, 0, 14)
    ws.set_column(1, 1, 110)
    r = 0
    ws.write_string(r, 0, "bleu-xl guide", f["title"])
    r += 2
    for language, lines in GUIDE:
        ws.write_string(r, 0, language, f["label"])
        for line in lines:
            ws.write_string(r, 1, line, f["wrap"])
            r += 1
        r += 1
    ws.write_string(r, 0, "Definition", f["label"])
    ws.write_string(r, 1, DEFINITION, f["wrap"])
    r += 2
    functions = [
        ("=BLEU2(ref, cand)", "BLEU-2 of one pair, or of whole ranges (the result spills)"),
        ("=BLEU2_P1 / _P2 / _BP", "p1, p2 and the brevity penalty"),
        ("=BLEU2_DETAIL(ref, cands, TRUE)", "a row per pair: BLEU2, p1, num, den, p2, num, den, BP, r, c"),
        ("=BLEU2_CORPUS(refs, cands)", "one corpus-level score"),
        ("=BLEU2_TOKENS(text)", "the tokens that are compared"),
        ('=BLEU(ref, cand, 4, "none")', "BLEU-N with other settings"),
    ]
    for name, what in functions:
        ws.write_string(r, 0, name, f["label"])
        ws.write_string(r, 1, what)
        r += 1


def build_sample(path: Path, name: str) -> None:
    """A small workbook of hand-checkable pairs: inputs, the expected BLEU-2 and how it is worked out."""
    title, cases = SAMPLES[name]
    book = _book(path)
    f = _formats(book)
    ws = book.add_worksheet("Pairs")
    width = max(len(refs) for refs, *_ in cases)
    ref_headers = ["Reference"] if width == 1 else [f"Reference {i + 1}" for i in range(width)]
    headers = [*ref_headers, "Candidate", "expected", "by hand"]
    for c, header in enumerate(headers):
        ws.write_string(0, c, header, f["header"])
    for r, (refs, cand, expected, how) in enumerate(cases, start=1):
        for c, ref in enumerate(refs):
            ws.write_string(r, c, ref)
        if cand:
            ws.write_string(r, width, cand)
        if expected != "":
            ws.write_number(r, width + 1, expected, f["score"])
        ws.write_string(r, width + 2, how)
    ws.set_column(0, width, 45)
    ws.set_column(width + 1, width + 1, 10)
    ws.set_column(width + 2, width + 2, 45)
    book.set_properties({**_CORE_PROPERTIES, "title": title})
    book.close()


def build_all(folder: Path, log: Callable[[str], None] = lambda _: None) -> list[Path]:
    """Write the template and every sample under ``folder``; returns the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "samples").mkdir(exist_ok=True)
    written = [folder / "bleu2_ranking.xlsx"]
    build_template(written[0])
    for name in SAMPLES:
        path = folder / "samples" / f"{name}.xlsx"
        build_sample(path, name)
        written.append(path)
    for path in written:
        log(str(path))
    return written
