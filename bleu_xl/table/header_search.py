"""The header-row search: which row of a sheet holds the headers, found by the names of the columns given or by
the known names of the candidate and reference columns (titles, banners and metadata rows above it skipped), or
none (every row data), or a refusal that says what to give when no row or two rows could be the one."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.errors import Setting
from .header_rows import CANDIDATE_NAMES, REFERENCE_NAMES, header_under_title, known_name
from .layout import ColumnNotFound, MissingColumn, NoColumnsFound, fold, header_listing, shortened
from .letters import HEADER_SEARCH_ROWS, holds_header
from .sheet import InputError, Sheet, column_index, column_letter

__all__ = ["find_header_row"]


def _has(texts: list[str], names: frozenset[str], *, exact: bool = False) -> bool:
    """Whether a row holds a known header (exact only, or also numbered and qualified ones)."""
    return any((known_name(t, names) == "exact") if exact else known_name(t, names) for t in texts if t)


def find_header_row(
    sheet: Sheet,
    search: tuple[int, list[list[str]]],
    letters: set[str],
    reference_cols: Sequence[str],
    candidate_col: str | None,
    reference_text: str | None,
    left_out: frozenset[int] = frozenset(),
) -> int | None:
    """The first row that holds the headers: every column given by name, and a known candidate and reference
    header where those are not given (so titles above are skipped). Without reference columns (a labelled
    reference cell above, as on the Rank sheet), the first row with a candidate header. ``None`` when the
    columns are given by letter and no row holds headers: every row is data. ``search``: the rows searched
    (:func:`search_rows`); ``letters``: the columns given that are letters, not headers' names."""
    start, texts = search
    given = [candidate_col, *reference_cols]
    named = [fold(spec) for spec in given if spec and spec not in letters]
    need_candidate = candidate_col is None
    need_reference = reference_text is None and not reference_cols
    all_by_letter = not (named or need_candidate or need_reference)
    found_by_names = need_candidate and need_reference  # both roles found by their names, none given
    if all_by_letter:  # a header row only if one has names (over the given columns, or anywhere)
        need_candidate, need_reference = True, reference_text is None

    # A column given by letter has a header too in the header row, and the other headers are in other columns:
    # so a title above ("Reference copy - spring campaign" in A1, nothing in the given column) is not taken.
    by_letter = {
        index for spec in given if spec and fold(spec) not in named and (index := column_index(spec)) is not None
    }

    def holds_named(row: list[str], strict: bool = True) -> bool:
        folded = {fold(t) for t in row if t}
        return all(spec in folded for spec in named) and (not strict or all(c < len(row) and row[c] for c in by_letter))

    def others(row: list[str]) -> list[str]:
        return row if all_by_letter else [t for c, t in enumerate(row) if c not in by_letter]

    # Strictly first; then, for a given column with no header over it, a row of several headers with an exact
    # candidate or reference header (a qualified one, "Reference copy - spring campaign", is a title).
    def holdsknown_name(row: list[str], exact: bool, strict: bool = True) -> bool:
        return (
            holds_named(row, strict)
            and (not need_candidate or _has(others(row), CANDIDATE_NAMES, exact=exact))
            and (not need_reference or _has(others(row), REFERENCE_NAMES, exact=exact))
        )

    for strict in (True, False) if by_letter else (True,):
        for i, row in enumerate(texts, start):
            if holdsknown_name(row, not strict, strict) and (strict or sum(1 for t in row if t) >= 2):
                # A banner of qualified names ("Candidate copy (agency)") over the row of exact ones: an exact
                # name wins, and the row under the banner is the header row, not a pair to score.
                below = texts[i + 1 - start] if i + 1 - start < len(texts) else []
                if strict and not holdsknown_name(row, True) and holdsknown_name(below, True):
                    return i + 1
                if strict and not holdsknown_name(row, True) and found_by_names:
                    # Higher up, with rows between: a banner over a note, a metadata block (Reference # over 12).
                    exact = next(
                        (
                            j
                            for j in range(i + 2, start + len(texts))
                            if holdsknown_name(texts[j - start], True) and _under_names(sheet, i, row, texts[j - start])
                        ),
                        None,
                    )
                    if exact is not None:
                        return _under_banner(sheet, texts[i - start : exact - start + 1], i, exact, left_out)
                return i
    if reference_text is None and not reference_cols:  # a reference labelled above the headers?
        for exact in (True, False):
            for i, row in enumerate(texts, start):
                if holds_named(row) and (not need_candidate or _has(others(row), CANDIDATE_NAMES, exact=exact)):
                    return i
    if candidate_col is not None and not named and (reference_cols or reference_text is not None):
        # Every column given by letter: the first row is their headers when it holds a header's text over each
        # (not a number), and so is such a row under a title when it reads as headers; only no_header scores it.
        return (
            header_under_title(sheet, start, sorted(by_letter), HEADER_SEARCH_ROWS, reference_text)
            if by_letter
            else None
        )
    # The headers to show: the first row holding a known name, else the fullest row (not a title above them).
    shown = (
        next((row for row in texts if _has(row, CANDIDATE_NAMES)), None)
        or next((row for row in texts if _has(row, REFERENCE_NAMES)), None)
        or max(texts, key=lambda row: sum(1 for t in row if t), default=[])
    )
    if not any(_has(row, CANDIDATE_NAMES) or _has(row, REFERENCE_NAMES) for row in texts) and not any(
        holds_header(row, spec) for row in texts for spec in given if spec
    ):
        raise NoColumnsFound(
            f"sheet {sheet.name!r}: no candidate or reference column; headers found: {header_listing(shown)}; ",
            "give them with ",
            Setting("candidate_col"),
            " and ",
            Setting("reference_cols"),
            " (a letter or a header)",
        )
    for spec, what in [(candidate_col, "candidate"), *((s, "reference") for s in reference_cols)]:
        if spec and column_index(spec) is None and not any(holds_header(row, spec) for row in texts):
            raise ColumnNotFound(sheet.name, what, spec, shown)
    raise MissingColumn(
        f"sheet {sheet.name!r}: no candidate column; headers found: {header_listing(shown)}; give it with ",
        Setting("candidate_col"),
        " (a letter or a header)",
    )


