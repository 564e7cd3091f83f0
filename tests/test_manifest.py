"""Loading and validating the check manifests (``proofs/manifest/*.toml``)."""

from __future__ import annotations

import textwrap

import pytest

import cardcanon.spec
from cardcanon.verify.manifest import Kind, ManifestError, default_manifest_dir, load_manifest, load_manifests
from cardcanon.proofs.base import Verdict

RULES = frozenset({"SNAP-FLIP-1", "SNAP-MATCH-1", "HEARTS-BREAK-1"})

GOOD = textwrap.dedent('''
    [[check]]
    id = "SNAP-P1-flip"
    game = "snap"
    title = "A flip moves one card"
    rules = ["SNAP-FLIP-1", "SNAP-MATCH-1"]
    kind = "z3-proof"
    expected = "proved"
    entry = "cardcanon.proofs.base:solve"
    bounds = {players = 3, deck = {ranks = 4}}
    ci_bounds = {players = 2, deck = {ranks = 2}}
    expected_stats = {states = 12}
    [[check.probe]]
    id = "no-move"
    description = "  the flip leaves the card in place "
    [[check.probe]]
    id = "two-cards"
    description = "the flip moves two cards"
''')


def write(tmp_path, text, name="snap.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_good_manifest_loads(tmp_path):
    path = write(tmp_path, GOOD)
    (check,) = load_manifest(path, rule_ids=RULES)
    assert check.id == "SNAP-P1-flip" and check.short_id == "SNAP-P1" and check.game == "snap"
    assert check.rules == ("SNAP-FLIP-1", "SNAP-MATCH-1")
    assert check.kind is Kind.Z3_PROOF and check.expected is Verdict.PROVED
    assert [(m.id, m.description) for m in check.declared_probes] == [("no-move", "the flip leaves the card in place"),
                                                               ("two-cards", "the flip moves two cards")]
    assert check.bounds_for(False) == {"players": 3, "deck": {"ranks": 4}}
    assert check.bounds_for(True) == {"players": 2, "deck": {"ranks": 2}}
    assert dict(check.expected_stats) == {"states": 12}
    assert check.source == str(path)


def test_bounds_used_for_quick_runs_without_ci_bounds(tmp_path):
    (check,) = load_manifest(write(tmp_path, GOOD.replace("ci_bounds = {players = 2, deck = {ranks = 2}}\n", "")))
    assert check.ci_bounds is None and check.bounds_for(True) == check.bounds_for(False)


@pytest.mark.parametrize("old, new, problem", [
    ('title = "A flip', 'colour = "red"\ntitle = "A flip', "check SNAP-P1-flip: unknown key(s) colour"),
    ('title = "A flip moves one card"\n', "", "check SNAP-P1-flip: field 'title': missing"),
    ('"SNAP-MATCH-1"]', '"SNAP-MATCH-9"]', "check SNAP-P1-flip: field 'rules': unknown rule ID SNAP-MATCH-9"),
    ('"SNAP-MATCH-1"]', '"HEARTS-BREAK-1"]', "field 'rules': HEARTS-BREAK-1 is not a snap rule"),
    ('"SNAP-MATCH-1"]', '"SNAP-FLIP-1"]', "field 'rules': lists a rule twice"),
    ('rules = ["SNAP-FLIP-1", "SNAP-MATCH-1"]', "rules = []", "field 'rules': must be a non-empty list"),
    ('kind = "z3-proof"', 'kind = "proof"', "check SNAP-P1-flip: field 'kind': 'proof' is not one of z3-proof"),
    ('expected = "proved"', 'expected = "unknown"', "field 'expected': 'unknown' is not one of proved"),
    ('expected = "proved"', 'expected = "timeout"', "field 'expected': 'timeout' is not one of"),
    ('game = "snap"', 'game = "poker"', "field 'game': 'poker' is not one of hearts, snap"),
    ('id = "SNAP-P1-flip"', 'id = "SNAP-1"', "field 'id': 'SNAP-1' is not of the form"),
    ('id = "SNAP-P1-flip"', 'id = "HEARTS-P1"', "field 'id': 'HEARTS-P1' does not belong to game 'snap'"),
    ('base:solve"', 'base:no_such_function"',
     "field 'entry': cannot import cardcanon.proofs.base:no_such_function"),
    ('cardcanon.proofs.base:', 'cardcanon.no_such_module:', "field 'entry': cannot import cardcanon.no_such_module"),
    ('base:solve"', 'base.z3_verdict"', "field 'entry': 'cardcanon.proofs.base.z3_verdict' is not of the form"),
    ("bounds = {players", "bounds = 3\nx = {players", "unknown key(s) x"),
    ('id = "two-cards"', 'id = "no-move"', "field 'probe': duplicate probe ID 'no-move'"),
    ('description = "the flip moves two cards"', 'why = "x"', "field 'probe': probe #2: unknown key(s) why"),
    ('description = "the flip moves two cards"', "", "field 'probe': probe #2: 'description' must be a non-empty"),
    ("expected_stats = {states = 12}", "expected_stats = 12", "field 'expected_stats': must be a table"),
])
def test_bad_check_is_reported_with_file_check_and_field(tmp_path, old, new, problem):
    assert old in GOOD
    path = write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(ManifestError) as caught:
        load_manifest(path, rule_ids=RULES)
    assert str(caught.value).startswith(f"{path}: ")
    assert problem in str(caught.value)


@pytest.mark.parametrize("text, problem", [
    ("title = 'checks'\n" + GOOD, "unknown top-level key(s) title"),
    ("[[check]\n", "not valid TOML"),
    ("check = 3\n", "'check' must be an array of tables"),
    (GOOD + GOOD, "check SNAP-P1-flip: field 'id': duplicate check ID"),
])
def test_bad_file_is_reported(tmp_path, text, problem):
    path = write(tmp_path, text)
    with pytest.raises(ManifestError, match=r"^" + str(path).replace("\\", "\\\\") + ": ") as caught:
        load_manifest(path, rule_ids=RULES)
    assert problem in str(caught.value)


def test_duplicate_ids_across_files_and_game_filter(tmp_path):
    write(tmp_path, GOOD, "a.toml")
    write(tmp_path, GOOD.replace("SNAP-P1-flip", "SNAP-P2"), "b.toml")
    assert [c.id for c in load_manifests(tmp_path, rule_ids=RULES)] == ["SNAP-P1-flip", "SNAP-P2"]
    assert load_manifests(tmp_path, games=["hearts"]) == []
    write(tmp_path, GOOD, "c.toml")
    duplicate = r"c\.toml: check SNAP-P1-flip: field 'id': duplicate check ID \(also in .*a\.toml\)"
    with pytest.raises(ManifestError, match=duplicate):
        load_manifests(tmp_path)


def test_missing_file(tmp_path):
    with pytest.raises(ManifestError, match="no such file"):
        load_manifest(tmp_path / "nothing.toml")


def test_resolve_false_skips_imports(tmp_path):
    path = write(tmp_path, GOOD.replace("cardcanon.proofs.base:", "cardcanon.no_such_module:"))
    assert load_manifest(path, resolve=False)[0].entry == "cardcanon.no_such_module:solve"


@pytest.mark.skipif(not list(default_manifest_dir().glob("*.toml")), reason="no manifests yet")
def test_real_manifests_are_valid():
    checks = load_manifests(rule_ids=cardcanon.spec.all_rule_ids())
    assert checks
