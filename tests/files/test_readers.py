"""Reading a user's file by its content, never by its name alone: what is not a spreadsheet, encrypted and legacy
workbooks, Excel's lock file, a missing sheet and an empty one are refused in one line, the input untouched."""

from __future__ import annotations

import zipfile
from pathlib import Path

from bleu_xl.files.read import table as readers
from tests.helpers import refused, xlsx_text


def test_missing_file(tmp_path: Path) -> None:
    assert "no such file" in refused(tmp_path / "nope.xlsx")


def test_not_a_spreadsheet(tmp_path: Path) -> None:
    (tmp_path / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 100)
    assert "not a spreadsheet or CSV" in refused(tmp_path / "photo.png")
    (tmp_path / "fake.xlsx").write_bytes(b"hello, not a zip")
    assert "not a valid .xlsx" in refused(tmp_path / "fake.xlsx")
    with zipfile.ZipFile(tmp_path / "other.xlsx", "w") as z:
        z.writestr("readme.txt", "just a zip")
    assert "not an Excel workbook" in refused(tmp_path / "other.xlsx")
    (tmp_path / "bin.csv").write_bytes(b"\x00\x01\x02\xff\xfe\x00" * 50)
    assert "text file" in refused(tmp_path / "bin.csv")


def test_encrypted_workbook(tmp_path: Path) -> None:
    # An encrypted OOXML file is an OLE compound file with EncryptionInfo and EncryptedPackage streams.
    data = bytearray(readers.OLE_MAGIC + b"\x00" * 1016)
    data += "EncryptionInfo".encode("utf-16-le") + b"\x00" * 50 + "EncryptedPackage".encode("utf-16-le")
    (tmp_path / "secret.xlsx").write_bytes(bytes(data))
    assert "password-protected" in refused(tmp_path / "secret.xlsx")
    (tmp_path / "old.xls").write_bytes(readers.OLE_MAGIC + b"\x00" * 2000)
    assert "legacy .xls" in refused(tmp_path / "old.xls")


def test_excels_lock_file_of_an_open_workbook_is_named_as_such(tmp_path: Path) -> None:
    owner = tmp_path / "~$copy.xlsx"
    owner.write_bytes(b"\x0bJane Smith" + b" " * 150)  # what Excel writes beside a workbook it has open
    assert "lock file Excel keeps while a workbook is open" in refused(owner)


def test_unknown_sheet(copy_workbook: Path) -> None:
    assert "no sheet named 'Nope'; sheets: Copy" in refused(copy_workbook, "--sheet", "Nope")


def test_empty_sheet(tmp_path: Path) -> None:
    assert "is empty" in refused(xlsx_text(tmp_path / "empty.xlsx", []))
    (tmp_path / "empty.csv").write_text("")
    assert "is empty" in refused(tmp_path / "empty.csv")
