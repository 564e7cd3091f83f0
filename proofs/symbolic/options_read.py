"""The options of a variant a build reads: a table (``HeartsConfig``, ``SnapConfig``: a
:class:`~cardcanon.model.options.Variations`) handed to a build as a copy that notes each field read,
so that :class:`.memo.ModelMemo` keeps the result for every table agreeing on those fields.

Comparing or hashing the copy reads every field, and so does anything else that reaches its
fields as a whole (``vars``, ``dataclasses.replace``). A copy the result still holds after the
build (it escaped: its reference count grew) counts as every field read, since its later reads
are the result's users', not the build's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any

from cardcanon.model.hearts_types import HeartsConfig
from cardcanon.model.options import Variations
from cardcanon.model.snap_types import SnapConfig

Reads = dict[str, Any]  # each field read, with the value it had


def _fields(table: Any) -> tuple[str, ...]:
    return tuple(field.name for field in dataclasses.fields(table))


def _noting(kind: type) -> type:
    """The subclass of a table's class whose instances note each field read."""
    names = frozenset(field.name for field in dataclasses.fields(kind))

    def read(self: Any, name: str) -> Any:
        value = object.__getattribute__(self, name)
        if name in names:
            object.__getattribute__(self, "_reads")[name] = value
        elif name == "__dict__":
            read_all(self)
        return value

    def equal(self: Any, other: Any) -> bool:
        return plain(self) == plain(other)  # type: ignore[no-any-return]

    def whole(self: Any, *_: Any) -> Any:  # a copy, or what pickles one: the plain table, all read
        return plain(self)

    def made(cls: type, *args: Any, **fields: Any) -> Any:  # a table made from a copy (``replace``) is plain
        return kind(*args, **fields)

    return type(f"Noted{kind.__name__}", (kind,), {
        "__new__": made, "__getattribute__": read, "__eq__": equal, "__hash__": lambda self: hash(plain(self)),
        "__copy__": whole, "__deepcopy__": whole,
        "__reduce__": lambda self: (_same, (plain(self),))})


def _same(table: Any) -> Any:
    return table


def read_all(table: Any) -> None:
    reads = object.__getattribute__(table, "_reads")
    for name in _fields(table):
        reads[name] = object.__getattribute__(table, name)


def noted(table: Variations) -> tuple[Variations, Reads]:
    """A copy of ``table`` that notes in the returned mapping each field read."""
    copy: Any = object.__new__(NOTING[type(table)])
    for name in _fields(table):
        object.__setattr__(copy, name, object.__getattribute__(table, name))
    reads: Reads = {}
    object.__setattr__(copy, "_reads", reads)
    return copy, reads


def is_noted(value: Any) -> bool:
    return type(value) in _NOTED


def plain(value: Any) -> Any:
    """A noted table as the plain table it copies, having read all its fields; any other value as it is."""
    if is_noted(value):
        read_all(value)
    return unnoted(value)[0]


def unnoted(value: Any) -> tuple[Any, Reads | None]:
    """A noted table as a plain copy with the mapping its reads go to, without reading it."""
    if not is_noted(value):
        return value, None
    kind = type(value).__mro__[1]
    copy: Any = object.__new__(kind)
    for name in _fields(kind):
        object.__setattr__(copy, name, object.__getattribute__(value, name))
    return copy, object.__getattribute__(value, "_reads")


def tables(value: Any) -> Iterator[tuple[str | None, Variations]]:
    """The tables of an argument: itself (name None), or a frozen dataclass's fields that are tables."""
    if type(value) in NOTING or is_noted(value):
        yield None, value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            inner = object.__getattribute__(value, field.name)
            if type(inner) in NOTING or is_noted(inner):
                yield field.name, inner


def agrees(table: Variations, reads: Mapping[str, Any]) -> bool:
    """Whether ``table`` has each field read the value it had."""
    return all(object.__getattribute__(table, name) == value for name, value in reads.items())


NOTING: Mapping[type, type] = {kind: _noting(kind) for kind in (HeartsConfig, SnapConfig)}  # the rulebooks' tables
_NOTED = frozenset(NOTING.values())
