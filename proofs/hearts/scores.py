"""The score-only abstraction of a Hearts hand (dead cards and who took each card, no play), and the
pairs of hand scores the model gives the splits of the point cards."""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterable, Sequence

import z3

from cardcanon.model import hearts as model
from cardcanon.model.cards import Card
from cardcanon.model.hearts_records import config_to_json
from cardcanon.proofs.base import Budget, Z3
from cardcanon.proofs.hearts.encoding import CARDS, DEAD_CARDS, INDEX, N_CARDS, POINT_CARDS, SCORING_STATES, Rules
from cardcanon.proofs.hearts.score_terms import hand_scores
from cardcanon.proofs.records import Record, function_record
from cardcanon.proofs.z3_eval import value_in

# (the cards each seat took, the dead cards): one way to split the point cards
Split = tuple[tuple[frozenset[Card], ...], tuple[Card, ...]]
SPARE_DEAD = (INDEX[Card.parse("AD")], INDEX[Card.parse("AS")])  # dead cards that are no point cards
ABSTRACTION_STATES = SCORING_STATES + ("HEARTS-DEAL-2",)  # the rules the score-only abstraction states


def score_hand_record(taken: Sequence[Iterable[Card]], dead: Iterable[Card], config: model.HeartsConfig,
                      label: str) -> Record:
    """A function record of the model's ``score_hand`` of one split: the cards each seat took, the dead cards."""
    return function_record("hearts", "score_hand", [[sorted(map(str, t)) for t in taken], [str(c) for c in dead],
                                                    config_to_json(config)], label=label)


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
    """Scores from the dead cards and who took each card, with no play at all: an over-approximation
    of legal play (every legal hand's scores are allowed here). Two of the 28 cards are dead
    (HEARTS-DEAL-2); the scores are the model's ``score_hand``, derived (:mod:`.score_terms`)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.dead = [z3.Bool(f"a_dead{c}") for c in range(N_CARDS)]
        self.took = [z3.Bool(f"a_took{c}") for c in range(N_CARDS)]  # seat 1 took it (if it is not dead)
        self.live = [z3.Not(d) for d in self.dead]
        self.taken = [{CARDS[c]: z3.And(self.live[c], self.took[c] == bool(p)) for c in range(N_CARDS)} for p in (0, 1)]
        self.score = hand_scores(rules, self.taken, {CARDS[c]: d for c, d in enumerate(self.dead)})
        self.solver = z3.Solver()
        self.solver.add(rules.drop.constraint("HEARTS-DEAL-2", z3.PbEq([(d, 1) for d in self.dead], DEAD_CARDS)))

    def split_of(self, m: Z3) -> tuple[list[int], list[list[Card]]]:
        """The dead cards and the cards each seat took, in a Z3 model of the abstraction (spare cards
        that score nothing fill the dead pair when a dropped HEARTS-DEAL-2 left fewer dead)."""
        dead = [c for c in range(N_CARDS) if value_in(m, self.dead[c])]
        dead += [c for c in SPARE_DEAD if c not in dead][:max(0, DEAD_CARDS - len(dead))]
        taken = [[CARDS[c] for c in range(N_CARDS) if c not in dead and value_in(m, self.took[c]) == bool(p)]
                 for p in (0, 1)]
        return dead, taken

    def scores_in(self, m: Z3) -> tuple[int, int]:
        s0, s1 = (value_in(m, x) for x in self.score)
        return s0, s1

    def model_record(self, m: Z3, label: str) -> Record:
        """The model's ``score_hand`` of the split in ``m``, as a record the runner replays."""
        dead, taken = self.split_of(m)
        return score_hand_record(taken, [CARDS[c] for c in dead], self.rules.config, label)

    def beyond(self, pairs: Collection[tuple[int, int]], limit: int, budget: Budget) -> list[tuple[int, int]]:
        """Every pair of hand scores the abstraction allows outside ``pairs``: Z3 names one at a
        time, each then excluded, until no other is allowed (UNSAT, whatever the scores), or up
        to the first with a score outside 0..``limit``."""
        s0, s1 = self.score
        found: list[tuple[int, int]] = []
        self.solver.push()
        try:
            self.solver.add(z3.Not(z3.Or([z3.And(s0 == a, s1 == b) for a, b in sorted(pairs)])))
            while budget.check(self.solver) == z3.sat:
                found.append(self.scores_in(self.solver.model()))
                if not all(0 <= x <= limit for x in found[-1]):
                    break
                self.solver.add(z3.Or(s0 != found[-1][0], s1 != found[-1][1]))
        finally:
            self.solver.pop()
        return found

    def allows(self, pair: tuple[int, int], budget: Budget) -> bool:
        s0, s1 = self.score
        return bool(budget.check(self.solver, s0 == pair[0], s1 == pair[1]) == z3.sat)
