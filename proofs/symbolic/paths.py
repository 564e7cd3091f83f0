"""Path exploration: run a plain Python function of the reference model on symbolic values, once
per path it can take, and collect the Z3 condition of each path with what the path returned.

A symbolic value asks :func:`decide` whenever the model's code needs a concrete answer from it
(``if x``, ``a < b``, ``card in hand``). The current :class:`Path` answers from its plan, records
the decision, and :func:`explore` runs the function again from the start with the next plan in
depth-first order until every combination of decisions was taken. With ``prune`` (the default) a
decision the path's condition already settles is forced and not branched on, so infeasible paths
are never run. A path on which the model raises is kept as ``raised``; :class:`Unsupported` (a
read the symbolic values cannot follow) is never swallowed: the derivation fails, it never assumes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import z3

from cardcanon.proofs.base import Z3

T = TypeVar("T")
E = TypeVar("E")


class Unsupported(Exception):
    """The model read a symbolic value in a way path exploration cannot follow."""


@dataclass
class _Decision:
    term: Z3
    value: bool
    forced: bool  # settled by the decisions before it: no other branch to take


class Path:
    """One run: the decisions taken, the free ones as ``plan`` says (then False)."""

    def __init__(self, plan: list[bool], prune: bool) -> None:
        self.plan = plan
        self.decisions: list[_Decision] = []
        self.known: dict[int, bool] = {}  # a term decided before on this path (by its Z3 id): its answer
        self.free = 0
        self.solver = z3.Solver() if prune else None

    def decide(self, term: Z3) -> bool:
        term = z3.simplify(term)
        if z3.is_true(term) or z3.is_false(term):
            return bool(z3.is_true(term))
        if term.get_id() in self.known:  # asked again: the same answer, no new branch
            return self.known[term.get_id()]
        if self.solver is not None:
            can = [self._possible(term), self._possible(z3.Not(term))]
            if can[0] != can[1]:
                return self._take(term, can[0], forced=True)
            if not can[0]:
                raise Unsupported("an infeasible path was entered")  # cannot happen: the path was feasible
        value = self.plan[self.free] if self.free < len(self.plan) else False
        self.free += 1
        return self._take(term, value, forced=False)

    def _possible(self, term: Z3) -> bool:
        assert self.solver is not None
        self.solver.push()
        self.solver.add(term)
        answer = self.solver.check()
        self.solver.pop()
        if answer == z3.unknown:
            raise Unsupported(f"Z3 could not decide whether a path is feasible: {self.solver.reason_unknown()}")
        return bool(answer == z3.sat)

    def _take(self, term: Z3, value: bool, forced: bool) -> bool:
        self.decisions.append(_Decision(term, value, forced))
        self.known[term.get_id()] = value
        if self.solver is not None:
            self.solver.add(term if value else z3.Not(term))
        return value

    def condition(self) -> Z3:
        return z3.And([d.term if d.value else z3.Not(d.term) for d in self.decisions])

    def next_plan(self) -> list[bool] | None:
        """The free decisions of the next path in depth-first order (None: every path was run)."""
        bits = [d.value for d in self.decisions if not d.forced]
        while bits and bits[-1]:
            bits.pop()
        return bits[:-1] + [True] if bits else None


_current: list[Path] = []


def decide(term: Z3) -> bool:
    """The current path's answer to the Z3 Boolean ``term`` (raises outside :func:`explore`)."""
    if not _current:
        raise Unsupported("a symbolic value was read outside a derivation")
    return _current[-1].decide(term)


def pick(term: Z3, universe: Sequence[E]) -> E:
    """The element of ``universe`` the integer ``term`` numbers (0, 1, ...), one path per element; a
    path on which ``term`` numbers none raises :class:`OutOfUniverse` (a path the model raises on).
    A symbolic card, seat or choice read by code that needs a concrete one (``card.suit is ...``)."""
    if not decide(z3.And(term >= 0, term < len(universe))):
        raise OutOfUniverse(f"{term} numbers no element of its universe")
    low, high = 0, len(universe)  # halved on each decision: a path per element, log2(n) decisions each
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if decide(term < middle) else (middle, high)
    return universe[low]


class OutOfUniverse(Exception):
    """A symbolic choice outside its universe (a path the caller's domain excludes)."""


@dataclass(frozen=True)
class Branch(Generic[T]):
    """One path: its condition, and what the function returned (``raised``: the exception instead)."""

    condition: Z3
    result: T | None
    raised: Exception | None = None


def explore(fn: Callable[[], T], *, prune: bool = True, limit: int = 100_000) -> list[Branch[T]]:
    """Every path of ``fn()`` (``fn`` builds its symbolic arguments itself or closes over them)."""
    branches: list[Branch[T]] = []
    plan: list[bool] | None = []
    while plan is not None:
        if len(branches) >= limit:
            raise Unsupported(f"more than {limit} paths")
        path = Path(plan, prune)
        _current.append(path)
        try:
            result: Any = fn()
            raised = None
        except Unsupported:
            raise
        except Exception as error:  # noqa: BLE001 - a path on which the model raises
            result, raised = None, error
        finally:
            _current.pop()
        branches.append(Branch(path.condition(), result, raised))
        plan = path.next_plan()
    return branches
