"""HEARTS-P4 (the hand scores add up) and HEARTS-P5 (the exact set of hand-score pairs)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

import itertools

import z3

from cardcanon.model import hearts as model
from cardcanon.model.cards import Card
from cardcanon.proofs.base import Z3, Budget, CheckResult, Run, Verdict
from cardcanon.proofs.hearts_encoding import (
    CARDS, HEART_POINTS, MOON_OTHER, MOON_SHOOTER, POINT_CARDS, QUEEN_OF_SPADES, QUEEN_POINTS, SCORING_STATES,
    HandWitness, Rules, Scoring, hand_states,
)
from cardcanon.proofs.records import function_record
from cardcanon.proofs.hearts_replay import ReplayMismatch, hand_encoding, replay_single, rules_for, sat

# ---- HEARTS-P4 ---------------------------------------------------------------------------

P4_PROBES = {"moon-26": dict(moon_other=26), "queen-12": dict(queen_points=12)}
P4_STATES = SCORING_STATES + ("HEARTS-DEAL-2",)


def check_score_sum(run: Run) -> CheckResult:
    """HEARTS-P4, a scoring check: whichever two cards are dead (HEARTS-DEAL-2) and whoever
    takes which live point card, the encoding's per-card hand scores add up to the points in
    play (HEARTS-SCORE-1, QUEEN-1: the rulebook's numbers), or the moon rule applies
    (HEARTS-MOON-1/2): the shooter scores 0 and the other 20, or the points in play under
    ``moon_score = points-in-play``. Z3 over the score terms alone, without play; a moon hand
    and an ordinary hand of legal play are replayed through the model (reachability)."""
    rules, budget = rules_for(run, P4_PROBES, lambda config: P4_STATES), run.budget
    abstraction = ScoreAbstraction(rules)
    live, took = abstraction.live, abstraction.took
    in_play = z3.Sum([z3.If(live[c], QUEEN_POINTS if c == QUEEN_OF_SPADES else HEART_POINTS, 0) for c in POINT_CARDS])
    moons = [z3.And([z3.Implies(live[c], took[c] == bool(p)) for c in POINT_CARDS]) for p in (0, 1)]
    other = in_play if rules.config.moon_score is model.MoonScore.POINTS_IN_PLAY else z3.IntVal(MOON_OTHER)
    s0, s1 = abstraction.scoring.score
    claim = z3.Or(z3.And(z3.Not(moons[0]), z3.Not(moons[1]), s0 + s1 == in_play),
                  z3.And(moons[0], s0 == MOON_SHOOTER, s1 == other),
                  z3.And(moons[1], s0 == other, s1 == MOON_SHOOTER))
    s = abstraction.solver
    answer = budget.check(s, z3.Not(claim))
    if answer == z3.sat:
        m = s.model()
        dead, taken = abstraction.split_of(m)
        mine = abstraction.scores_in(m)
        record = abstraction.model_record(m, rules, f"the model's scores when P0 takes "
                                          f"{' '.join(c.pretty for c in taken[0])} and P1 "
                                          f"{' '.join(c.pretty for c in taken[1])}")
        truth = record["returns"]
        return CheckResult(Verdict.COUNTEREXAMPLE, witness=record["label"], records=(record,),
                           detail=f"with dead {' '.join(CARDS[c].pretty for c in dead)} the encoding scores "
                                  f"{mine[0]}-{mine[1]}, against the claim; the model scores it {truth[0]}-{truth[1]}")
    shown = []
    enc = hand_encoding(rules.written)
    hands = z3.Solver()
    hands.add(enc.constraints)
    some_dead = z3.Or([enc.dead[c] for c in POINT_CARDS])
    for moon in (True, False):  # reachability: a moon with a dead point card (HEARTS-MOON-2), and an
        # ordinary hand in which the queen of spades is taken (HEARTS-QUEEN-1)
        shape = (z3.And(z3.Or(enc.moon), some_dead) if moon
                 else z3.And(z3.Not(z3.Or(enc.moon)), enc.live[QUEEN_OF_SPADES]))
        if not sat(budget.check(hands, shape)):
            return CheckResult(Verdict.NO_WITNESS, detail=f"no {'moon' if moon else 'ordinary'} hand exists: the claim "
                                                          f"would be vacuous")
        w = enc.decode(hands.model())
        replay_single(run, w, rules.config)
        shown.append(w.describe())
    moon_other = "the points in play" if rules.config.moon_score is model.MoonScore.POINTS_IN_PLAY else MOON_OTHER
    return CheckResult(Verdict.PROVED, detail=f"every split of the point cards scores the points in play, or 0 and "
                                              f"{moon_other} on a moon; a moon hand and an ordinary hand replayed",
                       witness="\n".join(shown), stats={"seconds": budget.elapsed()})


# ---- HEARTS-P5 ---------------------------------------------------------------------------

P5_PROBES: dict[str, dict[str, Any]] = {"queen-12": dict(queen_points=12), "widow": dict(widow=True)}


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


def decide_pairs(run: Run, rules: Rules, limit: int = 26, expect: Collection[tuple[int, int]] | None = None,
                 ) -> tuple[dict[tuple[int, int], HandWitness], dict[str, Any]]:
    """Decide every pair (a, b), 0 <= a, b <= limit: ``(witnesses, stats)``.

    Stage 1 asks a score-only abstraction (dead cards and who took each point card, no play),
    which over-approximates legal play, for every pair it allows (:meth:`ScoreAbstraction.pairs`):
    a pair it does not allow is impossible in legal play. Stage 2 asks the
    whole-hand encoding for the pairs left, a <= b first; a pair (b, a) whose mirror (a, b) has
    a witness is checked with the seat-swapped witness pinned in the encoding. Every witness is
    replayed through the model. Both stages are incremental solvers, one push/pop per pair.

    With ``expect`` (a set of pairs) it stops at the first pair decided against it and names
    it in ``stats["contradiction"]``: pairs outside ``expect`` go to stage 2 at once.
    """
    budget = run.budget
    stage1 = ScoreAbstraction(rules)
    enc = hand_encoding(rules)
    stage2 = z3.Solver()
    stage2.add(enc.constraints)
    witnesses: dict[tuple[int, int], HandWitness] = {}
    stats: dict[str, Any] = {"candidates": 0, "abstraction_unsat": 0, "hand_queries": 0, "hand_unsat": 0}

    def in_hand(a: int, b: int) -> Z3:
        mirror = witnesses.get((b, a))
        extra = [enc.score_is(0, a), enc.score_is(1, b)] + (enc.fix(mirror.swapped()) if mirror else [])
        stats["hand_queries"] += 1
        answer = budget.check(stage2, *extra)
        if answer == z3.sat:
            w = enc.decode(stage2.model())
            if (w.scores[0], w.scores[1]) != (a, b):
                raise AssertionError(f"decoded scores {w.scores} for pair {a}-{b}")
            replay_single(run, w, rules.config, check_score=rules == rules.written)
            witnesses[(a, b)] = w
        elif answer == z3.unsat and mirror is None:
            stats["hand_unsat"] += 1
        elif answer == z3.unsat:
            raise ReplayMismatch(f"the seat-swapped witness of {b}-{a} does not score {a}-{b}")
        return answer

    def stop(a: int, b: int) -> tuple[dict[tuple[int, int], HandWitness], dict[str, Any]]:
        stats["contradiction"] = [a, b]
        return witnesses, stats

    left: list[tuple[int, int]] = []
    allowed = stage1.pairs(limit, budget)
    for a, b in itertools.product(range(limit + 1), repeat=2):
        stats["candidates"] += 1
        if (a, b) not in allowed:
            stats["abstraction_unsat"] += 1
            if expect is not None and (a, b) in expect:
                return stop(a, b)
        elif expect is not None and (a, b) not in expect:
            if in_hand(a, b) == z3.sat:
                return stop(a, b)
        else:
            left.append((a, b))
    stats["abstraction_seconds"] = budget.elapsed()
    left.sort(key=lambda p: (p[0] > p[1], p))
    for a, b in left:
        if in_hand(a, b) == z3.unsat and expect is not None:
            return stop(a, b)
    stats["possible_pairs"] = len(witnesses)
    stats["seconds"] = budget.elapsed()
    return witnesses, stats


def check_score_pairs(run: Run) -> CheckResult:
    """HEARTS-P5: the exact set of (a, b) per-hand score pairs that legal play can produce,
    each pair decided by Z3 (witness hand replayed through the model, or UNSAT), compared with
    the pairs of every split of the live point cards as the model scores them."""
    rules = rules_for(run, P5_PROBES, hand_states)
    limit = int(run.bounds.get("max_score", 26))
    lemma = ScoreAbstraction(rules)  # the pairs asked are all there are: every hand score lies in 0..limit
    answer = lemma.stray(limit, run.budget)
    if answer == z3.sat:
        m = lemma.solver.model()
        a, b = lemma.scores_in(m)
        record = lemma.model_record(m, rules, f"the model's scores of a split the encoding scores {a}-{b}")
        truth = record["returns"]
        return CheckResult(Verdict.COUNTEREXAMPLE, witness=record["label"], records=(record,),
                           detail=f"the encoding scores a split of the point cards {a}-{b}, outside 0..{limit}; "
                                  f"the model scores it {truth[0]}-{truth[1]}")
    predicted = frozenset(p for p in predicted_pairs(rules.config) if max(p) <= limit)
    witnesses, stats = decide_pairs(run, rules, limit, expect=predicted)
    if "contradiction" in stats:
        a, b = stats["contradiction"]
        if (a, b) in witnesses:
            w = witnesses[(a, b)]
            truth = replay_single(run, w, rules.config, check_score=False).state.hand_scores[-1]
            return CheckResult(Verdict.COUNTEREXAMPLE, witness=w.describe(), stats=stats,
                               detail=f"legal play scores {a}-{b}, which no split of the point cards scores; "
                                      f"the model scores that hand {truth[0]}-{truth[1]}")
        from cardcanon.model.hearts_records import config_to_json

        taken, dead = predicted_splits(rules.config)[(a, b)]
        record = function_record("hearts", "score_hand", [[sorted(map(str, t)) for t in taken], list(map(str, dead)),
                                                          config_to_json(rules.config)],
                                 label=f"the model scores this split of the point cards {a}-{b}")
        return CheckResult(Verdict.COUNTEREXAMPLE, stats=stats, records=(record,), witness=record["label"],
                           detail=f"a split of the point cards scores {a}-{b} but Z3 proves no legal hand does")
    found = frozenset(witnesses)
    sample = "\n".join(f"{a}-{b}: " + witnesses[(a, b)].describe().replace("\n", "; ")
                       for a, b in sorted(witnesses)[:3])
    if found != predicted:  # cannot happen when every pair was decided against ``predicted``
        raise AssertionError(f"pairs {sorted(found ^ predicted)} escaped the comparison")
    run.keep_last(12)  # every witness hand was replayed as it was found; a dozen of them stay as records
    pairs = " ".join(f"{a}-{b}" for a, b in sorted(found))
    return CheckResult(Verdict.PROVED, detail=f"{len(found)} possible hand-score pairs, each replayed; all "
                                              f"{stats['candidates'] - len(found)} others impossible: {pairs}",
                       witness=sample, stats=stats)
