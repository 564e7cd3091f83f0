"""Loading and validating the check manifests (``proofs/manifest/*.toml``)."""

from __future__ import annotations

import fnmatch
import json
import textwrap
import tomllib
from pathlib import Path

import jsonschema
import pytest

import cardcanon.spec
from cardcanon.verify.manifest import (
    GAMES, SCHEMA, Kind, ManifestError, default_manifest_dir, load_combinations, load_manifest, load_manifests)
from cardcanon.proofs.base import CONTRARY, Verdict

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
    bridge = "the flip is compared with the model's by the check"
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


COMBINATION = '[[combination]]\ngame = "snap"\noptions = {index_card = "on"}\nreason = "they interact"\n'


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
    ('title = "A flip', 'colour = "red"\ntitle = "A flip', "check SNAP-P1-flip: field 'colour': unknown field"),
    ('title = "A flip moves one card"\n', "", "check SNAP-P1-flip: field 'title': missing"),
    ('"SNAP-MATCH-1"]', '"SNAP-MATCH-9"]', "check SNAP-P1-flip: field 'rules': unknown rule ID SNAP-MATCH-9"),
    ('"SNAP-MATCH-1"]', '"HEARTS-BREAK-1"]', "field 'rules': HEARTS-BREAK-1 is not a snap rule"),
    ('"SNAP-MATCH-1"]', '"SNAP-FLIP-1"]', "field 'rules': an item is listed twice"),
    ('rules = ["SNAP-FLIP-1", "SNAP-MATCH-1"]', "rules = []", "field 'rules': expected at least 1 item, found 0"),
    ('kind = "z3-proof"', 'kind = "proof"', 'check SNAP-P1-flip: field \'kind\': expected one of "z3-proof", '
     '"z3-witness", "enumeration", "replay", found the string "proof"'),
    ('expected = "proved"', 'expected = "unknown"', 'field \'expected\': expected one of "proved", '),
    ('expected = "proved"', 'expected = "timeout"', 'field \'expected\': expected one of "proved", '
     '"counterexample found", "witness found", "no witness", found the string "timeout"'),
    ('game = "snap"', 'game = "poker"', 'field \'game\': expected one of "hearts", "snap", found the string "poker"'),
    ('title = "A flip moves one card"', 'title = "  "', "field 'title': expected words (not empty)"),
    ('id = "SNAP-P1-flip"\n', "", "check #1: field 'id': missing"),
    ('id = "SNAP-P1-flip"', 'id = "SNAP-1"', "check SNAP-1: field 'id': expected a check ID HEARTS-P<n> or SNAP-P<n>"),
    ('id = "SNAP-P1-flip"', 'id = "HEARTS-P1"', "field 'id': 'HEARTS-P1' does not belong to game 'snap'"),
    ('base:solve"', 'base:no_such_function"',
     "field 'entry': cannot import cardcanon.proofs.base:no_such_function"),
    ('cardcanon.proofs.base:', 'cardcanon.no_such_module:', "field 'entry': cannot import cardcanon.no_such_module"),
    ('base:solve"', 'base.z3_verdict"', "field 'entry': expected module:function"),
    ("bounds = {players", "bounds = 3\nx = {players", "check SNAP-P1-flip: field 'x': unknown field"),
    ('id = "two-cards"', 'id = "no-move"', "field 'probe': duplicate probe ID 'no-move'"),
    ('description = "the flip moves two cards"', 'why = "x"',
     "field 'probe', item 2, field 'why': unknown field (fields here: description, id, rule)"),
    ('id = "two-cards"', 'id = "drop:two-cards"', "field 'probe', item 2, field 'id': expected a probe ID (IDs "
     "starting 'drop:' are the runner's own probes)"),
    ('id = "two-cards"', 'id = "two-cards"\nrule = "flip"', "field 'probe', item 2, field 'rule': expected a rule ID"),
    ('expected_stats = {states = 12}', 'expected_variant = {"index_card=on" = "timeout"}',
     "field 'expected_variant.index_card=on': expected one of \"proved\""),
    ('expected_stats = {states = 12}', 'engine = {covers = "default"}', "field 'engine.covers': expected an array"),
    ('description = "the flip moves two cards"', "", "field 'probe', item 2, field 'description': missing"),
    ("expected_stats = {states = 12}", "expected_stats = 12", "field 'expected_stats': expected an object, found the integer 12"),
])
def test_bad_check_is_reported_with_file_check_and_field(tmp_path, old, new, problem):
    assert old in GOOD
    path = write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(ManifestError) as caught:
        load_manifest(path, rule_ids=RULES)
    assert str(caught.value).startswith(f"{path}: ") and "\n" not in str(caught.value)
    assert problem in str(caught.value)


