"""Reading a text table (CSV, TSV, standard input): the encoding as Excel writes it, the delimiter sniffed.

Text files are decoded as Excel writes them (UTF-8 with or without BOM, UTF-16, or a single-byte code page: the
ANSI one of Windows' "CSV", MacRoman of the Mac's "CSV (Macintosh)", Latin-1) and their delimiter is sniffed from
a bounded sample, in linear time; cells stay text exactly as written. Of the single-byte code pages, the ANSI
one is kept unless another reads clearly more like text (MacRoman's ``été`` read as Windows-1252 is ``ŽtŽ``);
when another reads only a little more like text, the file is refused and the message names both.
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import functools
import io
import itertools
import locale
import re
import sys
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ...core.errors import Part, Setting
from ...table.sheet import EXCEL_MAX_ROWS, InputError
from .limits import MAX_CELLS, MAX_TEXT_BYTES
from .wide_code_pages import refuse_wide_code_page, wide_readings

__all__ = ["DELIMITERS", "decode_text", "parse_text", "plausibility", "sniff_delimiter", "text_codec"]

DELIMITERS = (",", ";", "\t")
SNIFF_CHARS = 65_536
#: Line breaks a quoted field may hold before a note names its row (a stray ``"`` folds the rows below into it).
MAX_FIELD_LINES = 20
LISTED_ROWS = 3


def ansi_code_page() -> str:
    """The code page Excel's plain "CSV" uses: the system's ANSI code page on Windows, else Windows-1252."""
    if sys.platform == "win32":
        found = locale.getpreferredencoding(False)
        if found.lower().startswith("cp"):
            return found
    return "cp1252"


def text_codec(encoding: str, setting: str = "encoding") -> str:
    """The codec's name for a text encoding (``latin-1`` -> ``iso8859-1``); anything else, including codecs that
    are not between text and bytes (``rot13``, ``hex``, ``zlib_codec``), is refused, naming ``setting``."""
    try:
        codec = codecs.lookup(encoding).name
    except (LookupError, ValueError):
        raise InputError(
            f"unknown encoding {encoding!r} (for example utf-8, cp1252, utf-16); check ", Setting(setting)
        ) from None
    if not _reads_back(codec):
        raise InputError(
            f"{encoding!r} is not a text encoding (for example utf-8, cp1252, utf-16); check ", Setting(setting)
        ) from None
    return codec


#: Text as a table is written, a piece at a time: an encoding of text files writes it and reads it back unchanged.
_SAMPLE = ('"Reference","Candidate"\r\n', '"Free delivery. Order now",', "0.5\r\n")


def _reads_back(codec: str) -> bool:
    """Whether ``codec`` encodes text a piece at a time, as a file is written, and decodes it back unchanged:
    codecs between bytes (``rot13``, ``zlib_codec``) and those of other text (``idna`` holds text back until the
    end of a name, ``punycode`` ends each piece with ``-``) do not."""
    try:
        encoder = codecs.getincrementalencoder(codec)()
        data, text = b"", ""
        for piece in _SAMPLE:  # each piece read back whole as soon as it is written (idna holds it back)
            data += encoder.encode(piece)
            text += piece
            if codecs.decode(data, codec) != text:
                return False
        return True
    except (LookupError, UnicodeError, TypeError, ValueError, AttributeError):
        return False


def decode_text(data: bytes, encoding: str | None = None) -> tuple[str, str]:
    """The text and the encoding used: the given one, else UTF-8 (BOM or not), UTF-16, or the ANSI code page."""
    if encoding is not None:
        codec = text_codec(encoding)
        if codec == "utf-8" and data.startswith(codecs.BOM_UTF8):
            codec = "utf-8-sig"
        text = _decode(data, codec, f"not valid {encoding} text")
        _refuse_surrogates(text, encoding)
        if codec not in ("utf-8", "utf-8-sig") and _is_utf8(data):
            _refuse_misread(data, codec, encoding)
        return text, codec
    if data.startswith(codecs.BOM_UTF8):
        return _decode(data, "utf-8-sig", "starts with a UTF-8 BOM but is not valid UTF-8"), "utf-8-sig"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return _decode(data, "utf-16", "starts with a UTF-16 BOM but is not valid UTF-16"), "utf-16"
    head = data[:4096]
    if len(head) > 1 and max(head[1::2].count(0), head[0::2].count(0)) > len(head) // 4:
        codec = "utf-16-le" if head[1::2].count(0) >= head[0::2].count(0) else "utf-16-be"
        return _decode(data, codec, "looks like UTF-16 without a BOM but is not valid UTF-16"), codec
    try:
        return _without_nul(data.decode("utf-8")), "utf-8"
    except UnicodeDecodeError as exc:
        _refuse_mixed(data, exc.start)
        codec = _single_byte_code_page(data)
        return _decode(data, codec, f"not valid {codec} text; give ", Setting("encoding")), codec


# --- which single-byte code page --------------------------------------------------------------------------------

#: Letters of the languages Windows-1252, MacRoman and Latin-1 are made for, past ASCII; and Windows-1252's Š and Ž,
#: which Western text holds in names (Škoda, Žižek).
_WESTERN_LETTERS = frozenset("ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞßàáâãäåæçèéêëìíîïðñòóôõöøùúûüýþÿŒœŸªºµŠšŽž")
#: Punctuation and symbols of ordinary text, past ASCII.
_COMMON_SYMBOLS = frozenset("€£¥¢©®™°±×÷§¶•·…–—‘’‚“”„«»‹›¿¡\u00a0\u00ad½¼¾¹²³‰")
#: Marks that stand between two letters in ordinary text (l’été, don’t, l·l, a soft hyphen).
_JOINERS = frozenset("’‘·\u00ad")
#: Marks that open a word: quotes, inverted marks, dashes of dialogue, currency signs.
_OPENERS = frozenset("‘‚“„«‹¿¡–—€£¥¢\u00a0")
#: Accented letters that are words by themselves (à, é, è, ó; Swedish å and ö).
_ONE_LETTER_WORDS = frozenset("àÀéÉèÈóÓåÅöÖ")
#: What follows an apostrophe in English (don’t, it’s, we’re), or precedes one in French and Italian (l’, qu’, dell’).
_CONTRACTION = re.compile(r"(?:t|s|d|m|ll|re|ve)\b", re.I)
_ELISION = re.compile(r"(?:\b\w|qu|ll|un)$", re.I)
_WORDS_WITH_HIGH_BYTES = re.compile(rb".?[A-Za-z0-9\x80-\xff]*[\x80-\xff][A-Za-z0-9\x80-\xff]*.?", re.S)
_NON_ASCII = re.compile("[^\x00-\x7f]")
#: A byte that is not part of a UTF-8 character, as ``surrogateescape`` decodes it.
_STRAY_BYTE = re.compile("[\udc80-\udcff]")
SAMPLE_WORDS = 20_000
ODD = 2  # a character that text almost never holds where it is
UNUSUAL = 1  # one that text holds, but seldom (an apostrophe inside a word that is no contraction)


def _script(ch: str) -> str:
    """The script of a letter as its Unicode name starts (LATIN, CYRILLIC, GREEK...); ª and º are Latin."""
    return "LATIN" if ch in _WESTERN_LETTERS or ch.isascii() else unicodedata.name(ch, "?").split(" ", 1)[0]


def _is_letter(ch: str) -> bool:
    return ch.isalpha() and ch != "µ"


def _letter_cost(ch: str, category: str, before: str, after: str, next_after: str, letters: frozenset[str]) -> int:
    latin = _script(ch) == "LATIN"
    if (latin and ch not in letters) or category == "Lm":
        return ODD  # ˆ, ƒ, ı, Ž: in these code pages, but rare in the text written in them
    if latin and not before.isascii() and not after.isascii() and _is_letter(before) and _is_letter(after):
        return ODD  # Áåñïë: three accented letters in a row are another script's letters read as Latin ones
    if ch.isupper() and _is_letter(before) and (before.islower() or after.islower()):
        return ODD  # lÈtÈ, AÒo: a capital inside a word that is not all capitals
    if after.isupper() and (ch.islower() or next_after.islower()):
        return ODD  # ìFreeî, ÁHola
    if any(_is_letter(c) and _script(c) != _script(ch) for c in (before, after)):
        return ODD  # a letter of another script inside a word
    if not before.isalnum() and not after.isalnum() and ch not in _ONE_LETTER_WORDS:
        return UNUSUAL  # a word of one letter that is no word: 50 Û
    return 0


def _symbol_cost(text: str, at: int, before: str, after: str) -> int:
    ch = text[at]
    if ch not in _COMMON_SYMBOLS:
        return ODD  # ‡ partir
    if _is_letter(before) and _is_letter(after):
        if ch not in _JOINERS:
            return ODD  # …T…
        if ch == "’" and (_CONTRACTION.match(text, at + 1) or _ELISION.search(text, max(0, at - 8), at)):
            return 0  # don’t, l’été
        return UNUSUAL  # Env’o (MacRoman's Envío read as Windows-1252)
    if _is_letter(after) and (ch not in _OPENERS or before.isalnum()) and not (ch == "°" and before.isdigit()):
        return ODD  # …Èn, 10¡C (but 10°C)
    if ch in "½¼¾" and _is_letter(before):
        return ODD  # n¼
    return 0


def plausibility(text: str, letters: frozenset[str] = _WESTERN_LETTERS) -> int | None:
    """How unlike ordinary text the characters past ASCII of ``text`` are: 0 when none is odd, more for each odd
    one (a letter of another script or case inside a word, a rare letter or symbol, a symbol inside a word) and
    less for an unusual one (an apostrophe inside a word that is no contraction); ``None`` when it holds control
    characters, which no text file does. ``letters`` are the Latin letters past ASCII that the text's languages
    use (by default those of Western Europe).

    Mis-read text shows at once: MacRoman's ``été`` read as Windows-1252 is ``ŽtŽ``, Windows-1252's ``à`` read
    as MacRoman is ``‡``, its ``Año`` is ``AÒo``.
    """
    cost = 0
    for found in _NON_ASCII.finditer(text):
        ch, at = found.group(), found.start()
        before = text[at - 1] if at else " "
        after, next_after = (text[at + 1 : at + 3] + "  ")[:2]
        category = unicodedata.category(ch)
        if category == "Cc":
            return None
        if _is_letter(ch):
            cost += _letter_cost(ch, category, before, after, next_after, letters)
        else:
            cost += _symbol_cost(text, at, before, after)
    return cost


@dataclass(frozen=True)
class _Reading:
    codec: str  # as the user gives it with the encoding setting
    cost: int  # plausibility(): less is more like text
    high: str  # how it reads the bytes past ASCII that the file holds
    sample: str  # a word that shows the reading


def _reading(codec: str, high: bytes, sample: bytes, letters: frozenset[str], first: bytes) -> _Reading | None:
    """How ``codec`` reads a file's bytes past ASCII (``high``) and its words that hold them (``sample``); ``None``
    when it cannot, or reads control characters, which no text holds. ``first``: the word shown for it."""
    try:
        high_text, text = high.decode(codec), sample.decode(codec)
    except UnicodeDecodeError:
        return None
    cost = plausibility(text, letters)
    if cost is None or any(unicodedata.category(ch) == "Cc" for ch in high_text):
        return None
    return _Reading(codec, cost, high_text, first.decode(codec)[:40])


def single_byte_code_pages() -> list[str]:
    """The single-byte encodings a CSV that is not UTF-8 is read in, the usual one first: the ANSI code page of
    Excel's "CSV", MacRoman ("CSV (Macintosh)"), Latin-1."""
    return list(dict.fromkeys([ansi_code_page(), "mac_roman", "latin-1"]))


