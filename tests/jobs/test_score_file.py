"""Scoring a file is a library call: ``bleu_xl.score_file`` does what ``bleu-xl score`` does, with settings named
as settings, and returns what it did."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

import bleu_xl
from bleu_xl import Bleu, BleuTypeError, Chrf, InputError, ReadTable, ScoredFile, score_file
from tests.helpers import COPY_ROWS, INTACTO, REF, SHORT, run

SAMPLE = Path(__file__).resolve().parents[2] / "workbooks" / "samples" / "marketing_en.xlsx"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    return Path(shutil.copy(SAMPLE, tmp_path / SAMPLE.name))


def test_score_file_returns_what_it_read_scored_and_wrote(sample: Path) -> None:
    before = digest(sample)
    done = score_file(sample, metrics=[Bleu(), Chrf(word_order=2)])
    assert isinstance(done, ScoredFile) and digest(sample) == before  # the input is never modified
    assert done.output == str(sample.with_name("marketing_en-scored.xlsx")) and Path(done.output).is_file()
    assert done.target.format == "xlsx" and set(done.timings) == {"read", "score", "write"}
    assert done.counts == {"rows": 6, "scored": 5, "blank": 1, "with_note": 0}
    assert [metric.name for metric in done.metrics] == ["BLEU-2", "chrF2++"]
    layout = done.read.layout
    assert (layout.header_row, layout.candidate_col, layout.reference_cols) == (0, 1, [0])
    pairs = [(row[0], row[1]) for row in done.result.rows if row[1]]
    refs, cands = [r for r, _ in pairs], [c for _, c in pairs]
    assert done.corpus == bleu_xl.corpus_score(refs, cands)
    assert done.corpora[1] == bleu_xl.corpus_chrf(refs, cands, word_order=2)
    assert done.signature == bleu_xl.signature() and done.notes == []


def test_the_command_writes_what_the_library_call_writes(sample: Path, tmp_path: Path) -> None:
    score_file(sample, output=tmp_path / "lib.json", metrics=Chrf())
    result = run("score", str(sample), "-o", str(tmp_path / "cli.json"), "--metric", "chrf", "-q")
    assert result.exit_code == 0
    lib, cli = json.loads((tmp_path / "lib.json").read_text()), json.loads((tmp_path / "cli.json").read_text())
    assert lib == cli and lib["metrics"][0]["name"] == "chrF2"


def test_it_tells_what_it_read_before_scoring_and_how_far_it_got(tmp_path: Path, copy_workbook: Path) -> None:
    seen: list[object] = []
    done = score_file(
        copy_workbook, output=tmp_path / "out.csv", on_read=seen.append, on_progress=lambda n: seen.append(n)
    )
    read, *progress = seen
    assert isinstance(read, ReadTable) and read is done.read and read.data_rows == len(COPY_ROWS) - 1
    assert sum(progress) == read.data_rows
    assert read.read_as == ", sheet 'Copy'" and read.input_name == str(copy_workbook)


def test_settings_are_named_as_python_spells_them(sample: Path, tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"a \.csv file cannot hold output_format='json'"):
        score_file(sample, output=tmp_path / "x.csv", output_format="json")
    with pytest.raises(InputError, match=r"delimiter 'x': use , ; tab or \|"):
        score_file(sample, output=tmp_path / "x.csv", delimiter="x")
    with pytest.raises(InputError, match=r"no candidate column 'Nope'"):
        score_file(sample, output=tmp_path / "x.csv", candidate_col="Nope")
    with pytest.raises(InputError, match=r"reference_text '\.\.\.': BLEU-2 .* with metrics=bleu_xl\.Chrf\(\)$"):
        score_file(sample, output=tmp_path / "x.csv", reference_text="...")
    assert score_file(sample, output=tmp_path / "c.csv", reference_text="...", metrics=Chrf()).counts["scored"] == 5
    with pytest.raises(bleu_xl.BleuError, match="name chrf in names, or leave word_order out"):
        bleu_xl.metrics_named(["bleu"], word_order=2)  # the advice names the parameter it is given in
    with pytest.raises(InputError, match="the output would overwrite the input; choose another output"):
        score_file(sample, output=sample, force=True)
    assert not list(tmp_path.glob("x.csv*")) and not list(tmp_path.glob(".x.csv*"))  # nothing written, no lock left
    (tmp_path / "there.json").write_text("mine")
    with pytest.raises(InputError, match=r"there\.json: already exists; use force=True to replace it"):
        score_file(sample, output=tmp_path / "there.json")
    assert (tmp_path / "there.json").read_text() == "mine"


def test_wrong_kinds_are_type_errors(sample: Path) -> None:
    with pytest.raises(TypeError, match="metric object"):
        score_file(sample, metrics="bleu")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="one string"):
        score_file(sample, reference_cols="A")


def test_standard_output_and_a_workbook_of_text_rows(tmp_path: Path, copy_workbook: Path, capfd) -> None:
    done = score_file(copy_workbook, output="-", output_format="jsonl", reference_cols=["Reference"])
    rows = [json.loads(line) for line in capfd.readouterr().out.splitlines()]
    assert done.target.to_stdout and [row["Candidate"] for row in rows][:2] == [INTACTO, SHORT]
    assert rows[0]["BLEU-2"] == bleu_xl.score(REF, INTACTO).bleu


def test_a_large_read_limit_given_as_people_write_it(sample: Path, tmp_path: Path) -> None:
    done = score_file(sample, output=tmp_path / "x.csv", read_memory="500MB", read_time=30)
    assert done.counts["scored"] == 5
    with pytest.raises(InputError, match="is not a size"):
        score_file(sample, output=tmp_path / "y.csv", read_memory="12XB")


def test_standard_output_replaced_by_a_text_stream(sample: Path) -> None:
    """A notebook or ``redirect_stdout`` gives a text stream with no bytes beneath: text formats go there, a
    workbook is refused in one line."""
    import contextlib
    import io

    caught = io.StringIO()
    with contextlib.redirect_stdout(caught):
        score_file(sample, output="-", output_format="jsonl")
    assert json.loads(caught.getvalue().splitlines()[0])["Candidate"]
    with contextlib.redirect_stdout(io.StringIO()), pytest.raises(InputError, match="give output a file name"):
        score_file(sample, output="-", output_format="xlsx")


def test_settings_of_the_wrong_kind_are_refused_before_anything_runs(sample: Path, tmp_path: Path) -> None:
    with pytest.raises(bleu_xl.BleuError, match="workers must be a whole number of at least 1"):
        score_file(sample, output=tmp_path / "w.csv", workers=-1)
    with pytest.raises(InputError, match="header_row True: give the row's number"):
        score_file(sample, output=tmp_path / "h.csv", header_row=True)
    with pytest.raises(TypeError, match="metric object"):
        score_file(sample, output=tmp_path / "m.csv", metrics=Bleu)  # the class, not a metric


@pytest.mark.parametrize("switch", ["force", "raw", "no_header", "skip_hidden", "fill_down"], ids=lambda name: name)
def test_a_switch_is_true_or_false_not_read_by_its_truth(sample: Path, tmp_path: Path, switch: str) -> None:
    """``force="no"`` read by its truth would replace the output it was told to keep; ``no_header="false"`` would
    score the header row as a pair."""
    kept = tmp_path / "kept.json"
    kept.write_text("keep me")
    for value in ("no", "false", 1, None):
        with pytest.raises(InputError, match=f"^{switch} must be True or False, not {value!r}$"):
            score_file(sample, output=kept, **{switch: value})
    assert kept.read_text() == "keep me"


def test_a_sheet_is_given_by_its_name(sample: Path, tmp_path: Path) -> None:
    with pytest.raises(TypeError, match=r"^sheet must be a string or None, not int \(0\)$"):
        score_file(sample, output=tmp_path / "s.csv", sheet=0)  # type: ignore[arg-type]
    assert score_file(sample, output=tmp_path / "s.csv", sheet="pairs").counts["scored"] == 5


def test_a_reference_text_of_another_type_is_a_type_error(sample: Path, tmp_path: Path) -> None:
    """It raised AttributeError ('int' object has no attribute 'encode') before the input was read."""
    for value in (5, b"the cat"):
        with pytest.raises(BleuTypeError, match=r"^reference_text must be a string or None, not "):
            score_file(sample, output=tmp_path / "s.csv", reference_text=value)  # type: ignore[arg-type]
    assert not (tmp_path / "s.csv").exists()


def test_a_blank_column_name_is_refused_not_read_as_none_given(sample: Path, tmp_path: Path) -> None:
    """``candidate_col=""`` names no column: read as not given, the column rules would choose one silently."""
    for settings, name in (
        ({"candidate_col": ""}, "candidate_col"),
        ({"candidate_col": "  "}, "candidate_col"),
        ({"reference_cols": ["Reference", ""]}, "reference_cols"),
    ):
        with pytest.raises(
            InputError, match=rf"^{name} '\s*' names no column: give the column's letter or its header$"
        ):
            score_file(sample, output=tmp_path / "b.csv", **settings)
    assert not (tmp_path / "b.csv").exists()
    with pytest.raises(InputError, match=r"^b_col '' names no column"):
        bleu_xl.compare_file(tmp_path / "not read.xlsx", candidate_col="Candidate", b_col="")
    with pytest.raises(TypeError, match=r"^candidate_col must be a column's letter or header as text \(candidate_col="):
        score_file(sample, output=tmp_path / "n.csv", candidate_col=2)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^reference_cols must be .* not int 1$"):
        score_file(sample, output=tmp_path / "n.csv", reference_cols=[1])  # type: ignore[list-item]


def test_two_metrics_of_one_name_are_refused_as_the_command_refuses_them(sample: Path, tmp_path: Path) -> None:
    """Their columns would be 'TER' and 'TER (2)', told apart by nothing in the output."""
    for metrics in ([Bleu(), Bleu()], [bleu_xl.Ter(), bleu_xl.Ter(normalized=True)]):
        with pytest.raises(bleu_xl.BleuError, match=f"metrics gives {metrics[0].name} twice"):
            score_file(sample, output=tmp_path / "twice.csv", metrics=metrics)
    assert not (tmp_path / "twice.csv").exists()
    assert score_file(sample, output=tmp_path / "two.csv", metrics=[Bleu(), Bleu(max_n=4)]).counts["scored"] == 5


def test_numpy_true_is_true(sample: Path, tmp_path: Path) -> None:
    np = pytest.importorskip("numpy")
    kept = tmp_path / "kept.csv"
    kept.write_text("old")
    assert score_file(sample, output=kept, force=np.bool_(True)).counts["scored"] == 5
    with pytest.raises(InputError, match=r"^force must be True or False, not np.int64\(1\)$"):
        score_file(sample, output=kept, force=np.int64(1))
