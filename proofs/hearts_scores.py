"""HEARTS-P4 (the hand scores add up) and HEARTS-P5 (the exact set of hand-score pairs)."""

from __future__ import annotations

from typing import Any

import itertools

import z3

from cardcanon.model import hearts as model
from cardcanon.proofs.base import CheckResult, Verdict
from cardcanon.proofs.hearts_encoding import CARDS, POINT_CARDS, HandWitness, Rules, Scoring
from cardcanon.proofs.hearts_play import rules_for
from cardcanon.proofs.hearts_replay import Budget, ReplayMismatch, hand_encoding, replay_single, sat, undecided

# ---- HEARTS-P4 ---------------------------------------------------------------------------

P4_MUTANTS = {"moon-26": dict(moon_other=26), "queen-12": dict(queen_points=12)}


def check_score_sum(*, mutant=None, timeout=30.0, bounds=None) -> CheckResult:
    """HEARTS-P4: for every deal and every legal play of a whole hand, the two hand scores add
    up to the points in play (HEARTS-SCORE-1, QUEEN-1), or the moon rule applies and they are
    0 and 20 (HEARTS-MOON-1/2). Scores are encoded per card, so the solver decides it quickly."""
    rules, budget = rules_for(P4_MUTANTS, mutant), Budget(timeout)
    enc = hand_encoding(rules)
    written = Rules()
    in_play = z3.Sum([z3.If(enc.live[c], written.points(c), 0) for c in POINT_CARDS])  # as written
    moons = [z3.And([z3.Implies(enc.live[c], enc.took[c] == bool(p)) for c in POINT_CARDS]) for p in (0, 1)]
    s0, s1 = enc.score
    claim = z3.Or(z3.And(z3.Not(moons[0]), z3.Not(moons[1]), s0 + s1 == in_play),
                  z3.And(moons[0], s0 == 0, s1 == 20), z3.And(moons[1], s0 == 20, s1 == 0))
    s = z3.Solver()
    s.add(enc.constraints)
    answer = budget.check(s, z3.Not(claim))
    if answer == z3.sat:
        w = enc.decode(s.model())
        state = replay_single(w, check_score=False)
        truth = state.hand_scores[-1]
        return CheckResult(Verdict.COUNTEREXAMPLE, witness=w.describe(), witness_replayed=True,
                           detail=f"the encoding scores a legal hand {w.scores[0]}-{w.scores[1]}; "
                                  f"the model scores it {truth[0]}-{truth[1]}")
    if answer != z3.unsat:
        return undecided(s, "score sum")
    shown = []
    for moon in (True, False):  # reachability: a moon hand and an ordinary hand
        if not sat(budget.check(s, z3.Or(moons) if moon else z3.Not(z3.Or(moons)))):
            return CheckResult(Verdict.ERROR, detail=f"no {'moon' if moon else 'ordinary'} hand found")
        w = enc.decode(s.model())
        replay_single(w)
        shown.append(w.describe())
    return CheckResult(Verdict.PROVED, detail="every legal hand scores the points in play, or 0 and 20 on a moon; "
                                              "a moon hand and an ordinary hand replayed",
                       witness="\n".join(shown), witness_replayed=True, stats={"seconds": budget.elapsed()})


# ---- HEARTS-P5 ---------------------------------------------------------------------------

P5_MUTANTS = {"queen-12": dict(queen_points=12), "widow": dict(widow=True)}


def predicted_pairs(config=None) -> frozenset[tuple[int, int]]:
    """The score pairs of every way to split the live point cards, for every pair of dead
    cards, scored by the model's ``score_hand``: what P5 must find if play never constrains
    who can take which point card."""
    config = config or model.HeartsConfig()
    points = [CARDS[c] for c in POINT_CARDS]
    out, seen = set(), set()
    for dead in itertools.combinations(CARDS, 2):
        live = [c for c in points if c not in dead]
        if tuple(live) in seen:  # only the dead point cards matter to the scores
            continue
        seen.add(tuple(live))
        for owners in itertools.product((0, 1), repeat=len(live)):
            taken = tuple(frozenset(c for c, o in zip(live, owners) if o == p) for p in (0, 1))
            out.add(model.score_hand(taken, dead, config))
    return frozenset(out)


class ScoreAbstraction:
    """Scores from the dead cards and who took each point card, with no play at all: an
    over-approximation of legal play (every legal hand's scores are allowed here)."""

    def __init__(self, rules: Rules) -> None:
        dead = [z3.Bool(f"a_dead{c}") for c in range(len(CARDS))]
        took = {c: z3.Bool(f"a_took{c}") for c in POINT_CARDS}
        self.scoring = Scoring(rules, [z3.Not(d) for d in dead], took)
        self.solver = z3.Solver()
        self.solver.add(z3.PbEq([(d, 1) for d in dead], 2))  # HEARTS-DEAL-2

    def allows(self, a: int, b: int, budget: Budget):
        return budget.check(self.solver, self.scoring.score_is(0, a), self.scoring.score_is(1, b))


_DECIDED: dict = {}


def possible_scores(rules: Rules, limit: int = 26, timeout: float = 60.0):
    """:func:`decide_pairs`, remembered per process once it has decided every pair."""
    key = (rules, limit)
    if key not in _DECIDED:
        result = decide_pairs(rules, limit, timeout)
        if result[2] is not None:
            return result
        _DECIDED[key] = result
    return _DECIDED[key]


