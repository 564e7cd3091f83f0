"""Hearts game records: writing them, reading them strictly, and replaying them.

A record is the envelope of :mod:`cardcanon.model.records` plus::

    "config": {"dealer": "alternate", "first_lead": "lowest-club", "break_on": "heart-played",
               "first_trick_points": "allowed", "queen_breaks": "no", "moon_score": "twenty",
               "target": 100},            # a variation left out takes the rulebook's default
    "seed": 7,                        # or null: the chance moves are then taken as recorded
    "moves": [{"move": "choose-dealer", "dealer": 0},
              {"move": "deal", "order": ["Qs", "2c", ...]},      # 28 cards, top first
              {"move": "play", "player": 1, "card": "Qs"}, ...],
    "result": {"scores": [57, 103], "winner": 0, "termination": "one-reached-target"}  # or null

Reading checks the structure and raises :class:`RecordError` naming the file and the JSON path
(``moves[17].card``). Replaying checks every move against the rules (and, with a seed, every
chance move against the seed's) and reports the first illegal one (numbered from 1) with its
rule ID. :mod:`cardcanon.model.hearts` offers these as ``to_record``, ``from_record`` and ``replay``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardcanon.model.cards import Card, CardParseError
from cardcanon.model.errors import IllegalMoveError, NotModelledError, RecordError
from cardcanon.model.game import Record, ReplayReport
from cardcanon.model.hearts import (
    ChooseDealer, Deal, HeartsConfig, HeartsState, Move, Outcome, Play, apply, new_game, sample_chance,
)
from cardcanon.model.hearts_types import SEATS, VARIATIONS
from cardcanon.model.records import FORMAT, VERSION
from cardcanon.model.seats import Seat
from cardcanon.model.shuffle import SplitMix64

CONFIG_ENUMS = VARIATIONS


# --- writing ----------------------------------------------------------------------------------
def config_to_json(config: HeartsConfig) -> dict[str, Any]:
    return {**config.variants(), "target": config.target}


def move_to_json(move: Move) -> dict[str, Any]:
    if isinstance(move, ChooseDealer):
        return {"move": "choose-dealer", "dealer": move.dealer.index}
    if isinstance(move, Deal):
        return {"move": "deal", "order": [str(card) for card in move.order]}
    return {"move": "play", "player": move.player.index, "card": str(move.card)}


def outcome_to_json(outcome: Outcome | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {"scores": list(outcome.scores), "winner": outcome.winner.index, "termination": outcome.termination.value}


def to_record(config: HeartsConfig, moves: Sequence[Move], seed: int | None = None) -> dict[str, Any]:
    """The record of the match played from ``new_game(config)`` by ``moves`` (applied, so checked)."""
    state = new_game(config)
    for move in moves:
        state = apply(state, move)
    return {"format": FORMAT, "version": VERSION, "game": "hearts", "config": config_to_json(config), "seed": seed,
            "moves": [move_to_json(move) for move in moves], "result": outcome_to_json(state.outcome)}


# --- reading ----------------------------------------------------------------------------------
def _get(obj: Mapping[str, Any], key: str, kind: type, where: str, path: str) -> Any:
    place = f"{path}.{key}" if path else key
    if key not in obj:
        raise RecordError(f"{where}: {place}", "missing")
    value = obj[key]
    if kind is int and (not isinstance(value, int) or isinstance(value, bool)):
        raise RecordError(f"{where}: {place}", f"expected an integer, found {_json_type(value)}")
    if kind is not int and not isinstance(value, kind):
        raise RecordError(f"{where}: {place}", f"expected {_JSON_NAMES[kind]}, found {_json_type(value)}")
    return value


_JSON_NAMES: dict[type, str] = {dict: "an object", list: "an array", str: "a string"}


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "an array",
            dict: "an object"}.get(type(value), type(value).__name__)


def _only_keys(obj: Mapping[str, Any], keys: Sequence[str], where: str, path: str) -> None:
    extra = sorted(set(obj) - set(keys))
    if extra:
        raise RecordError(f"{where}: {path}", f"unexpected field {extra[0]!r} (expected: {', '.join(keys)})")


def config_from_json(obj: Any, where: str, path: str = "config") -> HeartsConfig:
    if not isinstance(obj, dict):
        raise RecordError(f"{where}: {path}", f"expected an object, found {_json_type(obj)}")
    _only_keys(obj, (*CONFIG_ENUMS, "target"), where, path)
    values: dict[str, Any] = {}
    for name, kind in CONFIG_ENUMS.items():
        if name not in obj and name in _OPTIONAL:
            continue
        text = _get(obj, name, str, where, path)
        try:
            values[name] = kind(text)
        except ValueError:
            options = ", ".join(repr(m.value) for m in kind)
            raise RecordError(f"{where}: {path}.{name}", f"unknown value {text!r} (expected one of {options})") from None
    target = _get(obj, "target", int, where, path)
    if target < 1:
        raise RecordError(f"{where}: {path}.target", f"expected a positive integer, found {target}")
    try:
        return HeartsConfig(**values, target=target)
    except NotModelledError as exc:
        raise RecordError(f"{where}: {path}", str(exc), rule_id=exc.rule_id) from None


_OPTIONAL = ("dealer", "queen_breaks")  # variations added after the first records were written


def _card(text: Any, where: str, place: str) -> Card:
    if not isinstance(text, str):
        raise RecordError(f"{where}: {place}", f"expected a card name such as \"Qs\", found {_json_type(text)}")
    try:
        return Card.parse(text)
    except CardParseError as exc:
        raise RecordError(f"{where}: {place}", f"unknown card: {exc}") from None


def _seat(value: Any, where: str, place: str) -> Seat:
    if not isinstance(value, int) or isinstance(value, bool) or value not in (0, 1):
        raise RecordError(f"{where}: {place}", f"expected player 0 or 1, found {value!r}")
    return SEATS[value]


def move_from_json(obj: Any, where: str, path: str) -> Move:
    if not isinstance(obj, dict):
        raise RecordError(f"{where}: {path}", f"expected an object, found {_json_type(obj)}")
    kind = _get(obj, "move", str, where, path)
    if kind == "choose-dealer":
        _only_keys(obj, ("move", "dealer"), where, path)
        return ChooseDealer(_seat(_get(obj, "dealer", int, where, path), where, f"{path}.dealer"))
    if kind == "deal":
        _only_keys(obj, ("move", "order"), where, path)
        order = _get(obj, "order", list, where, path)
        return Deal(tuple(_card(text, where, f"{path}.order[{i}]") for i, text in enumerate(order)))
    if kind == "play":
        _only_keys(obj, ("move", "player", "card"), where, path)
        player = _seat(_get(obj, "player", int, where, path), where, f"{path}.player")
        return Play(player, _card(_get(obj, "card", str, where, path), where, f"{path}.card"))
    raise RecordError(f"{where}: {path}.move", f"unknown move type {kind!r} (expected choose-dealer, deal or play)")


def _result_from_json(obj: Any, where: str) -> dict[str, Any] | None:
    if obj is None:
        return None
    if not isinstance(obj, dict):
        raise RecordError(f"{where}: result", f"expected an object or null, found {_json_type(obj)}")
    _only_keys(obj, ("scores", "winner", "termination"), where, "result")
    scores = _get(obj, "scores", list, where, "result")
    if len(scores) != 2 or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores):
        raise RecordError(f"{where}: result.scores", f"expected two integers, found {scores!r}")
    _seat(_get(obj, "winner", int, where, "result"), where, "result.winner")
    _get(obj, "termination", str, where, "result")
    return obj


def from_record(data: Mapping[str, Any], where: str = "record") -> Record[HeartsConfig, Move]:
    """The config, seed, moves and recorded result of a record; RecordError if malformed."""
    if not isinstance(data, Mapping):
        raise RecordError(where, f"a record must be a JSON object, found {_json_type(data)}")
    if "config" not in data:
        raise RecordError(f"{where}: config", "missing")
    config = config_from_json(data["config"], where)
    if "seed" not in data:
        raise RecordError(f"{where}: seed", "missing (use null for a record without a seed)")
    seed = data["seed"]
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
        raise RecordError(f"{where}: seed", f"expected a non-negative integer or null, found {seed!r}")
    moves_json = _get(data, "moves", list, where, "")
    moves = [move_from_json(obj, where, f"moves[{i}]") for i, obj in enumerate(moves_json)]
    if "result" not in data:
        raise RecordError(f"{where}: result", "missing (use null for an unfinished match)")
    return Record("hearts", config, seed, tuple(moves), _result_from_json(data["result"], where))


# --- replaying --------------------------------------------------------------------------------
def replay(data: Mapping[str, Any], where: str = "record") -> ReplayReport:
    """Re-check every move of a record; report the first illegal one (1-based) and check the result."""
    record = from_record(data, where)
    rng = SplitMix64(record.seed) if record.seed is not None else None
    state = new_game(record.config)

    def failure(number: int, error: str, rule_id: str | None = None) -> ReplayReport:
        return ReplayReport("hearts", number - 1, False, error, rule_id, number)

    for number, move in enumerate(record.moves, 1):
        expected = sample_chance(state, rng) if rng is not None and state.is_chance else None
        try:
            after = apply(state, move)
        except IllegalMoveError as exc:
            return failure(number, str(exc), exc.rule_id)
        if expected is not None and move != expected:
            return failure(number, f"this {_MOVE_NAMES[type(move)]} is not the one that seed {record.seed} gives")
        state = after

    replayed = outcome_to_json(state.outcome)
    if record.result != replayed:
        found = "the match is not over" if replayed is None else f"the result is {replayed}"
        return failure(len(record.moves) + 1, f"result: recorded {record.result}, but after the last move {found}",
                       "HEARTS-MATCH-1" if (record.result is None) != (replayed is None) else None)
    return ReplayReport("hearts", len(record.moves), True, summary=summarize(state))


_MOVE_NAMES: dict[type[Move], str] = {ChooseDealer: "choice of dealer", Deal: "deal", Play: "play"}


def summarize(state: HeartsState) -> str:
    from cardcanon.model.hearts_text import state_result  # the formatter imports the model

    return state_result(state)[:1].upper() + state_result(state)[1:] + "."
