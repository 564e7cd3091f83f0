"""How Snap games end, as the analysis names it: ``stuck-pot`` only when the Snap Pot can no
longer be won, ``winnable-pot`` when the game ends (SNAP-END-2) with a pot a later flip could
still win. The kernel's label is the one computed from the reference model's final position."""

from collections import Counter

import pytest

from cardcanon.engine import snap as engine_snap
from cardcanon.model.cards import Card, Rank, Suit
from cardcanon.model.snap import Phase, SnapConfig, SnapState
from cardcanon.model.snap_policies import play_game

S = list(Suit)


def _over(up0, pot):
    config = SnapConfig(players=2)
    return SnapState(config, Phase.OVER, None, ((), ()), (tuple(up0), ()), tuple(pot), None, 5)


def test_labels_of_final_positions():
    seven, eight = Card(Rank(7), S[0]), Card(Rank(8), S[0])
    assert engine_snap.ending(_over([seven], [])) == "all-cards"
    assert engine_snap.ending(_over([seven], [Card(Rank(8), S[1])])) == "stuck-pot"
    assert engine_snap.ending(_over([eight, seven], [Card(Rank(8), S[1])])) == "winnable-pot"
    assert engine_snap.ending(_over([], [seven])) == "no-cards"


@pytest.mark.needs_kernel
@pytest.mark.rules("SNAP-END-2", "SNAP-MATCH-2")
@pytest.mark.parametrize("players", [2, 3])
def test_kernel_labels_are_the_reference_models(players):
    config = SnapConfig(players=players)
    seen = Counter()
    for seed in range(40):
        result = play_game(config, seed, "ties:0.3", max_flips=3000)
        run = engine_snap.decide(config, seed, "ties:0.3", 3000)
        assert run.status == result.status
        if result.outcome:
            seen[run.ending] += 1
            assert run.ending == engine_snap.ending(result.state)
            assert run.termination is result.outcome.termination
    assert seen["stuck-pot"] and seen["winnable-pot"]


def test_published_analysis_uses_the_split_labels():
    import json
    from pathlib import Path

    data = json.loads((Path(__file__).resolve().parents[1] / "results" / "analysis" / "snap.json").read_text())
    for cell in data["cells"]:
        assert set(cell["terminations"]) <= set(engine_snap.ENDINGS)
        if cell["policy"].startswith("ties"):
            assert cell["terminations"]["stuck-pot"] and cell["terminations"]["winnable-pot"]
