"""Declared premises (``rests_on``): a check whose claim is about an encoding names the checks that tie
that encoding to the model; verify runs them with it, and the check is proved only where they passed."""

from __future__ import annotations

import json

import pytest

from cardcanon import cli, verify
from cardcanon.proofs.base import Verdict
from cardcanon.verify.manifest import Kind, ManifestError, load_manifests
from test_verify import check_toml, fake_checks, write_manifest  # noqa: F401 - fake_checks is a fixture

BRIDGE = "SNAP-P2-bridge"


def claim(rests_on: tuple[str, ...] = (BRIDGE,), check_id: str = "SNAP-P1-claim", kind: str = "z3-proof",
          abstracted: str = "") -> str:
    """A check whose claim is about an encoding that the checks ``rests_on`` tie to the model."""
    named = abstracted or "the encoding, which " + " and ".join("-".join(p.split("-")[:2]) for p in rests_on) + \
        " compare with the model"
    listed = ", ".join(f'"{p}"' for p in rests_on)
    text = check_toml(check_id, kind=kind, extra=f"rests_on = [{listed}]" if rests_on else "")
    return text.replace('bridge = "the fake compares itself with the model"\n', "").replace(
        'abstracted = "nothing"', f'abstracted = "{named}"')


def bridge(verdict: str = "proved", check_id: str = BRIDGE, extra: str = "") -> str:
    """A check that compares the encoding with the model; it reaches ``verdict``."""
    return check_toml(check_id, f'{{verdict = "{verdict}"}}', extra=extra)


def run(tmp_path, *checks: str, variants: bool = False) -> verify.Report:
    folder = write_manifest(tmp_path / "m", *checks)
    return verify.run(load_manifests(folder), jobs=1, timeout=20, necessity=False, variants=variants,
                      second_solver=False)


def outcome(report: verify.Report, check_id: str):  # type: ignore[no-untyped-def]
    return next(o for o in report.outcomes if o.check.id == check_id)


def test_a_check_whose_premises_pass_passes_and_shows_them(fake_checks, tmp_path):
    report = run(tmp_path, claim(), bridge())
    found = outcome(report, "SNAP-P1-claim")
    assert found.passed, found.failures()
    data = next(c for c in report.to_json()["checks"] if c["id"] == "SNAP-P1-claim")
    assert data["rests_on"] == [BRIDGE]
    assert data["premises"] == [{"id": BRIDGE, "title": f"fake check {BRIDGE}", "status": "passed",
                                 "results": {"default": "passed"}, "premises": []}]
    assert data["results"][0]["premises"] == {BRIDGE: "passed"}
    assert f"premises of SNAP-P1-claim: {BRIDGE} (passed)" in report.table()


def test_a_check_whose_premise_fails_is_not_proved(fake_checks, tmp_path):
    """The claim's own run proves it; its premise finds a counterexample: the claim is not passed."""
    report = run(tmp_path, claim(), bridge("counterexample found"))
    found = outcome(report, "SNAP-P1-claim")
    assert found.result.verdict is Verdict.PROVED  # its own run
    assert not found.passed and found.status == "failed"
    assert f"rests on {BRIDGE}, which failed under default" in found.failures()
    data = next(c for c in report.to_json()["checks"] if c["id"] == "SNAP-P1-claim")
    assert data["passed"] is False and data["results"][0]["premises"] == {BRIDGE: "failed"}
    assert report.failed == 2 and not report.ok


def test_a_premise_that_fails_under_one_variant_fails_the_check_under_that_variant(fake_checks, tmp_path):
    premise = check_toml(BRIDGE, '{stats = {deals = 7}}', extra='''expected_stats = {deals = 7}
        expected_stats_variant = { "index_card=on" = { deals = 8 } }''')
    found = outcome(run(tmp_path, claim(), premise, variants=True), "SNAP-P1-claim")
    assert found.failures() == [f"[index_card=on] rests on {BRIDGE}, which failed under index_card=on"]
    assert found.state_under("default") == "passed" and found.state_under("index_card=on") == "failed"


def test_a_premise_not_applicable_leaves_the_check_not_applicable(fake_checks, tmp_path):
    found = outcome(run(tmp_path, claim(), bridge("not-applicable")), "SNAP-P1-claim")
    assert found.status == "not-applicable" and not found.passed and not found.failures()
    assert found.not_applicable() == [f"[default] rests on {BRIDGE}, which is not applicable under default"]


def test_premises_hold_however_far_down(fake_checks, tmp_path):
    middle = claim(("SNAP-P3-base",), check_id=BRIDGE, kind="enumeration")
    report = run(tmp_path, claim(), middle, bridge("counterexample found", "SNAP-P3-base"))
    top = outcome(report, "SNAP-P1-claim")
    assert not top.passed and f"rests on {BRIDGE}, which failed under default" in top.failures()
    assert top.chain(["default"]) == [f"  {BRIDGE}: default failed", "    SNAP-P3-base: default failed"]


