"""The memo of what is derived from a reference model: a term, or what is built of terms, kept
for as long as the model code it ran is unchanged.

An encoding memo (``proofs.base.encoding_memo``) keeps results that read no model code under
every model mutant; a derived term reads the model, so it cannot be kept that way. A
:class:`ModelMemo` keeps each result with the attributes of the model's *owners* (its rule
module, its state and seat classes) that the build can reach: every attribute named in the code
of the build (its nested functions and the functions it closes over), and again in the code of
each function so reached, with every attribute of the owners that is not a function. The
result is read again only while each of them is the very object it was. A model mutant or a
probe's patch of a function the build can reach builds it afresh; one of a function it cannot
reach does not.
"""

from __future__ import annotations

import contextlib
import functools
import types
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")
Dependency = tuple[Any, str, Any]  # (owner, attribute, the object it was)


def _code(value: Any) -> types.CodeType | None:
    """The code a function attribute runs (a property's getter, a static or class method's function)."""
    if isinstance(value, property):
        value = value.fget
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    if isinstance(value, functools.partial):
        value = value.func
    return value.__code__ if isinstance(value, types.FunctionType) else None


class ModelMemo:
    """Results kept per key, each with the model attributes it depends on."""

    def __init__(self, *owners: Any) -> None:
        self.owners = owners
        self.kept_results: dict[Hashable, list[tuple[tuple[Dependency, ...], Any]]] = {}
        self._building: list[dict[tuple[int, str], Dependency]] = []  # of each result under way, by owner and name

    def _attributes(self) -> list[tuple[Any, str, Any]]:
        return [(owner, name, value) for owner in self.owners for name, value in vars(owner).items()]

    @staticmethod
    def _holds(dependencies: tuple[Dependency, ...]) -> bool:
        return all(vars(owner).get(name) is value for owner, name, value in dependencies)

    def kept(self, key: Hashable, build: Callable[[], T]) -> T:
        """``build()``, or a result kept under ``key`` whose dependencies hold now."""
        for dependencies, result in self.kept_results.get(key, ()):
            if self._holds(dependencies):
                self._note(dependencies)
                return result  # type: ignore[no-any-return]
        inner: dict[tuple[int, str], Dependency] = {}
        self._building.append(inner)
        try:
            result = build()
        finally:
            self._building.pop()
        inner.update(self._reached(build))
        for owner, name, value in self._attributes():
            if _code(value) is None and not isinstance(value, types.ModuleType):
                inner[(id(owner), name)] = (owner, name, value)
        dependencies = tuple(inner.values())
        self.kept_results.setdefault(key, []).append((dependencies, result))
        self._note(dependencies)
        return result

    def _reached(self, build: Callable[..., Any]) -> dict[tuple[int, str], Dependency]:
        """The owners' attributes named by ``build``'s code, transitively through the functions named."""
        out: dict[tuple[int, str], Dependency] = {}
        functions: list[Any] = [build]
        seen: set[types.CodeType] = set()
        while functions:
            function = functions.pop()
            code = function if isinstance(function, types.CodeType) else _code(function)
            if code is None or code in seen:
                continue
            seen.add(code)
            functions += [c for c in code.co_consts if isinstance(c, types.CodeType)]
            for cell in getattr(function, "__closure__", None) or ():
                with contextlib.suppress(ValueError):  # an empty cell
                    functions.append(cell.cell_contents)
            for name in code.co_names:
                for owner in self.owners:
                    if name in vars(owner):
                        value = vars(owner)[name]
                        out[(id(owner), name)] = (owner, name, value)
                        functions.append(value)
        return out

    def _note(self, dependencies: tuple[Dependency, ...]) -> None:
        """A result built inside another's build is one of its dependencies."""
        if self._building:
            self._building[-1].update(((id(owner), name), (owner, name, value)) for owner, name, value in dependencies)

    def search(self, search: Callable[..., T]) -> Callable[..., T]:
        """A search ``search(budget, *key)`` over derived terms, kept as :meth:`kept` keeps them; a
        run with a second solver searches anew (as ``proofs.base.search_memo`` does)."""
        @functools.wraps(search)
        def memo(budget: Any, *key: Any) -> T:
            from cardcanon.proofs.smt import active

            if active() is not None:
                return search(budget, *key)
            return self.kept((search.__qualname__, *key), lambda: search(budget, *key))

        return memo

    def clear(self) -> None:
        self.kept_results.clear()
