"""Snap game records: JSON <-> moves, and a replay that re-checks every move.

A Snap record is the envelope of :mod:`cardcanon.model.records` plus::

    "config": {"players": 3, "index_card": false, "next_turn": "clockwise"},  # "deck": [...] if not 52;
                                     # other variations only when not the rulebook's default
    "seed": 7,                       # optional: the deal is then checked against the seed
    "policy": "flipper-first",       # optional, informative
    "moves": [{"move": "deal", "dealer": 0, "order": ["Qs", ...]}, {"move": "flip", "player": 1},
              {"move": "no-call"}, {"move": "call", "caller": 2, "kind": "snap"},
              {"move": "tie", "callers": [0, 2], "kind": "snap-pot"}],
    "result": {"status": "ended", "termination": "all-cards", "winner": 1, "flips": 312}
              # or {"status": "endless", "cycle_start": S, "cycle_length": L, "flips": S + L}
              # or {"status": "capped", "flips": N}

:mod:`cardcanon.model.snap` offers ``to_record``, ``from_record`` and ``replay`` (the record
loop of :mod:`cardcanon.model.records`); moves are numbered from 1 in replay reports. A played
game's record (with its policy) is :func:`cardcanon.model.snap_policies.game_record`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any

from cardcanon.model.cards import FULL_DECK, Card, CardParseError
from cardcanon.model.errors import CardcanonError, OptionError, RecordError
from cardcanon.model.options import SWITCH, check_option
from cardcanon.model.game import Record
from cardcanon.model.records import field, json_words, only_fields
from cardcanon.model.seats import Seat
from cardcanon.model.snap_text import result_text, sentence
from cardcanon.model.snap_types import (
    VARIATIONS, Call, CallKind, Deal, Flip, Move, NoCall, Outcome, Phase, SnapConfig, SnapState, Tie,
)

# ---- writing -----------------------------------------------------------------------------
def config_to_json(config: SnapConfig) -> dict[str, Any]:
    data: dict[str, Any] = {"players": config.players, "index_card": config.index_card,
                            "next_turn": config.next_turn.value}
    for name, value in config.options().items():
        if name not in data and getattr(config, name) != getattr(SnapConfig, name):
            data[name] = value
    if config.deck != FULL_DECK:
        data["deck"] = [str(c) for c in config.deck]
    return data


MOVE_NAMES: dict[type[Move], str] = {Deal: "deal", Flip: "flip", NoCall: "no call", Call: "call", Tie: "tie"}


def move_name(move: Move) -> str:
    """The kind of move, in words (``no call``)."""
    return MOVE_NAMES[type(move)]


def move_to_json(move: Move) -> dict[str, Any]:
    if isinstance(move, Deal):
        return {"move": "deal", "dealer": move.dealer.index, "order": [str(c) for c in move.order]}
    if isinstance(move, Flip):
        return {"move": "flip", "player": move.player.index}
    if isinstance(move, NoCall):
        return {"move": "no-call"}
    if isinstance(move, Call):
        return {"move": "call", "caller": move.caller.index, "kind": move.kind.value}
    return {"move": "tie", "callers": sorted(s.index for s in move.callers), "kind": move.kind.value}


def outcome_to_json(outcome: Outcome | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {"termination": outcome.termination.value, "winner": None if outcome.winner is None else outcome.winner.index}


def result_to_json(state: SnapState) -> dict[str, Any]:
    """The record's ``result`` for a game that reached ``state``: ``ended``, else ``capped`` (stopped unfinished)."""
    over = outcome_to_json(state.outcome)
    if over is None:
        return {"status": "capped", "flips": state.flips}
    return {"status": "ended", **over, "flips": state.flips}


# ---- reading -----------------------------------------------------------------------------
def _int(data: Mapping[str, Any], name: str, where: str) -> int:
    value: int = field(data, name, int, where)
    if value < 0:
        raise RecordError(f"{where}: field {name!r}", f"expected a non-negative integer, found {value}")
    return value


def _enum(enum_type: type[Enum], data: Mapping[str, Any], name: str, where: str) -> Any:
    value = field(data, name, str, where)
    try:
        return enum_type(value)
    except ValueError:
        names = ", ".join(repr(e.value) for e in enum_type)
        raise RecordError(f"{where}: field {name!r}", f"expected one of {names}, found {value!r}") from None


