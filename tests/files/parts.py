"""Workbooks made part by part, so that a test can write any part as an attacker would (shared by tests/files and
tests/cli)."""

from __future__ import annotations

import subprocess
import sys
import warnings
import zipfile
from pathlib import Path
from typing import Any

MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
TYPES = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
REF = "Free delivery on every order this week"
CAND = "Free delivery on every order"


def rels(*targets: tuple[str, str, str]) -> str:
    """A relationships part: (Id, type's last segment, target) each."""
    body = "".join(f'<Relationship Id="{i}" Type="{TYPES}/{kind}" Target="{target}"/>' for i, kind, target in targets)
    return f'{HEAD}<Relationships xmlns="{PKG_NS}">{body}</Relationships>'


def workbook_xml(*sheets: tuple[str, str], extra: str = "") -> str:
    """The workbook part: (name, relationship id) per sheet, with any ``extra`` attributes on each sheet."""
    body = "".join(
        f'<sheet name="{name}" sheetId="{i}" r:id="{rid}"{extra}/>' for i, (name, rid) in enumerate(sheets, 1)
    )
    return f'{HEAD}<workbook xmlns="{MAIN_NS}" xmlns:r="{REL_NS}"><sheets>{body}</sheets></workbook>'


def sheet_xml(cells: str, head: str = "", tail: str = "", namespaces: str = "") -> str:
    root = f'<worksheet xmlns="{MAIN_NS}" xmlns:r="{REL_NS}"{namespaces}>'
    return f"{HEAD}{root}{head}<sheetData>{cells}</sheetData>{tail}</worksheet>"


def text_cell(ref: str, text: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'


def pair_rows(*pairs: tuple[str, str], start: int = 1) -> str:
    """A header row (Reference, Candidate) and a row per pair, inline strings."""
    rows = [("Reference", "Candidate"), *pairs]
    return "".join(
        f'<row r="{r}">{text_cell(f"A{r}", ref)}{text_cell(f"B{r}", cand)}</row>'
        for r, (ref, cand) in enumerate(rows, start)
    )


def parts(cells: str = "", **overrides: str | bytes | None) -> dict[str, str | bytes]:
    """The parts of a one-sheet workbook (sheet "Pairs"); an override of None leaves the part out."""
    found: dict[str, str | bytes | None] = {
        "[Content_Types].xml": f'{HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/></Types>',
        "_rels/.rels": rels(("rId1", "officeDocument", "xl/workbook.xml")),
        "xl/workbook.xml": workbook_xml(("Pairs", "rId1")),
        "xl/_rels/workbook.xml.rels": rels(("rId1", "worksheet", "worksheets/sheet1.xml")),
        "xl/worksheets/sheet1.xml": sheet_xml(cells or pair_rows((REF, CAND))),
    }
    found.update(overrides)
    return {name: data for name, data in found.items() if data is not None}


def write(path: Path, members: dict[str, str | bytes] | list[tuple[str, str | bytes]], *, stored: bool = False) -> Path:
    """A zip of ``members`` in that order (a list may name a member twice, as an attacker's zip can); ``stored``:
    not deflated (so that a repetitive part is not refused as a zip bomb before it is parsed)."""
    items = list(members.items()) if isinstance(members, dict) else members
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a duplicate name is the point of some tests
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, data in items:
                info = zipfile.ZipInfo(name)
                info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
                archive.writestr(info, data.encode() if isinstance(data, str) else data)
    return path


def workbook(path: Path, cells: str = "", **overrides: str | bytes | None) -> Path:
    return write(path, parts(cells, **overrides))


COMMAND = [sys.executable, "-m", "bleu_xl.cli"]


def run_process(*args: str, **kwargs: Any) -> subprocess.CompletedProcess:
    """The real command in a child process: nothing it meets can take the tests with it."""
    kwargs.setdefault("timeout", 120)
    return subprocess.run([*COMMAND, *args], capture_output=True, text=True, **kwargs)


def one_line_refusal(done: subprocess.CompletedProcess) -> str:
    """The refusal's line: exit code 2, one line (after at most the line naming the columns), no traceback."""
    assert done.returncode == 2, (done.returncode, done.stderr)
    lines = done.stderr.splitlines()
    assert lines and lines[-1].startswith("bleu-xl: error: ") and len(lines) <= 2, lines
    assert "Traceback" not in done.stderr and "panicked" not in done.stderr, done.stderr
    return lines[-1]


def listing(folder: Path) -> list[str]:
    """The names in a folder, hidden ones too: no lock file, no temporary file may stay."""
    return sorted(p.name for p in folder.iterdir())
