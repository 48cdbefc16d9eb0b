"""Every failure of a command as one line: the library's errors (exit 2, settings spelt as this command's options),
files that cannot be read or written, termination signals, Ctrl-C, closed pipes, and bugs (exit 1)."""

from __future__ import annotations

import contextlib
import functools
import os
import re
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any

import click

from .. import BleuXlError, Setting
from .options import FLAGS, flag_spelling
from .terminal import Failure, closed_pipe, echo, printable

__all__ = ["Terminated", "guard", "stop_on_signals", "user_text", "wrote"]

#: The outputs the running command has written whole: a failure after that (a signal, a full standard output)
#: says so, rather than that nothing was written.
_WRITTEN: list[str] = []


def wrote(path: str) -> None:
    """Record that the running command has written ``path`` whole (``-``: that it writes to standard output, which
    a stop may leave with part of the output)."""
    _WRITTEN.append(path)


def _written_files() -> list[str]:
    return [path for path in _WRITTEN if path != "-"]


def _written() -> str:
    files = _written_files()
    if files:
        return f"{', '.join(files)} {'was' if len(files) == 1 else 'were'} written whole"
    return "standard output may hold part of the output" if _WRITTEN else ""


_STOP_SIGNALS = {getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)}


class Terminated(BaseException):
    """SIGTERM or SIGHUP: a BaseException, as KeyboardInterrupt is, so that no ``except Exception`` on the way
    swallows it and every cleanup runs (the worker pool, the partial output, the lock)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """Turn SIGTERM and SIGHUP into :class:`Terminated` for the block, so that the cleanups run: the worker pool
    is terminated and the partial output removed. Only the main thread can take signals; elsewhere, nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    parent = os.getpid()

    def stop(signum: int, frame: Any) -> None:
        if os.getpid() != parent:  # a forked worker before its own setup ran: just go
            os._exit(128 + signum)
        raise Terminated(signum)

    previous = {sig: signal.signal(sig, stop) for sig in sorted(_STOP_SIGNALS)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


#: The arguments that are text (not file names): a byte that is not UTF-8 in them is decoded, never a word break.
TEXT_ARGUMENTS = {
    "reference_text",
    "reference_cols",
    "candidate_col",
    "sheet",
    "a_col",
    "b_col",
    "reference",
    "candidate",
    "texts",  # pair's REFERENCE and CANDIDATE
    "references",  # pair's --reference
}
_SURROGATES = re.compile("[\udc80-\udcff]")


def user_text(name: str, value: Any, flags: dict[str, str] = FLAGS) -> Any:
    """An argument as the user typed it: where Python could not decode it in the locale's encoding (``LC_ALL=C``
    keeps each byte of ``á`` apart as a surrogate), its bytes are decoded as UTF-8; bytes that are not UTF-8 are
    refused, since a surrogate would split the word in two."""
    if isinstance(value, tuple):
        return tuple(user_text(name, item, flags) for item in value)
    if not isinstance(value, str) or not _SURROGATES.search(value):
        return value
    try:
        return os.fsencode(value).decode("utf-8")
    except (UnicodeError, ValueError):
        spelt = flag_spelling(flags)(Setting(name))
        # Quoted by hand: printable() already shows each byte escaped (\xe9), which a repr would escape again.
        raise Failure(f"'{printable(value)}' is not UTF-8 text; check {spelt}") from None


def guard(flags: dict[str, str] = FLAGS) -> Callable[[Any], Any]:
    """Map every expected failure to one line and exit code 2 (settings named by ``flags``); anything else to one
    line and exit code 1."""
    spell = flag_spelling(flags)

    def decorate(fn: Any) -> Any:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            _WRITTEN.clear()
            try:
                with stop_on_signals():
                    kwargs = {
                        name: user_text(name, value, flags) if name in TEXT_ARGUMENTS else value
                        for name, value in kwargs.items()
                    }
                    return fn(*args, **kwargs)
            except click.ClickException:
                raise
            except BleuXlError as exc:
                raise Failure(exc.render(spell)) from None
            except Terminated as exc:
                name = signal.Signals(exc.signum).name
                done = _written() or "stopped the workers, no output written"
                echo(f"bleu-xl: terminated by {name}; {done}", err=True)
                raise SystemExit(128 + exc.signum) from None
            except KeyboardInterrupt:
                if _WRITTEN:  # Ctrl-C says nothing, unless there is an output to tell of
                    echo(f"bleu-xl: interrupted; {_written()}", err=True)
                raise SystemExit(130) from None
            except BrokenPipeError:
                closed_pipe()
            except OSError as exc:  # a file that cannot be read or written: the user's to fix, not a bug
                where = f"{exc.filename}: " if exc.filename else ""
                shown = f" (showing the result; {_written()})" if _written_files() and not exc.filename else ""
                raise Failure(f"{where}{exc.strerror or exc}{shown}") from None
            except Exception as exc:
                if os.environ.get("BLEU_XL_DEBUG"):
                    raise
                echo(f"bleu-xl: internal error: {type(exc).__name__}: {exc} (BLEU_XL_DEBUG=1 shows more)", err=True)
                raise SystemExit(1) from None

        return wrapper

    return decorate
