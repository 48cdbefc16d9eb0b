"""The package as published: what the wheel and the sdist hold, their metadata, and every command a user is told to
run, from the wheel installed alone in a fresh environment outside the checkout."""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from bleu_xl import __version__
from bleu_xl.lite import bundle as lite_bundle
from tests.helpers import BYTECODE_DIRECTORY

from .dists import ROOT, Dists, Venv, as_on_windows, clean_env, wheel_metadata

#: One test process builds the checkout and its environment once for every release test (pytest -n, --dist
#: loadgroup).
pytestmark = pytest.mark.xdist_group("release")

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_wheel_holds_the_package_and_its_licence_only(dists: Dists) -> None:
    with zipfile.ZipFile(dists.wheel) as archive:
        names = archive.namelist()
    info = f"bleu_xl-{__version__}.dist-info/"
    assert dists.wheel.name == f"bleu_xl-{__version__}-py3-none-any.whl"
    assert all(name.startswith(("bleu_xl/", info)) for name in names), names
    assert not [name for name in names if name.endswith((".png", ".xlsx")) or "/tests/" in name or "benchmarks" in name]
    assert f"{info}licenses/LICENSE" in names
    assert {"bleu_xl/release/install.ps1", "bleu_xl/release/install.cmd", "bleu_xl/core/metrics/bleu.py"} <= set(names)
    packaged = {name for name in names if name.startswith("bleu_xl/") and name.endswith(".py")}
    assert packaged == {p.relative_to(ROOT).as_posix() for p in (ROOT / "bleu_xl").rglob("*.py")}


def test_sdist_holds_what_builds_the_wheel(dists: Dists) -> None:
    """The decision: the package, its metadata, the licence and the changelog; the tests stay in the repository."""
    with tarfile.open(dists.sdist) as archive:
        names = [name.split("/", 1)[1] for name in archive.getnames() if "/" in name]
    tops = {name.split("/", 1)[0] for name in names}
    assert tops == {
        "bleu_xl",
        "bleu_xl.egg-info",
        "CHANGELOG.md",
        "LICENSE",
        "MANIFEST.in",
        "PKG-INFO",
        "pyproject.toml",
        "README.md",
        "setup.cfg",
    }
    assert "bleu_xl/release/install.ps1" in names


def test_metadata_licence_classifiers_and_readme(dists: Dists) -> None:
    metadata = wheel_metadata(dists.wheel)
    assert metadata["Name"] == "bleu-xl" and metadata["Version"] == __version__
    assert metadata["License-Expression"] == "MIT" and metadata["License-File"] == "LICENSE"
    classifiers = metadata.get_all("Classifier")
    assert "Topic :: Office/Business :: Financial :: Spreadsheet" in classifiers
    assert "Operating System :: OS Independent" in classifiers
    assert metadata["Description-Content-Type"] == "text/markdown"
    assert metadata.get_payload() == README
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")


def test_twine_check_passes(dists: Dists) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(dists.sdist), str(dists.wheel)],
        capture_output=True,
        text=True,
        env=clean_env(),
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == 2


# --- installed alone ----------------------------------------------------------------------------------------------


def test_the_installed_package_is_the_wheel_not_the_checkout(venv: Venv, tmp_path: Path) -> None:
    shown = venv.run_python(
        "import bleu_xl, importlib.metadata as m\n"
        "print(bleu_xl.__file__)\n"
        "print(len([d for d in m.distributions() if d.metadata['Name'] == 'bleu-xl']))\n"
        "print(m.distribution('bleu-xl').read_text('direct_url.json'))",
        cwd=tmp_path,
    ).splitlines()
    assert Path(shown[0]).is_relative_to(venv.path) and not Path(shown[0]).is_relative_to(ROOT)
    assert shown[1] == "1"  # the test environment's editable bleu-xl is not visible there
    assert '"archive_info"' in shown[2] and '"editable"' not in shown[2]
    assert venv.pip("check").startswith("No broken requirements")


