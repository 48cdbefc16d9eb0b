"""Rows that are not what their place says: the headers of columns given by letter under a title, the header row
repeated inside the data (two tables stacked on one sheet), a totals row typed by hand under the data, and the
rows of a CSV with fields past its header (a delimiter inside a text not in quotes).

The first two decide whether a row is headers or data; when a row could be either and the two readings score
differently, the rules refuse it and name the settings that say which it is.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from typing import Any

from ..core.errors import Part, Setting
from ..core.tokenizer import tokenize
from ..excel.cell_values import CellError, cell_text
from .layout import Layout, fold
from .sheet import InputError, Sheet, column_letter

__all__ = [
    "CANDIDATE_NAMES",
    "REFERENCE_NAMES",
    "header_like",
    "header_text",
    "header_under_title",
    "headers_again",
    "known_name",
    "past_header_notes",
    "reference_taken",
    "repeated_header_rows",
    "tagged_columns",
    "totals_label",
    "typed_totals_row",
]

#: Header names after folding (trimmed, accents removed, any case), singular and plural.
REFERENCE_NAMES = frozenset({"reference", "references", "referencia", "referencias"})
CANDIDATE_NAMES = frozenset({"candidate", "candidates", "candidat", "candidats", "candidato", "candidatos"})

#: How every known name begins (any case, an accent precomposed or not): a cell that does not is none.
_NAME_START = re.compile(r"\s*(?:r(?:e|é|e\u0301)f|cand)", re.IGNORECASE)
_NAME_FIRST = frozenset("rRcC \t\n\r\u00a0")

#: The most a header that holds a known name has, read in a data row (``Référence approuvée (FR)``).
HEADER_NAME_LENGTH, HEADER_NAME_WORDS = 40, 4

#: A number as text (a CSV's cells are all text): never a header.
_NUMBER_TEXT = re.compile(r"[+-]?[0-9]+(?:[.,][0-9]+)*%?")


def header_text(value: Any) -> str:
    """A cell as a header: its text trimmed, ``""`` for a blank or an error."""
    text = cell_text(value)
    return "" if text is None or isinstance(text, CellError) else str(text).strip()


def header_like(value: Any) -> bool:
    """Whether a cell could be a column's header: text, not a number, an error or blank."""
    return isinstance(value, str) and header_text(value) != "" and not _NUMBER_TEXT.fullmatch(value.strip())


def _reads_as_headers(cells: Sequence[Any]) -> bool:
    """Whether a row's cells over the given columns read as their headers rather than a pair: two or more texts
    that share no word (a candidate and its reference share some; 'Approved copy' and 'Variant' none)."""
    words = [set(tokenize(header_text(v))) for v in cells]
    return len(words) > 1 and all(w and not (w & other) for i, w in enumerate(words) for other in words[i + 1 :])


def header_under_title(
    sheet: Sheet, start: int, columns: Sequence[int], rows_searched: int, reference_text: str | None = None
) -> int | None:
    """The header row of columns given by letter when no row holds a known header: the first row with text
    (``start``) when it holds a header's text over each column; else the first row holding such text in every
    column below rows of one text each (a title, a note), when it reads as headers (:func:`_reads_as_headers`;
    with the ``reference_text`` given for every candidate, a candidate column's header shares no word with it).
    ``None``: every row is data.

    A row of several texts above it that is not over every column could be the header row as well: refused,
    naming the settings that say which it is."""
    rows = sheet.rows
    above: int | None = None  # a row of several texts above: headers with one missing, or data
    for r in range(start, min(start + rows_searched, len(rows))):
        row = rows[r]
        cells = [row[c] if c < len(row) else None for c in columns]
        if all(header_like(v) for v in cells):
            if r == start:
                return r
            if not _reads_as_headers([*cells, *([] if reference_text is None else [reference_text])]):
                return None
            if above is not None:
                raise InputError(
                    f"sheet {sheet.name!r}: row {above + 1} or row {r + 1} could be the header row of the columns "
                    "given; say which with ",
                    Setting("header_row", r + 1),
                    ", or score every row with ",
                    Setting("no_header"),
                )
            return r
        if sum(1 for v in row if header_text(v)) > 1:
            above = r if above is None else above
    return None


#: A number after a known name, as people write it: ``2``, ``#2``, ``no. 2``, ``(2)``, ``[#2]`` (not Roman
#: numerals: ``VI`` is Vietnamese too).
_NAME_NUMBER = re.compile(r"(?:#|no\.?)?\s*\d+|[(\[]\s*#?\s*\d+\s*[)\]]")
#: A year after a known name (``Reference 2024``): a version of the text, not a second one of several.
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")


