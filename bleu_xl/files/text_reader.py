"""Reading a text table (CSV, TSV, standard input): the encoding as Excel writes it, the delimiter sniffed.

Text files are decoded as Excel writes them (UTF-8 with or without BOM, UTF-16, the ANSI code page) and their
delimiter is sniffed from a bounded sample, in linear time; cells stay text exactly as written.
"""

from __future__ import annotations

import codecs
import csv
import io
import locale
import sys
from typing import Any

from ..core.errors import Part, Setting
from ..table.sheet import EXCEL_MAX_ROWS, InputError
from .limits import MAX_CELLS

__all__ = ["DELIMITERS", "decode_text", "parse_text", "sniff_delimiter", "text_codec"]

DELIMITERS = (",", ";", "\t")
SNIFF_CHARS = 65_536


def ansi_code_page() -> str:
    """The code page Excel's plain "CSV" uses: the system's ANSI code page on Windows, else Windows-1252."""
    if sys.platform == "win32":
        found = locale.getpreferredencoding(False)
        if found.lower().startswith("cp"):
            return found
    return "cp1252"


def text_codec(encoding: str) -> str:
    """The codec's name for a text encoding (``latin-1`` -> ``iso8859-1``); anything else, including codecs that
    are not between text and bytes (``rot13``, ``hex``, ``zlib_codec``), is refused."""
    try:
        codec = codecs.lookup(encoding).name
    except (LookupError, ValueError):
        raise InputError(f"unknown encoding {encoding!r} (for example utf-8, cp1252, utf-16)") from None
    try:
        "".encode(codec)
        b"".decode(codec)
    except (LookupError, UnicodeError, TypeError, ValueError):
        raise InputError(
            f"{encoding!r} is not a text encoding (for example utf-8, cp1252, utf-16); check ", Setting("encoding")
        ) from None
    return codec


def decode_text(data: bytes, encoding: str | None = None) -> tuple[str, str]:
    """The text and the encoding used: the given one, else UTF-8 (BOM or not), UTF-16, or the ANSI code page."""
    if encoding is not None:
        codec = text_codec(encoding)
        if codec == "utf-8" and data.startswith(codecs.BOM_UTF8):
            codec = "utf-8-sig"
        return _decode(data, codec, f"not valid {encoding} text"), codec
    if data.startswith(codecs.BOM_UTF8):
        return _decode(data, "utf-8-sig", "starts with a UTF-8 BOM but is not valid UTF-8"), "utf-8-sig"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return _decode(data, "utf-16", "starts with a UTF-16 BOM but is not valid UTF-16"), "utf-16"
    head = data[:4096]
    if len(head) > 1 and max(head[1::2].count(0), head[0::2].count(0)) > len(head) // 4:
        codec = "utf-16-le" if head[1::2].count(0) >= head[0::2].count(0) else "utf-16-be"
        return _decode(data, codec, "looks like UTF-16 without a BOM but is not valid UTF-16"), codec
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        codec = ansi_code_page()
        return _decode(data, codec, f"neither UTF-8 nor UTF-16 nor {codec} text; give ", Setting("encoding")), codec


def _decode(data: bytes, codec: str, *problem: Part) -> str:
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as exc:
        raise InputError(*problem, f" (byte {exc.start:,})") from None
    except UnicodeError:  # a codec that fails otherwise (idna's labels, punycode)
        raise InputError(*problem) from None
    if "\x00" in text:
        raise InputError(*problem, ": it holds NUL characters, so it is not a text file")
    return text


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


def parse_text(data: bytes, delimiter: str | None, encoding: str | None = None) -> tuple[list[list[Any]], str, str]:
    """The rows of a CSV/TSV file, the encoding and the delimiter used; cells stay text exactly as written."""
    text, used = decode_text(data, encoding)
    if delimiter is None:
        delimiter = sniff_delimiter(text)
    rows: list[list[Any]] = []
    width = 0
    try:
        for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter):
            rows.append(row)
            width = max(width, len(row))
            if len(rows) > EXCEL_MAX_ROWS + 1 or len(rows) * width > MAX_CELLS:
                raise InputError(f"refused: more than {MAX_CELLS:,} cells or {EXCEL_MAX_ROWS:,} rows")
    except csv.Error as exc:
        raise InputError(f"cannot parse the text file as CSV ({exc})") from None
    return rows, used, delimiter
