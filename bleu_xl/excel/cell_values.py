"""What one cell holds, as bleu-xl reads it: text, blank or an error, a setting typed in a cell, an error result.

Every Excel face hands xlwings' values to ``cells``; this is the part of that layer that looks at one value at a
time. Standard library only (the Lite bundle embeds it).
"""

from __future__ import annotations

import datetime as dt
import decimal
import math
import sys
from dataclasses import dataclass
from typing import Any

from ..core.errors import BleuXlError
from ..core.metrics.bleu import MAX_ORDER, SMOOTHING_METHODS
from ..core.metrics.chrf import MAX_BETA, MAX_CHAR_ORDER, MAX_WORD_ORDER

Grid = list[list[Any]]

#: Excel's error values as pywin32 hands them over (ints: each XlCVError number, xlErrDiv0 = 2007 and on, as an
#: HRESULT, 2007 - 2146828288) and as their text.
ERROR_CODES = {
    -2146826281: "#DIV/0!",
    -2146826246: "#N/A",
    -2146826259: "#NAME?",
    -2146826288: "#NULL!",
    -2146826252: "#NUM!",
    -2146826265: "#REF!",
    -2146826273: "#VALUE!",
    -2146826245: "#GETTING_DATA",
    -2146826243: "#SPILL!",
    -2146826242: "#CONNECT!",
    -2146826241: "#BLOCKED!",
    -2146826240: "#UNKNOWN!",
    -2146826239: "#FIELD!",
    -2146826238: "#CALC!",
}
ERROR_TEXTS = frozenset([*ERROR_CODES.values(), "#BUSY!", "#PYTHON!", "#EXTERNAL!", "#TIMEOUT!"])
#: The COM numbers of Excel's errors, past those named: any in this range is an error (pywin32 hands every number a
#: cell holds over as a float, so an int is an error).
ERROR_NUMBERS = range(-2146828288 + 2000, -2146828288 + 2100)
#: The errors a custom function can give back to Excel (Office.js's CustomFunctions.ErrorCode): xlwings Lite
#: hands any other as text.
RETURNABLE_ERRORS = frozenset(["#DIV/0!", "#N/A", "#NAME?", "#NULL!", "#NUM!", "#REF!", "#VALUE!"])
EXCEL_MAX_TEXT = 32_767  # UTF-16 code units in a cell: a character past U+FFFF (an emoji) takes two
MAX_SAMPLES = 100_000  # bounds time, not memory: resamples come one at a time


@dataclass(frozen=True, slots=True)
class CellError:
    """An error result: an input cell's error (``#N/A``) carried through, or ``#VALUE!`` with a short message.

    Each face shows it its own way (``faces``): the classic add-in as its text (``#VALUE! reference is blank``),
    xlwings Lite as a real Excel error, a scored workbook as an error cell.
    """

    code: str
    message: str = ""

    @property
    def text(self) -> str:
        """The error as a classic cell shows it: the code, then the message."""
        return f"{self.code} {self.message}" if self.message else self.code

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Blank:
    """A result with nothing to show: a blank candidate, or no pair to score. Every face shows an empty cell."""


class CellProblem(BleuXlError):
    """A problem with the input that becomes a ``#VALUE! ...`` result."""


class PassError(BleuXlError):
    """An error value in an input cell (#N/A...) that becomes the whole result."""

    def __init__(self, error: CellError) -> None:
        super().__init__(error.text)
        self.error = error


def fit_cell(text: str, limit: int = EXCEL_MAX_TEXT) -> str:
    """Text cut to what an Excel cell holds: ``limit`` UTF-16 code units (a character past U+FFFF, an emoji, takes
    two), never between the two halves of one character."""
    if len(text) <= limit // 2:  # two units a character at most: fits
        return text
    units = 0
    for i, ch in enumerate(text):
        units += 2 if ord(ch) > 0xFFFF else 1
        if units > limit:
            return text[:i]
    return text


def value_error(message: str) -> CellError:
    return CellError("#VALUE!", message)


