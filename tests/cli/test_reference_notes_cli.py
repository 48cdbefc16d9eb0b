"""What score says about a sheet's header row and references, on standard error and in the output's notes: a header
row over columns given by letter, references typed once per group (and --fill-down), rows scored against some of
their references, what the corpus score covers, and ranks that are per reference."""

from __future__ import annotations

import json
from pathlib import Path

import bleu_xl
from bleu_xl import score, score_file
from tests.helpers import refused, run, xlsx

CAT = "the cat sat on the mat"


def _jsonl(result) -> list[dict]:
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_a_row_scored_against_one_of_two_references_says_so(tmp_path: Path) -> None:
    path = xlsx(
        tmp_path / "two.xlsx",
        [
            ["Reference 1", "Reference 2", "Candidate"],
            [CAT, "a cat was on the mat", "the cat sat on a mat"],
            [CAT, None, "the cat is on the mat"],
        ],
    )
    result = run("score", str(path), "--format", "jsonl", "-o", "-")
    rows = _jsonl(result)
    assert [row["note"] for row in rows] == [None, "1 of 2 references"]
    assert rows[1]["BLEU-2"] == score(CAT, "the cat is on the mat").bleu  # scored, against the one there is
    assert (
        "bleu-xl: note: row 3 is scored against fewer than the sheet's 2 references (the others blank): the note "
        "column says how many"
    ) in result.stderr.splitlines()
    done = score_file(path, output=tmp_path / "two.csv")
    assert done.result.note(1) == "1 of 2 references" and done.counts["with_note"] == 1  # as the note column
    assert done.counts["scored"] == 2  # and scored
    shown = run("score", str(path), "-o", str(tmp_path / "two-scored.csv")).stdout
    assert "BLEU-2: 2 scored, 0 blank, 1 with a note (1 of them scored against fewer references)" in shown


def test_the_notes_on_standard_error_are_in_the_workbook_and_the_json_too(tmp_path: Path) -> None:
    """What the command says on standard error about what it read and scored is in its output as well: the
    Summary sheet's Notes, a JSON document's notes (settings spelt as the command's options; the library's own
    call spells them as Python does)."""
    import openpyxl

    path = xlsx(
        tmp_path / "two.xlsx",
        [["Reference 1", "Reference 2", "Candidate"], [CAT, "a cat was", "the cat sat"], [CAT, None, "a cat"]],
    )
    done = run("score", str(path), "-o", str(tmp_path / "out.xlsx"))
    noted = [line.removeprefix("bleu-xl: note: ") for line in done.stderr.splitlines() if "note: " in line]
    assert len(noted) == 2 and "row 3 is scored against fewer than the sheet's 2 references" in noted[1]
    assert "give them with --reference-col" in noted[0]
    summary = {
        row[0]: row[1] for row in openpyxl.load_workbook(tmp_path / "out.xlsx")["Summary"].iter_rows(values_only=True)
    }
    assert summary["Notes"] == "\n".join(noted)
    run("score", str(path), "-q", "-o", str(tmp_path / "out.json"))
    assert json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))["notes"] == noted
    score_file(path, output=tmp_path / "lib.json")
    spelt = json.loads((tmp_path / "lib.json").read_text(encoding="utf-8"))["notes"]
    assert spelt == [noted[0].replace("--reference-col", "reference_cols"), noted[1]]
    clean = xlsx(tmp_path / "one.xlsx", [["Reference", "Candidate"], [CAT, "the cat sat"]])
    run("score", str(clean), "-q", "-o", str(tmp_path / "clean.json"))
    assert json.loads((tmp_path / "clean.json").read_text(encoding="utf-8"))["notes"] == []


GROUPED = [
    ["Product", "Reference", "Candidate"],
    ["A", "Free delivery on every order", "Free delivery on every order"],
    ["A", None, "Free delivery on all orders"],
    ["A", None, "Free shipping"],
    ["B", "Soft cotton shirt", "Soft cotton shirt"],
    ["B", None, "Cotton shirt soft"],
    ["B", None, "A shirt"],
]


