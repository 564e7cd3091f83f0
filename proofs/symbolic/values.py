"""Symbolic values the reference model can be run on: Booleans, integers and sets of a known
universe (cards, seats), each a Z3 term. Whenever the model needs a Python answer from one, it
asks the current path (:func:`cardcanon.proofs.symbolic.paths.decide`).

Iterating a :class:`SymSet` yields every element of its universe; inside the :func:`aggregating`
builtins (``any``, ``all``, ``sum``) each yielded element carries its
membership as a guard, so ``any(card.suit is s for card in hand)`` becomes one decision on a
disjunction instead of one path per card. Iterating outside them raises :class:`Unsupported`;
``frozenset(s)`` of a symbolic set is the set itself, and a concrete set minus, and, or a
symbolic one is symbolic.
"""

from __future__ import annotations

import builtins
import contextlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Generic, TypeVar

import z3

from cardcanon.proofs.base import Z3
from cardcanon.proofs.symbolic.paths import Unsupported, decide
from cardcanon.proofs.symbolic.terms import all_of, any_of, implies, negation

E = TypeVar("E")


def term_of(value: Any) -> Z3:
    """The Z3 term of a symbolic or concrete Boolean or integer."""
    if isinstance(value, (SymBool, SymInt)):
        return value.term
    if isinstance(value, bool):
        return z3.BoolVal(value)
    if isinstance(value, int):
        return z3.IntVal(value)
    raise Unsupported(f"no Z3 term for {type(value).__name__}")


class SymBool:
    def __init__(self, term: Z3) -> None:
        self.term = term

    def __bool__(self) -> bool:
        return decide(self.term)

    def __and__(self, other: Any) -> SymBool:
        return SymBool(z3.And(self.term, term_of(other)))

    def __or__(self, other: Any) -> SymBool:
        return SymBool(z3.Or(self.term, term_of(other)))

    def __invert__(self) -> SymBool:
        return SymBool(z3.Not(self.term))

    def __hash__(self) -> int:
        raise Unsupported("the model hashes a symbolic Boolean")


class SymInt:
    def __init__(self, term: Z3) -> None:
        self.term = term

    def _arith(self, other: Any, op: Callable[[Z3, Z3], Z3]) -> SymInt:
        return SymInt(op(self.term, term_of(other)))

    def __add__(self, other: Any) -> SymInt:
        return self._arith(other, lambda a, b: a + b)

    __radd__ = __add__

    def __sub__(self, other: Any) -> SymInt:
        return self._arith(other, lambda a, b: a - b)

    def __rsub__(self, other: Any) -> SymInt:
        return self._arith(other, lambda a, b: b - a)

    def __neg__(self) -> SymInt:
        return SymInt(-self.term)

    def __eq__(self, other: object) -> bool:
        return decide(self.term == term_of(other))

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __lt__(self, other: Any) -> bool:
        return decide(self.term < term_of(other))

    def __le__(self, other: Any) -> bool:
        return decide(self.term <= term_of(other))

    def __gt__(self, other: Any) -> bool:
        return decide(self.term > term_of(other))

    def __ge__(self, other: Any) -> bool:
        return decide(self.term >= term_of(other))

    def __bool__(self) -> bool:
        return decide(self.term != 0)

    def __hash__(self) -> int:
        raise Unsupported("the model hashes a symbolic integer")

    def __index__(self) -> int:
        raise Unsupported("the model uses a symbolic integer as an index")


_guards: list[list[Z3]] = []  # per aggregation under way: the guard of the element last yielded


