"""HEARTS-P11: the Hearts encodings equal the model's functions on their whole domains.

The check proves under the rulebook and under a variant; a broken encoding and a broken model
(scoring, legal moves, match decision) are each caught, with a record the runner can replay:
under the broken model it replays, under the reference model it does not.
"""

from __future__ import annotations

import itertools

import pytest

from cardcanon.model import hearts as model
from cardcanon.proofs.hearts import p11_encoding as equivalence
from cardcanon.proofs.base import Verdict
from cardcanon.model.cards import Card
from cardcanon.proofs.base import Run
from cardcanon.proofs.hearts.encoding import z3_legal_follow
from cardcanon.proofs.hearts.symbolic import Unsupported
from cardcanon.verify.model_mutants import patched
from cardcanon.verify.records import replay
from cardcanon.verify.runner import run_check

GOLDEN = {"score_splits": 3072, "positions": 29, "match_bands": 8, "match_pairs": 18605}


def run(variant=None):
    return run_check(equivalence.check, variant=variant)


@pytest.mark.parametrize("variant", [{}, {"first_trick_points": "no-hearts", "break_on": "void"}])
def test_the_encodings_equal_the_model(variant):
    result = run(variant)
    assert result.verdict is Verdict.PROVED, result.detail
    assert {k: result.stats[k] for k in GOLDEN} == GOLDEN
    assert result.records and all(replay(r).ok for r in result.records)
    assert {r["function"] for r in result.records} == {"score_hand", "legal_moves", "match_result"}


def test_the_domains_are_whole():
    assert sum(1 for _ in equivalence.splits()) == 3 ** 8 - sum(
        len(list(itertools.combinations(range(8), d))) * 2 ** (8 - d) for d in range(3, 9))


def _caught(result, model_mutant=None):
    """A counterexample whose record is a real disagreement with the reference model."""
    assert result.verdict is Verdict.COUNTEREXAMPLE, result.detail
    (record,) = result.records
    with patched(None if model_mutant is None else f"hearts:{model_mutant}"):
        assert replay(record).ok, record
    if model_mutant is not None:
        assert not replay(record).ok, record
    return record


def test_a_broken_follow_encoding_is_caught(monkeypatch):
    def follow(hand, card, lead, *, first_trick, rules):  # HEARTS-FOLLOW-1 read as "may always discard"
        if card // 7 == lead // 7:
            return z3_legal_follow(hand, card, lead, first_trick=first_trick, rules=rules)
        return hand[card]

    monkeypatch.setattr(equivalence, "z3_legal_follow", follow)
    record = _caught(run())
    assert record["function"] == "legal_moves"


@pytest.mark.parametrize(("mutant", "variant", "function"), [
    ("no-follow", {}, "legal_moves"),
    ("heart-lead-anytime", {}, "legal_moves"),
    ("no-hearts-bans-queen", {"first_trick_points": "no-hearts"}, "legal_moves"),
    ("moon-needs-dead", {}, "score_hand"),
    ("tie-label-below-target", {}, "match_result"),
])
def test_a_broken_model_is_caught(mutant, variant, function):
    with patched(f"hearts:{mutant}"):
        result = run(variant)
    record = _caught(result, mutant)
    assert record["function"] == function


def test_a_model_reading_one_card_of_the_hand_is_caught(monkeypatch):
    """No feature of the hand is assumed: a rule that looks at one card anywhere in the hand is seen."""
    original = model.follow_problem

    def follow_problem(state, hand, card):  # the 10 of spades may never be discarded by a holder of the 2 of hearts
        if state.trick and Card.parse("2H") in hand and card == Card.parse("TS"):
            return "HEARTS-FOLLOW-1", "no"
        return original(state, hand, card)

    monkeypatch.setattr(model, "follow_problem", follow_problem)
    result = run()
    assert result.verdict is Verdict.COUNTEREXAMPLE and "2♥" in result.detail and "10♠" in result.detail


def test_a_model_reading_the_hand_otherwise_is_refused(monkeypatch):
    original = model.follow_problem

    def follow_problem(state, hand, card):  # reads the size of the hand: the symbolic run cannot follow
        return original(state, hand, card) if len(hand) < 14 else None

    monkeypatch.setattr(model, "follow_problem", follow_problem)
    with pytest.raises(Unsupported, match="size of the hand"):
        equivalence.check(Run())


def test_a_model_ignoring_previous_scores_in_a_band_is_caught(monkeypatch):
    original = model.match_result

    def match_result(scores, config=model.HeartsConfig(), previous=None):  # a tie at 150 ends the match
        if scores == (150, 150):
            return model.Outcome(model.Termination.BOTH_REACHED_LOWER_WINS, model.SEATS[0], scores)
        return original(scores, config, previous)

    monkeypatch.setattr(model, "match_result", match_result)
    result = run_check(equivalence.check, bounds={"window": 60})
    assert result.verdict is Verdict.COUNTEREXAMPLE and "150-150" in result.detail


@pytest.mark.parametrize("budget", [0.001, 0.05])
def test_a_budget_running_out_is_timeout_never_error(budget):
    result = run_check(equivalence.check, timeout=budget)
    assert result.verdict in (Verdict.TIMEOUT, Verdict.PROVED), (result.verdict, result.detail)


def test_an_unknown_probe_is_refused():
    with pytest.raises(ValueError, match="unknown probe"):
        run_check(equivalence.check, probe="no-such-probe")


@pytest.mark.parametrize(("rule", "variant"), [
    ("HEARTS-LEAD-1", {}), ("HEARTS-LEAD-3", {}), ("HEARTS-BREAK-1", {}), ("HEARTS-FOLLOW-1", {}),
    ("HEARTS-FIRST-1", {"first_trick_points": "no-hearts"}),
])
def test_every_legal_move_rule_dropped_is_caught(rule, variant):
    _caught(run_check(equivalence.check, probe=f"drop:{rule}", variant=variant))
