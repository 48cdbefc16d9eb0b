"""Reading a user's file where the operating system bounds its memory and time, so that no file can take the machine
down: a workbook is read in a child process, a text file under a memory limit.

On POSIX, :func:`run_bounded` forks a child that lowers its address-space limit (``RLIMIT_AS``) to what this
process uses plus the memory allowed, sets an alarm for the time allowed, reads, and sends back what it read
through a pipe. A child that aborts (the Rust reader aborts on a failed allocation), crashes, runs out of memory
or time, or is killed becomes one line (:class:`InputError`); it leaves nothing behind (it writes no file, and is
reaped). The parent never waits past the deadline: it kills a child that has not answered by then. On Windows,
which has no fork, the read runs in this process, unbounded (the README says so).

The rows come back as text: a chunk of rows is one string of its cells joined by a separator, with the few cells
that are not text (numbers, dates, errors) sent apart, which costs a small part of the read (benchmarks/README.md);
a chunk whose text holds the separator is pickled instead. A sheet's rows can be sent as soon as the reader has
given them (:func:`send_rows`), while the checks go on in a process of their own (:class:`Apart`); what the checks
then find to put right in them travels with the outcome as the cells changed
(:class:`~bleu_xl.files.read.cell_fixes.CellChanges`), which the parent changes alike.
"""

from __future__ import annotations

import contextlib
import ctypes
import faulthandler
import gc
import itertools
import os
import pickle
import select
import signal
import struct
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from typing import Any

from ...core.errors import BleuXlError, Part, Setting
from ...table.sheet import InputError, Sheet
from .cell_fixes import CellChanges
from .limits import ReadLimits

__all__ = [
    "Apart",
    "ReaderFailed",
    "in_child",
    "memory_bound",
    "note",
    "room_for_a_thread",
    "run_bounded",
    "send_rows",
    "sent_rows_fixed",
]

ROWS_PER_CHUNK = 65_536
_SEPARATOR = "\x00"  # no cell of an XML part holds it, save through an _x0000_ escape (then: pickled)
_FRAME = struct.Struct("<cQ")  # kind, length
_ROWS, _PICKLED_ROWS, _RESULT, _ERROR, _FAILURE, _NOTE = b"R", b"P", b"M", b"E", b"X", b"N"
_NEW_ROWS = b"S"  # the rows sent so far were another sheet's: a new sheet's rows follow
_EXIT_MEMORY = 86
_GRACE = 5.0  # seconds the parent waits past the child's own alarm before it kills the child
#: Address space a new thread needs to start for sure (its stack, its state, its first frames).
_THREAD_ROOM = 32 << 20
_M_ARENA_MAX = -8  # glibc's mallopt parameter: the most malloc arenas


class ReaderFailed(InputError):
    """The reader died, aborted or ran out of memory or time: the file cannot be read within the limits."""


_CHILD: dict[str, Any] = {}  # in a child: the pipe to the parent and the address-space budget


def in_child() -> bool:
    """True in the child process of :func:`run_bounded`, where the reader may run beside the checks."""
    return "pipe" in _CHILD


def room_for_a_thread() -> bool:
    """False in a child with too little address space left to start a thread for sure.

    A child forked from a process that had other threads reuses their cached stacks, so a new thread gets its
    stack under any limit and then fails to allocate its own state; ``threading.Thread.start`` waits for it
    forever, and the read would end only at the deadline, reported as out of time."""
    budget = _CHILD.get("budget", 0)
    return not budget or budget - _address_space() >= _THREAD_ROOM


def note(value: Any) -> None:
    """Tell the parent how far the child got (which sheet it reads): the parent's ``explain`` gets every note."""
    pipe = _CHILD.get("pipe")
    if pipe is not None:
        _send(pipe, _NOTE, pickle.dumps(value))
        pipe.flush()


def send_rows(rows: list[list[Any]]) -> None:
    """In the child: send a sheet's rows to the parent now, as read (elsewhere nothing is sent). The cells changed
    in them later are given with :func:`sent_rows_fixed`; the rows of a later sheet take their place."""
    pipe = _CHILD.get("pipe")
    if pipe is not None:
        _send_sheet_rows(pipe, rows)
        _CHILD["sent"] = (rows, None)


