"""``cardcanon trace``: citations from model code, test marks, manifests and the rulebook."""

from __future__ import annotations

import json
import textwrap
from types import SimpleNamespace

import pytest

from cardcanon import cli
from cardcanon.trace import Kind, collect, render

FAKE_TEST = '''
    import pytest

    pytestmark = pytest.mark.rules("SNAP-DECK-1")
    FLIPS = ("SNAP-FLIP-1", "SNAP-FLIP-2")
    ONE = "SNAP-TURN-1"

    @pytest.mark.rules("SNAP-FLIP-1", "SNAP-GHOST-9")
    def test_flip():
        pass

    @pytest.mark.rules(*FLIPS, ONE)
    def test_constants():
        pass

    @pytest.mark.parametrize("n", [1, pytest.param(2, marks=pytest.mark.rules("SNAP-TURN-2"))])
    def test_param(n):
        pass

    def test_unmarked():
        pass

    def helper():
        pass

    @pytest.mark.rules("SNAP-MATCH-1")
    class TestMatch:
        pytestmark = [pytest.mark.rules("SNAP-TURN-2")]

        @pytest.mark.rules("SNAP-TURN-1")
        def test_same_rank(self):
            pass

    @pytest.mark.rules(make_ids())
    def test_dynamic():
        pass
'''

FAKE_MODEL = '''
    """Snap. SNAP-FLIP-1 and SNAP-FLIP-1 on one line count once."""
    # SNAP-MATCH-1, SNAP-PHANTOM-2
'''

FAKE_SPEC = '''
    [[rule]]
    id = "SNAP-FLIP-1"
    text = "see SNAP-MATCH-1 and SNAP-OLD-3"
'''

FAKE_MANIFEST = '''
    [[check]]
    id = "SNAP-P1"
    game = "snap"
    title = "t"
    rules = ["SNAP-TURN-2", "SNAP-LOST-1"]
    kind = "enumeration"
    expected = "proved"
    entry = "nowhere:check"
'''


def rule(rule_id, normative=True, status="stated"):
    return SimpleNamespace(id=rule_id, title=rule_id.lower(), status=status, normative=normative)


RULEBOOKS = [SimpleNamespace(game="snap", rules=[
    rule("SNAP-DECK-1"), rule("SNAP-FLIP-1"), rule("SNAP-FLIP-2", False, "informative"), rule("SNAP-MATCH-1"),
    rule("SNAP-TURN-1"), rule("SNAP-TURN-2"), rule("SNAP-PEN-1"), rule("SNAP-SCOPE-1", False, "informative"),
])]


def make_tree(root, *, tests=True):
    files = {"model/snap.py": FAKE_MODEL, "spec/snap.toml": FAKE_SPEC, "proofs/manifest/snap.toml": FAKE_MANIFEST}
    if tests:
        files["tests/test_fake.py"] = FAKE_TEST
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text))
    return root


@pytest.fixture
def report(tmp_path):
    return collect(root=make_tree(tmp_path), rulebooks=RULEBOOKS)


def test_test_marks_functions_classes_modules_and_constants(report):
    tests = {rule.id: rule.tests for rule in report.rules}
    flip = "tests/test_fake.py::test_flip"
    assert tests["SNAP-FLIP-1"] == (flip, "tests/test_fake.py::test_constants")
    assert tests["SNAP-FLIP-2"] == ("tests/test_fake.py::test_constants",)
    assert tests["SNAP-TURN-2"] == ("tests/test_fake.py::test_param", "tests/test_fake.py::TestMatch::test_same_rank")
    assert set(tests["SNAP-MATCH-1"]) == {"tests/test_fake.py::TestMatch::test_same_rank"}
    deck = set(tests["SNAP-DECK-1"])  # module-level pytestmark reaches every test, not helpers
    assert "tests/test_fake.py::test_unmarked" in deck and "tests/test_fake.py::helper" not in deck
    assert tests["SNAP-PEN-1"] == ()


def test_unreadable_mark_is_a_problem(report):
    assert len(report.problems) == 1
    problem = report.problems[0]
    assert problem.startswith("tests/test_fake.py:") and "'make_ids()' is not a literal rule ID" in problem


def test_model_and_proof_citations(report):
    by_id = report.by_id
    assert by_id["SNAP-FLIP-1"].model == ("model/snap.py:2",)
    assert by_id["SNAP-MATCH-1"].model == ("model/snap.py:3",)
    assert by_id["SNAP-TURN-2"].proofs == ("SNAP-P1",)


def test_proof_citations_from_the_necessity_matrix(tmp_path, capsys):
    """With a verify report, a check cites exactly the rules whose model mutant it killed."""
    matrix = {"necessity": {"matrix": [
        {"check": "SNAP-P1", "rule": "SNAP-TURN-2", "killed": True, "mutants": ["snap:turn-swapped"]},
        {"check": "SNAP-P1", "rule": "SNAP-PEN-1", "killed": False, "mutants": ["snap:wrong-call-free"]},
        {"check": "SNAP-P2", "rule": "SNAP-FLIP-1", "killed": True, "mutants": ["snap:flip-bottom"]},
    ]}}
    found = collect(root=make_tree(tmp_path), rulebooks=RULEBOOKS, verify_report=matrix)
    assert found.by_id["SNAP-TURN-2"].proofs == ("SNAP-P1",)
    assert found.by_id["SNAP-FLIP-1"].proofs == ("SNAP-P2",)
    assert found.by_id["SNAP-PEN-1"].proofs == ()  # its mutant survived: not verified by SNAP-P1
    with pytest.raises(ValueError, match="no necessity matrix"):
        collect(root=make_tree(tmp_path), rulebooks=RULEBOOKS, verify_report={"checks": []})


