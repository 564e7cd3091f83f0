"""One harness for both games, through the game API only (:mod:`cardcanon.model.game`): random
play to the end, record round trip, replay, illegal moves (IllegalMoveError with a rule ID of the
rulebook) and malformed moves (InvalidMoveError)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import cardcanon.spec as spec
from cardcanon.model import hearts, snap
from cardcanon.model.cards import Card
from cardcanon.model.errors import IllegalMoveError, InvalidMoveError, NotModelledError, OptionError, RecordError
from cardcanon.model.game import Game
from cardcanon.model.shuffle import SplitMix64

SMALL_SNAP_DECK = tuple(Card.parse(name) for name in "2c 2d 3c 3d 4c 4d 5c 5h".split())
GAMES: list[tuple[Game[Any, Any, Any, Any], Any]] = [
    (hearts.GAME, hearts.HeartsConfig(target=30)),
    (snap.GAME, snap.SnapConfig(players=3, deck=SMALL_SNAP_DECK)),
]
IDS = ["hearts", "snap"]
MAX_MOVES = 5_000


def random_game(game: Game[Any, Any, Any, Any], config: Any, seed: int) -> tuple[Any, list[Any], list[Any]]:
    """Play from ``new_game`` with chance from the seed and uniformly random legal moves.
    Returns the last state, the moves, and every state before each move."""
    rng, choice = SplitMix64(seed), SplitMix64(seed + 1)
    state, moves, states = game.new_game(config), [], []
    while game.outcome(state) is None and len(moves) < MAX_MOVES:
        legal = game.legal_moves(state)
        move = choice_of(legal, choice) if legal else game.sample_chance(state, rng)
        states.append(state)
        state = game.apply(state, move)
        moves.append(move)
    return state, moves, states


def choice_of(legal: tuple[Any, ...], rng: SplitMix64) -> Any:
    return legal[rng.below(len(legal))]


@pytest.mark.parametrize(("game", "config"), GAMES, ids=IDS)
def test_random_play_ends_and_the_end_has_no_moves(game, config):
    ended = 0
    for seed in range(4):
        state, moves, _ = random_game(game, config, seed)
        if game.outcome(state) is not None:
            ended += 1
            assert game.legal_moves(state) == () and list(game.chance_outcomes(state)) == []
    assert ended >= 3


@pytest.mark.parametrize(("game", "config"), GAMES, ids=IDS)
def test_chance_nodes_have_no_legal_moves_and_list_their_outcomes(game, config):
    state = game.new_game(config)
    assert game.legal_moves(state) == ()
    first = next(iter(game.chance_outcomes(state)))
    drawn = game.sample_chance(state, SplitMix64(1))
    assert type(first) is type(drawn)
    game.apply(state, first)  # every listed chance move is playable


@pytest.mark.parametrize(("game", "config"), GAMES, ids=IDS)
def test_record_round_trip_and_replay(game, config):
    state, moves, _ = random_game(game, config, 7)
    record = json.loads(json.dumps(game.to_record(config, moves, 7)))
    back = game.from_record(record, "game.json")
    assert (back.game, back.config, back.seed, list(back.moves)) == (game.name, config, 7, moves)
    report = game.replay(record, "game.json")
    assert report.ok and report.moves_checked == len(moves), report


@pytest.mark.parametrize(("game", "config"), GAMES, ids=IDS)
def test_replay_reports_an_illegal_move_by_its_number_from_one(game, config):
    _, moves, states = random_game(game, config, 3)
    record = game.to_record(config, moves, None)
    for index, state in enumerate(states):
        bad = move_out_of_place(game, state, moves)
        if bad is not None:
            break
    record["moves"][index] = record["moves"][moves.index(bad)]  # the JSON of that move, from the same record
    report = game.replay(record, "game.json")
    assert not report.ok and report.position == index + 1 and report.moves_checked == index
    assert report.rule_id in spec.all_rule_ids()


def move_out_of_place(game, state, moves) -> Any:
    """A move of the game that is not legal in decision node ``state`` (one played elsewhere), or None."""
    legal = set(game.legal_moves(state))
    if not legal:
        return None
    return next((m for m in moves if m not in legal and not _is_chance_move(game, m)), None)


def _is_chance_move(game, move) -> bool:
    return game.move_name(move) in ("choice of dealer", "deal")


@pytest.mark.parametrize(("game", "config"), GAMES, ids=IDS)
def test_legal_moves_are_exactly_the_moves_apply_accepts(game, config):
    """At every decision node of a random game, every legal move applies, and every other move
    seen in the game raises IllegalMoveError naming a rule of the rulebook."""
    _, moves, states = random_game(game, config, 11)
    seen = [m for m in dict.fromkeys(moves) if not _is_chance_move(game, m)]
    ids = spec.all_rule_ids()
    checked = 0
    for state in states[:200]:
        legal = game.legal_moves(state)
        if not legal:
            continue
        for move in legal:
            game.apply(state, move)
        for move in seen:
            if move not in legal:
                with pytest.raises(IllegalMoveError) as info:
                    game.apply(state, move)
                assert info.value.rule_id in ids and info.value.rule_id.startswith(game.name.upper())
                checked += 1
    assert checked > 50


@pytest.mark.parametrize(("game", "config"), GAMES, ids=IDS)
@pytest.mark.parametrize("junk", [None, "Qs", 3, ("play", 0, "Qs"), object()])
def test_a_malformed_move_is_invalid_not_illegal(game, config, junk):
    _, moves, states = random_game(game, config, 5)
    for state in (game.new_game(config), states[len(states) // 2]):
        with pytest.raises(InvalidMoveError):
            game.apply(state, junk)


@pytest.mark.parametrize(("make", "words"), [
    (lambda: hearts.Play(0, Card.parse("Qs")), "Play: player must be a Seat, not 0"),
    (lambda: hearts.ChooseDealer("0"), "ChooseDealer: dealer must be a Seat"),
    (lambda: hearts.Deal(("Qs",)), "Deal: order must be a sequence of Card"),
    (lambda: snap.Call(snap.Seat(0), "snap"), "Call: kind must be a CallKind, not 'snap'"),
    (lambda: snap.Flip(None), "Flip: player must be a Seat, not None"),
    (lambda: snap.Deal(snap.Seat(0), "Qs"), "Deal: order must be a sequence of Card"),
    (lambda: snap.Tie({0, 1}, snap.CallKind.SNAP), "Tie: callers must be a set of Seat"),
])
def test_moves_built_from_malformed_parts_are_invalid(make, words):
    with pytest.raises(InvalidMoveError, match=re.escape(words)):
        make()


def test_moves_store_their_sequences_as_declared():
    seats = [snap.Seat(1), snap.Seat(0)]
    assert snap.Tie(seats, snap.CallKind.SNAP).callers == frozenset(seats)
    assert hearts.Deal(list(hearts.DECK)).order == hearts.DECK


# ---- who moves, the JSON forms and the option words: the same protocol for both games ----------
@pytest.mark.parametrize(("game", "config"), GAMES, ids=IDS)
def test_to_move_is_none_exactly_at_chance_nodes_and_at_the_end(game, config):
    state, _, states = random_game(game, config, 2)
    assert game.outcome(state) is not None and game.to_move(state) is None and not game.is_chance(state)
    for before in states:
        seat = game.to_move(before)
        assert (seat is None) == game.is_chance(before)
        assert game.is_chance(before) == (game.legal_moves(before) == ())
        if seat is not None:
            assert seat.index < getattr(config, "players", 2)


@pytest.mark.parametrize(("game", "config"), GAMES, ids=IDS)
def test_moves_configs_and_outcomes_have_one_json_form(game, config):
    state, moves, _ = random_game(game, config, 4)
    for move in dict.fromkeys(moves):
        text = json.loads(json.dumps(game.move_to_json(move)))
        assert game.move_from_json(text, "here") == move
        assert game.move_name(move) in ("choice of dealer", "deal", "play", "flip", "no call", "call", "tie")
    assert game.config_from_json(json.loads(json.dumps(game.config_to_json(config))), "here") == config
    assert game.outcome_to_json(game.outcome(state)) == game.to_record(config, moves)["result"] or game.name == "snap"
    assert game.outcome_to_json(None) is None


@pytest.mark.parametrize(("game", "config"), GAMES, ids=IDS)
def test_positions_have_one_json_form_read_back_as_the_same_position(game, config):
    """``position_from_json`` reads what ``position_to_json`` writes: the same form, the same
    legal moves and outcome, and a game played on from it plays on alike."""
    for seed in (4, 5):
        _, moves, states = random_game(game, config, seed)
        for state, move in list(zip(states, moves))[::3]:
            text = json.loads(json.dumps(game.position_to_json(state)))
            back = game.position_from_json(config, text, "here")
            assert game.position_to_json(back) == text
            assert game.legal_moves(back) == game.legal_moves(state) and game.outcome(back) == game.outcome(state)
            if not game.is_chance(state):
                assert game.position_to_json(game.apply(back, move)) == game.position_to_json(game.apply(state, move))


@pytest.mark.parametrize(("game", "config"), GAMES, ids=IDS)
def test_a_position_or_move_with_an_unknown_field_is_refused_naming_it(game, config):
    state, moves, _ = random_game(game, config, 4)
    for obj, read in ((game.move_to_json(moves[-1]), lambda o: game.move_from_json(o, "here")),
                      (game.position_to_json(state), lambda o: game.position_from_json(config, o, "here"))):
        read(obj)
        with pytest.raises(RecordError, match="unexpected field 'extra'"):
            read({**obj, "extra": 1})
    with pytest.raises(RecordError, match="unexpected field 'extra'"):
        snap.GAME.move_from_json({"move": "flip", "player": 0, "extra": 1}, "m")


@pytest.mark.parametrize(("game", "move", "field"), [
    (hearts.GAME, {"move": "play", "player": 0, "card": "Zz"}, "card"),
    (hearts.GAME, {"move": "deal", "order": ["2c", 7]}, "order'[1"),
    (snap.GAME, {"move": "flip", "player": "0"}, "player"),
    (snap.GAME, {"move": "deal", "dealer": 0, "order": ["2c", 7]}, "order'[1"),
], ids=["hearts-card", "hearts-order", "snap-player", "snap-order"])
def test_both_games_name_a_bad_place_one_way(game, move, field):
    with pytest.raises(RecordError, match=re.escape(f"game.json: moves[4]: field '{field}")):
        game.move_from_json(move, "game.json: moves[4]")


@pytest.mark.parametrize(("game", "config"), GAMES, ids=IDS)
def test_malformed_json_is_a_record_error_naming_the_place(game, config):
    for bad in ({"move": "shuffle"}, ["flip"], {"move": 3}):
        with pytest.raises(RecordError, match=r"^game\.json: moves\[4\]"):
            game.move_from_json(bad, "game.json: moves[4]")
    with pytest.raises(RecordError, match=r"^game\.json: config"):
        game.config_from_json([], "game.json: config")


@pytest.mark.parametrize("game", [hearts.GAME, snap.GAME], ids=IDS)
def test_config_from_options_reads_the_rulebooks_words(game):
    book = spec.load(game.name)
    default = game.Config()
    assert default.options() == {variation.parameter: variation.default for _, variation in book.variations()}
    assert game.Config.from_options(default.options()) == default
    for rule, variation in book.variations():
        for option in variation.options:
            try:
                config = game.Config.from_options({variation.parameter: option.value})
            except NotModelledError as exc:
                assert exc.rule_id == rule.id and "not modelled" in option.text
                assert isinstance(exc, OptionError)
                continue
            assert config.options()[variation.parameter] == option.value
        with pytest.raises(OptionError) as info:
            game.Config.from_options({variation.parameter: "no-such-option"})
        assert info.value.rule_id == rule.id and str(info.value).startswith(f"{rule.id}: ")
    with pytest.raises(OptionError) as unknown:
        game.Config.from_options({"no_such_parameter": "on"})
    assert unknown.value.rule_id is None


@pytest.mark.parametrize(("game", "field", "value"), [
    (hearts.GAME, "break_on", "void"), (snap.GAME, "next_turn", "winner"), (snap.GAME, "index_card", 1),
], ids=["hearts", "snap-enum", "snap-switch"])
def test_a_wrongly_typed_option_is_refused_naming_its_rule(game, field, value):
    rule = next(rule.id for rule, variation in spec.load(game.name).variations() if variation.parameter == field)
    with pytest.raises(OptionError) as info:
        game.Config(**{field: value})
    assert info.value.rule_id == rule


WHOLE_GAME = Path(__file__).resolve().parent.parent / "examples" / "whole_game.py"


@pytest.mark.parametrize("name", IDS)
def test_a_whole_seeded_game_through_game_and_the_protocol_only(name, tmp_path):
    """The example plays a whole seeded game through GAME alone, prints whose turn it is at every
    step, and writes, reads and replays the record; it names no type of either game."""
    assert not re.search(r"\b(Hearts|Snap)\w*\b|\.(Play|Flip|Call|Deal|Tie|NoCall|ChooseDealer)\b", WHOLE_GAME.read_text())
    path = tmp_path / "record.json"
    lines = subprocess.run([sys.executable, str(WHOLE_GAME), name, "7", str(path)], capture_output=True, text=True,
                           check=True, timeout=120).stdout.splitlines()
    assert lines[0].startswith("1 chance ") and lines[-1].startswith("True True {")
    seats = {" ".join(line.split()[1:3]) for line in lines[:-1] if "chance" not in line}
    assert {"player 0", "player 1"} <= seats and any(" chance " in line for line in lines)
    assert game_of(name).replay(json.loads(path.read_text()), "record.json").ok


def game_of(name: str) -> Game[Any, Any, Any, Any]:
    return next(game for game, _ in GAMES if game.name == name)


@pytest.mark.parametrize("argv", [["chess"], [], ["hearts", "-1"], ["snap", "7", "/no/such/folder/r.json"]])
def test_the_example_refuses_bad_input_in_one_line(argv):
    done = subprocess.run([sys.executable, str(WHOLE_GAME), *argv], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr


# ---- generic code never branches on the game name ------------------------------------------------
ROOT = Path(__file__).resolve().parent.parent
GAME_NAME_BRANCH = re.compile(r"""[=!]=\s*["'](?:hearts|snap)["']|["'](?:hearts|snap)["']\s*[=!]=|"""
                              r"""\bin\s*\(\s*["'](?:hearts|snap)["']\s*,?\s*\)""")
GENERIC = ("proofs/records.py", "model/records.py", "model/game.py", "model/options.py", "cardcanon/conform/adapter.py",
           "cardcanon/conform/cases.py", "cardcanon/conform/vectors.py", "cardcanon/conform/reached.py",
           "cardcanon/conform/positions.py", "cardcanon/conform/selfcheck.py", "cardcanon/conform/runner.py",
           "cardcanon/verify/records.py")


def game_name_branches(path: Path) -> list[str]:
    return [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if GAME_NAME_BRANCH.search(line)]


def test_generic_code_does_not_branch_on_the_game_name():
    assert [hit for name in GENERIC for hit in game_name_branches(ROOT / name)] == []


def test_the_branch_check_sees_a_branch(tmp_path):
    sample = tmp_path / "x.py"
    sample.write_text('if game == "snap":\n    pass\nx = "hearts" if y else z\nif name in ("hearts",): pass\n')
    hits = [line for line in sample.read_text().splitlines() if GAME_NAME_BRANCH.search(line)]
    assert hits == ['if game == "snap":', 'if name in ("hearts",): pass']
