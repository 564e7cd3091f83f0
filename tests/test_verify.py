"""``cardcanon verify``: outcomes, failures, timeouts, reports and exit codes, on fake checks."""

from __future__ import annotations

import io
import json
import re
import textwrap
import time
from pathlib import Path

import pytest
from reprs import reprs_in

from cardcanon import cli, verify
from cardcanon.verify.manifest import ManifestError, default_manifest_dir, load_manifests
from cardcanon.proofs.base import Verdict
from cardcanon.verify import runner
from cardcanon.verify.runner import RunResult, Task
from conftest import PROFILE, kernel_missing

FAKE_MODULE = "cardcanon_fake_checks"
FAKE_CHECKS = '''
import os, time
from cardcanon.proofs.base import CheckResult, Verdict


def _record(valid):
    """A record of one value of the model's trick winner (the follower's 4 of clubs wins)."""
    return {"game": "hearts", "function": "trick_winner", "args": ["2c", "4c"], "returns": 1 if valid else 0,
            "label": "fake"}

def configurable(run):
    """Behaves as its bounds say; probes answer bounds['probes'][id] (default: a kill)."""
    bounds = run.bounds
    if run.probe is not None:  # bounds['probe_replayed'][id]: its record (if any) replays or not
        replayed = bounds.get("probe_replayed", {})
        return CheckResult(Verdict(bounds.get("probes", {}).get(run.probe.id, "counterexample found")),
                           records=(_record(replayed[run.probe.id]),) if run.probe.id in replayed else ())
    if "sleep" in bounds:
        time.sleep(bounds["sleep"])
    if "raise" in bounds:
        print("partial model")
        raise RuntimeError(bounds["raise"])
    if "exit" in bounds:
        os._exit(bounds["exit"])
    witness = bounds.get("witness", "deal 1: ...")
    return CheckResult(Verdict(bounds.get("verdict", "proved")), detail=bounds.get("detail", ""),
                       witness=witness, records=(_record(bounds.get("replayed", True)),) if witness else (),
                       stats=bounds.get("stats", {}))


def one_flip(run):
    """Claims that a flip turns up the top card of the face-down pile, through the loaded model."""
    from cardcanon.model import snap
    from cardcanon.model.seats import Seat
    from cardcanon.proofs.records import snap_record

    config = snap.SnapConfig()
    deal = snap.Deal(Seat(0), config.deck)
    state = snap.apply(snap.new_game(config), deal)
    top = state.down[1][0]
    after = snap.apply(state, snap.Flip(Seat(1)))
    record = snap_record(config, [deal, snap.Flip(Seat(1))], after, label="one flip")
    verdict = Verdict.PROVED if after.up[1][0] == top else Verdict.COUNTEREXAMPLE
    return CheckResult(verdict, witness="one flip", records=(record,))

def not_a_result(run):
    return 42

def undecided(run):
    """Asks Z3 a query it cannot decide; bounds['spend'] first spends the run's time."""
    import z3
    while run.bounds.get("spend"):
        run.budget.tick()
    solver = z3.Tactic("skip").solver()  # decides nothing: "unknown"
    x = z3.Int("x")
    solver.add(x * x * x + x == 7 * x + 3, x > 5)
    run.budget.check(solver)
    return CheckResult(Verdict.PROVED, witness="a proof", records=(_record(True),))
'''


def check_toml(check_id: str, bounds: str = "{}", *, expected: str = "proved", probes: tuple[str, ...] = ("m1",),
               extra: str = "", kind: str = "enumeration") -> str:
    text = f'''
        [[check]]
        id = "{check_id}"
        game = "snap"
        title = "fake check {check_id}"
        rules = ["SNAP-FLIP-1", "SNAP-MATCH-1"]
        kind = "{kind}"
        expected = "{expected}"
        entry = "{FAKE_MODULE}:configurable"
        bounds = {bounds}
        {'bridge = "the fake compares itself with the model"' if kind.startswith("z3") else ""}
        {extra}
        [check.scope]
        players = [2]
        players_left_out = "a fake check, at one table"
        deck = "rulebook"
        abstracted = "nothing"
    '''
    for probe in probes:
        text += f'''
        [[check.probe]]
        id = "{probe}"
        description = "broken rule {probe}"
        '''
    return textwrap.dedent(text)