@pytest.mark.parametrize("text, problem", [
    ("title = 'checks'\n" + GOOD, "field 'title': unknown field (fields here: check, combination)"),
    ("[[check]\n", "not valid TOML"),
    ("check = 3\n", "field 'check': expected an array, found the integer 3"),
    (GOOD + GOOD, "check SNAP-P1-flip: field 'id': duplicate check ID"),
    ("check = [1]\n", "check #1: expected an object, found the integer 1"),
    (COMBINATION, "combination #1: field 'options': expected at least 2 fields, found 1"),
    (COMBINATION.replace("}", ", next_turn = 1}"), "combination #1: field 'options.next_turn': expected a string"),
    (COMBINATION.replace('reason = "they interact"\n', ""), "combination #1: field 'reason': missing"),
])
def test_bad_file_is_reported(tmp_path, text, problem):
    path = write(tmp_path, text)
    with pytest.raises(ManifestError, match=r"^" + str(path).replace("\\", "\\\\") + ": ") as caught:
        load_manifest(path, rule_ids=RULES)
    assert problem in str(caught.value)


def test_the_first_bad_table_of_the_file_is_named(tmp_path):
    bad_kind = GOOD.replace('kind = "z3-proof"', 'kind = "proof"')
    second = GOOD.replace("SNAP-P1-flip", "SNAP-P2").replace('title = "A flip', 'colour = "red"\ntitle = "A flip')
    path = write(tmp_path, bad_kind + second + COMBINATION)
    with pytest.raises(ManifestError, match=r"snap\.toml: check SNAP-P1-flip: field 'kind': expected one of"):
        load_manifest(path)
    path = write(tmp_path, GOOD + second.replace('kind = "z3-proof"', 'kind = "proof"') + COMBINATION)
    with pytest.raises(ManifestError, match=r"snap\.toml: check SNAP-P2: field 'colour': unknown field"):
        load_manifest(path)
    path = write(tmp_path, "title = 'x'\n" + bad_kind)
    with pytest.raises(ManifestError, match=r"snap\.toml: field 'title': unknown field"):
        load_manifest(path)


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


def test_combinations_load(tmp_path):
    write(tmp_path, COMBINATION.replace("}", ', next_turn = "winner"}'))
    ((game, combination),) = load_combinations(tmp_path)
    assert game == "snap" and dict(combination.options) == {"index_card": "on", "next_turn": "winner"}


def schema():
    return json.loads((default_manifest_dir() / SCHEMA).read_text(encoding="utf-8"))


def test_the_schema_is_a_draft_2020_12_schema_and_both_manifests_match_it():
    assert schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema())
    for game in GAMES:
        with open(default_manifest_dir() / f"{game}.toml", "rb") as handle:
            data = tomllib.load(handle)
        assert data["check"]
        assert [e.message for e in jsonschema.Draft202012Validator(schema()).iter_errors(data)] == []


def test_the_schema_names_the_games_kinds_and_verdicts_the_code_knows():
    defs = schema()["$defs"]
    assert set(defs["game"]["enum"]) == set(GAMES)
    assert set(defs["check"]["properties"]["kind"]["enum"]) == {kind.value for kind in Kind}
    assert set(defs["verdict"]["enum"]) == {verdict.value for verdict in CONTRARY}


def test_the_schema_is_installed_with_the_manifests():
    with open(Path(__file__).resolve().parents[1] / "pyproject.toml", "rb") as handle:
        shipped = tomllib.load(handle)["tool"]["setuptools"]["package-data"]["cardcanon.proofs"]
    assert any(fnmatch.fnmatch(f"manifest/{SCHEMA}", pattern) for pattern in shipped)