def _single_byte_code_page(data: bytes) -> str:
    """The single-byte code page whose reading of ``data`` looks most like text, the usual one (the ANSI code page)
    when none looks more so. Refused when another reading looks more like text but not clearly (the message names
    both), or when no reading is text at all."""
    high = bytes(sorted(set(data.translate(None, bytes(range(128))))))
    words = [m.group() for m in itertools.islice(_WORDS_WITH_HIGH_BYTES.finditer(data), SAMPLE_WORDS)]
    sample = b"\n".join(words)
    first = words[0].strip(b" ,;\t\"'\r\n") if words else b""
    readings = [
        reading
        for codec in single_byte_code_pages()
        if (reading := _reading(codec, high, sample, _WESTERN_LETTERS, first)) is not None
    ]
    if not readings:
        names = " nor ".join(single_byte_code_pages())
        raise InputError(f"neither UTF-8 nor UTF-16 nor {names} text; give ", Setting("encoding"))
    best = min(readings, key=lambda reading: reading.cost)  # the first of equals: the usual one
    # One odd character: a short text of those code pages reads as little else. The other Windows code pages are
    # named first, these after: a Cyrillic or Greek word of even length is valid GBK too.
    wide = wide_readings(data) if best.cost >= ODD else []
    _refuse_other_code_page(best, readings[0], high, sample, words, wide)
    if wide:
        refuse_wide_code_page(wide, best.codec, best.sample)
    if best.codec != single_byte_code_pages()[0]:
        for rival in readings:
            if rival.high != best.high and rival.cost - best.cost < ODD:
                raise InputError(
                    f"not UTF-8, and it reads as {best.codec} ({best.sample!r}) about as well as {rival.codec} "
                    f"({rival.sample!r}); give ",
                    Setting("encoding", best.codec),
                    " or ",
                    Setting("encoding", rival.codec),
                )
    return codecs.lookup(best.codec).name


