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
