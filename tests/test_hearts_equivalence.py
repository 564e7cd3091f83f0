"""HEARTS-P11: the Hearts encodings and derived terms equal the model's functions.

The check proves under the rulebook and under a variant; a broken encoding, broken derived terms and
a broken model (scoring, match decision) are each caught, with a record the runner can replay: under
the broken model it replays, under the reference model it does not.
"""

from __future__ import annotations

import itertools

import pytest
import z3

from cardcanon.model import hearts as model
from cardcanon.proofs.hearts import p11_encoding as equivalence
from cardcanon.proofs.base import Verdict
from cardcanon.proofs.hearts.play_terms import HELD
from cardcanon.proofs.base import Run
from cardcanon.proofs.hearts.play_terms import Legality
from cardcanon.proofs.symbolic import Unsupported
from cardcanon.verify.model_mutants import patched
from cardcanon.verify.records import replay
from cardcanon.verify.runner import run_check

GOLDEN = {"score_splits": 3072, "positions": 2000, "match_bands": 8, "match_pairs": 18605, "hands_played": 8,
          "hands_found": 8}


def run(variant=None):
    return run_check(equivalence.check, variant=variant)


@pytest.mark.parametrize("variant", [{}, {"first_trick_points": "no-hearts", "break_on": "void"}])
def test_the_encodings_equal_the_model(variant):
    result = run(variant)
    assert result.verdict is Verdict.PROVED, result.detail
    assert {k: result.stats[k] for k in GOLDEN} == GOLDEN
    assert result.records and all(replay(r).ok for r in result.records)
    assert {r.get("function", "a hand") for r in result.records} == {"score_hand", "legal_moves", "match_result", "a hand"}


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


def test_broken_derived_legality_is_caught(monkeypatch):
    original = equivalence.legality

    def legality(config, probe=None):  # HEARTS-FOLLOW-1 read as "may always discard": any held card follows
        terms = original(config, probe)
        follow = tuple(tuple(z3.And(held, z3.BoolVal(a != c)) for c, held in enumerate(HELD)) for a in range(len(HELD)))
        return Legality(terms.lead, follow, terms.raised, terms.paths)

    monkeypatch.setattr(equivalence, "legality", legality)
    record = _caught(run())
    assert record["function"] == "legal_moves"


@pytest.mark.parametrize(("mutant", "variant", "function"), [
    ("moon-needs-dead", {}, "score_hand"),
    ("tie-label-below-target", {}, "match_result"),
])
def test_a_broken_model_is_caught(mutant, variant, function):
    with patched(f"hearts:{mutant}"):
        result = run(variant)
    record = _caught(result, mutant)
    assert record["function"] == function


@pytest.mark.parametrize(("mutant", "variant"), [
    ("no-follow", {}), ("heart-lead-anytime", {}), ("no-hearts-bans-queen", {"first_trick_points": "no-hearts"})])
def test_a_broken_legality_is_derived_as_the_model_plays(mutant, variant):
    """The derived legality is the model's, broken or not: P11 holds it faithful under a mutant too
    (the checks that ask the rules' claims, P1 and P9, are the ones a broken legality fails)."""
    with patched(f"hearts:{mutant}"):
        result = run(variant)
    assert result.verdict is Verdict.PROVED, result.detail


def test_a_model_reading_the_hand_otherwise_is_refused(monkeypatch):
    original = model.follow_problem

    def follow_problem(state, hand, card):  # reads the size of the hand: the symbolic run cannot follow
        return original(state, hand, card) if len(hand) < 14 else None

    monkeypatch.setattr(model, "follow_problem", follow_problem)
    with pytest.raises(Unsupported, match="size of a symbolic set"):
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
