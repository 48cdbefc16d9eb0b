"""Reading CSV and TSV as Excel and other programs write them: encodings (with or without a BOM, Windows' ANSI code
page, UTF-16, Mac Roman), delimiters, and files that are not text; sniffing stays quick whatever the file."""

from __future__ import annotations

import codecs
import time
from pathlib import Path

import pytest

from bleu_xl import score
from bleu_xl.files.read import text as text_reader
from bleu_xl.files.read.table import read_table
from bleu_xl.table.scoring import score_table
from bleu_xl.table.sheet import TableOptions
from tests.helpers import read_sheet, refused, refused_in_process, run, run_process

REF = "Free delivery on every order this week"
CAND = "Free delivery on every order"
PAIR = score(REF, CAND).bleu


def read(path: Path, **options) -> list[list]:
    """The rows read from ``path``, and a check that the pair in them scores as the pair itself."""
    table, layout = read_table(str(path), TableOptions(**options))
    result = score_table(table, layout, workers=1)
    pair = table.rows[layout.data_start]
    assert result.value(0) == score(pair[layout.reference_cols[0]], pair[layout.candidate_col]).bleu
    return table.rows


@pytest.mark.parametrize(
    ("encoding", "delimiter", "suffix"),
    [("utf-8", ",", ".csv"), ("utf-8-sig", ";", ".csv"), ("utf-16", "\t", ".txt"), ("utf-8", "\t", ".tsv")],
)
def test_text_inputs(tmp_path: Path, encoding: str, delimiter: str, suffix: str) -> None:
    rows = [["Référence", "Candidat"], [REF, CAND], [REF, "東京タワー, été"]]
    path = tmp_path / f"in{suffix}"
    path.write_bytes(("\r\n".join(delimiter.join(f'"{v}"' for v in row) for row in rows) + "\r\n").encode(encoding))
    if encoding == "utf-16":
        assert path.read_bytes().startswith(codecs.BOM_UTF16_LE)  # as Excel's "Unicode text" export
    assert read(path) == rows
    assert read_sheet(str(path)).delimiter == delimiter


def test_windows_ansi_csv_with_crlf(tmp_path: Path) -> None:
    """Excel's "CSV (Comma delimited)" on Windows: cp1252 and CRLF."""
    path = tmp_path / "ansi.csv"
    path.write_bytes("Référence,Candidat\r\nL’été arrive,L’été arrive déjà\r\n".encode("cp1252"))
    assert read(path)[1] == ["L’été arrive", "L’été arrive déjà"]
    table = read_sheet(str(path))
    assert (table.encoding, table.delimiter) == ("cp1252", ",")


def test_bom_and_utf16_and_given_encoding_and_delimiter(tmp_path: Path) -> None:
    text = f"Reference\tCandidate\r\n{REF}\t{CAND}\r\n"
    for name, data in [
        ("bom.csv", codecs.BOM_UTF8 + text.replace("\t", ",").encode()),
        ("unicode.txt", text.encode("utf-16")),  # Excel's "Unicode text"
    ]:
        (tmp_path / name).write_bytes(data)
        assert read(tmp_path / name)[1] == [REF, CAND]
    odd = tmp_path / "odd.csv"
    odd.write_bytes(f"Reference|Candidate\n{REF}|é\n".encode("latin-1"))
    assert read(odd, encoding="latin-1", delimiter="|")[1] == [REF, "é"]
    assert "unknown encoding 'nope'" in refused(odd, "--encoding", "nope")


def test_utf8_text_read_in_another_encoding_given_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "u8.csv"
    path.write_text("Reference,Candidate\nLivraison été offerte,livraison ete offerte\n", encoding="utf-8")
    assert refused(path, "--encoding", "cp1252") == (
        f"bleu-xl: error: {path}: this is UTF-8 text ('été'), which cp1252 reads as 'Ã©tÃ©'; leave out --encoding "
        "(or give --encoding utf-8)"
    )
    assert "this is UTF-8 text" in refused(path, "--encoding", "latin-1")
    assert read(path, encoding="utf-8")[1] == ["Livraison été offerte", "livraison ete offerte"]
    ascii_only = tmp_path / "ascii.csv"
    ascii_only.write_text(f"Reference,Candidate\n{REF},{CAND}\n", encoding="utf-8")
    assert read(ascii_only, encoding="cp1252")[1] == [REF, CAND]  # ASCII reads the same in both
    # Windows-1252 text is not valid UTF-8, so a given cp1252 reads it as it is.
    ansi = tmp_path / "ansi.csv"
    ansi.write_bytes("Reference,Candidate\nL’été à Zürich,l’été\n".encode("cp1252"))
    assert read(ansi, encoding="cp1252")[1] == ["L’été à Zürich", "l’été"]


