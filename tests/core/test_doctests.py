"""The examples in the core's docstrings are true."""

import doctest

import pytest

import bleu_xl.core.metrics.bleu
import bleu_xl.core.tokenizer


@pytest.mark.parametrize("module", [bleu_xl.core.tokenizer, bleu_xl.core.metrics.bleu], ids=lambda m: m.__name__)
def test_docstring_examples(module) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
