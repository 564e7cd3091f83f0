"""The JSON Schemas of game records: valid ones, faithful to the rulebook, and plain-words errors."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest

import cardcanon.spec as spec
from cardcanon import schemas
from cardcanon.cli import main
from cardcanon.model.errors import RecordError
from cardcanon.model.game import GAMES
from cardcanon.model.snap import CallKind
from cardcanon.record_file import MAX_DEPTH, nesting_depth, read_record_file



@pytest.fixture(scope="module")
def records(tmp_path_factory):
    folder = tmp_path_factory.mktemp("records")
    made = {}
    for game, extra in (("hearts", ["--variant", "target=20"]), ("snap", ["--players", "3", "--max-flips", "60"])):
        path = folder / f"{game}.json"
        assert main(["play", game, "--seed", "11", "--record", str(path), *extra]) == 0
        made[game] = json.loads(path.read_text(encoding="utf-8"))
    return made


@pytest.mark.parametrize("game", GAMES)
def test_schemas_are_valid_draft_2020_12_and_shipped(game):
    schema = schemas.load(f"{game}-record")
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    assert f"{game}-record" in schemas.names()


@pytest.mark.parametrize("game", GAMES)
def test_records_the_cli_writes_are_valid(records, game):
    schemas.validate(f"{game}-record", records[game], "x.json")


def test_config_options_are_the_rulebooks_variation_options():
    for game in GAMES:
        declared = {v.parameter: [o.value for o in v.options] for _, v in spec.load(game).variations()}
        config = schemas.load(f"{game}-record")["properties"]["config"]["properties"]
        for name, options in declared.items():
            assert name in config, (game, name)
            if config[name].get("type") == "boolean":  # a switch: written true/false
                assert options == ["off", "on"], (game, name)
            else:
                assert config[name]["enum"] == options, (game, name)
        settings = {"target", "players", "deck"}  # the table's settings, not variation points
        assert set(config) - set(declared) <= settings, game
    snap = schemas.load("snap-record")
    assert snap["$defs"]["call_kind"]["enum"] == [k.value for k in CallKind]


def _damaged(tmp_path, data, text=None):
    path = tmp_path / "r.json"
    path.write_text(text if text is not None else json.dumps(data), encoding="utf-8")
    with pytest.raises(RecordError) as caught:
        read_record_file(path)
    message = str(caught.value)
    assert message.startswith(f"{path}") and "\n" not in message, message
    assert not re.search(r"\b(int|str|bool|dict|list|NoneType|float)\b", message), message  # no Python names
    return message.removeprefix(f"{path}").removeprefix(": ")


def _first(record, kind):
    return next(i for i, m in enumerate(record["moves"]) if m["move"] == kind)


def test_messages_name_the_move_from_1_and_the_field_in_plain_words(records, tmp_path):
    hearts, snap = json.loads(json.dumps(records["hearts"])), json.loads(json.dumps(records["snap"]))
    i = _first(hearts, "play")
    hearts["moves"][i]["card"] = "Kx"
    assert _damaged(tmp_path, hearts).startswith(f"move {i + 1}, field 'card': expected a card name such as \"Qs\"")
    hearts["moves"][i]["card"] = "x" * 600
    message = _damaged(tmp_path, hearts)
    assert len(message) < 250 and message.endswith('found the string "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...')
    j = _first(snap, "flip")
    snap["moves"][j]["player"] = True
    assert _damaged(tmp_path, snap) == f"move {j + 1}, field 'player': expected an integer, found true"
    snap["moves"][j] = {"move": "flop", "player": 0}
    assert _damaged(tmp_path, snap).startswith(f"move {j + 1}, field 'move': expected one of \"deal\", \"flip\"")


@pytest.mark.parametrize("game, change, message", [
    ("hearts", {"config": {"target": 0}}, "field 'config.target': expected an integer from 1 to 1000, found the integer 0"),
    ("hearts", {"seed": "7"}, "field 'seed': expected an integer or null, found the string \"7\""),
    ("hearts", {"seed": 2**64}, "field 'seed': expected an integer from 0 to 18446744073709551615 or null"),
    ("hearts", {"result": {"winner": 2}}, "field 'result.winner': expected an integer from 0 to 1, found the integer 2"),
    ("hearts", {"moves": [{"move": "choose-dealer"}]}, "move 1, field 'dealer': missing"),
    ("hearts", {"moves": [{"move": "deal", "order": ["2c"] * 53}]}, "move 1, field 'order': expected at most 52 items"),
    ("snap", {"config": {"players": 2.0}}, "field 'config.players': expected an integer, found the number 2.0"),
    ("snap", {"policy": "ties:2"}, "field 'policy': policy 'ties:2': rate 2 is outside 0..1"),
    ("snap", {"result": {"status": "won", "flips": 3}}, "field 'result.status': expected one of \"ended\""),
    ("snap", {"game": "poker"}, "field 'game': expected \"hearts\" or \"snap\", found the string \"poker\""),
    ("snap", {"format": None}, "field 'format': expected \"cardcanon-record\", found null"),
])
def test_field_messages(records, tmp_path, game, change, message):
    data = dict(records[game])
    for key, value in change.items():
        data[key] = {**data[key], **value} if isinstance(value, dict) and isinstance(data.get(key), dict) else value
    assert _damaged(tmp_path, data).startswith(message)


def test_size_depth_and_json_strictness_are_checked_before_the_schema(records, tmp_path):
    text = json.dumps(records["snap"])
    assert _damaged(tmp_path, None, text[:-1] + ', "x": NaN}') == "NaN is not a JSON number"
    assert _damaged(tmp_path, None, "[" * 100_000).startswith("nested more than")
    assert _damaged(tmp_path, None, '{"moves": [{"move": "flip", "move": "flip"}]}') == \
        "move 1, field 'move': given twice in the same object (a reader would silently keep one)"
    assert _damaged(tmp_path, None, text[:40]).startswith(":1:41: not valid JSON: ")  # FILE:line:column
    assert _damaged(tmp_path, None, " " * (16 * 2**20 + 1)).startswith("larger than 16 MB")
    (tmp_path / "r.json").write_bytes(b'{"a": "\xff"}')
    with pytest.raises(RecordError, match=r"not UTF-8 text \(byte 8\)"):
        read_record_file(tmp_path / "r.json")


def test_nesting_depth_skips_strings_and_stops_at_the_limit():
    assert nesting_depth('{"a": "[[[[[[[[[[[[", "b": [[1], {}]}', MAX_DEPTH) == 3
    assert nesting_depth("[" * 50 + "]" * 50, 5) == 6
