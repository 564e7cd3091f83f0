"""The verifier's own promises, each guarded against one weakening of the runner: an undecided Z3
query is never proved, an engine disagreement is never dropped, a probe is killed only by records that
replay, and the scope reported is never wider than the manifest's. Each test was seen to fail with
the weakening its docstring names applied to the runner."""

from __future__ import annotations

import json
import re

import pytest

from cardcanon import verify
from cardcanon.proofs.base import Verdict
from cardcanon.verify.manifest import load_manifests
from test_verify import check_toml, fake_checks, write_manifest  # noqa: F401 - fake_checks is a fixture


def run(tmp_path, text: str, **options) -> verify.Report:  # type: ignore[no-untyped-def]
    folder = write_manifest(tmp_path / "m", text)
    settings = {"jobs": 1, "timeout": 20, "necessity": False, "variants": False, "second_solver": False, **options}
    return verify.run(load_manifests(folder), **settings)


@pytest.mark.parametrize("bounds, verdict", [("{}", Verdict.UNKNOWN), ("{spend = true}", Verdict.TIMEOUT)],
                         ids=["unknown", "time-out"])
def test_an_undecided_query_is_never_proved(fake_checks, tmp_path, bounds, verdict):
    """Guards against counting a Z3 ``unknown`` or a time-out as proved: the weakening tried was
    ``run_check`` (cardcanon/verify/runner.py) turning :class:`Undecided` into ``proved``; the verdict,
    the check's status and the report's conclusion all say otherwise. (A run the parent stops at its
    deadline: ``test_hung_check_becomes_timeout_without_hanging`` in tests/test_verify.py.)"""
    text = check_toml("SNAP-P1-undecided", bounds, probes=()).replace(":configurable", ":undecided")
    report = run(tmp_path, text, timeout=0.5 if verdict is Verdict.TIMEOUT else 20)
    (found,) = report.outcomes
    assert found.result.verdict is verdict and found.result.records == ()
    assert not found.passed and found.failures()[0].startswith(f"verdict {verdict.value}, expected proved")
    assert report.to_json()["checks"][0]["verdict"] == verdict.value and not report.ok


def test_an_engine_disagreement_is_never_dropped(fake_checks, tmp_path, monkeypatch):
    """Guards against dropping the records where the compiled engine plays differently: the weakenings
    tried were ``execute`` (cardcanon/verify/runner.py) skipping a record the engine plays otherwise, and
    ``CheckOutcome`` (report.py) leaving ``engine_disagreed`` out of the failures. The check's own
    verdict holds and its record replays through the model, yet the check fails."""
    from cardcanon.verify import engine

    monkeypatch.setattr(engine, "engine_replay", lambda record: False)  # the engine plays every record otherwise
    report = run(tmp_path, check_toml("SNAP-P1-engine"), in_process=True)
    (found,) = report.outcomes
    assert found.result.verdict is Verdict.PROVED and found.result.witness_replayed
    assert found.result.engine_disagreed and found.result.engine_verdict is Verdict.COUNTEREXAMPLE
    assert not found.passed
    assert "engine: record 1 (fake): the engine plays it differently" in found.failures()
    result = report.to_json()["checks"][0]["results"][0]
    assert result["engine_disagreed"] and result["engine_replay"] == "counterexample found"


def test_a_probe_is_killed_only_by_records_that_replay(fake_checks, tmp_path):
    """Guards against counting a probe as killed when its records do not replay: the weakening tried was
    ``ProbeOutcome.killed`` (cardcanon/verify/report.py) ignoring ``witness_replayed``. Probe m1 reaches
    a contrary verdict with a record the model does not play; probe m2 with one it plays."""
    bounds = "{probe_replayed = {m1 = false, m2 = true}}"
    report = run(tmp_path, check_toml("SNAP-P1-probes", bounds, probes=("m1", "m2")))
    (found,) = report.outcomes
    m1, m2 = found.probes
    assert m1.result.verdict is Verdict.COUNTEREXAMPLE and m1.result.records and not m1.result.witness_replayed
    assert not m1.killed and m2.killed and m2.result.witness_replayed
    assert not found.passed and "probe m1 survived: verdict counterexample found" in found.failures()
    probes = report.to_json()["checks"][0]["probes"]
    assert [(p["id"], p["killed"]) for p in probes] == [("m1", False), ("m2", True)]
    assert report.probes_killed == 1


def test_the_reported_scope_is_never_wider_than_the_manifest(fake_checks, tmp_path):
    """Guards against reporting a scope wider than the manifest states: the weakenings tried were
    ``describe`` (cardcanon/verify/scope.py) reporting the rulebook's player range as covered, and the
    report (report.py) stating the full bounds' scope for a quick run with smaller ``ci_bounds``. The
    manifest's check covers 2 and 3 players, its quick run 2; every place the report shows the scope
    says exactly that, and says it is less than the rulebook's 2–12."""
    text = check_toml("SNAP-P1-narrow", "{players = [2, 3], cards = 5}",
                      extra="ci_bounds = {players = [2], cards = 4}").replace("players = [2]\n", "", 1)
    text = text.replace('deck = "rulebook"', 'deck = "rulebook"\npiles = "up to {cards} cards"')
    for quick, players, words in ((False, [2, 3], "2–3 players of the rulebook's 2–12"),
                                  (True, [2], "2 players of the rulebook's 2–12")):
        report = run(tmp_path, text, quick=quick)
        data = json.loads(json.dumps(report.to_json()))["checks"][0]
        scope = data["scope"]
        assert scope["players"] == players and scope["covers_rulebook_players"] is False
        assert scope["words"].startswith(words + "; a fake check, at one table; the rulebook's deck (52 cards); up to "
                                         + ("4" if quick else "5") + " cards"), scope["words"]
        assert data["bounds"]["players"] == players
        assert re.search(rf"^SNAP-P1-narrow .* {'2' if quick else '2–3'} of 2–12 ", report.table(), re.M)
        assert f"Scope: {scope['words']}" in data["explanation"]
    for check in verify.load_checks():  # the real manifests: no scope wider than the bounds it runs with
        for quick in (False, True):
            scope, bounds = check.scope_for(quick), check.bounds_for(quick)
            stated = (check.scope or {}).get("players", bounds.get("players"))
            if stated != "rulebook":
                assert scope["players"] == sorted({stated} if isinstance(stated, int) else set(stated)), check.id
                assert not scope["covers_rulebook_players"] or scope["players"] == scope["rulebook_players"]