# --- one cell ---------------------------------------------------------------------------------------------------


#: Excel writes a number as text with at most 15 significant digits, in plain decimals when that takes at most 20
#: characters (sign aside), else in scientific notation (``1.23456789012346E-05``), which keeps to 20 as well: 14
#: digits once the exponent has three. As Apache POI's NumberToTextConverter documents it, measured in Excel.
SIGNIFICANT_DIGITS = 15
PLAIN_MAX_CHARS = 20


def general_format(number: float) -> str:
    """A number as Excel writes it into text (``=A1&""``, the formula bar): 2026.0 -> "2026", 0.5 -> "0.5",
    0.00001 -> "0.00001", 1/3 -> "0.333333333333333", 1e-10 -> "0.0000000001", 1e21 -> "1E+21"."""
    if math.isnan(number) or math.isinf(number):
        return str(number)
    if abs(number) < sys.float_info.min:  # zero, and the subnormal numbers Excel shows as 0
        return "0"
    if number == int(number) and abs(number) < 1e15:
        return str(int(number))
    exact = decimal.Decimal(number)  # the double's exact value, rounded once, half up, as Excel rounds
    digits = SIGNIFICANT_DIGITS - (abs(exact.adjusted()) >= 99)  # a three-digit exponent takes a digit's place
    rounded = decimal.Context(prec=digits, rounding=decimal.ROUND_HALF_UP).plus(abs(exact))
    shown = "".join(map(str, rounded.as_tuple().digits)).rstrip("0")
    exponent = rounded.adjusted()  # 10 to this is the first digit's place
    sign = "-" if number < 0 else ""
    if 0 <= exponent < PLAIN_MAX_CHARS:
        whole, fraction = shown[: exponent + 1], shown[exponent + 1 :]
        return sign + whole.ljust(exponent + 1, "0") + ("." + fraction if fraction else "")
    if exponent < 0 and 2 + (-exponent - 1) + len(shown) <= PLAIN_MAX_CHARS:  # "0." then the zeros and the digits
        return f"{sign}0.{'0' * (-exponent - 1)}{shown}"
    mantissa = shown[0] + ("." + shown[1:] if len(shown) > 1 else "")
    return f"{sign}{mantissa}E{'+' if exponent >= 0 else '-'}{abs(exponent):02d}"


#: The day COM (the classic add-in's Excel) dates a time of day on: a serial below 1 is a time, shown as one (the
#: 30 December 1899 of OLE Automation; Excel has no such date to show), so it is scored as the time, as a
#: workbook's time cell is.
EXCEL_DAY_ZERO = dt.date(1899, 12, 30)


def cell_text(value: Any) -> str | CellError | None:
    """The text of one cell as bleu-xl scores it; ``None`` for a blank cell, a :class:`CellError` for an error."""
    if value is None:
        return None
    if isinstance(value, CellError):
        return value
    if isinstance(value, str):
        if value in ERROR_TEXTS:
            return CellError(value)
        return str(value) if value.strip() else None  # str(): a subclass (numpy.str_) is plain text here
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        if value in ERROR_NUMBERS:
            return CellError(ERROR_CODES.get(value, "#UNKNOWN!"))
        return str(value)
    if isinstance(value, float):
        return general_format(value)
    if isinstance(value, dt.datetime):
        if value.date() == EXCEL_DAY_ZERO:  # a time of day: Excel's serial below 1, as COM dates it
            return value.time().isoformat(timespec="seconds")
        if value.time() == dt.time(0):
            return value.date().isoformat()
        return value.isoformat(sep=" ", timespec="seconds")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return duration_text(value)
    if isinstance(value, dt.time):  # to the second, as a date-time is and as Excel shows it (=MOD(NOW(),1))
        return value.isoformat(timespec="seconds")
    return str(value)


def duration_text(value: dt.timedelta) -> str:
    """A duration as Excel's ``[h]:mm:ss`` shows it, to the nearest second: 1.5 days -> ``36:00:00``."""
    micro = value // dt.timedelta(microseconds=1)
    seconds, rest = divmod(abs(micro), 1_000_000)
    seconds += rest >= 500_000
    hours, rest = divmod(seconds, 3600)
    return f"{'-' if micro < 0 else ''}{hours}:{rest // 60:02d}:{rest % 60:02d}"