def _name_parts(folded: str) -> tuple[str, str]:
    """A folded header as its first word and what follows it after a space (``("reference", "(fr)")``). Nothing is
    split off a word joined to it: ``Reference_1``, ``Reference_ID`` or ``Reference-free QE`` are no known names
    (metadata rows so headed above the table would be taken for its header row)."""
    first, _, rest = folded.partition(" ")
    return first, rest


def known_name(header: str, names: frozenset[str]) -> str:
    """``"exact"`` for a known name, ``"numbered"`` for one with a number (Reference 2, Reference (2), Reference #2),
    ``"qualified"`` for one with another qualifier (Candidate text, Référence approuvée), else ``""``."""
    folded = fold(header)
    if folded in names:
        return "exact"
    first, rest = _name_parts(folded)
    if first not in names or not rest:
        return ""
    return "numbered" if _NAME_NUMBER.fullmatch(rest) and not _YEAR.search(rest) else "qualified"


#: Languages as localisation teams tag columns (ISO 639-1), less the codes that are words there (``id``, ``no``,
#: ``is``, ``am``, ``be``, ``my``, ``so``, ``to``; ``mt``, machine translation), with a region (``pt-br``,
#: ``zh-hans``) or not; and their names, for the languages most translated into.
_LANGUAGE_CODES = (
    "af ar az bg bn bs ca cs cy da de el en es et eu fa fi fr ga gl gu he hi hr hu hy it ja ka kk km kn ko lo lt lv "
    "mk ml mn mr ms nb ne nl nn pl pt ro ru si sk sl sq sr sv sw ta te th tl tr uk ur uz vi zh zu"
)
_LANGUAGE_NAMES = (
    "english french german spanish italian portuguese dutch swedish danish finnish norwegian polish czech russian "
    "ukrainian greek turkish arabic hebrew japanese chinese korean thai vietnamese hindi indonesian "
    # as they name themselves, then in French and in Portuguese (folded: no accents), as this tool's users write
    "francais deutsch espanol italiano portugues nederlands svenska dansk suomi norsk polski cestina "
    "anglais allemand espagnol italien portugais neerlandais suedois danois finnois norvegien polonais tcheque "
    "russe ukrainien grec turc arabe hebreu japonais chinois coreen vietnamien indonesien "
    "ingles frances alemao espanhol holandes sueco dinamarques finlandes noruegues polones tcheco russo ucraniano "
    "grego turco hebraico japones chines coreano tailandes vietnamita indonesio"
)
_TAG_WORD = re.compile(
    rf"(?:(?:{'|'.join(_LANGUAGE_CODES.split())})(?:[-_](?:[a-z]{{2,4}}|\d{{3}}))?|{'|'.join(_LANGUAGE_NAMES.split())}"
    r"|v\d+(?:\.\d+)*|[a-z]|(?:19|20)\d\d)"
)


def _qualifier_words(qualifier: str) -> list[str]:
    """The words of a qualifier, apart from brackets, slashes, commas, colons and dashes between words (``- FR``,
    ``– v2``); a dash inside a word stays (``pt-BR``)."""
    return [w for w in re.split(r"[\s()\[\]/,:\u2013\u2014]+", qualifier) if w and w.strip("-")]


def _tag(word: str) -> bool:
    """Whether a word of a qualifier tags a header: a language, a version, a year, a letter or a number."""
    return bool(_TAG_WORD.fullmatch(word) or _NAME_NUMBER.fullmatch(word))


def tagged_columns(headers: Sequence[str], names: frozenset[str], columns: Iterable[int]) -> list[int]:
    """The ``columns`` whose header is a known name tagged with a language, a version, a year or a letter (``Reference
    (FR)``, ``Reference fr-FR``, ``Candidate v2 (FR)``, ``Reference B``): beside the plain or numbered name, texts of
    the same role, of which the one meant is not said; a year (``Reference 2024``) is a version too. Other words
    (``(old)``, ``(ID)``, ``notes``) tag nothing."""
    found = []
    for i in columns:
        if known_name(headers[i], names) != "qualified":
            continue
        words = _qualifier_words(_qualifier(headers[i]))
        if words and all(_tag(w) for w in words):
            found.append(i)
    return found


#: A known name joined to what follows it by a mark, not a space (``reference_fr``, ``reference-2``, ``reference(fr)``).
_JOINED = re.compile(r"([^\s_.:/\-(\[]+)(?:[_.:/\-]+|(?=[(\[]))(.+)")


