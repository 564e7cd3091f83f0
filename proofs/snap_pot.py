"""SNAP-P3: the stuck Snap Pot and the two unusual endings (SNAP-END-2, SNAP-END-3).

``check_stuck_pot``: a position reached from a real deal in which the Snap Pot holds cards and
every card of the pot's top rank is in the pot, so no "Snap Pot!" call can be correct until a
tie changes the pot's top card. Found by playing seeded deals with a tie-making policy through
the model (the first such seed is golden).

``check_end2``: whenever a move ends the game, at most one player holds cards (Z3, every move
shape, flipper and player count in ``players``); when exactly one does, every card outside the
pot is his (conservation, SNAP-P1) and the model's outcome names him as the only winner. The
witness is a move that ends a game with cards stuck in the pot, replayed through the model.
Mutant: the game ends when at most one player has a *face-down* card.

``check_no_cards``: a position where no player holds a card is reachable from a real deal: a
tie sends the last cards of the last two players into the pot; the model ends it as SNAP-END-3's
draw. Found by seeded search (the first seed is golden).

Under the index-card variant (SNAP-INDEX-1) nobody can tie, so no pot ever forms and the
manifest expects neither search to find a witness. The Z3 part of ``check_end2`` restates the
encoding's own end test (it ends the game exactly when at most one player holds cards); its
content is that the model does the same: its witnesses, a move that ends a game with cards in
the pot and a move after which a player holding only face-up cards plays on, are replayed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import z3

from cardcanon.model.cards import format_cards
from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.snap import CallKind, Phase, SnapConfig, SnapState, Termination, Tie, sample_deal
from cardcanon.model.snap_policies import parse_policy
from cardcanon.proofs.rulebook import value
from cardcanon.proofs.base import CheckResult, Run, Verdict, solve
from cardcanon.proofs.records import snap_record
from cardcanon.proofs.variants import snap_config
from cardcanon.proofs.snap_conservation import cases
from cardcanon.proofs.snap_encoding import (
    PHASE_CODE, MoveKind, Shape, SymState, correct, fresh_move, holders, legal, probe, require_mutant, step, structural,
)
from cardcanon.proofs.snap_replay import find_and_replay, in_range, slot_state
from cardcanon.proofs.snap_search import Played, play
from cardcanon.proofs.snap_termination import play_seed

RULES = ("SNAP-END-1", "SNAP-END-2", "SNAP-END-3", "SNAP-TIE-1", "SNAP-TIE-2", "SNAP-POT-1", "SNAP-OUT-1")


def stuck(state: SnapState) -> bool:
    """The pot holds cards and no card of its top card's rank is outside it."""
    if state.phase is not Phase.FLIP or not state.pot:
        return False
    rank = state.pot[0].rank
    outside = [c for pile in state.down + state.up for c in pile]
    return all(c.rank != rank for c in outside)


def play_to_stuck_pot(config: SnapConfig, seed: int, policy: str, max_flips: int) -> Played | None:
    """The game of ``seed`` played until its pot is stuck, or None if it never is within ``max_flips``."""
    chosen, rng = parse_policy(policy), SplitMix64(seed)
    played = play(config, sample_deal(config, rng), chosen.choose, rng, max_flips=max_flips, deterministic=False,
                  stop=stuck)
    return played if played.stopped else None


def _search(run: Run, goal: Callable[[SnapConfig, int, str, int], Played | None]) -> tuple[int, Any] | None:
    bounds = run.bounds
    config = run.snap_config(players=int(bounds.get("players", 2)))
    policy, max_flips = str(bounds.get("policy", "ties:0.3")), int(bounds.get("max_flips", 1000))
    first, last = bounds.get("seeds", [0, 100])
    for seed in range(first, last):
        played = goal(config, seed, policy, max_flips)
        if played is not None:
            return seed, played
    return None


def _searched(run: Run, label: str) -> CheckResult:
    """No witness: the searched games themselves are the records (as the loaded model plays them)."""
    bounds = run.bounds
    config = run.snap_config(players=int(bounds.get("players", 2)))
    policy, max_flips = str(bounds.get("policy", "ties:0.3")), int(bounds.get("max_flips", 1000))
    first, last = bounds.get("seeds", [0, 100])
    records = []
    for seed in range(first, last):
        played = play_seed(config, seed, policy, max_flips)
        records.append(snap_record(config, played.moves, played.final, label=f"seed {seed}, {policy}"))
    return CheckResult(Verdict.NO_WITNESS, label, witness=f"seeds {first} to {last - 1}, {policy}", records=tuple(records))


def check_stuck_pot(run: Run) -> CheckResult:
    run.no_probe()
    found = _search(run, play_to_stuck_pot)
    if found is None:
        return _searched(run, "no seed in range reaches a stuck pot")
    seed, played = found
    final = played.final
    top = final.pot[0]
    witness = (f"seed {seed}, before flip {final.flips + 1}: pot [{format_cards(final.pot, False)}], no other "
               f"{top.rank.label} on the table")
    record = snap_record(final.config, played.moves, final, label=witness)
    return CheckResult(Verdict.WITNESS, f"stuck pot reached from seed {seed}", witness=witness, records=(record,),
                       stats={"seed": seed, "flips": final.flips})


