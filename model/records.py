"""Game records: the JSON envelope shared by both games.

A record is a JSON object::

    {"format": "cardcanon-record", "version": 1, "game": "hearts" | "snap", ...}

The game's records module (``<game>_records``) reads and writes the rest (the table, the seed,
every move, the result); :func:`to_record` and :func:`replay` are the same for both games and use
only the game API (:mod:`cardcanon.model.game`), which :class:`GameOfModules` assembles for each game. Loading never raises anything but
:class:`RecordError`, whose message names the file, the place in it and what is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from cardcanon.model.errors import IllegalMoveError, RecordError
from cardcanon.model.game import GAMES, Game, ReplayReport
from cardcanon.model.shuffle import SplitMix64

FORMAT = "cardcanon-record"
VERSION = 1
MAX_RECORD_BYTES = 16 * 2**20  # readers refuse larger files; a Snap game of 100,000 flips is about 5 MB


__all__ = ["FORMAT", "GAMES", "VERSION", "GameOfModules", "ReplayReport", "check_envelope", "field", "read_record",
           "replay", "replay_steps", "to_record", "write_record"]
Steps = list[tuple[Any, Any, Any]]  # (state before, move, state after)


def to_record(game: Game[Any, Any, Any, Any], config: Any, moves: Sequence[Any], seed: int | None = None) -> dict[str, Any]:
    """The record of the game played from ``game.new_game(config)`` by ``moves`` (applied, so checked)."""
    state = game.new_game(config)
    for move in moves:
        state = game.apply(state, move)
    return {"format": FORMAT, "version": VERSION, "game": game.name, "config": game.config_to_json(config),
            "seed": seed, "moves": [game.move_to_json(move) for move in moves], "result": game.result_to_json(state)}


def replay(game: Game[Any, Any, Any, Any], data: Mapping[str, Any], where: str = "record") -> ReplayReport:
    """Re-check a record: every move (numbered from 1), with a seed every chance move, and the result."""
    return replay_steps(game, data, where)[0]


def replay_steps(game: Game[Any, Any, Any, Any], data: Mapping[str, Any],
                 where: str = "record") -> tuple[ReplayReport, Steps]:
    """:func:`replay`, and the steps replayed."""
    record = game.from_record(data, where)
    rng = SplitMix64(record.seed) if record.seed is not None else None
    state = game.new_game(record.config)
    states: list[Any] = [state]
    steps: Steps = []

    def failed(number: int, error: str, rule_id: str | None = None) -> tuple[ReplayReport, Steps]:
        return ReplayReport(game.name, number - 1, False, error, rule_id, number), steps

    for number, move in enumerate(record.moves, 1):
        expected = game.sample_chance(state, rng) if rng is not None and game.is_chance(state) else None
        try:
            after = game.apply(state, move)
        except IllegalMoveError as exc:
            return failed(number, str(exc), exc.rule_id)
        if expected is not None and move != expected:
            return failed(number, f"this {game.move_name(move)} is not the one that seed {record.seed} gives")
        steps.append((state, move, after))
        state = after
        states.append(state)
    problem = game.result_problem(record.result, states, where)
    if problem:
        return failed(len(record.moves) + 1, *problem)
    return ReplayReport(game.name, len(record.moves), True, summary=game.summary(record.result, state)), steps


class GameOfModules:
    """A game's API as one object (:class:`~cardcanon.model.game.Game`): the rules module's
    ``name``, ``Config`` and functions (``position_from_json`` too: a Hearts position's outcome is
    a rule's), its records module's codecs, and this module's loops.
    The functions are the ones the modules hold when the object is made."""

    def __init__(self, rules: ModuleType, codecs: ModuleType) -> None:
        self.name: str = rules.name
        self.Config: type[Any] = rules.Config
        self.new_game, self.to_move, self.is_chance = rules.new_game, rules.to_move, rules.is_chance
        self.legal_moves, self.apply, self.outcome = rules.legal_moves, rules.apply, rules.outcome
        self.chance_outcomes, self.sample_chance = rules.chance_outcomes, rules.sample_chance
        self.move_to_json, self.move_from_json, self.move_name = codecs.move_to_json, codecs.move_from_json, codecs.move_name
        self.config_to_json, self.config_from_json = codecs.config_to_json, codecs.config_from_json
        self.outcome_to_json, self.result_to_json = codecs.outcome_to_json, codecs.result_to_json
        self.result_problem, self.summary, self.from_record = codecs.result_problem, codecs.summary, codecs.from_record
        self.position_to_json, self.position_from_json = codecs.position_to_json, rules.position_from_json

    def to_record(self, config: Any, moves: Sequence[Any], seed: int | None = None) -> dict[str, Any]:
        """The JSON record of a game played from ``new_game(config)`` by ``moves`` (:func:`to_record`)."""
        return to_record(self, config, moves, seed)

    def replay(self, data: Mapping[str, Any], where: str = "record") -> ReplayReport:
        """Re-check every move of a record (and, with a seed, every chance move) and its result (:func:`replay`)."""
        return replay(self, data, where)


def read_record(path: str | Path) -> dict[str, Any]:
    """Read and check the envelope of a record file."""
    where = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(where, "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(where, f"cannot read: {exc}") from None
    try:
        data: dict[str, Any] = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{where}:{exc.lineno}:{exc.colno}", f"not valid JSON: {exc.msg}") from None
    check_envelope(data, where)
    return data


def check_envelope(data: Any, where: str) -> None:
    if not isinstance(data, dict):
        raise RecordError(where, "a record must be a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"{where}: field 'format'", f"expected {FORMAT!r}, found {data.get('format')!r}")
    if data.get("version") != VERSION:
        raise RecordError(f"{where}: field 'version'", f"expected {VERSION}, found {data.get('version')!r}")
    if data.get("game") not in GAMES:
        raise RecordError(f"{where}: field 'game'", f"expected one of {', '.join(GAMES)}, found {data.get('game')!r}")


def record_text(data: dict[str, Any]) -> str:
    """A record as JSON text: one field per line, one move per line."""
    def value(key: str, item: Any) -> str:
        if key == "moves" and item:
            return "[\n  " + ",\n  ".join(json.dumps(m, ensure_ascii=False) for m in item) + "\n ]"
        return json.dumps(item, ensure_ascii=False)
    return "{\n" + ",\n".join(f" {json.dumps(k)}: {value(k, v)}" for k, v in data.items()) + "\n}\n"


def write_record(path: str | Path, data: dict[str, Any]) -> None:
    text = record_text(data)
    size = len(text.encode("utf-8"))
    if size > MAX_RECORD_BYTES:
        raise RecordError(str(path), f"not written: the record would take {size / 2**20:.1f} MB, more than the "
                                     f"{MAX_RECORD_BYTES // 2**20} MB a record may have (play fewer flips)")
    Path(path).write_text(text, encoding="utf-8")


def field(data: Mapping[str, Any], name: str, kind: type | tuple[type, ...], where: str) -> Any:
    """Fetch a required field of a given JSON type, or raise a RecordError naming it."""
    if name not in data:
        raise RecordError(f"{where}: field {name!r}", "missing")
    value = data[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        names = " or ".join(JSON_WORDS.get(k, k.__name__) for k in kinds)
        raise RecordError(f"{where}: field {name!r}", f"expected {names}, found {json_words(value)}")
    return value


JSON_WORDS = {int: "an integer", str: "a string", bool: "true or false", list: "an array", dict: "an object",
              float: "a number", type(None): "null"}


def only_fields(data: Mapping[str, Any], names: Sequence[str], where: str) -> None:
    """Raise a RecordError naming the first field of ``data`` that is not one of ``names``."""
    extra = sorted(set(data) - set(names))
    if extra:
        raise RecordError(where, f"unexpected field {extra[0]!r} (expected: {', '.join(names)})")


def json_words(value: Any) -> str:
    """What kind of JSON value ``value`` is, in words (never a Python type name)."""
    kind = next((k for k in (bool, type(None), int, float, str, list, dict) if isinstance(value, k)), None)
    return JSON_WORDS[kind] if kind else "something else"