def _send_sheet_rows(pipe: Any, rows: list[list[Any]]) -> None:
    """A sheet's rows, chunk by chunk, in place of any sent before."""
    _send(pipe, _NEW_ROWS, b"")
    for start in range(0, len(rows), ROWS_PER_CHUNK):
        _send_rows(pipe, rows[start : start + ROWS_PER_CHUNK])


def sent_rows_fixed(rows: list[list[Any]], changes: CellChanges) -> None:
    """The cells changed in ``rows`` (sent by :func:`send_rows`) after they were sent: the parent changes them in
    its copy too."""
    if _CHILD.get("sent", (None,))[0] is rows:
        _CHILD["sent"] = (rows, changes)


class Apart:
    """``call()`` run in a process forked from the reader's child, beside it, its outcome sent back through a pipe:
    the checks of a sheet, while the child's reader reads it.

    The process holds to the child's limits: the address-space limit it inherits, the time left on the child's
    alarm, and it dies with the child. A refusal it raises is raised by :meth:`result`; a process that ran out
    of memory or was ended by a signal ends the child alike, so that the parent reports it as it would the
    child's. Made only in the child (:func:`in_child`), where ``os.fork`` is.
    """

    def __init__(self, call: Callable[[], Any]) -> None:
        left = signal.getitimer(signal.ITIMER_REAL)[0]
        read_end, write_end = os.pipe()
        child = os.getpid()
        try:
            pid = os.fork()
        except BaseException:
            os.close(read_end)
            os.close(write_end)
            raise
        if pid == 0:  # never returns
            os.close(read_end)
            _apart(call, write_end, child, left)
        os.close(write_end)
        self.pid = pid
        self.fd = read_end
        self.outcome: tuple[bool, Any] | None = None

    def answered(self, seconds: float = 0.0) -> bool:
        """Whether the process has answered (or ended), after waiting at most ``seconds`` for it."""
        if self.outcome is not None:
            return True
        poller = select.poll()
        poller.register(self.fd, select.POLLIN)
        return bool(poller.poll(max(seconds, 0.0) * 1000))

    def result(self) -> Any:
        """What the call returned, once it has (the exception it raised is raised here)."""
        if self.outcome is None:
            self.outcome = self._collect()
        done, value = self.outcome
        if not done:
            raise value
        return value

    def _collect(self) -> tuple[bool, Any]:
        pieces = []
        while piece := os.read(self.fd, 1 << 20):
            pieces.append(piece)
        status = os.waitpid(self.pid, 0)[1]
        self.pid = 0
        if pieces and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
            outcome: tuple[bool, Any] = pickle.loads(b"".join(pieces))
            return outcome
        if os.WIFSIGNALED(status):  # out of time (SIGALRM), killed, crashed: the child ends the same way
            os.kill(os.getpid(), os.WTERMSIG(status))
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == _EXIT_MEMORY:
            raise MemoryError("the checks ran out of memory")
        return False, RuntimeError("the checks' process ended without an answer")

    def close(self) -> None:
        """End the process if it still runs, and let it go."""
        if self.pid:
            _kill(self.pid)
            self.pid = 0
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def _apart(call: Callable[[], Any], fd: int, child: int, seconds: float) -> None:
    """The process of :class:`Apart`: run ``call`` and send its outcome; exit without running any cleanup."""
    code = 0
    try:
        _die_with_parent()
        if os.getppid() != child:  # the child ended before this process could die with it
            os._exit(1)
        pipe = _CHILD.pop("pipe", None)
        if pipe is not None:  # the parent's pipe is the child's to write: its end is the child's end
            _CHILD["kept"] = pipe  # never finalised here, which would write the child's buffered bytes
            os.close(pipe.fileno())
        if seconds > 0:
            signal.setitimer(signal.ITIMER_REAL, seconds)
        outcome: tuple[bool, Any]
        try:
            outcome = (True, call())
        except MemoryError:
            os._exit(_EXIT_MEMORY)
        except BleuXlError as exc:
            outcome = (False, exc)
        except Exception as exc:
            detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
            outcome = (False, RuntimeError(f"{detail}\n{traceback.format_exc()}"))
        data = memoryview(pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL))
        while data:
            data = data[os.write(fd, data) :]
    except MemoryError:
        code = _EXIT_MEMORY
    except BaseException:
        code = 1
    os._exit(code)


