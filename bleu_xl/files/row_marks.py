"""The rows of a sheet that Excel hides (by hand or by a filter) and the totals rows of its Excel Tables.

Read from the sheet part (``<row ... hidden="1">``) and the table parts its relationships name (``ref`` and
``totalsRowCount``), after the safety checks passed; small parts are parsed with defusedxml, the sheet part is
streamed.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from pathlib import Path

from ..table.sheet import EXCEL_MAX_ROWS
from .limits import SCAN_CHUNK
from .xlsx_check import _RELS_NS, UnreadableReference, attributes_of, read_xml, reference_position

__all__ = ["row_marks"]

_ROW_START = re.compile(rb"<(?:[\w.-]+:)?row\s([^>]*)>")
_TABLE_TYPE = "/relationships/table"


def row_marks(file: Path, member: str) -> tuple[frozenset[int], frozenset[int]]:
    """The 0-based hidden rows of the sheet part ``member`` and the 0-based totals rows of its tables."""
    with zipfile.ZipFile(file) as archive:
        return _hidden_rows(archive, member), _totals_rows(file, archive, member)


def _hidden_rows(archive: zipfile.ZipFile, member: str) -> frozenset[int]:
    hidden: set[int] = set()
    with archive.open(member) as part:
        carry = b""
        while chunk := part.read(SCAN_CHUNK):
            data = carry + chunk
            cut = data.rfind(b">") + 1
            if b"hidden" in data:  # rare: most sheets hide nothing, and are only inflated here
                for row in _ROW_START.finditer(data, 0, cut):
                    attributes = attributes_of(row.group(1))
                    if attributes.get(b"hidden") in (b"1", b"true") and b"r" in attributes:
                        number = reference_position(attributes[b"r"], is_row=True)[0]
                        if number <= EXCEL_MAX_ROWS:
                            hidden.add(number - 1)
            carry = data[cut:]
    return frozenset(hidden)


def _totals_rows(file: Path, archive: zipfile.ZipFile, member: str) -> frozenset[int]:
    folder, name = posixpath.split(member)
    rels = posixpath.join(folder, "_rels", f"{name}.rels")
    if rels not in archive.namelist():
        return frozenset()
    totals: set[int] = set()
    for rel in read_xml(file, archive, rels).iter(_RELS_NS):
        if not rel.get("Type", "").endswith(_TABLE_TYPE) or rel.get("TargetMode") == "External":
            continue
        target = rel.get("Target", "")
        path = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
        if path not in archive.namelist():
            continue
        table = read_xml(file, archive, path)
        count = table.get("totalsRowCount", "0")
        last = table.get("ref", "").rpartition(":")[2]
        if count.isdigit() and int(count) > 0 and last:
            try:
                end = reference_position(last.encode("ascii", "replace"), is_row=False)[0]
            except UnreadableReference:  # a table Excel would not open either: its rows are read as they are
                continue
            totals.update(range(max(end - int(count), 0), min(end, EXCEL_MAX_ROWS)))
    return frozenset(totals)