@pytest.fixture(scope="module")
def fake_checks(tmp_path_factory):
    """A folder holding the fake check module, on sys.path (workers inherit it)."""
    folder = tmp_path_factory.mktemp("fakechecks")
    (folder / f"{FAKE_MODULE}.py").write_text(FAKE_CHECKS)
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(folder))
        yield folder


def write_manifest(folder, *checks: str):
    folder.mkdir(exist_ok=True)
    (folder / "snap.toml").write_text("".join(checks))
    return folder


SCENARIOS = [
    check_toml("SNAP-P1-pass", '{stats = {deals = 7}}', probes=("m1", "m2"), extra="expected_stats = {deals = 7}"),
    check_toml("SNAP-P2-wrong", '{verdict = "counterexample found"}'),
    check_toml("SNAP-P3-unknown", '{verdict = "unknown"}'),
    check_toml("SNAP-P4-error", '{raise = "solver exploded"}'),
    check_toml("SNAP-P5-survivor", '{probes = {m2 = "proved", m3 = "unknown"}}', probes=("m1", "m2", "m3")),
    check_toml("SNAP-P6-unreplayed", '{replayed = false}'),
    check_toml("SNAP-P7-stats", '{stats = {deals = 8}}', extra="expected_stats = {deals = 7, tricks = 2}"),
    check_toml("SNAP-P8-crash", '{exit = 3}'),
    check_toml("SNAP-P9-witness", '{verdict = "witness found", probes = {m1 = "no witness"}}',
               expected="witness found"),
    check_toml("SNAP-P10-nowitness", '{verdict = "no witness", probes = {m1 = "witness found"}}',
               expected="no witness"),
    check_toml("SNAP-P11-nowitness", '{witness = ""}'),
    check_toml("SNAP-P12-nomutant", probes=()),
    check_toml("SNAP-P13-z3", '{probes = {"drop:SNAP-MATCH-1" = "proved"}}', kind="z3-proof"),
    check_toml("SNAP-P14-stats-by-variant", '{stats = {deals = 7}}', extra='''expected_stats = {deals = 7}
        expected_stats_variant = { "index_card=on" = { deals = 8 } }'''),
]


@pytest.fixture(scope="module")
def scenario_report(fake_checks, tmp_path_factory):
    folder = write_manifest(tmp_path_factory.mktemp("manifest"), *SCENARIOS)
    checks = load_manifests(folder)
    return verify.run(checks, jobs=2, timeout=20, necessity=False, variants=False)


def outcome(report, check_id):
    return next(o for o in report.outcomes if o.check.id == check_id)


def test_passing_check_with_killed_mutants_and_matching_stats(scenario_report):
    passing = outcome(scenario_report, "SNAP-P1-pass")
    assert passing.passed, passing.failures()
    assert passing.result.verdict is Verdict.PROVED
    assert passing.probes_killed == 2 and all(m.killed for m in passing.probes)
    assert passing.stats_compared and passing.witness_ok
    for check_id in ("SNAP-P9-witness", "SNAP-P10-nowitness"):
        assert outcome(scenario_report, check_id).passed, outcome(scenario_report, check_id).failures()


@pytest.mark.parametrize("check_id, reason", [
    ("SNAP-P2-wrong", "verdict counterexample found, expected proved"),
    ("SNAP-P3-unknown", "verdict unknown, expected proved"),
    ("SNAP-P4-error", "verdict error, expected proved: RuntimeError: solver exploded"),
    ("SNAP-P5-survivor", "probe m2 survived: verdict proved"),
    ("SNAP-P5-survivor", "probe m3 survived: verdict unknown"),
    ("SNAP-P6-unreplayed", "witness not replayed through the model"),
    ("SNAP-P7-stats", "stat 'deals' is 8, expected 7"),
    ("SNAP-P7-stats", "stat 'tricks' missing (expected 2)"),
    ("SNAP-P8-crash", "verdict error, expected proved: worker process died"),
    ("SNAP-P11-nowitness", "no witness"),
    ("SNAP-P12-nomutant", "no probe and no model mutant: nothing shows that the check can fail"),
    ("SNAP-P13-z3", "probe drop:SNAP-MATCH-1 survived: verdict proved"),
])
def test_each_kind_of_failure_fails_the_check(scenario_report, check_id, reason):
    found = outcome(scenario_report, check_id)
    assert not found.passed
    assert any(line.startswith(reason) for line in found.failures()), found.failures()


