"""This checkout built and installed as a user gets it, without the network.

``build`` makes the sdist and the wheel the way ``python -m build`` does (the sdist first, then the wheel from the
unpacked sdist), without build isolation, in a copy of the checkout so that nothing is written into it.

``Venv`` is a fresh virtual environment outside the checkout with the wheel installed by pip, not editable. Its
dependencies cannot be downloaded here, so they come from this test environment, but only those the wheel
declares: every distribution its ``Requires-Dist`` reaches (markers evaluated for this machine) is linked into a
folder of their own that a ``.pth`` file puts on the new environment's path. pip then installs the wheel with
``--no-index`` and finds each requirement satisfied, so a dependency the wheel forgot to declare is missing there,
and this environment's editable bleu-xl is not on that path at all.
"""

from __future__ import annotations

import email.parser
import importlib.metadata
import os
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.helpers import BYTECODE_DIRECTORY

ROOT = Path(__file__).resolve().parent.parent.parent
#: What a checkout holds besides its committed files: never copied into the build.
NOT_SOURCE = shutil.ignore_patterns(
    ".git",
    ".venv",
    "node_modules",
    "__pycache__",
    "build",
    "dist",
    "*.egg-info",
    ".pytest_cache",
    ".ruff_cache",
    ".hypothesis",
    "*-scored.xlsx",
)


def clean_env(**extra: str) -> dict[str, str]:
    """This process's environment without what would make a child see this checkout or this environment's
    packages (PYTHONPATH, a user site, pip settings), plus ``extra``. Where conftest.py put its bytecode directory
    in place of PYTHONDONTWRITEBYTECODE, the setting is back: pip would record the installed package's bytecode
    in that directory (``../../../../tmp/...pyc`` in RECORD), outside the environment, deleted after the run."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP"} and not key.startswith("PIP_")
    }
    if Path(env.get("PYTHONPYCACHEPREFIX", "")).name.startswith(BYTECODE_DIRECTORY):
        del env["PYTHONPYCACHEPREFIX"]
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return {**env, "PYTHONNOUSERSITE": "1", **extra}


def as_on_windows(folder: Path) -> dict[str, str]:
    """The environment under which an installed bleu-xl takes this machine for Windows, as ``excel-setup`` needs
    (it refuses to run elsewhere, a dry run included): a ``sitecustomize`` in ``folder`` answers its platform
    check with yes, so the plan it prints is the one Windows prints. Nothing of the checkout is on that path."""
    folder.mkdir(exist_ok=True)
    (folder / "sitecustomize.py").write_text(
        "from bleu_xl.excel import windows_setup\n\nwindows_setup.on_windows = lambda: True\n", encoding="utf-8"
    )
    return {"PYTHONPATH": str(folder)}


@dataclass(frozen=True)
class Dists:
    sdist: Path
    wheel: Path


def build(out: Path) -> Dists:
    """The sdist and the wheel of this checkout, in ``out/dist``."""
    source = out / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE, symlinks=True)
    dist = out / "dist"
    done = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(source)],
        capture_output=True,
        text=True,
        env=clean_env(),
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (sdist,) = dist.glob("*.tar.gz")
    (wheel,) = dist.glob("*.whl")
    return Dists(sdist, wheel)


def wheel_metadata(wheel: Path) -> email.message.Message:
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        return email.parser.Parser().parsestr(archive.read(name).decode("utf-8"))


def dependencies(requirements: list[str]) -> list[importlib.metadata.Distribution]:
    """Every installed distribution that ``requirements`` reach on this machine, each checked against the versions
    asked for."""
    found: dict[str, importlib.metadata.Distribution] = {}
    todo = [Requirement(text) for text in requirements]
    while todo:
        requirement = todo.pop()
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
            continue
        key = canonicalize_name(requirement.name)
        if key in found:
            continue
        distribution = importlib.metadata.distribution(requirement.name)
        assert requirement.specifier.contains(distribution.version, prereleases=True), (requirement, distribution)
        found[key] = distribution
        todo += [Requirement(text) for text in distribution.requires or []]
    return list(found.values())


def link_distributions(distributions: list[importlib.metadata.Distribution], folder: Path) -> None:
    """Each distribution's top-level modules, packages and metadata folder, linked into ``folder``."""
    folder.mkdir()
    for distribution in distributions:
        tops = {file.parts[0] for file in distribution.files or [] if file.parts[0] != ".."}  # not its scripts
        for top in sorted(tops):
            link = folder / top
            if not link.exists():
                link.symlink_to(Path(distribution.locate_file(top)).resolve())


class Venv:
    """A fresh virtual environment at ``path`` with ``wheel`` installed (see the module's docstring)."""

    def __init__(self, path: Path, wheel: Path) -> None:
        self.path = path
        base = getattr(sys, "_base_executable", sys.executable)  # the interpreter this environment was made from
        subprocess.run([base, "-m", "venv", str(path)], check=True, env=clean_env(), timeout=300)
        self.bin = path / ("Scripts" if os.name == "nt" else "bin")
        self.python = self.bin / "python"
        site = Path(self.run_python("import sysconfig; print(sysconfig.get_paths()['purelib'])").strip())
        requirements = wheel_metadata(wheel).get_all("Requires-Dist") or []
        link_distributions(dependencies(requirements), path.parent / f"{path.name}-dependencies")
        (site / "dependencies.pth").write_text(f"{path.parent / f'{path.name}-dependencies'}\n", encoding="utf-8")
        self.pip("install", "--no-index", "--no-cache-dir", "--quiet", str(wheel))

    def pip(self, *args: str) -> str:
        done = subprocess.run(
            [str(self.python), "-m", "pip", "--disable-pip-version-check", *args],
            capture_output=True,
            text=True,
            env=clean_env(),
            timeout=300,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    def run_python(self, code: str, cwd: Path | None = None) -> str:
        done = subprocess.run(
            [str(self.python), "-c", code], capture_output=True, text=True, env=clean_env(), cwd=cwd, timeout=300
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    def bleu_xl(self, *args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
        """The installed console script ``bleu-xl`` with ``args``, run in ``cwd``."""
        return subprocess.run(
            [str(self.bin / "bleu-xl"), *args],
            capture_output=True,
            text=True,
            env=clean_env(**env),
            cwd=cwd,
            timeout=300,
        )
