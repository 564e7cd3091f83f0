"""``cardcanon play snap`` and ``cardcanon replay`` on Snap records, through the real entry point."""

import json

import pytest

from cardcanon.cli import main


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_play_prints_a_readable_game(capsys):
    status, out, err = run(capsys, "play", "snap", "--players", "3", "--seed", "4")
    assert status == 0 and err == ""
    assert out.startswith("Snap, 3 players, seed 4, policy flipper-first")
    assert "flip 1: player 2 flips 5♦" in out and '"Snap!" first and wins' in out
    assert "not shown" in out  # a long game is summarised
    assert out.rstrip().endswith("he holds every card (SNAP-END-1).")


def test_quiet_prints_only_the_outcome(capsys):
    status, out, _ = run(capsys, "play", "snap", "--players", "2", "--seed", "5", "--policy", "owner-first", "-q")
    assert status == 0 and out.count("\n") == 1 and "wins after" in out


@pytest.mark.rules("SNAP-END-4")
def test_endless_game_is_reported(capsys):
    status, out, _ = run(capsys, "play", "snap", "--seed", "10", "--policy", "owner-first", "-q")
    assert status == 0 and out.startswith("Endless: the position after flip")


def test_max_flips_stops_a_game(capsys):
    status, out, _ = run(capsys, "play", "snap", "--seed", "3", "--max-flips", "10", "-q")
    assert status == 0 and out.startswith("Stopped after 10 flips")


@pytest.mark.rules("SNAP-INDEX-1", "SNAP-PEN-1")
def test_record_and_replay(capsys, tmp_path):
    path = tmp_path / "game.json"
    status, out, _ = run(capsys, "play", "snap", "--players", "4", "--seed", "8", "--policy", "errors:0.2",
                         "--index-card", "--record", str(path), "-q")
    assert status == 0 and f"Record written to {path}." in out
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["config"] == {"players": 4, "index_card": True, "next_turn": "clockwise"}
    assert any(m.get("kind") == "hand" for m in data["moves"])
    status, out, err = run(capsys, "replay", str(path))
    assert status == 0 and err == "" and "wrongly and gives a card" in out
    assert out.rstrip().splitlines()[-1].startswith(f"{path}: ok: {len(data['moves'])} moves replayed.")


@pytest.mark.rules("SNAP-TURN-2")
def test_replay_reports_the_first_illegal_move(capsys, tmp_path):
    path = tmp_path / "game.json"
    run(capsys, "play", "snap", "--players", "2", "--seed", "1", "--record", str(path), "-q")
    data = json.loads(path.read_text(encoding="utf-8"))
    data["moves"][3]["player"] = 1 - data["moves"][3]["player"]
    path.write_text(json.dumps(data), encoding="utf-8")
    status, out, err = run(capsys, "replay", "-q", str(path))
    assert status == 2 and out == ""
    assert err == f"cardcanon: error: {path}: move 4: SNAP-TURN-2: it is player 1's turn to flip, not player 0's\n"


@pytest.mark.parametrize("argv, message", [
    (["play", "snap", "--players", "13", "--seed", "1"], "SNAP-PLAYERS-1"),
    (["play", "snap", "--seed", "1", "--policy", "fastest"], "unknown policy 'fastest'"),
    (["play", "snap", "--seed", "1", "--policy", "ties:x"], "the rate is a number from 0 to 1"),
    (["play", "snap", "--seed", "1", "--max-flips", "0"], "--max-flips"),
    (["play", "snap", "--seed", "-1"], "argument --seed: expected a seed from 0 to 18446744073709551615"),
    (["play", "snap", "--seed", "1", "--max-flips", "1000001"], "from 1 to 1000000"),
])
def test_bad_arguments_give_one_line(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err


def test_seed_is_optional_as_for_hearts(capsys):
    status, out, err = run(capsys, "play", "snap", "-q", "--max-flips", "5")
    assert status == 0 and err == "" and out.startswith("Seed ")


def test_malformed_record_gives_one_line(capsys, tmp_path):
    path = tmp_path / "bad.json"
    run(capsys, "play", "snap", "--seed", "1", "--record", str(path), "-q")
    data = json.loads(path.read_text(encoding="utf-8"))
    data["moves"][2] = {"move": "call", "caller": 0, "kind": "snapp"}
    path.write_text(json.dumps(data), encoding="utf-8")
    status, out, err = run(capsys, "replay", str(path))
    assert status == 2 and err.count("\n") == 1
    assert err.startswith(f"cardcanon: error: {path}: move 3, field 'kind': expected one of \"snap\", \"snap-pot\"")


@pytest.mark.rules("SNAP-TURN-2", "SNAP-TIE-2", "SNAP-INDEX-1")
def test_variants_are_checked_against_the_rulebook(capsys):
    status, out, _ = run(capsys, "play", "snap", "--seed", "3", "-q", "--variant", "next_turn=winner")
    assert status == 0 and "wins after" in out
    for variant, words in (("tie_with_pot=underneath", "SNAP-TIE-2: the reference model does not play"),
                           ("index_card=maybe", "SNAP-INDEX-1 index_card: unknown value 'maybe'"),
                           ("colour=red", "PARAM one of next_turn")):
        status, out, err = run(capsys, "play", "snap", "--seed", "3", "-q", "--variant", variant)
        assert status == 2 and words in err and err.count("\n") == 1 and "Traceback" not in err