def decide_pairs(rules: Rules, limit: int = 26, timeout: float = 60.0, expect=None):
    """Decide every pair (a, b), 0 <= a, b <= limit: ``(witnesses, stats, undecided)``.

    Stage 1 asks a score-only abstraction (dead cards and who took each point card, no play),
    which over-approximates legal play: UNSAT there is UNSAT for legal play. Stage 2 asks the
    whole-hand encoding for the pairs left, a <= b first; a pair (b, a) whose mirror (a, b) has
    a witness is checked with the seat-swapped witness pinned in the encoding. Every witness is
    replayed through the model. Both stages are incremental solvers, one push/pop per pair.

    With ``expect`` (a set of pairs) it stops at the first pair decided against it and names
    it in ``stats["contradiction"]``: pairs outside ``expect`` go to stage 2 at once.
    """
    budget = Budget(timeout)
    stage1 = ScoreAbstraction(rules)
    enc = hand_encoding(rules)
    stage2 = z3.Solver()
    stage2.add(enc.constraints)
    witnesses: dict[tuple[int, int], HandWitness] = {}
    stats: dict[str, Any] = {"candidates": 0, "abstraction_unsat": 0, "hand_queries": 0, "hand_unsat": 0}

    def in_hand(a: int, b: int):
        mirror = witnesses.get((b, a))
        extra = [enc.score_is(0, a), enc.score_is(1, b)] + (enc.fix(mirror.swapped()) if mirror else [])
        stats["hand_queries"] += 1
        answer = budget.check(stage2, *extra)
        if answer == z3.sat:
            w = enc.decode(stage2.model())
            if (w.scores[0], w.scores[1]) != (a, b):
                raise AssertionError(f"decoded scores {w.scores} for pair {a}-{b}")
            replay_single(w, check_score=rules == Rules())
            witnesses[(a, b)] = w
        elif answer == z3.unsat and mirror is None:
            stats["hand_unsat"] += 1
        elif answer == z3.unsat:
            raise ReplayMismatch(f"the seat-swapped witness of {b}-{a} does not score {a}-{b}")
        return answer

    def stop(a: int, b: int):
        stats["contradiction"] = [a, b]
        return witnesses, stats, None

    left = []
    for a, b in itertools.product(range(limit + 1), repeat=2):
        stats["candidates"] += 1
        answer = stage1.allows(a, b, budget)
        if answer == z3.unsat:
            stats["abstraction_unsat"] += 1
            if expect is not None and (a, b) in expect:
                return stop(a, b)
        elif answer != z3.sat:
            return witnesses, stats, f"pair {a}-{b} (abstraction): {stage1.solver.reason_unknown()}"
        elif expect is not None and (a, b) not in expect:
            answer = in_hand(a, b)
            if answer == z3.sat:
                return stop(a, b)
            if answer != z3.unsat:
                return witnesses, stats, f"pair {a}-{b} (whole hand): {stage2.reason_unknown()}"
        else:
            left.append((a, b))
    stats["abstraction_seconds"] = budget.elapsed()
    left.sort(key=lambda p: (p[0] > p[1], p))
    for a, b in left:
        answer = in_hand(a, b)
        if answer == z3.unsat and expect is not None:
            return stop(a, b)
        if answer not in (z3.sat, z3.unsat):
            return witnesses, stats, f"pair {a}-{b} (whole hand): {stage2.reason_unknown()}"
    stats["possible_pairs"] = len(witnesses)
    stats["seconds"] = budget.elapsed()
    return witnesses, stats, None


def check_score_pairs(*, mutant=None, timeout=60.0, bounds=None) -> CheckResult:
    """HEARTS-P5: the exact set of (a, b) per-hand score pairs that legal play can produce,
    each pair decided by Z3 (witness hand replayed through the model, or UNSAT), compared with
    the pairs of every split of the live point cards as the model scores them."""
    rules = rules_for(P5_MUTANTS, mutant)
    limit = int((bounds or {}).get("max_score", 26))
    predicted = frozenset(p for p in predicted_pairs() if max(p) <= limit)
    witnesses, stats, problem = decide_pairs(rules, limit, timeout, expect=predicted)
    if problem:
        verdict = Verdict.TIMEOUT if "timeout" in problem or "canceled" in problem else Verdict.UNKNOWN
        return CheckResult(verdict, detail=problem, stats=stats)
    if "contradiction" in stats:
        a, b = stats["contradiction"]
        if (a, b) in witnesses:
            w = witnesses[(a, b)]
            truth = replay_single(w, check_score=False).hand_scores[-1]
            return CheckResult(Verdict.COUNTEREXAMPLE, witness=w.describe(), witness_replayed=True, stats=stats,
                               detail=f"legal play scores {a}-{b}, which no split of the point cards scores; "
                                      f"the model scores that hand {truth[0]}-{truth[1]}")
        return CheckResult(Verdict.COUNTEREXAMPLE, stats=stats,
                           detail=f"a split of the point cards scores {a}-{b} but Z3 proves no legal hand does")
    found = frozenset(witnesses)
    sample = "\n".join(f"{a}-{b}: " + witnesses[(a, b)].describe().replace("\n", "; ")
                       for a, b in sorted(witnesses)[:3])
    if found != predicted:  # cannot happen when every pair was decided against ``predicted``
        raise AssertionError(f"pairs {sorted(found ^ predicted)} escaped the comparison")
    pairs = " ".join(f"{a}-{b}" for a, b in sorted(found))
    if not _DECIDED.get((rules, limit)):
        _DECIDED[(rules, limit)] = (witnesses, stats, None)
    return CheckResult(Verdict.PROVED, detail=f"{len(found)} possible hand-score pairs, each replayed; all "
                                              f"{stats['candidates'] - len(found)} others impossible: {pairs}",
                       witness=sample, witness_replayed=True, stats=stats)
