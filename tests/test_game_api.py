"""One harness for both games, through the game API only (:mod:`cardcanon.model.game`): random
play to the end, record round trip, replay, illegal moves (IllegalMoveError with a rule ID of the
rulebook) and malformed moves (InvalidMoveError)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import cardcanon.spec as spec
from cardcanon.model import hearts, snap
from cardcanon.model.cards import Card
from cardcanon.model.errors import IllegalMoveError, InvalidMoveError
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
    return isinstance(move, (hearts.ChooseDealer, hearts.Deal, snap.Deal))


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


def test_moves_built_from_malformed_parts_are_invalid():
    with pytest.raises(InvalidMoveError):
        hearts.Play(0, Card.parse("Qs"))  # type: ignore[arg-type]
    with pytest.raises(InvalidMoveError):
        snap.Call(snap.Seat(0), "snap")  # type: ignore[arg-type]