def test_selecting_a_check_selects_its_premises_once(fake_checks, tmp_path):
    folder = write_manifest(tmp_path / "m", claim(), bridge(), claim(check_id="SNAP-P4-other"),
                            bridge(check_id="SNAP-P5-unrelated"))
    chosen = verify.load_checks(ids=["SNAP-P4", "SNAP-P1"], manifest_dir=folder)
    assert [c.id for c in chosen] == ["SNAP-P1-claim", BRIDGE, "SNAP-P4-other"]
    with pytest.raises(ManifestError, match=f"SNAP-P1-claim: rests on {BRIDGE}, which is not among the checks"):
        verify.run([chosen[0]], jobs=1, necessity=False, variants=False)


def test_the_cli_runs_the_premises_and_explains_the_chain(fake_checks, tmp_path, capsys):
    folder = write_manifest(tmp_path / "m", claim(), bridge())
    out = tmp_path / "r.json"
    fast = ["--no-necessity", "--default-variant-only", "--no-second-solver"]
    assert cli.main(["verify", "--manifest-dir", str(folder), "--check", "SNAP-P1", "--json", str(out), *fast]) == 0
    assert [c["id"] for c in json.loads(out.read_text())["checks"]] == ["SNAP-P1-claim", BRIDGE]
    capsys.readouterr()
    assert cli.main(["verify", "--manifest-dir", str(folder), "--explain", "SNAP-P1", *fast]) == 0
    printed = capsys.readouterr().out
    assert f"  Rests on (proved only where each passed under the same variant):\n    {BRIDGE}: default passed" \
        in printed


def test_a_check_runs_only_under_variants_its_premises_run_under(fake_checks, tmp_path):
    only = bridge(extra='variants = { only = ["default"], reason = "the fake" }')
    folder = write_manifest(tmp_path / "m", claim(), only)
    with pytest.raises(ManifestError, match=f"SNAP-P1-claim: runs under .*, but its premise {BRIDGE} does not"):
        verify.run(load_manifests(folder), jobs=1, necessity=False)


@pytest.mark.parametrize("checks, problem", [
    ((claim(("SNAP-P9-none",)),), "field 'rests_on': SNAP-P9-none is no snap check of the manifests"),
    ((claim(("SNAP-P1-claim",)),), "field 'rests_on': a check cannot rest on itself"),
    ((claim(), claim(("SNAP-P1-claim",), check_id=BRIDGE)),
     f"field 'rests_on': a cycle: SNAP-P1-claim rests on {BRIDGE} rests on SNAP-P1-claim"),
    ((claim(()), bridge()), "field 'rests_on': a z3-proof check names the checks that tie its encoding"),
    ((claim(kind="z3-witness", abstracted="nothing"), bridge()), "'abstracted' says nothing is abstracted"),
    ((claim(abstracted="an encoding"), bridge()), f"'abstracted' does not name {BRIDGE}"),
])
def test_the_manifest_refuses_bad_premises(fake_checks, tmp_path, checks, problem):
    with pytest.raises(ManifestError, match=problem):
        load_manifests(write_manifest(tmp_path / "m", *checks))


def test_every_z3_check_names_its_premises_or_its_own_bridge():
    """The rule of proofs/manifest/README.md: a z3-proof or z3-witness check is about an encoding. It
    names the checks that compare that encoding with the model (``rests_on``, each named by its scope's
    ``abstracted`` words, which never say "nothing"), or it says how it ties its terms to the model itself
    (``bridge``: compared with the model within the check, or derived from the model's code)."""
    checks = verify.load_checks()
    z3_checks = [c for c in checks if c.kind in (Kind.Z3_PROOF, Kind.Z3_WITNESS)]
    assert z3_checks
    for check in z3_checks:
        assert check.rests_on or len(check.bridge.split()) >= 8, check.id
        abstracted = (check.scope or {}).get("abstracted", "")
        if check.rests_on:
            assert not abstracted.startswith("nothing"), check.id
            assert all("-".join(p.split("-")[:2]) in abstracted for p in check.rests_on), check.id
    premises = {p for c in checks for p in c.rests_on}
    assert premises <= {c.id for c in checks if c.kind in (Kind.ENUMERATION, Kind.REPLAY) or c.bridge}


def test_hearts_p4_rests_on_the_check_that_compares_its_scoring_with_the_model():
    chosen = verify.load_checks(ids=["HEARTS-P4"])
    assert [c.id for c in chosen] == ["HEARTS-P4-score-sum", "HEARTS-P11-encoding"]
    assert chosen[0].scope is not None and chosen[0].scope["abstracted"] != "nothing"
