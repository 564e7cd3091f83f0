"""verify and the compiled engine: the engine replays the witness records of the checks, and
two checks compare it with the reference model on seeded batches (the engine sits above the
models, so this lives with the commands, not with the proofs). Both first ask the engine
whether it can play the configuration (``require``); when it cannot, the result is
``not-applicable`` with the reason, never a comparison of the model with itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cardcanon.engine import hearts as hearts_engine
from cardcanon.engine import snap as snap_engine
from cardcanon.engine.build import EngineUnavailable
from cardcanon.model import hearts as hearts_model
from cardcanon.verify import records
from cardcanon.proofs.base import CheckResult, Run, Verdict
from cardcanon.model.hearts_text import decision_text
from cardcanon.model.snap_text import outcome_text, repeat_text
from cardcanon.model.snap_types import Outcome
from cardcanon.proofs.hearts.match import decision
from cardcanon.proofs.records import Record, hearts_record, snap_record


def engine_replay(record: Record) -> bool | None:
    """Whether the compiled engine plays the record's game as the model does; None when the
    record is not one the engine plays (it does not start from a deal, or has no deterministic
    policy). Raises :class:`~cardcanon.engine.build.EngineUnavailable` when the kernel cannot
    play it (not built, disabled, or refusing the configuration): never a silent fallback."""
    policy = record.get("policy")
    if record.get("game") != "snap" or policy is None or "start" in record or not record.get("moves"):
        return None
    if record["moves"][0].get("move") != "deal":
        return None
    from cardcanon.model.snap import Deal
    from cardcanon.model.snap_records import config_from_json, move_from_json

    config = config_from_json(record["config"], "record: config")
    deal = move_from_json(record["moves"][0], "record: move 1")
    assert isinstance(deal, Deal)  # the first move was read as a deal above
    if policy not in records.DETERMINISTIC_POLICIES:
        return None  # random policies draw from the seed's stream, which a record does not carry
    snap_engine.require(config)
    cap = 1 + sum(1 for m in record["moves"] if m.get("move") == "flip")
    return snap_engine.decide_deal(config, deal, policy, max_flips=cap) == snap_engine.reference_play_deal(
        config, deal, policy, max_flips=cap)


def check_snap(run: Run) -> CheckResult:
    """The compiled engine against the model on a seeded batch (every named policy); from
    ``large_table`` players on, whose games cost more, only the first ``large_table_games`` seeds."""
    from cardcanon.model.snap_policies import play_game

    run.no_probe()
    bounds = run.bounds
    max_flips = int(bounds.get("max_flips", 3000))
    compared, shown = 0, []
    for players in bounds.get("players", [2, 3, 5]):
        seeds = range(*bounds.get("seeds", [0, 20]))
        if players >= int(bounds.get("large_table", 13)):
            seeds = seeds[:int(bounds.get("large_table_games", len(seeds)))]
        config = run.snap_config(players=players)
        refused = _refused(lambda: snap_engine.require(config))
        if refused:
            return refused
        for policy in bounds.get("policies", ["flipper-first", "owner-first", "ties:0.3", "errors:0.05"]):
            for seed in seeds:
                fast = snap_engine.decide(config, seed, policy, max_flips=max_flips)
                slow = play_game(config, seed, policy, max_flips=max_flips)
                mine = (slow.status, slow.flips, slow.outcome.termination if slow.outcome else None,
                        slow.outcome.winner if slow.outcome else None,
                        (slow.endless.start, slow.endless.length) if slow.endless else None)
                theirs = (fast.status, fast.flips, fast.termination, fast.winner,
                          (fast.cycle.start, fast.cycle.length) if fast.cycle else None)
                compared += 1
                if mine != theirs or (seed == seeds.start and policy in records.DETERMINISTIC_POLICIES):
                    record = snap_record(config, slow.moves, slow.state, policy=policy if slow.outcome or slow.endless
                                         else None, label=f"{players} players, {policy}, seed {seed}")
                    run.record(record)
                    if mine != theirs:
                        return CheckResult(Verdict.COUNTEREXAMPLE, f"{record['label']}: the model's game "
                                           f"{_game_text(*mine)}; the engine's {_game_text(*theirs)}",
                                           witness=record["label"], stats={"compared": compared})
                    shown.append(record["label"])
                run.budget.tick()
    return CheckResult(Verdict.PROVED, f"{compared} seeded deals: the engine plays each as the model does",
                       witness="\n".join(shown), stats={"compared": compared})


def _game_text(status: str, flips: int, termination: Any, winner: Any, repeat: tuple[int, int] | None) -> str:
    """A seeded Snap game's result in words: ``"ended after 62 flips: player 1 wins: he holds every card ..."``."""
    ending = outcome_text(Outcome(termination, winner)) if termination else f"repeating {repeat_text(repeat)}"
    return f"{status} after {flips} flips: {ending}"


