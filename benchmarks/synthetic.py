"""Synthetic but realistic text pairs (Latin-script copy with accents and punctuation, CJK text) for tests and
benchmarks: the project's own data, so nothing is fetched or shipped."""

from __future__ import annotations

import random

__all__ = ["make_pairs", "make_text", "make_variants", "perturb"]

# Marketing and customer-service vocabulary in English, Portuguese, French and German.
LATIN = """
the a delivery arrived on time and product came well packed fast shipping great price quality new offer
today only free entrega chegou prazo produto veio bem embalado oferta hoje grátis livraison arrivée à
l'heure produit été emballé rapide prix qualité nouveau café straße über
""".split()
CJK = [*"東京大阪の新しい商品が届きました配送無料今日だけ価格品質한국어문장", "タワー", "2026年", "iPhone "]
LATIN_PUNCT = [",", ".", "!", "?", " —", ":", ";", "…", " »", "’s"]
CJK_PUNCT = ["、", "。", "！", "・", "（", "）", " "]


def _units(rng: random.Random, n: int, cjk: bool) -> list[str]:
    units = []
    for _ in range(n):
        if cjk:
            unit = rng.choice(CJK) if rng.random() < 0.95 else rng.choice(LATIN) + " "
        else:
            unit = rng.choice(LATIN)
            if rng.random() < 0.1:
                unit = unit.upper() if rng.random() < 0.5 else unit.capitalize()
        if rng.random() < 0.1:
            unit += rng.choice(CJK_PUNCT if cjk else LATIN_PUNCT)
        units.append(unit)
    return units


def _join(units: list[str], cjk: bool) -> str:
    return ("" if cjk else " ").join(units)


def make_text(rng: random.Random, n: int, cjk: bool | None = None) -> str:
    """A text of ``n`` words (Latin script) or characters (CJK, one text in five unless ``cjk`` is given)."""
    if cjk is None:
        cjk = rng.random() < 0.2
    return _join(_units(rng, n, cjk), cjk)


def perturb(rng: random.Random, units: list[str], cjk: bool) -> str:
    """A candidate made from a reference's words: some dropped, replaced or swapped, a few added."""
    out = []
    for unit in units:
        roll = rng.random()
        if roll < 0.1:
            continue
        out.append(_units(rng, 1, cjk)[0] if roll < 0.25 else unit)
    if len(out) > 2 and rng.random() < 0.3:
        i = rng.randrange(len(out) - 1)
        out[i], out[i + 1] = out[i + 1], out[i]
    if rng.random() < 0.2:
        out += _units(rng, rng.randint(1, 5), cjk)
    return _join(out, cjk)


def make_pairs(count: int, seed: int = 2026, max_len: int = 25, min_len: int = 1) -> list[tuple[str, str]]:
    """``count`` (reference, candidate) pairs: mostly edited copies of the reference, a few unrelated or equal."""
    rng = random.Random(seed)
    pairs = []
    for _ in range(count):
        cjk = rng.random() < 0.2
        units = _units(rng, rng.randint(min_len, max_len), cjk)
        ref = _join(units, cjk)
        roll = rng.random()
        if roll < 0.1:
            cand = make_text(rng, rng.randint(0, max_len), cjk)  # unrelated
        elif roll < 0.15:
            cand = ref
        else:
            cand = perturb(rng, units, cjk)
        pairs.append((ref, cand))
    return pairs


def make_variants(
    count: int, per_reference: int = 16, seed: int = 2026, max_len: int = 25, min_len: int = 1
) -> list[tuple[str, list[str]]]:
    """``count`` references, each with ``per_reference`` candidates made from it (some words dropped, replaced,
    swapped or added): the variants of a text that ``score_many`` ranks."""
    rng = random.Random(seed)
    groups = []
    for _ in range(count):
        cjk = rng.random() < 0.2
        units = _units(rng, rng.randint(min_len, max_len), cjk)
        groups.append((_join(units, cjk), [perturb(rng, units, cjk) for _ in range(per_reference)]))
    return groups