def _die_with_parent() -> None:
    """Have this process killed when its parent ends (Linux), so that no read outlives the one that asked."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG


def _limits_message(what: str, limits: ReadLimits, cause: str) -> tuple[Part, ...]:
    return (
        f"{what}: cannot read this workbook within {limits.describe()} ({cause}; allow more with ",
        Setting("read_memory"),
        " or ",
        Setting("read_time"),
        ")",
    )


def run_bounded(
    call: Callable[[], tuple[Sheet, Any]],
    limits: ReadLimits,
    what: str,
    explain: Callable[[list[Any]], None] | None = None,
) -> tuple[Sheet, Any]:
    """``call()`` in a child process bounded by ``limits`` (POSIX), or here (Windows, or ``limits.isolate`` off).

    ``call`` returns a sheet and anything picklable; a :class:`BleuXlError` it raises is raised here as it was.
    When the child dies, ``explain(notes)`` runs in another bounded child with the notes the first one sent: a
    refusal it raises (the checks alone, without the reader) says better what is wrong with the file than the
    limits do. ``what`` names the input in the message.
    """
    if not limits.isolate or not hasattr(os, "fork"):
        return call()
    notes: list[Any] = []
    try:
        return _run_child(call, limits, what, notes)
    except ReaderFailed:
        if explain is not None:
            with contextlib.suppress(ReaderFailed):  # the checks alone fail too: the limits are the answer
                _run_child(lambda: _explained(explain, notes), limits, what, [])
        raise


def _explained(explain: Callable[[list[Any]], None], notes: list[Any]) -> tuple[Sheet, Any]:
    explain(notes)
    return Sheet("", [], []), None


def _run_child(
    call: Callable[[], tuple[Sheet, Any]], limits: ReadLimits, what: str, notes: list[Any]
) -> tuple[Sheet, Any]:
    budget = _address_space() + limits.memory
    read_end, write_end = os.pipe()
    with contextlib.suppress(OSError, AttributeError, ImportError):  # Linux: a larger pipe, fewer round trips
        import fcntl

        fcntl.fcntl(write_end, getattr(fcntl, "F_SETPIPE_SZ", 1031), 1 << 20)
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read_end)
        _child(call, write_end, budget, limits.seconds)
    os.close(write_end)
    started = time.monotonic()
    deadline = started + limits.seconds + _GRACE
    try:
        with os.fdopen(read_end, "rb", buffering=0) as pipe:
            outcome = _receive(pipe, deadline, notes)
    except BaseException:
        _kill(pid)
        raise
    status = _reap(pid, deadline)
    if isinstance(outcome, tuple):
        return outcome
    if isinstance(outcome, BaseException):
        raise outcome
    stopped_by = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    out_of_time = time.monotonic() >= started + limits.seconds
    if outcome == "late" or stopped_by == signal.SIGALRM or (stopped_by == signal.SIGKILL and out_of_time):
        cause = "it ran out of time"
    elif os.WIFEXITED(status) and os.WEXITSTATUS(status) == _EXIT_MEMORY:
        cause = "it ran out of memory"
    elif stopped_by == signal.SIGKILL:
        cause = "the reader was killed, perhaps by the system for lack of memory"
    elif stopped_by is not None:
        cause = f"the reader ran out of memory or crashed ({_signal_name(stopped_by)})"
    else:
        cause = "the reader failed"
    raise ReaderFailed(*_limits_message(what, limits, cause))


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _address_space() -> int:
    """The bytes of address space this process holds (the child starts with as much)."""
    with contextlib.suppress(OSError, ValueError, IndexError), open("/proc/self/statm", "rb") as statm:
        return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    return 0


def _child(call: Callable[[], tuple[Sheet, Any]], fd: int, budget: int, seconds: float) -> None:
    """Run ``call`` under the limits and send its outcome; exit without running the parent's cleanups."""
    code = 0
    try:
        _child_setup(budget, seconds)
        with os.fdopen(fd, "wb", buffering=1 << 20) as pipe:
            _CHILD["pipe"], _CHILD["budget"] = pipe, budget
            try:
                sheet, extra = call()
            except MemoryError:
                code = _EXIT_MEMORY
            except BleuXlError as exc:
                _send(pipe, _ERROR, pickle.dumps(exc, protocol=pickle.HIGHEST_PROTOCOL))
            except Exception as exc:
                detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
                _send(pipe, _FAILURE, pickle.dumps((detail, traceback.format_exc())))
            else:
                rows, sheet.rows = sheet.rows, []
                sent, fixes = _CHILD.get("sent", (None, None))
                if sent is not rows or fixes is None:  # not sent yet, or sent and left as read: sent whole now
                    fixes = None
                    _send_sheet_rows(pipe, rows)
                _send(pipe, _RESULT, pickle.dumps((sheet, extra, fixes), protocol=pickle.HIGHEST_PROTOCOL))
    except MemoryError:
        code = _EXIT_MEMORY
    except BaseException:  # a broken pipe (the parent went away), anything else: the parent reports it
        code = 1
    os._exit(code)


