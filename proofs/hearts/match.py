"""The match rules of Hearts: as Z3 terms (:func:`match_terms`), and as the rulebook states them
(:func:`rulebook_outcome`) to compare with the model's decision."""

from __future__ import annotations

import z3

from cardcanon.model.hearts_types import Outcome
from cardcanon.proofs.base import Z3
from cardcanon.proofs.drops import Drop


MATCH_STATES = ("HEARTS-MATCH-1", "HEARTS-MATCH-2", "HEARTS-GOAL-1")


def match_terms(q0: Z3, q1: Z3, target: int, mutations: tuple[str, ...] = (), drop: Drop = Drop()) -> tuple[Z3, Z3, Z3]:
    """HEARTS-MATCH-1/2 as written, on the scores after a hand: (match ends, seat 0 wins, seat 1 wins).
    HEARTS-MATCH-1: one player reaching the target ends the match and loses it; HEARTS-MATCH-2: both
    reaching it with unequal scores ends it (equal scores play on); HEARTS-GOAL-1: the lower score wins.
    Mutations: ``tie-ends-match`` (equal scores past the target end it), ``higher-wins``."""
    only0 = drop.term("HEARTS-MATCH-1", z3.And(q0 >= target, q1 < target), "only0_reached")
    only1 = drop.term("HEARTS-MATCH-1", z3.And(q1 >= target, q0 < target), "only1_reached")
    both = z3.And(q0 >= target, q1 >= target)
    decided = both if "tie-ends-match" in mutations else z3.And(both, q0 != q1)
    ends = z3.Or(only0, only1, drop.term("HEARTS-MATCH-2", decided, "both_decided"))
    lower0, lower1 = (q0 > q1, q1 > q0) if "higher-wins" in mutations else (q0 < q1, q1 < q0)
    lower0, lower1 = drop.term("HEARTS-GOAL-1", lower0, "lower0"), drop.term("HEARTS-GOAL-1", lower1, "lower1")
    win0 = z3.Or(only1, z3.And(both, lower0))
    win1 = z3.Or(only0, z3.And(both, lower1))
    return ends, win0, win1


def rulebook_outcome(scores: tuple[int, ...], previous: tuple[int, ...], target: int) -> tuple[str, int] | None:
    """HEARTS-MATCH-1/2 and HEARTS-GOAL-1 as the rulebook states them: None (play on), or
    (termination, winner). The tie is broken only when the scores before were equal at or past
    the target (equal scores there are what the tie-break plays off)."""
    a, b = scores
    if a < target and b < target:
        return None
    if a < target or b < target:
        return ("one-reached-target", 0 if a < target else 1)
    if a == b:
        return None
    tied = previous[0] == previous[1] and previous[0] >= target
    return ("tie-broken" if tied else "both-reached-lower-wins", 0 if a < b else 1)


def decision(outcome: Outcome | None) -> tuple[str, int] | None:
    """The model's outcome in :func:`rulebook_outcome`'s form."""
    return None if outcome is None else (outcome.termination.value, outcome.winner.index)
