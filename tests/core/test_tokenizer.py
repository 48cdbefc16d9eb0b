"""The tokenizer, rule by rule, and its fast paths against the character-by-character reading of the rules."""

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_xl import tokenize
from bleu_xl.core.tokenizer import CJK_RANGES, is_cjk, tokenize_literally


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("L'été, 2026 — 東京タワー!", ["l", "été", "2026", "東", "京", "タ", "ワ", "ー"]),
        ("The cat sat.", ["the", "cat", "sat"]),
        ("", []),
        ("   ,;!? ", []),
        ("snake_case_name", ["snake", "case", "name"]),
        ("great 👍 deal 🎉", ["great", "deal"]),
        ("ＦＵＬＬ－ＷＩＤＴＨ １２３", ["full", "width", "123"]),
        ("STRASSE", ["strasse"]),
        ("Straße", ["strasse"]),
        ("2026年の春", ["2026", "年", "の", "春"]),
        ("東京・大阪", ["東", "京", "大", "阪"]),
        ("abc東def", ["abc", "東", "def"]),
        ("한국어 문장", ["한", "국", "어", "문", "장"]),
        ("ｶﾀｶﾅ", ["カ", "タ", "カ", "ナ"]),  # half-width katakana: NFKC makes them full width, still CJK
        ("〇一二", ["〇", "一", "二"]),
        ("हिन्दी भाषा", ["हिन्दी", "भाषा"]),  # vowel signs and virama are marks: they stay inside the word
        ("café", ["café"]),
        ("cafe\u0301", ["café"]),  # decomposed accent composes under NFKC
        ("C'EST l'Été", ["c", "est", "l", "été"]),
        ("x²", ["x2"]),  # NFKC: superscript two is the digit 2, part of the word
        ("e-mail, co-op", ["e", "mail", "co", "op"]),
        ("𠀋𠀀", ["𠀋", "𠀀"]),  # plane 2 ideographs
        ("Ünïcödé ÀÉÎ", ["ünïcödé", "àéî"]),
        ("tab\tnew\nline", ["tab", "new", "line"]),
    ],
)
def test_examples(text: str, tokens: list[str]) -> None:
    assert tokenize(text) == tokens
    assert tokenize_literally(text) == tokens  # the slow reading the fast paths are held to is right too


@pytest.mark.parametrize("bad", [None, 3, b"le chat", ["le", "chat"]])
def test_non_string_is_a_type_error_naming_the_type(bad: object) -> None:
    with pytest.raises(TypeError, match=f"must be a string, not {type(bad).__name__}$"):
        tokenize(bad)  # type: ignore[arg-type]


def test_combining_marks_are_not_python_word_characters() -> None:
    # The reason the tokenizer cannot use \w: a Devanagari vowel sign is a mark (Mc), not \w.
    import re

    assert unicodedata.category("\u093f") == "Mc"
    assert re.fullmatch(r"\w", "\u093f") is None
    assert tokenize("ह\u093fन") == ["ह\u093fन"]


def test_is_cjk_bounds() -> None:
    for lo, hi in CJK_RANGES:
        assert is_cjk(chr(lo)) and is_cjk(chr(hi))
    assert not is_cjk("a") and not is_cjk(chr(0x3004)) and not is_cjk(chr(0x40000))


def test_ascii_fast_path_matches_general_path() -> None:
    text = "Hello, World! It's 2026: price_tag=$10.99 (NEW) ~ a-b"
    assert tokenize(text) == tokenize_literally(text)
    # The same text with one non-ASCII char takes the general path and must split the same way.
    assert tokenize(text + " é") == [*tokenize_literally(text), "é"]


@settings(max_examples=800, deadline=None)
@given(st.text())
def test_matches_literal_specification_on_any_unicode(text: str) -> None:
    assert tokenize(text) == tokenize_literally(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=0x2E80, max_codepoint=0xFFFF)))
def test_matches_specification_around_cjk_blocks(text: str) -> None:
    assert tokenize(text) == tokenize_literally(text)


@settings(max_examples=800, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=0xFF)))
def test_latin1_fast_path_matches_specification(text: str) -> None:
    assert tokenize(text) == tokenize_literally(text)


def test_latin1_special_characters_take_the_general_path() -> None:
    assert tokenize("Straße ª º µ ² ½ ´") == ["strasse", "a", "o", "μ", "2", "1", "2", "\u0301"]


@settings(max_examples=800, deadline=None)
@given(
    st.text(
        alphabet=st.one_of(st.characters(max_codepoint=0xFF), st.characters(min_codepoint=0x2000, max_codepoint=0x20FF))
    )
)
def test_fast_path_with_typographic_punctuation_matches_specification(text: str) -> None:
    assert tokenize(text) == tokenize_literally(text)


def test_typographic_punctuation() -> None:
    assert tokenize("« Déjà‑vu » — “quoted”… 10 € ™") == ["déjà", "vu", "quoted", "10", "tm"]


