"""Thai, Lao, Myanmar and Khmer per character cluster (scoring 0.2): the rules by example, and every fast path held
to the literal reading on random text that mixes those scripts with Latin, CJK, marks and digits."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_xl import tokenize
from bleu_xl.core.tokenizer import INVISIBLE_RANGES, SEA_RANGES, is_cjk, is_sea, tokenize_literally


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("จัดส่ง", ["จั", "ด", "ส่", "ง"]),  # the definition's examples
        ("ไทยabc", ["ไ", "ท", "ย", "abc"]),
        ("๒๐๒๖", ["๒๐๒๖"]),  # Thai digits are numbers: they stay one token
        ("नमस्ते", ["नमस्ते"]),  # Hindi is written with spaces: one word, as in 0.1
        ("คำ", ["คํ", "า"]),  # NFKC splits SARA AM into NIKHAHIT (a mark) and SARA AA (a letter)
        ("abcไทย", ["abc", "ไ", "ท", "ย"]),
        ("ก๒", ["ก", "๒"]),  # a number after a cluster begins a new token
        ("๒ก", ["๒", "ก"]),
        ("ก็", ["ก็"]),  # marks join the letter before them
        ("abc็", ["abc็"]),  # ... whatever its script
        ("\u0e31abc", ["\u0e31abc"]),  # a mark with no token before it begins one, which letters then join
        ("ส่งฟรี!", ["ส่", "ง", "ฟ", "รี"]),
        ("ສະບາຍດີ", ["ສ", "ະ", "ບ", "າ", "ຍ", "ດີ"]),  # Lao: vowels written as letters (Lo) are tokens too
        ("မြန်မာ", ["မြ", "န်", "မာ"]),  # Myanmar: the medial, the asat and the vowel sign are marks
        ("ខ្មែរ", ["ខ្", "មែ", "រ"]),  # Khmer: the coeng (virama) ends with its consonant, the next one begins
        ("東京ไทย", ["東", "京", "ไ", "ท", "ย"]),
        ("ไทย 2026 ๆ", ["ไ", "ท", "ย", "2026", "ๆ"]),  # MAI YAMOK is a letter (Lm)
        ("฿100", ["100"]),  # the baht sign is a symbol: it separates
    ],
)
def test_examples(text: str, tokens: list[str]) -> None:
    assert tokenize(text) == tokens
    assert tokenize_literally(text) == tokens


def test_the_ranges_are_the_definitions() -> None:
    assert SEA_RANGES == (
        (0x0E00, 0x0E7F),
        (0x0E80, 0x0EFF),
        (0x1000, 0x109F),
        (0x1780, 0x17FF),
        (0x19E0, 0x19FF),
        (0xA9E0, 0xA9FF),
        (0xAA60, 0xAA7F),
    )
    inside = {cp for lo, hi in SEA_RANGES for cp in range(lo, hi + 1)}
    assert all(is_sea(chr(cp)) == (cp in inside) for cp in range(0x10000))
    assert not any(is_cjk(chr(cp)) for cp in inside)


def _in_ranges(ranges: tuple[tuple[int, int], ...]) -> st.SearchStrategy[str]:
    return st.one_of(*(st.characters(min_codepoint=lo, max_codepoint=hi) for lo, hi in ranges))


MIXED = st.text(
    alphabet=st.one_of(
        _in_ranges(SEA_RANGES),
        st.characters(min_codepoint=0x20, max_codepoint=0x24F),  # Latin, digits, punctuation, spaces
        st.characters(min_codepoint=0x3040, max_codepoint=0x30FF),  # kana, with its combining marks
        st.characters(min_codepoint=0x4E00, max_codepoint=0x4E80),
        st.characters(categories=["Mn", "Mc", "Me"]),  # marks of every script
        st.characters(categories=["Nd", "Nl", "No"]),  # digits of every script
        st.characters(categories=["Zs", "Po", "Sc", "So"]),
        st.characters(min_codepoint=0xFF00, max_codepoint=0xFFEF),  # full-width forms (NFKC changes them)
    ),
    max_size=60,
)


@settings(max_examples=1500, deadline=None)
@given(MIXED)
def test_fast_paths_equal_the_literal_rules_on_mixed_scripts(text: str) -> None:
    assert tokenize(text) == tokenize_literally(text)


@settings(max_examples=300, deadline=None)
@given(MIXED.map(lambda t: t + "\U00020000"))  # a character above U+FFFF: the pattern with astral classes
def test_the_astral_pattern_equals_the_literal_rules_too(text: str) -> None:
    assert tokenize(text) == tokenize_literally(text)


def tokenize_0_1(text: str) -> list[str]:
    """The 0.1 rules: words of letters, marks and numbers, one token per CJK character."""
    tokens, word = [], ""
    for ch in unicodedata.normalize("NFKC", text).casefold():
        if unicodedata.category(ch)[0] not in "LMN" or is_cjk(ch):
            if word:
                tokens.append(word)
            word = ""
            if is_cjk(ch) and unicodedata.category(ch)[0] in "LMN":
                tokens.append(ch)
        else:
            word += ch
    return [*tokens, word] if word else tokens


@settings(max_examples=1000, deadline=None)
@given(st.text(max_size=60))
def test_text_without_those_scripts_tokenizes_as_in_0_1(text: str) -> None:
    if any(map(is_sea, unicodedata.normalize("NFKC", text))):
        return
    # 0.2.0 also removes variation selectors and the keycap mark, which 0.1 made invisible words of.
    if any(lo <= ord(ch) <= hi for ch in text for lo, hi in INVISIBLE_RANGES):
        return
    assert tokenize(text) == tokenize_0_1(text)
