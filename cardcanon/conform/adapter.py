"""The reference models seen through the conformance protocol's JSON terms.

It turns a game name and a config object (the ``config`` of a game record) into a position,
applies moves written as game-record moves and answers every protocol question about a
position. The reference implementation and the vector generator both use it, so they cannot
disagree; :mod:`cardcanon.conform.cases` reads the models' states for the generator.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardcanon.conform import positions, steps
from cardcanon.model import hearts, snap
from cardcanon.model.errors import IllegalMoveError, InvalidMoveError, RecordError
from cardcanon.model.game import GAMES as GAMES
from cardcanon.model.game import Game, game_api
from cardcanon.model.shuffle import SplitMix64

MODELS: dict[str, Game[Any, Any, Any, Any]] = {name: game_api(name) for name in GAMES}
Json = Any


class NotAMove(ValueError):
    """A JSON value that is not a move of this game at all (malformed, not forbidden)."""


def config_from_json(game: str, config: Json) -> Any:
    """The model's config for a record ``config`` object; ValueError naming the problem."""
    if game not in MODELS:
        raise ValueError(f"unknown game {game!r} (expected one of {', '.join(GAMES)})")
    try:
        return MODELS[game].config_from_json(config, "config: config")
    except RecordError as exc:
        raise ValueError(str(exc)) from None


def config_to_json(game: str, config: Any) -> Json:
    return MODELS[game].config_to_json(config)


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
    def config(self) -> Any:
        return self.state.config

    def move_from_json(self, move: Json) -> Any:
        try:
            return self._model.move_from_json(move, "move")
        except (RecordError, ValueError) as exc:
            raise NotAMove(str(exc)) from None

    def move_to_json(self, move: Any) -> Json:
        return self._model.move_to_json(move)

    def is_chance(self) -> bool:
        return self._model.is_chance(self.state)

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

    def canonical(self) -> Json:
        """The canonical position (the answer to ``show``)."""
        return positions.position_json(self.game, self.state)

    def step_rules(self, move: Json, after: Position | None = None) -> list[str]:
        """The rules ``move`` (legal here) applies (:mod:`cardcanon.conform.steps`); ``after``,
        the position it leads to, if known."""
        parsed = self.move_from_json(move)
        state = after.state if after is not None else self._model.apply(self.state, parsed)
        return steps.step_rules(self.game, self.state, parsed, state)

    def outcome(self) -> Json:
        """The result of the game in its record form, or None while it goes on."""
        return self._model.outcome_to_json(self._model.outcome(self.state))

    def perft(self, depth: int) -> int:
        """The number of legal move sequences of ``depth`` moves (no chance node on the way)."""
        if depth == 0:
            return 1
        if self.is_chance():
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

    def seat_to_move(self) -> int | None:
        seat = self._model.to_move(self.state)
        return None if seat is None else seat.index


def deck(game: str, config_json: Json) -> list[str]:
    config = config_from_json(game, config_json)
    return [str(c) for c in config.deck]


def shuffle(game: str, config_json: Json, seed: int) -> list[str]:
    """The game's deck, in canonical order, shuffled by the portable shuffle with ``seed``."""
    config = config_from_json(game, config_json)
    return [str(c) for c in SplitMix64(seed).shuffled(config.deck)]


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
    return {"moves": moves, **DEALT[game](position.state), "to_move": position.seat_to_move()}


def _hearts_dealt(state: hearts.HeartsState) -> dict[str, Any]:
    order = {c: i for i, c in enumerate(hearts.DECK)}
    return {"hands": [[str(c) for c in sorted(hand, key=order.__getitem__)] for hand in state.hands],
            "dead": [str(c) for c in state.dead]}


def _snap_dealt(state: snap.SnapState) -> dict[str, Any]:
    return {"hands": [[str(c) for c in pile] for pile in state.down]}


DEALT: dict[str, Callable[[Any], dict[str, Any]]] = {"hearts": _hearts_dealt, "snap": _snap_dealt}  # each game's own


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
    table = {"players": players} if players != 2 else {}  # both games are played by two by default
    return MODELS[game].config_to_json(MODELS[game].Config.from_options({}, **table))


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
