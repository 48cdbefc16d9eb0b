"""Renders every page of the template and the samples into docs/*.png with LibreOffice (python docs/render.py).

The template's pages become docs/template-NN.png, each sample's docs/sample-NAME-NN.png.

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


def render(workbook: Path, folder: Path, prefix: str) -> list[Path]:
    """One PNG per printed page of ``workbook``, named ``prefix-NN.png``; returns them."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / workbook.name
        values_only(workbook, copy)
        subprocess.run(
            [
                "soffice",
                f"-env:UserInstallation=file://{tmp}/profile",  # a private profile: parallel runs do not collide
                "--headless",
                "--convert-to",
                "pdf",
                "--outdir",
                tmp,
                str(copy),
            ],
            check=True,
            capture_output=True,
            timeout=300,
        )
        for old in folder.glob(f"{prefix}-*.png"):
            old.unlink()
        pdf = copy.with_suffix(".pdf")
        subprocess.run(["pdftoppm", "-r", str(RESOLUTION), "-png", str(pdf), str(folder / prefix)], check=True)
    pages = sorted(folder.glob(f"{prefix}-*.png"))
    for page in pages:  # pdftoppm pads the page number to the page count's width: make it always two digits
        number = int(page.stem.rsplit("-", 1)[1])
        page.rename(folder / f"{prefix}-{number:02d}.png")
    return sorted(folder.glob(f"{prefix}-*.png"))


def main() -> int:
    if shutil.which("soffice") is None or shutil.which("pdftoppm") is None:
        print("needs soffice (LibreOffice) and pdftoppm (poppler-utils)", file=sys.stderr)
        return 2
    pages = render(TEMPLATE, DOCS, "template")
    for name in SAMPLES:  # the generated samples only, not a scored copy beside them
        pages += render(ROOT / "workbooks" / "samples" / f"{name}.xlsx", DOCS, f"sample-{name}")
    for page in pages:
        print(page.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