class SymSet(Generic[E]):
    """A subset of the ordered ``universe``: ``member[i]`` says whether ``universe[i]`` is in it."""

    def __init__(self, universe: Sequence[E], member: Sequence[Z3]) -> None:
        self.universe = tuple(universe)
        self.member = tuple(member)
        self._index = {e: i for i, e in enumerate(self.universe)}

    def has(self, element: object) -> Z3:
        i = self._index.get(element)  # type: ignore[arg-type]
        return z3.BoolVal(False) if i is None else self.member[i]

    def __contains__(self, element: object) -> bool:
        return decide(self.has(element))

    def __iter__(self) -> Iterator[E]:
        if not _guards:
            raise Unsupported("the model iterates a symbolic set outside any(), all() and sum()")
        for element, member in zip(self.universe, self.member):
            _guards[-1].append(member)
            yield element

    def __len__(self) -> int:
        raise Unsupported("the model reads the size of a symbolic set")

    def __bool__(self) -> bool:
        return decide(any_of(self.member))

    def _combine(self, other: Iterable[Any], op: Callable[[Z3, Z3], Z3]) -> SymSet[E]:
        return SymSet(self.universe, [op(m, _has(other, e)) for e, m in zip(self.universe, self.member)])

    def __sub__(self, other: Iterable[Any]) -> SymSet[E]:
        return self._combine(other, lambda a, b: all_of((a, negation(b))))

    difference = __sub__

    def __or__(self, other: Iterable[Any]) -> SymSet[E]:
        return self._combine(other, lambda a, b: any_of((a, b)))

    union = __or__

    def __and__(self, other: Iterable[Any]) -> SymSet[E]:
        return self._combine(other, lambda a, b: all_of((a, b)))

    __rand__ = __and__
    __ror__ = __or__

    def __rsub__(self, other: Iterable[Any]) -> SymSet[E]:  # a concrete set minus this one
        return SymSet(self.universe, [all_of((_has(other, e), negation(m))) for e, m in zip(self.universe, self.member)])

    def __le__(self, other: Iterable[Any]) -> bool:
        return decide(all_of([implies(m, _has(other, e)) for e, m in zip(self.universe, self.member)]))

    issubset = __le__

    def __ge__(self, other: Iterable[Any]) -> bool:
        return decide(all_of([implies(_has(other, e), m) for e, m in zip(self.universe, self.member)]))

    issuperset = __ge__

    def __hash__(self) -> int:
        raise Unsupported("the model hashes a symbolic set")


def _has(collection: Iterable[Any], element: Any) -> Z3:
    """Membership of a concrete ``element`` in a symbolic or concrete collection, as a term."""
    if isinstance(collection, SymSet):
        return collection.has(element)
    return z3.BoolVal(element in collection)


def _gather(values: Iterable[Any]) -> list[tuple[Z3, Any]]:
    """Pull ``values``: each with the guard of the symbolic-set element it came from (True if none)."""
    guards: list[Z3] = []
    _guards.append(guards)
    out: list[tuple[Z3, Any]] = []
    try:
        for value in values:
            guard = guards[-1] if guards else z3.BoolVal(True)
            guards.clear()
            out.append((guard, value))
    finally:
        _guards.pop()
    return out


def sym_any(values: Iterable[Any]) -> bool:
    # a concrete value keeps or drops its guard: no term built per element (the common case)
    some = [all_of((g, v.term)) if isinstance(v, SymBool) else g for g, v in _gather(values)
            if isinstance(v, SymBool) or v]
    return decide(any_of(some)) if some else False


def sym_all(values: Iterable[Any]) -> bool:
    broken = [all_of((g, negation(v.term))) if isinstance(v, SymBool) else g for g, v in _gather(values)
              if isinstance(v, SymBool) or not v]
    return not decide(any_of(broken)) if broken else True


def sym_sum(values: Iterable[Any], start: Any = 0) -> Any:
    parts = _gather(values)
    if all(z3.is_true(g) and isinstance(v, int) for g, v in parts) and isinstance(start, int):
        return builtins_sum(v for _, v in parts) + start
    return SymInt(z3.Sum([term_of(start)] + [z3.If(g, term_of(v), 0) for g, v in parts]))


builtins_sum = builtins.sum


builtins_frozenset = builtins.frozenset


class _FrozensetType(type):
    def __instancecheck__(cls, obj: object) -> bool:
        return isinstance(obj, builtins_frozenset)

    def __subclasscheck__(cls, sub: type) -> bool:
        return issubclass(sub, builtins_frozenset)


class sym_frozenset(metaclass=_FrozensetType):  # noqa: N801 - stands for the builtin
    """``frozenset(s)`` of a symbolic set is that set (the model copies a set it was given);
    of anything else, the builtin's frozenset. ``isinstance(x, frozenset)`` still works."""

    def __new__(cls, iterable: Iterable[Any] = ()) -> Any:
        return iterable if isinstance(iterable, SymSet) else builtins_frozenset(iterable)


@contextlib.contextmanager
def aggregating() -> Iterator[None]:
    """``any``, ``all`` and ``sum`` replaced by their symbolic forms while the model runs, and
    ``frozenset`` passing a symbolic set through."""
    saved = builtins.any, builtins.all, builtins.sum, builtins.frozenset
    builtins.any, builtins.all, builtins.sum = sym_any, sym_all, sym_sum
    builtins.frozenset = sym_frozenset  # type: ignore[misc]
    try:
        yield
    finally:
        builtins.any, builtins.all, builtins.sum, builtins.frozenset = saved  # type: ignore[misc]