def joined_tagged_columns(headers: Sequence[str], names: frozenset[str], columns: Iterable[int]) -> list[int]:
    """The ``columns`` whose header joins a known name to a tag or a number with a mark (``Reference_fr``,
    ``Reference-FR``, ``Reference(FR)``, ``Reference_2``): no known names (a header row is never found by them, as
    metadata rows are so headed), but beside the plain name, texts of the same role of which the one meant is not
    said. ``Reference_ID`` and ``Reference-free QE`` tag nothing."""
    found = []
    for i in columns:
        joined = _JOINED.fullmatch(fold(headers[i]))
        if joined is None or joined[1] not in names:
            continue
        words = _qualifier_words(joined[2])
        if words and all(_tag(w) or all(_tag(part) for part in w.split("_")) for w in words):
            found.append(i)
    return found


def _role(value: Any) -> str:
    """``"candidate"`` or ``"reference"`` for a cell that holds a known name of one as a header does (a few words:
    ``Reference (FR)``, not a sentence that begins with the word), else ``""``."""
    if type(value) is not str or not _NAME_START.match(value):
        return ""
    text = header_text(value)
    if len(text) > HEADER_NAME_LENGTH or len(text.split()) > HEADER_NAME_WORDS:
        return ""
    if known_name(text, CANDIDATE_NAMES):
        return "candidate"
    return "reference" if known_name(text, REFERENCE_NAMES) else ""


#: The number of a numbered name, before its qualifier.
_NUMBER_FIRST = re.compile(r"^(?!(?:19|20)\d\d(?!\d))\d+(?:\s+|$)")  # not a year: that says which version


def _qualifier(value: Any) -> str:
    """What a header holding a known name says after the name (``(fr)`` of ``Reference (FR)``; nothing of
    ``Reference 2``): a table's headers share it, a translation's texts do not."""
    rest = _name_parts(fold(header_text(value)))[1]
    return _NUMBER_FIRST.sub("", rest)  # "Reference 2 (FR)" is "Reference (FR)" numbered


#: A qualifier that tags a header rather than says something: a language or a number, bracketed or not (``(fr)``,
#: ``[pt-br]``, ``pt-BR``, ``v2``).
_TAG = re.compile(r"[(\[](?:[a-z]{2,3}(?:[-_][a-z]{2,4})?|v?\d+)[)\]]|v?\d+|[a-z]{2}[-_][a-z]{2}")


def _headers_alike(row: list[Any], columns: Sequence[int]) -> bool:
    """Whether the names are all that tells the cells apart: each says the same after its name, or only a tag."""
    qualifiers = {_qualifier(row[c]) for c in columns}
    return len(qualifiers) == 1 or all(not q or _TAG.fullmatch(q) for q in qualifiers)


def headers_again(sheet: Sheet, layout: Layout, columns: Sequence[int], data: Sequence[int]) -> list[int]:
    """The data rows that hold a known name of each role in every column used (``columns``: the candidate's, then
    the references'), in the same roles: another table's header row below the first (``Candidate (FR)`` over the
    candidates). Such a row with the roles crossed (``Reference`` over the candidates, ``Candidate`` over a
    reference) is refused: that table's rows would be scored backwards. A row is taken for headers only when the
    names are all that tells its cells apart (``Reference (FR)``, ``Candidate (FR)``): a pair such as ``Reference
    check completed`` and ``Candidate reference check completed`` (recruiting copy, a glossary) is a pair."""
    rows, candidate = sheet.rows, columns[0]
    same: list[int] = []
    for r in data:
        row = rows[r]
        if candidate >= len(row) or type(value := row[candidate]) is not str or value[:1] not in _NAME_FIRST:
            continue  # most texts begin with no letter a name begins with
        if not (first := _role(value)):
            continue
        roles = {c: role for c, cell in enumerate(row) if (role := _role(cell))}
        used = [roles.get(c, "") for c in columns[1:]]
        if all(used) and _headers_alike(row, columns):
            if first == "candidate" and all(role == "reference" for role in used):
                same.append(r)
                continue
            if first == "reference" and "candidate" in used:
                _refuse_second_table(sheet, layout, r, columns, "the roles the other way round", "scored backwards")
        holding = list(roles)
        if (
            set(roles.values()) == {"candidate", "reference"}
            and first == "reference"  # the candidates' column headed as references: the columns moved
            and len({fold(header_text(row[c])) for c in holding}) == len(holding)  # a header row names each once
            and _headers_alike(row, holding)
        ):
            _refuse_second_table(sheet, layout, r, holding, "in other columns", "read in the wrong columns")
    return same


