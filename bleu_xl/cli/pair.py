"""``bleu-xl pair``: the whole calculation of one pair, BLEU's, then chrF's, then TER's."""

from __future__ import annotations

import json

import click

from .. import Bleu, ChrfScore, Ter, TerScore, TerTooLong, chrf, explain, render, tokenize
from .guard import guard
from .options import FLAGS, PAIR_FLAGS, TextsCommand, chrf_options, flag_spelling, ter_options
from .terminal import CLOSED_AT_START, Failure, echo, printable

__all__ = ["pair_command"]


@click.command("pair", cls=TextsCommand)
@click.argument("texts", nargs=-1, required=True, metavar="[REFERENCE] CANDIDATE")
@click.option(
    "--reference",
    "references",
    multiple=True,
    help="A reference; repeat for several (then give only the CANDIDATE).",
)
@click.option(
    "--max-n", default=2, show_default=True, type=click.IntRange(1, Bleu.MAX_ORDER), help="BLEU: longest n-gram."
)
@click.option("--smoothing", default="add1", show_default=True, type=click.Choice(Bleu.SMOOTHING_METHODS))
@chrf_options
@ter_options
@click.option("--json", "as_json", is_flag=True, help="Print the detail as JSON.")
@guard(PAIR_FLAGS)
def pair_command(
    texts: tuple[str, ...],
    references: tuple[str, ...],
    max_n: int,
    smoothing: str,
    char_order: int,
    word_order: int,
    beta: int,
    normalized: bool,
    no_punct: bool,
    asian_support: bool,
    case_sensitive: bool,
    as_json: bool,
) -> None:
    """Show the whole BLEU calculation of one pair (tokens, p1 to pN, BP, r, c), then its chrF: the character
    (and, with --word-order, word) n-gram precision, recall and F; then its TER: the edits, the reference words
    and the words that changed.

    Several references: give each with --reference, then the candidate alone. --max-n and --smoothing are the
    same settings as for score.

    \b
    Examples:
      bleu-xl pair "a entrega chegou no prazo e o produto veio bem embalado" "a entrega chegou no prazo"
      bleu-xl pair --reference "the cat is on the mat" --reference "there is a cat on the mat" "the cat sat"
      bleu-xl pair "livraison offerte" "livraisons offertes" --word-order 2
    """
    if 1 in CLOSED_AT_START:  # the detail is the whole result: lost, it is no answer
        raise Failure("standard output is closed: nothing could be written; redirect it to a file")
    if references:
        if len(texts) != 1:
            raise click.UsageError("with --reference, give the candidate alone")
        refs, candidate = list(references), texts[0]
    else:
        if len(texts) != 2:
            raise click.UsageError("give a REFERENCE and a CANDIDATE (or each reference with --reference)")
        refs, candidate = [texts[0]], texts[1]
    ter_metric = Ter(normalized, no_punct, asian_support, case_sensitive)  # its settings refused before any output
    reference = refs if len(refs) > 1 else refs[0]
    explanation = explain(reference, candidate, max_n=max_n, smoothing=smoothing)
    s = explanation.score
    ref_tokens = [tokenize(ref) for ref in refs]
    c = chrf(reference, candidate, char_order=char_order, word_order=word_order, beta=beta)
    ter_score: TerScore | TerTooLong
    try:
        ter_score = ter_metric.sentence_score(reference, candidate)
    except TerTooLong as too_long:
        ter_score = too_long
    unspaced = sorted({script for text in (*refs, candidate) if (script := ter_metric.unspaced_script(text))})
    detail = {
        "reference_tokens": ref_tokens if len(refs) > 1 else ref_tokens[0],
        "candidate_tokens": tokenize(candidate),
        **s.as_dict(),
        "explain": explanation.summary(),
        "matched": list(explanation.matched_tokens()),
        "chrf": c.as_dict(),
        "ter": ter_detail(ter_score, ter_metric, unspaced),
    }
    if as_json:
        click.echo(json.dumps(detail, ensure_ascii=False, indent=2))
        return
    for number, tokens in enumerate(ref_tokens, start=1):
        label = "reference" if len(refs) == 1 else f"reference {number}"
        echo(f"{label} tokens ({len(tokens)}): {' '.join(tokens)}")
    # On a terminal, matched words are green and the others red (click drops the colours elsewhere).
    marked = " ".join(
        click.style(printable(token), fg="green", bold=True) if hit else click.style(printable(token), fg="red")
        for token, hit in zip(explanation.candidate_tokens, explanation.matched_tokens())
    )
    click.echo(f"candidate tokens ({s.c}): {marked}")
    for report, p in zip(explanation.orders, s.precisions):
        n = report.n
        if p.value is None:
            if s.c:
                words = f"{s.c} word{'s' if s.c > 1 else ''}"
                click.echo(f"p{n} = 0/0, left out of the score  (the candidate has only {words}: no {report.name})")
            else:
                click.echo(f"p{n} = 0/0  (the candidate has no words: BLEU is 0)")
            continue
        note = "  (add-1 smoothing)" if p.smoothed else ""
        click.echo(f"p{n} = {p.numerator}/{p.denominator} = {p.value:.4f}{note}")
    click.echo(f"BP = {s.bp:.4f}  (r = {s.r}, c = {s.c})")
    click.echo(f"BLEU-{s.max_n} = {s.bleu:.4f}")
    echo(f"explain: {detail['explain']}")
    click.echo(f"signature {s.signature}")
    show_chrf(c)
    show_ter(ter_score, ter_metric, unspaced, refs)