def as_grid(value: Any) -> Grid:
    """A cell value or range as a list of row lists (a flat sequence is one row, as xlwings reads it)."""
    if isinstance(value, (list, tuple)):
        if not value:
            return [[None]]
        if isinstance(value[0], (list, tuple)):
            return [list(row) for row in value]
        return [list(value)]
    return [[value]]


# --- settings given in cells ----------------------------------------------------------------------------------


def setting(value: Any, name: str, default: Any) -> Any:
    """The value of a one-cell setting, ``default`` when it is blank or left out; an error cell in it
    (``=BLEU(ref, cand, #N/A)``) becomes the whole result, never the default, and a range of several cells is
    refused."""
    if isinstance(value, (list, tuple)):
        grid = as_grid(value)
        if len(grid) != 1 or len(grid[0]) != 1:
            raise CellProblem(f"{name} must be a single cell")
        value = grid[0][0]
    if isinstance(text := cell_text(value), CellError):
        raise PassError(text)
    return default if value is None or value == "" else value


def parse_whole(value: Any, default: int, name: str, low: int = 1, high: int | None = None) -> int:
    """A whole number typed in a cell (Excel hands over 4.0); blank or omitted gives ``default``."""
    value = setting(value, name, default)
    whole = not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value)
    if not whole or value != int(value) or value < low or (high is not None and value > high):
        limits = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise CellProblem(f"{name} must be a whole number {limits}")
    return int(value)


def parse_max_n(value: Any, default: int = 2) -> int:
    """The longest n-gram, 1 to 9; blank or omitted gives ``default`` (BLEU-2's 2, BLEU-N's 4)."""
    return parse_whole(value, default, "max_n", 1, MAX_ORDER)


def parse_char_order(value: Any) -> int:
    """chrF's longest character n-gram, 1 to 9; blank or omitted gives 6."""
    return parse_whole(value, 6, "char_order", 1, MAX_CHAR_ORDER)


def parse_word_order(value: Any) -> int:
    """chrF's longest word n-gram, 0 to 9 (2 is chrF++); blank or omitted gives 0."""
    return parse_whole(value, 0, "word_order", 0, MAX_WORD_ORDER)


def parse_beta(value: Any) -> int:
    """chrF's beta (recall counts beta times as much as precision), 1 to 9; blank or omitted gives 2."""
    return parse_whole(value, 2, "beta", 1, MAX_BETA)


def parse_smoothing(value: Any) -> str:
    value = setting(value, "smoothing", "add1")
    text = str(value).strip().lower()
    if text not in SMOOTHING_METHODS:
        raise CellProblem(f"smoothing must be {' or '.join(SMOOTHING_METHODS)}")
    return text


def parse_flag(value: Any, name: str) -> bool:
    """A flag typed in a cell, as every function reads one: TRUE or FALSE (or 1 or 0, or the text TRUE or FALSE in
    any case); blank or omitted is FALSE. Anything else (``"maybe"``, ``"yes"``, 2, NaN) is refused, never read as
    either: a word or a number in a flag's place is more likely a mistake (another argument's value) than a
    choice."""
    value = setting(value, name, False)
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().upper() in ("TRUE", "FALSE"):
        return value.strip().upper() == "TRUE"
    raise CellProblem(f"{name} must be TRUE or FALSE")


def parse_level(value: Any) -> float:
    value = setting(value, "level", 0.95)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1:
        raise CellProblem("level must be between 0 and 1, e.g. 0.95")
    return float(value)


def parse_samples(value: Any, low: int = 1) -> int:
    """Bootstrap resamples, ``low`` to :data:`MAX_SAMPLES` (a paired test takes more than an interval); blank or
    omitted gives 1,000."""
    return parse_whole(value, 1000, "samples", low, MAX_SAMPLES)
