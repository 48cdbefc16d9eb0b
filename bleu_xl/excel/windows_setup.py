"""Sets up the classic xlwings add-in on Windows: the xlwings add-in, the user config, and a bleu_xl.xlam add-in.

Every step is planned first (so that a dry run can print it on any platform) and then carried out. The Excel calls
of the add-in build (opening the add-in, importing the functions into its VBA project, saving) go through a
small interface so that the tests can drive them with stand-ins.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import BleuXlError

__all__ = [
    "ADDIN_NAME",
    "PARTS",
    "BuildAddin",
    "RunCommand",
    "Step",
    "WriteFile",
    "build_addin",
    "merge_user_config",
    "plan",
    "run_plan",
    "user_config_settings",
]

ADDIN_NAME = "bleu_xl"


class SetupError(BleuXlError):
    """A setup step that did not do what it should have."""


UDF_MODULES = "bleu_xl.udfs"
#: Where a user without Windows finds the xlwings Lite bundle: in the release zip, or made by the command.
LITE_POINTER = "main.py in the xlwings-lite folder of the bleu-xl zip, or write it with: bleu-xl lite-bundle FOLDER"


@dataclass(frozen=True)
class RunCommand:
    """A step that runs a command."""

    description: str
    command: list[str]

    def describe(self) -> str:
        return f"{self.description}\n    run: {subprocess.list2cmdline(self.command)}"


@dataclass(frozen=True)
class WriteFile:
    """A step that writes a text file whole (through a temporary file beside it)."""

    description: str
    path: Path
    content: str

    def describe(self) -> str:
        body = "".join(f"      {line}\n" for line in self.content.splitlines())
        return f"{self.description}\n    write: {self.path}\n{body}".rstrip("\n")


@dataclass(frozen=True)
class BuildAddin:
    """A step that builds the bleu_xl.xlam add-in with Excel and installs it at ``path``."""

    description: str
    path: Path

    def describe(self) -> str:
        return self.description


#: One thing the setup does.
Step = RunCommand | WriteFile | BuildAddin


def xlwings_command(python: Path) -> list[str]:
    """xlwings' own command line, from the same environment as ``python`` (there is no ``python -m xlwings``)."""
    name = "xlwings.exe" if python.suffix.lower() == ".exe" else "xlwings"
    return [str(python.with_name(name))]


def _line(key: str, value: str) -> str:
    return f'"{key}","{value}"'


def merge_user_config(existing: str, settings: dict[str, str]) -> str:
    """xlwings.conf with ``settings`` set and every other line kept as it was.

    The file holds one ``"KEY","VALUE"`` per line; xlwings compares keys without regard to case.
    """
    wanted = {key.upper(): (key, value) for key, value in settings.items()}
    lines = []
    for line in existing.splitlines():
        key = line.split('","', 1)[0].strip().strip('"').upper() if line.strip().startswith('"') else None
        if key in wanted:
            lines.append(_line(*wanted.pop(key)))
        else:
            lines.append(line)
    lines += [_line(key, value) for key, value in wanted.values()]
    return "\n".join(lines) + "\n"


def user_config_settings(python: Path) -> dict[str, str]:
    """The interpreter (pythonw.exe beside python.exe when there is one: no console window) and the UDF module."""
    windowless = python.with_name("pythonw.exe")
    interpreter = windowless if python.name.lower() == "python.exe" and windowless.exists() else python
    return {"INTERPRETER_WIN": str(interpreter), "UDF MODULES": UDF_MODULES}


PARTS = ("xlwings-addin", "config", "xlam")


def plan(*, python: Path, home: Path, appdata: Path | None = None, parts: Sequence[str] = PARTS) -> list[Step]:
    """The steps of ``bleu-xl excel-setup`` for this Python, this user's home folder and %APPDATA%.

    ``parts`` chooses among the xlwings add-in install, the user config and the bleu_xl.xlam build.
    """
    config = home / ".xlwings" / "xlwings.conf"
    existing = config.read_text(encoding="utf-8") if config.exists() else ""
    steps: list[Step] = []
    if "xlwings-addin" in parts:
        steps.append(
            RunCommand("Install the xlwings add-in into Excel", [*xlwings_command(python), "addin", "install"])
        )
    if "config" in parts:
        steps.append(
            WriteFile(
                f"Write the xlwings user config ({'keeping the settings already there' if existing else 'new file'})",
                path=config,
                content=merge_user_config(existing, user_config_settings(python)),
            )
        )
    if "xlam" in parts:
        target = (appdata or home / "AppData" / "Roaming") / "Microsoft" / "AddIns" / f"{ADDIN_NAME}.xlam"
        steps.append(
            BuildAddin(
                f"Build {ADDIN_NAME}.xlam with the bleu-xl functions (an xlwings quickstart add-in, "
                f"then Import Functions) and install it: {target}",
                path=target,
            )
        )
    return steps


class ExcelCalls:
    """The Excel side of the add-in build, through xlwings (Windows with Excel only)."""

    def open_book(self, path: Path) -> Any:
        import xlwings as xw

        return xw.Book(str(path))

    def import_functions(self, book: Any, modules: str) -> None:
        import xlwings as xw

        xw.import_udfs(modules, book.api)

    def save_and_close(self, book: Any) -> None:
        book.save()
        book.close()


def build_addin(
    python: Path,
    target: Path,
    *,
    excel: ExcelCalls | None = None,
    run: Callable[..., Any] = subprocess.run,
    workdir: Path | None = None,
) -> Path:
    """Create bleu_xl.xlam with ``xlwings quickstart --addin``, import the functions into it, install it."""
    excel = excel or ExcelCalls()
    folder = Path(workdir or tempfile.mkdtemp(prefix="bleu-xl-addin-"))
    run([*xlwings_command(python), "quickstart", ADDIN_NAME, "--addin"], cwd=folder, check=True)
    addin = folder / ADDIN_NAME / f"{ADDIN_NAME}.xlam"
    if not addin.exists():
        raise SetupError(f"xlwings quickstart did not create {addin}")
    book = excel.open_book(addin)
    try:
        excel.import_functions(book, UDF_MODULES)
    finally:
        excel.save_and_close(book)
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(addin, target)
    run([*xlwings_command(python), "addin", "install", "--file", str(target)], check=True)
    return target


def run_plan(
    steps: Sequence[Step],
    *,
    python: Path,
    log: Callable[[str], None],
    run: Callable[..., Any] = subprocess.run,
    excel: ExcelCalls | None = None,
) -> None:
    """Carry the steps out in order, logging each one."""
    for number, step in enumerate(steps, start=1):
        log(f"[{number}/{len(steps)}] {step.description}")
        if isinstance(step, RunCommand):
            run(step.command, check=True)
        elif isinstance(step, WriteFile):
            step.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = step.path.with_name(step.path.name + ".partial")
            tmp.write_text(step.content, encoding="utf-8")
            os.replace(tmp, step.path)
        else:
            build_addin(python, step.path, excel=excel, run=run)


def on_windows() -> bool:
    return sys.platform.startswith("win")
