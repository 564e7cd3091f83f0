"""HEARTS-P2: every trick of two distinct cards has exactly one winner (Z3 over all 28 x 27 pairs), and it
is the model's ``trick_winner`` for each pair."""

from __future__ import annotations

import itertools

import z3

from cardcanon.model import hearts as model
from cardcanon.proofs.base import CheckResult, Run, Verdict
from cardcanon.proofs.hearts.encoding import (
    CARDS, HEARTS, HEARTS_SUIT, N_CARDS, NON_HEARTS, Rules, TRICKS, TRICK_STATES, beats, suit, z3_trick_winner,
)
from cardcanon.proofs.hearts.replay import Hands, replay_single, rules_for
from cardcanon.proofs.z3_eval import compile_term, value_in


P2_PROBES = {"higher-rank-any-suit": dict(), "hearts-not-trump": dict(hearts_trump=False)}


def check(run: Run) -> CheckResult:
    rules, budget = rules_for(run, P2_PROBES, lambda config: TRICK_STATES), run.budget
    lead, follow = z3.Ints("lead follow")
    w0, w1 = z3_trick_winner(lead, follow, rules=rules)
    s = z3.Solver()
    s.add(0 <= lead, lead < N_CARDS, 0 <= follow, follow < N_CARDS, lead != follow, w0 == w1)
    answer = budget.check(s)
    if answer == z3.sat:
        m = s.model()
        a, b = value_in(m, lead), value_in(m, follow)
        what = "two winners" if value_in(m, w0) else "no winner"
        return _pair_counterexample(run, rules, a, b, what)
    winner = compile_term(w1)
    for compared, (a, b) in enumerate(itertools.permutations(range(N_CARDS), 2), 1):
        mine = winner({"lead": a, "follow": b})
        if int(mine) != model.trick_winner(CARDS[a], CARDS[b]):
            return _pair_counterexample(run, rules, a, b, f"the encoding gives the trick to the "
                                        f"{'follower' if mine else 'leader'}")
    witness = _trump_witness(run, rules)
    return CheckResult(Verdict.PROVED,
                       detail=f"exactly one winner for all pairs; {compared} pairs agree with the model",
                       witness=witness, stats={"pairs": compared})


def _pair_counterexample(run: Run, rules: Rules, a: int, b: int, what: str) -> CheckResult:
    hands = Hands(rules.written)
    w = hands.find(run.budget, z3.Or([z3.And(hands.enc.pos[a][k][0], hands.enc.pos[b][k][1]) for k in range(TRICKS)]))
    truth = model.trick_winner(CARDS[a], CARDS[b])
    detail = f"{CARDS[a].pretty} led, {CARDS[b].pretty} followed: {what}; the model gives it to the " \
             f"{'follower' if truth else 'leader'}"
    if w is None:
        return CheckResult(Verdict.COUNTEREXAMPLE, detail=detail + " (no legal hand contains this trick)")
    replay_single(run, w, rules.config)  # the model accepts the hand, trick winners included
    return CheckResult(Verdict.COUNTEREXAMPLE, detail=detail, witness=w.describe())


def _trump_witness(run: Run, rules: Rules) -> str | None:
    """A legal hand in which a heart discarded on another suit wins (HEARTS-TRUMP-1)."""
    hands = Hands(rules.written)
    pos = hands.enc.pos
    w = hands.find(run.budget, z3.Or([z3.And(z3.Or([pos[c][k][0] for c in NON_HEARTS]),
                                             z3.Or([pos[h][k][1] for h in HEARTS])) for k in range(TRICKS)]))
    if w is None:
        return None
    replay_single(run, w, rules.config)
    assert any(beats(b, a) and suit(b) == HEARTS_SUIT != suit(a) for _, a, b in w.tricks)
    return w.describe()