def test_every_command_a_user_runs_works_from_the_wheel(venv: Venv, dists: Dists, tmp_path: Path) -> None:
    def ok(*args: str, **env: str) -> str:
        done = venv.bleu_xl(*args, cwd=tmp_path, **env)
        assert done.returncode == 0, (args, done.stdout, done.stderr)
        return done.stdout

    assert ok("--version").strip().startswith(f"bleu-xl {__version__}, scoring ")
    # The README's command line in three lines, past its pip install (done above, from the wheel).
    section = README[README.index("## The command line in three lines") :]
    install, template, scoring = re.search(r"```bash\n(.*?)```", section, flags=re.S).group(1).splitlines()
    assert install == "pip install bleu-xl" and template == "bleu-xl template"
    written = ok(*template.split()[1:])
    assert "workbooks/bleu2_ranking.xlsx" in written and "workbooks/samples/marketing_en.xlsx" in written
    corpus = re.search(r"^corpus BLEU-2 \S+", README, flags=re.M).group()  # the quick start's figure
    assert corpus in ok(*scoring.split()[1:])
    assert (tmp_path / "workbooks" / "samples" / "marketing_en-scored.xlsx").exists()
    assert "BLEU-2 = 0.8093" in ok(
        "pair",
        "a entrega chegou no prazo e o produto veio bem embalado",
        "a entrega chegou no prazo e o produto veio intacto",
    )
    compared = ok(
        "compare", "workbooks/bleu2_ranking.xlsx", "--sheet", "Compare", "--a", "Candidate A", "--b", "Candidate B"
    )
    assert "Candidate B scores higher than Candidate A, p < 0.001; only 12 pairs" in compared
    ok("lite-bundle", "lite")
    bundle = (tmp_path / "lite" / "main.py").read_bytes()
    assert bundle == lite_bundle.bundle_files()["main.py"].encode("utf-8")
    assert bundle == (ROOT / "install" / "xlwings-lite" / "main.py").read_bytes()
    home = tmp_path / "home"
    home.mkdir()
    if not sys.platform.startswith("win"):
        refused = venv.bleu_xl("excel-setup", "--dry-run", cwd=tmp_path, HOME=str(home))
        assert refused.returncode == 2 and "excel-setup is for Windows" in refused.stderr
    windows = as_on_windows(tmp_path / "windows")  # excel-setup is for Windows: its plan as Windows prints it
    assert "[1/3] Install the xlwings add-in into Excel" in ok("excel-setup", "--dry-run", HOME=str(home), **windows)
    assert list(home.iterdir()) == []
    (tmp_path / "release").mkdir()
    assert f"bleu-xl-{__version__}.zip" in ok("release", "release", "--wheel", str(dists.wheel))


def test_the_readme_python_example_runs_from_the_wheel(venv: Venv, tmp_path: Path) -> None:
    block = re.search(r"```python\n(.*?)```", README, flags=re.S).group(1)
    code = f"import doctest, sys\ntest = doctest.DocTestParser().get_doctest({block!r}, {{}}, 'README', None, 0)\n"
    code += "runner = doctest.DocTestRunner()\nrunner.run(test)\nsys.exit(runner.failures or runner.tries < 3)\n"
    venv.run_python(code, cwd=tmp_path)


def test_a_fresh_environment_gets_the_bytecode_setting_back(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """conftest.py trades PYTHONDONTWRITEBYTECODE for a bytecode directory of its own; the fresh environment gets the
    setting back, or pip records the installed package's bytecode in that directory, outside the environment."""
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
    monkeypatch.setenv("PYTHONPYCACHEPREFIX", str(tmp_path / f"{BYTECODE_DIRECTORY}x1y2"))
    env = clean_env()
    assert "PYTHONPYCACHEPREFIX" not in env and env["PYTHONDONTWRITEBYTECODE"] == "1"
    monkeypatch.setenv("PYTHONPYCACHEPREFIX", str(tmp_path / "mine"))  # the user's own: kept
    assert clean_env()["PYTHONPYCACHEPREFIX"] == str(tmp_path / "mine")