def test_references_typed_once_per_group_are_named_and_can_be_filled_down(tmp_path: Path) -> None:
    """A reference per product group, blank below it (not merged): the blank cells are named with the way out,
    the corpus line says it covers 2 of 6 candidates; with --fill-down each row takes its group's reference."""
    path = xlsx(tmp_path / "grouped.xlsx", GROUPED)
    result = run("score", str(path), "-o", str(tmp_path / "out.csv"))
    assert result.exit_code == 0
    assert (
        "bleu-xl: note: the reference cells B3, B4, B6 and 1 more are blank: those rows are not scored; if each "
        "reference serves the rows below it, fill it down in the sheet, or give --fill-down"
    ) in result.stderr.splitlines()
    assert "corpus BLEU-2 1.0000 (over 2 of 6 candidates)   reference: Reference" in result.stdout
    filled = run("score", str(path), "--fill-down", "--format", "jsonl", "-o", "-")
    rows = _jsonl(filled)
    assert [row["BLEU-2"] for row in rows] == [score(r[1] or ref, r[2]).bleu for r, ref in _filled(GROUPED[1:])]
    assert [row["rank"] for row in rows] == [1, 2, 3, 1, 2, 3]  # ranked within each product's reference
    assert "4 rows with blank references take those of the nearest row above (--fill-down)" in filled.stderr
    done = score_file(path, output=tmp_path / "filled.csv", fill_down=True)
    assert done.counts == {"rows": 6, "scored": 6, "blank": 0, "with_note": 0}


def _filled(rows: list[list]) -> list[tuple[list, str]]:
    """Each row with the reference filled down into it (the last one above)."""
    last, out = "", []
    for row in rows:
        last = row[1] or last
        out.append((row, last))
    return out


def test_the_summary_never_mixes_ranks_of_different_references(tmp_path: Path) -> None:
    """Ranks are per reference: the summary lists the best of each reference first (1, 1, 2, 2, 3), and says so,
    instead of ordering by score across references (1, 1, 2, 3, 2), whose scores do not compare."""
    path = xlsx(tmp_path / "grouped.xlsx", GROUPED)
    shown = run("score", str(path), "--fill-down", "-o", str(tmp_path / "out.csv")).stdout.splitlines()
    assert shown[1] == f"the top 5 of 6, by rank within each of 2 references (all in {tmp_path / 'out.csv'}):"
    ranks = [int(line.split("│")[2]) for line in shown if line.startswith("│")]
    assert ranks == [1, 1, 2, 2, 3]
    xlsx(tmp_path / "one.xlsx", [row[1:] for row in GROUPED[:4]])
    one = run("score", str(tmp_path / "one.xlsx"), "--fill-down", "-o", str(tmp_path / "one.csv")).stdout
    assert f"the top 3 of 3 (all in {tmp_path / 'one.csv'}):" in one  # one reference: as it was


TITLED = [
    ["Q3 copy", None],
    ["Approved copy", "Variant"],
    ["free delivery this week", "free shipping this week"],
    ["free delivery this week", "free delivery all week"],
]


def test_the_header_row_under_a_title_is_found_for_columns_given_by_letter(tmp_path: Path) -> None:
    """A title in row 1, the headers ('Approved copy', 'Variant': no known name) in row 2, the columns given by
    letter: row 2 is the header row, said on stderr, never a pair; a row of several texts above it that could be
    the header row too is refused; a row under the title that reads as a pair (words in common) is data."""
    path = xlsx(tmp_path / "titled.xlsx", TITLED)
    given = ("--candidate-col", "B", "--reference-col", "A")
    result = run("score", str(path), *given, "--format", "jsonl", "-o", "-")
    assert [row["BLEU-2"] for row in _jsonl(result)] == [score(r, c).bleu for r, c in TITLED[2:]]
    assert "sheet 'Copy': header row 2; candidate B 'Variant'; reference A 'Approved copy'" in result.stderr
    assert (
        "bleu-xl: note: row 2, under a title in row 1, holds text over the columns given (B 'Variant', A 'Approved "
        "copy'): it is read as the header row; --no-header scores it as data, --header-row names another"
    ) in result.stderr.splitlines()
    shown = run("score", str(path), *given, "-o", str(tmp_path / "x.csv")).stdout
    assert "BLEU-2: 2 scored, 0 blank, 0 with a note" in shown and "corpus BLEU-2 0.5000" in shown
    assert len(_jsonl(run("score", str(path), *given, "--no-header", "--format", "jsonl", "-o", "-"))) == 4

    both = xlsx(tmp_path / "both.xlsx", [["Product", None, "Owner"], *TITLED[1:]])
    refused = run("score", str(both), *given, "-o", "-")
    assert refused.exit_code == 2 and refused.stderr == (
        "bleu-xl: error: sheet 'Copy': row 1 or row 2 could be the header row of the columns given; say which with "
        "--header-row 2, or score every row with --no-header\n"
    )
    free = TITLED[2][0]  # one candidate column and --reference: its header shares no word with the text
    one = xlsx(tmp_path / "one.xlsx", [TITLED[0], [None, "Variant"], *([None, c] for _, c in TITLED[2:])])
    result = run("score", str(one), "--candidate-col", "B", "--reference", free, "--format", "jsonl", "-o", "-")
    assert [row["BLEU-2"] for row in _jsonl(result)] == [score(free, c).bleu for _, c in TITLED[2:]]
    pairs = xlsx(tmp_path / "pairs.xlsx", [TITLED[0], *TITLED[2:]])  # under the title, a pair: no header row
    result = run("score", str(pairs), *given, "--format", "jsonl", "-o", "-")
    assert len(_jsonl(result)) == 3 and "no header row; candidate B; reference A" in result.stderr


