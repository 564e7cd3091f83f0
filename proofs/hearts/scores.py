"""The score-only abstraction of a Hearts hand (dead cards and who took each point card, no play), and the
pairs of hand scores the model gives the splits of the point cards."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

import z3

from cardcanon.model import hearts as model
from cardcanon.model.cards import Card
from cardcanon.proofs.base import Budget, Z3
from cardcanon.proofs.hearts.encoding import CARDS, POINT_CARDS, Rules, Scoring
from cardcanon.proofs.records import function_record


# (the cards each seat took, the dead cards): one way to split the point cards
Split = tuple[tuple[frozenset[Card], ...], tuple[Card, ...]]


def predicted_pairs(config: model.HeartsConfig | None = None) -> frozenset[tuple[int, int]]:
    """The score pairs of every way to split the live point cards, for every pair of dead
    cards, scored by the model's ``score_hand``: what P5 must find if play never constrains
    who can take which point card."""
    return frozenset(predicted_splits(config))


def predicted_splits(config: model.HeartsConfig | None = None) -> dict[tuple[int, int], Split]:
    """Each score pair of :func:`predicted_pairs` with the first (taken, dead) split scoring it."""
    config = config or model.HeartsConfig()
    points = [CARDS[c] for c in POINT_CARDS]
    out: dict[tuple[int, int], Split] = {}
    seen: set[tuple[Card, ...]] = set()
    for dead in itertools.combinations(CARDS, 2):
        live = [c for c in points if c not in dead]
        if tuple(live) in seen:  # only the dead point cards matter to the scores
            continue
        seen.add(tuple(live))
        for owners in itertools.product((0, 1), repeat=len(live)):
            taken = tuple(frozenset(c for c, o in zip(live, owners) if o == p) for p in (0, 1))
            a, b = model.score_hand(taken, dead, config)
            out.setdefault((a, b), (taken, dead))
    return out


class ScoreAbstraction:
    """Scores from the dead cards and who took each point card, with no play at all: an
    over-approximation of legal play (every legal hand's scores are allowed here)."""

    def __init__(self, rules: Rules) -> None:
        dead = [z3.Bool(f"a_dead{c}") for c in range(len(CARDS))]
        self.took = {c: z3.Bool(f"a_took{c}") for c in POINT_CARDS}
        self.live = [z3.Not(d) for d in dead]
        self.scoring = Scoring(rules, self.live, self.took)
        self.solver = z3.Solver()
        self.solver.add(rules.drop.constraint("HEARTS-DEAL-2", z3.PbEq([(d, 1) for d in dead], 2)))

    def split_of(self, m: Z3) -> tuple[list[int], list[list[Card]]]:
        """The dead cards and the point cards each seat took, in a Z3 model of the abstraction."""
        dead = [c for c in range(len(CARDS)) if not z3.is_true(m.eval(self.live[c], model_completion=True))]
        taken = [[CARDS[c] for c in POINT_CARDS if c not in dead
                  and z3.is_true(m.eval(self.took[c], model_completion=True)) == bool(p)] for p in (0, 1)]
        return dead, taken

    def scores_in(self, m: Z3) -> tuple[int, int]:
        s0, s1 = (m.eval(x, model_completion=True).as_long() for x in self.scoring.score)
        return s0, s1

    def model_record(self, m: Z3, rules: Rules, label: str) -> Mapping[str, Any]:
        """The model's ``score_hand`` of the split in ``m``, as a record the runner replays."""
        from cardcanon.model.hearts_records import config_to_json

        dead, taken = self.split_of(m)
        return function_record("hearts", "score_hand", [[sorted(map(str, t)) for t in taken],
                                                        [str(CARDS[c]) for c in dead], config_to_json(rules.config)],
                               label=label)

    def stray(self, limit: int, budget: Budget) -> Z3:
        """Ask for a hand score outside 0..limit (sat: the model of one is the solver's)."""
        s0, s1 = self.scoring.score
        return budget.check(self.solver, z3.Or(s0 < 0, s1 < 0, s0 > limit, s1 > limit))

    def pairs(self, limit: int, budget: Budget) -> frozenset[tuple[int, int]]:
        """Every pair (a, b), 0 <= a, b <= limit, that the abstraction allows: Z3 names one
        pair at a time, each then excluded, until no other pair in range is allowed (UNSAT)."""
        s0, s1 = self.scoring.score
        found: list[tuple[int, int]] = []
        self.solver.push()
        try:
            self.solver.add(s0 >= 0, s1 >= 0, s0 <= limit, s1 <= limit)
            while budget.check(self.solver) == z3.sat:
                m = self.solver.model()
                pair = (m.eval(s0, model_completion=True).as_long(), m.eval(s1, model_completion=True).as_long())
                found.append(pair)
                self.solver.add(z3.Or(s0 != pair[0], s1 != pair[1]))
        finally:
            self.solver.pop()
        return frozenset(found)
