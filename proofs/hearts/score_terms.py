"""Hand scoring and the match decision of Hearts as Z3 terms, derived by running the model's own
``score_hand`` and ``match_result`` on symbolic values (:mod:`cardcanon.proofs.symbolic`): no
second statement of HEARTS-SCORE-1, QUEEN-1, MOON-1/2, MATCH-1/2 or GOAL-1.

A probe of a check (``Rules.mutations``) or a dropped rule (``Rules.drop``) patches the model only
while deriving (:func:`breaking`): a probe replaces a rule function or number, a drop makes the
rule's number or decision a free symbol (``dropped!RULE!what``). The hand scores are kept by the
model memo (:data:`.play_terms.MEMO`) while the model code they ran stands; the match terms are
derived afresh for each use.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from cardcanon.model import hearts as model
from cardcanon.model.cards import Card
from cardcanon.model.hearts_types import SEATS, Termination
from cardcanon.model.seats import Seat
from cardcanon.proofs.base import Z3
from cardcanon.proofs.hearts.encoding import SCORING_STATES, Rules
from cardcanon.proofs.hearts.play_terms import MEMO
from cardcanon.proofs.symbolic import (
    Branch, SymBool, SymInt, SymSet, Unsupported, aggregating, explore, free, join, patched, term_of,
)

__all__ = ["DROPS", "MATCH_STATES", "PROBES", "SCORING_STATES", "TERMINATIONS", "MatchResultTerms", "breaking", "equals",
           "hand_scores", "match_result_terms", "reached_term"]
MATCH_STATES = ("HEARTS-MATCH-1", "HEARTS-MATCH-2", "HEARTS-GOAL-1")
TERMINATIONS = tuple(Termination)  # a decision's label term: the index of its termination, -1 to play on


# ---- breaking a rule while deriving -----------------------------------------------------------------
def _free_int(rule: str, what: str) -> SymInt:
    return SymInt(free(f"dropped!{rule}!{what}", z3.IntSort()))


def _free_bool(rule: str, what: str) -> SymBool:
    return SymBool(free(f"dropped!{rule}!{what}", z3.BoolSort()))


def _widow() -> Callable[..., Any]:
    """HEARTS-DEAL-2 misread: the dead cards go to a player (the winner of the last trick, a free
    symbol here), so every point card counts."""
    score_hand = model.score_hand

    def scored(taken: Sequence[Any], dead: Any, config: model.HeartsConfig = model.HeartsConfig()) -> Any:
        if SymBool(free("probe!widow!dead_to_player_1", z3.BoolSort())):
            return score_hand((taken[0], taken[1] | dead), (), config)
        return score_hand((taken[0] | dead, taken[1]), (), config)

    return scored


def _target(points: int) -> Callable[[Any, model.HeartsConfig], Any]:
    return lambda score, config: score >= points  # HEARTS-MATCH-1 misread: another target


# each: the model's attributes replaced while deriving (built when the derivation starts)
PROBES: Mapping[str, Callable[[], dict[str, Any]]] = {
    "queen-12": lambda: {"QUEEN_POINTS": 12},
    "moon-26": lambda: {"MOON_OTHER_POINTS": 26},
    "widow": lambda: {"score_hand": _widow()},
    "target-90": lambda: {"reached": _target(90)},
    "target-110": lambda: {"reached": _target(110)},
    "tie-ends-match": lambda: {"ties_play_on": lambda a, b: False},
    "higher-wins": lambda: {"lower_score": lambda a, b: SEATS[0] if a > b else SEATS[1]},
}
DROPS: Mapping[str, Callable[[], dict[str, Any]]] = {
    "HEARTS-SCORE-1": lambda: {"HEART_POINTS": _free_int("HEARTS-SCORE-1", "heart_points")},
    "HEARTS-QUEEN-1": lambda: {"QUEEN_POINTS": _free_int("HEARTS-QUEEN-1", "queen_points")},
    "HEARTS-MOON-1": lambda: {"MOON_SHOOTER_POINTS": _free_int("HEARTS-MOON-1", "moon_shooter_points"),
                              "MOON_OTHER_POINTS": _free_int("HEARTS-MOON-1", "moon_other_points")},
    "HEARTS-MOON-2": lambda: {"points_in_play": lambda dead: SymSet(model.DECK, [
        free(f"dropped!HEARTS-MOON-2!in_play_{card}", z3.BoolSort()) for card in model.DECK])},
    "HEARTS-MATCH-1": lambda: {"reached": lambda score, config: _free_bool(
        "HEARTS-MATCH-1", f"reached({term_of(score)})")},
    "HEARTS-MATCH-2": lambda: {"ties_play_on": lambda a, b: _free_bool(
        "HEARTS-MATCH-2", f"ties_play_on({term_of(a)},{term_of(b)})")},
    "HEARTS-GOAL-1": lambda: {"lower_score": lambda a, b: SEATS[0] if _free_bool(
        "HEARTS-GOAL-1", f"seat_0_wins({term_of(a)},{term_of(b)})") else SEATS[1]},
}


@contextlib.contextmanager
def breaking(rules: Rules) -> Iterator[None]:
    """The model with ``rules``' probe or dropped rule, while the block runs (other probes and
    drops are another derivation's: they change nothing here)."""
    replacements: dict[str, Any] = {}
    for name in rules.mutations:
        replacements.update(PROBES[name]() if name in PROBES else {})
    dropped = rules.drop.rule
    if dropped is not None and dropped in DROPS:
        replacements.update(DROPS[dropped]())
    with patched(model, **replacements):
        yield