def test_a_macroman_csv_reads_right_with_its_encoding(tmp_path: Path) -> None:
    path = tmp_path / "mac.csv"
    path.write_bytes("Reference,Candidate\ncafé crème,café\n".encode("mac_roman"))
    assert read(path, encoding="mac_roman")[1] == ["café crème", "café"]


def test_a_field_longer_than_the_csv_modules_default_limit_is_read_whole(tmp_path: Path) -> None:
    import csv
    import json

    long = ("word " * 60_000).strip()  # 299,999 characters: over the csv module's 131,072
    path = tmp_path / "long.csv"
    path.write_text(f'Reference,Candidate\n"{long}","{long} more"\n', encoding="utf-8")
    before = csv.field_size_limit()
    assert read(path)[1] == [long, f"{long} more"]
    assert csv.field_size_limit() == before  # the process's limit is put back for other code
    out = tmp_path / "long.json"
    assert run("score", str(path), "-o", str(out), "-q").exit_code == 0
    assert json.loads(out.read_text(encoding="utf-8"))["rows"][0]["Candidate"] == f"{long} more"  # kept whole


def test_undecodable_text_files(tmp_path: Path) -> None:
    bad_utf8 = tmp_path / "bom.csv"
    bad_utf8.write_bytes(codecs.BOM_UTF8 + b"Reference,Candidate\n\xff\xfe\xfa,x\n")
    assert "starts with a UTF-8 BOM but is not valid UTF-8" in refused_in_process(run_process("score", str(bad_utf8)))
    binary = tmp_path / "binary.csv"
    binary.write_bytes(b"A\x00" * 1500 + b"\x00\xd8" * 10)  # UTF-16-looking, then lone surrogates
    assert "looks like UTF-16 without a BOM but is not valid UTF-16" in refused_in_process(
        run_process("score", str(binary))
    )
    binary.write_bytes(b"\x01\x00\x00\x00" * 1000)  # decodes, but to control characters and NULs
    assert "holds NUL characters, so it is not a text file" in refused_in_process(run_process("score", str(binary)))


def test_sniffing_a_pathological_csv_is_quick(tmp_path: Path) -> None:
    path = tmp_path / "quotes.csv"
    path.write_bytes(b',"' * 32_768)  # 64 KiB: csv.Sniffer spent 17 s on it
    start = time.process_time()
    result = run("score", str(path), "-o", str(tmp_path / "o.csv"))
    assert time.process_time() - start < 2
    assert result.exit_code == 2 and "no candidate or reference column" in result.stderr
    assert len(result.stderr) < 1_000  # one readable line, whatever the width
    assert text_reader.sniff_delimiter("a;b;c\n1;2;3\n" * 10_000) == ";"


def test_a_nul_is_refused_with_a_bom_or_without(tmp_path: Path) -> None:
    text = f"Reference,Candidate\n{REF},{CAND}\x00\n".encode()
    for name, data in (("bom.csv", codecs.BOM_UTF8 + text), ("plain.csv", text)):
        (tmp_path / name).write_bytes(data)
        assert refused(tmp_path / name) == (
            f"bleu-xl: error: {tmp_path / name}: it holds NUL characters, so it is not a text file"
        )


def test_utf8_with_a_stray_byte_is_refused_never_read_as_a_code_page(tmp_path: Path) -> None:
    """One ’ pasted from a Windows program (0x92) into a UTF-8 file: read as Windows-1252, été would become Ã©tÃ©
    and the scores would change; the refusal names the byte, its line and a word of each kind."""
    path = tmp_path / "mixed.csv"
    path.write_bytes("Reference,Candidate\nL’été arrive,l’été arrive\n".encode() + b"don\x92t stop,don t stop\n")
    assert refused(path) == (
        f"bleu-xl: error: {path}: not valid UTF-8 at byte 57 (line 3: 0x92 in 'don\\x92t'), though the rest is "
        "UTF-8 ('L’été'): correct that byte, or give --encoding if the whole file is in another encoding"
    )
    assert path.read_bytes()[57] == 0x92