def test_a_header_row_repeated_inside_the_data_is_not_scored(tmp_path: Path) -> None:
    """Two tables stacked on one sheet: the second's header row is no pair ('Candidate' against 'Reference'); it is
    left out of the scores and the corpus, as a totals row is, and a note names it."""
    path = tmp_path / "stacked.csv"
    path.write_text(
        "Reference,Candidate\na b c,a b c\na b c,a b d\n,\n reference ,CANDIDATE\nx y,x y\nx y,y x\n", encoding="utf-8"
    )
    result = run("score", str(path), "--format", "jsonl", "-o", "-")
    rows = _jsonl(result)
    assert [row["Candidate"] for row in rows] == ["a b c", "a b d", None, "x y", "y x"]
    assert (
        "bleu-xl: note: row 5 repeats the header row (B 'Candidate', A 'Reference'): it is not a candidate, and is "
        "not scored"
    ) in result.stderr.splitlines()
    shown = run("score", str(path), "-o", str(tmp_path / "st.csv")).stdout
    assert "BLEU-2: 4 scored, 1 blank, 0 with a note" in shown
    pairs = [("a b c", "a b c"), ("a b c", "a b d"), ("x y", "x y"), ("x y", "y x")]
    corpus = score_file(path, output=tmp_path / "st.jsonl").result.corpus
    assert corpus is not None and float(corpus) == bleu_xl.corpus_score(*map(list, zip(*pairs))).bleu


def test_a_stacked_table_whose_header_row_renames_a_column_is_no_pair(tmp_path: Path) -> None:
    """A second table below the first, its header row with the reference renamed and a column added: the row repeats
    most of the header row's texts, so it is a header row again (a note names it), never 'B' scored against
    'Reference (FR)'."""
    path = tmp_path / "stacked.csv"
    path.write_text(
        "Reference,A,B\nthe cat sat,the cat sat,a dog ran\nthe sun is hot,the sun is hot,rain falls\n"
        "Reference (FR),A,B,Notes\nle chat est noir,le chat est noir,un chien court,fr\n",
        encoding="utf-8",
    )
    result = run("score", str(path), "--candidate-col", "B", "--format", "jsonl", "-o", "-")
    assert [row["B"] for row in _jsonl(result)] == ["a dog ran", "rain falls", "un chien court"]
    note = "row 4 repeats the header row (C 'B', A 'Reference'): it is not a candidate, and is not scored"
    assert f"bleu-xl: note: {note}" in result.stderr.splitlines()