#: Windows' other single-byte ANSI code pages: Central European, Cyrillic, Greek, Turkish, Hebrew, Arabic, Baltic.
#: A file that reads clearly better in one of them than in the usual ones is refused, never read in it: the user
#: names the code page it was saved in.
OTHER_CODE_PAGES = ("cp1250", "cp1251", "cp1253", "cp1254", "cp1255", "cp1256", "cp1257")


def _refuse_other_code_page(
    best: _Reading, usual: _Reading, high: bytes, sample: bytes, words: list[bytes], wide: list[tuple[str, str]]
) -> None:
    """Refuse a file whose best reading in the usual code pages (``best``) is clearly worse than its reading in
    another Windows code page: a Polish ``każde`` read as Windows-1252 is ``ka¿de``, and a Russian word turns into
    accented Latin letters, each of them scored as it was misread. A letter both code pages hold (Š) counts alike
    in both readings. The message shows a word that the two read differently, in the usual code page (``usual``)
    and in each better one (within an odd character of the best), then the East Asian or Thai code pages that read
    the file as their script's text (``wide``: a short Thai or Japanese text can read as Arabic too, and a short
    Russian one as Chinese: the user knows which is theirs)."""
    if best.cost < 2 * ODD:
        return
    usual_pages = {codecs.lookup(page).name for page in single_byte_code_pages()}
    better = []
    for codec in OTHER_CODE_PAGES:
        if codecs.lookup(codec).name in usual_pages:
            continue
        reading = _reading(codec, high, sample, _letters_of(codec, usual.codec), b"")
        if reading is not None and reading.cost + 2 * ODD <= best.cost and 2 * reading.cost <= best.cost:
            better.append(reading)
    if not better:
        return
    least = min(reading.cost for reading in better)
    better = sorted((r for r in better if r.cost <= least + ODD), key=lambda reading: reading.cost)[:3]
    named: list[Part] = []
    shown = []
    for reading in better:
        named += [" or " if named else "", Setting("encoding", reading.codec)]
        word = next((w for w in words if w.decode(reading.codec) != w.decode(usual.codec)), words[0])
        word = word.strip(b" ,;\t\"'\r\n")
        shown.append(f"{reading.codec} ({word.decode(reading.codec)[:40]!r}, not {word.decode(usual.codec)[:40]!r})")
    for page, word in wide[:2]:
        named += [" or ", Setting("encoding", page)]
        shown.append(f"{page} ({word!r})")
    raise InputError(
        f"not UTF-8, and it reads as {' or '.join(shown)} rather than as {usual.codec}; give ",
        *named,
        " (the encoding it was saved in)",
    )


