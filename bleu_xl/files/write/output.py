"""The output file, written whole or not at all: claimed and locked before any scoring, written to a temporary
file beside the target, renamed into place only when complete, never replacing a file without ``force``."""

from __future__ import annotations

import codecs
import contextlib
import functools
import hashlib
import io
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from ...core.errors import Setting
from ...table.sheet import InputError
from .signals import hold_signals, release_signals

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; the final rename still never replaces without force
    fcntl = None  # type: ignore[assignment]

__all__ = ["OutputFile", "holds_exactly", "write_files", "write_folder"]


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


class OutputFile:
    """The output, claimed before any scoring: checked, locked, written to a temporary file, then renamed.

    ``-`` is standard output. An existing file is refused without ``force`` (and never replaced at the final
    rename either), a special file or folder always; the paths in ``protect`` (the input) are never written.
    An exclusive lock beside the target keeps a second run from writing the same output at the same time.
    """

    def __init__(self, path: str, *, force: bool, protect: Sequence[str] = ()) -> None:
        self.path = path
        self.force = force
        self._lock: int | None = None
        self._lock_path: Path | None = None
        if path == "-":
            return
        target = Path(path)
        self.target = target
        if target.is_dir():
            raise InputError(f"{path}: is a folder; give a file name with ", Setting("output"))
        if not target.parent.is_dir():
            raise InputError(f"{path}: the folder {target.parent} does not exist")
        for other in protect:
            if other != "-" and Path(other).exists() and target.exists() and target.samefile(other):
                raise InputError(f"{path}: the output would overwrite the input; choose another ", Setting("output"))
        self._claim(protect)
        self._check_target()

    def _claim(self, protect: Sequence[str]) -> None:
        if fcntl is None:
            return
        lock_path = beside(self.target, ".bleu-xl-lock")
        for other in protect:
            if other != "-" and os.path.lexists(lock_path) and Path(other).exists() and lock_path.samefile(other):
                raise InputError(f"{self.path}: the input is named like this output's lock file; rename one of them")
        held = hold_signals()  # the lock file is known to release() before a signal can stop the run
        try:
            fd = _open_lock(lock_path)
            if fd is None:
                raise InputError(
                    f"{self.path}: {lock_path.name} is a file bleu-xl did not make, where it keeps this output's "
                    "lock; move it away"
                )
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                raise InputError(f"{self.path}: another bleu-xl run is writing this file; wait for it") from None
            self._lock, self._lock_path = fd, lock_path
        except OSError as exc:
            raise InputError(f"{self.path}: cannot write in {self.target.parent} ({exc.strerror})") from None
        finally:
            release_signals(held)

    def _check_target(self) -> None:
        try:
            info = self.target.lstat()
        except FileNotFoundError:
            return
        if not stat.S_ISREG(info.st_mode) and not stat.S_ISLNK(info.st_mode):
            self.release()
            raise InputError(f"{self.path}: not a regular file; bleu-xl writes only regular files")
        if not self.force:
            self.release()
            raise InputError(f"{self.path}: already exists; use ", Setting("force", True), " to replace it")

    def release(self) -> None:
        """Drop the lock and its file (only while holding it, and only the file it opened, so no other run's lock
        and no file put in its place is removed)."""
        if self._lock is not None:
            with contextlib.suppress(OSError):
                if self._lock_path is not None and _same_file(self._lock, self._lock_path):
                    os.unlink(self._lock_path)
            os.close(self._lock)
            self._lock = None

    def _place_new(self, tmp: str) -> None:
        try:
            os.link(tmp, self.target)  # fails if the target exists: never replace without force
        except FileExistsError:
            raise InputError(f"{self.path}: already exists; use ", Setting("force", True), " to replace it") from None
        except OSError:  # no hard links on this file system: the lock and the check above still hold
            os.replace(tmp, self.target)
        else:
            os.unlink(tmp)

    @contextlib.contextmanager
    def open(self, *, binary: bool, encoding: str = "utf-8") -> Iterator[IO[Any]]:
        """A file to write the whole output to; it appears at the target only when the block completes."""
        if self.path == "-":
            raw = getattr(sys.stdout, "buffer", None)
            if raw is None:  # standard output replaced by a text stream (a notebook, redirect_stdout): text only
                if binary:
                    raise InputError(
                        "standard output here takes text, not a workbook; give ", Setting("output"), " a file name"
                    )
                yield sys.stdout
                return
            if binary:
                yield raw
                return
            # The data in the encoding asked for, whatever the terminal's locale says standard output is. One that
            # cannot write every character (a code page) is written aside first, so that a cell it cannot write,
            # however late, leaves standard output empty, as it leaves no file.
            sys.stdout.flush()
            with contextlib.ExitStack() as stack:
                spool = None if _writes_every_character(encoding) else stack.enter_context(tempfile.TemporaryFile())
                out = io.TextIOWrapper(raw if spool is None else spool, encoding=encoding, errors="strict", newline="")
                try:
                    yield out
                    out.flush()
                    if spool is not None:
                        spool.seek(0)
                        shutil.copyfileobj(spool, raw)
                except UnicodeEncodeError as exc:
                    raise _unwritable("standard output", encoding, exc) from None
                finally:
                    out.detach()
            return
        with self.open_path(encoding=encoding) as tmp:
            mode = {} if binary else {"encoding": encoding, "newline": "", "errors": "strict"}
            with open(tmp, "wb" if binary else "w", **mode) as out:
                yield out

    @contextlib.contextmanager
    def open_path(self, *, encoding: str = "utf-8") -> Iterator[Path]:
        """A temporary path beside the target for a writer that opens files itself; renamed into place after."""
        held = hold_signals()  # a SIGTERM between creating the file and the try below would leave it behind
        try:
            prefix = beside(self.target, ".XXXXXXXX.partial").name[: -len("XXXXXXXX.partial")]
            fd, tmp = tempfile.mkstemp(dir=self.target.parent, prefix=prefix, suffix=".partial")
        except OSError as exc:
            release_signals(held)
            self.release()
            raise InputError(f"{self.path}: cannot write in {self.target.parent} ({exc.strerror})") from None
        try:
            release_signals(held)  # a signal that came meanwhile is handled here, inside the cleanup
            if hasattr(os, "fchmod"):  # mkstemp makes 0600: give the mode any new file gets under the umask
                os.fchmod(fd, 0o666 & ~_umask())
            os.close(fd)
            yield Path(tmp)
            self._check_target()  # a file that appeared meanwhile, a device put in its place
            if self.force:
                os.replace(tmp, self.target)
            else:
                self._place_new(tmp)
        except BaseException as exc:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            if isinstance(exc, OSError) and not isinstance(exc, BrokenPipeError):
                raise InputError(f"{self.path}: cannot write ({exc.strerror or exc})") from None
            if isinstance(exc, UnicodeEncodeError):
                raise _unwritable(str(self.path), encoding, exc) from None
            raise
        finally:
            self.release()


