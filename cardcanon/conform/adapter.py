"""The reference models seen through the conformance protocol's JSON terms.

It turns a game name and a config object (the ``config`` of a game record) into a position,
applies moves written as game-record moves and answers every protocol question about a
position. The reference implementation and the vector generator both use it, so they cannot
disagree; :mod:`cardcanon.conform.cases` reads the models' states for the generator.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from cardcanon.model import hearts, hearts_records, snap, snap_records
from cardcanon.model.errors import IllegalMoveError, InvalidMoveError, RecordError
from cardcanon.model.game import Game
from cardcanon.model.shuffle import SplitMix64

GAMES = ("hearts", "snap")
MODELS: dict[str, Game[Any, Any, Any, Any]] = {"hearts": hearts.GAME, "snap": snap.GAME}
Json = Any


class NotAMove(ValueError):
    """A JSON value that is not a move of this game at all (malformed, not forbidden)."""


def config_from_json(game: str, config: Json) -> Any:
    """The model's config for a record ``config`` object; ValueError naming the problem."""
    try:
        if game == "hearts":
            return hearts_records.config_from_json(config, "config: config")
        if game == "snap":
            return snap_records.config_from_json(config, "config: config")
    except RecordError as exc:
        raise ValueError(str(exc)) from None
    raise ValueError(f"unknown game {game!r} (expected one of {', '.join(GAMES)})")


def config_to_json(game: str, config: Any) -> Json:
    return (hearts_records if game == "hearts" else snap_records).config_to_json(config)


@dataclass(frozen=True)
class Position:
    """A game and its current state; every method is pure."""

    game: str
    state: Any

    @classmethod
    def start(cls, game: str, config_json: Json) -> Position:
        config = config_from_json(game, config_json)
        return cls(game, MODELS[game].new_game(config))

    @property
    def _records(self) -> Any:
        return hearts_records if self.game == "hearts" else snap_records

    @property
    def config(self) -> Any:
        return self.state.config

    def move_from_json(self, move: Json) -> Any:
        try:
            if self.game == "hearts":
                return hearts_records.move_from_json(move, "move: move")
            return snap_records.move_from_json(move, "move")
        except (RecordError, ValueError) as exc:
            raise NotAMove(str(exc)) from None

    def move_to_json(self, move: Any) -> Json:
        return self._records.move_to_json(move)

    def is_chance(self) -> bool:
        return bool(self.state.is_chance)

    def legal_moves(self) -> list[Json]:
        """The legal moves as record moves ([] when the game is over); only for non-chance nodes."""
        return [self.move_to_json(m) for m in self._model.legal_moves(self.state)]

    @property
    def _model(self) -> Game[Any, Any, Any, Any]:
        return MODELS[self.game]

    def apply(self, move: Json) -> Position:
        """The position after ``move``: IllegalMoveError (with ``rule_id``) or NotAMove."""
        parsed = self.move_from_json(move)
        try:
            return Position(self.game, self._model.apply(self.state, parsed))
        except InvalidMoveError as exc:
            raise NotAMove(str(exc)) from None

    def apply_all(self, moves: list[Json]) -> Position:
        position = self
        for move in moves:
            position = position.apply(move)
        return position

    def outcome(self) -> Json:
        """The result of the game in its record form, or None while it goes on."""
        outcome = self.state.outcome
        if outcome is None:
            return None
        if self.game == "hearts":
            return hearts_records.outcome_to_json(outcome)
        winner = outcome.winner
        return {"termination": outcome.termination.value, "winner": None if winner is None else winner.index}

    def perft(self, depth: int) -> int:
        """The number of legal move sequences of ``depth`` moves (no chance node on the way)."""
        if depth == 0:
            return 1
        if self.state.is_chance:
            raise ValueError("perft counts from a position where a player moves, not a chance node")
        moves = self._model.legal_moves(self.state)
        return sum(Position(self.game, self._model.apply(self.state, m)).perft(depth - 1) for m in moves)

    def sample_chance(self, rng: SplitMix64) -> Json:
        """The chance move drawn from ``rng`` as a seeded game draws it."""
        return self.move_to_json(self.sample_chance_move(rng))

    # The model's own moves, without the JSON round trip (for the generator's random games).
    def sample_chance_move(self, rng: SplitMix64) -> Any:
        return self._model.sample_chance(self.state, rng)

    def model_moves(self) -> tuple[Any, ...]:
        return self._model.legal_moves(self.state)

    def after(self, move: Any) -> Position:
        return Position(self.game, self._model.apply(self.state, move))

    def is_tie(self, move: Any) -> bool:
        return isinstance(move, snap.Tie)

    def is_correct_call(self, move: Any) -> bool:
        """Snap: ``move`` is a call that is correct now."""
        return isinstance(move, snap.Call) and move.kind in snap.correct_kinds(self.state)

    def seat_to_move(self) -> int | None:
        turn = self.state.to_move if self.game == "hearts" else self.state.turn
        return None if turn is None else turn.index


def deck(game: str, config_json: Json) -> list[str]:
    config = config_from_json(game, config_json)
    return [str(c) for c in (hearts.DECK if game == "hearts" else config.deck)]


def shuffle(game: str, config_json: Json, seed: int) -> list[str]:
    """The game's deck, in canonical order, shuffled by the portable shuffle with ``seed``."""
    config = config_from_json(game, config_json)
    cards = hearts.DECK if game == "hearts" else config.deck
    return [str(c) for c in SplitMix64(seed).shuffled(cards)]


def deal(game: str, config_json: Json, seed: int) -> dict[str, Any]:
    """The chance moves a game seeded with ``seed`` begins with, and what they deal.

    Hearts: choose-dealer and deal; ``hands`` (each in canonical deck order), ``dead``
    (the top card, then the last) and ``to_move``. Snap: the deal; ``hands`` are the face-down
    piles, top card first, and ``to_move`` is the first flipper.
    """
    position = Position.start(game, config_json)
    rng = SplitMix64(seed)
    moves = []
    while position.is_chance():
        moves.append(position.sample_chance(rng))
        position = position.apply(moves[-1])
    state = position.state
    if game == "hearts":
        order = {c: i for i, c in enumerate(hearts.DECK)}
        hands = [[str(c) for c in sorted(hand, key=order.__getitem__)] for hand in state.hands]
        return {"moves": moves, "hands": hands, "dead": [str(c) for c in state.dead],
                "to_move": position.seat_to_move()}
    return {"moves": moves, "hands": [[str(c) for c in pile] for pile in state.down],
            "to_move": position.seat_to_move()}


def illegal_rule(position: Position, move: Json) -> str | None:
    """The rule ``move`` breaks here, or None if it is legal (NotAMove if malformed)."""
    try:
        position.apply(move)
    except IllegalMoveError as exc:
        return exc.rule_id
    return None


# ---- configs and variants ------------------------------------------------------------------
def default_config(game: str, players: int = 2) -> Json:
    """The rulebook's defaults as a record ``config`` (Snap: at a table of ``players``)."""
    if game == "hearts":
        return hearts_records.config_to_json(hearts.HeartsConfig())
    return snap_records.config_to_json(snap.SnapConfig(players=players))


def variant_config(game: str, base: Json, parameter: str, option: str) -> tuple[Json | None, str]:
    """``base`` with one variation option set, or None and the reason the model does not play it."""
    value: Any = option
    if isinstance(base.get(parameter), bool):  # an on/off variation point
        value = {"on": True, "off": False}.get(option)
    config = {**base, parameter: value}
    try:
        config_from_json(game, config)
    except ValueError as exc:
        return None, re.sub(r"^(config: )+", "", str(exc))
    return config, ""
