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

BREAK_TRUMP = """
    import cardcanon.model.hearts as hearts
    hearts.trick_winner = lambda lead, follow: 0 if lead.suit == follow.suit and lead > follow else (
        1 if lead.suit == follow.suit else 0)  # HEARTS-TRUMP-1 broken: a heart no longer trumps
"""


def _verify(tmp_path, check: str, sitecustomize: str | None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if sitecustomize is not None:
        (tmp_path / "sitecustomize.py").write_text(textwrap.dedent(sitecustomize))
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tmp_path), env.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", "cardcanon", "verify", "--check", check, "--jobs", "1"],
                          capture_output=True, text=True, env=env, timeout=600)


@pytest.mark.rules("HEARTS-TRICK-1", "HEARTS-TRUMP-1")
def test_broken_trump_rule_fails_verify(tmp_path):
    sound = _verify(tmp_path, "HEARTS-P2", None)
    assert sound.returncode == 0, sound.stdout + sound.stderr
    broken = _verify(tmp_path, "HEARTS-P2", BREAK_TRUMP)
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert "FAIL HEARTS-P2-trick-winner: verdict counterexample found" in broken.stdout
