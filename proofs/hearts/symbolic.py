"""The model's ``play_problem`` run on a symbolic position: every path it can take, with the Z3
condition under which it takes it.

The mover's hand (a Boolean per card), the two dead cards, the number of tricks played and
"hearts broken" are Z3 constants. The model reads them through stand-ins that turn each question
into a decision: ``card in hand``, ``any(...)`` / ``all(...)`` over the hand (the builtins are
replaced while the model runs: the answer is a disjunction over the cards held), ``bool`` of
"hearts broken", comparisons of the number of tricks, ``dead_card == card``. Each path is run
again from the start with the decisions of a depth-first search, so the paths cover every
position. Any other read (the hand's size, a loop over the hand, a dead card's suit) raises
:class:`Unsupported`: the check fails, it never assumes.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import z3

from cardcanon.model import hearts as model
from cardcanon.model.cards import Card
from cardcanon.model.hearts_types import SEATS
from cardcanon.proofs.base import Z3, encoding_memo
from cardcanon.proofs.hearts.encoding import CARDS, INDEX, N_CARDS
from cardcanon.proofs.records import hearts_position

HELD = tuple(z3.Bool(f"held{c}") for c in range(N_CARDS))  # the mover's hand
DEAD = (z3.Int("dead0"), z3.Int("dead1"))
TRICKS = z3.Int("tricks_played")
BROKEN = z3.Bool("hearts_broken")
Key = tuple[Any, ...]  # a question the model asks: see term()


class Unsupported(Exception):
    """The model read the symbolic position in a way the decisions cannot follow."""


@encoding_memo()
def term(key: Key) -> Z3:
    """("held", cards): some card of ``cards`` is held; ("dead", slot, card); ("tricks", op, n); ("broken",)."""
    if key[0] == "held":
        return z3.Or([HELD[c] for c in key[1]])
    if key[0] == "dead":
        return DEAD[key[1]] == key[2]
    if key[0] == "tricks":
        return TRICKS == key[2] if key[1] == "==" else TRICKS < key[2] if key[1] == "<" else TRICKS <= key[2]
    return BROKEN


class _Path:
    """One run of the model: the decisions taken, the first ones as ``plan`` says (then False)."""

    def __init__(self, plan: list[bool]) -> None:
        self.plan = plan
        self.taken: dict[Key, bool] = {}
        self.dead: dict[int, int] = {}  # slot -> the card a dead card was found equal to

    def decide(self, key: Key) -> bool:
        if key not in self.taken:
            self.taken[key] = self.plan[len(self.taken)] if len(self.taken) < len(self.plan) else False
        return self.taken[key]

    def condition(self) -> Z3:
        return z3.And([term(k) if v else z3.Not(term(k)) for k, v in self.taken.items()])

    def next_plan(self) -> list[bool] | None:
        """The decisions of the next path in depth-first order (None: every path was run)."""
        bits = list(self.taken.values())
        while bits and bits[-1]:
            bits.pop()
        return bits[:-1] + [True] if bits else None


_path = _Path([])
_pulls: list[list[int]] = []  # per any()/all() under way: the cards of the hand yielded


class _Hand:
    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and card in INDEX and _path.decide(("held", (INDEX[card],)))

    def __iter__(self) -> Iterator[Card]:
        for i, card in enumerate(CARDS):
            if not _pulls:
                raise Unsupported("the model iterates the hand outside any() and all()")
            _pulls[-1].append(i)
            yield card

    def __bool__(self) -> bool:
        return _path.decide(("held", tuple(range(N_CARDS))))

    def __len__(self) -> int:
        raise Unsupported("the model reads the size of the hand")


def _gather(values: Iterable[Any], stop: bool) -> tuple[bool, tuple[int, ...]]:
    """Pull ``values``: (a value not from the hand was ``stop``, the cards of the hand whose value was)."""
    pull: list[int] = []
    _pulls.append(pull)
    members: list[int] = []
    try:
        for value in values:
            member = pull[-1] if pull else None
            pull.clear()
            if bool(value) == stop:
                if member is None:
                    return True, ()
                members.append(member)
    finally:
        _pulls.pop()
    return False, tuple(members)


def _any(values: Iterable[Any]) -> bool:
    stopped, members = _gather(values, True)
    return stopped or (bool(members) and _path.decide(("held", members)))


def _all(values: Iterable[Any]) -> bool:
    stopped, members = _gather(values, False)
    return not stopped and not (members and _path.decide(("held", members)))


class _Count:
    def _compare(self, other: object, op: str) -> bool:
        if not isinstance(other, int):
            raise Unsupported(f"the model compares the number of tricks with {other!r}")
        return _path.decide(("tricks", op, other))

    def __eq__(self, other: object) -> bool:
        return self._compare(other, "==")

    def __lt__(self, other: object) -> bool:
        return self._compare(other, "<")

    def __le__(self, other: object) -> bool:
        return self._compare(other, "<=")

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __gt__(self, other: object) -> bool:
        return not self <= other

    def __ge__(self, other: object) -> bool:
        return not self < other

    def __bool__(self) -> bool:
        return self != 0

    def __hash__(self) -> int:
        raise Unsupported("the model hashes the number of tricks")


class _Flag:
    def __bool__(self) -> bool:
        return _path.decide(("broken",))


class _DeadCard:
    """One of the two dead cards: only ``==`` with a card of the deck is answered."""

    def __init__(self, slot: int) -> None:
        self.slot = slot

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _DeadCard) or not isinstance(other, Card) or other not in INDEX:
            return isinstance(other, _DeadCard) and other.slot == self.slot
        if self.slot in _path.dead:
            return _path.dead[self.slot] == INDEX[other]
        equal = _path.decide(("dead", self.slot, INDEX[other]))
        if equal:
            _path.dead[self.slot] = INDEX[other]
        return equal

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        raise Unsupported("the model hashes a dead card")

    def __getattr__(self, name: str) -> Any:
        raise Unsupported(f"the model reads the {name} of a dead card")


def symbolic_state(config: model.HeartsConfig, lead: Card | None) -> model.HeartsState:
    """Seat 0 to move, leading or following seat 1's ``lead``; the other parts symbolic."""
    state = hearts_position(config, hand=(), dead=(), lead=lead, tricks_played=0, hearts_broken=False)
    for name, value in (("hands", (_Hand(), frozenset())), ("dead", (_DeadCard(0), _DeadCard(1))),
                        ("tricks_played", _Count()), ("hearts_broken", _Flag())):
        object.__setattr__(state, name, value)  # the stand-ins are no cards: past the state's own checks
    return state


@dataclass(frozen=True)
class Paths:
    """The paths of ``play_problem`` for one card: when it allows the card, when it raises."""

    allowed: Z3
    raised: Z3
    count: int


def play_paths(state: model.HeartsState, card: Card) -> Paths:
    """Every path of ``play_problem`` for seat 0 playing ``card`` in a :func:`symbolic_state`."""
    global _path
    allowed: list[Z3] = []
    raised: list[Z3] = []
    plan: list[bool] | None = []
    count, saved = 0, (builtins.any, builtins.all)
    while plan is not None:
        _path = _Path(plan)
        builtins.any, builtins.all = _any, _all
        try:
            outcome: list[Z3] | None = allowed if model.play_problem(state, model.Play(SEATS[0], card)) is None else None
        except Unsupported:
            raise
        except Exception:  # noqa: BLE001 - a path on which the model raises: infeasible, or a failure
            outcome = raised
        finally:
            builtins.any, builtins.all = saved
        if outcome is not None:
            outcome.append(_path.condition())
        count += 1
        plan = _path.next_plan()
    return Paths(z3.Or(allowed), z3.Or(raised), count)
