"""HEARTS-P6 (the match bound), P7 (the 100-point decision) and P8 (the endless tie-break)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dataclasses import replace
from fractions import Fraction

import z3

from cardcanon.model import hearts as model
from cardcanon.proofs.base import Z3, Budget, CheckResult, Run, Verdict
from cardcanon.proofs.drops import Drop
from cardcanon.proofs.hearts_encoding import (
    TARGET, CARDS, HEARTS, N_CARDS, QUEEN_OF_SPADES, SCORING_STATES, HandWitness, Rules,
)
from cardcanon.proofs.z3_eval import compile_term
from cardcanon.proofs.records import function_record
from cardcanon.proofs.hearts_replay import ReplayMismatch, hand_encoding, replay_match, rules_for, sat
from cardcanon.proofs.hearts_scores import ScoreAbstraction


MATCH_STATES = ("HEARTS-MATCH-1", "HEARTS-MATCH-2", "HEARTS-GOAL-1")


def match_terms(q0: Z3, q1: Z3, target: int, mutations: tuple[str, ...] = (), drop: Drop = Drop(),
                ) -> tuple[Z3, Z3, Z3]:
    """HEARTS-MATCH-1/2 as written, on the scores after a hand: (match ends, seat 0 wins,
    seat 1 wins). Mutations: ``tie-ends-match`` (equal scores past the target end the match),
    ``higher-wins`` (when both pass the target the higher score wins). HEARTS-MATCH-1: one
    player reaching the target ends the match and loses it; HEARTS-MATCH-2: both reaching it
    with unequal scores ends it (equal scores play on); HEARTS-GOAL-1: the lower score wins."""
    only0 = drop.term("HEARTS-MATCH-1", z3.And(q0 >= target, q1 < target), "only0_reached")
    only1 = drop.term("HEARTS-MATCH-1", z3.And(q1 >= target, q0 < target), "only1_reached")
    both = z3.And(q0 >= target, q1 >= target)
    decided = both if "tie-ends-match" in mutations else z3.And(both, q0 != q1)
    ends = z3.Or(only0, only1, drop.term("HEARTS-MATCH-2", decided, "both_decided"))
    lower0, lower1 = (q0 > q1, q1 > q0) if "higher-wins" in mutations else (q0 < q1, q1 < q0)
    lower0, lower1 = drop.term("HEARTS-GOAL-1", lower0, "lower0"), drop.term("HEARTS-GOAL-1", lower1, "lower1")
    win0 = z3.Or(only1, z3.And(both, lower0))
    win1 = z3.Or(only0, z3.And(both, lower1))
    return ends, win0, win1


def _tie_hands(rules: Rules, budget: Budget) -> dict[tuple[int, ...], HandWitness]:
    """Hands with equal scores, one per pair of dead cards that allows one (blocking loop)."""
    enc = hand_encoding(rules)
    s = z3.Solver()
    s.add(enc.constraints)
    s.add(enc.score[0] == enc.score[1])
    found: dict[tuple[int, ...], HandWitness] = {}
    while budget.check(s) == z3.sat:
        w = enc.decode(s.model())
        found[w.dead] = w
        s.add(z3.Not(z3.And([enc.dead[c] for c in w.dead])))
    return found


def _hand(rules: Rules, budget: Budget, a: int, b: int) -> HandWitness | None:
    enc = hand_encoding(rules)
    s = z3.Solver()
    s.add(enc.constraints)
    return enc.decode(s.model()) if sat(budget.check(s, enc.score_is(0, a), enc.score_is(1, b))) else None


# ---- HEARTS-P6 ---------------------------------------------------------------------------

P6_PROBES = {"target-90": dict(), "target-110": dict(), "widow": dict(widow=True)}
P6_STATES = SCORING_STATES + ("HEARTS-DEAL-2",)  # the score abstraction of P5


def check_match_bound(run: Run) -> CheckResult:
    """HEARTS-P6: some player always reaches the target within ``hands`` hands, and
    ``hands - 1`` hands are not enough (a replayed match in which nobody reaches it).

    The bound is proved over the hand scores of the score-only abstraction of P5 (a superset
    of the possible ones, so the proof holds for legal play): first that every hand score lies
    in 0..HIGHEST, then, since only the totals matter, Z3 counts how often each pair occurs.
    The match that falls short is realised hand by hand with the whole-hand encoding; a pair
    no legal hand gives is dropped and the search repeated (``pairs_refuted``)."""
    bounds, budget = run.bounds, run.budget
    hands, target = int(bounds.get("hands", 34)), int(bounds.get("target", TARGET))
    rules = rules_for(run, P6_PROBES, lambda config: P6_STATES)
    if run.probe_id in ("target-90", "target-110"):
        rules, target = rules.written, int(run.probe_id.split("-")[1])  # HEARTS-MATCH-1 misread
    abstraction = ScoreAbstraction(rules)
    stray = _stray_score(abstraction, budget, hands, target, rules)
    if stray is not None:
        return stray
    pairs = sorted(abstraction.pairs(HIGHEST, budget))  # a superset of P5's set, without play
    count = {p: z3.Int(f"n_{p[0]}_{p[1]}") for p in pairs}
    n = z3.Int("hands")
    s = z3.Solver()
    s.add(*[c >= 0 for c in count.values()], z3.Sum(list(count.values())) == n)
    for seat in (0, 1):
        s.add(z3.Sum([c * p[seat] for p, c in count.items()]) < target)
    witnesses: dict[tuple[int, int], HandWitness] = {}
    refuted = 0
    while True:
        smallest = None
        for k in range(1, hands + 1):  # the smallest number of hands that always suffices
            if budget.check(s, n == k) == z3.unsat:
                smallest = k
                break
        # the longest match below the target that matters, realised hand by hand
        k = hands - 1 if smallest == hands else hands if smallest is None else smallest - 1
        budget.check(s, n == k)  # sat: k is below the smallest number of hands that always suffices
        chosen = s.model()
        used = [p for p, c in count.items() if chosen.eval(c, model_completion=True).as_long() > 0]
        missing = [p for p in used if _realise(rules, budget, p, witnesses) is None]
        if not missing:
            break
        refuted += len(missing)  # a score no legal hand gives: drop it and search again
        s.add(*[count[p] == 0 for p in missing])
    result_stats = {"min_hands": smallest, "abstract_pairs": len(pairs), "pairs_refuted": refuted}
    config = replace(rules.config, target=target)
    written = rules == rules.written
    sequence = _sequence(chosen, count, witnesses)
    last = replay_match(run, sequence, config, check_score=written)[-1].state
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


def _stray_score(abstraction: ScoreAbstraction, budget: Budget, hands: int, target: int,
                 rules: Rules) -> CheckResult | None:
    """The lemma the counting needs: every hand score lies in 0..HIGHEST. When it fails, a hand
    whose two scores are both at most ``(target - 1) // hands`` repeated ``hands`` times leaves
    both players below the target (a counterexample); None when the lemma holds."""
    s0, s1 = abstraction.scoring.score
    if abstraction.stray(HIGHEST, budget) == z3.unsat:
        return None
    low = (target - 1) // hands
    if budget.check(abstraction.solver, s0 <= low, s1 <= low) != z3.sat:
        return CheckResult(Verdict.UNKNOWN, detail=f"a hand score lies outside 0..{HIGHEST}, the scores counted")
    m = abstraction.solver.model()
    scores = abstraction.scores_in(m)
    record = abstraction.model_record(m, rules, "the model's scores of the hand the encoding scores "
                                                f"{scores[0]}-{scores[1]}")
    return CheckResult(Verdict.COUNTEREXAMPLE, records=(record,), witness=record["label"],
                       detail=f"the encoding scores a hand {scores[0]}-{scores[1]}: {hands} such hands leave both "
                              f"players at most {scores[0] * hands}-{scores[1] * hands}, below {target}; the model "
                              f"scores that hand {record['returns'][0]}-{record['returns'][1]}")


def _realise(rules: Rules, budget: Budget, pair: tuple[int, int],
             witnesses: dict[tuple[int, int], HandWitness]) -> HandWitness | None:
    """A legal hand scoring ``pair`` (remembered in ``witnesses``), or None if there is none."""
    if pair not in witnesses:
        w = _hand(rules, budget, *pair)
        if w is None:
            return None
        witnesses[pair] = w
    return witnesses[pair]


def _sequence(m: Z3, count: Mapping[tuple[int, int], Z3],
              witnesses: Mapping[tuple[int, int], HandWitness]) -> list[HandWitness]:
    out: list[HandWitness] = []
    for p, c in count.items():
        times = m.eval(c, model_completion=True).as_long()
        out += [witnesses[p]] * times if times else []
    return out


def _summary(sequence: Sequence[HandWitness]) -> str:
    tally: dict[tuple[int, ...], int] = {}
    for w in sequence:
        tally[w.scores] = tally.get(w.scores, 0) + 1
    return f"{len(sequence)} hands: " + ", ".join(f"{k} x {a}-{b}" for (a, b), k in sorted(tally.items()))


# ---- HEARTS-P7 ---------------------------------------------------------------------------

P7_PROBES: dict[str, dict[str, Any]] = {"tie-ends-match": dict(), "higher-wins": dict()}


def check_match_decision(run: Run) -> CheckResult:
    """HEARTS-P7: whenever HEARTS-MATCH-1/2 end the match they name exactly one winner, who
    has the lower score and whose opponent has reached the target ("the first to reach 100
    loses" and "the lowest score wins" agree). Z3 over all integer scores before the hand
    (any position where the match is still on) and all non-negative hand scores (a superset
    of P5's set); then compared with the model's ``match_result`` around the target."""
    bounds, budget = run.bounds, run.budget
    target, window = int(bounds.get("target", TARGET)), int(bounds.get("window", 30))
    rules = rules_for(run, P7_PROBES, lambda config: MATCH_STATES)
    config = replace(rules.config, target=target)
    p0, p1, a, b = z3.Ints("p0 p1 a b")
    q0, q1 = p0 + a, p1 + b
    ends, win0, win1 = match_terms(q0, q1, target, rules.mutations, rules.drop)
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
            got = tuple(m.eval(x, model_completion=True).as_long() for x in (q0, q1))
            truth = model.match_result(got, config)
            return _with_tie_match(run, Verdict.COUNTEREXAMPLE, f"{name} fails at scores {got}; the model says "
                                   f"{_outcome(truth)}", rules, config)
    x0, x1 = z3.Ints("x0 x1")  # the very terms, compared with the model on a window of scores
    e, w0, w1 = (compile_term(t) for t in match_terms(x0, x1, target, rules.mutations, rules.drop))
    compared = 0
    for v0 in range(max(0, target - window), target + window + 1):
        for v1 in range(max(0, target - window), target + window + 1):
            env = {"x0": v0, "x1": v1}
            mine = (0 if w0(env) else 1) if e(env) else None
            truth = model.match_result((v0, v1), config)
            compared += 1
            if mine != (truth.winner.index if truth else None):
                from cardcanon.model.hearts_records import config_to_json

                record = function_record("hearts", "match_result", [[v0, v1], config_to_json(config), None],
                                         label=f"the model's decision at {v0}-{v1}")
                return CheckResult(Verdict.COUNTEREXAMPLE, f"at {v0}-{v1} the encoding says {mine}, the model "
                                   f"{_outcome(truth)}", witness=record["label"], records=(record,))
    return _with_tie_match(run, Verdict.PROVED, f"all four claims proved; {compared} score pairs agree with the model",
                           rules, config, stats={"compared": compared})


def _outcome(outcome: model.Outcome | None) -> str:
    return "play on" if outcome is None else f"{outcome.winner} wins ({outcome.termination})"


def _with_tie_match(run: Run, verdict: Verdict, detail: str, rules: Rules, config: model.HeartsConfig,
                    stats: Mapping[str, Any] | None = None) -> CheckResult:
    """Replay a match (under the run's variant, as written) that ties past the target and then
    breaks the tie."""
    target = config.target
    tie, other = _hand(rules.written, run.budget, 3, 3), _hand(rules.written, run.budget, 2, 4)
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
                               f"{last.scores}, {_outcome(last.outcome)}")


# ---- HEARTS-P8 ---------------------------------------------------------------------------


P8_PROBES = {"widow": dict(widow=True), "tie-ends-match": dict()}


def check_endless_tie(run: Run) -> CheckResult:
    """HEARTS-P8 (HEARTS-MATCH-3): the tie-break can go on forever, by induction on hands.
    Invariant: after a hand the scores are equal and at least the target, so the match goes on.
    Z3 finds every pair of dead cards that allows a hand with equal scores, proves that every
    such hand has the queen of spades and one heart dead and three hearts to each player, and
    that a tied hand keeps the invariant (the step, over the encoded match rule); the base and
    two steps are replayed through the model. The scores grow, so no position repeats: it is
    an inductive argument, not a lasso."""
    try:
        return _endless_tie(run)
    except ReplayMismatch as err:  # the model does not play the tie as the encoding does
        raise ReplayMismatch(str(err), Verdict.NO_WITNESS) from err


def _tied_hands(rules: Rules, budget: Budget) -> tuple[dict[tuple[int, ...], HandWitness], bool]:
    """The tied hands by dead pair, and whether every tied hand has the one shape (Z3 only)."""
    ties = _tie_hands(rules, budget)
    enc = hand_encoding(rules)
    hearts_each = [z3.PbEq([(enc.scoring.won[p][h], 1) for h in HEARTS], 3) for p in (0, 1)]
    one_heart_dead = z3.PbEq([(enc.dead[h], 1) for h in HEARTS], 1)
    shape = z3.And(enc.dead[QUEEN_OF_SPADES], one_heart_dead, *hearts_each)
    s = z3.Solver()
    s.add(enc.constraints)
    return ties, budget.check(s, enc.score[0] == enc.score[1], z3.Not(shape)) == z3.unsat


def _endless_tie(run: Run) -> CheckResult:
    target, budget = int(run.bounds.get("target", TARGET)), run.budget
    rules = rules_for(run, P8_PROBES)
    if run.probe_id == "tie-ends-match":  # a mutation of the match rule, not of the hand
        rules = rules.written
    ties, only_shape = run.cached("tied hands", lambda: _tied_hands(rules, budget))
    # the lasso, over scores: tied past the target, the match goes on, a tied hand keeps it so
    q, a = z3.Ints("q a")
    mutations = ("tie-ends-match",) if run.probe_id == "tie-ends-match" else ()
    ends, _, _ = match_terms(q, q, target, mutations)
    ends_after, _, _ = match_terms(q + a, q + a, target, mutations)
    tied_scores = sorted({w.scores[0] for w in ties.values()})
    lasso = z3.Solver()
    lasso.add(q >= target, z3.Not(ends), z3.Or([a == t for t in tied_scores] or [z3.BoolVal(False)]),
              z3.Not(ends_after))
    answer = budget.check(lasso)
    stats: dict[str, Any] = {"tie_dead_pairs": len(ties), "only_queen_and_heart_three_each": only_shape}
    if answer == z3.unsat:
        return CheckResult(Verdict.NO_WITNESS, stats=stats,
                           detail=f"no lasso: {len(ties)} dead pairs allow a tied hand, tied scores {tied_scores}")
    keep_going = Fraction(len(ties), N_CARDS * (N_CARDS - 1) // 2)
    stats["p_tie_continues"] = str(keep_going)
    stats["p_tie_ends_at_least"] = str(1 - keep_going)
    w = max(ties.values(), key=lambda t: t.scores[0])
    if w.scores[0] <= 0:
        return CheckResult(Verdict.NO_WITNESS, stats=stats, detail="tied hands score 0-0: no tied match reaches the target")
    k = -(-target // w.scores[0])
    states = [at.state for at in replay_match(run, [w] * (k + 2), replace(rules.config, target=target))]
    loop = states[k - 1:]
    same = all(st.outcome is None and st.scores[0] == st.scores[1] >= target for st in loop)
    same = same and loop[0].dealer == loop[2].dealer
    if not same:
        return CheckResult(Verdict.NO_WITNESS, detail=f"the model does not keep the tie: {[st.scores for st in loop]}")
    stats["witness_hand"] = {  # the tied hand, for pictures; replayed above
        "dead": [str(CARDS[c]) for c in w.dead],
        "tricks": [[seat, str(CARDS[a]), str(CARDS[b])] for seat, a, b in w.tricks],
        "scores": list(w.scores),
        "hands_to_target": k,
    }
    dead_pairs = ", ".join(" ".join(CARDS[c].pretty for c in d) for d in sorted(ties))
    return CheckResult(
        Verdict.WITNESS, stats=stats,
        witness=f"invariant: the scores are equal and at least {target} after a hand, so the match goes on "
                f"(HEARTS-MATCH-2). Base: {k} hands of {w.scores[0]}-{w.scores[1]} reach {loop[0].scores}. Step: the "
                f"hand below keeps it ({loop[1].scores}, then {loop[2].scores}, replayed), and so does the same hand "
                f"from any such scores; the scores grow, so it is an induction, not a repeated position.\n"
                f"{w.describe()}",
        detail=f"tied hands need dead {dead_pairs} ({len(ties)} of 378 pairs); every tied hand has Q♠ and one heart "
               f"dead and 3 hearts each: {only_shape}. Each hand keeps a tie with probability at most {keep_going}, "
               f"so it ends the tie-break with probability at least {1 - keep_going}: the tie-break ends with "
               f"probability 1 but has no bound")
