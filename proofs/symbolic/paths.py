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
from cardcanon.proofs.symbolic.terms import negation, simplified, truth

T = TypeVar("T")
E = TypeVar("E")


class Unsupported(Exception):
    """The model read a symbolic value in a way path exploration cannot follow."""


@dataclass
class _Decision:
    term: Z3
    value: bool
    forced: bool  # settled by the decisions before it: no other branch to take
    literal: Z3  # the term or its negation, as the value says


STALLED = 1000  # answers read again, with no new decision between them, that make a path a loop


class _Outside(Exception):
    """The path left the precondition of :func:`explore` (``assuming``): it is not run on."""


class _Reads:
    """What the paths of one exploration read of the terms they are asked: each term simplified,
    its Z3 id and its value when it is True or False, and its negation, kept per term object (the
    model asks the same stand-in's term on every path)."""

    def __init__(self) -> None:
        self.terms: dict[int, tuple[Z3, Z3, int, bool | None]] = {}
        self.negations: dict[int, Z3] = {}
        self.built: dict[tuple[object, ...], Z3] = {}

    def term(self, term: Z3) -> tuple[Z3, int, bool | None]:
        got = self.terms.get(id(term))
        if got is None:
            simple = simplified(term)
            got = self.terms[id(term)] = (term, simple, simple.get_id(), truth(simple))  # the term kept: its id stays its own
        return got[1], got[2], got[3]

    def kept(self, key: tuple[object, ...], build: Callable[[], Z3]) -> Z3:
        """The term ``build`` makes, built once per exploration (a question each path asks anew)."""
        if key not in self.built:
            self.built[key] = build()
        return self.built[key]

    def negation(self, term: Z3, key: int) -> Z3:
        if key not in self.negations:
            self.negations[key] = negation(term)
        return self.negations[key]


class Path:
    """One run: the decisions taken, the free ones as ``plan`` says (then False)."""

    def __init__(self, plan: list[bool], prune: bool, assuming: Z3 | None = None, read: _Reads | None = None) -> None:
        self.plan = plan
        self.read = _Reads() if read is None else read  # shared by the paths of one exploration
        self.decisions: list[_Decision] = []
        self.free = 0
        self.assuming = assuming
        self.known: dict[int, bool] = {}  # the terms decided on this path, by Z3 id
        self.rereads = 0  # answers read again since the last new decision
        self.solver = z3.Solver() if prune else None
        if self.solver is not None and assuming is not None:
            self.solver.add(assuming)

    def decide(self, term: Z3) -> bool:
        term, key, value = self.read.term(term)
        if value is not None:
            return value
        if key in self.known:  # asked again: the same answer
            self.rereads += 1
            if self.rereads > STALLED:
                self._stalled()
            return self.known[key]
        self.rereads = 0
        if self.solver is not None:
            can = [self._possible(term), self._possible(negation(term))]
            if can[0] != can[1]:
                return self._take(term, key, can[0], forced=True)
            if not can[0]:
                raise Unsupported("an infeasible path was entered")  # cannot happen: the path was feasible
        value = self.plan[self.free] if self.free < len(self.plan) else False
        self.free += 1
        return self._take(term, key, value, forced=False)

    def _possible(self, term: Z3) -> bool:
        assert self.solver is not None
        self.solver.push()
        self.solver.add(term)
        answer = self.solver.check()
        self.solver.pop()
        if answer == z3.unknown:
            raise Unsupported(f"Z3 could not decide whether a path is feasible: {self.solver.reason_unknown()}")
        return bool(answer == z3.sat)

    def _stalled(self) -> None:
        """The model keeps asking what this path has decided: a loop that cannot end on it."""
        solver = z3.Solver()
        solver.add(self.condition(), self.assuming if self.assuming is not None else z3.BoolVal(True))
        if solver.check() == z3.unsat:
            raise _Outside()
        raise Unsupported("the model loops on a path without deciding anything new")

    def _take(self, term: Z3, key: int, value: bool, forced: bool) -> bool:
        self.known[key] = value
        literal = term if value else self.read.negation(term, key)
        self.decisions.append(_Decision(term, value, forced, literal))
        if self.solver is not None:
            self.solver.add(literal)
        return value

    def condition(self) -> Z3:
        if not self.decisions:
            return z3.BoolVal(True)
        literals = (z3.Ast * len(self.decisions))(*[d.literal.as_ast() for d in self.decisions])
        ctx = self.decisions[0].literal.ctx
        return z3.BoolRef(z3.Z3_mk_and(ctx.ref(), len(self.decisions), literals), ctx)

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
    if not _current:
        raise Unsupported("a symbolic value was read outside a derivation")
    kept, key = _current[-1].read.kept, term.get_id()
    if not decide(kept(("in", key, len(universe)), lambda: z3.And(term >= 0, term < len(universe)))):
        raise OutOfUniverse(f"{term} numbers no element of its universe")
    low, high = 0, len(universe)  # halved on each decision: a path per element, log2(n) decisions each
    while high - low > 1:
        middle = (low + high) // 2
        below = kept(("below", key, middle), lambda: term < middle)
        low, high = (low, middle) if decide(below) else (middle, high)
    return universe[low]


class OutOfUniverse(Exception):
    """A symbolic choice outside its universe (a path the caller's domain excludes)."""


@dataclass(frozen=True)
class Branch(Generic[T]):
    """One path: its condition, and what the function returned (``raised``: the exception instead)."""

    condition: Z3
    result: T | None
    raised: Exception | None = None


def explore(fn: Callable[[], T], *, prune: bool = True, limit: int = 100_000,
            assuming: Z3 | None = None) -> list[Branch[T]]:
    """Every path of ``fn()`` (``fn`` builds its symbolic arguments itself or closes over them).
    With ``assuming``, the model's precondition (such as a loop that ends only when some player
    holds cards), the paths where it cannot hold are not run (with ``prune``), or are dropped
    once they loop without deciding anything new."""
    branches: list[Branch[T]] = []
    plan: list[bool] | None = []
    read = _Reads()
    while plan is not None:
        if len(branches) >= limit:
            raise Unsupported(f"more than {limit} paths")
        path = Path(plan, prune, assuming, read)
        _current.append(path)
        try:
            result: Any = fn()
            raised = None
        except Unsupported:
            raise
        except _Outside:
            plan = path.next_plan()
            continue
        except Exception as error:  # noqa: BLE001 - a path on which the model raises
            result, raised = None, error.with_traceback(None)  # its frames are the path's, done with
        finally:
            _current.pop()
        branches.append(Branch(path.condition(), result, raised))
        plan = path.next_plan()
    return branches