def test_error_detail_keeps_what_the_check_printed(scenario_report):
    detail = outcome(scenario_report, "SNAP-P4-error").result.detail
    assert "(at " in detail and detail.endswith("it printed: ...partial model")


def test_a_z3_proof_is_probed_once_per_cited_rule(scenario_report):
    probed = outcome(scenario_report, "SNAP-P13-z3")
    assert [m.id for m in probed.probes] == ["m1", "drop:SNAP-FLIP-1", "drop:SNAP-MATCH-1"]
    assert [m.killed for m in probed.probes] == [True, True, False]
    assert [m.id for m in outcome(scenario_report, "SNAP-P1-pass").probes] == ["m1", "m2"]  # not a Z3 proof


def test_golden_stats_are_compared_under_each_variant(fake_checks, tmp_path):
    folder = write_manifest(tmp_path / "m", SCENARIOS[-1])
    report = verify.run(load_manifests(folder), jobs=1, timeout=20, necessity=False)
    (only,) = report.outcomes
    assert only.failures() == ["[index_card=on] stat 'deals' is 7, expected 8"]
    results = {r["variant"]: r for r in only.to_json()["results"]}
    assert results["index_card=on"]["expected_stats"] == {"deals": 8}
    assert results["default"]["expected_stats"] == {"deals": 7}


def test_a_variant_verify_does_not_run_is_a_manifest_error(fake_checks, tmp_path):
    bad = check_toml("SNAP-P1-x", extra='expected_variant = { "index_card=maybe" = "no witness" }')
    checks = load_manifests(write_manifest(tmp_path / "m", bad))
    with pytest.raises(ManifestError, match="SNAP-P1-x: names variant.s. index_card=maybe that verify does not run"):
        verify.run(checks, jobs=1, timeout=20, necessity=False)


def test_report_totals_and_ok(scenario_report):
    assert not scenario_report.ok
    assert (scenario_report.passed, scenario_report.failed) == (4, 10)
    survivor = outcome(scenario_report, "SNAP-P5-survivor")
    assert survivor.probes_killed == 1 and len(survivor.probes) == 3
    table = scenario_report.table()
    assert re.search(r"^SNAP-P5-survivor .* 1/3\s+FAIL$", table, re.M)
    assert re.search(r"^SNAP-P1-pass .* 2/2\s+ok$", table, re.M)
    assert "FAIL SNAP-P3-unknown: verdict unknown, expected proved" in table


def test_json_report_fields(scenario_report):
    data = json.loads(json.dumps(scenario_report.to_json()))
    for key in ("z3_version", "cardcanon_version", "python", "started", "totals", "ok", "checks"):
        assert key in data
    assert all(data["provenance"][key] for key in ("version", "commit", "command")), data["provenance"]
    assert data["totals"] == {"checks": 14, "passed": 4, "failed": 10, "not_applicable": 0,
                              "engine_replays_not_applicable": 0, "probes_killed": 15, "probes_total": 18,
                              "necessity_results": 0, "necessity_bound": 0, "necessity_unbound": 0,
                              "model_mutant_runs": 0}
    assert data["necessity"]["cells"] == 0 and "variants" in data
    assert data["ok"] is False
    first = data["checks"][0]
    for key in ("id", "game", "title", "rules", "kind", "expected", "verdict", "seconds", "detail", "witness",
                "witness_replayed", "stats", "expected_stats", "probes", "results", "necessity"):
        assert key in first
    assert first["results"][0]["variant"] == "default" and first["results"][0]["witness_replayed"] is True
    assert first["results"][0]["records"][0]["function"] == "trick_winner"
    assert first["rules"] == ["SNAP-FLIP-1", "SNAP-MATCH-1"]
    assert first["stats"] == {"deals": 7} and first["expected_stats"] == {"deals": 7}
    assert first["probes"][0] == {"id": "m1", "description": "broken rule m1", "verdict": "counterexample found",
                                   "killed": True, "detail": "", "seconds": first["probes"][0]["seconds"]}


