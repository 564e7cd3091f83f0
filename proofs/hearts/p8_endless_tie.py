"""HEARTS-P8 (HEARTS-MATCH-3): the tie-break can go on forever, by induction on hands. Invariant: after a
hand the scores are equal and at least the target, so the match goes on. Z3 finds every pair of dead cards
that allows a hand with equal scores (a tied hand an earlier run's search found under another variant is
taken first when the model plays it alike under this one, replayed), proves that every such hand has the
queen of spades and one heart dead and three hearts to each player, and that a tied hand keeps the
invariant (the step, over the encoded match rule); the base and two steps are replayed through the model.
The scores grow, so no position repeats: it is an inductive argument, not a lasso."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import z3

from cardcanon.model import hearts as model
from cardcanon.model.hearts_records import config_to_json
from cardcanon.model.hearts_text import decision_text
from cardcanon.proofs.base import Budget, CheckResult, Run, Verdict, Z3
from cardcanon.proofs.hearts.encoding import CARDS, HEARTS, HandWitness, N_CARDS, QUEEN_OF_SPADES, Rules, TARGET
from cardcanon.proofs.hearts.score_terms import match_result_terms
from cardcanon.proofs.hearts.play_terms import MEMO
from cardcanon.proofs.hearts.replay import (
    Asked, ReplayMismatch, asked_under, found, found_elsewhere, hands_of, replay_match, replayed_found, rules_for,
)
from cardcanon.proofs.records import function_record


P8_PROBES: dict[str, dict[str, Any]] = {"widow": dict(), "tie-ends-match": dict()}  # patches: .score_terms


def check(run: Run) -> CheckResult:
    try:
        return _endless_tie(run)
    except ReplayMismatch as err:  # the model does not play the tie as the encoding does
        raise ReplayMismatch(str(err), Verdict.NO_WITNESS) from err


@MEMO.search  # asked once for every variant whose encoding and scores are the same terms
def _tied_hands(budget: Budget, rules: Rules,
                replayed: tuple[HandWitness, ...]) -> tuple[dict[tuple[int, ...], HandWitness], bool]:
    """The tied hands, one per pair of dead cards that allows one: the ``replayed`` ones (tied hands the
    model plays under the variant), then each Z3 finds with the dead pairs found so far excluded; and
    whether every tied hand has the one shape (Z3 only)."""
    hands = hands_of(rules)
    enc, score = hands.enc, hands.score
    ties = {w.dead: w for w in replayed}
    excluded = [z3.Not(z3.And([enc.dead[c] for c in dead])) for dead in ties]
    while (w := hands.find(budget, score[0] == score[1], *excluded)) is not None:
        ties[w.dead] = w
        found(rules, Asked(w))
        excluded.append(z3.Not(z3.And([enc.dead[c] for c in w.dead])))
    hearts_each = [z3.PbEq([(enc.taken[p][CARDS[h]], 1) for h in HEARTS], 3) for p in (0, 1)]
    shape = z3.And(enc.dead[QUEEN_OF_SPADES], z3.PbEq([(enc.dead[h], 1) for h in HEARTS], 1), *hearts_each)
    return ties, hands.find(budget, score[0] == score[1], z3.Not(shape)) is None


def _endless_tie(run: Run) -> CheckResult:
    target, budget = int(run.bounds.get("target", TARGET)), run.budget
    rules = rules_for(run, P8_PROBES)
    config = replace(rules.config, target=target)
    replayed: dict[tuple[int, ...], HandWitness] = {}  # a tied hand per dead pair, found by an earlier run's search
    if rules == rules.written:
        for w, _ in replayed_found(run, rules.config, lambda hand: hand.scores[0] == hand.scores[1]
                                   and hand.dead not in replayed):
            replayed[w.dead] = w
    searched = _tied_hands(budget, rules, tuple(replayed[dead] for dead in sorted(replayed)))
    ties, only_shape = searched
    # the lasso, over scores: tied past the target, the match goes on, a tied hand keeps it so (the
    # model's match_result, derived)
    q, a = z3.Ints("q a")
    ends = match_result_terms(rules, (q, q), config=config).ends
    ends_after = match_result_terms(rules, (q + a, q + a), config=config).ends
    tied_scores = sorted({w.scores[0] for w in ties.values()})
    lasso = z3.Solver()
    lasso.add(q >= target, z3.Not(ends), z3.Or([a == t for t in tied_scores] or [z3.BoolVal(False)]),
              z3.Not(ends_after))
    answer = budget.check(lasso)
    stats: dict[str, Any] = {"tie_dead_pairs": len(ties), "only_queen_and_heart_three_each": only_shape,
                             "tied_hand_scores": tied_scores}
    if answer == z3.unsat:
        tie = target + (tied_scores[0] if tied_scores else 0)  # equal scores past the target, after a tied hand
        record = function_record("hearts", "match_result", [[tie, tie], config_to_json(config), None],
                                 label=f"the model's decision at {tie}-{tie}")
        return CheckResult(Verdict.NO_WITNESS, stats=stats, records=(record,),
                           detail=f"no lasso: {len(ties)} dead pairs allow a tied hand, tied scores {tied_scores}; "
                                  f"at {tie}-{tie} the model says {decision_text(model.match_result((tie, tie), config))}"
                                  f"{asked_under([searched], rules.config)}"
                                  f"{found_elsewhere(len(replayed), f'of the {len(ties)} tied hands')}")
    keep_going = Fraction(len(ties), N_CARDS * (N_CARDS - 1) // 2)
    stats.update(p_tie_continues=str(keep_going), p_tie_ends_at_least=str(1 - keep_going))
    w = max(ties.values(), key=lambda t: t.scores[0])
    if w.scores[0] <= 0:
        return CheckResult(Verdict.NO_WITNESS, stats=stats, detail="tied hands score 0-0: no tied match reaches the target")
    k = -(-target // w.scores[0])
    states = [at.state for at in replay_match(run, [w] * (k + 2), config)]
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
        detail=f"tied hands need dead {dead_pairs} ({len(ties)} of 378 pairs); "
               f"{'every' if only_shape else 'not every'} tied hand has Q♠ and one heart dead and 3 hearts each. Each hand keeps a tie with probability at most "
               f"{keep_going}, so it ends the tie-break with probability at least {1 - keep_going}: the tie-break "
               f"ends with probability 1 but has no bound{asked_under([searched], rules.config)}"
               f"{found_elsewhere(len(replayed), f'of the {len(ties)} tied hands')}")
