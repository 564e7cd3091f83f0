"""The runner's replay of the checks' game records (their format: :mod:`cardcanon.proofs.records`).

:func:`replay` replays a record through whatever model is loaded (the reference model, or a
mutant of it in a verify worker); :func:`distinct` drops repeated records.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from cardcanon.proofs.records import MATCHES, LoadedState, call, fingerprint, start_state

if TYPE_CHECKING:
    from cardcanon.model import snap
    from cardcanon.model.shuffle import SplitMix64
    from cardcanon.model.snap_policies import Policy


# ---- replay ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Replayed:
    ok: bool  # every move applied, the fingerprint matches and any ``rejects`` move was refused
    problem: str = ""


def _note_flip(keys: dict[int, tuple[object, ...]], state: LoadedState) -> None:
    """Keep the position key (SNAP-END-4) of a position where a flip is next, by the flips before it."""
    if getattr(state, "phase", None) and state.phase.value == "flip":
        keys.setdefault(state.flips, state.position_key())


def _play(record: Mapping[str, Any]) -> tuple[str, LoadedState | None, str]:
    """(game, final state or None, problem) of a game record."""
    game: str = record["game"]
    model: ModuleType = importlib.import_module(f"cardcanon.model.{game}")  # the loaded model (or a mutant)
    config = model.GAME.config_from_json(record["config"], "record: config")
    start = record.get("start")
    state: LoadedState = model.new_game(config) if start is None else start_state(game, config, start)

    def parse(item: Any, number: int) -> Any:
        return model.GAME.move_from_json(item, f"record: moves[{number - 1}]")

    from cardcanon.model.errors import IllegalMoveError
    from cardcanon.model.shuffle import SplitMix64

    keys: dict[int, tuple[object, ...]] = {}
    policy, rng = _record_policy(record)
    for number, item in enumerate(record["moves"], 1):
        _note_flip(keys, state)
        move = parse(item, number)
        if rng is not None and number == 1 and "start" not in record and model.sample_deal(state.config, rng) != move:
            return game, None, f"move 1: the deal is not the one seed {record['seed']} gives"
        if policy is not None and state.phase is model.Phase.CALL:
            chosen = policy.choose(state, rng or SplitMix64(0))  # a deterministic policy never draws
            if chosen != move:
                return game, None, f"move {number}: {policy.name} calls {chosen} here, not {move}"
        try:
            state = model.apply(state, move)
        except IllegalMoveError as err:
            return game, None, f"move {number} is illegal ({err.rule_id}): {err}"
    _note_flip(keys, state)
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


def _record_policy(record: Mapping[str, Any]) -> tuple[Policy | None, SplitMix64 | None]:
    """The calling policy whose choices the replay checks (any policy of a seeded record, else only a
    deterministic one), and the generator of a seeded record (SNAP-SEED-1: the deal and every random
    call are drawn again from the record's seed). Only Snap records have a policy or a seed."""
    from cardcanon.model.shuffle import SplitMix64
    from cardcanon.model.snap_policies import parse_policy

    seeded, policy = record.get("seed") is not None, record.get("policy")
    if not seeded and policy is None:
        return None, None
    checked = policy is not None and (seeded or policy in DETERMINISTIC_POLICIES)
    return (parse_policy(str(policy)) if checked else None), (SplitMix64(int(record["seed"])) if seeded else None)


def replay(record: Mapping[str, Any]) -> Replayed:
    """Replay ``record`` through the loaded model; never raises."""
    try:
        if "function" in record:
            got = call(record["game"], record["function"], record["args"])
            if got != record["returns"]:
                return Replayed(False, f"the model's {record['function']} gives {json.dumps(got)} on the record's "
                                       f"arguments, the record says {json.dumps(record['returns'])}")
            return Replayed(True)
        game, state, problem = _play(record)
        if problem:
            return Replayed(False, problem)
        reached = fingerprint(game, state)
        if reached != record["reaches"]:
            position, recorded = reached["position"], record["reaches"].get("position") or {}
            diff = [key for key in position if position[key] != recorded.get(key)]
            diff += ["outcome"] if reached["outcome"] != record["reaches"].get("outcome") else []
            return Replayed(False, f"the replay reaches another position (differs in {', '.join(diff)})")
        return Replayed(True)
    except Exception as exc:  # noqa: BLE001 - a broken model may fail in any way
        return Replayed(False, f"replay failed: {type(exc).__name__}: {exc}")


def distinct(records: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The records without repeats, and without a record of a game played as a match
    (:data:`cardcanon.proofs.records.MATCHES`) whose moves begin a later one of the same match (the
    hands of a replayed match: the whole match's record plays them again)."""
    out: list[Mapping[str, Any]] = []
    for n, record in enumerate(records):
        moves = record.get("moves")
        continued = (MATCHES.get(str(record.get("game")), False) and moves is not None and "rejects" not in record and any(
            later.get("config") == record.get("config") and len(later.get("moves") or ()) > len(moves)
            and later["moves"][:len(moves)] == moves for later in records[n + 1:]))
        if record not in out and not continued:
            out.append(record)
    return out
