"""verify and the compiled engine: the engine replays the witness records of the checks, and
two checks compare it with the reference model on seeded batches (the engine sits above the
models, so this lives with the commands, not with the proofs).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from cardcanon.model import hearts as hearts_model
from cardcanon.proofs import records
from cardcanon.proofs.base import CheckResult, Verdict, variant_of
from cardcanon.proofs.records import Record, hearts_record, snap_record
from cardcanon.proofs.variants import hearts_config, snap_config


def engine_replay(record: Record) -> bool | None:
    """Whether the compiled engine plays the record's game as the model does; None when the
    engine cannot replay it (a record that does not start from a deal, or has no named policy)."""
    policy = record.get("policy")
    if record.get("game") != "snap" or policy is None or "start" in record or not record.get("moves"):
        return None
    if record["moves"][0].get("move") != "deal":
        return None
    from cardcanon.engine import snap as engine
    from cardcanon.model.snap import Deal
    from cardcanon.model.snap_records import config_from_json, move_from_json

    config = config_from_json(record["config"], "record: config")
    deal = move_from_json(record["moves"][0], "record: move 1")
    assert isinstance(deal, Deal)  # the first move was read as a deal above
    if policy not in records.DETERMINISTIC_POLICIES:
        return None  # random policies draw from the seed's stream, which a record does not carry
    flips = sum(1 for m in record["moves"] if m.get("move") == "flip")
    cap = flips + 1
    fast = engine.decide_deal(config, deal, policy, max_flips=cap)
    slow = engine.reference_play_deal(config, deal, policy, max_flips=cap)
    return fast == slow


def check_snap(*, mutant: str | None = None, timeout: float = 60.0, bounds: Mapping[str, Any]) -> CheckResult:
    """The compiled engine against the model on a seeded batch (every named policy)."""
    from cardcanon.engine import snap as engine
    from cardcanon.model.snap_policies import play_game
    from cardcanon.model.snap_policies import game_record

    if mutant is not None:
        raise ValueError(f"unknown probe {mutant!r}: this check has no encoding")
    variant = variant_of(bounds)
    seeds = range(*bounds.get("seeds", [0, 20]))
    max_flips = int(bounds.get("max_flips", 3000))
    started, compared, records = time.monotonic(), 0, []
    for players in bounds.get("players", [2, 3, 5]):
        config = snap_config(variant, players=players)
        for policy in bounds.get("policies", ["flipper-first", "owner-first", "ties:0.3", "errors:0.05"]):
            for seed in seeds:
                fast = engine.decide(config, seed, policy, max_flips=max_flips)
                slow = play_game(config, seed, policy, max_flips=max_flips)
                mine = (slow.status, slow.flips, slow.outcome.termination if slow.outcome else None,
                        slow.outcome.winner if slow.outcome else None,
                        (slow.endless.start, slow.endless.length) if slow.endless else None)
                theirs = (fast.status, fast.flips, fast.termination, fast.winner,
                          (fast.cycle.start, fast.cycle.length) if fast.cycle else None)
                compared += 1
                data = game_record(slow)
                record = snap_record(config, slow.moves, slow.state, label=f"{players} players, {policy}, seed {seed}",
                                     policy=policy if slow.outcome or slow.endless else None)
                if mine != theirs:
                    return CheckResult(Verdict.COUNTEREXAMPLE, f"{record['label']}: model {mine}, engine {theirs}",
                                       witness=str(data["result"]), records=(record,), stats={"compared": compared})
                if seed == seeds.start and policy in ("flipper-first", "owner-first"):
                    records.append(record)
                if time.monotonic() - started > timeout:
                    return CheckResult(Verdict.TIMEOUT, f"{compared} deals compared", stats={"compared": compared})
    return CheckResult(Verdict.PROVED, f"{compared} seeded deals: the engine plays each as the model does",
                       witness="\n".join(r["label"] for r in records), records=tuple(records),
                       stats={"compared": compared})


def check_hearts(*, mutant: str | None = None, timeout: float = 60.0, bounds: Mapping[str, Any]) -> CheckResult:
    """The compiled engine against the model on seeded matches (random and greedy players)."""
    from cardcanon.engine import hearts as engine

    if mutant is not None:
        raise ValueError(f"unknown probe {mutant!r}: this check has no encoding")
    config = hearts_config(variant_of(bounds))
    seeds = range(*bounds.get("seeds", [0, 10]))
    compared, records = 0, []
    for kinds in (("random", "random"), ("greedy", "random")):
        for seed in seeds:
            fast, fast_moves = engine.match(seed, kinds, config, with_moves=True)
            state, moves = engine.reference_match(seed, kinds, config)
            compared += 1
            label = f"{'-'.join(kinds)} seed {seed}"
            record = hearts_record(config, moves, state, label=f"{label}: {_outcome(state.outcome)}")
            mine = (_outcome(state.outcome), tuple(state.scores), tuple(map(tuple, state.hand_scores)))
            theirs = ((fast.termination.value, fast.winner.index), fast.scores, tuple(map(tuple, fast.hand_scores)))
            if mine != theirs or list(fast_moves) != list(moves):
                return CheckResult(Verdict.COUNTEREXAMPLE, f"{label}: model {mine[:2]}, engine {theirs[:2]}",
                                   witness=label, records=(record,), stats={"compared": compared})
            if seed == seeds.start:
                records.append(record)
    return CheckResult(Verdict.PROVED, f"{compared} seeded matches: the engine plays each as the model does",
                       witness="\n".join(r["label"] for r in records), records=tuple(records),
                       stats={"compared": compared})


def _outcome(outcome: hearts_model.Outcome | None) -> tuple[str, int] | None:
    return None if outcome is None else (outcome.termination.value, outcome.winner.index)
