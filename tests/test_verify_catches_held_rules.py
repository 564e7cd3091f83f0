"""Rules that verify once did not hold: a model with each of them broken fails the check that cites
the rule, run in this process through the verify runner, with a record the mutant plays and the
reference model does not.

- HEARTS-TRICK-4: the leader's own second card to his trick is refused. Play walks only the moves
  the model lists, so HEARTS-P12 offers the leader's cards to the model itself.
- HEARTS-QUEEN-2 under ``queen_breaks = yes``: the queen breaks hearts whether led, followed in
  suit or discarded. HEARTS-P12 plays her aside wherever she is legal before hearts are broken.
- SNAP-END-5: the records carry the outcome's termination, which must be the label the rulebook
  gives; SNAP-P13 compares them.
"""

from __future__ import annotations

import pytest

from cardcanon.verify import model_mutants as mutants
from cardcanon.verify.manifest import load_manifests
from cardcanon.verify.report import NecessityCell
from cardcanon.verify.runner import execute

# (model mutant, the check that must catch it)
BUGS = [
    ("hearts:leader-plays-twice", "HEARTS-P12-hand-text"),
    ("hearts:queen-breaks-on-discard", "HEARTS-P12-hand-text"),
    ("snap:outcome-pot-always-stuck", "SNAP-P13-endings"),
]


@pytest.fixture(scope="module")
def checks():
    return {check.id: check for check in load_manifests(None, resolve=False)}


def _run(check, variant, model_mutant=None):
    return execute(check.entry, None, 120.0, check.bounds_under(variant, False), variant, model_mutant=model_mutant)


@pytest.mark.parametrize("key, check_id", BUGS, ids=[key.split(":")[1] for key, _ in BUGS])
def test_the_broken_rule_fails_the_check(checks, key, check_id):
    check, mutant = checks[check_id], mutants.MUTANTS[key]
    assert mutant.rule in check.rules, f"{check_id} does not cite {mutant.rule}"
    variant = dict(mutant.variant)
    result = _run(check, variant, key)
    cell = NecessityCell(mutant.rule, key, mutant.description, result, check.expected_for(variant))
    assert cell.killed, f"{key} survives {check_id}: {result.verdict.value}, disagreement {result.disagreement}: {result.detail}"
    reference = _run(check, variant)
    assert reference.verdict.value == "proved" and reference.witness_replayed, reference.detail


def test_the_leaders_second_card_is_refused_by_trick_4():
    from cardcanon.model import hearts
    from cardcanon.model.shuffle import SplitMix64
    from cardcanon.proofs.hearts.p12_hand_text import leader_again

    state = hearts.new_game(hearts.HeartsConfig())
    rng = SplitMix64(3)
    while state.is_chance:
        state = hearts.apply(state, hearts.sample_chance(state, rng))
    led = hearts.apply(state, hearts.legal_moves(state)[0])
    assert leader_again(led) is None
    with mutants.patched("hearts:leader-plays-twice"):
        found = leader_again(led)
    assert found is not None and found[0].player == led.trick[0].player


def test_the_seed_0_ties_game_is_recorded_winnable():
    """``cardcanon play snap --players 2 --seed 0 --policy ties:0.3``: the pot's top card is the 6 of
    clubs and the winner holds the 6 of spades, so SNAP-END-5 labels the game winnable-pot."""
    from cardcanon.model import snap
    from cardcanon.model.cards import Card
    from cardcanon.model.snap_policies import game_record, play_game
    from cardcanon.proofs.snap.p13_endings import ended_problem

    result = play_game(snap.SnapConfig(players=2), 0, "ties:0.3")
    final = result.state
    assert final.pot[0] == Card.parse("6c") and Card.parse("6s") in final.down[1] + final.up[1]
    assert game_record(result)["result"]["termination"] == "winnable-pot"
    assert ended_problem(final) == ""
    with mutants.patched("snap:outcome-pot-always-stuck"):
        assert final.outcome.termination.value == "stuck-pot"
        assert "termination is stuck-pot, the text says winnable-pot" in ended_problem(final)


# a verify worker: a probe run of HEARTS-P2, then the mutant, in one fresh process
_P2_AFTER_A_PROBE = """
from cardcanon.verify.runner import execute
entry = "cardcanon.proofs.hearts.p2_trick_winner:check"
execute(entry, "higher-rank-any-suit", 120.0, {}, {})
result = execute(entry, None, 120.0, {}, {}, model_mutant="hearts:lower-card-wins")
print(result.disagreement and result.witness_replayed, result.detail)
"""


def test_trick_winner_mutant_fails_p2_after_a_probe_run():
    """HEARTS-P2 shows a pair that breaks HEARTS-RANK-1 in a legal hand before the last trick, whichever
    pair Z3 finds first, which depends on the runs before in the process: after a probe run it once
    found 6♣ led, 2♣ followed, which no hand plays (2♣ is led first), and the mutant survived."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _P2_AFTER_A_PROBE], capture_output=True, text=True, check=True)
    assert done.stdout.startswith("True "), done.stdout + done.stderr


def test_trick_winner_counterexample_skips_pairs_no_hand_plays():
    """Of the pairs breaking a claim, one a legal hand plays before the last trick is shown."""
    import z3

    from cardcanon.model.cards import Card
    from cardcanon.proofs.base import Run
    from cardcanon.proofs.hearts.play_terms import FOLLOW, INDEX, LEAD
    from cardcanon.proofs.hearts.p2_trick_winner import _counterexample

    def pair(a, b):
        return z3.And(LEAD == INDEX[Card.parse(a)], FOLLOW == INDEX[Card.parse(b)])

    for first in ("Ac", "Qc"):  # led, 2♣ followed: no hand plays it (2♣ leads or is dead)
        s = z3.Solver()
        s.add(z3.Or(pair(first, "2c"), pair("Qs", "As")))
        result = _counterexample(Run({}), s, z3.BoolVal(True), LEAD, lambda won: "chosen")
        assert result.detail.startswith("Q♠ led, A♠ followed"), result.detail
        assert result.witness is not None