def _unwritable(where: str, encoding: str, exc: UnicodeEncodeError) -> InputError:
    """What to say of a cell the output's encoding cannot write: a surrogate code point (half of a UTF-16 pair),
    which no encoding writes, so that UTF-8 is no advice; else the characters the code page lacks, which UTF-8
    writes."""
    found = exc.object[exc.start : exc.end]
    surrogates = "".join(character for character in found if "\ud800" <= character <= "\udfff")
    if surrogates:
        return InputError(
            f"{where}: a cell holds surrogate code points ({surrogates!r}), halves of UTF-16 pairs, which no file "
            "can hold"
        )
    return InputError(
        f"{where}: a cell cannot be written in {encoding} ({found!r}); use ", Setting("output_encoding", "utf-8")
    )


def _writes_every_character(encoding: str) -> bool:
    """Whether ``encoding`` can write every character (UTF-8, UTF-16, UTF-32 and their variants), unlike a code page:
    all text but surrogate code points, which the readers refuse and which no encoding writes."""
    return codecs.lookup(encoding).name.startswith("utf")


def _name_max(folder: Path) -> int:
    try:
        return int(os.pathconf(folder, "PC_NAME_MAX"))
    except (OSError, ValueError, AttributeError):  # Windows: no pathconf; 255 characters there too
        return 255


