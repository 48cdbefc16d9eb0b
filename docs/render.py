"""Renders every page of the template and the samples into docs/*.png with LibreOffice (python docs/render.py).

The template's pages become docs/template-NN.png, each sample's docs/sample-NAME-NN.png, and the marketing
sample as the xlwings Lite script "Score this table" leaves it docs/lite-NN.png (its writes applied to a copy,
its hand-worked columns hidden, the page cut below the text). The samples hold
Japanese, Korean, Chinese and Thai text, which prints as boxes without a font that has those characters: the
command refuses to run without one (fonts-noto-cjk and fonts-thai-tlwg on Debian and Ubuntu).

LibreOffice recalculates array formulas when it opens a file, and it has neither bleu-xl's functions nor (before
24.8) SORTBY, so it would print #NAME? where Excel shows the cached scores. The pictures are therefore made from a
copy of the workbook whose formulas are removed and whose cells keep their cached values: the layout, widths,
row heights, styles, tables, chart and page setup are the template's own.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from bleu_xl.template.data import SAMPLES

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "workbooks" / "bleu2_ranking.xlsx"
DOCS = ROOT / "docs"
RESOLUTION = 70  # pixels per inch: small files that still read


def values_only(source: Path, target: Path) -> None:
    """``source`` with every cell formula removed; each cell keeps the value it had cached."""
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename.startswith("xl/worksheets/sheet"):
                xml = data.decode("utf-8")
                xml = re.sub(r"<f[^>]*>[^<]*</f>|<f[^>]*/>", "", xml).replace(' cm="1"', "")
                data = xml.encode("utf-8")
            zout.writestr(item, data)


#: The languages whose characters the pictures show, as fontconfig names them, and the Debian package with a font.
LANGUAGES = {"ja": "fonts-noto-cjk", "ko": "fonts-noto-cjk", "zh-cn": "fonts-noto-cjk", "th": "fonts-thai-tlwg"}


def fonts() -> dict[str, list[str]]:
    """The font families installed for each of ``LANGUAGES`` (an empty list: its text prints as boxes)."""
    found = {}
    for language in LANGUAGES:
        listed = subprocess.run(["fc-list", f":lang={language}", "family"], capture_output=True, text=True)
        found[language] = sorted({line.split(",")[0].strip() for line in listed.stdout.splitlines() if line.strip()})
    return found


def to_pdf(workbook: Path, folder: Path) -> Path:
    """``workbook`` printed by LibreOffice to a PDF in ``folder`` (from a copy whose formulas are removed)."""
    copy = folder / workbook.name
    values_only(workbook, copy)
    subprocess.run(
        [
            "soffice",
            f"-env:UserInstallation=file://{folder}/profile",  # a private profile: parallel runs do not collide
            "--headless",
            "--convert-to",
            "pdf",
            "--outdir",
            str(folder),
            str(copy),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return copy.with_suffix(".pdf")


def scored_by_the_lite_script(source: Path, target: Path, metric: str = "chrF2") -> Path:
    """``source``'s first sheet as the Lite script "Score this table" leaves it: the script's plan for the sheet (the
    cells as Office.js reports them), its writes applied as Excel applies them (a leading apostrophe makes text),
    with their number formats, header fill and widths, and its data bars."""
    import openpyxl
    from openpyxl.formatting.rule import DataBarRule
    from openpyxl.styles import Alignment, PatternFill
    from openpyxl.utils import get_column_letter

    from bleu_xl.lite.scoring_script import HEADER_FILL, METRICS, SCORE_BAR_COLOR, plan_scores

    book = openpyxl.load_workbook(source)
    ws = book.worksheets[0]
    for letter in ("C", "D"):  # the sample's expected score and its working: not what the picture is about
        ws.column_dimensions[letter].hidden = True
    grid = [["" if cell.value is None else cell.value for cell in row] for row in ws.iter_rows()]
    plan = plan_scores(ws.title, grid, metric=METRICS[metric])
    fill = PatternFill("solid", fgColor=HEADER_FILL.lstrip("#"))
    for write in plan.columns:
        letter = get_column_letter(write.column + 1)
        for offset, value in enumerate(write.values):
            cell = ws.cell(write.row + 1 + offset, write.column + 1)
            cell.value = value[1:] if isinstance(value, str) and value.startswith("'") else value
            if write.header and offset == 0:
                cell.font, cell.fill = cell.font.copy(bold=True), fill
            elif write.number_format:
                cell.number_format = write.number_format
        for offset, number_format in write.cell_formats:
            ws.cell(write.row + 1 + offset, write.column + 1).number_format = number_format
        if write.width is not None:
            ws.column_dimensions[letter].width = write.width
        if not write.header:  # the summary's values: a long signature wraps within its column
            for offset in range(len(write.values)):
                ws.cell(write.row + 1 + offset, write.column + 1).alignment = Alignment(wrap_text=True, vertical="top")
        if write.data_bar:
            first, last = write.row + 2, write.row + len(write.values)
            bar = DataBarRule(
                start_type="num", start_value=0, end_type="num", end_value=1, color=SCORE_BAR_COLOR.lstrip("#")
            )
            ws.conditional_formatting.add(f"{letter}{first}:{letter}{last}", bar)
    book.save(target)
    return target


def text_bottom(pdf: Path) -> float:
    """The lowest edge of any text on the PDF's first page, in points from its top (pdftotext's word boxes)."""
    boxes = subprocess.run(["pdftotext", "-bbox", "-f", "1", "-l", "1", str(pdf), "-"], capture_output=True, text=True)
    return max((float(y) for y in re.findall(r'yMax="([0-9.]+)"', boxes.stdout)), default=0.0)


def render(workbook: Path, folder: Path, prefix: str, *, resolution: int = RESOLUTION, cut: bool = False) -> list[Path]:
    """One PNG per printed page of ``workbook``, named ``prefix-NN.png``; returns them. With ``cut``, one page, cut
    a little below its last line of text."""
    with tempfile.TemporaryDirectory() as tmp:
        pdf = to_pdf(workbook, Path(tmp))
        for old in folder.glob(f"{prefix}-*.png"):
            old.unlink()
        size = ["-f", "1", "-l", "1", "-H", str(round((text_bottom(pdf) + 24) * resolution / 72))] if cut else []
        subprocess.run(["pdftoppm", "-r", str(resolution), *size, "-png", str(pdf), str(folder / prefix)], check=True)
    pages = sorted(folder.glob(f"{prefix}-*.png"))
    for page in pages:  # pdftoppm pads the page number to the page count's width: make it always two digits
        number = int(page.stem.rsplit("-", 1)[1])
        page.rename(folder / f"{prefix}-{number:02d}.png")
    return sorted(folder.glob(f"{prefix}-*.png"))


def main() -> int:
    if shutil.which("soffice") is None or shutil.which("pdftoppm") is None or shutil.which("fc-list") is None:
        print("needs soffice (LibreOffice), pdftoppm (poppler-utils) and fc-list (fontconfig)", file=sys.stderr)
        return 2
    missing = [language for language, families in fonts().items() if not families]
    if missing:
        packages = " ".join(sorted({LANGUAGES[language] for language in missing}))
        print(
            f"no font for {', '.join(missing)}: its text would print as boxes (apt-get install {packages})",
            file=sys.stderr,
        )
        return 2
    pages = render(TEMPLATE, DOCS, "template")
    for name in SAMPLES:  # the generated samples only, not a scored copy beside them
        pages += render(ROOT / "workbooks" / "samples" / f"{name}.xlsx", DOCS, f"sample-{name}")
    with tempfile.TemporaryDirectory() as tmp:
        scored = scored_by_the_lite_script(
            ROOT / "workbooks" / "samples" / "marketing_en.xlsx", Path(tmp) / "lite.xlsx"
        )
        pages += render(scored, DOCS, "lite", resolution=110, cut=True)
    for page in pages:
        print(page.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
