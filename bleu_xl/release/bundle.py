"""Builds ``bleu-xl-VERSION.zip``, the release bundle: everything an Excel user needs, from one download.

The zip holds, at its top (so that unzipping it anywhere gives one folder of these files, on Windows and on a Mac):
the wheel, ``install.cmd`` and ``install.ps1`` (the Windows installer, which installs that wheel), the template
and the samples as ``bleu-xl template`` writes them, ``xlwings-lite/main.py`` and ``requirements.txt`` as
``bleu-xl lite-bundle`` writes them, and ``READ ME FIRST.txt``. Everything but the wheel is made by this package
(the installer scripts are files of this package), so the bundle of a version is the same whoever makes it: the
zip's entries are written in a fixed order with a fixed date.
"""

from __future__ import annotations

import email.parser
import tempfile
import zipfile
from pathlib import Path

from .._version import __version__
from ..core.errors import BleuXlError, Setting
from ..files.write.output import OutputFile
from ..lite.bundle import bundle_files as lite_files
from ..lite.reenter import SCRIPT_NAME
from ..template.build import workbooks
from .readme import read_me_first

__all__ = ["INSTALLER", "ReleaseError", "bundle_files", "find_wheel", "wheel_name", "write_release", "zip_name"]

HERE = Path(__file__).resolve().parent
#: The Windows installer's files, shipped in this package as they go into the bundle.
INSTALLER = ("install.cmd", "install.ps1")
#: The date every entry of the zip carries (zip dates have no time zone; 1980 is the earliest they hold).
ENTRY_DATE = (2026, 1, 1, 0, 0, 0)


class ReleaseError(BleuXlError):
    """A release bundle that cannot be made as asked: no wheel, or a wheel of another package or version."""


def wheel_name(version: str = __version__) -> str:
    """The file name of bleu-xl's wheel for ``version``, as ``python -m build`` names it."""
    return f"bleu_xl-{version}-py3-none-any.whl"


def zip_name(version: str = __version__) -> str:
    return f"bleu-xl-{version}.zip"


def _check_wheel(wheel: Path) -> None:
    """The wheel must be this version's bleu-xl: the bundle's other files are made by this version."""
    if wheel.name != wheel_name():
        raise ReleaseError(
            f"{wheel}: not the wheel of bleu-xl {__version__} ({wheel_name()}); the bundle's workbooks and Lite "
            f"bundle come from bleu-xl {__version__}, so its wheel must too"
        )
    try:
        with zipfile.ZipFile(wheel) as archive:
            metadata = archive.read(f"bleu_xl-{__version__}.dist-info/METADATA").decode("utf-8")
    except (OSError, KeyError, zipfile.BadZipFile) as exc:
        raise ReleaseError(f"{wheel}: not a readable bleu-xl wheel ({exc})") from None
    headers = email.parser.Parser().parsestr(metadata, headersonly=True)
    if (headers["Name"], headers["Version"]) != ("bleu-xl", __version__):
        raise ReleaseError(
            f"{wheel}: its metadata says {headers['Name']} {headers['Version']}, not bleu-xl {__version__}"
        )


def find_wheel(folder: Path, wheel: Path | None) -> Path:
    """The wheel given, else this version's wheel in ``folder`` (where building a checkout of bleu-xl into that
    folder leaves it)."""
    found = wheel or folder / wheel_name()
    if not found.is_file():
        raise ReleaseError(
            f"{found}: no such wheel; build this version's wheel into {folder} (python -m build does, in a checkout "
            "of bleu-xl), or give ",
            Setting("wheel", "PATH"),
        )
    _check_wheel(found)
    return found


def bundle_files(wheel: Path) -> dict[str, bytes]:
    """The bundle's files by their path inside the zip (``/`` between folders)."""
    files = {"READ ME FIRST.txt": _windows_text(read_me_first(__version__, wheel.name, SCRIPT_NAME))}
    for name in INSTALLER:
        files[name] = (HERE / name).read_bytes()
    files[wheel.name] = wheel.read_bytes()
    with tempfile.TemporaryDirectory(prefix="bleu-xl-release-") as tmp:
        folder = Path(tmp)
        (folder / "samples").mkdir()
        for path, build in workbooks(folder):
            build(path)
            files[path.relative_to(folder).as_posix()] = path.read_bytes()
    for name, text in lite_files().items():
        files[f"xlwings-lite/{name}"] = text.encode("utf-8")
    return files


def _windows_text(text: str) -> bytes:
    """Text that every editor opens right, Notepad included: UTF-8 with a BOM, lines ending in CR LF."""
    return "\ufeff".encode() + text.replace("\n", "\r\n").encode("utf-8")


def write_release(folder: Path, *, wheel: Path | None = None, force: bool = False) -> Path:
    """Write ``bleu-xl-VERSION.zip`` into ``folder`` (whole or not at all; an existing one only with ``force``)."""
    if not folder.is_dir():
        raise ReleaseError(f"{folder}: no such folder")
    files = bundle_files(find_wheel(folder, wheel))
    target = OutputFile(str(folder / zip_name()), force=force)
    with target.open(binary=True) as out, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            entry = zipfile.ZipInfo(name, date_time=ENTRY_DATE)
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, content)
    return target.target
