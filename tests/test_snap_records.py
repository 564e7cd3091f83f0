"""Snap game records: round trips, corrupted games, malformed files."""

import copy
import json

import pytest

from cardcanon.model.errors import RecordError
from cardcanon.model.records import check_envelope
from cardcanon.model.snap import SnapConfig
from cardcanon.model.snap_policies import play_game
from cardcanon.model.records import replay_steps as replay_game_steps
from cardcanon.model.snap import GAME, replay
from cardcanon.model.snap_policies import game_record
from cardcanon.model.snap_records import move_from_json, move_to_json


def record_of(players=3, seed=4, policy="flipper-first", **kw):
    return json.loads(json.dumps(game_record(play_game(SnapConfig(players=players, **kw), seed, policy, 20_000))))


def first_index(record, kind):
    return next(i for i, m in enumerate(record["moves"]) if m["move"] == kind)


@pytest.mark.parametrize("policy", ["flipper-first", "owner-first", "ties:0.3", "errors:0.2"])
def test_round_trip(policy):
    result = play_game(SnapConfig(players=4), 12, policy, 20_000)
    record = json.loads(json.dumps(game_record(result)))
    check_envelope(record, "game.json")
    assert [move_from_json(move_to_json(m), "here") for m in result.moves] == list(result.moves)
    report, steps = replay_game_steps(GAME, record, "game.json")
    assert report.ok and report.moves_checked == len(result.moves)
    assert steps[-1][2] == result.state


def test_round_trip_index_card_and_winner_turns():
    record = record_of(players=5, seed=2, policy="errors:0.1", index_card=True)
    assert replay(record, "r.json").ok


@pytest.mark.rules("SNAP-END-4")
def test_endless_record_replays():
    result = next(r for r in (play_game(SnapConfig(players=2), s, "owner-first") for s in range(40)) if r.endless)
    record = json.loads(json.dumps(game_record(result)))
    report = replay(record, "r.json")
    assert report.ok and "Endless" in report.summary
    record["result"]["cycle_start"] += 1
    record["result"]["cycle_length"] -= 1
    report = replay(record, "r.json")
    assert not report.ok and "SNAP-END-4" in report.error


def corrupted(record, change):
    record = copy.deepcopy(record)
    change(record)
    return replay(record, "bad.json")


@pytest.mark.rules("SNAP-TURN-2", "SNAP-CALL-3", "SNAP-END-1", "SNAP-DECK-1", "SNAP-CALL-2")
def test_first_illegal_move_is_reported():
    record = record_of()
    flip = first_index(record, "flip") + 2 * 3  # a later flip: the turn rule is SNAP-TURN-2

    def wrong_player(r):
        r["moves"][flip]["player"] = (r["moves"][flip]["player"] + 1) % 3
        later = next(i for i in range(flip + 1, len(r["moves"])) if r["moves"][i]["move"] == "flip")
        r["moves"][later]["player"] = 99  # a later error is not the one reported

    report = corrupted(record, wrong_player)
    assert (report.ok, report.rule_id, report.position) == (False, "SNAP-TURN-2", flip + 1)
    assert "SNAP-TURN-2" in report.error  # the report's position is the move number, from 1

    def bad_tie(r):
        r["moves"][2] = {"move": "tie", "callers": [0, 1], "kind": "snap-pot"}  # nothing matches the first flip

    assert corrupted(record, bad_tie).rule_id == "SNAP-CALL-3"
    assert corrupted(record, lambda r: r["moves"].append({"move": "no-call"})).rule_id == "SNAP-END-1"
    out_caller = {"move": "call", "caller": 7, "kind": "snap"}  # no seat 7 at a 3-player table
    assert corrupted(record, lambda r: r["moves"].insert(2, out_caller)).rule_id == "SNAP-CALL-2"

    def bad_deal(r):
        r.pop("seed")
        r["moves"][0]["order"][0] = r["moves"][0]["order"][1]

    assert corrupted(record, bad_deal).rule_id == "SNAP-DECK-1"


def test_deal_is_checked_against_the_seed():
    record = record_of()

    def swap(r):
        order = r["moves"][0]["order"]
        order[0], order[1] = order[1], order[0]

    report = corrupted(record, swap)
    assert not report.ok and report.position == 1 and "seed" in report.error


def test_wrong_result_is_reported():
    record = record_of()
    report = corrupted(record, lambda r: r["result"].update(winner=(r["result"]["winner"] + 1) % 3))
    assert not report.ok and "after the last move" in report.error
    report = corrupted(record, lambda r: r["result"].update(flips=1))
    assert not report.ok and "flips" in report.error


@pytest.mark.parametrize("change, place", [
    (lambda r: r.pop("config"), "field 'config'"),
    (lambda r: r["config"].update(players=13), "SNAP-PLAYERS-1"),
    (lambda r: r["config"].update(next_turn="anticlockwise"), "config: field 'next_turn'"),
    (lambda r: r.update(moves={}), "field 'moves'"),
    (lambda r: r["moves"].__setitem__(3, "flip"), "moves[3]"),
    (lambda r: r["moves"][2].update(move="shout"), "moves[2]: field 'move'"),
    (lambda r: r["moves"][0]["order"].__setitem__(5, "Zz"), "moves[0]: field 'order'"),
    (lambda r: r["moves"][0]["order"].__setitem__(5, 7), "field 'order'[5]"),
    (lambda r: r["moves"][1].update(player=-1), "moves[1]: field 'player'"),
    (lambda r: r["moves"][1].pop("player"), "moves[1]: field 'player'"),
    (lambda r: r["moves"].__setitem__(2, {"move": "call", "caller": 0, "kind": "snapp"}), "moves[2]: field 'kind'"),
    (lambda r: r["moves"].__setitem__(2, {"move": "tie", "callers": [0, 0], "kind": "snap"}), "twice"),
    (lambda r: r["result"].update(status="won"), "result: field 'status'"),
    (lambda r: r.pop("result"), "field 'result'"),
])
def test_malformed_records(change, place):
    record = copy.deepcopy(record_of())
    change(record)
    with pytest.raises(RecordError) as info:
        replay(record, "bad.json")
    assert str(info.value).startswith("bad.json") and place in str(info.value)
