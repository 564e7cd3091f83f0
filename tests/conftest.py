"""Shared test configuration: Hypothesis profiles split by cost.

- ``default``: quick, for everyday runs and CI (the README's test command): few examples.
- ``ci``: the bounded form of the thorough runs that CI also exercises (``pytest -m slow``).
- ``thorough``: long runs for releases (``HYPOTHESIS_PROFILE=thorough pytest -m slow``).

A slow test that loops over a fixed number of cases (seeds, deals) takes that number from
:func:`cases`, so that CI runs a bounded share of what a release run does.
"""

import os
import sys

import pytest
from hypothesis import HealthCheck, settings

# The suite starts many Python processes (test workers, the CLI, verify workers). Each keeps the
# modules it compiles (and pytest its rewritten test modules) in __pycache__, even where
# PYTHONDONTWRITEBYTECODE is set, so that the next process and the next run load them compiled.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "default")

settings.register_profile("default", max_examples=25, deadline=None)
settings.register_profile("ci", max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "thorough", max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(PROFILE)


def cases(thorough: int, ci: int) -> int:
    """How many cases a slow test runs: all ``thorough`` of them under the thorough profile,
    ``ci`` (fewer, at least one) otherwise."""
    assert 1 <= ci <= thorough
    return thorough if PROFILE == "thorough" else ci


@pytest.fixture
def environments_play_the_model_without_a_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the compiled kernel cannot be built (no C compiler, ``CARDCANON_ENGINE=python``), an
    environment made with no ``engine`` plays the reference model, as ``engine="kernel-or-model"``
    asks; with the kernel, the default is unchanged."""
    from cardcanon.engine import build
    from cardcanon.envs import _engine

    if not build.available():
        monkeypatch.setattr(_engine, "DEFAULT", "kernel-or-model")
