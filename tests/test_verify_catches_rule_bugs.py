"""Each bug in a rule the published figures rest on fails the verification of the check that cites
the rule: the check, run in this process through the verify runner against the model mutant,
reaches a contrary verdict with a record the mutant plays and the reference model does not.

The first four are the bugs of the calling policies, the seeded ties and the ending labels that
passed verify before (two of them are never reached from a seeded deal, so only the positions
built for the rule catch them); the others break, one each, the rules no check cited before.
"""

from __future__ import annotations

import pytest

from cardcanon.verify.manifest import load_manifests
from cardcanon.verify import model_mutants as mutants
from cardcanon.verify.report import NecessityCell
from cardcanon.verify.runner import execute
from conftest import engine_check_not_applicable

# (model mutant, the check that must catch it)
BUGS = [
    ("snap:ties-draw-order", "SNAP-P10-policies"),
    ("snap:label-face-down-only", "SNAP-P13-endings"),
    ("snap:pot-not-preferred", "SNAP-P10-policies"),
    ("snap:owner-first-last-owner", "SNAP-P10-policies"),
    ("snap:ties-draw-order", "SNAP-P14-engine-text"),
    # more bugs, in both games
    ("snap:chance-inverted", "SNAP-P10-policies"),
    ("snap:flipper-first-snap", "SNAP-P10-policies"),
    ("snap:flipper-first-left", "SNAP-P10-policies"),
    ("snap:owner-first-owner-pot", "SNAP-P10-policies"),
    ("snap:ties-draw-on-no-call", "SNAP-P10-policies"),
    ("snap:errors-kind-first", "SNAP-P10-policies"),
    ("snap:dealer-after-shuffle", "SNAP-P11-seeded-deal"),
    ("snap:dealer-never-last-seat", "SNAP-P11-seeded-deal"),
    ("snap:shuffle-upward", "SNAP-P11-seeded-deal"),
    ("snap:deck-unchecked", "SNAP-P11-seeded-deal"),
    ("snap:thirteen-players", "SNAP-P11-seeded-deal"),
    ("snap:one-player", "SNAP-P11-seeded-deal"),
    ("snap:label-top-cards-only", "SNAP-P13-endings"),
    ("snap:all-cards-winner-dealer", "SNAP-P13-endings"),
    ("snap:ends-at-three-quarters", "SNAP-P13-endings"),
    ("snap:position-by-pile-sizes", "SNAP-P13-endings"),
    ("snap:position-by-pile-sizes", "SNAP-P14-engine-text"),
    ("snap:tie-of-one", "SNAP-P9-encoding"),
    ("snap:tie-on-wrong-call", "SNAP-P9-encoding"),
    ("hearts:third-player", "HEARTS-P12-hand-text"),
    ("hearts:leader-plays-second", "HEARTS-P12-hand-text"),
    ("hearts:deck-kings-not-aces", "HEARTS-P12-hand-text"),
    ("hearts:pass-highest-card", "HEARTS-P12-hand-text"),
    ("hearts:hand-begins-broken", "HEARTS-P12-hand-text"),
    ("hearts:loser-leads", "HEARTS-P12-hand-text"),
    ("hearts:twelve-tricks", "HEARTS-P12-hand-text"),
    ("hearts:queen-breaks-hearts", "HEARTS-P12-hand-text"),
    ("hearts:queen-held-back", "HEARTS-P12-hand-text"),
    ("hearts:discard-unbroken", "HEARTS-P10-engine"),
    ("hearts:void-unbroken", "HEARTS-P10-engine"),
    ("hearts:broken-carries", "HEARTS-P9-match-play"),
]


@pytest.fixture(scope="module")
def checks():
    return {check.id: check for check in load_manifests(None, resolve=False)}


def _run(check, key, *, model_mutant):
    variant = dict(mutants.MUTANTS[key].variant)
    bounds = check.bounds_under(variant, quick=check.id == "SNAP-P9-encoding")
    return execute(check.entry, None, 120.0, bounds, variant, model_mutant=model_mutant), variant


ISSUE_BUGS = 5  # the first entries of BUGS run in the quick suite; the others are marked slow
_CASES = [pytest.param(key, check, marks=() if n < ISSUE_BUGS else pytest.mark.slow,
                       id=f"{key.split(':')[1]}-{check.split('-')[1]}") for n, (key, check) in enumerate(BUGS)]


@pytest.mark.parametrize("key, check_id", _CASES)
def test_the_bug_fails_the_check(checks, key, check_id):
    check = checks[check_id]
    mutant = mutants.MUTANTS[key]
    assert mutant.rule in check.rules, f"{check_id} does not cite {mutant.rule}"
    result, variant = _run(check, key, model_mutant=key)
    if engine_check_not_applicable(check, result):  # an engine check cannot lose what it cannot run
        return
    cell = NecessityCell(mutant.rule, key, mutant.description, result, check.expected_for(variant))
    assert cell.killed, f"{key} survives {check_id}: {result.verdict.value}, disagreement {result.disagreement}: {result.detail}"


@pytest.mark.parametrize("check_id", sorted({c for _, c in BUGS} - {"SNAP-P9-encoding"}))
def test_the_check_passes_on_the_reference_model(checks, check_id):
    check = checks[check_id]
    result = execute(check.entry, None, 120.0, check.bounds_under({}, False), {})
    if engine_check_not_applicable(check, result):
        return
    assert result.verdict.value in ("proved", "not-applicable"), result.detail
    assert result.witness_replayed, result.replay_problems


def test_every_new_rule_has_a_bug_here():
    rules = {mutants.MUTANTS[key].rule for key, _ in BUGS}
    for rule in ("SNAP-PLAYERS-1", "SNAP-DECK-1", "SNAP-GOAL-1", "SNAP-DEAL-1", "SNAP-CALL-3", "SNAP-END-1",
                 "HEARTS-PLAYERS-1", "HEARTS-DECK-1", "HEARTS-PASS-1", "HEARTS-TRICK-2", "HEARTS-TRICK-3",
                 "HEARTS-BREAK-3", "HEARTS-QUEEN-2", "SNAP-POLICY-1", "SNAP-POLICY-2", "SNAP-POLICY-3",
                 "SNAP-POLICY-4", "SNAP-POLICY-5", "SNAP-SEED-1", "SNAP-SEED-2", "SNAP-END-4", "SNAP-END-5"):
        assert rule in rules