def beside(target: Path, suffix: str) -> Path:
    """The hidden file beside ``target`` that bleu-xl names ``.NAME`` + ``suffix`` (a lock, a temporary file);
    when that is longer than a file name may be, NAME is cut and a digest of the whole name added, so that the
    same target always gets the same name."""
    name = f".{target.name}{suffix}"
    limit = _name_max(target.parent)
    encoded = os.fsencode(name)
    if len(encoded) <= limit:
        return target.with_name(name)
    digest = "-" + hashlib.sha256(os.fsencode(target.name)).hexdigest()[:16]
    room = limit - 1 - len(digest) - len(os.fsencode(suffix))
    head = os.fsencode(target.name)[:room]
    while head:  # never a character cut in two
        try:
            kept = os.fsdecode(head)
            os.fsencode(kept)
            break
        except (UnicodeError, ValueError):
            head = head[:-1]
    return target.with_name(f".{os.fsdecode(head)}{digest}{suffix}")


def _open_lock(path: Path) -> int | None:
    """The lock file, made now or left by a run that died (an empty regular file); ``None`` when the name is
    taken by anything else, which is never opened for writing nor removed."""
    flags = os.O_RDWR | getattr(os, "O_NOFOLLOW", 0)
    try:
        return os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o666)
    except FileExistsError:
        pass
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:  # gone meanwhile: make it
        return os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError:
        return None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_size or info.st_nlink != 1:
        os.close(fd)
        return None
    return fd


def _same_file(fd: int, path: Path) -> bool:
    try:
        held, there = os.fstat(fd), os.lstat(path)
    except OSError:
        return False
    return (held.st_dev, held.st_ino) == (there.st_dev, there.st_ino)


def holds_exactly(path: Path, content: bytes) -> bool:
    """True when ``path`` is a regular file (through links) holding exactly ``content``: opened without blocking (a
    FIFO is not waited on), and a file of another size is not read."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return False
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(fd)
        same_size = stat.S_ISREG(info.st_mode) and info.st_size == len(content)
        return same_size and file.read(len(content) + 1) == content


def write_files(writers: Sequence[tuple[Path, Callable[[Path], object]]], *, force: bool) -> None:
    """Write every file whole, or leave them all as they were: ``write(path)`` writes one file's whole content at
    the temporary path it is given. All are claimed (locked and checked) before any is written, and the
    temporary files are renamed into place only when all were written, so an existing file (or a link: the link
    is replaced, never written through) changes only then. A failure or a signal before the renames removes
    them all, locks included."""
    with contextlib.ExitStack() as claims:
        outputs = []
        for path, _ in writers:
            output = OutputFile(str(path), force=force)
            claims.callback(output.release)
            outputs.append(output)
        with contextlib.ExitStack() as writes:
            for output, (_, write) in zip(outputs, writers):
                write(writes.enter_context(output.open_path()))


def write_folder(folder: str, contents: dict[str, bytes], *, force: bool) -> list[tuple[Path, bool]]:
    """Write files of known content into ``folder`` (made if missing), all or none: a file that already holds its
    content is left as it is; one that differs is replaced only with ``force``. Returns each path and whether it
    was written."""
    if not folder.strip():
        raise InputError("give the folder to write into")
    target = Path(folder)
    if target.exists() and not target.is_dir():
        raise InputError(f"{folder}: not a folder")
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{folder}: cannot make this folder ({exc.strerror})") from None
    files = [(target / name, content) for name, content in contents.items()]
    for path, _ in files:
        if path.is_dir():
            raise InputError(f"{path}: is a folder; bleu-xl writes only regular files")
    stale = [(path, content) for path, content in files if not holds_exactly(path, content)]
    try:
        write_files([(path, functools.partial(Path.write_bytes, data=content)) for path, content in stale], force=force)
    except InputError:
        if not all(holds_exactly(path, content) for path, content in stale):
            raise
        stale = []  # another run wrote the same files meanwhile
    written = {path for path, _ in stale}
    return [(path, path in written) for path, _ in files]
