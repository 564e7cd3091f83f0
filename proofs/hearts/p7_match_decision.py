"""HEARTS-P7: whenever HEARTS-MATCH-1/2 end the match they name exactly one winner, who has the lower score
and whose opponent has reached the target ("the first to reach 100 loses" and "the lowest score wins"
agree). Z3 over the model's ``match_result`` derived on symbolic scores (:mod:`.score_terms`; HEARTS-P11 shows
the terms faithful), for all integer scores before the hand (any position where the match is still on) and
all non-negative hand scores (a superset of P5's set); the derived terms are then evaluated against the
model's ``match_result`` around the target."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import z3

from cardcanon.model import hearts as model
from cardcanon.model.hearts_records import config_to_json
from cardcanon.model.hearts_text import decision_text
from cardcanon.model.seats import Seat
from cardcanon.proofs.base import CheckResult, Run, Verdict
from cardcanon.proofs.hearts.encoding import Rules, TARGET
from cardcanon.proofs.hearts.score_terms import MATCH_STATES, match_result_terms
from cardcanon.proofs.hearts.replay import counterexample, hands_of, replay_match, rules_for
from cardcanon.proofs.records import function_record
from cardcanon.proofs.z3_eval import compile_term, value_in


P7_PROBES: dict[str, dict[str, Any]] = {"tie-ends-match": dict(), "higher-wins": dict()}


def check(run: Run) -> CheckResult:
    bounds, budget = run.bounds, run.budget
    target, window = int(bounds.get("target", TARGET)), int(bounds.get("window", 30))
    rules = rules_for(run, P7_PROBES, lambda config: MATCH_STATES)
    config = replace(rules.config, target=target)
    p0, p1, a, b = z3.Ints("p0 p1 a b")
    q0, q1 = p0 + a, p1 + b
    decided = match_result_terms(rules, (q0, q1), config=config)  # the model's match_result, derived
    ends, (win0, win1) = decided.ends, decided.wins
    s = z3.Solver()
    on = z3.Or(z3.And(p0 < target, p1 < target), z3.And(p0 == p1, p0 >= target))  # the match was still on
    s.add(p0 >= 0, p1 >= 0, a >= 0, b >= 0, on)
    claims = {
        "exactly one winner": z3.Implies(ends, win0 != win1),
        "the lower score wins": z3.And(z3.Implies(win0, q0 < q1), z3.Implies(win1, q1 < q0)),
        "the loser has reached the target": z3.And(z3.Implies(win0, q1 >= target), z3.Implies(win1, q0 >= target)),
        "a winner only when it ends": z3.Implies(z3.Or(win0, win1), ends),
    }
    for name, claim in claims.items():
        answer = budget.check(s, z3.Not(claim))
        if answer == z3.sat:
            m = s.model()
            got = tuple(value_in(m, x) for x in (q0, q1))
            truth = model.match_result(got, config)
            text = f"{name} fails at scores {got[0]}-{got[1]}; the model says {decision_text(truth)}"
            run.record(function_record("hearts", "match_result", [list(got), config_to_json(config), None],
                                       label=text))
            return _with_tie_match(run, Verdict.COUNTEREXAMPLE, text, rules, config)
    x0, x1 = z3.Ints("x0 x1")  # the very terms, compared with the model on a window of scores
    on_grid = match_result_terms(rules, (x0, x1), config=config)
    e, w0 = compile_term(on_grid.ends), compile_term(on_grid.wins[0])
    scores = range(max(0, target - window), target + window + 1)
    for compared, (v0, v1) in enumerate(itertools.product(scores, scores), 1):
        env = {"x0": v0, "x1": v1}
        mine = (0 if w0(env) else 1) if e(env) else None
        truth = model.match_result((v0, v1), config)
        if mine != (truth.winner.index if truth else None):
            record = function_record("hearts", "match_result", [[v0, v1], config_to_json(config), None],
                                     label=f"the model's decision at {v0}-{v1}")
            return counterexample(record, f"at {v0}-{v1} the derived decision says "
                                          f"{'play on' if mine is None else f'{Seat(mine)} wins'}, the model "
                                          f"{decision_text(truth)}")
    return _with_tie_match(run, Verdict.PROVED, f"all four claims proved; {compared} score pairs agree with the model",
                           rules, config, stats={"compared": compared})


def _with_tie_match(run: Run, verdict: Verdict, detail: str, rules: Rules, config: model.HeartsConfig,
                    stats: Mapping[str, Any] | None = None) -> CheckResult:
    """Replay a match (the run's variant, as written) that ties past the target, then breaks the tie."""
    target = config.target
    hands = hands_of(rules.written)
    tie, other = hands.scoring(run.budget, 3, 3), hands.scoring(run.budget, 2, 4)
    if tie is None or other is None:
        return CheckResult(verdict, detail=detail + "; no tie-break match found to replay", stats=stats or {})
    k = -(-target // 3)  # hands of 3-3 until both pass the target
    states = [at.state for at in replay_match(run, [tie] * k + [other], config)]
    tied, last = states[-2], states[-1]
    ok = tied.outcome is None and last.outcome is not None and last.outcome.winner.index == 0
    if not ok:
        return CheckResult(Verdict.COUNTEREXAMPLE,
                           detail=detail + f"; the replayed tie-break went {tied.scores} -> {last.scores}")
    return CheckResult(verdict, detail=detail, stats=stats or {},
                       witness=f"{k} hands of 3-3 then one of 2-4: scores {tied.scores} (play on) then "
                               f"{last.scores}, {decision_text(last.outcome)}")
