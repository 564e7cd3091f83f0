"""``cardcanon play hearts`` and ``cardcanon replay`` on Hearts records."""

from __future__ import annotations

import json

import pytest

from cardcanon.cli import main


def play(capsys, *args) -> tuple[int, str, str]:
    status = main(["play", "hearts", *args])
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.mark.rules("HEARTS-DEAL-1", "HEARTS-DEAL-2", "HEARTS-MATCH-1")
def test_play_prints_hands_scores_and_outcome(capsys):
    status, out, _ = play(capsys, "--seed", "5", "--strategies", "random", "greedy")
    assert status == 0
    assert "seed 5: player 0 plays random, player 1 greedy" in out
    assert "deals the first hand" in out and "Hand 1, dealt by" in out and "Dead cards:" in out
    assert "Hand 2, dealt by" in out and "totals player 0" in out
    assert "Match over: player " in out and "trick  1:" not in out
    assert any(symbol in out for symbol in "♣♦♥♠")


def test_play_is_reproducible_from_its_seed(capsys):
    first = play(capsys, "--seed", "9")[1]
    assert first == play(capsys, "--seed", "9")[1]
    assert first != play(capsys, "--seed", "10")[1]


@pytest.mark.rules("HEARTS-TRICK-1", "HEARTS-TRICK-2", "HEARTS-TRICK-3")
def test_play_with_hands_shows_every_trick(capsys):
    status, out, _ = play(capsys, "--seed", "5", "--hands", "--strategies", "greedy")
    assert status == 0 and "player 0 holds" in out and "player 1 holds" in out
    hands = out.count(", dealt by")
    assert hands >= 1 and out.count("trick  1:") == out.count("trick 13:") == hands and "won by player " in out


def test_play_without_seed_prints_the_seed_it_used(capsys):
    status, out, _ = play(capsys)
    assert status == 0 and out.startswith("Two-player Hearts, seed ")


def test_play_with_a_variant(capsys):
    status, out, _ = play(capsys, "--seed", "1", "--variant", "target=30", "--variant", "moon_score=points-in-play")
    assert status == 0 and "target=30" in out and "moon_score=points-in-play" in out and "{" not in out


@pytest.mark.parametrize("args, words", [
    (["--variant", "target=zero"], "--variant target=zero: the target is a whole number from 1 to 1000"),
    (["--variant", "target=1000000000"], "from 1 to 1000 (HEARTS-MATCH-1)"),
    (["--players", "3"], "two-player Hearts has 2 players"),
    (["--variant", "colour=red"], "PARAM one of"),
    (["--variant", "break_on=never"], "HEARTS-BREAK-2 break_on: unknown value 'never'"),
    (["--strategies", "random", "greedy", "random"], "one or two"),
    (["--seed", "-3"], "argument --seed: expected a seed from 0 to 18446744073709551615, not '-3'"),
    (["--seed", str(2**64)], "expected a seed from 0"),
])
def test_bad_play_options_give_one_error_line(capsys, args, words):
    status, out, err = play(capsys, *args)
    assert status == 2 and words in err and err.count("\n") == 1 and "Traceback" not in err


def test_players_is_the_count_and_the_old_kinds_form_warns(capsys):
    status, out, err = play(capsys, "--seed", "5", "--players", "2", "--strategies", "greedy", "random")
    assert status == 0 and err == "" and "player 0 plays greedy, player 1 random" in out
    status, old, err = play(capsys, "--seed", "5", "--players", "greedy", "random")
    assert status == 0 and old == out
    assert err.startswith("cardcanon: warning: '--players greedy random' is deprecated; use '--strategies")


def test_record_and_replay(capsys, tmp_path):
    path = tmp_path / "match.json"
    status, out, _ = play(capsys, "--seed", "4", "--record", str(path))
    assert status == 0 and f"Record written to {path}" in out
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{path}: ok:" in out and "hand 1:" in out
    assert main(["replay", "-q", str(path)]) == 0
    assert capsys.readouterr().out.count("\n") == 1


@pytest.mark.rules("HEARTS-FOLLOW-1")
def test_replay_reports_the_first_illegal_move(capsys, tmp_path):
    path = tmp_path / "match.json"
    play(capsys, "--seed", "4", "--record", str(path))
    data = json.loads(path.read_text())
    plays = [i for i, m in enumerate(data["moves"]) if m["move"] == "play"]
    data["moves"][plays[0]], data["moves"][plays[1]] = data["moves"][plays[1]], data["moves"][plays[0]]
    path.write_text(json.dumps(data))
    assert main(["replay", "-q", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"cardcanon: error: {path}: move {plays[0] + 1}: HEARTS-LEAD-") and err.count("\n") == 1


def test_replay_of_a_malformed_record_is_one_error_line(capsys, tmp_path):
    path = tmp_path / "match.json"
    play(capsys, "--seed", "4", "--record", str(path))
    data = json.loads(path.read_text())
    data["moves"][17]["card"] = "Kx"
    path.write_text(json.dumps(data))
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"cardcanon: error: {path}: move 18, field 'card': expected a card name such as")
    assert err.count("\n") == 1


@pytest.mark.rules("HEARTS-QUEEN-2", "HEARTS-DEAL-1")
def test_every_rulebook_variation_is_a_variant(capsys):
    status, out, _ = play(capsys, "--seed", "3", "--variant", "queen_breaks=yes")
    assert status == 0 and "queen_breaks=yes" in out
    status, _, err = play(capsys, "--seed", "3", "--variant", "dealer=loser-deals")
    assert status == 2 and "HEARTS-DEAL-1: the reference model does not play dealer = loser-deals" in err
