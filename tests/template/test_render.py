"""LibreOffice prints the template: every text whole, one page per picture in docs/."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from bleu_xl.template import data as template_data
from bleu_xl.template import text as template_text
from tests.template.checks import (
    ROOT,
    TEMPLATE,
)


def _need(program: str) -> str:
    path = shutil.which(program)
    if path is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{program} is missing: .ci/run installs it (libreoffice-calc-nogui, poppler-utils)")
        pytest.skip(f"{program} is not installed (apt-get install libreoffice-calc-nogui poppler-utils)")
    return path


def test_libreoffice_prints_every_text_whole(tmp_path: Path) -> None:
    soffice = _need("soffice")
    pdftotext = _need("pdftotext")
    subprocess.run(
        [
            soffice,
            f"-env:UserInstallation=file://{tmp_path}/profile",  # a private profile: parallel runs do not collide
            "--headless",
            "--convert-to",
            "pdf",
            "--outdir",
            str(tmp_path),
            str(TEMPLATE),
        ],
        check=True,
        capture_output=True,
        timeout=180,
    )
    pdf = tmp_path / "bleu2_ranking.pdf"
    pages = subprocess.run([pdftotext, str(pdf), "-"], check=True, capture_output=True, text=True).stdout
    flat = [" ".join(page.split()) for page in pages.split("\f") if page.strip()]
    pictures = sorted(p.name for p in (ROOT / "docs").glob("template-*.png"))
    assert pictures == [f"template-{n:02d}.png" for n in range(1, len(flat) + 1)], "run docs/render.py"
    assert flat[0].startswith("bleu-xl: BLEU-2 scores") and "What it does" in flat[0]  # Start here prints first
    everything = "".join("".join(flat).split())  # without spaces: LibreOffice may break a line inside a path
    for _, rows in template_text.START_HERE:
        for _, body in rows:
            assert "".join(body.split()) in everything, body  # printed whole: not cut off at the page's edge
    rank = next(p for p in flat if p.startswith("bleu-xl: rank copy variants"))
    for variant in template_data.RANK_VARIANTS:
        if variant.isascii():  # a machine without CJK fonts prints those glyphs as boxes
            assert variant in rank, variant


def test_libreoffice_counts_the_pairs_and_gives_the_verdict_the_template_caches(tmp_path: Path) -> None:
    """The Compare sheet's "Pairs compared" and verdict formulas as LibreOffice computes them: the template with
    bleu-xl's cells (which LibreOffice does not have) replaced by the numbers they cached, and no cached value left
    for the rest (openpyxl saves none), so that LibreOffice computes them; a candidate B left blank is one pair
    fewer, and the verdict on 11 pairs says so."""
    import csv

    from openpyxl.worksheet.formula import ArrayFormula

    from bleu_xl.template import build as template
    from tests.helpers import libreoffice
    from tests.template.checks import CF, CL, load

    cached = load(TEMPLATE, data_only=True)["Compare"]
    book = load(TEMPLATE)
    for name in book.sheetnames:
        if name != "Compare":
            del book[name]
    sheet = book["Compare"]
    for row in sheet.iter_rows():
        for cell in row:
            formula = cell.value.text if isinstance(cell.value, ArrayFormula) else cell.value
            if isinstance(formula, str) and any(f"{udf}(" in formula for udf in ("BLEU2", "BLEU2_PAIRED", "BLEU2_CI")):
                cell.value = cached[cell.coordinate].value
    sheet[f"C{CL}"].value = sheet[f"E{CL}"].value = None  # the last candidate B blank: its BLEU-2 B blank too
    path = tmp_path / "compare.xlsx"
    book.save(path)
    out = libreoffice(tmp_path, "csv:Text - txt - csv (StarCalc):44,34,76", path) / "compare.csv"
    rows = list(csv.reader(out.read_text(encoding="utf-8").splitlines()))
    pairs, verdict = rows[CF + 4][7], rows[CF + 5][7]
    assert sheet[f"H{CF + 5}"].value == "=" + template.pairs_formula("tblCompare") and pairs == "11"
    paired = [cached.cell(CF, c).value for c in range(8, 12)]
    assert verdict == template.verdict_text(paired, 11, 1, 0) and verdict.endswith(
        "only 11 pairs were compared, too few for the paired bootstrap to tell a real difference from chance "
        "(compare 50 or more); left out: 1 row where only A has a candidate (a blank candidate is not scored as a miss)"
    )