def show_chrf(c: ChrfScore) -> None:
    """chrF's lines of ``pair``: each order's matches, then precision, recall and F of each kind, then the score."""
    kinds = [("character", 0, c.char_order, c.characters), ("word", c.char_order, c.word_order, c.words)]
    for kind, start, orders, part in kinds:
        if not orders or part is None:
            continue
        counts = [
            f"{n}: {c.stats.matches[start + n - 1]}/{c.stats.candidate[start + n - 1]}"
            f"/{c.stats.reference[start + n - 1]}"
            for n in range(1, orders + 1)
        ]
        click.echo(f"{kind} n-grams (matches/candidate/reference) {', '.join(counts)}")
        click.echo(f"{kind} precision {part.precision:.4f}, recall {part.recall:.4f}, F{c.beta} {part.f:.4f}")
    click.echo(f"{c.name} = {c.chrf:.4f}  (precision {c.precision:.4f}, recall {c.recall:.4f})")
    click.echo(f"signature {c.signature}")


def ter_detail(score: TerScore | TerTooLong, metric: Ter, unspaced: list[str]) -> dict[str, object]:
    """TER's part of ``pair --json``: the score with the words that changed, or why it was not scored; its note
    spells the settings as flags, as the text and ``score --json`` do."""
    if isinstance(score, TerTooLong):
        return {"ter": None, "not_scored": str(score)}
    changes = score.changes
    detail = {**score.as_dict(), "changes": changes.text if changes is not None else None}
    if unspaced:
        detail["note"] = render(metric.unspaced_note(unspaced), flag_spelling(FLAGS))
    return detail


def show_ter(score: TerScore | TerTooLong, metric: Ter, unspaced: list[str], refs: list[str]) -> None:
    """TER's lines of ``pair``: the score as edits over reference words, the words that changed (against the
    closest reference), the signature."""
    if isinstance(score, TerTooLong):
        echo(f"TER: not scored: {score}")
        return
    words = f"{score.ref_length:g} reference word{'' if score.ref_length == 1 else 's'}"
    if score.refs > 1:
        words += " on average"
    edits = f"{score.edits} edit{'' if score.edits == 1 else 's'}"
    click.echo(f"TER = {score.ter:.4f}  ({edits} / {words}; lower is better)")
    if score.changes is not None:
        number = next((i for i, ref in enumerate(refs, 1) if ref == score.changes.reference), None)
        closest = f" (against reference {number})" if len(refs) > 1 and number is not None else ""
        echo(f"changes{closest}: {score.changes.text}")
    if unspaced:
        echo(f"note: {render(metric.unspaced_note(unspaced), flag_spelling(FLAGS))}")
    click.echo(f"signature {score.signature}")
