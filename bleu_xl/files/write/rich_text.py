"""Cell text as the streamed sheet XML holds it: plain inline strings, and the words that changed between a candidate
and its reference as a rich inline string (runs of their own fonts), as XlsxWriter's ``write_rich_string`` writes
them."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ...excel.cell_values import fit_cell

__all__ = ["CHANGE_FONTS", "rich_inline_string", "rich_runs", "xml_text"]

_XML_ESCAPES = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|_x[0-9A-Fa-f]{4}_")


def _escape(match: re.Match[str]) -> str:
    found = match.group()
    # Excel's own escape for characters XML cannot hold (_x000B_), and for text that looks like one.
    return "_x005F" + found if len(found) > 1 else f"_x{ord(found):04X}_"


def xml_text(text: str) -> str:
    """Cell text as XML character data, as Excel reads it back exactly (already cut to fit a cell)."""
    if _XML_ESCAPES.search(text):
        text = _XML_ESCAPES.sub(_escape, text)
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    if "\r" in text:
        # XML readers turn a raw CR into LF ("a\rb" would come back as "a\nb"); a character reference stays a
        # CR in every reader (Excel, LibreOffice, openpyxl, calamine), where openpyxl ignores _x000D_.
        text = text.replace("\r", "&#13;")
    return text


#: The font of each kind of change, as XlsxWriter format properties: deleted words red and struck through, inserted
#: ones green and underlined, moved ones blue and in italics (a reader who cannot tell the colours apart still can
#: the kinds); kept words in the sheet's font.
CHANGE_FONTS: dict[str, dict[str, Any]] = {
    "deleted": {"font_color": "#C00000", "font_strikeout": True},
    "inserted": {"font_color": "#00B050", "underline": 1},
    "moved": {"font_color": "#0070C0", "italic": True},
}
_FONT_TAIL = '<rFont val="Calibri"/><family val="2"/><scheme val="minor"/></rPr>'
#: Each run's properties, as XlsxWriter writes them for the formats above (``None``: the default format).
_RUN_PROPERTIES = {
    None: f'<rPr><sz val="11"/><color theme="1"/>{_FONT_TAIL}',
    "deleted": f'<rPr><strike/><sz val="11"/><color rgb="FFC00000"/>{_FONT_TAIL}',
    "inserted": f'<rPr><u/><sz val="11"/><color rgb="FF00B050"/>{_FONT_TAIL}',
    "moved": f'<rPr><i/><sz val="11"/><color rgb="FF0070C0"/>{_FONT_TAIL}',
}


def rich_runs(parts: Iterable[tuple[str, str]]) -> list[tuple[str | None, str]]:
    """The runs of a cell of changes, each with its kind (``None``: the sheet's font): the parts, spaces between them
    in the sheet's font (never struck through or underlined), kept words and the spaces beside them as one run."""
    runs: list[tuple[str | None, str]] = []
    for kind, text in parts:
        font = kind if kind in CHANGE_FONTS else None
        pieces = [(None, " "), (font, text)] if runs else [(font, text)]
        for piece_font, piece in pieces:
            if runs and runs[-1][0] is None and piece_font is None:
                runs[-1] = (None, runs[-1][1] + piece)
            else:
                runs.append((piece_font, piece))
    return runs


def _run_xml(font: str | None, text: str, first: bool) -> str:
    space = ' xml:space="preserve"' if text != text.strip() else ""
    # XlsxWriter writes a first run in the default format without properties, any later one with them.
    properties = "" if font is None and first else _RUN_PROPERTIES[font]
    return f"<r>{properties}<t{space}>{xml_text(text)}</t></r>"


def rich_inline_string(parts: Iterable[tuple[str, str]]) -> tuple[str, bool]:
    """The ``<is>`` element of a cell of changes, and whether its text had to be cut to fit a cell (the runs past
    Excel's limit of text in a cell are left out, the last one cut)."""
    runs = rich_runs(parts)
    whole = "".join(text for _, text in runs)
    fitted = fit_cell(whole)
    cut = fitted != whole
    if cut:
        kept, left = [], len(fitted)
        for font, text in runs:
            if left <= 0:
                break
            kept.append((font, text[:left]))
            left -= len(text)
        runs = [(font, text) for font, text in kept if text]
    return "<is>" + "".join(_run_xml(font, text, i == 0) for i, (font, text) in enumerate(runs)) + "</is>", cut
