"""The command's standard streams: user text made safe for a terminal, closed and broken streams, rich's console."""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
from typing import Any, NoReturn

import click

from .. import BleuXlError

__all__ = [
    "CLOSED_AT_START",
    "EXIT_CLOSED_PIPE",
    "EXIT_INPUT",
    "Failure",
    "closed_pipe",
    "console",
    "echo",
    "printable",
    "standard_streams",
]

EXIT_INPUT = 2
EXIT_CLOSED_PIPE = 141  # 128 + SIGPIPE: what a shell shows for a command a closed pipe ended
# C0 and C1 controls (ESC starts terminal escapes: window titles, OSC-8 links) and the bidirectional overrides.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escaped(char: str) -> str:
    if "\udc80" <= char <= "\udcff":  # a byte of a file name that is not UTF-8, as Python keeps it
        return f"\\x{ord(char) - 0xDC00:02x}"
    return char.encode("unicode_escape").decode("ascii")


def printable(text: str) -> str:
    """User text made safe for a terminal: control characters shown escaped (``\\x1b``, ``\\n``), and the bytes
    of a name that is not UTF-8 as ``\\xe9``."""
    return _CONTROL.sub(lambda m: _escaped(m.group()), text)


def echo(text: str, *, err: bool = False) -> None:
    click.echo(printable(text), err=err)


class Failure(BleuXlError, click.ClickException):
    """One line on standard error and exit code 2, never a traceback (click shows it where it parses options)."""

    exit_code = EXIT_INPUT

    def __init__(self, message: str) -> None:
        BleuXlError.__init__(self, message)
        self.message = message

    def show(self, file: Any = None) -> None:
        echo(f"bleu-xl: error: {self.message}", err=True)


#: The standard streams that were closed when the command started (each now /dev/null, so that no file the
#: command opens takes their place).
CLOSED_AT_START: set[int] = set()


def standard_streams() -> None:
    """Open /dev/null where standard input, output or error is closed (``2>&-``), so that the next file opened
    does not become one of them, and write text to the terminal in any locale (what cannot be shown is escaped)."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            CLOSED_AT_START.add(fd)
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
    if 0 in CLOSED_AT_START and sys.stdin is None:
        sys.stdin = open(0, errors="surrogateescape", closefd=False)  # noqa: SIM115 - for the whole run
    if 1 in CLOSED_AT_START and sys.stdout is None:
        sys.stdout = open(1, "w", errors="backslashreplace", closefd=False)  # noqa: SIM115 - for the whole run
    if 2 in CLOSED_AT_START and sys.stderr is None:
        sys.stderr = open(2, "w", errors="backslashreplace", closefd=False)  # noqa: SIM115 - for the whole run
    if sys.stderr is not None and not isinstance(sys.stderr, _Diagnostics):
        sys.stderr = _Diagnostics(sys.stderr)
    if not os.environ.get("BLEU_XL_DEBUG"):  # an error in a __del__ (a half-written zip's) is no line for the user
        sys.unraisablehook = lambda unraisable: None
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")


class _Diagnostics(io.TextIOBase):
    """Standard error for diagnostics: what cannot be written there (``2>/dev/full``, a disk full) is dropped, and
    the job goes on; a closed pipe still ends the command, as it does on standard output."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except BrokenPipeError:
            raise
        except OSError:
            return len(text)

    def flush(self) -> None:
        try:
            self.stream.flush()
        except BrokenPipeError:
            raise
        except OSError:
            return

    def fileno(self) -> int:
        return self.stream.fileno()

    def isatty(self) -> bool:
        return self.stream.isatty()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self.stream.encoding

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return self.stream.errors

    @property
    def buffer(self) -> Any:
        return self.stream.buffer

    def reconfigure(self, **settings: Any) -> None:
        self.stream.reconfigure(**settings)


def closed_pipe() -> NoReturn:
    """The reader of standard output (or error) went away (``| head``): stop quietly with the status of a command
    SIGPIPE ended (128 + 13), as other command-line tools do, whatever was being written. What was still to be
    written to a closed stream goes to /dev/null, so that Python's last flush at exit finds no pipe to fail on.
    An output file written before is whole: the status says only that the reader stopped reading."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, stream.fileno())
            os.close(null)
    raise SystemExit(EXIT_CLOSED_PIPE)


def console(err: bool = False) -> Any:
    """rich's console on standard output (or error), which ends on a closed pipe as every command does, and shows
    user text as it is: no markup, emoji or highlighting is ever read into it."""
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            # rich's own exits with code 1 (and points standard output at /dev/null whichever stream broke); a
            # closed stream ends every command the same way, in the guard.
            self.quiet = True
            raise BrokenPipeError

    return _Console(stderr=err, highlight=False, markup=False, emoji=False)
