"""The one list of bleu-xl's Excel functions: name, arguments with their docs, description, the cell function.

Every face is derived from it: the classic add-in's declarations (``udfs``), the xlwings Lite bundle, the
template's function list and the README's table. Standard library only (the Lite bundle embeds it).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import cells

__all__ = [
    "CATEGORY",
    "FUNCTIONS",
    "RANGE_OPTIONS",
    "REQUIRED",
    "SETTING_OPTIONS",
    "Argument",
    "ExcelFunction",
    "declare",
]

CATEGORY = "BLEU"
#: xlwings' reading options for a range argument: a list of rows (a single cell as [[value]]), and an error cell
#: as its text (``#N/A``), so the cell functions see the same values in the classic add-in and in xlwings Lite.
RANGE_OPTIONS = {"ndim": 2, "err_to_str": True}
SETTING_OPTIONS = {"err_to_str": True}


class _Required:
    """The default of an argument that must be given."""

    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()


@dataclass(frozen=True)
class Argument:
    """One argument of an Excel function. ``is_range``: read as a 2-D range (error cells as their text)."""

    name: str
    doc: str
    default: Any = REQUIRED
    is_range: bool = False

    @property
    def optional(self) -> bool:
        return self.default is not REQUIRED


@dataclass(frozen=True)
class ExcelFunction:
    """One Excel function: ``call(*arguments)`` computes its result from the values xlwings hands over."""

    name: str
    description: str
    arguments: tuple[Argument, ...]
    call: Callable[..., Any]

    @property
    def syntax(self) -> str:
        """As written in a cell, optional arguments in brackets: ``BLEU2_TOKENS(text, [separator])``."""
        names = [f"[{a.name}]" if a.optional else a.name for a in self.arguments]
        return f"{self.name}({', '.join(names)})"


REFERENCE = Argument(
    "reference",
    "The approved reference: a cell or a range (a wider range gives several references per candidate).",
    is_range=True,
)
CANDIDATE = Argument(
    "candidate",
    "The text to score: a cell or a range of the same shape; a range spills one result per cell.",
    is_range=True,
)
REFERENCES = Argument(
    "references", "The references, one per candidate (or a wider range: several per candidate).", is_range=True
)
CANDIDATES = Argument("candidates", "The candidates; pairs with a blank side are left out.", is_range=True)
SMOOTHING = Argument("smoothing", 'Optional: "add1" (default) or "none".', default="add1")
SAMPLES = Argument("samples", "Optional: bootstrap resamples (default 1000).", default=1000)
CHAR_ORDER = Argument("char_order", "Optional: the longest character n-gram, 1 to 9 (default 6).", 6)
WORD_ORDER = Argument("word_order", "Optional: the longest word n-gram, 0 to 9 (default 0; 2 gives chrF++).", 0)
BETA = Argument("beta", "Optional: recall counts beta times as much as precision, 1 to 9 (default 2).", 2)
NORMALIZED = Argument(
    "normalized",
    "Optional: TRUE to split punctuation off words and unescape &amp; and the like (default FALSE).",
    False,
)
NO_PUNCT = Argument("no_punct", "Optional: TRUE to remove punctuation (default FALSE).", False)
ASIAN_SUPPORT = Argument(
    "asian_support", "Optional: TRUE to treat each CJK character as a word when normalized (default FALSE).", False
)
CASE_SENSITIVE = Argument("case_sensitive", "Optional: TRUE to count a change of case (default FALSE).", False)
TER_SETTINGS = (NORMALIZED, NO_PUNCT, ASIAN_SUPPORT, CASE_SENSITIVE)


def _measure(measure: str) -> Callable[[Any, Any], Any]:
    def call(reference: Any, candidate: Any) -> Any:
        return cells.bleu_cells(reference, candidate, measure)

    return call


FUNCTIONS: tuple[ExcelFunction, ...] = (
    ExcelFunction(
        "BLEU2",
        "BLEU-2 of the candidate against the reference, from 0 to 1 (unigrams and bigrams, add-1 smoothing; a one-word "
        "candidate has no bigram, so its score is p1 x BP).",
        (REFERENCE, CANDIDATE),
        _measure("bleu"),
    ),
    ExcelFunction(
        "BLEU2_P1",
        "p1: the share of candidate words found in the reference (clipped; add-1 when none is found; blank when the "
        "candidate has no words).",
        (REFERENCE, CANDIDATE),
        _measure("p1"),
    ),
    ExcelFunction(
        "BLEU2_P2",
        "p2: the share of candidate word pairs (bigrams) found in the reference (add-1 when none is found; blank for a "
        "one-word candidate: it has no pair, and BLEU2 leaves p2 out).",
        (REFERENCE, CANDIDATE),
        _measure("p2"),
    ),
    ExcelFunction(
        "BLEU2_BP",
        "Brevity penalty: 1 when the candidate is at least as long as the reference, less when it is shorter.",
        (REFERENCE, CANDIDATE),
        _measure("bp"),
    ),
    ExcelFunction(
        "BLEU2_DETAIL",
        "A row per pair: BLEU2, p1, p1 num, p1 den, p2, p2 num, p2 den, BP, r (reference tokens), c (candidate); "
        "p2 is blank beside 0 and 0 when the candidate has one word.",
        (REFERENCE, CANDIDATE, Argument("headers", "Optional: TRUE to put a header row first (default FALSE).", False)),
        cells.detail_cells,
    ),
    ExcelFunction(
        "BLEU2_CORPUS",
        "Corpus BLEU-2: n-gram matches and lengths added up over all filled-in pairs, then one score.",
        (REFERENCES, CANDIDATES),
        cells.corpus_cells,
    ),
    ExcelFunction(
        "BLEU2_TOKENS",
        "The tokens bleu-xl scores: lowercased words, one token per CJK character and per Thai, Lao, Myanmar or Khmer "
        "character cluster, punctuation dropped.",
        (
            Argument("text", "A cell or a range of text.", is_range=True),
            Argument(
                "separator",
                "Optional: join each cell's tokens with this text instead of spilling them (a range without one, or "
                'with "", joins them with a space).',
                None,
            ),
        ),
        cells.tokens_cells,
    ),
    ExcelFunction(
        "BLEU",
        "BLEU-N (BLEU-4 by default) of the candidate against the reference, from 0 to 1; orders longer than the "
        "candidate are left out.",
        (REFERENCE, CANDIDATE, Argument("max_n", "Optional: the longest n-gram, 1 to 9 (default 4).", 4), SMOOTHING),
        cells.bleu_n_cells,
    ),
    ExcelFunction(
        "BLEU2_SIGNATURE",
        "The signature that pins every scoring choice, to note next to published scores.",
        (
            Argument("max_n", "Optional: the longest n-gram (default 2).", 2),
            SMOOTHING,
            Argument("refs", "Optional: references per candidate, 1 to 16384 (default 1).", 1),
        ),
        cells.signature_cell,
    ),
    ExcelFunction(
        "BLEU2_EXPLAIN",
        "Why a pair scored as it did: reference words missing, extra words, reference bigrams missed.",
        (REFERENCE, CANDIDATE),
        cells.explain_cells,
    ),
    ExcelFunction(
        "BLEU2_CI",
        "Corpus BLEU-2 with a bootstrap interval, spilled as a row: low, score, high.",
        (
            Argument("references", "The references, one per candidate.", is_range=True),
            CANDIDATES,
            Argument("level", "Optional: the interval's confidence level (default 0.95).", 0.95),
            SAMPLES,
            Argument(
                "paired_with",
                "Optional: the other candidates of a BLEU2_PAIRED test; rows where they are blank are left out, as "
                "the test leaves them.",
                None,
                is_range=True,
            ),
        ),
        cells.ci_cells,
    ),
    ExcelFunction(
        "BLEU2_PAIRED",
        "Is B really better than A? Spills corpus BLEU-2 of A, of B, the difference B - A and the p-value.",
        (
            Argument("references", "The references, one per row.", is_range=True),
            Argument("candidates_a", "The first set of candidates (A).", is_range=True),
            Argument("candidates_b", "The second set of candidates (B), row by row with A.", is_range=True),
            SAMPLES,
        ),
        cells.paired_cells,
    ),
    ExcelFunction(
        "CHRF",
        "chrF of the candidate against the reference, from 0 to 1: shared character n-grams (spaces left out), "
        "partial credit for shared stems; as sacrebleu's chrF2 (chrF++ with word_order 2).",
        (REFERENCE, CANDIDATE, CHAR_ORDER, WORD_ORDER, BETA),
        cells.chrf_cells,
    ),
    ExcelFunction(
        "CHRF_CORPUS",
        "Corpus chrF: character (and word) n-gram counts added up over all filled-in pairs, then one score.",
        (REFERENCES, CANDIDATES, CHAR_ORDER, WORD_ORDER, BETA),
        cells.chrf_corpus_cells,
    ),
    ExcelFunction(
        "CHRF_SIGNATURE",
        "The signature that pins every chrF choice (orders, beta, references), to note next to published scores.",
        (
            CHAR_ORDER,
            WORD_ORDER,
            BETA,
            Argument("refs", "Optional: references per candidate, 1 to 16384 (default 1).", 1),
        ),
        cells.chrf_signature_cell,
    ),
    ExcelFunction(
        "TER",
        "TER of the candidate against the reference: the fewest word edits (inserted, deleted, replaced words; moved "
        "phrases) per reference word. 0 is identical, lower is better, above 1 possible; as sacrebleu's TER.",
        (REFERENCE, CANDIDATE, *TER_SETTINGS),
        cells.ter_cells,
    ),
    ExcelFunction(
        "TER_CORPUS",
        "Corpus TER: edits and reference lengths added up over all filled-in pairs, then one division (lower is "
        "better).",
        (REFERENCES, CANDIDATES, *TER_SETTINGS),
        cells.ter_corpus_cells,
    ),
    ExcelFunction(
        "TER_CHANGES",
        "The words TER counts as changed, in the reference's order: [-deleted-] candidate words, {+inserted+} "
        "reference words, {>moved<} phrases of the candidate, kept words as they are.",
        (REFERENCE, CANDIDATE, *TER_SETTINGS),
        cells.ter_changes_cells,
    ),
    ExcelFunction(
        "TER_SIGNATURE",
        "The signature that pins every TER choice (tokenizer options, references), to note next to published scores.",
        (*TER_SETTINGS, Argument("refs", "Optional: references per candidate (default 1).", 1)),
        cells.ter_signature_cell,
    ),
)


def declare(
    func: Callable[..., Any],
    arg: Callable[..., Any],
    module: str,
    convert: Callable[[Any], Any],
    given: Callable[[Any], Any] | None = None,
) -> dict[str, Callable[..., Any]]:
    """Every registered function as an xlwings function, by name, for a face module's namespace.

    ``func`` and ``arg`` are the face's xlwings decorators (classic xlwings' or xlwings Lite's); ``module`` is the
    face module's ``__name__``; ``convert`` shows each result the face's way (``faces``: errors and blanks), and
    ``given`` makes each argument given what the cell functions take (Lite's whole numbers as floats). Each is
    an ordinary function named after its entry, whose signature (``__signature__``, which xlwings reads through
    ``inspect.signature``) has the entry's parameter names and defaults, so xlwings' VBA wrapper and office.js
    metadata show the real arguments, optional ones marked. Built here rather than written out in a generated
    module so that the list exists once and the classic add-in and the Lite bundle run the very same code.
    """
    return {function.name: _declare_one(function, func, arg, module, convert, given) for function in FUNCTIONS}


def _declare_one(
    function: ExcelFunction,
    func: Callable[..., Any],
    arg: Callable[..., Any],
    module: str,
    convert: Callable[[Any], Any],
    given: Callable[[Any], Any] | None = None,
) -> Callable[..., Any]:
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    signature = inspect.Signature(
        [
            inspect.Parameter(a.name, kind, default=a.default if a.optional else inspect.Parameter.empty)
            for a in function.arguments
        ]
    )

    def excel_function(*values: Any) -> Any:
        if given is not None:
            values = tuple(map(given, values))
        bound = signature.bind(*values)  # a wrong number of arguments is a TypeError, as with a def
        bound.apply_defaults()
        return convert(function.call(*bound.args))

    excel_function.__name__ = excel_function.__qualname__ = function.name
    excel_function.__module__ = module
    excel_function.__doc__ = function.description
    excel_function.__signature__ = signature  # type: ignore[attr-defined]
    for argument in function.arguments:
        # A setting's error cell must reach the cell functions as its text too, not as a blank (the default).
        options = RANGE_OPTIONS if argument.is_range else SETTING_OPTIONS
        excel_function = arg(argument.name, doc=argument.doc, **options)(excel_function)
    return func(category=CATEGORY)(excel_function)