def test_a_stacked_table_with_its_roles_crossed_is_refused_and_renamed_ones_are_no_pair(tmp_path: Path) -> None:
    """A second table pasted below the first with its columns the other way round: its header row was scored as a
    pair and its rows backwards. It is refused, naming the row to give as the header row; a second table whose
    headers are renamed in the same roles (``Reference (FR)``, ``Candidate (FR)``) is a header row again."""
    ref, fr = "Free delivery on every order", "Livraison offerte sur chaque commande"
    crossed = tmp_path / "crossed.csv"
    crossed.write_text(
        f"Reference,Candidate\n{ref},Free delivery\n,\nCandidate,Reference\nFree shipping,{ref}\n", encoding="utf-8"
    )
    assert refused(crossed, "-o", "-") == (
        "bleu-xl: error: sheet 'crossed.csv': row 4 holds headers again, the roles the other way round ('Reference' "
        "over B 'Candidate', 'Candidate' over A 'Reference'): a second table, whose rows would be scored backwards; "
        "put it in a file of its own, or give --header-row 4 to score it alone"
    )
    tagged = tmp_path / "tagged.csv"  # one header tagged with its language, the other not
    tagged.write_text(
        f"Reference,Candidate\n{ref},Free delivery\nCandidat (FR),Référence\nLivraison,{fr}\n", encoding="utf-8"
    )
    assert "row 3 holds headers again, the roles the other way round" in refused(tagged, "-o", "-")
    numbered = tmp_path / "numbered.csv"  # several references, each numbered and tagged
    numbered.write_text(
        f"Candidate,Reference 1,Reference 2\nFree delivery,{ref},{ref}\n"
        "Reference (FR),Candidate (FR),Reference 2 (FR)\nLivraison,Livraison offerte,Livraison gratuite\n",
        encoding="utf-8",
    )
    assert "row 3 holds headers again, the roles the other way round" in refused(numbered, "-o", "-")
    shaped = tmp_path / "shaped.csv"  # a second table of another shape: a source column added
    shaped.write_text(
        f"Reference,Candidate\n{ref},Free delivery\nSource,Reference,Candidate\nLivraison,{fr},Livraison\n",
        encoding="utf-8",
    )
    assert refused(shaped, "-o", "-").startswith(
        "bleu-xl: error: sheet 'shaped.csv': row 3 holds headers again, in other columns ('Reference' over B "
        "'Candidate', 'Candidate' over C): a second table, whose rows would be read in the wrong columns"
    )
    alone = run("score", str(crossed), "--header-row", "4", "--format", "jsonl", "-o", "-")
    assert [row["BLEU-2"] for row in _jsonl(alone)] == [score(ref, "Free shipping").bleu]
    renamed = tmp_path / "renamed.csv"
    renamed.write_text(
        f"Reference,Candidate\n{ref},Free delivery\nRéférence (FR),Candidat (FR)\n{fr},Livraison offerte\n",
        encoding="utf-8",
    )
    result = run("score", str(renamed), "--format", "jsonl", "-o", "-")
    assert [row["Candidate"] for row in _jsonl(result)] == ["Free delivery", "Livraison offerte"]
    assert "bleu-xl: note: row 3 repeats the header row" in result.stderr
    # A pair whose texts only begin with the names' words is a pair: recruiting copy, a glossary (crossed too).
    texts = tmp_path / "texts.csv"
    texts.write_text(
        "Reference,Candidate\nCandidate profiles are reviewed every week,Reference checks are made every week\n"
        "Reference check completed,Candidate reference check completed\nReferences received,Candidate references "
        "received\nReferencia del candidato,Candidato de referencia\nCandidato de referencia,Referencia del "
        "candidato\n",
        encoding="utf-8",
    )
    result = run("score", str(texts), "--format", "jsonl", "-o", "-")
    assert len(_jsonl(result)) == 5 and "repeats the header row" not in result.stderr
    # A glossary whose terms are the names themselves, another role in a side column: pairs, not a second table.
    glossary = tmp_path / "glossary.csv"
    glossary.write_text(
        "Key,Source,Reference,Candidate,Screen\nrefs.col.candidate,Candidate,Candidat,Candidat,References\n"
        "notes,Notes,Notes,Remarques,Candidate profile\n",
        encoding="utf-8",
    )
    assert len(_jsonl(run("score", str(glossary), "--format", "jsonl", "-o", "-"))) == 2


def test_a_translation_with_a_few_repeated_references_lists_its_weakest_rows(tmp_path: Path) -> None:
    """A reference per row, two rows sharing one: ranks cover 2 of 6 rows, so the summary lists the weakest rows
    by score, as when every reference is unique, and says why, instead of the two rank-1 rows first."""
    pairs = [
        ("the cat sat on the mat", "the cat sat on the mat"),
        ("the cat sat on the mat", "the cat sat on a mat"),
        ("a dog ran in the park", "a dog walked in a park"),
        ("we open at nine every day", "we open every day"),
        ("free delivery this week", "free shipping"),
        ("thank you for your order", "thank you for the order"),
    ]
    path = tmp_path / "translation.csv"
    path.write_text("Reference,Candidate\n" + "".join(f"{r},{c}\n" for r, c in pairs), encoding="utf-8")
    out = tmp_path / "out.csv"
    shown = run("score", str(path), "-o", str(out)).stdout.splitlines()
    assert shown[1] == (
        "the lowest 5 of 6 by score (most rows have their own reference; 2 share one reference, ranked among "
        f"themselves; all in {out}):"
    )
    rows = [int(line.split("│")[1]) for line in shown if line.startswith("│")]
    weakest = sorted(range(2, 8), key=lambda r: (score(*pairs[r - 2]).bleu, r))
    assert rows == weakest[:5]
    ter = run("score", str(path), "--metric", "ter", "-o", str(tmp_path / "ter.csv")).stdout.splitlines()
    assert ter[1].startswith("the weakest 5 of 6 by score, highest TER first (most rows have their own reference;")


def test_libreoffice_error_texts_in_a_csv_are_named(tmp_path: Path) -> None:
    """LibreOffice exports a formula's error as Err:509 (Excel as #VALUE!, which is read as an error): scored as
    that text, the row is named in a note, in the output's notes too."""
    path = tmp_path / "export.csv"
    path.write_text(
        "Reference;Candidate\nFree delivery on every order;Free delivery\nErr:509;Special offer\nThank you;Err:522\n",
        encoding="utf-8",
    )
    result = run("score", str(path), "--format", "json", "-o", "-")
    note = (
        "rows 3, 4 hold LibreOffice's text for a formula's error (Err:509...) as a reference or candidate, scored as "
        "that text: correct the formula and export the file again"
    )
    assert f"bleu-xl: note: {note}" in result.stderr.splitlines()
    assert note in json.loads(result.stdout)["notes"]
