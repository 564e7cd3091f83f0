"""SNAP-P14: the compiled engine and the model against the rulebook's text, where the published
figures rest on them. The model alone is not the judge (the engine could share its misreading):
every answer is compared with :mod:`cardcanon.proofs.snap.rulebook_text`, written from the text
apart from both.

- seeded deals (SNAP-SEED-1, SNAP-SEED-2) for 2 to 12 players: the engine's deal is the text's;
- policies (SNAP-POLICY-1 to SNAP-POLICY-5): in seeded games of 2 to 12 players the model
  chooses and draws as the text does in every call window, and the engine plays the same moves;
- ending labels (SNAP-END-5): seeded 2-player games with ties: the engine's and the model's
  labels are the text's label of the final position;
- repetition (SNAP-END-4): on the lasso seeds the engine's cycle and the model's are where the
  text first finds a position recur.

Without the engine (``require``) the check is ``not-applicable``, never a comparison of the
model with itself.
"""

from __future__ import annotations

from typing import Any

from cardcanon.engine import snap as engine
from cardcanon.engine.build import EngineUnavailable
from cardcanon.model import snap as model
from cardcanon.model import snap_endings, snap_policies
from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.snap import Move, Phase
from cardcanon.model.snap_records import config_to_json
from cardcanon.model.snap_text import repeat_text
from cardcanon.proofs.snap import rulebook_text as snap_text
from cardcanon.proofs.base import CheckResult, Run, Verdict
from cardcanon.proofs.records import function_record, snap_position, snap_record
from cardcanon.proofs.snap.lockstep import first_repeat, lockstep
from cardcanon.verify.scope import span


def check(run: Run) -> CheckResult:
    run.no_probe()
    try:
        engine.require(run.snap_config())
    except EngineUnavailable as exc:
        return CheckResult(Verdict.NOT_APPLICABLE, f"the compiled engine cannot play this table: {exc}")
    stats: dict[str, Any] = {"deals": 0, "games": 0, "windows": 0, "labels": 0, "cycles": 0}
    for problem in (_deals(run, stats), _policies(run, stats), _labels(run, stats), _cycles(run, stats)):
        if problem:
            return CheckResult(Verdict.COUNTEREXAMPLE, problem, witness=problem, stats=stats)
    return CheckResult(Verdict.PROVED, f"{stats['deals']} seeded deals, {stats['games']} games ({stats['windows']} call "
                                       f"windows), {stats['labels']} labels and {stats['cycles']} cycles: engine and "
                                       "model as the text says",
                       witness=f"seeded games of {span(run.bounds.get('players', [3, 4]))} players", stats=stats)


def _deals(run: Run, stats: dict[str, Any]) -> str:
    for n in range(2, 13):
        for seed in range(int(run.bounds.get("deal_seeds", 5))):
            _, moves = engine.moves(run.snap_config(players=n), seed, "flipper-first", max_flips=0)
            deal, (text, _) = moves[0], snap_text.deal_from_seed(n, seed)
            stats["deals"] += 1
            if not isinstance(deal, model.Deal) or (deal.dealer.index, deal.order) != (text.dealer, text.order):
                return f"{n} players, seed {seed}: the engine's deal is not the one SNAP-SEED-2 gives"
    return ""


def _policies(run: Run, stats: dict[str, Any]) -> str:
    windows = int(run.bounds.get("windows", 80))
    for n in run.bounds.get("players", [3, 4]):
        config = run.snap_config(players=n)
        for policy in run.bounds.get("policies", ["flipper-first", "owner-first", "ties:0.5", "errors:0.2"]):
            for seed in range(int(run.bounds.get("seeds", 3))):
                rng = SplitMix64(seed)
                deal = model.sample_deal(config, rng)
                text, text_rng = snap_text.deal_from_seed(n, seed)
                label = f"{n} players, {policy}, seed {seed}"
                if (deal.dealer.index, deal.order) != (text.dealer, text.order):
                    state = model.apply(model.new_game(config), deal)
                    run.record(snap_record(config, (deal,), state, label=label, seed=seed))
                    return f"{label}: the model's deal is not the one SNAP-SEED-2 gives"
                played = lockstep(model.apply(model.new_game(config), deal), policy, rng, text_rng, windows)
                moves: tuple[Move, ...] = (deal,) + played.moves
                game = snap_record(config, moves, played.final, label=label, policy=policy, seed=seed)
                stats["games"] += 1
                stats["windows"] += played.windows
                if played.problem:
                    run.record(game)
                    return f"{label}: {played.problem}"
                _, fast = engine.moves(config, seed, policy, max_flips=played.final.flips)
                if tuple(fast) != moves:
                    run.record(game)
                    at = next((i for i, (a, b) in enumerate(zip(fast, moves)) if a != b), min(len(fast), len(moves)))
                    return f"{label}: the engine's move {at + 1} differs from the text's and the model's"
                if seed == 0:
                    run.record(game)
                run.budget.tick()
    return ""


def _labels(run: Run, stats: dict[str, Any]) -> str:
    config, policy = run.snap_config(players=2), str(run.bounds.get("label_policy", "ties:0.3"))
    seen: set[str] = set()
    for seed in range(int(run.bounds.get("label_seeds", 30))):
        result = snap_policies.play_game(config, seed, policy, max_flips=2000)
        if result.state.phase is not Phase.OVER:
            continue
        text = snap_text.ending_label(result.state)
        mine = snap_endings.ending_label(result.state)
        theirs = engine.decide(config, seed, policy, max_flips=2000).ending
        label = f"2 players, {policy}, seed {seed}: the text says {text}, the model {mine}, the engine {theirs}"
        stats["labels"] += 1
        if mine != text or theirs != text or text not in seen:
            seen.add(text)
            run.record(function_record("snap", "ending_label", [config_to_json(config), snap_position(result.state)],
                                   label=label))
        if mine != text or theirs != text:
            return label
        run.budget.tick()
    return ""


def _cycles(run: Run, stats: dict[str, Any]) -> str:
    config = run.snap_config(players=2)
    for policy, seed in run.bounds.get("lassos", [["flipper-first", 47], ["owner-first", 63]]):
        result = snap_policies.play_game(config, seed, policy, max_flips=5000)
        text = first_repeat(result.moves, config)
        mine = (result.endless.start, result.endless.length) if result.endless else None
        fast = engine.decide(config, seed, policy, max_flips=5000).cycle
        theirs = (fast.start, fast.length) if fast else None
        label = (f"2 players, {policy}, seed {seed}: the text's first repetition {repeat_text(text)}, "
                 f"the model's {repeat_text(mine)}, the engine's {repeat_text(theirs)}")
        run.record(snap_record(config, result.moves, result.state, label=label, policy=policy, seed=seed, repeats=mine))
        stats["cycles"] += mine is not None
        if not (mine == theirs == text):
            return label
    return ""
