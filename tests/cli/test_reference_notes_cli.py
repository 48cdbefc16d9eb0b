"""What score says about a sheet's header row and references, on standard error and in the output's notes: a header
row over columns given by letter, references typed once per group (and --fill-down), rows scored against some of
their references, what the corpus score covers, and ranks that are per reference."""

from __future__ import annotations

import json
from pathlib import Path

from bleu_xl import score, score_file
from tests.helpers import run, xlsx

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
    assert done.result.note(1) == "1 of 2 references" and done.counts["with_note"] == 0  # scored, not a problem