@functools.cache
def _letters_of(codec: str, usual: str) -> frozenset[str]:
    """The Latin letters past ASCII that text in ``codec`` holds: Western Europe's, and the code page's own that
    ``usual`` lacks (a letter both hold, Š in Windows-1250 and 1252, is judged alike in both readings)."""

    def letters(page: str) -> frozenset[str]:
        return frozenset(ch for ch in bytes(range(128, 256)).decode(page, "ignore") if ch.isalpha())

    return _WESTERN_LETTERS | (letters(codec) - letters(usual))


_UTF8_CHUNK = 1 << 20
_FIRST_HIGH_WORD = re.compile(rb"[A-Za-z0-9\x80-\xff]{0,20}[\x80-\xff][A-Za-z0-9\x80-\xff]{0,20}")


def _is_utf8(data: bytes) -> bool:
    """True when ``data`` holds text past ASCII and is valid UTF-8 throughout (checked a chunk at a time, so that
    a large file is never held twice). Text in a single-byte code page almost never is: its accented letters
    would have to come in the exact byte patterns of UTF-8 (``é`` followed by two of its symbols ``€``-``¿``)."""
    if data.isascii():
        return False
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        for start in range(0, len(data), _UTF8_CHUNK):
            decoder.decode(data[start : start + _UTF8_CHUNK])
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def _refuse_misread(data: bytes, codec: str, encoding: str) -> None:
    """Refuse to read UTF-8 text in another encoding given: every accented letter would change (``été`` read as
    Windows-1252 is ``Ã©tÃ©``), and so would the scores, with no other sign."""
    found = _FIRST_HIGH_WORD.search(data)
    word = found.group() if found else b""
    raise InputError(
        f"this is UTF-8 text ({word.decode('utf-8', 'replace')!r}), which {encoding} reads as "
        f"{word.decode(codec, 'replace')!r}; leave out ",
        Setting("encoding"),
        " (or give ",
        Setting("encoding", "utf-8"),
        ")",
    )


