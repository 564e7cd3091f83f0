"""HEARTS-P4, a scoring check: whichever two cards are dead (HEARTS-DEAL-2) and whoever takes which card,
the model's hand scores add up to the points in play (HEARTS-SCORE-1, QUEEN-1: the rulebook's numbers), or
the moon rule applies (HEARTS-MOON-1/2): a player took every point card in play, at least six, and scores 0
and the other 20, or the points in play under ``moon_score = points-in-play``. Z3 over the terms of the
model's ``score_hand`` derived on symbolic cards (:mod:`.score_terms`; HEARTS-P11 shows them faithful), without
play; a moon hand and an ordinary hand of legal play are replayed through the model (reachability)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import z3

from cardcanon.model import hearts as model
from cardcanon.model.cards import Card
from cardcanon.proofs.base import CheckResult, Run, Verdict, Z3
from cardcanon.proofs.hearts.encoding import (
    CARDS, DEAD_CARDS, HEART_POINTS, MOON_OTHER, MOON_SHOOTER, POINT_CARDS, QUEEN_OF_SPADES, QUEEN_POINTS,
)
from cardcanon.proofs.hearts.replay import counterexample, hands_of, replay_single, rules_for
from cardcanon.proofs.hearts.scores import ABSTRACTION_STATES, ScoreAbstraction

MOON_CARDS = len(POINT_CARDS) - DEAD_CARDS  # HEARTS-MOON-2: "every point card in play, which is at least six cards"


P4_PROBES: dict[str, dict[str, Any]] = {"moon-26": dict(), "queen-12": dict()}


def moons(live: Sequence[Z3], took: Sequence[Z3]) -> list[Z3]:
    """HEARTS-MOON-1/2 as the claim states them: seat p took every point card in play."""
    return [z3.And([z3.Implies(live[c], took[c] == bool(p)) for c in POINT_CARDS]) for p in (0, 1)]


def check(run: Run) -> CheckResult:
    rules, budget = rules_for(run, P4_PROBES, lambda config: ABSTRACTION_STATES), run.budget
    abstraction = ScoreAbstraction(rules.only("moon_score"))
    live, took = abstraction.live, abstraction.took
    in_play = z3.Sum([z3.If(live[c], QUEEN_POINTS if c == QUEEN_OF_SPADES else HEART_POINTS, 0) for c in POINT_CARDS])
    moon = moons(live, took)
    six = [z3.PbGe([(z3.And(live[c], took[c] == bool(p)), 1) for c in POINT_CARDS], MOON_CARDS) for p in (0, 1)]
    other = in_play if rules.config.moon_score is model.MoonScore.POINTS_IN_PLAY else z3.IntVal(MOON_OTHER)
    s0, s1 = abstraction.score
    claim = z3.Or(z3.And(z3.Not(moon[0]), z3.Not(moon[1]), s0 + s1 == in_play),
                  z3.And(moon[0], six[0], s0 == MOON_SHOOTER, s1 == other),
                  z3.And(moon[1], six[1], s0 == other, s1 == MOON_SHOOTER))
    s = abstraction.solver
    answer = budget.check(s, z3.Not(claim))
    m = s.model() if answer == z3.sat else None
    if m is not None:
        dead, taken = abstraction.split_of(m)
        record = abstraction.model_record(m, f"the model's scores when player 0 takes {_points(taken[0])} and "
                                             f"player 1 {_points(taken[1])} of the point cards")
        truth, derived = record["returns"], abstraction.scores_in(m)
        return counterexample(record, f"with dead {' '.join(CARDS[c].pretty for c in dead)} the derived scores are "
                                      f"{derived[0]}-{derived[1]}, against the claim; the model scores it "
                                      f"{truth[0]}-{truth[1]}")
    shown = []
    hands = hands_of(rules.written)
    enc = hands.enc
    some_dead = z3.Or([enc.dead[c] for c in POINT_CARDS])
    hand_moon = z3.Or(moons(enc.live, enc.took))
    for is_moon in (True, False):  # reachability: a moon with a dead point card (HEARTS-MOON-2), and an
        # ordinary hand in which the queen of spades is taken (HEARTS-QUEEN-1)
        shape = z3.And(hand_moon, some_dead) if is_moon else z3.And(z3.Not(hand_moon), enc.live[QUEEN_OF_SPADES])
        w = hands.find(budget, shape)
        if w is None:
            return CheckResult(Verdict.NO_WITNESS, detail=f"no {'moon' if is_moon else 'ordinary'} hand exists: the "
                                                          f"claim would be vacuous")
        replay_single(run, w, rules.config)
        shown.append(w.describe())
    moon_other = "the points in play" if rules.config.moon_score is model.MoonScore.POINTS_IN_PLAY else MOON_OTHER
    return CheckResult(Verdict.PROVED, detail=f"every split of the point cards scores the points in play, or 0 and "
                                              f"{moon_other} on a moon of at least {MOON_CARDS} point cards; a moon "
                                              f"hand and an ordinary hand replayed",
                       witness="\n".join(shown), stats={"seconds": budget.elapsed()})


def _points(cards: Iterable[Card]) -> str:
    return " ".join(c.pretty for c in cards if CARDS.index(c) in POINT_CARDS) or "none"