def test_hung_check_becomes_timeout_without_hanging(fake_checks, tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "grace_seconds", lambda timeout: 0.2)  # the parent stops the worker sooner
    folder = write_manifest(tmp_path / "m", check_toml("SNAP-P1-hang", "{sleep = 120}"))
    start = time.monotonic()
    report = verify.run(load_manifests(folder), jobs=1, timeout=0.5, necessity=False, variants=False)
    elapsed = time.monotonic() - start
    assert elapsed < 0.5 + 0.2 + 10
    result = report.outcomes[0].result
    assert result.verdict is Verdict.TIMEOUT and "stopped by verify" in result.detail
    assert not report.ok


def test_quick_uses_ci_bounds_and_skips_golden_stats(fake_checks, tmp_path):
    check = check_toml("SNAP-P1-quick", "{stats = {deals = 7}}",
                       extra='ci_bounds = {stats = {deals = 2}}\nexpected_stats = {deals = 7}')
    checks = load_manifests(write_manifest(tmp_path / "m", check))
    full = verify.run(checks, jobs=1, necessity=False, variants=False)
    quick = verify.run(checks, jobs=1, quick=True, necessity=False, variants=False)
    assert full.ok and full.outcomes[0].stats_compared
    assert quick.ok and not quick.outcomes[0].stats_compared
    assert quick.outcomes[0].result.stats == {"deals": 2}


def test_check_returning_something_else_is_an_error(fake_checks, tmp_path):
    text = check_toml("SNAP-P1-odd", probes=()).replace(":configurable", ":not_a_result")
    report = verify.run(load_manifests(write_manifest(tmp_path / "m", text)), jobs=1, necessity=False, variants=False)
    assert report.outcomes[0].result.verdict is Verdict.ERROR
    assert "returned int, not a CheckResult" in report.outcomes[0].result.detail


def test_cli_exit_codes_json_and_plain_progress(fake_checks, tmp_path, capsys):
    good = write_manifest(tmp_path / "good", check_toml("SNAP-P1-pass"), check_toml("SNAP-P2-also"))
    out = tmp_path / "report.json"
    fast = ["--no-necessity", "--default-variant-only"]
    assert cli.main(["verify", "--manifest-dir", str(good), "--jobs", "2", "--json", str(out), *fast]) == 0
    printed = capsys.readouterr().out
    lines = [line for line in printed.splitlines() if line.startswith("[")]
    assert len(lines) == 4 and "\r" not in printed
    line_format = r"\[[1-4]/4 runs\] SNAP-P[12]-\w+( probe m1)? (proved|counterexample found) \(\d+\.\d s\)"
    assert all(re.fullmatch(line_format, line) for line in lines), lines
    assert "OK: every check passed" in printed and "wall time" in printed
    assert json.loads(out.read_text())["ok"] is True

    assert cli.main(["verify", "--manifest-dir", str(good), "--check", "SNAP-P2", "--json", "-", *fast]) == 0
    captured = capsys.readouterr()
    assert [c["id"] for c in json.loads(captured.out)["checks"]] == ["SNAP-P2-also"]
    assert "[2/2 runs]" in captured.err

    bad = write_manifest(tmp_path / "bad", check_toml("SNAP-P1-wrong", '{verdict = "unknown"}'),
                         check_toml("SNAP-P2-unreplayed", '{replayed = false, probes = {m1 = "unknown"}}'))
    assert cli.main(["verify", "--manifest-dir", str(bad), *fast]) == 1
    printed = capsys.readouterr().out
    for expected in (r"SNAP-P1-wrong unknown \(\d+\.\d s\) -- FAIL: expected proved",
                     r"SNAP-P2-unreplayed proved \(\d+\.\d s\) -- FAIL: witness not replayed",
                     r"SNAP-P2-unreplayed probe m1 unknown \(\d+\.\d s\) -- FAIL: probe survived"):
        assert re.search(r"^\[\d/4 runs\] " + expected + "$", printed, re.M), expected
    assert printed.rstrip().endswith("FAILED")


