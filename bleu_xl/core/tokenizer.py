"""Text to tokens: invisible characters removed, NFKC + casefold, words of letters, marks and numbers, one token
per CJK character, one per character cluster of Thai, Lao, Myanmar and Khmer (scripts written without spaces between
words).

Standard library only (it runs under Pyodide too).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from .errors import BleuTypeError

__all__ = [
    "CJK_RANGES",
    "INVISIBLE_RANGES",
    "SEA_RANGES",
    "is_cjk",
    "is_sea",
    "prepare",
    "tokenize",
    "tokenize_literally",
]

#: Code point ranges (inclusive) removed before any other rule: Unicode's default-ignorable code points (its
#: Default_Ignorable_Code_Point property: characters drawn as nothing, such as the soft hyphen that Word and web
#: pages hide inside words, the zero-width joiner, direction marks, and variation selectors, which choose
#: how a character is drawn, not which one it is: \u2764\ufe0f is the heart drawn as an emoji), and the keycap mark
#: of emoji keycaps (1\ufe0f\u20e3 is the digit 1 drawn on a key). Left in, a mark among them begins a token (an
#: invisible word no plain copy of the text has) and any other splits the word it sits in.
INVISIBLE_RANGES: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),  # soft hyphen
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x061C, 0x061C),  # Arabic letter mark
    (0x115F, 0x1160),  # Hangul fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian free variation selectors and vowel separator
    # Not the zero-width space and non-joiner (U+200B, U+200C): they part words. The space is a word boundary in
    # Unicode's rules, and in Persian the non-joiner stands where a space may (می‌خواهم, می خواهم).
    (0x200D, 0x200F),  # zero-width joiner, direction marks
    (0x202A, 0x202E),  # direction embeddings and overrides
    (0x2060, 0x206F),  # word joiner, invisible operators, direction isolates
    (0x20E3, 0x20E3),  # combining enclosing keycap (not default-ignorable: drawn as the key around a digit)
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors 1-16 (15: drawn as text, 16: drawn as an emoji)
    (0xFEFF, 0xFEFF),  # zero-width no-break space (a byte order mark inside the text)
    (0xFFA0, 0xFFA0),  # half-width Hangul filler
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),  # shorthand format controls
    (0x1D173, 0x1D17A),  # musical symbol format controls
    (0xE0000, 0xE0FFF),  # tags and variation selectors 17-256 (ideographic variants)
)

#: Code point ranges (inclusive) whose letters, marks and numbers are scored one character at a time.
CJK_RANGES: tuple[tuple[int, int], ...] = (
    (0x1100, 0x11FF),
    (0x2E80, 0x2FDF),
    (0x3005, 0x3007),
    (0x3021, 0x3029),
    (0x3031, 0x3035),
    (0x3038, 0x303C),
    (0x3040, 0x30FF),
    (0x3130, 0x318F),
    (0x31F0, 0x31FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xA960, 0xA97F),
    (0xAC00, 0xD7FF),
    (0xF900, 0xFAFF),
    (0xFF66, 0xFF9F),
    (0x20000, 0x3FFFF),
)

#: Code point ranges (inclusive) of Thai, Lao, Myanmar and Khmer: each of their letters begins a token, which
#: the marks after it (vowel signs, tone marks) join. Those scripts put no spaces between words, so a run of
#: their letters is a whole phrase, not a word; a cluster is the unit that can match, as a CJK character is.
SEA_RANGES: tuple[tuple[int, int], ...] = (
    (0x0E00, 0x0E7F),  # Thai
    (0x0E80, 0x0EFF),  # Lao
    (0x1000, 0x109F),  # Myanmar
    (0x1780, 0x17FF),  # Khmer
    (0x19E0, 0x19FF),  # Khmer symbols
    (0xA9E0, 0xA9FF),  # Myanmar Extended-B
    (0xAA60, 0xAA7F),  # Myanmar Extended-A
)


_INVISIBLE = re.compile("[" + "".join(f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in INVISIBLE_RANGES) + "]")


def _removed(cp: int) -> bool:
    return any(lo <= cp <= hi for lo, hi in INVISIBLE_RANGES)


def _is_lmn(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LMN"


def _fast_path_tables() -> tuple[bytes, re.Pattern[str], dict[str, str]]:
    """Tables for the fast path taken by most Latin-script text (English, French, Portuguese, German...).

    Where every character is either a Latin-1 character that NFKC + casefold map to one Latin-1 character, or
    a separator that stays a separator after NFKC (dashes, curly quotes, ellipsis, currency signs), one
    bytes.translate lowercases the letters and turns every separator into a space, and split() does the rest:
    the same tokens as the general path, several times faster. Returns the byte table, a pattern that finds
    any character outside that set (such text takes the general path), and the letters that fold to several
    Latin-1 letters (ß to ss), replaced after the translation. The table maps the Latin-1 characters outside
    the set (µ, ½, ´, the soft hyphen) to NUL, which nothing else maps to: text made of Latin-1 alone needs no
    pattern search.
    """
    table = bytearray(256)
    allowed = []
    expand = {}
    for cp in range(256):
        ch = chr(cp)
        folded = unicodedata.normalize("NFKC", ch).casefold()
        if _removed(cp):  # the soft hyphen: to NUL, so that text holding it takes the general path
            continue
        if _is_lmn(ch):
            if len(folded) == 1 and ord(folded) < 256:
                table[cp] = ord(folded)
                allowed.append(cp)
            elif all(ord(c) < 256 and _is_lmn(c) for c in folded):
                table[cp] = cp
                expand[ch] = folded
                allowed.append(cp)
        elif not any(map(_is_lmn, folded)):
            table[cp] = ord(" ")
            allowed.append(cp)
    # Non-Latin-1 separators: encode("latin-1", "replace") turns them into "?", a separator too.
    for cp in range(0x2000, 0x20D0):
        ch = chr(cp)
        if not _removed(cp) and not _is_lmn(ch) and not any(map(_is_lmn, unicodedata.normalize("NFKC", ch).casefold())):
            allowed.append(cp)
    return bytes(table), re.compile("[^" + "".join(f"\\u{cp:04x}" for cp in allowed) + "]"), expand


_FAST_TABLE, _NOT_FAST, _FAST_EXPAND = _fast_path_tables()


def is_cjk(char: str) -> bool:
    """True when the code point of ``char`` lies in one of :data:`CJK_RANGES`."""
    cp = ord(char)
    return any(lo <= cp <= hi for lo, hi in CJK_RANGES)


def is_sea(char: str) -> bool:
    """True when the code point of ``char`` lies in one of :data:`SEA_RANGES` (Thai, Lao, Myanmar, Khmer)."""
    cp = ord(char)
    return any(lo <= cp <= hi for lo, hi in SEA_RANGES)


def _ranges(code_points: list[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for cp in code_points:
        if runs and runs[-1][1] == cp - 1:
            runs[-1] = (runs[-1][0], cp)
        else:
            runs.append((cp, cp))
    return runs


def _char_class(runs: list[tuple[int, int]]) -> str:
    def esc(cp: int) -> str:
        return f"\\U{cp:08x}"

    return "[" + "".join(esc(a) if a == b else f"{esc(a)}-{esc(b)}" for a, b in runs) + "]"


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")

# Full-width forms (U+FF01-FF5E, and the ideographic space) are what usually makes CJK text not NFKC-normal: the
# Chinese comma above all. Each has a one-character compatibility decomposition, so replacing it by that first
# leaves NFKC's result exactly the same, and lets normalize() skip its full decomposition on most such text.
_FULL_WIDTH = re.compile("[\u3000\uff01-\uff5e]")
_FULL_WIDTH_IMAGE = {chr(cp): unicodedata.normalize("NFKC", chr(cp)) for cp in [0x3000, *range(0xFF01, 0xFF5F)]}


def _narrow(match: re.Match[str]) -> str:
    return _FULL_WIDTH_IMAGE[match.group()]


@lru_cache(maxsize=2)
def _pattern(astral: bool) -> re.Pattern[str]:
    """The token pattern, built from this Python's own Unicode database on first use.

    The classes are exactly "category L*, M* or N*" (Python's \\w would drop combining marks and keep "_"),
    split four ways: CJK letters, marks and numbers (a token each); letters of :data:`SEA_RANGES` (each begins a
    token that the marks after it join); other marks; other letters and numbers. The four are disjoint, so the
    alternatives ``cjk | sea mark* | (other | mark)+`` find exactly the tokens of :func:`tokenize_literally`.
    Two variants: regex classes that hold ranges above U+FFFF test those ranges one by one for every
    character that is not in them (each space, each comma), which makes them several times slower, so text
    with no character above U+FFFF (nearly all text) uses classes limited to the Basic Multilingual Plane.
    """
    category = unicodedata.category
    cjk: list[int] = []
    sea: list[int] = []
    mark: list[int] = []
    word: list[int] = []
    for cp in range(0x110000 if astral else 0x10000):
        kind = category(chr(cp))[0]
        if kind not in "LMN":
            continue
        if any(lo <= cp <= hi for lo, hi in CJK_RANGES):
            cjk.append(cp)
        elif kind == "L" and any(lo <= cp <= hi for lo, hi in SEA_RANGES):
            sea.append(cp)
        else:
            (mark if kind == "M" else word).append(cp)
    marks = _char_class(_ranges(mark))
    word_or_mark = _char_class(_ranges(sorted(word + mark)))
    return re.compile(f"{word_or_mark}+|{_char_class(_ranges(cjk))}|{_char_class(_ranges(sea))}{marks}*")


def prepare() -> None:
    """Build the token pattern now (about 0.1 s) rather than on the first non-Latin text: before forking workers,
    so that each inherits it."""
    _pattern(False)


def tokenize_literally(text: str) -> list[str]:
    """The token rules read literally, one character at a time: slow and obviously right.

    After the characters of :data:`INVISIBLE_RANGES` are removed, NFKC and casefold, left to right: a character that
    is not a letter, mark or number ends the current token and is dropped; a CJK letter, mark or number is a token by
    itself; a letter of Thai, Lao, Myanmar or Khmer (:data:`SEA_RANGES`) ends the current token and begins a new one;
    any other mark joins the current token, or begins one; any other letter or number joins the current token, unless
    that token began with a letter of those four scripts: then it ends it and begins a new one.

    :func:`tokenize` must give exactly these tokens for every text (the property tests hold the two equal).

    >>> tokenize_literally("L'été, 2026 — 東京タワー!")
    ['l', 'été', '2026', '東', '京', 'タ', 'ワ', 'ー']
    >>> tokenize_literally("จัดส่ง ไทยabc ๒๐๒๖")
    ['จั', 'ด', 'ส่', 'ง', 'ไ', 'ท', 'ย', 'abc', '๒๐๒๖']
    """
    tokens: list[str] = []
    word = ""
    sea_begun = False  # the current token began with a letter of SEA_RANGES

    def end_token() -> None:
        nonlocal word, sea_begun
        if word:
            tokens.append(word)
        word, sea_begun = "", False

    shown = "".join(ch for ch in text if not _removed(ord(ch)))
    for ch in unicodedata.normalize("NFKC", shown).casefold():
        kind = unicodedata.category(ch)[0]
        if kind not in "LMN":
            end_token()
        elif is_cjk(ch):
            end_token()
            tokens.append(ch)
        elif kind == "L" and is_sea(ch):
            end_token()
            word, sea_begun = ch, True
        elif kind == "M":
            word += ch
        elif sea_begun:
            end_token()
            word = ch
        else:
            word += ch
    end_token()
    return tokens


def tokenize(text: str) -> list[str]:
    """Split ``text`` into BLEU tokens: the tokens of :func:`tokenize_literally`, by fast paths.

    Invisible characters and the keycap mark (:data:`INVISIBLE_RANGES`) are removed, and the text is normalised
    with ``unicodedata.normalize("NFKC", text).casefold()``; a letter, mark or number
    in a CJK range is a token by itself, a letter of Thai, Lao, Myanmar or Khmer begins a token that the marks
    after it join, any other run of letters, marks and numbers is a word, and everything else (spaces,
    punctuation, symbols, emoji, ``_``) separates words and is dropped.

    Fast paths: ASCII and Latin-1 text through one ``bytes.translate`` and ``split``, other text through one
    regex built from the Unicode database (limited to the Basic Multilingual Plane when the text allows).
    The literal reading is tens of times slower (benchmarks/bench_fast_paths.py): it would put ``score`` far below
    sacrebleu.

    >>> tokenize("L'été, 2026 — 東京タワー!")
    ['l', 'été', '2026', '東', '京', 'タ', 'ワ', 'ー']
    >>> tokenize("ส่งฟรี")
    ['ส่', 'ง', 'ฟ', 'รี']
    """
    if not isinstance(text, str):
        raise BleuTypeError(f"text to tokenize must be a string, not {type(text).__name__}")
    if text.isascii():
        return text.encode("ascii").translate(_FAST_TABLE).decode("ascii").split()
    encoded = text.encode("latin-1", "replace")
    # Characters beyond Latin-1 became "?" (byte 63): the fast path holds if they are all separators (’ — …).
    # Byte membership tests are single memchr calls, several times cheaper than counting or substring search.
    latin1 = 63 not in encoded if "?" not in text else encoded.count(63) == text.count("?")
    if latin1 or _NOT_FAST.search(text) is None:
        encoded = encoded.translate(_FAST_TABLE)
        if 0 not in encoded:  # NUL marks a Latin-1 character the fast path cannot take (µ, ½, ´)
            text = encoded.decode("latin-1")
            for letter, folded in _FAST_EXPAND.items():
                if letter in text:
                    text = text.replace(letter, folded)
            return text.split()
    text = _INVISIBLE.sub("", text)
    if not unicodedata.is_normalized("NFKC", text):
        text = unicodedata.normalize("NFKC", _FULL_WIDTH.sub(_narrow, text))
    text = text.casefold()
    return _pattern(_ASTRAL.search(text) is not None).findall(text)