#: The kinds of known names (:func:`known_name`): all of them, the exact ones, and those a header row scores.
_ANY = ("exact", "numbered", "qualified")
_EXACT = ("exact",)
_SCORED = ("exact", "numbered")  # "Reference 2" too: several references; not "Reference notes"


def _role_columns(row: list[str], names: frozenset[str], kinds: tuple[str, ...] = _ANY) -> set[int]:
    """The columns of a row whose text is a known name of a role (``names``) of one of ``kinds``."""
    return {c for c, t in enumerate(row) if t and known_name(t, names) in kinds}


def _under_names(sheet: Sheet, upper: int, names: list[str], lower: list[str]) -> bool:
    """Whether the exact names of a lower row stand under the upper row's names of the same role (a cell of its
    own, or one merged across them): a table's header row under a banner or a metadata row, not a row of data that
    holds the words (raters' ``Reference`` and ``Candidate`` in other columns)."""
    for role in (CANDIDATE_NAMES, REFERENCE_NAMES):
        held = _role_columns(lower, role, _EXACT)
        if not held or not held <= _spanned(sheet, upper, _role_columns(names, role)):
            return False
    return True


def _spanned(sheet: Sheet, row: int, columns: set[int]) -> set[int]:
    """The columns under cells of ``row``: each cell's own, and those a cell merged across them spans."""
    spans = {m.left: range(m.left, m.right + 1) for m in sheet.merged if m.top <= row <= m.bottom}
    return {c for left in columns for c in spans.get(left, (left,))}


def _under_banner(sheet: Sheet, texts: list[list[str]], banner: int, exact: int, left_out: frozenset[int]) -> int:
    """The header row where a row of qualified names (``banner``: ``Candidate 2024``, ``Reference #``) stands above
    a row of exact ones (``exact``; ``texts``: the rows from one to the other), with rows between: the exact one,
    when no row between holds a pair under the banner's names (a banner or a metadata row over a note, a blank
    row). Otherwise either row may head the table: the first one over a few pairs and a second table's header, or
    the second under a block of metadata (``Reference # | Candidate #`` over ``12 | 14``) whose values would be
    scored as a pair. That is refused, naming both rows. ``left_out``: rows scored under neither (hidden ones, when
    they are skipped)."""
    head, lower = texts[0], texts[-1]
    # The columns each reading takes for the roles: the banner's named cells, or the names the exact row scores.
    readings = [
        (_role_columns(head, CANDIDATE_NAMES), _role_columns(head, REFERENCE_NAMES)),
        (_role_columns(lower, CANDIDATE_NAMES, _SCORED), _role_columns(lower, REFERENCE_NAMES, _SCORED)),
    ]

    # Text under both roles of a reading is a pair, even one that reads as names (a second banner, or recruiting
    # copy: "Reference check pending | Candidate reference check pending" cannot be told from it).
    def pair(row: list[str]) -> bool:
        return any(
            any(c < len(row) and row[c] for c in candidates) and any(c < len(row) and row[c] for c in references)
            for candidates, references in readings
        )

    # Rows left out (hidden ones, with skip_hidden) are scored under neither row.
    paired = [r for r, row in enumerate(texts[1:-1], banner + 1) if r not in left_out and pair(row)]
    if not paired:
        return exact

    def named(row: list[str]) -> str:
        return ", ".join(
            f"{column_letter(c)} {shortened(t, 40)!r}"
            for c, t in enumerate(row)
            if t and known_name(t, CANDIDATE_NAMES | REFERENCE_NAMES)
        )

    hidden = sum(1 for r in paired if r in sheet.hidden_rows)
    between = f"row {paired[0] + 1}" if len(paired) == 1 else f"rows {paired[0] + 1} to {paired[-1] + 1}"
    if hidden:
        between += f" ({'hidden' if hidden == len(paired) else f'{hidden} of them hidden'})"
    raise InputError(
        f"sheet {sheet.name!r}: rows {banner + 1} ({named(head)}) and {exact + 1} ({named(lower)}) both read as the "
        f"header row, and {between} between them {'holds' if len(paired) == 1 else 'hold'} a reference and a "
        "candidate, scored or left out as one or the other heads the table; say which: ",
        Setting("header_row", banner + 1),
        " or ",
        Setting("header_row", exact + 1),
    )