# Full-width forms, combining marks that compose with what precedes them (＝ + U+0338 gives ≠ under NFKC),
# CJK text and ASCII: the tokenizer replaces full-width forms before normalising, which must change nothing.
_AROUND_FULL_WIDTH = st.one_of(
    st.characters(min_codepoint=0xFF00, max_codepoint=0xFFEF),
    st.sampled_from(["\u3000", "\u0338", "\u0301", "\u3099", "\u309a", "か", "ﾞ", "東", "=", "a", " "]),
)


@settings(max_examples=800, deadline=None)
@given(st.text(alphabet=_AROUND_FULL_WIDTH))
def test_full_width_forms_match_specification(text: str) -> None:
    assert tokenize(text) == tokenize_literally(text)


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("你好，世界！（２０２６）", ["你", "好", "世", "界", "2026"]),
        ("＝\u0338", []),  # NFKC composes = and U+0338 into ≠, a symbol: no token
        ("Ａ\u0301ｂ", ["áb"]),
        ("か\u3099", ["が"]),
    ],
)
def test_full_width_examples(text: str, tokens: list[str]) -> None:
    assert tokenize(text) == tokens == tokenize_literally(text)


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("Free delivery on every order \u2764\ufe0f", ["free", "delivery", "on", "every", "order"]),  # typed ❤️
        ("Free delivery on every order \u2764", ["free", "delivery", "on", "every", "order"]),
        ("\u2714\ufe0f\u2714\ufe0f done", ["done"]),
        ("love\u2764\ufe0fyou", ["love", "you"]),
        ("1\ufe0f\u20e3 Free delivery", ["1", "free", "delivery"]),  # the keycap 1️⃣ is the digit on a key
        ("#\ufe0f\u20e3 tag", ["tag"]),
        ("\u845b\U000e0101\u98fe", ["\u845b", "\u98fe"]),  # an ideographic variation selector picks a glyph
        ("\u2603\ufe0e snow", ["snow"]),  # variation selector 15: drawn as text
        ("\u1820\u180b\u1821", ["\u1820\u1821"]),  # a Mongolian free variation selector inside a word
        ("\U0001f44d\U0001f3fd ok", ["ok"]),  # a skin tone is a symbol, as the emoji it follows
        ("\U0001f469\u200d\U0001f4bb dev", ["dev"]),  # a joiner between emoji
        ("free deli\xadvery", ["free", "delivery"]),  # Word's soft hyphen, hidden inside a word
        # The Persian non-joiner parts words where a space may stand: as the space does (not removed).
        ("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", ["\u0645\u06cc", "\u062e\u0648\u0627\u0647\u0645"]),
        ("\u0915\u094d\u200d\u0937", ["\u0915\u094d\u0937"]),  # a joiner inside a Hindi word
        ("zero\u200bwidth", ["zero", "width"]),  # the zero-width space parts words (not removed)
        ("\u200fשלום\u200e 2026", ["שלום", "2026"]),  # direction marks
        ("\ufeffbom inside", ["bom", "inside"]),
        ("\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f flag", ["flag"]),  # tag characters
    ],
)
def test_invisible_characters_and_the_keycap_mark_are_removed_first(text: str, tokens: list[str]) -> None:
    # Left in, a selector was a mark, and a mark begins a token (❤️ was an invisible word that ❤ is not); a soft
    # hyphen or a joiner split the word it sits in.
    assert tokenize(text) == tokens == tokenize_literally(text)


_AROUND_SELECTORS = st.one_of(
    st.sampled_from(["\ufe0e", "\ufe0f", "\ufe00", "\u20e3", "\u180b", "\u180f", "\U000e0100", "\U000e01ef"]),
    st.sampled_from(["\xad", "\u200b", "\u200c", "\u200d", "\u200e", "\u2060", "\ufeff", "\U000e0067", "\u3164"]),
    st.sampled_from(
        ["\u2764", "\U0001f389", "1", "#", "a", "é", "\u0301", "\u845b", "\u0e2a", "\u1820", " ", "\u200d"]
    ),
    st.characters(min_codepoint=0x20D0, max_codepoint=0x20FF),
    st.characters(min_codepoint=0xFE00, max_codepoint=0xFE2F),
)


@settings(max_examples=800, deadline=None)
@given(st.text(alphabet=_AROUND_SELECTORS))
def test_text_with_invisible_characters_matches_specification(text: str) -> None:
    assert tokenize(text) == tokenize_literally(text)


def test_scoring_md_lists_the_invisible_ranges() -> None:
    from pathlib import Path

    from bleu_xl.core.tokenizer import INVISIBLE_RANGES

    rule = Path(__file__).parents[2].joinpath("docs", "scoring.md").read_text(encoding="utf-8")
    rule = rule[rule.index("1. Characters drawn as nothing") : rule.index("2. The text is normalised")]
    listed = " ".join(rule.split())
    for lo, hi in INVISIBLE_RANGES:
        shown = f"U+{lo:04X}" if lo == hi else f"U+{lo:04X}-{hi:04X}"
        assert shown in listed, shown
