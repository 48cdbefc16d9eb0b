"""``bleu-xl compare``: its options turned into one :func:`bleu_xl.compare_file` call, and the verdict it prints."""

from __future__ import annotations

import json

import click

from .. import ComparedFile, compare_file, metrics_named, render
from .guard import guard, wrote
from .options import (
    COMPARE_FLAGS,
    Command,
    ReadFlags,
    chrf_options,
    flag_spelling,
    given_settings,
    table_options,
    ter_options,
)
from .score import announce
from .terminal import CLOSED_AT_START, Failure, echo

__all__ = ["compare_command"]


@click.command("compare", cls=Command)
@click.argument("input_path", metavar="INPUT")
@click.option("--a", "a_col", required=True, help="The first candidate column (letter or header).")
@click.option("--b", "b_col", required=True, help="The second candidate column (letter or header).")
@click.option("--reference-col", "reference_cols", multiple=True, help="Reference column; repeat for several.")
@click.option("--reference", "reference_text", help="Compare both columns against this one text.")
@table_options
@click.option(
    "--test",
    default="bs",
    show_default=True,
    type=click.Choice(["bs", "ar"]),
    help="The paired test: bs (paired bootstrap, as sacrebleu's --paired-bs) or ar (approximate randomization, "
    "as sacrebleu's --paired-ar).",
)
@click.option(
    "--samples",
    type=click.IntRange(max=1_000_000),  # fewer than 20: the library's refusal, which says why
    help="Bootstrap resamples (default 1000) or randomization trials (default 10000); at least 20.",
)
@click.option("--seed", default=12345, show_default=True, type=int, help="Seed of the resamples or trials.")
@click.option(
    "--metric",
    "metric_name",
    default="bleu",
    show_default=True,
    help="The metric to compare with: bleu (BLEU-2), chrf (see --char-order, --word-order, --beta) or ter (TER, "
    "lower is better; see --normalized, --no-punct, --asian-support, --case-sensitive).",
)
@chrf_options
@ter_options
@click.option(
    "-o",
    "--output",
    help="Also write the rows with both columns' scores and a note on each row left out of the test: .xlsx (with "
    "the test on a Summary sheet), .csv, .tsv, .json (one document, with the test) or .jsonl.",
)
@click.option("--raw", is_flag=True, help="CSV: write text exactly as read, without the ' before a leading = + - @.")
@click.option(
    "--output-encoding", help="Encoding of a CSV output (default: UTF-8, with a BOM in a file so that Excel reads it)."
)
@click.option("--force", is_flag=True, help="Replace an existing output file.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON (with its notes, even with -q).")
@click.option(
    "--quiet",
    "-q",
    is_flag=True,
    help="Print no verdict (write it with -o); --json prints its document, notes and all, whatever -q says.",
)
@guard(COMPARE_FLAGS)
def compare_command(
    input_path: str,
    a_col: str,
    b_col: str,
    reference_cols: tuple[str, ...],
    reference_text: str | None,
    read: ReadFlags,
    test: str,
    samples: int | None,
    seed: int,
    metric_name: str,
    char_order: int,
    word_order: int,
    beta: int,
    normalized: bool,
    no_punct: bool,
    asian_support: bool,
    case_sensitive: bool,
    output: str | None,
    raw: bool,
    output_encoding: str | None,
    force: bool,
    as_json: bool,
    quiet: bool,
) -> None:
    """Which of two candidate columns is better, and is the difference real? (a paired test)

    Both columns are scored against the same references (corpus BLEU-2, or corpus chrF or TER with --metric); rows
    with a blank reference or a blank candidate on either side are left out of both. The p-value tests the null
    hypothesis that A and B are equally good: the paired bootstrap (Koehn 2004, as sacrebleu's --paired-bs) or,
    with --test ar, approximate randomization (as sacrebleu's --paired-ar).

    \b
    Examples:
      bleu-xl compare variants.xlsx --a "Prompt A" --b "Prompt B"
      bleu-xl compare variants.xlsx --a "Prompt A" --b "Prompt B" --metric chrf
      bleu-xl compare translations.xlsx --a "Engine A" --b "Engine B" --metric ter
      bleu-xl compare translations.xlsx --a "Engine A" --b "Engine B" --test ar
      bleu-xl compare variants.xlsx --a "Prompt A" --b "Prompt B" -o comparison.csv -q
    """
    if 1 in CLOSED_AT_START and (as_json or (output is None and not quiet)):  # its result would be lost
        raise Failure("standard output is closed: nothing could be written; write the result to a file with -o")
    metrics = metrics_named(
        [metric_name],
        **given_settings(
            char_order=char_order,
            word_order=word_order,
            beta=beta,
            normalized=normalized,
            no_punct=no_punct,
            asian_support=asian_support,
            case_sensitive=case_sensitive,
        ),
    )
    if len(metrics) != 1:
        raise Failure(f"{COMPARE_FLAGS['metric']} {metric_name!r}: compare tests one metric at a time")
    if output == "-":
        raise Failure("compare prints its result on standard output; give -o a file name, or use --json")

    spell = flag_spelling(COMPARE_FLAGS)

    def on_read(compared: ComparedFile) -> None:
        # With --json, the payload names the input, sheet and columns and holds the notes.
        if not as_json:
            announce(compared.read, compared=compared.comparison.b_col, flags=COMPARE_FLAGS)

    compared = compare_file(
        input_path,
        candidate_col=a_col,
        b_col=b_col,
        reference_cols=reference_cols,
        reference_text=reference_text,
        metric=metrics[0],
        test=test,
        samples=samples,
        seed=seed,
        output=output,
        output_encoding=output_encoding,
        raw=raw,
        force=force,
        on_read=on_read,
        spell=spell,
        **read.settings(),
    )
    if compared.target is not None and not compared.target.to_stdout:
        wrote(compared.target.path)
    notes = [render(note, spell) for note in compared.notes]
    for note in notes:
        echo(f"bleu-xl: note: {note}", err=True)
    comparison, result = compared.comparison, compared.comparison.result
    if as_json:  # the result itself: printed whatever -q says, with every note
        payload = {
            **comparison.as_dict(),
            "signature": comparison.signature,  # the metric's settings, as the -o document names them
            "input": compared.read.input_name,
            "sheet": compared.read.sheet.workbook_sheet,  # a text file has none
            "columns": render(compared.describe(), spell),
            "notes": [render(note, spell) for note in compared.read.notes] + notes,
        }
        click.echo(json.dumps(payload, ensure_ascii=False, indent=2))
        return
    if quiet:
        return
    name = comparison.metric.name
    for column, value, interval, side in (
        (comparison.a_name, result.score_a, result.interval_a, "a"),
        (comparison.b_name, result.score_b, result.interval_b, "b"),
    ):
        missing = result.no_interval_text(side)
        between = (
            f"  ({missing})"
            if missing
            else ""
            if interval is None
            else (f"  ({interval.level_text} interval {interval.low:.4f} to {interval.high:.4f})")
        )
        echo(f"{column}: corpus {name} {value:.4f}{between}")
    draws = f"{result.samples} resamples" if result.test == "bs" else f"{result.samples} randomization trials"
    echo(
        f"difference ({comparison.b_name} - {comparison.a_name}) {result.difference:+.4f}, {result.p_text} "
        f"({comparison.used} pair{'s' if comparison.used != 1 else ''}, {comparison.skipped} skipped, {draws}, "
        f"seed {seed})"
    )
    echo(comparison.verdict)
    echo(f"signature {comparison.signature}")  # the settings compared by, one line to copy whole
    if output:
        echo(f"written to {output}")