def _decode(data: bytes, codec: str, *problem: Part) -> str:
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as exc:
        raise InputError(*problem, f" (byte {exc.start:,})") from None
    except UnicodeError:  # a codec that fails otherwise (idna's labels, punycode)
        raise InputError(*problem) from None
    return _without_nul(text)


#: Surrogate code points: halves of UTF-16 pairs, which no file can hold and which no reader of a spreadsheet gives.
_SURROGATE = re.compile("[\ud800-\udfff]")


def _refuse_surrogates(text: str, encoding: str) -> None:
    """Refuse text that an encoding given by name decoded to surrogate code points (UTF-7, ``unicode_escape``
    can): they could be neither scored as the file meant nor written to any output. The encodings bleu-xl finds
    by itself (UTF-8, UTF-16, a single-byte code page) never give one."""
    found = _SURROGATE.search(text)
    if found is not None:
        line = text.count("\n", 0, found.start()) + 1
        raise InputError(
            f"not valid {encoding} text: it decodes to a surrogate code point ({found.group()!r}, line {line:,}), "
            "half of a UTF-16 pair, which no file can hold; give the encoding it was saved in with ",
            Setting("encoding"),
        )


def _without_nul(text: str) -> str:
    """The text, refused when it holds a NUL character, which no text file does (whatever its encoding, BOM or
    not)."""
    if "\x00" in text:
        raise InputError("it holds NUL characters, so it is not a text file")
    return text


_WORD_BYTE = re.compile(rb"[A-Za-z0-9\x80-\xff]")


