"""The one family of errors bleu-xl raises, and the settings its messages name.

Every error of the package derives from :class:`BleuXlError`. A message that tells the user which setting to
change names it as a :class:`Setting`, not as text: Python shows ``candidate_col='B'``, and the command line shows
the option that sets it, so the library never speaks in command-line flags. Standard library only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["BleuError", "BleuTypeError", "BleuXlError", "Part", "Setting", "python_spelling", "render"]


@dataclass(frozen=True)
class Setting:
    """A setting named in a message (``candidate_col``), with the value to give it when the message suggests one:
    a tuple for a setting that takes several values (``reference_cols=('B',)``). ``python`` is how Python code
    gives it, where that is not ``name=value`` (a metric chosen by name on the command line is an object in Python:
    a ``Chrf()``)."""

    name: str
    value: str | int | tuple[str, ...] | None = None
    python: str | None = None


def python_spelling(setting: Setting) -> str:
    """A setting as Python code passes it: ``candidate_col='B'``, or the bare name without a value."""
    if setting.python is not None:
        return setting.python
    return setting.name if setting.value is None else f"{setting.name}={setting.value!r}"


#: A piece of a message: text, or a setting that each face spells its own way.
Part = str | Setting


def render(parts: tuple[Part, ...], spell: Callable[[Setting], str] = python_spelling) -> str:
    """A message's text, each setting spelt by ``spell``."""
    return "".join(part if isinstance(part, str) else spell(part) for part in parts)


class BleuXlError(Exception):
    """The base of every error bleu-xl raises: one line for the user, built from text and named settings."""

    def __init__(self, *parts: Part) -> None:
        super().__init__(*parts)
        self.parts: tuple[Part, ...] = parts

    def __reduce__(self) -> tuple[object, ...]:
        # Subclasses take other arguments than their parts: rebuild from the parts and the attributes (an error
        # crosses from the process that reads a file, or scores, to the one that reports it).
        return _rebuild, (type(self), self.parts, self.__dict__)

    def render(self, spell: Callable[[Setting], str] = python_spelling) -> str:
        """The message, each setting spelt by ``spell`` (the command line passes its flags)."""
        return render(self.parts, spell)

    def __str__(self) -> str:
        return self.render()


def _rebuild(cls: type[BleuXlError], parts: tuple[Part, ...], attributes: dict[str, object]) -> BleuXlError:
    error = cls.__new__(cls)
    BleuXlError.__init__(error, *parts)
    error.__dict__.update(attributes)
    return error


class BleuError(BleuXlError, ValueError):
    """Input that cannot be scored: no usable reference, bad settings, unequal lengths."""


class BleuTypeError(BleuXlError, TypeError):
    """A value of the wrong type given to bleu-xl (a text that is not a string, one string where a sequence of them
    is wanted, a metric that is no metric object): a ``TypeError`` too, as Python code expects of it."""
