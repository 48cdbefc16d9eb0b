"""The pictures of the workbooks show what users see: docs/render.py prints CJK and Thai text with fonts that have
those characters, and refuses to make pictures where none is installed (every such cell would print as boxes)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent


def _render_module():
    spec = importlib.util.spec_from_file_location("render", ROOT / "docs" / "render.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _need(*programs: str) -> None:
    missing = [program for program in programs if shutil.which(program) is None]
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{', '.join(missing)} missing: .ci/run installs them")
        pytest.skip(f"{', '.join(missing)} not installed")


def _names(families: list[str]) -> set[str]:
    return {family.replace(" ", "").lower() for family in families}


def test_the_cjk_sample_prints_with_cjk_and_thai_fonts(tmp_path: Path) -> None:
    _need("soffice", "pdffonts", "fc-list")
    render = _render_module()
    fonts = render.fonts()
    if not all(fonts.values()):
        if os.environ.get("CI") == "true":
            pytest.fail(f"a font is missing: {fonts}; .ci/run installs fonts-noto-cjk and fonts-thai-tlwg")
        pytest.skip("no CJK or Thai font installed (apt-get install fonts-noto-cjk fonts-thai-tlwg)")
    pdf = render.to_pdf(ROOT / "workbooks" / "samples" / "cjk_mixed.xlsx", tmp_path)
    listed = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
    embedded = {line.split()[0].split("+")[-1].lower() for line in listed.splitlines()[2:] if line.strip()}
    for languages in (("ja", "ko"), ("th",)):  # the sample's Japanese and Korean, and its Thai pair
        families = set.intersection(*(_names(fonts[language]) for language in languages))
        assert any(name.startswith(family) for name in embedded for family in families), (languages, embedded)


def test_render_refuses_without_a_cjk_font(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    _need("soffice", "pdftoppm", "fc-list")
    empty = tmp_path / "fonts.conf"
    empty.write_text("<?xml version='1.0'?>\n<fontconfig></fontconfig>\n", encoding="utf-8")
    monkeypatch.setenv("FONTCONFIG_FILE", str(empty))  # fontconfig with no font at all
    render = _render_module()
    assert render.fonts() == {language: [] for language in render.LANGUAGES}
    assert render.main() == 2
    assert "apt-get install fonts-noto-cjk fonts-thai-tlwg" in capsys.readouterr().err
