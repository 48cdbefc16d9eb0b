"""The Start here sheet: first in the workbook, every registered function listed, and install steps, errors, sheets
and limits explained in English, French and Portuguese."""

from __future__ import annotations

from bleu_xl.excel.functions import FUNCTIONS
from bleu_xl.lite.reenter import SCRIPT_NAME
from bleu_xl.template import build as template
from tests.template.checks import (
    TEMPLATE,
    UDFS,
    load,
)


def _sheet_text(ws) -> str:
    return "\n".join(str(c.value) for row in ws.iter_rows() for c in row if c.value is not None)


def test_start_here_is_the_first_sheet_and_lists_every_registered_function() -> None:
    book = load(TEMPLATE)
    assert book.sheetnames == template.SHEETS and book.sheetnames[0] == "Start here"
    assert book.active.title == "Start here"
    start = book["Start here"]
    listed = {row[0].value: row[1].value for row in start.iter_rows() if row[0].value in UDFS}
    assert set(listed) == UDFS
    for function in FUNCTIONS:
        assert listed[function.name] == f"{function.syntax}: {function.description}"


def test_start_here_explains_install_errors_sheets_and_limits_in_three_languages() -> None:
    text = _sheet_text(load(TEMPLATE)["Start here"])
    for name in ("install.cmd", "READ ME FIRST.txt", "xlwings-lite", "pip install bleu-xl", "bleu-xl lite-bundle"):
        assert text.count(name) == 3, name  # the release bundle's own files, and the commands: no repository path
    for phrase in (
        "#NAME? means the bleu-xl functions are not installed",
        "#NOM? (#NAME? en anglais) signifie que les fonctions bleu-xl ne sont pas installées",
        "#NOME? (#NAME? em inglês) significa que as funções do bleu-xl não estão instaladas",
        # what works first: Find & Replace = with = enters every formula again; then the Lite script
        "Home > Find & Select > Replace (Ctrl+H), find = and replace with =, Replace All",
        "Accueil > Rechercher et sélectionner > Remplacer (Ctrl+H), recherchez = et remplacez par =, Remplacer tout",
        "Página Inicial > Localizar e Selecionar > Substituir, localize = e substitua por =, Substituir Tudo",
        "Home > Add-ins (in older Excel: Insert > Add-ins)",
        "from one range formula (no rank)",
        # what BLEU-2 does not measure, and the paraphrase / wrong-price warning, in every language
        "meaning, tone, facts or brand voice",
        "a faithful paraphrase can score low and a text with a wrong price can score high",
        "ni le sens, ni le ton, ni l'exactitude des faits, ni la voix de la marque",
        "une paraphrase fidèle peut obtenir un score bas et un texte avec un prix erroné un score élevé",
        "sentido, tom, fatos nem a voz da marca",
        "uma paráfrase fiel pode tirar nota baixa e um texto com preço errado, nota alta",
        "Scores against different references are not comparable",
        "références différentes ne sont pas comparables",
        "referências diferentes não são comparáveis",
        "very short lines",
        "lignes très courtes",
        "linhas muito curtas",
        "BP = 1 if c >= r",
    ):
        assert phrase in text, phrase
    assert "une candidate" not in text and "un candidat" in text  # a candidate is "un candidat" in French
    for sheet in template.SHEETS[1:]:
        assert text.count(f"{sheet}:") + text.count(f"{sheet} :") >= 3, sheet  # every sheet explained thrice
    rows = [row for row in load(TEMPLATE)["Start here"].iter_rows(values_only=True) if row[0] and row[1]]
    assert sum(1 for label, _ in rows if label in ("What it does", "À quoi sert ce classeur ?", "Para que serve")) == 3
    what = next(text for label, text in rows if label == "What it does")
    assert what.count("\n") == 2  # three lines
    for label in ("#NAME?", "#NOM?", "#NOME?"):  # the fix that works comes first, a recalculation is not it
        fix = next(text for first, text in rows if first == label)
        assert fix.index(" = ") < fix.index(SCRIPT_NAME) < fix.index("Ctrl+Alt+F9"), label