def run_cli(args: list[str]) -> int:
    try:
        return cli.main(args)
    except SystemExit as exc:  # argparse rejects bad options this way
        return int(exc.code)


@pytest.mark.parametrize("args, message", [
    (["--check", "SNAP-P9"], "unknown check 'SNAP-P9' (checks: SNAP-P1)"),
    (["--game", "hearts"], "no checks to run"),
    (["--timeout", "0"], "argument --timeout: expected a number of seconds more than 0"),
    (["--timeout", "inf"], "at most 86400 (a day), not 'inf'"),
    (["--timeout", "1e12"], "at most 86400 (a day), not '1e12'"),
    (["--timeout", "nan"], "at most 86400 (a day), not 'nan'"),
    (["--jobs", "0"], "argument --jobs: must be at least 1, not 0"),
    (["--json", "/nonexistent-folder/report.json"], "no such folder /nonexistent-folder"),
])
def test_cli_bad_input_exits_2_with_one_line(fake_checks, tmp_path, capsys, args, message):
    folder = write_manifest(tmp_path / "m", check_toml("SNAP-P1-pass"))
    assert run_cli(["verify", "--manifest-dir", str(folder), *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert message in err


def test_cli_bad_manifest_is_one_line_naming_file_check_and_field(fake_checks, tmp_path, capsys):
    folder = write_manifest(tmp_path / "m", check_toml("SNAP-P1-pass", kind="vibes"))
    assert run_cli(["verify", "--manifest-dir", str(folder)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err
    assert f"{folder / 'snap.toml'}: check SNAP-P1-pass: field 'kind': expected one of \"z3-proof\"" in err
    assert err.endswith('found the string "vibes"')


def test_live_progress_rewrites_one_line():
    stream = io.StringIO()
    progress = verify.Progress(stream, live=True)
    progress.begin(2, 1)
    task = Task(0, "SNAP-P1", "m:f", None, 1.0)
    progress.tick([(task, 3.2)])
    progress.finished(task, RunResult(Verdict.PROVED, seconds=1.0), "")
    progress.finished(Task(1, "SNAP-P1", "m:f", "m1", 1.0), RunResult(Verdict.PROVED), " -- FAIL: probe survived")
    progress.end()
    text = stream.getvalue()
    assert "\r\x1b[K[0/2 runs] running: SNAP-P1 3 s" in text
    assert "\r\x1b[K[2/2 runs] SNAP-P1 probe m1 proved (0.0 s) -- FAIL: probe survived\n" in text  # failures stay
    assert text.endswith("\r\x1b[K")


def test_necessity_matrix_cites_only_rules_whose_model_mutant_kills(fake_checks, tmp_path):
    text = check_toml("SNAP-P1-flip", probes=()).replace(":configurable", ":one_flip")
    report = verify.run(load_manifests(write_manifest(tmp_path / "m", text)), jobs=1, variants=False)
    outcome = report.outcomes[0]
    assert outcome.result.verdict is Verdict.PROVED and outcome.result.witness_replayed
    assert outcome.cited_rules_killed() == {"SNAP-FLIP-1": True, "SNAP-MATCH-1": False}
    assert any(line.startswith("cites SNAP-MATCH-1, but breaking it in the model does not make the check fail")
               for line in outcome.failures()), outcome.failures()
    flip = next(c for c in outcome.necessity if c.rule == "SNAP-FLIP-1")
    assert flip.killed and flip.result.disagreement and flip.result.verdict is Verdict.COUNTEREXAMPLE
    matrix = report.to_json()["necessity"]
    assert (matrix["cells"], matrix["killed"]) == (2, 1)


def test_a_counterexample_that_does_not_disagree_kills_nothing(fake_checks, tmp_path):
    """A check that fails against a mutant for a reason its records do not show is not a kill."""
    text = check_toml("SNAP-P1-any", '{verdict = "counterexample found"}', probes=())
    report = verify.run(load_manifests(write_manifest(tmp_path / "m", text)), jobs=1, variants=False)
    assert not any(cell.killed for cell in report.outcomes[0].necessity)


# the quick run; then, with their probes and model mutants, the checks whose probe details name moves
# (CI: HEARTS-P1's, and SNAP-P2's, which name cards and seats: the others of Snap rest on SNAP-P9,
# a minute of CPU; a thorough run: those of all four)
WORDY_PROBES = ("HEARTS-P1", "HEARTS-P5", "SNAP-P4", "SNAP-P15") if PROFILE == "thorough" else ("HEARTS-P1", "SNAP-P2")
CHECKED_IN_WORDS = {"quick": ["--quick"],
                    "probes": ["--default-variant-only", *(arg for check in WORDY_PROBES for arg in ("--check", check))]}


@pytest.mark.slow  # about half a minute each
@pytest.mark.skipif(not list(default_manifest_dir().glob("*.toml")), reason="no manifests yet")
@pytest.mark.parametrize("how", CHECKED_IN_WORDS.values(), ids=CHECKED_IN_WORDS.keys())
def test_real_manifests_verify_in_the_rulebooks_words(how, tmp_path, capsys):
    """The checks pass, and every text of the report (details, witnesses, record labels, probes,
    model mutants) is in words: no Python repr, no card code, no seat as P0."""
    status = cli.main(["verify", *how, "--json", str(tmp_path / "report.json")])
    printed = capsys.readouterr().out
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert not (found := reprs_in(data)), "\n".join(found[:10])
    engine_checks = {c.id for c in load_manifests(None, resolve=False) if c.engine_covers is not None}
    unpassed = {c["id"] for c in data["checks"] if not c["passed"]}
    if not kernel_missing() or not unpassed:
        assert status == 0, printed
        return
    # without the kernel the engine checks are not applicable, never passed, and nothing else differs
    assert status == 3 and data["totals"]["failed"] == 0 and unpassed == engine_checks, printed
    assert all(c["status"] == "not-applicable" for c in data["checks"] if c["id"] in engine_checks), printed


def test_the_recorded_quick_report_is_in_the_rulebooks_words():
    """The quick run recorded for the docs (``tests/docs_fixture``) has no code in its texts."""
    fixture = Path(__file__).parent / "docs_fixture" / "verify-report.json"
    assert not (found := reprs_in(json.loads(fixture.read_text(encoding="utf-8")))), "\n".join(found[:10])


def test_explain_states_the_claim_scope_and_killing_mutant_per_variant(fake_checks, tmp_path):
    text = check_toml("SNAP-P1-flip", probes=()).replace(":configurable", ":one_flip")
    report = verify.run(load_manifests(write_manifest(tmp_path / "m", text)), jobs=1, variants=False)
    outcome = report.outcomes[0]
    words = outcome.explain()
    assert words.startswith("SNAP-P1-flip: fake check SNAP-P1-flip")
    assert f"Scope: {outcome.check.scope_for(False)['words']}" in words
    assert "    SNAP-FLIP-1:\n      default: flip-bottom (" in words
    assert "    SNAP-MATCH-1:\n      default: unbound" in words
    assert "Witness (replayed by the runner): \n    one flip" in words
    bindings = {(b.variant, b.rule): b for b in outcome.bindings()}
    assert bindings["default", "SNAP-FLIP-1"].counts and not bindings["default", "SNAP-MATCH-1"].counts
    matrix = report.to_json()["necessity"]
    assert {(c["rule"], c["variant"], c["killed"]) for c in matrix["matrix"]} == {
        ("SNAP-FLIP-1", "default", True), ("SNAP-MATCH-1", "default", False)}
    assert report.to_json()["checks"][0]["explanation"] == words


def test_cli_explain_prints_the_explanation(fake_checks, tmp_path, capsys):
    text = check_toml("SNAP-P1-flip", probes=()).replace(":configurable", ":one_flip")
    folder = write_manifest(tmp_path / "m", text)
    status = cli.main(["verify", "--manifest-dir", str(folder), "--explain", "SNAP-P1", "--default-variant-only"])
    printed = capsys.readouterr().out
    assert status == 1  # SNAP-MATCH-1 is cited but no model mutant of it fails the check
    assert "SNAP-P1-flip: fake check SNAP-P1-flip" in printed and "Result: failed" in printed
    assert "check   " not in printed  # the explanation instead of the table


def test_necessity_per_variant_binds_every_variant_result(fake_checks, tmp_path):
    text = check_toml("SNAP-P1-flip", probes=()).replace(":configurable", ":one_flip")
    checks = load_manifests(write_manifest(tmp_path / "m", text))
    once = verify.run(checks, jobs=1).outcomes[0]
    each = verify.run(checks, jobs=1, necessity_per_variant=True).outcomes[0]
    assert [b.variant for b in once.bindings() if b.rule == "SNAP-FLIP-1" and b.killed_by] == ["default"]
    bound = [b.variant for b in each.bindings() if b.rule == "SNAP-FLIP-1" and b.killed_by]
    assert bound == [v for v, _ in ((verify_variant_name(v), r) for v, r in each.variants)] and len(bound) > 1


def verify_variant_name(variant):
    from cardcanon.verify.variants import variant_name

    return variant_name(variant)


def _task(key: int, check_id: str, variant: dict[str, str] | None = None, paired: bool = False) -> Task:
    return Task(key, check_id, "m:f", None, 1.0, variant=variant or {}, second_solver=paired)


def test_a_worker_takes_a_run_that_reuses_its_encodings_and_puts_off_a_second_pairing():
    from collections import deque

    slot = runner._Slot()
    winner = {"next_turn": "winner"}
    pending = deque([_task(0, "SNAP-P1", winner, paired=True), _task(1, "HEARTS-P5"), _task(2, "SNAP-P9", winner)])
    # another worker pairs SNAP-P1 now: its paired run waits, and the next other run goes first
    assert slot.take(pending, pairing={"SNAP-P1"}).key == 1
    # of the rest, none under the variant this worker has built for (Hearts' defaults): the head
    assert slot.take(pending, pairing=set()).key == 0
    pending = deque([_task(3, "SNAP-P2"), _task(4, "HEARTS-P3", {"first_lead": "free"}), _task(5, "SNAP-P4", winner)])
    assert slot.take(pending, pairing=set()).key == 5  # Snap's next_turn=winner encodings are built here
    assert [task.key for task in pending] == [3, 4]
    only = deque([_task(6, "SNAP-P1", paired=True)])
    assert slot.take(only, pairing={"SNAP-P1"}).key == 6  # nothing else at hand: it runs


def test_a_worker_leaves_the_runs_of_a_check_another_worker_has_run_to_it():
    from collections import deque

    slot = runner._Slot()
    pending = deque([_task(0, "HEARTS-P5", {"break_on": "void"}), _task(1, "SNAP-P9"), _task(2, "HEARTS-P5")])
    # HEARTS-P5 has run on the other worker, which keeps the hands its searches found: SNAP-P9 first
    assert slot.take(pending, pairing=set(), elsewhere=frozenset({"HEARTS-P5"})).key == 1
    # nothing else at hand: the other worker's check runs here too
    assert slot.take(pending, pairing=set(), elsewhere=frozenset({"HEARTS-P5"})).key == 0
    # even under a variant whose encodings this worker has built (it has run HEARTS-P5 under it)
    pending = deque([_task(7, "HEARTS-P8", {"break_on": "void"}), _task(8, "SNAP-P2")])
    assert slot.take(pending, pairing=set(), elsewhere=frozenset({"HEARTS-P8"})).key == 8
    # of the checks no other worker has run, one of a game this worker has run (its terms are here)
    hearts = runner._Slot()
    assert hearts.take(deque([_task(3, "HEARTS-P3")]), pairing=set()).key == 3
    pending = deque([_task(4, "SNAP-P4"), _task(5, "HEARTS-P1")])
    assert hearts.take(pending, pairing=set(), elsewhere=frozenset()).key == 5
