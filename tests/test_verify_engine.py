"""verify never counts a run of the compiled engine as proved when the engine cannot play it:
the engine checks and the runner's engine replay of records say ``not-applicable``."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from collections.abc import Iterator

import pytest

from cardcanon import verify
from cardcanon.engine import build
from cardcanon.proofs.base import Verdict
from cardcanon.verify.runner import execute

ENGINE_CHECKS = ("HEARTS-P10", "SNAP-P8")
REPLAYED = "SNAP-P5-lasso"  # its records are Snap games played by a deterministic policy


@pytest.fixture
def python_engine(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The compiled kernel disabled, here and in the worker processes verify starts."""
    monkeypatch.setenv("CARDCANON_ENGINE", "python")
    build.forget()
    yield
    build.forget()


def _check(check_id: str) -> verify.CheckSpec:
    (check,) = verify.load_checks(ids=[check_id])
    return check


@pytest.mark.parametrize("check_id", ENGINE_CHECKS)
def test_an_engine_check_without_the_engine_is_not_applicable(python_engine: None, check_id: str) -> None:
    check = _check(check_id)
    result = execute(check.entry, None, 60.0, {**check.bounds_for(True), "variant": {}})
    assert result.verdict is Verdict.NOT_APPLICABLE
    assert "CARDCANON_ENGINE=python" in result.detail


def test_the_engine_replay_of_records_without_the_engine_is_not_applicable(python_engine: None) -> None:
    check = _check(REPLAYED)
    result = execute(check.entry, None, 60.0, {**check.bounds_for(True), "variant": {}})
    assert result.verdict is check.expected and result.witness_replayed
    assert result.engine_replayed == 0 and result.engine_not_applicable
    assert result.engine_verdict is Verdict.NOT_APPLICABLE


def test_hearts_p10_refuses_a_variant_the_kernel_does_not_play(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardcanon.engine import hearts

    check = _check("HEARTS-P10")
    monkeypatch.setattr(hearts, "kernel_mismatch", lambda config: "a variation the kernel lacks")
    result = execute(check.entry, None, 60.0, {**check.bounds_for(True), "variant": {}})
    assert result.verdict is Verdict.NOT_APPLICABLE and "a variation the kernel lacks" in result.detail


def test_verify_without_the_engine_reports_nothing_of_the_engine_as_proved(python_engine: None) -> None:
    checks = [_check(c) for c in (*ENGINE_CHECKS, REPLAYED)]
    report = verify.run(checks, jobs=2, quick=True)
    data = report.to_json()
    for check in data["checks"]:
        for result in check["results"]:
            assert result["engine_replay"] != "proved"
            if check["id"].split("-")[:2] in (c.split("-") for c in ENGINE_CHECKS):
                assert result["verdict"] == "not-applicable"
        if check["id"].startswith(ENGINE_CHECKS):
            assert check["status"] == "not-applicable" and not check["passed"] and not check["failures"]
            assert check["verified_rules"] == []
    assert data["totals"]["not_applicable"] == 2 and data["totals"]["failed"] == 0
    assert data["totals"]["engine_replays_not_applicable"] > 0
    assert report.exit_status == 3 and not data["ok"]
    assert report.conclusion().startswith("NOT A FULL VERIFICATION")


def test_engine_modules_bind_the_reference_model_before_any_model_mutant() -> None:
    """The engine modules import model names (``DECK``, ``apply``) by value. A worker that first
    imported them under a model mutant would keep the mutant for every later run, so the module of
    the engine checks imports them before the runner patches anything."""
    code = (
        "from cardcanon.verify.engine import check_hearts\n"
        "from cardcanon.verify.model_mutants import patched\n"
        "from cardcanon.model import hearts\n"
        "reference = hearts.DECK\n"
        "with patched('hearts:deck-kings-not-aces'):\n"
        "    from cardcanon.engine import hearts as engine\n"
        "    assert hearts.DECK is not reference\n"
        "assert engine.DECK is reference, 'the engine kept the mutant deck'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=tempfile.gettempdir())