def _child_setup(budget: int, seconds: float) -> None:
    gc.disable()  # a short life that makes a million lists: collections would only cost time
    for name in ("SIGTERM", "SIGHUP", "SIGINT", "SIGALRM", "SIGPIPE"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    _die_with_parent()
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            # glibc gives a new thread's allocations an arena of their own, 64 MB of address space reserved at
            # once: under the limit the reader's thread would fail where the same read in this thread fits (a
            # 50,000-row sheet read within 30 MB, not within 60). One arena, the main thread's, serves both.
            with contextlib.suppress(AttributeError):
                libc.mallopt(_M_ARENA_MAX, 1)
    # The reader's own messages (a Rust panic's, faulthandler's) go nowhere: the parent says what happened. Nor
    # does the reader print a backtrace (RUST_BACKTRACE set by the user): on a failed allocation, Rust's backtrace
    # allocates too, fails again under the limit and waits for the lock it holds, which left the child hung until
    # the deadline, reported as out of time.
    os.environ["RUST_BACKTRACE"] = "0"
    faulthandler.disable()  # it may write to a copy of stderr (a test runner's), which the dup2 below misses
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 2)
    os.close(null)
    if budget:
        _set_budget(budget)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.001))  # SIGALRM's default action ends the child


def _set_budget(budget: int) -> None:
    """Limit this process's address space to ``budget`` bytes (at most the hard limit)."""
    import resource

    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    soft = budget if hard == resource.RLIM_INFINITY else min(budget, hard)
    with contextlib.suppress(ValueError, OSError):  # macOS does not enforce it: the deadline still holds
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _send(pipe: Any, kind: bytes, payload: bytes | memoryview) -> None:
    pipe.write(_FRAME.pack(kind, len(payload)))
    pipe.write(payload)


def _send_rows(pipe: Any, rows: list[list[Any]]) -> None:
    """One chunk of rows: their widths, the cells that are not text, and the text of all cells joined."""
    widths = [len(row) for row in rows]
    flat = list(itertools.chain.from_iterable(rows))
    odd: dict[int, Any] = {}
    try:
        text = _SEPARATOR.join(flat)
    except TypeError:
        odd = {i: value for i, value in enumerate(flat) if type(value) is not str}
        for i in odd:
            flat[i] = ""
        text = _SEPARATOR.join(flat)
    if flat and text.count(_SEPARATOR) != len(flat) - 1:  # a cell holds the separator
        _send(pipe, _PICKLED_ROWS, pickle.dumps(rows, protocol=pickle.HIGHEST_PROTOCOL))
        return
    codec = "latin-1" if text.isascii() else "utf-8"  # ASCII: a copy each way
    head = pickle.dumps((widths, odd, len(flat), codec), protocol=pickle.HIGHEST_PROTOCOL)
    _send(pipe, _ROWS, struct.pack("<Q", len(head)) + head + text.encode(codec, "surrogatepass"))