def check_no_cards(run: Run) -> CheckResult:
    run.no_probe()

    def goal(config: SnapConfig, seed: int, policy: str, max_flips: int) -> Played | None:
        played = play_seed(config, seed, policy, max_flips)
        outcome = played.final.outcome
        return played if outcome is not None and outcome.termination is Termination.NO_CARDS else None

    found = _search(run, goal)
    if found is None:
        return _searched(run, "no seed in range ends with no player holding a card")
    seed, played = found
    final = played.final
    if final.outcome.winner is not None or not isinstance(played.moves[-1], Tie):
        label = f"seed {seed}: the game ends with every card in the pot, outcome {final.outcome}"
        return CheckResult(Verdict.NO_WITNESS, label, witness=label,
                           records=(snap_record(final.config, played.moves, final, label=label),))
    witness = (f"seed {seed}: {played.moves[-1]!r} after flip {final.flips} empties the last hands; "
               f"pot of {len(final.pot)} cards; model outcome {final.outcome}")
    record = snap_record(final.config, played.moves, final, label=witness)
    return CheckResult(Verdict.WITNESS, f"draw with every card in the pot, seed {seed}", witness=witness,
                       records=(record,), stats={"seed": seed, "flips": final.flips})


def check_end2(run: Run) -> CheckResult:
    mutant, bounds = run.probe_id, run.bounds
    drop = probe(mutant, ("end-down-only",))
    stride = int(bounds.get("pile_bound", value("snap", "SNAP-DECK-1", "deck_size"))) + 1
    players = list(bounds.get("players", [2, 3]))
    started, queries = time.monotonic(), 0
    for n in players:
        config = run.snap_config(players=n)
        for turn, shape, call_ok in cases(config, drop):
            if shape.move == "flip":
                continue  # a flip moves no card between players and never ends the game
            pre, mv = slot_state(n, stride), fresh_move(shape, n)
            pre = replace(pre, turn=z3.IntVal(turn))
            post = step(pre, mv, config, mutant, drop)
            assumptions = [in_range(pre, stride), structural(pre), legal(pre, mv, config, mutant, drop)]
            if call_ok is not None:
                assert shape.kind is not None  # only calls and ties are split by correctness
                assumptions.append(correct(pre, shape.kind) == call_ok)
            # the claim, stated apart from the encoding's own end test: when a move ends the game at
            # most one player holds cards, and while two do the game goes on
            bad = z3.Or(z3.And(post.phase == PHASE_CODE[Phase.OVER], holders(post) > 1),
                        z3.And(post.phase != PHASE_CODE[Phase.OVER], holders(post) <= 1))
            solver = z3.Solver()
            solver.add(*assumptions, bad)
            queries += 1
            if solve(solver, run.budget, unsat=Verdict.PROVED, sat=Verdict.COUNTEREXAMPLE) is Verdict.COUNTEREXAMPLE:
                found = find_and_replay(pre, mv, post, config, assumptions + [bad], stride, 3, run.budget,
                                        expect_same=False)
                return CheckResult(Verdict.COUNTEREXAMPLE, f"{n} players, {shape}: the game ends with two players holding cards",
                                   witness=found.text if found else "no small instance to replay",
                                   records=(found.record,) if found and found.ok else (), stats={"queries": queries})
    # witnesses, replayed through the model: a move that ends a game with cards stuck in the pot
    # (one winner; a tie onto a pot that holds cards, SNAP-TIE-2, whose stacking the replay
    # compares with the model's), and a move after which a player with only face-up cards plays on
    n = min(players)
    config = run.snap_config(players=n)
    records, texts = [], []
    goals: tuple[tuple[str, MoveKind, Callable[[SymState, SymState], list[z3.BoolRef]]], ...] = (
        # without the index card a tie onto a pot that already holds cards (SNAP-TIE-2)
        ("a move ends the game with cards in the pot, which held cards before",
         MoveKind.TIE if not config.index_card else MoveKind.CALL,
         lambda pre, post: [post.phase == PHASE_CODE[Phase.OVER], pre.pot.length > 0, post.pot.length > 0,
                            holders(post) == 1]),
        ("a player with only face-up cards plays on", MoveKind.NOCALL,
         lambda pre, post: [pre.down[0].length == 0, pre.up[0].length >= 1, pre.turn == 1]))
    for label, shape_move, goal in goals:
        pre, mv = slot_state(n, stride), fresh_move(Shape(shape_move, config.kinds[0]), n)
        post = step(pre, mv, config, drop=drop)
        cond = [structural(pre), legal(pre, mv, config, drop=drop), *goal(pre, post)]
        found = find_and_replay(pre, mv, post, config, cond, stride, 3, run.budget)
        if found is None:
            return CheckResult(Verdict.NO_WITNESS, f"no reachability witness: {label}")
        if not found.ok:
            return CheckResult(Verdict.COUNTEREXAMPLE, f"{label}: the model differs from the encoding: {found.text}",
                               witness=found.text, records=(found.record,), stats={"queries": queries})
        records.append(found.record)
        texts.append(f"{label}: {found.text}")
    return CheckResult(Verdict.PROVED, f"{queries} queries unsat (players {players}, every flipper and move shape)",
                       witness="\n".join(texts), records=tuple(records),
                       stats={"queries": queries, "seconds": round(time.monotonic() - started, 2)})