def _refuse_mixed(data: bytes, bad: int) -> None:
    """Refuse text that is UTF-8 but for a few bytes, the first at ``bad`` (a ``’`` pasted from a Windows program):
    read as a single-byte code page, every accented letter of the rest would change (``été`` to ``Ã©tÃ©``), and
    the scores with it. Such a file is told from a code page's text by the characters past ASCII of a bounded
    sample of its words: at least as many are whole UTF-8 characters as stray bytes (a code page's text makes a
    UTF-8 character only by chance, as MacRoman's ``’é``, and holds a stray byte at almost every accent; a tie
    is refused too, since either reading could be wrong). The message names the byte, its line and a word of
    UTF-8."""
    utf8_word = mixed_word = None
    whole = stray = 0
    for found in itertools.islice(_WORDS_WITH_HIGH_BYTES.finditer(data), SAMPLE_WORDS):
        word = found.group().decode("utf-8", "surrogateescape")
        strays = len(_STRAY_BYTE.findall(word))
        characters = len(_NON_ASCII.findall(word)) - strays
        stray += strays
        whole += characters
        if characters and not strays:
            utf8_word = utf8_word or word
        elif characters:
            mixed_word = mixed_word or _STRAY_BYTE.sub("", word)  # its UTF-8 characters, shown without the stray
    if whole == 0 or whole < stray:
        return
    utf8_word = utf8_word or mixed_word
    line = _line_of(data, bad)
    around = _word_around(data, bad, bad + 1, bad - 20, bad + 20).decode("utf-8", "backslashreplace")
    sample = utf8_word.strip(" ,;\t\"'\r\n")
    raise InputError(
        f"not valid UTF-8 at byte {bad:,} (line {line:,}: 0x{data[bad]:02X} in '{around}'), though the rest is "
        f"UTF-8 ({sample!r}): correct that byte, or give ",
        Setting("encoding"),
        " if the whole file is in another encoding",
    )


def _line_of(data: bytes, at: int) -> int:
    """The line (from 1) that byte ``at`` is on, a line ending in ``\n``, ``\r\n`` or ``\r``."""
    return data.count(b"\n", 0, at) + data.count(b"\r", 0, at) - data.count(b"\r\n", 0, at) + 1


def _word_around(data: bytes, start: int, end: int, low: int, high: int) -> bytes:
    """``data[start:end]`` with the letters, digits and bytes past ASCII on each side of it, reaching no further
    than ``low`` and ``high``: the word a message shows."""
    while start > max(0, low) and _WORD_BYTE.fullmatch(data[start - 1 : start]):
        start -= 1
    while end < min(len(data), high) and _WORD_BYTE.fullmatch(data[end : end + 1]):
        end += 1
    return data[start:end]


def sniff_delimiter(text: str) -> str:
    """``,``, ``;`` or tab: the one that splits a bounded sample into the most rows of the same width.

    The sample is the first 64 KiB, parsed once per candidate (linear time, unlike ``csv.Sniffer``).
    """
    sample = text[:SNIFF_CHARS]
    if len(text) > SNIFF_CHARS and "\n" in sample:
        sample = sample[: sample.rindex("\n")]
    best, best_key = ",", (0, 0)
    for delimiter in DELIMITERS:
        try:
            widths = [len(row) for row in csv.reader(io.StringIO(sample, newline=""), delimiter=delimiter) if row]
        except csv.Error:
            continue
        if not widths:
            continue
        common = max(set(widths), key=lambda w: (widths.count(w), w))
        key = (widths.count(common), common) if common > 1 else (0, 0)
        if key > best_key:
            best, best_key = delimiter, key
    return best


