"""What bleu-xl makes for Excel users: the template and sample workbooks, the xlwings Lite bundle, the release zip,
and the classic add-in's setup on Windows. Each writes whole or not at all and keeps what is there without
``force``."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from ..excel import windows_setup
from ..files.write.output import write_folder
from ..lite.bundle import bundle_files
from ..release.bundle import write_release as _write_release
from ..table.sheet import InputError
from ..template.build import write_workbooks

__all__ = ["EXCEL_SETUP_PARTS", "setup_excel", "write_lite_bundle", "write_release", "write_template"]

#: Workbook extensions other than .xlsx: a file name the template cannot be written to.
OTHER_WORKBOOK_SUFFIXES = {".xls", ".xlsm", ".xlsb", ".xltx", ".xltm", ".xlt", ".xla", ".xlam", ".ods", ".numbers"}
#: The parts of the classic add-in's setup, in the order they run.
EXCEL_SETUP_PARTS = windows_setup.PARTS


def write_template(folder: str | os.PathLike[str] = "workbooks", *, force: bool = False) -> list[Path]:
    """Write the ranking template and the sample workbooks into ``folder``; given a name ending in ``.xlsx``, only
    the template, to that file (another workbook extension, such as ``.xls``, is refused). Existing workbooks
    (perhaps edited) are kept unless ``force``. Returns the paths written."""
    suffix = Path(folder).suffix.lower()
    if suffix in OTHER_WORKBOOK_SUFFIXES:
        raise InputError(
            f"{folder}: the template is an .xlsx workbook; give a name ending in .xlsx (or a folder for the "
            "template and the samples)"
        )
    return write_workbooks(Path(folder), force=force)


def write_lite_bundle(
    folder: str | os.PathLike[str] = "xlwings-lite", *, force: bool = False
) -> list[tuple[Path, bool]]:
    """Write the xlwings Lite bundle (``main.py`` and ``requirements.txt``) into ``folder``: a file that differs from
    the bundle (perhaps the user's own ``main.py``) is kept unless ``force``; nothing is written unless every file
    can be. Returns each path and whether it was written (``False``: it held the bundle already)."""
    return write_folder(str(folder), {name: text.encode("utf-8") for name, text in bundle_files().items()}, force=force)


def write_release(
    folder: str | os.PathLike[str] = "dist", *, wheel: str | os.PathLike[str] | None = None, force: bool = False
) -> Path:
    """Write the release zip for Excel users, ``bleu-xl-VERSION.zip``, into ``folder``: the wheel (``wheel``, else
    this version's in ``folder``), the Windows installer, the template and samples, the xlwings Lite bundle and
    READ ME FIRST.txt. Returns its path."""
    return _write_release(Path(folder), wheel=Path(wheel) if wheel else None, force=force)


def setup_excel(
    *,
    parts: Sequence[str] = EXCEL_SETUP_PARTS,
    dry_run: bool = False,
    log: Callable[[str], None] = print,
) -> list[windows_setup.Step]:
    """Set up the classic Excel add-in on Windows for this Python: xlwings' add-in, the user config
    (``~/.xlwings/xlwings.conf``: this interpreter, ``bleu_xl.udfs`` as the UDF module), and ``bleu_xl.xlam``
    (``parts`` chooses among them). Returns the steps, carried out unless ``dry_run`` (each logged with ``log``).
    Elsewhere than on Windows, refused: a Mac or Excel on the web uses the xlwings Lite bundle."""
    if not windows_setup.on_windows():  # at once, dry run or not: nothing here applies elsewhere
        raise windows_setup.SetupError(
            "excel-setup is for Windows: classic xlwings functions (UDFs) need Excel on Windows; on a Mac or Excel "
            f"on the web use the xlwings Lite bundle: {windows_setup.LITE_POINTER}"
        )
    appdata = Path(os.environ["APPDATA"]) if os.environ.get("APPDATA") else None
    steps = windows_setup.plan(python=Path(sys.executable), home=Path.home(), appdata=appdata, parts=parts)
    if not dry_run:
        windows_setup.run_plan(steps, python=Path(sys.executable), log=log)
    return steps
