"""chrF on the command line: ``score --metric``, ``pair``, ``compare --metric chrf``, against sacrebleu's CHRF."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner
from sacrebleu.metrics import CHRF
from sacrebleu.significance import _paired_bs_test

from bleu_xl import ChrfBootstrap, chrf
from bleu_xl.cli import main
from bleu_xl.core.metrics import Bleu, Chrf, metrics_named
from bleu_xl.table import columns, scoring
from bleu_xl.table import sheet as table_sheet
from bleu_xl.template import data as template_data

ROOT = Path(__file__).resolve().parents[2]
#: The committed samples, by name: never a glob of the folder, where the README's quick start writes a scored copy.
SAMPLES = [ROOT / "workbooks" / "samples" / f"{name}.xlsx" for name in sorted(template_data.SAMPLES)]
EXACT = 1e-12


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _sample_pairs(path: Path) -> list[tuple[list[str], str | None]]:
    """Each row of a sample: its non-blank references and its candidate (None when blank)."""
    rows = list(openpyxl.load_workbook(path).worksheets[0].iter_rows(values_only=True))
    header = rows[0]
    ref_cols = [i for i, h in enumerate(header) if str(h).startswith("Reference")]
    cand_col = header.index("Candidate")
    pairs = []
    for row in rows[1:]:
        refs = [str(row[i]) for i in ref_cols if row[i] not in (None, "") and str(row[i]).strip()]
        cand = row[cand_col]
        pairs.append((refs, str(cand) if cand not in (None, "") and str(cand).strip() else None))
    return pairs


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.stem)
@pytest.mark.parametrize("word_order", [0, 2], ids=["chrF2", "chrF++"])
def test_score_metric_chrf_gives_sacrebleus_numbers(tmp_path: Path, sample: Path, word_order: int) -> None:
    out = tmp_path / "scored.xlsx"
    done = run("score", str(sample), "--metric", "chrf", "--word-order", str(word_order), "-o", str(out), "-q")
    assert done.exit_code == 0, done.output
    book = openpyxl.load_workbook(out)
    scores, summary = book["Scores"], book["Summary"]
    header = [c.value for c in scores[1]]
    name = "chrF2++" if word_order else "chrF2"
    column = header.index(name)
    assert header[column + 1] == "rank" and header[-3:] == [f"{name} P", f"{name} R", "note"]
    metric = CHRF(word_order=word_order)
    used_refs, used_cands = [], []
    for (refs, cand), row in zip(_sample_pairs(sample), scores.iter_rows(min_row=2, values_only=True)):
        if cand is None:
            assert row[column] is None
            continue
        assert abs(row[column] - metric.sentence_score(cand, refs).score / 100) <= EXACT, (refs, cand)
        used_refs.append(refs)
        used_cands.append(cand)
    facts = {row[0]: row[1] for row in summary.iter_rows(values_only=True) if row[0]}
    width = max(map(len, used_refs))
    streams = [[refs[k] if k < len(refs) else None for refs in used_refs] for k in range(width)]
    assert abs(facts[f"Corpus {name}"] - metric.corpus_score(used_cands, streams).score / 100) <= EXACT
    assert facts["Signature"] == chrf(used_refs[0], used_cands[0], word_order=word_order).signature.replace(
        "refs:1", f"refs:{width}"
    )


def _csv(tmp_path: Path) -> Path:
    path = tmp_path / "copy.csv"
    path.write_text(
        "Reference,Candidate\n"
        "livraison offerte sur toutes les commandes,livraisons offertes sur les commandes\n"
        "livraison offerte sur toutes les commandes,LIVRAISON OFFERTE\n"
        "...,..\n"
        "livraison offerte sur toutes les commandes,\n",
        encoding="utf-8",
    )
    return path


def test_several_metrics_one_column_each_ranked_by_the_first(tmp_path: Path) -> None:
    done = run("score", str(_csv(tmp_path)), "--metric", "bleu2,chrf", "--format", "jsonl", "-o", "-", "-q")
    assert done.exit_code == 0, done.output
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert list(rows[0]) == [
        "Reference",
        "Candidate",
        "BLEU-2",
        "rank",
        "chrF2",
        *("p1", "p1 num", "p1 den", "p2", "p2 num", "p2 den", "BP", "r", "c"),
        "chrF2 P",
        "chrF2 R",
        "note",
    ]
    assert rows[0]["chrF2"] == pytest.approx(
        chrf("livraison offerte sur toutes les commandes", "livraisons offertes sur les commandes").chrf, abs=EXACT
    )
    # punctuation alone: no words for BLEU, characters for chrF; the note says which metric could not score
    assert rows[2]["BLEU-2"] is None and rows[2]["chrF2"] == pytest.approx(chrf("...", "..").chrf)
    assert rows[2]["note"] == "BLEU-2: reference has no words" and rows[2]["rank"] is None
    assert rows[3]["chrF2"] is None and rows[3]["note"] is None  # a blank candidate: blank everywhere
    by_chrf = run("score", str(_csv(tmp_path)), "--metric", "chrf", "--metric", "bleu", "--format", "jsonl", "-o", "-")
    first = [json.loads(line) for line in by_chrf.stdout.splitlines()]
    assert list(first[0])[2:5] == ["chrF2", "rank", "BLEU-2"]
    assert [row["rank"] for row in first[:2]] == [1, 2]  # ranked by chrF, among the candidates of one reference
    assert first[2]["rank"] is None  # alone with its reference: nothing to rank it against
    assert first[2]["chrF2"] is not None and first[2]["note"] == "BLEU-2: reference has no words"


def test_the_summary_shows_each_metric_and_its_signature(tmp_path: Path) -> None:
    done = run(
        "score", str(_csv(tmp_path)), "--metric", "bleu,chrf", "--word-order", "2", "-o", str(tmp_path / "o.csv")
    )
    assert done.exit_code == 0, done.output
    assert "BLEU-2: 2 scored; chrF2++: 3 scored; 1 blank, 1 with a note" in done.output
    assert "corpus BLEU-2 " in done.output and "   corpus chrF2++ " in done.output
    assert "signature bleu-xl:chrf-1|nc:6|nw:2|beta:2|case:mixed|space:no|eff:yes|punct:ascii|refs:1\n" in done.output


def test_each_metric_says_how_many_rows_it_scored_when_they_differ(tmp_path: Path) -> None:
    """References of punctuation alone: BLEU scores none of them, chrF and TER every one. No summary says that no
    row was scored: the terminal's counts, the Summary sheet and the JSON document give each metric's count
    (metrics that scored as many share it); with the same counts the line is one, as before."""
    path = tmp_path / "dots.csv"
    path.write_text("Reference,Candidate\n...,hello\n!!!,world\n???,yes\n", encoding="utf-8")
    book = tmp_path / "dots.xlsx"
    done = run("score", str(path), "--metric", "bleu,chrf,ter", "-o", str(book))
    assert done.exit_code == 0, done.output
    assert done.stdout.splitlines()[0] == "BLEU-2: 0 scored; chrF2, TER: 3 scored; 0 blank, 3 with a note"
    summary = {row[0]: row[1] for row in openpyxl.load_workbook(book)["Summary"].iter_rows(values_only=True)}
    assert (summary["Scored pairs (BLEU-2)"], summary["Scored pairs (chrF2, TER)"]) == (0, 3)
    assert "Scored pairs" not in summary and summary["Rows with a note"] == 3
    document = json.loads(run("score", str(path), "--metric", "ter,chrf,bleu", "--format", "json", "-o", "-").stdout)
    assert [(metric["name"], metric["scored"]) for metric in document["metrics"]] == [
        ("TER", 3),
        ("chrF2", 3),
        ("BLEU-2", 0),
    ]
    same = run("score", str(path), "--metric", "chrf,ter", "-o", str(tmp_path / "same.csv"))
    assert same.stdout.splitlines()[0] == "chrF2, TER: 3 scored, 0 blank, 0 with a note"


@pytest.mark.parametrize(
    ("command", "args", "message"),
    [
        (
            "score",
            ("--asian-support",),
            "--asian-support is a setting of TER, which is not among the metrics chosen "
            "(BLEU-2): name ter in --metric, or leave --asian-support out",
        ),
        ("score", ("--metric", "bleu,chrf", "--normalized"), "--normalized is a setting of TER"),
        ("score", ("--no-punct",), "--no-punct is a setting of TER"),
        ("score", ("--metric", "chrf", "--case-sensitive"), "--case-sensitive is a setting of TER"),
        ("score", ("--char-order", "6"), "--char-order is a setting of chrF"),  # the default, given: still refused
        ("score", ("--metric", "ter", "--word-order", "2"), "--word-order is a setting of chrF"),
        ("score", ("--beta", "3"), "--beta is a setting of chrF"),
        (
            "score",
            ("--metric", "ter", "--max-n", "4"),
            "--max-n is a setting of BLEU, which is not among the metrics "
            "chosen (TER): name bleu in --metric, or leave --max-n out",
        ),
        ("score", ("--metric", "chrf", "--smoothing", "none"), "--smoothing is a setting of BLEU"),
        ("compare", ("--asian-support",), "--asian-support is a setting of TER"),
        ("compare", ("--metric", "chrf", "--normalized"), "--normalized is a setting of TER"),
        (
            "compare",
            ("--word-order", "2"),
            "--word-order is a setting of chrF, which is not among the metrics chosen "
            "(BLEU-2): name chrf in --metric, or leave --word-order out",
        ),
        ("compare", ("--metric", "ter", "--beta", "1"), "--beta is a setting of chrF"),
    ],
)
def test_a_metric_setting_without_its_metric_is_one_line_and_exit_2(
    tmp_path: Path, command: str, args: tuple[str, ...], message: str
) -> None:
    """A setting of a metric not chosen would change nothing: refused before the input is read."""
    columns = ("--candidate-col", "Candidate") if command == "score" else ("--a", "Candidate", "--b", "Candidate")
    done = run(command, str(tmp_path / "missing.csv"), *columns, *args, "-o", str(tmp_path / "o.csv"))
    assert done.exit_code == 2 and done.stdout == "", done.output
    assert done.stderr.startswith(f"bleu-xl: error: {message}") and done.stderr.count("\n") == 1, done.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--metric", "meteor"), "--metric 'meteor' is not a metric: use bleu, bleu2, chrf"),
        (("--metric", "bleu2", "--max-n", "4"), "--metric bleu2 is BLEU-2: use bleu with --max-n 4 for BLEU-4"),
        (("--metric", "chrf,chrf"), "--metric gives chrF2 twice"),
        (("--metric", "bleu,"), "--metric has an empty name"),
        (("--char-order", "0"), "--char-order"),
        (("--beta", "10"), "--beta"),
    ],
)
def test_bad_metric_options_are_one_line_and_exit_2(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    done = CliRunner().invoke(main, ["score", str(_csv(tmp_path)), *args, "-o", str(tmp_path / "o.csv")])
    assert done.exit_code == 2 and message in done.output, done.output
    assert not (tmp_path / "o.csv").exists()


def test_metrics_named() -> None:
    assert metrics_named([]) == (Bleu(),)
    assert metrics_named(["chrf, BLEU"], word_order=2, max_n=4) == (Chrf(6, 2, 2), Bleu(4))
    assert [m.name for m in metrics_named(["chrf"], beta=3)] == ["chrF3"]


def test_a_large_table_scores_the_same_over_a_process_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scoring, "PARALLEL_MIN_PAIRS", 40)
    monkeypatch.setattr(scoring, "CHUNK", 25)
    rows = [["Reference", "Candidate"]] + [[f"le chat {i % 7} dort", f"le chat {i % 5} dors"] for i in range(100)]
    table = table_sheet.Sheet("t", rows, ["t"])
    layout = columns.find_layout(table)
    metrics = (Chrf(word_order=2), Bleu())
    one = scoring.score_table(table, layout, metrics=metrics, workers=1)
    two = scoring.score_table(table, layout, metrics=metrics, workers=2)
    assert one.scores == two.scores and one.ranks == two.ranks and one.corpora == two.corpora


def test_pair_shows_chrf_characters_and_words() -> None:
    ref, cand = "livraison offerte sur toutes les commandes", "livraisons offertes sur les commandes"
    done = run("pair", ref, cand, "--word-order", "2")
    assert done.exit_code == 0, done.output
    score = chrf(ref, cand, word_order=2)
    lines = done.output.splitlines()
    assert "BLEU-2 = 0.3171" in lines  # the BLEU-2 calculation is still there
    chars, words = score.characters, score.words
    assert words is not None
    assert f"character precision {chars.precision:.4f}, recall {chars.recall:.4f}, F2 {chars.f:.4f}" in lines
    assert f"word precision {words.precision:.4f}, recall {words.recall:.4f}, F2 {words.f:.4f}" in lines
    assert f"chrF2++ = {score.chrf:.4f}  (precision {score.precision:.4f}, recall {score.recall:.4f})" in lines
    assert f"{score.chrf:.4f}" == f"{CHRF(word_order=2).sentence_score(cand, [ref]).score / 100:.4f}"
    data = json.loads(run("pair", ref, cand, "--json").stdout)
    assert data["chrf"] == chrf(ref, cand).as_dict() and data["bleu"] == pytest.approx(0.3171, abs=1e-4)


def _compare_table(tmp_path: Path) -> Path:
    refs = [f"a entrega {w} chegou no prazo e o produto veio bem embalado" for w in ("rápida", "normal", "grátis")]
    lines = ["Reference,Candidate A,Candidate B"]
    for i in range(30):
        ref = refs[i % 3]
        a = ref.replace("embalado", "embalada").replace("prazo", "praso" if i % 2 else "prazo")
        b = ref if i % 4 else ref.replace("chegou", "chegaram")
        lines.append(f"{ref},{a},{b}")
    path = tmp_path / "ab.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_compare_takes_a_metric(tmp_path: Path) -> None:
    path = _compare_table(tmp_path)
    done = run("compare", str(path), "--a", "Candidate A", "--b", "Candidate B", "--metric", "chrf", "--json")
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    rows = path.read_text(encoding="utf-8").splitlines()[1:]
    refs, a, b = (list(col) for col in zip(*(row.split(",") for row in rows)))
    expected = ChrfBootstrap().paired(refs, a, b)
    assert data["metric"] == "chrF2"
    assert (data["score_a"], data["score_b"], data["p_value"]) == (expected.score_a, expected.score_b, expected.p_value)
    # against sacrebleu's paired bootstrap over chrF statistics: the same scores, a p-value on the same side
    metric = CHRF()
    stats = metric._extract_corpus_statistics(a, [refs])
    result = metric._aggregate_and_compute(stats)
    _, results = _paired_bs_test({"chrF2": (stats, result)}, "B", b, [refs], {"chrF2": metric}, n_samples=1000)
    assert abs(expected.score_a - result.score / 100) <= EXACT
    assert abs(expected.score_b - results["chrF2"].score / 100) <= EXACT
    assert (expected.p_value < 0.05) == (results["chrF2"].p_value < 0.05)
    text = run("compare", str(path), "--a", "Candidate A", "--b", "Candidate B", "--metric", "chrf").output
    assert f"Candidate A: corpus chrF2 {expected.score_a:.4f}" in text
    out = tmp_path / "compare.xlsx"
    run("compare", str(path), "--a", "Candidate A", "--b", "Candidate B", "--metric", "chrf", "-o", str(out))
    facts = {r[0]: r[1] for r in openpyxl.load_workbook(out)["Summary"].iter_rows(values_only=True)}
    assert facts["Corpus chrF2 Candidate A"] == expected.score_a
    assert facts["Signature"].startswith("bleu-xl:chrf-1|")
    refused = CliRunner().invoke(
        main, ["compare", str(path), "--a", "Candidate A", "--b", "Candidate B", "--metric", "bleu,chrf"]
    )
    assert refused.exit_code == 2 and "compare tests one metric at a time" in refused.output


def test_the_documented_pair_example_with_chrf_is_real() -> None:
    import re
    import shlex

    readme = (ROOT / "docs" / "command-line.md").read_text(encoding="utf-8")
    block = next(
        m for m in re.finditer(r"```text\n\$ (bleu-xl pair [^\n]+)\n(.*?)```", readme, flags=re.S) if "chrF" in m[2]
    )
    shown = run(*shlex.split(block[1])[1:]).output.splitlines()
    assert all(line in shown for line in block[2].splitlines())


def test_the_summary_names_each_metric_s_signature(tmp_path: Path) -> None:
    """With two metrics the Summary sheet has two signatures: each row says which metric it pins."""
    source = tmp_path / "pairs.csv"
    source.write_text("Reference,Candidate\nthe cat sat,the cat\nthe cat sat,a cat sat\n", encoding="utf-8")
    out = tmp_path / "scored.xlsx"
    assert run("score", str(source), "--metric", "bleu2,chrf", "-o", str(out), "-q").exit_code == 0
    labels = [row[0] for row in openpyxl.load_workbook(out)["Summary"].iter_rows(values_only=True) if row[0]]
    assert [label for label in labels if label.startswith("Signature")] == ["Signature BLEU-2", "Signature chrF2"]
