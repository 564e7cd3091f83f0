"""The runner's replay of the checks' game records (their format: :mod:`cardcanon.proofs.records`).

:func:`replay` replays a record through whatever model is loaded (the reference model, or a
mutant of it in a verify worker); :func:`distinct` drops repeated records.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from cardcanon.proofs.records import LoadedState, call, fingerprint

if TYPE_CHECKING:
    from cardcanon.model import snap
    from cardcanon.model.snap_policies import Policy


# ---- replay ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Replayed:
    ok: bool  # every move applied, the fingerprint matches and any ``rejects`` move was refused
    problem: str = ""


def _snap_start(record: Mapping[str, Any], config: snap.SnapConfig) -> snap.SnapState:
    from cardcanon.model.cards import Card
    from cardcanon.model.seats import Seat
    from cardcanon.model.snap import Phase, SnapState, new_game

    data = record.get("start")
    if data is None:
        return new_game(config)
    def cards(pile: Iterable[str]) -> tuple[Card, ...]:
        return tuple(Card.parse(c) for c in pile)

    return SnapState(config, Phase(data["phase"]), Seat(data["dealer"]), tuple(map(cards, data["down"])),
                     tuple(map(cards, data["up"])), cards(data["pot"]), Seat(data["turn"]), data["flips"])


def _play(record: Mapping[str, Any]) -> tuple[str, LoadedState | None, str]:
    """(game, final state or None, moves applied, problem, rejected-ok) of a game record."""
    game: str = record["game"]
    model: ModuleType  # the loaded model of the record's game
    state: LoadedState
    parse: Callable[[Any, int], Any]  # (JSON move, 1-based move number) -> move
    if game == "snap":
        from cardcanon.model import snap as snap_model
        from cardcanon.model.snap_records import config_from_json, move_from_json

        model = snap_model
        config = config_from_json(record, "record")
        state = _snap_start(record, config)
        parse = lambda item, n: move_from_json(item, f"record: move {n}")  # noqa: E731
    else:
        from cardcanon.model import hearts as hearts_model
        from cardcanon.model.hearts_records import config_from_json as hearts_config
        from cardcanon.model.hearts_records import move_from_json as hearts_move

        model = hearts_model
        state = model.new_game(hearts_config(record["config"], "record"))
        parse = lambda item, n: hearts_move(item, "record", f"moves[{n - 1}]")  # noqa: E731
    from cardcanon.model.errors import IllegalMoveError
    from cardcanon.model.shuffle import SplitMix64

    keys: dict[int, tuple[object, ...]] = {}
    policy = _deterministic_policy(record)
    for number, item in enumerate(record["moves"], 1):
        if game == "snap" and state.phase is model.Phase.FLIP:
            keys.setdefault(state.flips, state.position_key())
        move = parse(item, number)
        if policy is not None and state.phase is model.Phase.CALL:
            chosen = policy.choose(state, SplitMix64(0))  # a deterministic policy never draws
            if chosen != move:
                return game, None, f"move {number}: {policy.name} calls {chosen!r} here, not {move!r}"
        try:
            state = model.apply(state, move)
        except IllegalMoveError as err:
            return game, None, f"move {number} is illegal ({err.rule_id}): {err}"
    if game == "snap" and state.phase is model.Phase.FLIP:
        keys.setdefault(state.flips, state.position_key())
    if "repeats" in record:
        first, length = record["repeats"]
        if length <= 0 or first not in keys or keys.get(first) != keys.get(first + length):
            return game, state, f"the position before flip {first + 1} does not recur before flip {first + length + 1}"
    if "rejects" in record:
        try:
            model.apply(state, parse(record["rejects"], len(record["moves"]) + 1))
        except IllegalMoveError:
            pass
        else:
            return game, state, f"move {len(record['moves']) + 1} was to be refused but is legal"
    return game, state, ""


DETERMINISTIC_POLICIES = ("flipper-first", "owner-first")


def _deterministic_policy(record: Mapping[str, Any]) -> Policy | None:
    """The record's calling policy when it is deterministic: every call event must be its choice."""
    if record.get("game") != "snap" or record.get("policy") not in DETERMINISTIC_POLICIES:
        return None
    from cardcanon.model.snap_policies import parse_policy

    return parse_policy(record["policy"])


def replay(record: Mapping[str, Any]) -> Replayed:
    """Replay ``record`` through the loaded model; never raises."""
    try:
        if "function" in record:
            got = call(record["game"], record["function"], record["args"])
            if got != record["returns"]:
                return Replayed(False, f"{record['function']}{tuple(record['args'])} gives {got!r}, "
                                       f"the record says {record['returns']!r}")
            return Replayed(True)
        game, state, problem = _play(record)
        if problem:
            return Replayed(False, problem)
        reached = fingerprint(game, state)
        if reached != record["reaches"]:
            diff = sorted(k for k in reached if reached[k] != record["reaches"].get(k))
            return Replayed(False, f"the replay reaches another position (differs in {', '.join(diff)})")
        return Replayed(True)
    except Exception as exc:  # noqa: BLE001 - a broken model may fail in any way
        return Replayed(False, f"replay failed: {type(exc).__name__}: {exc}")



def distinct(records: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The records without repeats, and without a Hearts record whose moves begin a later one of
    the same match (the hands of a replayed match: the whole match's record plays them again)."""
    out: list[Mapping[str, Any]] = []
    for n, record in enumerate(records):
        moves = record.get("moves")
        continued = (record.get("game") == "hearts" and moves is not None and "rejects" not in record and any(
            later.get("config") == record.get("config") and len(later.get("moves") or ()) > len(moves)
            and later["moves"][:len(moves)] == moves for later in records[n + 1:]))
        if record not in out and not continued:
            out.append(record)
    return out