def check_hearts(run: Run) -> CheckResult:
    """The compiled engine against the model on seeded matches (random and greedy players)."""
    run.no_probe()
    bounds = run.bounds
    config = run.hearts_config()
    refused = _refused(lambda: hearts_engine.require(config))
    if refused:
        return refused
    seeds = range(*bounds.get("seeds", [0, 10]))
    compared, shown = 0, []
    for kinds in (("random", "random"), ("greedy", "random")):
        for seed in seeds:
            fast, fast_moves = hearts_engine.match(seed, kinds, config, with_moves=True)
            state, moves = hearts_engine.reference_match(seed, kinds, config)
            compared += 1
            label = f"{'-'.join(kinds)} seed {seed}"
            mine = (decision(state.outcome), tuple(state.scores), tuple(map(tuple, state.hand_scores)))
            theirs = ((fast.termination.value, fast.winner.index), fast.scores, tuple(map(tuple, fast.hand_scores)))
            differs = mine != theirs or list(fast_moves) != list(moves)
            if differs or seed == seeds.start:  # the match as a record (built only when it is one)
                record = hearts_record(config, moves, state, label=f"{label}: {decision_text(state.outcome)}")
                run.record(_first_difference(config, moves, fast_moves) or record if differs else record)
                if differs:
                    return CheckResult(Verdict.COUNTEREXAMPLE, f"{label}: model {decision_text(mine[0])} at "
                                       f"{mine[1]}, engine {decision_text(theirs[0])} at {theirs[1]}",
                                       witness=label, stats={"compared": compared})
                shown.append(record["label"])
            run.budget.tick()
    return CheckResult(Verdict.PROVED, f"{compared} seeded matches: the engine plays each as the model does",
                       witness="\n".join(shown), stats={"compared": compared})


def _first_difference(config: hearts_model.HeartsConfig, moves: Sequence[hearts_model.Move],
                      fast: Sequence[hearts_model.Move]) -> Record | None:
    """The model's match narrowed to the first move where the engine plays otherwise, that move of
    the model's included: the position there, or that move, is where the model breaks a rule the
    engine keeps. None when the moves are the same (the two differ in a score or an outcome)."""
    first = next((i for i, (mine, theirs) in enumerate(zip(moves, fast)) if mine != theirs), None)
    if first is None:
        return None
    state = hearts_model.new_game(config)
    for move in moves[:first + 1]:
        state = hearts_model.apply(state, move)
    return hearts_record(config, moves[:first + 1], state,
                         label=f"move {first + 1}: the model plays {moves[first]}, the engine {fast[first]}")


def _refused(require: Callable[[], None]) -> CheckResult | None:
    """A not-applicable result when the engine cannot play the configuration (never a comparison
    of the model with itself), else None."""
    try:
        require()
    except EngineUnavailable as exc:
        return CheckResult(Verdict.NOT_APPLICABLE, f"the compiled engine cannot run this: {exc}")
    return None
