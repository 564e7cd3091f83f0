"""HEARTS-P4 (the hand scores add up) and HEARTS-P5 (the exact set of hand-score pairs)."""

from __future__ import annotations

import itertools
from collections.abc import Collection
from typing import Any

import z3

from cardcanon.model import hearts as model
from cardcanon.proofs.base import CheckResult, Run, Verdict, Z3
from cardcanon.proofs.hearts.encoding import HandWitness, Rules, hand_states
from cardcanon.proofs.hearts.replay import ReplayMismatch, hand_encoding, replay_single, rules_for
from cardcanon.proofs.hearts.scores import ScoreAbstraction, predicted_pairs, predicted_splits
from cardcanon.proofs.records import function_record


# ---- HEARTS-P4 ---------------------------------------------------------------------------


# ---- HEARTS-P5 ---------------------------------------------------------------------------

P5_PROBES: dict[str, dict[str, Any]] = {"queen-12": dict(queen_points=12), "widow": dict(widow=True)}


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


def check(run: Run) -> CheckResult:
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