def _rows_of(payload: bytes) -> list[list[Any]]:
    (size,) = struct.unpack_from("<Q", payload)
    widths, odd, cells, codec = pickle.loads(payload[8 : 8 + size])
    flat = payload[8 + size :].decode(codec, "surrogatepass").split(_SEPARATOR) if cells else []
    for i, value in odd.items():
        flat[i] = value
    if widths and min(widths) == max(widths):
        width = widths[0]
        return [flat[i : i + width] for i in range(0, cells, width)] if width else [[] for _ in widths]
    ends = list(itertools.accumulate(widths))
    return [flat[end - width : end] for end, width in zip(ends, widths)]


def _receive(pipe: Any, deadline: float, notes: list[Any]) -> tuple[Sheet, Any] | BaseException | str | None:
    """The child's outcome: (sheet, extra), the error it raised, ``"late"`` (past the deadline) or ``None``
    (it ended without one)."""
    rows: list[list[Any]] = []
    collecting = gc.isenabled()
    gc.disable()  # a million new lists, none of them in a cycle
    try:
        return _frames(pipe, deadline, notes, rows)
    finally:
        if collecting:
            gc.enable()


def _frames(
    pipe: Any, deadline: float, notes: list[Any], rows: list[list[Any]]
) -> tuple[Sheet, Any] | BaseException | str | None:
    while True:
        head = _read_exact(pipe, _FRAME.size, deadline)
        if head is None:
            return "late" if time.monotonic() >= deadline else None
        kind, length = _FRAME.unpack(head)
        payload = _read_exact(pipe, length, deadline)
        if payload is None:
            return "late" if time.monotonic() >= deadline else None
        if kind == _ROWS:
            rows.extend(_rows_of(payload))
        elif kind == _PICKLED_ROWS:
            rows.extend(pickle.loads(payload))
        elif kind == _NEW_ROWS:
            rows.clear()
        elif kind == _RESULT:
            sheet, extra, fixes = pickle.loads(payload)
            if fixes is not None:  # the rows came as read: change here the cells the child changed in its own
                fixes.apply(rows)
            sheet.rows = rows
            return sheet, extra
        elif kind == _NOTE:
            notes.append(pickle.loads(payload))
        elif kind == _ERROR:
            error: BaseException = pickle.loads(payload)
            return error
        else:
            detail, trace = pickle.loads(payload)
            return RuntimeError(f"{detail} (in the reader's process)\n{trace}")


def _read_exact(pipe: Any, size: int, deadline: float) -> bytes | None:
    """``size`` bytes from the pipe; ``None`` at its end or past the deadline."""
    pieces: list[bytes] = []
    wanted = size
    poller = select.poll()
    poller.register(pipe.fileno(), select.POLLIN)
    while wanted:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not poller.poll(remaining * 1000):
            return None
        piece = pipe.read(min(wanted, 1 << 24))
        if not piece:
            return None
        pieces.append(piece)
        wanted -= len(piece)
    return pieces[0] if len(pieces) == 1 else b"".join(pieces)


def _kill(pid: int) -> None:
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        os.waitpid(pid, 0)


def _reap(pid: int, deadline: float) -> int:
    """The child's exit status, once it has ended (killed past the deadline)."""
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        if time.monotonic() >= deadline:
            os.kill(pid, signal.SIGKILL)
            return os.waitpid(pid, 0)[1]
        time.sleep(0.005)


@contextlib.contextmanager
def memory_bound(limits: ReadLimits) -> Iterator[None]:
    """Parse text in this process with at most ``limits.memory`` more bytes of address space (Linux): a parse that
    would need more stops with one line instead of taking the machine's memory."""
    budget = _address_space()
    try:
        import resource
    except ImportError:  # Windows
        resource = None  # type: ignore[assignment]
    previous = None
    if resource is not None and budget and limits.isolate:
        previous = resource.getrlimit(resource.RLIMIT_AS)
        hard = previous[1]
        soft = budget + limits.memory
        if hard != resource.RLIM_INFINITY:
            soft = min(soft, hard)
        try:
            resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        except (ValueError, OSError):
            previous = None
    try:
        yield
    except MemoryError:
        raise InputError(
            f"cannot read this file within {_memory_text(limits)} (allow more with ",
            Setting("read_memory"),
            ")",
        ) from None
    finally:
        if previous is not None:
            resource.setrlimit(resource.RLIMIT_AS, previous)


def _memory_text(limits: ReadLimits) -> str:
    return limits.describe().split(" / ")[0]
