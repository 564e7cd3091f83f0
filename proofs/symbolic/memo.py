"""The one memo of what is derived from a reference model: a term, or what is built of terms,
kept for as long as the model code it ran is unchanged.

A :class:`ModelMemo` keeps each result with every name its build can reach: each name read by
the code of the build (its nested functions and the functions it closes over) in that code's
module or among the attributes of the model's *owners* (its rule module, its state and seat
classes, whose methods are read as attributes), and again in the code of each project function
and project class so reached; with every attribute of the owners that is not a function. The
result is read again only while each of them is the very object it was. A model mutant or a
probe's patch of a function the build can reach builds it afresh; one of a function it cannot
reach does not. A result built inside another's build is one of its dependencies. A run with a
second solver searches anew (:meth:`ModelMemo.search`).

A function kept by its arguments (:meth:`ModelMemo.function`) is handed each table of a variant
among them (a ``HeartsConfig`` or ``SnapConfig``, alone or as a field of an argument) as a copy noting the fields the
build reads (:mod:`.options_read`): its result is kept for every table agreeing on those fields, so
a variant that changes no option the build read shares it, and one that changes any builds afresh.
The fields a result built inside another's build read, the outer build read too.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import gc
import sys
import types
from collections.abc import Callable, Hashable, Mapping
from typing import Any, TypeVar

from cardcanon.proofs.symbolic.options_read import Reads, agrees, noted, read_all, tables, unnoted

T = TypeVar("T")
Dependency = tuple[Mapping[str, Any], str, Any]  # (a module's or an owner's namespace, name, the object it was)
PROJECT = "cardcanon."  # the modules whose functions are followed (not z3's, nor the standard library's)
_ABSENT = object()
_TABLE = "a table, kept by the fields read"  # a table's place in a key


def _globals(value: Any) -> Mapping[str, Any]:
    """The module namespace a project function reads its names in (empty for any other value, such as
    a function made by ``exec`` with no module: its ``__module__`` is None)."""
    function = _function(value)
    return function.__globals__ if function is not None and (function.__module__ or "").startswith(PROJECT) else {}


def _function(value: Any) -> types.FunctionType | None:
    """The function an attribute runs (a property's getter, a static or class method's function)."""
    if isinstance(value, property):
        value = value.fget
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    if isinstance(value, functools.partial):
        value = value.func
    return value if isinstance(value, types.FunctionType) else None


def _followed(cell: Any) -> bool:
    """Whether a walk follows what a closure cell holds (a function or a class; an empty cell not)."""
    try:
        value = cell.cell_contents
    except ValueError:
        return False
    return _code(value) is not None or isinstance(value, type)


def _code(value: Any) -> types.CodeType | None:
    function = _function(value)
    return None if function is None else function.__code__


def _references(values: list[Any]) -> list[int]:
    return [sys.getrefcount(value) for value in values]


class ModelMemo:
    """Results kept per key, each with the names its build reached (its dependencies)."""

    def __init__(self, *owners: Any) -> None:
        self.owners = owners
        # per key: each result with its dependencies, the fields of each table its build read, the tables
        self.kept_results: dict[Hashable, list[tuple[tuple[Dependency, ...], tuple[Reads, ...], tuple[Any, ...], Any]]] = {}
        self._built: dict[int, tuple[tuple[Any, ...], tuple[Reads, ...]]] = {}  # by a kept result's id
        self._building: list[dict[tuple[int, str], Dependency]] = []  # of each result under way, by namespace and name
        # per code object: the walks of its closures (what it closes over, the dependencies, what they
        # rest on: names and class attributes, closure cells, the size of each namespace looked in)
        self._walks: dict[Any, list[tuple[tuple[Any, ...], dict[tuple[int, str], Dependency], tuple[Dependency, ...],
                                          tuple[tuple[Any, Any], ...], tuple[tuple[Mapping[str, Any], int], ...]]]] = {}

    def _attributes(self) -> list[Dependency]:
        return [(vars(owner), name, value) for owner in self.owners for name, value in vars(owner).items()]

    @staticmethod
    def _holds(dependencies: tuple[Dependency, ...]) -> bool:
        return all(names.get(name, _ABSENT) is value for names, name, value in dependencies)

    def kept(self, key: Hashable, build: Callable[[], T]) -> T:
        """``build()``, or a result kept under ``key`` whose dependencies hold now."""
        return self._kept(key, build, (), ())[0]

    def _kept(self, key: Hashable, build: Callable[[], T], current: tuple[Any, ...],
              reads: tuple[Reads, ...]) -> tuple[T, tuple[Reads, ...]]:
        """:meth:`kept`, for the tables ``current`` too: a result kept while each agrees on the fields
        its build read (``reads``: where this build notes them), with those fields."""
        for dependencies, read, _, result in self.kept_results.get(key, ()):  # the tables first: they are cheaper
            if all(agrees(t, r) for t, r in zip(current, read)) and self._holds(dependencies):
                self._note(dependencies)
                return result, read
        inner: dict[tuple[int, str], Dependency] = {}
        self._building.append(inner)
        try:
            result = build()
        finally:
            self._building.pop()
        inner.update(self._reached(build))
        for names, name, value in self._attributes():
            if _code(value) is None and not isinstance(value, types.ModuleType):
                inner[(id(names), name)] = (names, name, value)
        dependencies = tuple(inner.values())
        self.kept_results.setdefault(key, []).append((dependencies, reads, current, result))
        self._built[id(result)] = current, reads
        self._note(dependencies)
        return result, reads

    def _reached(self, build: Callable[..., Any]) -> dict[tuple[int, str], Dependency]:
        """:meth:`_walk` from ``build``, kept per code and what it closes over, while every name the
        walk found (and every attribute of a class it followed, and what each closure cell it
        followed holds) is what it was, and each namespace it looked in has as many names as it
        had: the walk would find the same."""
        code = _code(build)
        closed = tuple(cell.cell_contents for cell in getattr(build, "__closure__", None) or () if _followed(cell))
        for same, found, checks, held, sizes in self._walks.get(code, ()):
            if len(same) == len(closed) and all(a is b for a, b in zip(same, closed)) and self._holds(checks) \
                    and all(cell.cell_contents is value for cell, value in held) \
                    and all(len(names) == size for names, size in sizes):
                return found
        looked: dict[int, Mapping[str, Any]] = {}
        cells: list[tuple[Any, Any]] = []
        out = self._walk(build, looked, cells)
        checks = tuple(out.values()) + tuple((names, name, value) for names in looked.values()
                                             if isinstance(names, types.MappingProxyType) for name, value in names.items())
        walks = self._walks.setdefault(code, [])
        walks.append((closed, out, checks, tuple(cells), tuple((n, len(n)) for n in looked.values())))
        del walks[:-8]  # the walks of a few closures of each code kept
        return out

    def _walk(self, build: Callable[..., Any], looked: dict[int, Mapping[str, Any]],
              cells: list[tuple[Any, Any]]) -> dict[tuple[int, str], Dependency]:
        """The names ``build``'s code reads, in its module and among the owners' attributes,
        transitively through the project functions named; ``looked`` gets each namespace looked
        in (a class's attributes among them, by its owner), ``cells`` each closure cell followed
        (but ``build``'s own) with what it held."""
        out: dict[tuple[int, str], Dependency] = {}
        owners = [vars(owner) for owner in self.owners]
        looked.update((id(owner), names) for owner, names in zip(self.owners, owners))
        functions: list[tuple[Any, Mapping[str, Any]]] = [(build, _globals(build))]
        seen: set[Any] = set()  # the code objects and classes followed
        while functions:
            function, module = functions.pop()
            if isinstance(function, type) and function.__module__.startswith(PROJECT):
                if function not in seen:
                    seen.add(function)
                    looked[id(function)] = attributes = vars(function)
                    functions += [(value, {}) for value in attributes.values()]  # its methods
                continue
            code = function if isinstance(function, types.CodeType) else _code(function)
            if code is None or code in seen:
                continue
            seen.add(code)
            module = _globals(function) or module  # a nested code object reads its function's module
            if module:
                looked[id(module)] = module
            functions += [(c, module) for c in code.co_consts if isinstance(c, types.CodeType)]
            for cell in getattr(function, "__closure__", None) or ():
                with contextlib.suppress(ValueError):  # an empty cell
                    if function is not build:
                        cells.append((cell, cell.cell_contents))
                    functions.append((cell.cell_contents, {}))
            for name in code.co_names:
                for names in (module, *owners):
                    if name in names:
                        value = names[name]
                        out[(id(names), name)] = (names, name, value)
                        functions.append((value, {}))
        return out

    def _note(self, dependencies: tuple[Dependency, ...]) -> None:
        """A result built inside another's build is one of its dependencies."""
        if self._building:
            self._building[-1].update(((id(names), name), (names, name, value)) for names, name, value in dependencies)

    def function(self, build: Callable[..., T]) -> Callable[..., T]:
        """``build(*args)``, kept by its arguments as :meth:`kept` keeps it, and by the fields of
        each table among them that the build read."""
        @functools.wraps(build)
        def memo(*args: Any) -> T:
            return self._call((build.__module__, build.__qualname__), build, (), args)

        return memo

    def search(self, search: Callable[..., T]) -> Callable[..., T]:
        """A search ``search(budget, *args)`` over derived terms, kept as :meth:`function` keeps
        them; a run with a second solver searches anew: its answers are the second solver's to give."""
        @functools.wraps(search)
        def memo(budget: Any, *args: Any) -> T:
            from cardcanon.proofs.smt import active

            if active() is not None:
                return search(budget, *args)
            return self._call((search.__qualname__,), search, (budget,), args)

        return memo

    def found_under(self, result: Any) -> tuple[tuple[Any, Reads], ...]:
        """Each table a kept ``result`` was built with (plain), with the fields its build read (none:
        a result not kept, such as a second solver's)."""
        built, reads = self._built.get(id(result), ((), ()))
        return tuple(zip(built, reads))

    def _call(self, name: tuple[str, ...], build: Callable[..., T], leading: tuple[Any, ...],
              args: tuple[Any, ...]) -> T:
        """``build(*leading, *args)``, kept by ``name`` and ``args``, each table among them handed as
        a copy noting the fields read (a table alone, or a field of a dataclass argument)."""
        key: list[Any] = list(name)
        handed: list[Any] = []
        current: list[Any] = []  # each table as it is now, plain
        outer: list[Reads | None] = []  # where a noted table's reads go: a build this one runs in
        copies: list[Any] = []
        copy: Any = None
        reads: list[Reads] = []
        for arg in args:
            found = list(tables(arg))
            if not found:
                key.append(arg)
                handed.append(arg)
                continue
            for _, table in found:
                base, to = unnoted(table)
                copy, read = noted(base)
                current.append(base)
                outer.append(to)
                copies.append(copy)
                reads.append(read)
            if found[0][0] is None:
                key.append((type(current[-1]), _TABLE))
                handed.append(copies[-1])
            else:
                places = {str(name): copies[len(copies) - len(found) + i] for i, (name, _) in enumerate(found)}
                key.append((type(arg), tuple((f.name, _TABLE if f.name in places else getattr(arg, f.name))
                                             for f in dataclasses.fields(arg))))
                handed.append(dataclasses.replace(arg, **places))
        run, own = (lambda: build(*leading, *handed)), tuple(reads)
        copy = None  # each copy held alike when counted and when checked
        before = _references(copies)
        result, found_reads = self._kept(tuple(key), run, tuple(current), own)
        if found_reads is own:  # built now: a copy the result holds counts as read whole
            after = _references(copies)
            if after != before:  # perhaps only garbage of the build holds a copy
                gc.collect()
                after = _references(copies)
            for i in range(len(copies)):
                if after[i] > before[i]:
                    read_all(copies[i])
        for to, read in zip(outer, found_reads):
            if to is not None:
                to.update(read)
        return result

    def clear(self) -> None:
        self.kept_results.clear()
        self._built.clear()
        self._walks.clear()