def _refuse_second_table(sheet: Sheet, layout: Layout, r: int, columns: Sequence[int], how: str, read: str) -> None:
    """Refuse a second table below the first whose header row (``r``) puts the names ``how`` it says."""
    row = sheet.rows[r]
    apart = "in a file of its own" if sheet.is_text else "on a sheet of its own"
    held = ", ".join(
        f"{header_text(row[c])!r} over {layout.name(c) if c < len(layout.headers) else column_letter(c)}"
        for c in columns
    )
    raise InputError(
        f"sheet {sheet.name!r}: row {r + 1} holds headers again, {how} ({held}): a second table, whose rows would be "
        f"{read}; put it {apart}, or give ",
        Setting("header_row", r + 1),
        " to score it alone",
    )


def banner_rows(sheet: Sheet, header_row: int, columns: Sequence[int]) -> list[int]:
    """The rows above the header row that name the role of each column used (``columns``: the candidate's, then the
    references'), as a banner of qualified names over the header row does (``Candidate copy (agency)`` over
    ``Candidate``): repeated on every printed page, such a row is a header too, never a pair."""
    roles = ["candidate"] + ["reference"] * (len(columns) - 1)
    return [
        r
        for r, row in enumerate(sheet.rows[:header_row])
        if all(c < len(row) and _role(row[c]) == role for c, role in zip(columns, roles))
    ]


def repeated_header_rows(sheet: Sheet, header_row: int, columns: Sequence[int], data: Sequence[int]) -> list[int]:
    """The data rows whose cells in ``columns`` (the candidate's and the references') repeat the header row's
    texts (compared as headers are: trimmed, any case and accents): a second table stacked below the first, never a
    pair to score; so is a row whose candidate cell repeats its header among more than half of the header row's
    texts (that table's header row with a column renamed, ``Reference (FR)``, or one added). None when a column
    has no header, or when only one column is read."""
    rows = sheet.rows
    heads = [fold(header_text(rows[header_row][c])) if c < len(rows[header_row]) else "" for c in columns]
    if len(columns) < 2 or not all(heads):
        return []
    first, head = columns[0], heads[0]
    texts = [(c, fold(text)) for c, v in enumerate(rows[header_row]) if (text := header_text(v))]
    alien = _alien_to(head)
    found = []
    for r in data:
        row = rows[r]
        value = row[first] if first < len(row) else None
        if value is None or (type(value) is str and alien.search(value)) or fold(header_text(value)) != head:
            continue
        every = all(c < len(row) and fold(header_text(row[c])) == h for c, h in zip(columns[1:], heads[1:]))
        if every or 2 * sum(1 for c, h in texts if c < len(row) and fold(header_text(row[c])) == h) > len(texts):
            found.append(r)
    return found


def _alien_to(head: str) -> re.Pattern[str]:
    """A search for a character that rules out a text folding to ``head``: an ASCII character that is not
    whitespace and whose lower case ``head`` lacks. Folding keeps every such character (NFKD leaves ASCII as it is
    and only adds characters, case folding lowers A-Z alone, and only whitespace is dropped), so one search in C
    ends almost every candidate, where folding each one that is not ASCII was most of the time the column rules
    take on a large sheet (a test holds the two ways equal)."""
    alien = "".join(c for c in map(chr, range(128)) if not c.isspace() and c.lower() not in head)
    return re.compile(f"[{re.escape(alien)}]" if alien else "(?!)")


#: Labels of a totals row typed by hand, folded as headers are (lower case, no accents), a colon after them dropped.
TOTALS_LABELS = frozenset(
    [
        "total",
        "totals",
        "grand total",
        "subtotal",
        "sub-total",
        "sum",
        "somme",
        "sous-total",
        "soma",
        "totale",
        "suma",
        "summe",
        "gesamt",
        "insgesamt",
        "totaal",
        "totaux",
        "合计",
        "合計",
        "総計",
        "합계",
        # a count of the candidates (=COUNTA) labelled as one
        "count",
        "number",
        "nombre",
        "anzahl",
        "cantidad",
        "contagem",
        "quantidade",
        "conteggio",
        "numero",
        "aantal",
        "件数",
        "個数",
        "数量",
        "计数",
        "개수",
    ]
)
#: How the label of a totals row typed by hand can begin, a word after it (``Number of variants``, ``Total FR``).
TOTALS_PREFIXES = (
    "total ",
    "totals ",
    "count ",
    "number of ",
    "nombre de ",
    "nombre d'",
    "anzahl ",
    "cantidad de ",
    "numero de ",
    "quantidade de ",
    "numero di ",
    "aantal ",
)