def _run(rules: Rules, call: Callable[[], Any]) -> list[Branch[Any]]:
    with breaking(rules), aggregating():
        branches = explore(call)
    raised = [b for b in branches if b.raised is not None]
    if raised:
        raise Unsupported(f"the model raises on a symbolic path: {raised[0].raised}")
    return branches


def _instance(term: Z3, pairs: Sequence[tuple[Z3, Z3]]) -> Z3:
    return z3.simplify(z3.substitute(term, *pairs)) if pairs else z3.simplify(term)


# ---- hand scoring ---------------------------------------------------------------------------------
_TAKEN = tuple(tuple(z3.Bool(f"score_taken{p}_{i}") for i in range(len(model.DECK))) for p in (0, 1))
_DEAD = tuple(z3.Bool(f"score_dead{i}") for i in range(len(model.DECK)))


def hand_scores(rules: Rules, taken: Sequence[Mapping[Card, Z3]], dead: Mapping[Card, Z3]) -> tuple[Z3, Z3]:
    """The model's ``score_hand`` as two terms over per-card Booleans: ``taken[p][card]`` (seat p
    took it) and ``dead[card]``, for every card of the deck."""
    pairs = [(x, taken[p][card]) for p in (0, 1) for x, card in zip(_TAKEN[p], model.DECK)]
    pairs += [(x, dead[card]) for x, card in zip(_DEAD, model.DECK)]
    s0, s1 = _score_hand(rules)
    return _instance(s0, pairs), _instance(s1, pairs)


@MEMO.function
def _score_hand(rules: Rules) -> tuple[Z3, Z3]:
    """The model's ``score_hand`` of the cards taken :data:`_TAKEN` and dead :data:`_DEAD`."""
    sym_taken = tuple(SymSet(model.DECK, members) for members in _TAKEN)
    sym_dead = SymSet(model.DECK, _DEAD)
    branches = _run(rules, lambda: model.score_hand(sym_taken, sym_dead, rules.config))
    return join(branches, lambda r: term_of(r[0])).term, join(branches, lambda r: term_of(r[1])).term


def equals(term: Z3, value: int) -> Z3:
    """``term == value`` with each sum of 0/k choices as a pseudo-Boolean constraint (much faster
    to solve over a whole hand); any other term as the plain equation."""
    if z3.is_int_value(term):
        return z3.BoolVal(term.as_long() == value)
    if z3.is_app_of(term, z3.Z3_OP_ITE):
        return z3.If(term.arg(0), equals(term.arg(1), value), equals(term.arg(2), value))
    parts = list(term.children()) if z3.is_add(term) else [term]
    constant, weighted = 0, []
    for part in parts:
        if z3.is_int_value(part):
            constant += part.as_long()
        elif (z3.is_app_of(part, z3.Z3_OP_ITE) and z3.is_int_value(part.arg(1)) and z3.is_int_value(part.arg(2))
              and part.arg(2).as_long() == 0 and part.arg(1).as_long() > 0):
            weighted.append((part.arg(0), part.arg(1).as_long()))
        else:
            return term == value
    if value - constant < 0:
        return z3.BoolVal(False)
    return z3.PbEq(weighted, value - constant) if weighted else z3.BoolVal(value == constant)


# ---- the match decision -----------------------------------------------------------------------------
def reached_term(rules: Rules, score: Z3, config: model.HeartsConfig | None = None) -> Z3:
    """The model's ``reached`` (HEARTS-MATCH-1: a score has reached the target) of an integer term."""
    symbol = z3.Int("match_reached_score")
    score_value: Any = SymInt(symbol)
    branches = _run(rules, lambda: model.reached(score_value, config or rules.config))
    return _instance(join(branches, lambda r: z3.BoolVal(bool(r)) if isinstance(r, bool) else term_of(r)).term,
                     [(symbol, score)])


@dataclass(frozen=True)
class MatchResultTerms:
    """The model's ``match_result`` after a hand: whether the match ends, whether each seat wins, and
    the label (the index in ``TERMINATIONS`` of its termination, -1 to play on)."""

    ends: Z3
    wins: tuple[Z3, Z3]
    label: Z3
    paths: int


_SCORES = (z3.Int("match_score0"), z3.Int("match_score1"))
_PREVIOUS = (z3.Int("match_previous0"), z3.Int("match_previous1"))


def match_result_terms(rules: Rules, scores: Sequence[Z3], previous: Sequence[Z3] | None = None,
                config: model.HeartsConfig | None = None) -> MatchResultTerms:
    """The model's ``match_result(scores, config, previous)`` as terms over integer score terms
    (``previous``: None, or the scores before the hand)."""
    config = config or rules.config
    sym_scores: Any = (SymInt(_SCORES[0]), SymInt(_SCORES[1]))
    sym_previous: Any = None if previous is None else (SymInt(_PREVIOUS[0]), SymInt(_PREVIOUS[1]))
    branches = _run(rules, lambda: model.match_result(sym_scores, config, previous=sym_previous))
    pairs = list(zip(_SCORES, scores)) + ([] if previous is None else list(zip(_PREVIOUS, previous)))

    def won(seat: Seat) -> Callable[[Any], Z3]:
        return lambda r: z3.BoolVal(r is not None and r.winner == seat)

    ends = join(branches, lambda r: z3.BoolVal(r is not None)).term
    label = join(branches, lambda r: z3.IntVal(-1 if r is None else TERMINATIONS.index(r.termination))).term
    wins = (_instance(join(branches, won(SEATS[0])).term, pairs), _instance(join(branches, won(SEATS[1])).term, pairs))
    return MatchResultTerms(_instance(ends, pairs), wins, _instance(label, pairs), len(branches))