def _cards(data: Mapping[str, Any], name: str, where: str) -> tuple[Card, ...]:
    items = field(data, name, list, where)
    for i, t in enumerate(items):
        if not isinstance(t, str):
            raise RecordError(f"{where}: field {name!r}[{i}]", f"expected a card name such as \"Qs\", found {json_words(t)}")
    try:
        return tuple(Card.parse(t) for t in items)
    except CardParseError as exc:
        raise RecordError(f"{where}: field {name!r}", str(exc)) from None


def config_from_json(cfg: Any, where: str) -> SnapConfig:
    if not isinstance(cfg, dict):
        raise RecordError(where, f"expected an object, found {json_words(cfg)}")
    players = field(cfg, "players", int, where)
    deck = _cards(cfg, "deck", where) if "deck" in cfg else FULL_DECK
    options = {name: SWITCH[field(cfg, name, bool, where)] if kind is bool else field(cfg, name, str, where)
               for name, kind in VARIATIONS.items() if name in cfg}
    for name, text in options.items():  # the place of a wrong option
        try:
            check_option("snap", name, text)
        except OptionError as exc:
            raise RecordError(f"{where}: field {name!r}", str(exc)) from None
    try:
        return SnapConfig.from_options(options, players=players, deck=deck)
    except (ValueError, CardcanonError) as exc:
        raise RecordError(where, str(exc)) from None


MOVE_FIELDS = {"deal": ("move", "dealer", "order"), "flip": ("move", "player"), "no-call": ("move",),
               "call": ("move", "caller", "kind"), "tie": ("move", "callers", "kind")}


def move_from_json(item: Any, where: str) -> Move:
    if not isinstance(item, dict):
        raise RecordError(where, f"a move must be a JSON object, found {json_words(item)}")
    kind = field(item, "move", str, where)
    if kind in MOVE_FIELDS:
        only_fields(item, MOVE_FIELDS[kind], where)
    if kind == "deal":
        return Deal(Seat(_int(item, "dealer", where)), _cards(item, "order", where))  # a Deal of cards and a Seat
    if kind == "flip":
        return Flip(Seat(_int(item, "player", where)))
    if kind == "no-call":
        return NoCall()
    if kind == "call":
        return Call(Seat(_int(item, "caller", where)), _enum(CallKind, item, "kind", where))
    if kind == "tie":
        callers = field(item, "callers", list, where)
        if not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in callers):
            raise RecordError(f"{where}: field 'callers'", "expected a list of seat numbers")
        if len(set(callers)) != len(callers):
            raise RecordError(f"{where}: field 'callers'", "a seat is listed twice")
        return Tie(frozenset(Seat(c) for c in callers), _enum(CallKind, item, "kind", where))
    raise RecordError(f"{where}: field 'move'", f"expected deal, flip, no-call, call or tie, found {kind!r}")


def from_record(data: Mapping[str, Any], where: str = "record") -> Record[SnapConfig, Move]:
    """The config, seed, moves and recorded result of a record; RecordError if malformed."""
    if not isinstance(data, Mapping):
        raise RecordError(where, f"a record must be a JSON object, found {type(data).__name__}")
    config = config_from_json(field(data, "config", dict, where), f"{where}: config")
    seed = field(data, "seed", int, where) if data.get("seed") is not None else None
    items = field(data, "moves", list, where)
    result = field(data, "result", dict, where)
    moves = tuple(move_from_json(item, f"{where}: moves[{i}]") for i, item in enumerate(items))
    return Record("snap", config, seed, moves, result)


# ---- replay (the loop is :func:`cardcanon.model.records.replay`) -------------------------------
def result_problem(result: Mapping[str, Any] | None, states: Sequence[SnapState], where: str) -> tuple[str, str | None] | None:
    """What is wrong with the recorded ``result`` of a game that passed through ``states`` (the
    last one reached), with the rule it breaks, or None."""
    assert result is not None
    keys: dict[tuple[object, ...], int] = {}
    for state in states:
        if state.phase is Phase.FLIP:
            keys.setdefault(state.position_key(), state.flips)
    problem = _check_result(result, states[-1], keys, f"{where}: result")
    return None if problem is None else (f"after the last move: {problem}", None)


