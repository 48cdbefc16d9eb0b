"""The East Asian and Thai code pages of Excel's plain "CSV" on those Windows: a file in one is refused, naming it.

Excel saves "CSV (Comma delimited)" in the system's ANSI code page: Shift-JIS (cp932) on Japanese Windows, GBK
(cp936) on Simplified Chinese, UHC (cp949) on Korean, Big5 (cp950) on Traditional Chinese, cp874 on Thai. Read in
a Western code page, such a file is text of accented letters and symbols (``全品送料`` as ``ëSïiëó``), every score
wrong. Where the Western reading holds an odd character, each of these code pages that reads the file wholly as
text of its own script, in words of several characters, is named with a word as it reads it: the user knows which
is theirs, and two of them can read the same bytes (Shift-JIS bytes are also valid GBK), so none is chosen for
them.
"""

from __future__ import annotations

import re
import unicodedata

from ...core.errors import Part, Setting
from ...core.tokenizer import is_cjk, is_sea
from ...table.sheet import InputError

__all__ = ["WIDE_CODE_PAGES", "refuse_wide_code_page", "wide_readings"]

#: The code pages, as the user gives them with the encoding setting.
WIDE_CODE_PAGES = ("cp932", "gbk", "cp949", "big5", "cp874")
#: The share of a reading's characters past ASCII that must be its script's (or East Asian punctuation and forms).
OWN_SCRIPT_SHARE = 0.9
#: The bytes read to judge: a line break is never part of a character in these code pages, so the cut is clean.
SAMPLE_BYTES = 1 << 20
#: The share of a reading's characters past ASCII that must stand beside another: text of these scripts is words
#: of several such characters (用ケース, 이번), where Western text read so has one among ASCII letters for each accent
#: or symbol (180 °C read as UHC is 180 캜, a double-byte code page taking the letter after it; L'été read as cp874
#: is L'้t้).
RUNS_SHARE = 0.5
_WORD = re.compile(r"[^\x00-\x7f]+")
_PUNCTUATION = frozenset("…‘’“”•–—·×÷°±§¶©®™€")


def _own_script(ch: str) -> bool:
    """A character of text in these code pages: CJK, Hangul, kana, Thai, full-width forms and their punctuation;
    not half-width katakana, which Shift-JIS makes of most other code pages' bytes and today's text seldom holds."""
    if 0xFF61 <= ord(ch) <= 0xFF9F:
        return False
    return (
        is_cjk(ch)
        or is_sea(ch)
        or 0x3000 <= ord(ch) <= 0x303F
        or 0xFF00 <= ord(ch) <= 0xFFEF
        or ch in _PUNCTUATION
        or unicodedata.east_asian_width(ch) in ("W", "F")
    )


#: What text in a code page nearly always holds that another's reading of its bytes does not: Japanese its kana,
#: Korean and Thai their own letters throughout. Chinese has none: its readings come after these.
_OWN_LETTERS = {
    "cp932": (lambda ch: 0x3040 <= ord(ch) <= 0x30FF, 0.1),
    "cp949": (lambda ch: 0xAC00 <= ord(ch) <= 0xD7A3, 0.9),
    # Thai letters and marks, not its digits and rare signs (๐-๙, ๚, ๛, ฯ), which Thai text seldom holds and which
    # cp874 makes of a sixth of other code pages' bytes.
    "cp874": (lambda ch: 0x0E01 <= ord(ch) <= 0x0E4E and ch != "\u0e2f", 0.98),
}


#: In Thai text read as cp874, the share of characters that are consonants, and that of characters in runs of at
#: least three: a Western text read so has its accents as vowel signs and digits in runs of one or two (ção as
#: ็ใo), its punctuation (– — “ ” …) as itself, and no consonant but for capitals.
THAI_CONSONANTS_SHARE = 0.25  # เอาไว้ใช้: vowels written before their consonants, tone marks
THAI_WORDS_SHARE = 0.5


def _thai_words(runs: list[str], wide: list[str]) -> bool:
    """Whether cp874's reading (its runs of characters past ASCII: ``runs``; those characters: ``wide``) is Thai
    words: consonants enough, and most characters in runs of three or more."""
    consonants = sum(1 for ch in wide if 0x0E01 <= ord(ch) <= 0x0E2E)
    in_words = sum(len(run) for run in runs if len(run) >= 3)
    return consonants >= THAI_CONSONANTS_SHARE * len(wide) and in_words >= THAI_WORDS_SHARE * len(wide)


def _reading(data: bytes, codec: str) -> tuple[bool, str] | None:
    """A word as ``codec`` reads ``data``, when it reads all of it, with no control character, as its script's
    text (first: whether the reading holds the letters :data:`_OWN_LETTERS` expects); else ``None``."""
    try:
        text = data.decode(codec)
    except UnicodeDecodeError:
        return None
    wide = [ch for ch in text if not ch.isascii()]
    if not wide or any(unicodedata.category(ch) == "Cc" for ch in wide):
        return None
    if sum(map(_own_script, wide)) < OWN_SCRIPT_SHARE * len(wide):
        return None
    runs = _WORD.findall(text)
    if sum(len(run) for run in runs if len(run) > 1) < RUNS_SHARE * len(wide):
        return None
    if codec == "cp874" and not _thai_words(runs, wide):
        return None
    found = _WORD.search(text)
    if found is None:
        return None
    letter, share = _OWN_LETTERS.get(codec, (None, 1.0))
    return letter is not None and sum(map(letter, wide)) >= share * len(wide), found.group()[:20]


def wide_readings(data: bytes) -> list[tuple[str, str]]:
    """Each of :data:`WIDE_CODE_PAGES` that reads ``data`` as text of its script, with a word as it reads it, the
    likeliest first (at most three)."""
    head = data if len(data) <= SAMPLE_BYTES else data[: data.rfind(b"\n", 0, SAMPLE_BYTES) + 1] or data
    found = [(page, reading) for page in WIDE_CODE_PAGES if (reading := _reading(head, page)) is not None]
    # Readings with their own letters first (Japanese with kana, Korean all Hangul, Thai without rare signs), and
    # among equals Thai last: a single-byte code page reads any bytes as letters of its script, double-byte text too.
    order = sorted(found, key=lambda item: (not item[1][0], item[0] == "cp874"))
    return [(page, word) for page, (_, word) in order][:3]


def refuse_wide_code_page(readings: list[tuple[str, str]], codec: str, shown: str) -> None:
    """Refuse a file read badly in the single-byte ``codec`` (``shown``: a word as it reads it) that some of
    :data:`WIDE_CODE_PAGES` read as text of their script (``readings``, :func:`wide_readings`), naming each."""
    named: list[Part] = []
    for page, _ in readings:
        named += [" or " if named else "", Setting("encoding", page)]
    words = " or ".join(f"{page} ({word!r})" for page, word in readings)
    raise InputError(
        f"not UTF-8, and it reads as {words} rather than as {codec} ({shown.strip()[:20]!r}); give ",
        *named,
        " (the encoding it was saved in)",
    )