def typed_totals_row(sheet: Sheet, layout: Layout, data: Sequence[int]) -> tuple[int, tuple[Part, ...]] | None:
    """The last data row when it is a totals row typed by hand, and the note that says so: a number where the
    candidates are (a count of them, ``=COUNTA``), and a totals label (``Total``) as its reference, or, its
    reference blank or given otherwise (a labelled cell, a text), in another cell. A row whose reference is a text
    or a number is a pair like the others (the ``Total`` field of an invoice, 118 against 118)."""
    rows = sheet.rows
    last = next((r for r in reversed(data) if any(header_text(v) for v in rows[r])), None)
    if last is None:
        return None
    row, cand = rows[last], layout.candidate_col
    value = row[cand] if cand < len(row) else None
    if not (type(value) in (int, float) or (type(value) is str and _NUMBER_TEXT.fullmatch(value.strip()))):
        return None
    references = [header_text(row[c]) if c < len(row) else "" for c in layout.reference_cols]
    # A label that holds the candidate's own number is a question and its answer (Total 42 against 42), a pair.
    answer = float(value) if type(value) in (int, float) else min(_numbers_in(value) or {math.nan})

    def label(text: str) -> bool:
        return totals_label(text) and not any(math.isclose(found, answer) for found in _numbers_in(text))

    if any(references):
        labels = [text for text in references if text and label(text)]
        if len(labels) != len(references) - references.count(""):
            return None
    else:
        labels = [text for c, v in enumerate(row) if c != cand and (text := header_text(v)) and label(text)]
    if not labels:
        return None
    return last, (
        f"row {last + 1} ({labels[0]!r} and a number as its candidate) is a totals row: it is not a candidate, and "
        "is not scored",
    )


def reference_taken(layout: Layout) -> str:
    """What a message on a missing reference column adds when the candidates' column given is headed by a
    reference's name (``compare --a Reference``): that it was taken so."""
    header = layout.headers[layout.candidate_col] if layout.candidate_col < len(layout.headers) else ""
    return (
        f" ({layout.name(layout.candidate_col)} is the candidates' column given)"
        if header and known_name(header, REFERENCE_NAMES)
        else ""
    )


#: A number as a label writes it: digits in groups of three (1,234; 12 000; 1'234) or not, with a decimal part
#: (42.50, 42,50), not inside a word or another number (v2, Q1, v1.5), and a % after it if it is one.
_NUMBER = re.compile(
    r"(?<![\w.,])(?P<whole>\d{1,3}(?:[,.'\u00a0\u202f ]\d{3})+|\d+)(?:[.,](?P<part>\d+))?(?![\w]|[.,]\d)(?P<pct>\s?%)?"
)


def _numbers_in(text: str) -> set[float]:
    """The numbers a label writes, a percentage as a fraction (42% is 0.42)."""
    found: set[float] = set()
    for match in _NUMBER.finditer(text):
        number = float(re.sub(r"\D", "", match["whole"]) + "." + (match["part"] or "0"))
        found.add(number / 100 if match["pct"] else number)
    return found


def totals_label(text: str) -> bool:
    """Whether a cell's text is a totals row's label (``Total``, ``Summe:``, ``Count``, ``Number of variants``), as
    the rules fold it."""
    label = fold(text).rstrip(":").strip()
    return label in TOTALS_LABELS or (len(label) <= 40 and label.startswith(TOTALS_PREFIXES))


def past_header_notes(sheet: Sheet, layout: Layout) -> list[tuple[Part, ...]]:
    """A note on the rows of a text file with a field past its header row's last column and every column read: a
    delimiter inside a text not in quotes (``Free delivery, on every order``) shifts the cells after it, so that
    the row's reference or candidate may be part of another cell. A column of comments without a header does the
    same harmlessly; the note names the rows to look at."""
    if not sheet.is_text or layout.header_row is None:
        return []
    header = sheet.rows[layout.header_row]
    width = max(
        [len(header) - next((i for i, v in enumerate(reversed(header)) if header_text(v)), len(header))]
        + [c + 1 for c in (layout.candidate_col, *layout.reference_cols)]
    )
    found = [
        r
        for r in layout.data_rows(len(sheet.rows))
        if len(sheet.rows[r]) > width and any(header_text(v) for v in sheet.rows[r][width:])
    ]
    if not found:
        return []
    listed = ", ".join(str(r + 1) for r in found[:3]) + (f" and {len(found) - 3:,} more" if len(found) > 3 else "")
    which = f"row {listed} has a field" if len(found) == 1 else f"rows {listed} have fields"
    return [
        (
            f"{which} past the last column with a header ({column_letter(width - 1)}): a delimiter inside a text not "
            "in quotes shifts the cells after it; check that those rows' cells are in their columns",
        )
    ]