def parse_text(
    data: bytes, delimiter: str | None, encoding: str | None = None
) -> tuple[list[list[Any]], str, str, list[tuple[Part, ...]]]:
    """The rows of a CSV/TSV file, the encoding and the delimiter used, and notes on what the reader should check;
    cells stay text exactly as written.

    A quoted field may hold line breaks (a cell of several lines), but a stray ``"`` opens one that runs on over
    the rows below: one that never closes, so that the rest of the file would be one cell, is refused; one that
    holds more than :data:`MAX_FIELD_LINES` line breaks gets a note that names its row."""
    text, used = decode_text(data, encoding)
    mixed = _utf8_in_code_page(data, used) if encoding is None else None
    if delimiter is None:
        delimiter = sniff_delimiter(text)
    rows: list[list[Any]] = []
    width = 0
    long_rows: list[tuple[int, int, int]] = []  # (row, first line, lines) of rows that span many lines
    stream = io.StringIO(text, newline="")
    reader = csv.reader(stream, delimiter=delimiter)
    start = line = last = 0
    try:
        with _whole_fields():
            while True:
                at = stream.tell()
                row = next(reader, None)
                if row is None:
                    break
                start = at
                rows.append(row)
                width = max(width, len(row))
                if len(rows) > EXCEL_MAX_ROWS + 1 or len(rows) * width > MAX_CELLS:
                    raise InputError(f"refused: more than {MAX_CELLS:,} cells or {EXCEL_MAX_ROWS:,} rows")
                if reader.line_num - line > MAX_FIELD_LINES:
                    long_rows.append((len(rows), line + 1, reader.line_num - line))
                last, line = line, reader.line_num
    except csv.Error as exc:
        raise InputError(f"cannot parse the text file as CSV ({exc})") from None
    while rows and not any(field.strip() for field in rows[-1]):  # empty lines at the end: no row of the table
        rows.pop()
    if rows and line - last > 1 and not _closes(text[start:], delimiter):
        raise InputError(
            f"line {last + 1:,}: a quoted field opens there and never closes, so the rest of the file "
            f'({line - last:,} lines) would be one cell: close the quotes, or double a " that is part of the text'
        )
    notes: list[tuple[Part, ...]] = [
        (
            f'row {row:,} (line {first:,} of the file) holds a quoted cell of {lines:,} lines: a stray " there '
            "would have joined the rows below into it",
        )
        for row, first, lines in long_rows[:LISTED_ROWS]
    ]
    if len(long_rows) > LISTED_ROWS:
        extra = len(long_rows) - LISTED_ROWS
        notes.append(
            (f"and {extra:,} more {'row' if extra == 1 else 'rows'} with cells of over {MAX_FIELD_LINES} lines",)
        )
    if mixed is not None:
        notes.insert(0, mixed)
    return rows, used, delimiter, notes


#: A character of UTF-8 (two to four bytes) in bytes read as a code page.
_UTF8_CHARACTER = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")


def _utf8_in_code_page(data: bytes, codec: str) -> tuple[Part, ...] | None:
    """A note when a file read in a single-byte code page (most of it is in one) holds a Western letter or mark in
    UTF-8 (rows pasted or appended from another program): those rows read as mojibake (``Café`` as ``CafÃ©``),
    and their scores change. Only such characters count: a code page's text makes one only by chance (``Ã©``)."""
    if codec.startswith(("utf-8", "utf-16")):
        return None
    for found in _UTF8_CHARACTER.finditer(data):
        character = found.group().decode("utf-8", "replace")
        if character in _WESTERN_LETTERS or character in _COMMON_SYMBOLS:
            at, end = found.span()
            word, line = _word_around(data, at, end, at - 20, end + 20), _line_of(data, at)
            return (
                f"line {line:,} holds UTF-8 text ({word.decode('utf-8', 'replace')!r}) in a file read as {codec}, "
                f"which reads it as {word.decode(codec, 'replace')!r} and scores it so: the file mixes encodings; "
                "save it in one",
            )
    return None


def _closes(row_text: str, delimiter: str) -> bool:
    """Whether the quoted fields of one row's text all close (read as strict CSV, which refuses a quote that
    never closes where the lenient reader ends the field at the end of the file)."""
    try:
        with _whole_fields():
            list(csv.reader(io.StringIO(row_text, newline=""), delimiter=delimiter, strict=True))
    except csv.Error:
        return False
    return True


@contextlib.contextmanager
def _whole_fields() -> Iterator[None]:
    """A field as long as the text can be (the csv module stops at 131,072 characters): a text file is bounded by
    its bytes (:data:`MAX_TEXT_BYTES`), and so by as many characters. The limit is the csv module's, for the
    whole process, with no per-reader setting: it is raised for the parse only, then put back."""
    previous = csv.field_size_limit(MAX_TEXT_BYTES)
    try:
        yield
    finally:
        csv.field_size_limit(previous)
