"""The template's chrF: a calculated column beside BLEU-2 on Rank, sacrebleu's numbers cached, and Start here saying
in three languages when to look at which."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from sacrebleu.metrics import CHRF

from bleu_xl.template import build as template
from bleu_xl.template import data as template_data

from .checks import TEMPLATE, formula_text, recalculate

FIRST = template.FIRST


def _sacre(reference: str, candidate: str) -> float:
    return CHRF().sentence_score(candidate, [reference]).score / 100


def test_rank_has_a_chrf_column_beside_bleu_2_with_sacrebleus_numbers_cached() -> None:
    rank = openpyxl.load_workbook(TEMPLATE)["Rank"]
    cached = openpyxl.load_workbook(TEMPLATE, data_only=True)["Rank"]
    table = rank.tables["tblVariants"]
    names = [c.name for c in table.tableColumns]
    assert names[names.index("BLEU-2") + 1] == "chrF"
    chrf_column = table.tableColumns[names.index("chrF")]
    assert chrf_column.calculatedColumnFormula.attr_text == "CHRF(Reference,tblVariants[[#This Row],[Candidate]])"
    assert chrf_column.calculatedColumnFormula.array  # a dynamic array, as Excel copies it into new rows
    for i, variant in enumerate(template_data.RANK_VARIANTS):
        row = FIRST + i
        assert formula_text(rank[f"D{row}"].value) == "=CHRF(Reference,tblVariants[[#This Row],[Candidate]])"
        assert rank[f"D{row}"].number_format == rank[f"C{row}"].number_format == "0.000"
        assert cached[f"D{row}"].value == pytest.approx(_sacre(template_data.RANK_REFERENCE, variant), abs=1e-12)


def test_the_engine_recalculates_the_chrf_column(tmp_path: Path) -> None:
    variants = ["Livraison gratuite cette semaine", "Free delivery on every order!", "!!!", "   "]
    path = tmp_path / "chrf.xlsx"
    template.build_template(path, variants)
    values = recalculate(path, tmp_path)
    got = [values[f"RANK!D{FIRST + i}"][0][0] for i in range(len(variants))]
    assert got[:3] == pytest.approx([_sacre(template_data.RANK_REFERENCE, v) for v in variants[:3]], abs=1e-12)
    assert got[3] in ("", None)  # a blank candidate stays blank


def test_start_here_says_when_to_look_at_which_in_three_languages() -> None:
    rows = [
        (label, text)
        for label, text, *_ in openpyxl.load_workbook(TEMPLATE)["Start here"].iter_rows(values_only=True)
        if label and text
    ]
    english, french, portuguese = (text for label, text in rows if label in ("BLEU-2 or chrF", "BLEU-2 ou chrF"))
    assert "short copy" in english and "French and Portuguese" in english and "their order" in english
    assert "textes courts" in french and "livré et livrées" in french and "ordre comptent" in french
    assert "textos curtos" in portuguese and "entregue e entregues" in portuguese and "a ordem delas" in portuguese
    for text in (english, french, portuguese):
        assert "chrF++" in text and "=CHRF(" in text
    definition = next(text for label, text in rows if label == "Definition")
    assert "chrF (as sacrebleu's chrF2)" in definition
