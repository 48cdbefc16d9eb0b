"""The hostile files of issue 24 (rows 6 and 7) against plain files of the same size: every scan is linear.

Run: python benchmarks/bench_hostile.py [--repeat 3]
Each hostile file is built at the size the issue reports (stored, so that the zip-bomb check does not refuse it
unparsed), then read and scored as the command does (a workbook in its bounded child process); a plain file of the
same size (text pairs in as many bytes of sheet XML; for the CSV of equal headers, distinct headers) is read the
same way. Prints the best of --repeat runs of each and their ratio; the target is a ratio of at most 2.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

import xlsxwriter
from synthetic import make_pairs  # this folder: benchmark data, not part of the package

from bleu_xl.files.read.table import read_table
from bleu_xl.table.scoring import score_table
from bleu_xl.table.sheet import InputError

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
TYPES = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def rels(*targets: tuple[str, str, str]) -> str:
    body = "".join(f'<Relationship Id="{i}" Type="{TYPES}/{kind}" Target="{target}"/>' for i, kind, target in targets)
    return f'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{body}</Relationships>'


def workbook(path: Path, sheet_xml: str) -> Path:
    """A one-sheet workbook, part by part, holding ``sheet_xml`` as written."""
    members = {
        "[Content_Types].xml": '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
        "_rels/.rels": rels(("rId1", "officeDocument", "xl/workbook.xml")),
        "xl/workbook.xml": f'<workbook xmlns="{MAIN}" xmlns:r="{TYPES}"><sheets><sheet name="Pairs" sheetId="1" '
        'r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": rels(("rId1", "worksheet", "worksheets/sheet1.xml")),
        "xl/worksheets/sheet1.xml": sheet_xml,
    }
    # Stored, not deflated: such repetitive parts would be refused as zip bombs before any parse, unmeasured.
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def sheet(cells: str, head: str = "") -> str:
    return f'<worksheet xmlns="{MAIN}">{head}<sheetData>{cells}</sheetData></worksheet>'


PAIRS = make_pairs(20_000, seed=5)


def pair_rows(size: int, start: int = 1) -> str:
    """Rows of text pairs, with a header row, to about ``size`` bytes of XML."""
    rows, total, r = [], 0, start
    for ref, cand in [("Reference", "Candidate"), *PAIRS * 50]:
        row = (
            f'<row r="{r}"><c r="A{r}" t="inlineStr"><is><t>{ref}</t></is></c>'
            f'<c r="B{r}" t="inlineStr"><is><t>{cand or "x"}</t></is></c></row>'
        )
        rows.append(row)
        total += len(row)
        r += 1
        if total >= size:
            break
    return "".join(rows)


def header() -> str:
    return pair_rows(1)


def hostile_files(folder: Path) -> list[tuple[str, Path, Path]]:
    """(what, hostile file, plain file of the same size) for each file of rows 6 and 7."""
    found = []

    def pair(name: str, hostile_sheet: str) -> None:
        hostile = workbook(folder / f"{name}.xlsx", hostile_sheet)
        plain = workbook(folder / f"{name}-plain.xlsx", sheet(pair_rows(len(hostile_sheet))))
        found.append((name, hostile, plain))

    pair(
        "row 6: a formula, 200,000 spaces, then its value",
        sheet(header() + '<row r="2"><c r="C2"><f>1+1</f>' + " " * 200_000 + "<v>2</v></c></row>"),
    )
    pair(
        "row 6: '>' inside an attribute of 40,000 error cells",
        sheet(
            header()
            + "".join(f'<row r="{r}"><c t="e" x="a>b" r="C{r}"><v>#N/A</v></c></row>' for r in range(2, 40_002))
        ),
    )
    pair(
        "row 6: 200,000 self-closing error cells",
        sheet(header() + '<row r="2">' + '<c r="C2" t="e"/>' * 200_000 + "</row>"),
    )
    pair(
        "row 6: 220,000 hidden column specs",
        sheet(header(), head="<cols>" + '<col min="1" max="16384" hidden="1"/>' * 220_000 + "</cols>"),
    )

    wide = folder / "wide.csv"
    wide.write_text(",".join(["Reference", "Candidate"] + ["x"] * 16_382) + "\n" + ",".join(["a b"] * 16_384) + "\n")
    plain = folder / "wide-plain.csv"  # as wide, its headers all distinct: the renaming is what is measured
    plain.write_text(
        ",".join(["Reference", "Candidate"] + [f"x{i}" for i in range(16_382)])
        + "\n"
        + ",".join(["a b"] * 16_384)
        + "\n"
    )
    found.append(("row 7: 16,384 headers named x (CSV; plain: distinct headers)", wide, plain))

    covers = folder / "covers.xlsx"
    book = xlsxwriter.Workbook(str(covers))
    for i in range(299):
        cover = book.add_worksheet(f"Cover {i}")
        for r in range(50):
            cover.write_string(r, 0, f"notes on cover {i}, line {r}: nothing to score here")
    data = book.add_worksheet("Pairs")
    data.write_row(0, 0, ["Reference", "Candidate"])
    for r, (ref, cand) in enumerate(PAIRS[:50], start=1):
        data.write_row(r, 0, [ref, cand or "x"])
    book.close()
    unpacked = sum(i.file_size for i in zipfile.ZipFile(covers).infolist() if "worksheets/" in i.filename)
    found.append(
        (
            "row 7: 300 sheets, a cover-page fallback",
            covers,
            workbook(folder / "covers-plain.xlsx", sheet(pair_rows(unpacked))),
        )
    )
    return found


def best(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def read_and_score(path: Path) -> None:
    """What the command does before writing: read the table (a workbook in its child process), score it."""
    with contextlib.suppress(InputError):  # a hostile file may be refused: the time to refuse it is what counts
        table, layout = read_table(str(path))
        score_table(table, layout, workers=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    worst = 0.0
    with tempfile.TemporaryDirectory(prefix="bleu-xl-hostile-") as folder:
        for what, hostile, plain in hostile_files(Path(folder)):
            slow = best(lambda h=hostile: read_and_score(h), args.repeat)
            fast = best(lambda p=plain: read_and_score(p), args.repeat)
            worst = max(worst, slow / fast)
            print(
                f"{what}: {slow:.3f} s ({hostile.stat().st_size / 1024:.0f} KB); plain file of the same size "
                f"{fast:.3f} s; ratio {slow / fast:.2f} (target <= 2)"
            )
    print(f"worst ratio {worst:.2f}")
    if worst > 2:
        sys.exit(1)


if __name__ == "__main__":
    main()
