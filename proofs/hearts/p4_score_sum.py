"""HEARTS-P4, a scoring check: whichever two cards are dead (HEARTS-DEAL-2) and whoever takes which live
point card, the encoding's per-card hand scores add up to the points in play (HEARTS-SCORE-1, QUEEN-1: the
rulebook's numbers), or the moon rule applies (HEARTS-MOON-1/2): the shooter scores 0 and the other 20, or
the points in play under ``moon_score = points-in-play``. Z3 over the score terms alone, without play; a
moon hand and an ordinary hand of legal play are replayed through the model (reachability)."""

from __future__ import annotations

import z3

from cardcanon.model import hearts as model
from cardcanon.proofs.base import CheckResult, Run, Verdict
from cardcanon.proofs.hearts.encoding import (
    CARDS, HEART_POINTS, MOON_OTHER, MOON_SHOOTER, POINT_CARDS, QUEEN_OF_SPADES, QUEEN_POINTS,
)
from cardcanon.proofs.hearts.replay import Hands, counterexample, replay_single, rules_for
from cardcanon.proofs.hearts.scores import ABSTRACTION_STATES, ScoreAbstraction


P4_PROBES = {"moon-26": dict(moon_other=26), "queen-12": dict(queen_points=12)}


def check(run: Run) -> CheckResult:
    rules, budget = rules_for(run, P4_PROBES, lambda config: ABSTRACTION_STATES), run.budget
    abstraction = ScoreAbstraction(rules.only("moon_score"))
    live, took = abstraction.live, abstraction.took
    in_play = z3.Sum([z3.If(live[c], QUEEN_POINTS if c == QUEEN_OF_SPADES else HEART_POINTS, 0) for c in POINT_CARDS])
    moons = [z3.And([z3.Implies(live[c], took[c] == bool(p)) for c in POINT_CARDS]) for p in (0, 1)]
    other = in_play if rules.config.moon_score is model.MoonScore.POINTS_IN_PLAY else z3.IntVal(MOON_OTHER)
    s0, s1 = abstraction.scoring.score
    claim = z3.Or(z3.And(z3.Not(moons[0]), z3.Not(moons[1]), s0 + s1 == in_play),
                  z3.And(moons[0], s0 == MOON_SHOOTER, s1 == other),
                  z3.And(moons[1], s0 == other, s1 == MOON_SHOOTER))
    s = abstraction.solver
    # a lemma, proved first: each point card's points go to one seat, or (dead) to none; with it the
    # sum is linear arithmetic over the same terms (a second solver decides it in milliseconds)
    sc = abstraction.scoring
    lemma = [z3.If(sc.won[0][c], sc.value[c], 0) + z3.If(sc.won[1][c], sc.value[c], 0) == z3.If(sc.counted[c], sc.value[c], 0)
             for c in POINT_CARDS]
    s.push()
    if budget.check(s, z3.Not(z3.And(lemma))) == z3.unsat:
        s.add(lemma)
    answer = budget.check(s, z3.Not(claim))
    m = s.model() if answer == z3.sat else None
    s.pop()
    if m is not None:
        dead, taken = abstraction.split_of(m)
        mine = abstraction.scores_in(m)
        record = abstraction.model_record(m, f"the model's scores when player 0 takes "
                                          f"{' '.join(c.pretty for c in taken[0])} and player 1 "
                                          f"{' '.join(c.pretty for c in taken[1])}")
        truth = record["returns"]
        return counterexample(record, f"with dead {' '.join(CARDS[c].pretty for c in dead)} the encoding scores "
                                      f"{mine[0]}-{mine[1]}, against the claim; the model scores it "
                                      f"{truth[0]}-{truth[1]}")
    shown = []
    hands = Hands(rules.written)
    enc = hands.enc
    some_dead = z3.Or([enc.dead[c] for c in POINT_CARDS])
    for moon in (True, False):  # reachability: a moon with a dead point card (HEARTS-MOON-2), and an
        # ordinary hand in which the queen of spades is taken (HEARTS-QUEEN-1)
        shape = (z3.And(z3.Or(enc.moon), some_dead) if moon
                 else z3.And(z3.Not(z3.Or(enc.moon)), enc.live[QUEEN_OF_SPADES]))
        w = hands.find(budget, shape)
        if w is None:
            return CheckResult(Verdict.NO_WITNESS, detail=f"no {'moon' if moon else 'ordinary'} hand exists: the claim "
                                                          f"would be vacuous")
        replay_single(run, w, rules.config)
        shown.append(w.describe())
    moon_other = "the points in play" if rules.config.moon_score is model.MoonScore.POINTS_IN_PLAY else MOON_OTHER
    return CheckResult(Verdict.PROVED, detail=f"every split of the point cards scores the points in play, or 0 and "
                                              f"{moon_other} on a moon; a moon hand and an ordinary hand replayed",
                       witness="\n".join(shown), stats={"seconds": budget.elapsed()})
