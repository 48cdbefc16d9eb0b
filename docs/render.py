"""Renders every page of the template and the samples into docs/*.png with LibreOffice (python docs/render.py).

The template's pages become docs/template-NN.png, each sample's docs/sample-NAME-NN.png. The samples hold
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


def render(workbook: Path, folder: Path, prefix: str) -> list[Path]:
    """One PNG per printed page of ``workbook``, named ``prefix-NN.png``; returns them."""
    with tempfile.TemporaryDirectory() as tmp:
        pdf = to_pdf(workbook, Path(tmp))
        for old in folder.glob(f"{prefix}-*.png"):
            old.unlink()
        subprocess.run(["pdftoppm", "-r", str(RESOLUTION), "-png", str(pdf), str(folder / prefix)], check=True)
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
    for page in pages:
        print(page.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
