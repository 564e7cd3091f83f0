"""HEARTS-P6: some player always reaches the target within ``hands`` (34) hands, and ``hands - 1`` hands are
not enough (a replayed match in which nobody reaches it).

Whether a total has reached the target is the model's HEARTS-MATCH-1 (``reached``), derived. The bound
is proved over the hand scores of the score-only abstraction (a superset of the possible ones, so
the proof holds for legal play): its pairs are the model's pairs of the splits of the point cards and any
other pair it allows (one query shows it allows no more), all within 0..HIGHEST; since only the totals
matter, Z3 counts how often each pair occurs. The match that falls short is realised hand by hand with the
whole-hand encoding; a pair no legal hand gives is dropped and the search repeated (``pairs_refuted``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import z3

from cardcanon.model import hearts as model
from cardcanon.proofs.base import Budget, CheckResult, Run, Verdict
from cardcanon.proofs.hearts.encoding import HandWitness, TARGET
from cardcanon.proofs.hearts.replay import ReplayMismatch, counterexample, hands_of, replay_match, rules_for
from cardcanon.proofs.hearts.score_terms import reached_term
from cardcanon.proofs.hearts.scores import ABSTRACTION_STATES, ScoreAbstraction, predicted_pairs
from cardcanon.proofs.z3_eval import value_in

P6_PROBES: dict[str, dict[str, Any]] = {"target-90": dict(), "target-110": dict(), "widow": dict()}  # .score_terms


def check(run: Run) -> CheckResult:
    bounds, budget = run.bounds, run.budget
    hands, target = int(bounds.get("hands", 34)), int(bounds.get("target", TARGET))
    rules = rules_for(run, P6_PROBES, lambda config: ABSTRACTION_STATES)
    config = replace(rules.config, target=target)
    abstraction = ScoreAbstraction(rules.only("moon_score"))
    pairs = {p for p in predicted_pairs(rules.config) if abstraction.allows(p, budget)}
    pairs.update(abstraction.beyond(pairs, HIGHEST, budget))
    if any(not 0 <= x <= HIGHEST for pair in pairs for x in pair):
        return _stray_score(abstraction, budget, hands, target)
    count = {p: z3.Int(f"n_{p[0]}_{p[1]}") for p in sorted(pairs)}
    n = z3.Int("hands")
    s = z3.Solver()
    s.add(*[c >= 0 for c in count.values()], z3.Sum(list(count.values())) == n)
    totals = [z3.Sum([c * p[seat] for p, c in count.items()]) for seat in (0, 1)]
    reached = [reached_term(rules, total, config) for total in totals]  # the model's HEARTS-MATCH-1, derived
    s.add(z3.Not(reached[0]), z3.Not(reached[1]))
    witnesses: dict[tuple[int, int], HandWitness] = {}
    legal = hands_of(rules)
    refuted = 0
    while True:
        # fewer hands leave both below whenever more do (scores are not negative): the smallest
        # number of hands that always suffices is the first k whose query is UNSAT
        smallest = _first_unsat(lambda k: budget.check(s, n == k) == z3.unsat, hands)
        # the longest match below the target that matters, realised hand by hand
        k = hands - 1 if smallest == hands else hands if smallest is None else smallest - 1
        budget.check(s, n == k)  # sat: k is below the smallest number of hands that always suffices
        chosen = s.model()
        used = [p for p, c in count.items() if value_in(chosen, c) > 0]
        for p in used:  # each a legal hand scoring it, unless there is none
            if p not in witnesses and (w := legal.scoring(budget, *p)) is not None:
                witnesses[p] = w
        missing = [p for p in used if p not in witnesses]
        if not missing:
            break
        refuted += len(missing)  # a score no legal hand gives: drop it and search again
        s.add(*[count[p] == 0 for p in missing])
    result_stats = {"min_hands": smallest, "abstract_pairs": len(pairs), "pairs_refuted": refuted}
    written = rules == rules.written
    sequence = [witnesses[p] for p, c in count.items() for _ in range(value_in(chosen, c))]
    try:
        last = replay_match(run, sequence, config, check_score=written)[-1].state
    except ReplayMismatch as err:
        if smallest == hands:
            raise
        return CheckResult(Verdict.COUNTEREXAMPLE, witness=_summary(sequence), stats=result_stats,
                           detail=f"{hands} is not the smallest bound by the derived match rule (Z3: "
                                  f"{smallest or 'more'} hands); the model plays the {k}-hand match otherwise: {err}")
    if smallest == hands:
        if last.phase is model.Phase.OVER or (written and max(last.scores) >= target):
            return CheckResult(Verdict.COUNTEREXAMPLE, detail=f"the replayed {k}-hand match reached {last.scores}")
        return CheckResult(Verdict.PROVED, witness=_summary(sequence) + f"; replayed, scores {last.scores}", stats=result_stats,
                           detail=f"within {hands} hands a player always reaches {target} (Z3, over {len(pairs)} "
                                  f"hand scores, a superset of the possible ones); {k} hands can leave both at "
                                  f"{last.scores}, each hand a replayed legal hand")
    scored = "" if written else " (legal hands; the model scores them by the rules as written)"
    detail = (f"{hands} hands can leave both players below {target}" if smallest is None else
              f"{smallest} hands always reach {target}: {hands} is not the smallest bound")
    return CheckResult(Verdict.COUNTEREXAMPLE, detail=f"{detail}; a {k}-hand match replayed to {last.scores}{scored}",
                       witness=_summary(sequence), stats=result_stats)


HIGHEST = 26  # the hand scores P6 counts over are 0..HIGHEST (a lemma of the check, proved first)


def _first_unsat(unsat: Callable[[int], bool], hands: int) -> int | None:
    """The smallest k in 1..hands with ``unsat(k)`` (which stays true as k grows), None when ``hands`` is SAT:
    asked at ``hands`` and ``hands - 1`` first, then searched by halves."""
    if not unsat(hands):
        return None
    if hands == 1 or not unsat(hands - 1):
        return hands
    low, high = 0, hands - 1  # low: SAT (0 hands leave both at 0), high: UNSAT
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if unsat(middle) else (middle, high)
    return high


def _stray_score(abstraction: ScoreAbstraction, budget: Budget, hands: int, target: int) -> CheckResult:
    """The counting's lemma fails (a hand score lies outside 0..HIGHEST): a counterexample is a hand whose
    scores are both at most ``(target - 1) // hands``, ``hands`` of which leave both below the target."""
    s0, s1 = abstraction.score
    low = (target - 1) // hands
    if budget.check(abstraction.solver, s0 <= low, s1 <= low) != z3.sat:
        return CheckResult(Verdict.UNKNOWN, detail=f"a hand score lies outside 0..{HIGHEST}, the scores counted")
    m = abstraction.solver.model()
    scores = abstraction.scores_in(m)
    record = abstraction.model_record(m, f"the model's scores of the hand the encoding scores {scores[0]}-{scores[1]}")
    return counterexample(record, f"the derived scoring scores a hand {scores[0]}-{scores[1]}: {hands} such hands leave "
                                  f"both players at most {scores[0] * hands}-{scores[1] * hands}, below {target}; the "
                                  f"model scores that hand {record['returns'][0]}-{record['returns'][1]}")


def _summary(sequence: Sequence[HandWitness]) -> str:
    tally = Counter(w.scores for w in sequence)
    return f"{len(sequence)} hands: " + ", ".join(f"{k} x {a}-{b}" for (a, b), k in sorted(tally.items()))