def test_one_row_of_utf8_with_a_stray_byte_in_a_word_is_refused(tmp_path: Path) -> None:
    """One row, its only words past ASCII été and l’été, the ’ pasted as 0x92: as many words hold the stray byte as
    not, but four of the five characters past ASCII are UTF-8. Read as Windows-1252 it scored 0.7071 for 0.5774."""
    path = tmp_path / "one.csv"
    path.write_bytes("Reference,Candidate\nété chaud,l".encode() + b"\x92" + "été chaud\n".encode())
    assert refused(path) == (
        f"bleu-xl: error: {path}: not valid UTF-8 at byte 33 (line 2: 0x92 in 'l\\x92été'), though the rest is "
        "UTF-8 ('été'): correct that byte, or give --encoding if the whole file is in another encoding"
    )


def test_a_tie_of_utf8_characters_and_stray_bytes_is_refused(tmp_path: Path) -> None:
    """été once in UTF-8 and once in Windows-1252 (two stray bytes): either reading could be the wrong one, so
    neither is chosen."""
    path = tmp_path / "tie.csv"
    path.write_bytes("Reference,Candidate\nun été,un ".encode() + b"\xe9t\xe9 chaud\n")
    assert "though the rest is UTF-8 ('été')" in refused(path)


def test_utf8_rows_in_a_code_page_file_are_noted(tmp_path: Path) -> None:
    """An Excel CSV in Windows-1252 with a row appended in UTF-8: mostly a code page, so read as one, and Café
    becomes CafÃ©; a note names the line. MacRoman's l’été, whose ’é is a UTF-8 character by chance, gets none."""
    path = tmp_path / "appended.csv"
    path.write_bytes(
        "Reference,Candidate\nL'été arrive,L'été est là\nNoël approche,Noël arrive\n".encode("cp1252")
        + "Café crème,Café au lait\n".encode()
    )
    result = run("score", str(path), "-o", str(tmp_path / "out.csv"))
    assert result.exit_code == 0
    assert (
        "bleu-xl: note: line 4 holds UTF-8 text ('Café') in a file read as cp1252, which reads it as 'CafÃ©' and "
        "scores it so: the file mixes encodings; save it in one"
    ) in result.stderr.splitlines()
    mac = tmp_path / "mac.csv"
    mac.write_bytes("Référence;Candidat\nL’été arrive;L’été est là\n".encode("mac_roman"))
    assert "note" not in run("score", str(mac), "-o", str(tmp_path / "mac-out.csv")).stderr


def test_a_quoted_field_that_never_closes_is_refused_and_a_long_one_noted(tmp_path: Path) -> None:
    """A stray " in row 4 of 1,000: the lenient CSV reader folds the 997 lines below into one cell."""
    lines = ["Reference,Candidate", *(f"ref {i} a b,cand {i} a b" for i in range(999))]
    stray = list(lines)
    stray[3] = '"' + stray[3]
    path = tmp_path / "stray.csv"
    path.write_text("\n".join(stray) + "\n", encoding="utf-8")
    assert refused(path).endswith(
        f"{path}: line 4: a quoted field opens there and never closes, so the rest of the file (997 lines) would "
        'be one cell: close the quotes, or double a " that is part of the text'
    )
    closed = list(stray)
    closed[40] += '"'
    path.write_text("\n".join(closed) + "\n", encoding="utf-8")
    result = run("score", str(path), "-o", str(tmp_path / "out.csv"), "-q")
    assert result.exit_code == 0
    assert (
        'bleu-xl: note: row 4 (line 4 of the file) holds a quoted cell of 38 lines: a stray " there would have '
        "joined the rows below into it"
    ) in result.stderr.splitlines()
    cells = tmp_path / "cells.csv"  # a few lines in a cell are a cell of several lines: no note
    cells.write_text('Reference,Candidate\n"a\nb\nc",d\n', encoding="utf-8")
    assert "note" not in run("score", str(cells), "-o", str(tmp_path / "c.csv"), "-q").stderr
