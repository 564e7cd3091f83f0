"""HEARTS-P5: the exact set of hand-score pairs that legal play can produce: the pairs of every split of
the live point cards as the model scores them. The score-only abstraction (no play, a superset of legal
play) allows no other pair, whatever the scores (one query; a pair it allows is asked of the whole hand,
and refuted or a counterexample); each predicted pair has a legal hand (a witness replayed through the
model; a mirrored pair, the witness with the seats exchanged; a pair an earlier run's search found a hand
for under another variant, that hand when the model plays and scores it alike under this one), or Z3 proves
none has."""

from __future__ import annotations

from typing import Any

from cardcanon.proofs.base import CheckResult, Run, Verdict
from cardcanon.proofs.hearts.encoding import HandWitness, hand_states
from cardcanon.proofs.hearts.replay import (
    Reached, asked_under, counterexample, found, found_elsewhere, hand_scoring, replay_single, replayed_found,
    rules_for,
)
from cardcanon.proofs.hearts.scores import ScoreAbstraction, predicted_pairs, predicted_splits, score_hand_record

P5_PROBES: dict[str, dict[str, Any]] = {"queen-12": dict(), "widow": dict()}  # patches: .score_terms


def check(run: Run) -> CheckResult:
    rules, budget = rules_for(run, P5_PROBES, hand_states), run.budget
    limit = int(run.bounds.get("max_score", 26))
    predicted = frozenset(p for p in predicted_pairs(rules.config) if max(p) <= limit)
    abstraction = ScoreAbstraction(rules.only("moon_score"))
    asked: list[object] = []  # the whole-hand searches' answers (kept: a variant reading the same terms shares them)
    witnesses: dict[tuple[int, int], HandWitness] = {}
    refuted: set[tuple[int, int]] = set()
    replayed: list[Reached] = []  # witnesses an earlier run found under another variant, replayed under this one

    def in_hand(a: int, b: int) -> Reached | None:
        """A legal hand scoring a-b, replayed (kept in ``witnesses``), or None when Z3 proves there is none."""
        mirror = witnesses.get((b, a))  # a witness of b-a with the seats exchanged: the replay shows it
        w: HandWitness | None
        if mirror:
            w = mirror.swapped()
        elif rules == rules.written and (elsewhere := next(replayed_found(
                run, rules.config, lambda hand: tuple(hand.scores) == (a, b)), None)) is not None:
            witnesses[(a, b)], at = elsewhere  # a hand found under another variant, played by this one too
            replayed.append(at)
            return at
        else:
            answer = hand_scoring(budget, rules, a, b)
            found(rules, answer)
            asked.append(answer)
            w = answer.witness
        if w is None:
            return None
        witnesses[(a, b)] = w
        return replay_single(run, w, rules.config, check_score=rules == rules.written)

    for pair in abstraction.beyond(predicted, limit, budget):
        a, b = pair
        if not (0 <= a <= limit and 0 <= b <= limit):
            if not abstraction.allows(pair, budget):
                raise AssertionError(f"the abstraction allowed {pair}, then no split scores it")
            record = abstraction.model_record(abstraction.solver.model(), f"the model's scores of a split the "
                                                                          f"encoding scores {a}-{b}")
            truth = record["returns"]
            return counterexample(record, f"the derived scoring scores a split of the point cards {a}-{b}, outside "
                                          f"0..{limit}; the model scores it {truth[0]}-{truth[1]}")
        at = in_hand(a, b)
        if at is not None:
            truth = at.state.hand_scores[-1]
            return CheckResult(Verdict.COUNTEREXAMPLE, witness=witnesses[pair].describe(),
                               detail=f"legal play scores {a}-{b}, which no split of the point cards scores; "
                                      f"the model scores that hand {truth[0]}-{truth[1]}")
        refuted.add(pair)
    for a, b in sorted(predicted, key=lambda p: (p[0] > p[1], p)):  # a <= b first: their mirrors are quick
        if in_hand(a, b) is None:
            taken, dead = predicted_splits(rules.config)[(a, b)]
            record = score_hand_record(taken, dead, rules.config,
                                       f"the model scores this split of the point cards {a}-{b}")
            return counterexample(record, f"a split of the point cards scores {a}-{b} but Z3 proves no legal hand does")
    candidates = (limit + 1) ** 2
    pairs = " ".join(f"{a}-{b}" for a, b in sorted(witnesses))
    stats = {"candidates": candidates, "abstraction_unsat": candidates - len(predicted) - len(refuted),
             "hand_unsat": len(refuted), "possible_pairs": len(witnesses), "pairs": pairs, "seconds": budget.elapsed()}
    run.keep_last(12)  # every witness hand was replayed as it was found; a dozen of them stay as records
    sample = "\n".join(f"{a}-{b}: " + witnesses[(a, b)].describe().replace("\n", "; ") for a, b in sorted(witnesses)[:3])
    return CheckResult(Verdict.PROVED, witness=sample, stats=stats,
                       detail=f"{len(witnesses)} possible hand-score pairs, each replayed; all "
                              f"{candidates - len(witnesses)} others impossible: {pairs}"
                              f"{asked_under(asked, rules.config)}"
                              f"{found_elsewhere(len(replayed), 'witnesses')}")