def summary(result: Mapping[str, Any] | None, state: SnapState) -> str:
    assert result is not None
    return result_summary(result)


def _check_result(result: Mapping[str, Any], state: SnapState, keys: Mapping[tuple[object, ...], int],
                  where: str) -> str | None:
    status = field(result, "status", str, where)
    flips = _int(result, "flips", where)
    if flips != state.flips:
        return f"the record says {flips} flips, the moves make {state.flips}"
    if status == "ended":
        outcome = state.outcome
        if outcome is None:
            return "the record says the game ended, but the moves leave it unfinished"
        termination = field(result, "termination", str, where)
        winner = field(result, "winner", (int, type(None)), where)
        claimed = (termination, winner)
        actual = (outcome.termination.value, None if outcome.winner is None else outcome.winner.index)
        return None if claimed == actual else f"the record says {claimed}, the moves give {actual}"
    if status in ("endless", "capped") and state.phase is Phase.OVER:
        return f"the record says {status}, but the game is over"
    if status == "endless":
        start, length = _int(result, "cycle_start", where), _int(result, "cycle_length", where)
        if length < 1 or start + length != state.flips or keys.get(state.position_key()) != start:
            return f"the position after flip {state.flips} is not the one after flip {start} (SNAP-END-4)"
        return None
    if status == "capped":
        return None
    raise RecordError(f"{where}: field 'status'", f"expected ended, endless or capped, found {status!r}")


def result_summary(result: Mapping[str, Any]) -> str:
    status, flips = result.get("status"), result.get("flips")
    if status == "ended":
        return sentence(result_text(str(result.get("termination")), result.get("winner"), int(flips or 0)))
    if status == "endless":
        return (f"Endless: the position after flip {result.get('cycle_start')} recurs every "
                f"{result.get('cycle_length')} flips.")
    return f"Stopped unfinished after {flips} flips."


# ---- positions: one JSON form, the one ``cardcanon conform`` shows and the records carry ---------
POSITION_FIELDS = ("phase", "dealer", "flipper", "flips", "down", "up", "pot")


def position_to_json(state: SnapState) -> dict[str, Any]:
    """``phase``; ``dealer``; ``flipper``: who must flip (``flip``) or who just flipped (``call``),
    null at the deal and at the end; ``flips``: the flips made so far; ``down`` and ``up``: each
    seat's face-down and face-up pile, top card first; ``pot``: the Snap Pot, top card first."""
    return {"phase": state.phase.value, "dealer": None if state.dealer is None else state.dealer.index,
            "flipper": None if state.turn is None else state.turn.index, "flips": state.flips,
            "down": [[str(c) for c in pile] for pile in state.down], "up": [[str(c) for c in pile] for pile in state.up],
            "pot": [str(c) for c in state.pot]}


def _seat_or_null(data: Mapping[str, Any], name: str, where: str) -> Seat | None:
    return None if field(data, name, (int, type(None)), where) is None else Seat(_int(data, name, where))


def _piles(data: Mapping[str, Any], name: str, players: int, where: str) -> tuple[tuple[Card, ...], ...]:
    piles = field(data, name, list, where)
    if len(piles) != players:
        raise RecordError(f"{where}: field {name!r}", f"expected one pile per player ({players}), found {len(piles)}")
    return tuple(_cards({f"{name}[{i}]": pile}, f"{name}[{i}]", where) for i, pile in enumerate(piles))


def position_from_json(config: SnapConfig, obj: Any, where: str) -> SnapState:
    """The state :func:`position_to_json` writes, at the table ``config``; RecordError naming the place."""
    if not isinstance(obj, dict):
        raise RecordError(where, f"a position must be a JSON object, found {json_words(obj)}")
    only_fields(obj, POSITION_FIELDS, where)
    return SnapState(config, _enum(Phase, obj, "phase", where), _seat_or_null(obj, "dealer", where),
                     _piles(obj, "down", config.players, where), _piles(obj, "up", config.players, where),
                     _cards(obj, "pot", where), _seat_or_null(obj, "flipper", where), _int(obj, "flips", where))