def test_a_not_applicable_result_is_shown_as_such_and_verifies_nothing(tmp_path):
    """An engine check that could not run (no compiler, say) is listed apart, with its reason."""
    data = {"necessity": {"matrix": [
        {"check": "SNAP-P8", "rule": "SNAP-TURN-2", "killed": True, "not_applicable": True},
        {"check": "SNAP-P2", "rule": "SNAP-FLIP-1", "killed": True},
        {"check": "SNAP-P9", "rule": "SNAP-TURN-2", "variant": "index_card=on", "killed": True, "counts": False},
    ]}, "checks": [
        {"id": "SNAP-P8", "rules": ["SNAP-TURN-2"], "verdict": "not-applicable", "results": [
            {"variant": "default", "verdict": "not-applicable", "detail": "the compiled kernel is disabled"},
            {"variant": "index_card=on", "verdict": "proved", "detail": "", "engine_not_applicable": ["record 1: x"]}]},
        {"id": "SNAP-P2", "rules": ["SNAP-FLIP-1"], "verdict": "proved", "results": [
            {"variant": "default", "verdict": "proved", "detail": ""}]},
    ]}
    found = collect(root=make_tree(tmp_path), rulebooks=RULEBOOKS, verify_report=data)
    turn = found.by_id["SNAP-TURN-2"]
    assert turn.proofs == () and not turn.verified and turn.tests  # tested, not verified
    assert turn.not_applicable[0] == "SNAP-P8 [default]: the compiled kernel is disabled"
    assert "engine could not replay 1 record(s)" in turn.not_applicable[1]
    assert "SNAP-P8: its model mutants could not be run" in turn.not_applicable[2]
    assert found.by_id["SNAP-FLIP-1"].verified and found.by_id["SNAP-FLIP-1"].not_applicable == ()
    text = render(found)
    assert "  n/a:    SNAP-P8 [default]: the compiled kernel is disabled (not applicable: verifies nothing)" in text
    assert "verify results not applicable: 3" in text
    assert "SNAP-TURN-2" in [r.id for r in found.unverified()]
    assert found.to_json()["rules"][[r.id for r in found.rules].index("SNAP-TURN-2")]["verified"] is False


def test_unknown_citations_from_every_source(report):
    unknown = {(c.kind, c.rule_id, c.where) for c in report.unknown_citations()}
    assert unknown == {
        (Kind.TEST, "SNAP-GHOST-9", "tests/test_fake.py::test_flip"),
        (Kind.MODEL, "SNAP-PHANTOM-2", "model/snap.py:3"),
        (Kind.SPEC, "SNAP-OLD-3", "spec/snap.toml:4"),
        (Kind.PROOF, "SNAP-LOST-1", "SNAP-P1"),
    }
    assert not any(c.kind is Kind.SPEC and c.where == "spec/snap.toml:3" for c in report.citations)  # id = lines


def test_coverage_and_gaps(report):
    assert [r.id for r in report.uncovered()] == ["SNAP-PEN-1"]
    assert report.by_id["SNAP-PEN-1"].gaps() == ["no model code", "no test", "no proof"]
    assert report.by_id["SNAP-TURN-2"].gaps() == ["no model code"]
    assert report.by_id["SNAP-SCOPE-1"].gaps() == []  # informative rules need nothing


def test_render_and_game_filter(tmp_path, report):
    text = render(report)
    assert "SNAP-TURN-2  [stated, normative]  snap-turn-2" in text
    assert "  verify: SNAP-P1" in text
    assert "8 rules, 6 normative: 5 covered by a test or proof, 1 uncovered (SNAP-PEN-1)" in text
    unverified = ", ".join(r.id for r in report.unverified())
    assert f"verify: {6 - len(report.unverified())} of 6 normative rules verified by a check ({unverified})" in text
    assert f"tests: {sum(bool(r.tests) for r in report.rules if r.normative)} of 6 normative rules cited by a test" in text
    assert "unknown rule IDs cited: SNAP-GHOST-9 (tests/test_fake.py::test_flip)" in text
    only = render(report, only_uncovered=True)
    assert "SNAP-PEN-1  [" in only and "SNAP-TURN-2  [" not in only
    assert collect(root=tmp_path, rulebooks=RULEBOOKS, games=["hearts"]).rules == ()


def test_without_tests_folder_says_so(tmp_path):
    report = collect(root=make_tree(tmp_path, tests=False), rulebooks=RULEBOOKS)
    assert report.missing == ("tests",)
    assert all(rule.tests == () for rule in report.rules)
    assert "note: no tests/ folder found next to the package" in render(report)
    assert "installed package" in render(report)


def test_cli_on_the_real_repository(capsys):
    assert cli.main(["trace", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {r["id"][:4] for r in data["rules"]} == {"SNAP", "HEAR"}
    status = cli.main(["trace", "--game", "hearts", "--uncovered"])
    out = capsys.readouterr().out
    uncovered = [r["id"] for r in data["rules"] if r["id"].startswith("HEARTS") and not r["covered"] and r["normative"]]
    assert status == (1 if uncovered else 0)
    assert all(f"{rule_id}  [" in out for rule_id in uncovered)
    assert "SNAP-" not in out.split("unknown rule IDs cited")[0]
