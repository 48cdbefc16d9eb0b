"""Outcomes packed by field to travel back from a worker process: a few flat columns instead of an object a row.

Pickling a score calls its reduction and its statistics' in Python, about 8 microseconds a row, in the worker and
again in this process (benchmarks/README.md); the same values as columns of plain numbers and tuples pickle in C.
Packing handles any outcome that is a dataclass with slots built from its fields in order (every score, a cell's
error, a blank); anything else travels as itself. A field whose values are all one named tuple (a score's
statistics) travels as plain tuples.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["PackedOutcomes", "pack", "unpack"]


@dataclass
class _Group:
    """The outcomes of one type: their fields as columns (``fields``), or themselves (``objects``) when the type
    cannot be rebuilt from its fields; ``tuples`` names the named tuple each column's values were."""

    kind: type
    count: int
    fields: list[list[Any]] | None = None
    tuples: list[type | None] | None = None
    objects: list[Any] | None = None


@dataclass
class PackedOutcomes:
    """Outcomes packed by type and field: ``kinds`` says each row's group (empty when there is one group)."""

    groups: list[_Group]
    kinds: bytes = b""


@functools.cache
def _fields_of(kind: type) -> tuple[str, ...] | None:
    """The fields a type is rebuilt from, in order; ``None`` when it is not a dataclass with slots built so."""
    if not dataclasses.is_dataclass(kind) or "__slots__" not in kind.__dict__:
        return None
    if not kind.__dataclass_params__.init or hasattr(kind, "__post_init__"):  # type: ignore[attr-defined]
        return None  # built otherwise than from its fields as they are
    fields = [field for field in dataclasses.fields(kind) if field.init]
    if any(getattr(field, "kw_only", False) for field in fields):
        return None
    names = tuple(field.name for field in fields)
    return names if names == tuple(kind.__slots__) else None


def pack(outcomes: Sequence[Any]) -> PackedOutcomes:
    """``outcomes`` packed by type and field (:func:`unpack` gives them back equal)."""
    index: dict[type, int] = {}
    members: list[list[Any]] = []
    kinds = bytearray()
    for outcome in outcomes:
        kind = type(outcome)
        k = index.get(kind)
        if k is None:
            k = index[kind] = len(members)
            members.append([])
        members[k].append(outcome)
        kinds.append(k & 0xFF)  # few kinds: a score, a blank, an error or two (past 256, see below)
    if len(members) > 256:  # a kind is a byte: so many types travel as themselves
        return PackedOutcomes([_Group(object, len(outcomes), objects=list(outcomes))])
    groups = [_group(kind, members[k]) for kind, k in index.items()]
    return PackedOutcomes(groups, bytes(kinds) if len(groups) > 1 else b"")


def _group(kind: type, members: list[Any]) -> _Group:
    names = _fields_of(kind)
    if names is None:
        return _Group(kind, len(members), objects=members)
    if not names:
        return _Group(kind, len(members), fields=[], tuples=[])
    getter: Callable[[Any], Any] = operator.attrgetter(*names)
    rows = list(map(getter, members)) if len(names) > 1 else [(value,) for value in map(getter, members)]
    fields: list[list[Any]] = []
    tuples: list[type | None] = []
    for column in zip(*rows):
        first = type(column[0])
        named = first if issubclass(first, tuple) and hasattr(first, "_fields") else None
        if named is not None and set(map(type, column)) == {named}:
            fields.append(list(map(tuple, column)))
            tuples.append(named)
        else:
            fields.append(list(column))
            tuples.append(None)
    return _Group(kind, len(members), fields=fields, tuples=tuples)


def unpack(packed: PackedOutcomes) -> list[Any]:
    """The outcomes :func:`pack` packed, in their order."""
    built = [_rebuilt(group) for group in packed.groups]
    if not packed.kinds:
        return built[0] if built else []
    each = [iter(objects) for objects in built]
    return [next(each[k]) for k in packed.kinds]


def _rebuilt(group: _Group) -> list[Any]:
    if group.objects is not None:
        return group.objects
    assert group.fields is not None and group.tuples is not None
    if not group.fields:
        return [group.kind() for _ in range(group.count)]
    columns = [
        column if named is None else list(map(named._make, column))  # type: ignore[attr-defined]
        for column, named in zip(group.fields, group.tuples)
    ]
    return list(map(group.kind, *columns))
