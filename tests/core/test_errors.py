"""The error family: every error survives pickling (a process pool sends them back), settings are spelt per face."""

from __future__ import annotations

import pickle

import pytest

import bleu_xl
from bleu_xl.core.errors import BleuError, BleuTypeError, BleuXlError, Setting
from bleu_xl.excel.cell_values import CellError, PassError
from bleu_xl.table.layout import ColumnNotFound, NoColumnsFound
from bleu_xl.table.sheet import InputError, TableOptions


@pytest.mark.parametrize(
    "error",
    [
        BleuError("reference has no words"),
        InputError("sheet 'x': give ", Setting("candidate_col", "B")),
        NoColumnsFound("sheet 'x' is empty"),
        ColumnNotFound("Pairs", "candidate", "Candidat A", ["Reference", "Candidate A"]),
        PassError(CellError("#N/A")),
    ],
    ids=lambda e: type(e).__name__,
)
def test_every_error_survives_pickling(error: BleuXlError) -> None:
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error) and str(copy) == str(error) and copy.parts == error.parts
    assert copy.__dict__ == error.__dict__


def test_a_setting_with_several_values_is_spelt_as_a_sequence() -> None:
    error = InputError("give the reference column by letter, e.g. ", Setting("reference_cols", ("AB",)))
    assert str(error) == "give the reference column by letter, e.g. reference_cols=('AB',)"


def test_reference_columns_given_as_one_string_are_refused() -> None:
    """A string is a sequence of letters: TableOptions(reference_cols="AB") would read columns A and B."""
    with pytest.raises(TypeError, match="wrap it in a list"):
        TableOptions(reference_cols="AB")
    assert TableOptions(reference_cols=["AB"]).reference_cols == ["AB"]


def test_every_exception_bleu_xl_defines_derives_from_bleu_xl_error() -> None:
    """One error family: every exception class of the package is a BleuXlError, but for the two that are not
    errors: the command line's Terminated (a signal, a BaseException as KeyboardInterrupt is) and the reader's
    Stop (a parse that has seen enough; it never leaves the module that raises it)."""
    import importlib
    import inspect
    import pkgutil

    import bleu_xl
    from bleu_xl import BleuXlError

    not_errors = {"bleu_xl.cli.guard.Terminated", "bleu_xl.files.read.package.Stop"}
    found = set()
    for module in pkgutil.walk_packages(bleu_xl.__path__, "bleu_xl."):
        if module.name in {"bleu_xl.udfs", "bleu_xl.cli.__main__"}:  # udfs needs xlwings' Excel side to import
            continue
        loaded = importlib.import_module(module.name)
        for name, value in vars(loaded).items():
            if inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == module.name:
                found.add(f"{module.name}.{name}")
                if f"{module.name}.{name}" not in not_errors:
                    assert issubclass(value, BleuXlError), f"{module.name}.{name}"
    assert (
        not_errors <= found
        and "bleu_xl.cli.terminal.Failure" in found
        and "bleu_xl.table.pool.PoolUnavailable" in found
    )


@pytest.mark.parametrize(
    "call",
    [
        lambda: bleu_xl.score("le chat", None),
        lambda: bleu_xl.score_many("le chat", "le chien"),
        lambda: bleu_xl.corpus_score((t for t in ["a"]), ["a"]),
        lambda: bleu_xl.chrf("le chat", 3),
        lambda: bleu_xl.ter("le chat", None),
        lambda: bleu_xl.tokenize(b"le chat"),
        lambda: bleu_xl.Resampling(metric="bleu"),
        lambda: bleu_xl.metrics_named("bleu"),
    ],
)
def test_a_value_of_the_wrong_type_is_a_bleu_xl_error_and_a_type_error(call) -> None:
    # python.md: every error bleu-xl raises derives from BleuXlError; Python code expects a TypeError of these.
    with pytest.raises(BleuTypeError) as caught:
        call()
    assert isinstance(caught.value, BleuXlError) and isinstance(caught.value, TypeError)


def test_numpy_arrays_are_corpora_like_lists() -> None:
    import numpy

    refs, cands = ["a b c d", "d e f g", "x y z"], ["a b c", "d e", "x y z w"]
    for corpus in (bleu_xl.corpus_score, bleu_xl.corpus_chrf, bleu_xl.corpus_ter):
        assert corpus(numpy.array(refs), numpy.array(cands)) == corpus(refs, cands)
    with pytest.raises(BleuError, match="no pairs to score"):
        bleu_xl.corpus_score(numpy.array([]), numpy.array([]))
    assert bleu_xl.bootstrap_ci(numpy.array(refs), numpy.array(cands)) == bleu_xl.bootstrap_ci(refs, cands)


def test_a_numpy_array_of_no_dimension_is_a_bleu_type_error() -> None:
    import numpy

    with pytest.raises(BleuTypeError, match="must be a sequence"):
        bleu_xl.corpus_score(numpy.array("x"), numpy.array("y"))


def test_a_generator_given_to_a_paired_test_is_a_bleu_type_error() -> None:
    """A generator has no length to pair it by: the paired tests refuse it as corpus_score does, by its type."""
    refs, a, b = ["le chat noir", "free delivery"] * 5, ["le chat", "free"] * 5, ["le chat noir", "delivery"] * 5
    for call in (
        lambda: bleu_xl.paired_test(refs, (x for x in a), b),
        lambda: bleu_xl.Randomization().paired(refs, a, (x for x in b)),
        lambda: bleu_xl.Resampling(bleu_xl.Chrf()).paired(refs, (x for x in a), b),
    ):
        with pytest.raises(BleuTypeError, match="must be a sequence"):
            call()
    assert bleu_xl.score_many(refs[0], (x for x in a)) == bleu_xl.score_many(refs[0], a)  # one reference: no pairing
