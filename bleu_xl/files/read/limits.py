"""The limits every reader of a user's file holds to, whatever the file claims about itself."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...core.errors import Setting
from ...table.sheet import InputError

__all__ = ["DEFAULT_LIMITS", "ReadLimits", "parse_size", "size_text"]

MAX_UNCOMPRESSED = 1 << 30  # bytes a workbook may unpack to
MAX_TEXT_BYTES = 1 << 30  # bytes of a text file or of standard input
MAX_RATIO = 100  # unpacked over packed: past it, a zip bomb
#: Cells of the dense grid the reader builds (rows x columns of the real extent): about 1.3 GB at most in the
#: reader and its Python lists, and Excel's 1,048,576 rows with 19 columns still fit.
MAX_CELLS = 20_000_000
#: The most memory reading may be given: 128 TiB, all that a process can address on today's 64-bit machines (the
#: operating system's limit takes no more). Past it, and past a day of reading, a limit is no limit: refused.
MAX_READ_MEMORY = 2**47
MAX_READ_SECONDS = 86_400
SCAN_CHUNK = 1 << 22  # bytes of XML looked at a time

_UNITS = {"": 1, "b": 1, "k": 10**3, "kb": 10**3, "m": 10**6, "mb": 10**6, "g": 10**9, "gb": 10**9}
_UNITS |= {"kib": 2**10, "mib": 2**20, "gib": 2**30, "t": 10**12, "tb": 10**12, "tib": 2**40}
_SIZE = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([a-zA-Z]*)\s*")


@dataclass(frozen=True)
class ReadLimits:
    """How much memory (bytes) and time (seconds) reading one input may take, as the operating system enforces
    them: a workbook is read in a child process that is stopped past either; a text file is parsed under the
    memory limit. ``isolate=False`` reads a workbook in this process, unbounded (for measurements)."""

    memory: int = 2 * 10**9
    seconds: float = 60.0
    isolate: bool = True

    def __post_init__(self) -> None:
        memory, seconds = self.memory, self.seconds
        if isinstance(memory, bool) or not isinstance(memory, int) or not 0 < memory <= MAX_READ_MEMORY:
            raise InputError(
                f"{memory!r} bytes: reading takes more than 0 and at most {size_text(MAX_READ_MEMORY)} (all a "
                "process can address); give a size such as 2GB (",
                Setting("read_memory"),
                ")",
            )
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 < seconds <= MAX_READ_SECONDS:
            raise InputError(
                f"{seconds!r} seconds: reading takes more than 0 and at most {MAX_READ_SECONDS:,} (a day); give "
                "a number of seconds such as 60 (",
                Setting("read_time"),
                ")",
            )

    def describe(self) -> str:
        """``2 GB / 60 s``: the limits as a message shows them."""
        return f"{size_text(self.memory)} / {self.seconds:g} s"


DEFAULT_LIMITS = ReadLimits()


#: The units a message gives a size in, as users write them (``--read-memory 500MB``): decimal, as parse_size reads
#: KB, MB, GB and TB.
_SHOWN_UNITS = (("KB", 10**3), ("MB", 10**6), ("GB", 10**9), ("TB", 10**12))


def size_text(size: int) -> str:
    """A size as a message gives it: ``1 byte``, ``999 bytes``, then three significant digits of the largest unit
    that keeps them below 1,000 (``1.5 KB``, ``1 MB`` for 999,999 bytes, ``2 GB``, ``141 TB``)."""
    if size < 1000:
        return "1 byte" if size == 1 else f"{size} bytes"
    for unit, factor in _SHOWN_UNITS:
        shown = f"{size / factor:.3g}"
        if float(shown) < 1000:
            return f"{shown} {unit}"
    return f"{size / 10**12:,.0f} TB"


def parse_size(text: str) -> int:
    """A size as people write it: ``2GB``, ``500 MB``, ``1.5GiB``, ``4096`` (bytes)."""
    found = _SIZE.fullmatch(text)
    unit = found.group(2).lower() if found else ""
    if found is None or unit not in _UNITS:
        raise InputError(f"{text!r} is not a size; write it as 2GB, 500MB or 1.5GiB (", Setting("read_memory"), ")")
    size = int(float(found.group(1)) * _UNITS[unit])
    if size > MAX_READ_MEMORY:
        raise InputError(
            f"{text!r} is more memory than a process can address (at most {size_text(MAX_READ_MEMORY)}); give a "
            "size such as 2GB or 500MB (",
            Setting("read_memory"),
            ")",
        )
    if size <= 0:
        raise InputError(
            f"{text!r} is no room to read in; give a size such as 2GB or 500MB (", Setting("read_memory"), ")"
        )
    return size
