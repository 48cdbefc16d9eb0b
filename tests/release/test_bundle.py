"""The release bundle for Excel users: made by one command, unpacked into an empty folder, installed from its own
wheel (the Python side of install.ps1, dry run), and every file the same as the command that makes it alone.

PowerShell does not run here: install.ps1 is checked as text (every step that changes something is skipped by
-DryRun, the wheel is the one beside the script), and the commands it runs are run from the bundle's wheel.
"""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from bleu_xl import __version__
from bleu_xl.cli import main
from bleu_xl.lite.reenter import SCRIPT_NAME
from bleu_xl.release import bundle as release
from bleu_xl.template.data import SAMPLES

from .dists import Dists, Venv, as_on_windows

#: One test process builds the checkout and its environment once for every release test (pytest -n, --dist
#: loadgroup).
pytestmark = pytest.mark.xdist_group("release")

WHEEL = f"bleu_xl-{__version__}-py3-none-any.whl"
FILES = {
    "READ ME FIRST.txt",
    "install.cmd",
    "install.ps1",
    WHEEL,
    "bleu2_ranking.xlsx",
    *(f"samples/{name}.xlsx" for name in SAMPLES),
    "xlwings-lite/main.py",
    "xlwings-lite/requirements.txt",
}


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def unpacked(dists: Dists, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundle as ``python -m build && bleu-xl release dist`` makes it, unzipped into an empty folder."""
    dist = tmp_path_factory.mktemp("dist")
    shutil.copy(dists.wheel, dist)
    result = run("release", str(dist))
    assert result.exit_code == 0, result.output
    made = dist / f"bleu-xl-{__version__}.zip"
    assert result.output == f"wrote {made}\n"
    folder = tmp_path_factory.mktemp("unzipped")
    with zipfile.ZipFile(made) as archive:
        assert {name for name in archive.namelist()} == FILES  # no folder at the top: unzipping gives one folder
        archive.extractall(folder)
    assert (folder / WHEEL).read_bytes() == dists.wheel.read_bytes()
    return folder


def test_the_lite_main_py_is_what_lite_bundle_writes(unpacked: Path, tmp_path: Path) -> None:
    assert run("lite-bundle", str(tmp_path / "lite")).exit_code == 0
    for name in ("main.py", "requirements.txt"):
        assert (unpacked / "xlwings-lite" / name).read_bytes() == (tmp_path / "lite" / name).read_bytes(), name


def test_the_workbooks_are_what_template_writes(unpacked: Path, tmp_path: Path) -> None:
    assert run("template", str(tmp_path / "wb")).exit_code == 0
    for path in [
        Path("bleu2_ranking.xlsx"),
        *(Path("samples") / p.name for p in (tmp_path / "wb" / "samples").iterdir()),
    ]:
        assert (unpacked / path).read_bytes() == (tmp_path / "wb" / path).read_bytes(), path


def test_read_me_first_is_one_page_in_three_languages_naming_the_bundle_s_files(unpacked: Path) -> None:
    raw = (unpacked / "READ ME FIRST.txt").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and b"\r\n" in raw and b"\n" not in raw.replace(b"\r\n", b"")
    text = raw.decode("utf-8-sig").replace("\r\n", "\n")
    lines = text.splitlines()
    assert len(lines) <= 60 and max(len(line) for line in lines) <= 100  # one printed page
    for phrase in ("Windows, Excel on your PC", "Français. Windows", "Português. Windows"):
        assert phrase in text
    for name in ("bleu2_ranking.xlsx", "samples", "install.cmd", "xlwings-lite", "main.py", WHEEL):
        assert name in text, name
        assert (unpacked / name).exists() or (unpacked / "xlwings-lite" / name).exists(), name
    assert text.count(f'"{SCRIPT_NAME}"') == 3 and text.count("Find & Select > Replace") == 1
    assert "bleu-xl score samples/marketing_en.xlsx" in text and (unpacked / "samples" / "marketing_en.xlsx").exists()
    assert not re.search(r"install[/\\]|workbooks[/\\]|docs/|tests/", text)  # no path of the repository


def test_the_installer_scripts_are_the_package_s(unpacked: Path) -> None:
    for name in release.INSTALLER:
        assert (unpacked / name).read_bytes() == (Path(release.__file__).parent / name).read_bytes()
    cmd = (unpacked / "install.cmd").read_bytes()
    assert b'powershell.exe -NoProfile -ExecutionPolicy Bypass -File "%~dp0install.ps1" %*' in cmd
    assert cmd.count(b"\r\n") == cmd.count(b"\n")  # Windows line endings throughout
    assert b"pause" in cmd and cmd.rstrip().endswith(b"exit /b %result%")


def _code(script: str) -> list[str]:
    """The lines of install.ps1 that run, without comments and the help block."""
    script = re.sub(r"<#.*?#>", "", script, flags=re.S)
    return [line for line in script.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def test_install_ps1_installs_the_wheel_beside_it_and_its_dry_run_changes_nothing(unpacked: Path) -> None:
    script = (unpacked / "install.ps1").read_text(encoding="ascii")  # ASCII: Windows PowerShell reads it in any locale
    code = _code(script)
    assert 'Get-ChildItem -Path $PSScriptRoot -Filter "bleu_xl-*.whl"' in script
    assert len(list(unpacked.glob("bleu_xl-*.whl"))) == 1  # what the script requires of the folder it runs in
    assert "..\\.." not in script and "Checkout" not in script  # never a checkout
    # Every line that changes something sits in a block that -DryRun skips.
    changes = re.compile(r"New-Item|-m venv|pip install|addin install|excel-setup --only")
    blocks: list[str] = []
    for line in code:
        if changes.search(line) and "Write-Host" not in line and "throw" not in line:
            assert any(header.startswith("if (-not $DryRun)") for header in blocks), line
        for char in line:
            if char == "{":
                blocks.append(line.strip())
            elif char == "}":
                blocks.pop()
    assert blocks == []
    steps = [re.search(r'Write-Host "\[(\d)/5\]', line).group(1) for line in code if '"[' in line and "/5]" in line]
    assert steps == ["1", "2", "3", "4", "5", "5"]  # step 5 says what it does, or that -NoAddin left it out


def test_the_python_side_of_the_installer_dry_run_from_the_bundle_s_wheel(
    unpacked: Path, dists: Dists, venv: Venv, tmp_path: Path
) -> None:
    """What install.ps1 does with Python, in the unzipped folder: pip installs the wheel beside the script into a
    fresh environment (the session's, made from this very wheel), then each ``bleu-xl excel-setup`` call of the
    script runs with --dry-run."""
    (wheel,) = unpacked.glob("bleu_xl-*.whl")
    assert wheel.read_bytes() == dists.wheel.read_bytes()  # the environment's wheel, byte for byte
    home = tmp_path / "home"
    home.mkdir()
    calls = re.findall(r"& \$BleuXl (excel-setup [^\r\n]+)", (unpacked / "install.ps1").read_text(encoding="ascii"))
    assert calls == ["excel-setup --only config", "excel-setup --only xlam"]
    for call in calls:
        windows = as_on_windows(tmp_path / "windows")  # excel-setup is for Windows: as on the machine install.ps1 runs
        done = venv.bleu_xl(
            *call.split(), "--dry-run", cwd=unpacked, HOME=str(home), APPDATA=str(home / "AppData"), **windows
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("bleu-xl excel-setup would (dry run, nothing is changed):\n[1/1] ")
    assert list(home.iterdir()) == []
    assert sorted(p.relative_to(unpacked).as_posix() for p in unpacked.rglob("*") if p.is_file()) == sorted(FILES)


def test_the_bundle_is_the_same_each_time_and_replaced_only_with_force(dists: Dists, tmp_path: Path) -> None:
    shutil.copy(dists.wheel, tmp_path)
    assert run("release", str(tmp_path)).exit_code == 0
    made = tmp_path / f"bleu-xl-{__version__}.zip"
    first = made.read_bytes()
    again = run("release", str(tmp_path))
    assert again.exit_code == 2 and "already exists; use --force" in again.output
    assert run("release", str(tmp_path), "--force").exit_code == 0
    assert made.read_bytes() == first


def test_a_missing_or_foreign_wheel_is_one_line(dists: Dists, tmp_path: Path) -> None:
    missing = run("release", str(tmp_path))
    assert missing.exit_code == 2 and missing.output.count("\n") == 1
    assert f"{tmp_path / WHEEL}: no such wheel" in missing.output and "--wheel PATH" in missing.output
    other = tmp_path / "bleu_xl-9.9.9-py3-none-any.whl"
    shutil.copy(dists.wheel, other)
    foreign = run("release", str(tmp_path), "--wheel", str(other))
    assert foreign.exit_code == 2 and f"not the wheel of bleu-xl {__version__}" in foreign.output
    fake = tmp_path / WHEEL
    fake.write_bytes(b"not a zip")
    assert "not a readable bleu-xl wheel" in run("release", str(tmp_path)).output
    assert not list(tmp_path.glob("*.zip"))
