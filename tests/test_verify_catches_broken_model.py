"""A deliberately broken rule in the reference model makes `cardcanon verify` fail loudly.

The break is injected into every process (the verify workers included) through a
``sitecustomize`` module on ``PYTHONPATH``; the source tree is not touched.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from cardcanon.model import hearts
from cardcanon.model.cards import Card
from cardcanon.model.hearts_players import RandomPlayer, play_match

BREAK_TRUMP = """
    import cardcanon.model.hearts as hearts
    hearts.trick_winner = lambda lead, follow: 0 if lead.suit == follow.suit and lead > follow else (
        1 if lead.suit == follow.suit else 0)  # HEARTS-TRUMP-1 broken: a heart no longer trumps
"""


def _no_trump(lead: Card, follow: Card) -> int:
    """The patch of BREAK_TRUMP."""
    return 0 if lead.suit == follow.suit and lead > follow else (1 if lead.suit == follow.suit else 0)


def _seeded_matches() -> list[tuple[hearts.HeartsState, list[hearts.Move]]]:
    return [play_match(seed, (RandomPlayer(2 * seed + 1), RandomPlayer(2 * seed + 2))) for seed in range(3)]


@pytest.mark.rules("HEARTS-TRICK-1", "HEARTS-TRUMP-1")
def test_the_patch_changes_the_games_the_model_plays(monkeypatch):
    """The patched function is the one the game runs: seeded matches differ with it."""
    sound = _seeded_matches()
    monkeypatch.setattr(hearts, "trick_winner", _no_trump)
    broken = _seeded_matches()
    assert all(a[1] != b[1] for a, b in zip(sound, broken))


def _verify(tmp_path, check: str, sitecustomize: str | None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if sitecustomize is not None:
        (tmp_path / "sitecustomize.py").write_text(textwrap.dedent(sitecustomize))
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tmp_path), env.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", "cardcanon", "verify", "--quick", "--check", check, "--jobs", "1"],
                          capture_output=True, text=True, env=env, timeout=600)


@pytest.mark.slow  # two verify subprocesses; quick: one end-to-end bug per game in test_verify_catches_model_bugs.py
@pytest.mark.rules("HEARTS-TRICK-1", "HEARTS-TRUMP-1")
def test_broken_trump_rule_fails_verify(tmp_path):
    sound = _verify(tmp_path, "HEARTS-P2", None)
    assert sound.returncode == 0, sound.stdout + sound.stderr
    broken = _verify(tmp_path, "HEARTS-P2", BREAK_TRUMP)
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert "FAIL HEARTS-P2-trick-winner: verdict" in broken.stdout  # its witness no longer replays, or a counterexample
