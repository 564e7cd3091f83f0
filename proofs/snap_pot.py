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

The searches' mutant ``no-ties`` plays the same seeds with the index card (SNAP-INDEX-1), under
which nobody can tie: no pot ever forms and neither witness exists.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import z3

from cardcanon.model.cards import format_cards
from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.snap import CallKind, Phase, SnapConfig, SnapState, Termination, Tie, sample_deal
from cardcanon.model.snap_policies import parse_policy
from cardcanon.proofs.base import CheckResult, Verdict, solve
from cardcanon.proofs.snap_conservation import cases
from cardcanon.proofs.snap_encoding import (
    PHASE_CODE, MoveKind, Shape, correct, fresh_move, holders, legal, require_mutant, step, structural,
)
from cardcanon.proofs.snap_replay import find_and_replay, in_range, slot_state
from cardcanon.proofs.snap_search import play, replay_moves
from cardcanon.proofs.snap_termination import play_seed

RULES = ("SNAP-END-1", "SNAP-END-2", "SNAP-END-3", "SNAP-TIE-1", "SNAP-TIE-2", "SNAP-POT-1", "SNAP-OUT-1")


def stuck(state: SnapState) -> bool:
    """The pot holds cards and no card of its top card's rank is outside it."""
    if state.phase is not Phase.FLIP or not state.pot:
        return False
    rank = state.pot[0].rank
    outside = [c for pile in state.down + state.up for c in pile]
    return all(c.rank != rank for c in outside)


def play_to_stuck_pot(config: SnapConfig, seed: int, policy: str, max_flips: int):
    """The game of ``seed`` played until its pot is stuck, or None if it never is within ``max_flips``."""
    chosen, rng = parse_policy(policy), SplitMix64(seed)
    played = play(config, sample_deal(config, rng), chosen.choose, rng, max_flips=max_flips, deterministic=False,
                  stop=stuck)
    return played if played.stopped else None


def _search(bounds: Mapping[str, Any], mutant: str | None, goal) -> tuple[int, Any] | None:
    config = SnapConfig(players=int(bounds.get("players", 2)), index_card=mutant == "no-ties")
    policy, max_flips = str(bounds.get("policy", "ties:0.3")), int(bounds.get("max_flips", 1000))
    first, last = bounds.get("seeds", [0, 100])
    for seed in range(first, last):
        played = goal(config, seed, policy, max_flips)
        if played is not None:
            return seed, played
    return None


def check_stuck_pot(*, mutant: str | None = None, timeout: float = 60.0, bounds: Mapping[str, Any]) -> CheckResult:
    require_mutant(mutant, ("no-ties",))
    found = _search(bounds, mutant, play_to_stuck_pot)
    if found is None:
        return CheckResult(Verdict.NO_WITNESS, "no seed in range reaches a stuck pot", witness="searched seeds",
                           witness_replayed=True)
    seed, played = found
    final = replay_moves(played.final.config, played.moves)[-1]
    ok = final == played.final and stuck(final)
    top = final.pot[0]
    witness = (f"seed {seed}, before flip {final.flips + 1}: pot [{format_cards(final.pot, False)}], no other "
               f"{top.rank.label} on the table")
    return CheckResult(Verdict.WITNESS if ok else Verdict.ERROR, f"stuck pot reached from seed {seed}",
                       witness=witness, witness_replayed=ok, stats={"seed": seed, "flips": final.flips})


def check_no_cards(*, mutant: str | None = None, timeout: float = 60.0, bounds: Mapping[str, Any]) -> CheckResult:
    require_mutant(mutant, ("no-ties",))
    def goal(config, seed, policy, max_flips):
        played = play_seed(config, seed, policy, max_flips)
        outcome = played.final.outcome
        return played if outcome is not None and outcome.termination is Termination.NO_CARDS else None

    found = _search(bounds, mutant, goal)
    if found is None:
        return CheckResult(Verdict.NO_WITNESS, "no seed in range ends with no player holding a card",
                           witness="searched seeds", witness_replayed=True)
    seed, played = found
    states = replay_moves(played.final.config, played.moves)
    final, before = states[-1], states[-2]
    ok = (final == played.final and final.outcome is not None and final.outcome.winner is None
          and final.outcome.termination is Termination.NO_CARDS and isinstance(played.moves[-1], Tie)
          and not final.in_game and len(before.in_game) >= 2)
    witness = (f"seed {seed}: {played.moves[-1]!r} after flip {final.flips} empties {', '.join(map(str, before.in_game))}; "
               f"pot of {len(final.pot)} cards; model outcome {final.outcome}")
    return CheckResult(Verdict.WITNESS if ok else Verdict.ERROR, f"draw with every card in the pot, seed {seed}",
                       witness=witness, witness_replayed=ok, stats={"seed": seed, "flips": final.flips})


def check_end2(*, mutant: str | None = None, timeout: float = 60.0, bounds: Mapping[str, Any]) -> CheckResult:
    require_mutant(mutant, ("end-down-only",))
    stride = int(bounds.get("pile_bound", 52)) + 1
    players = list(bounds.get("players", [2, 3]))
    started, queries = time.monotonic(), 0
    for n in players:
        config = SnapConfig(players=n)
        for turn, shape, call_ok in cases(config):
            if shape.move == "flip":
                continue  # a flip moves no card between players and never ends the game
            pre, mv = slot_state(n, stride), fresh_move(shape, n)
            pre = replace(pre, turn=z3.IntVal(turn))
            post = step(pre, mv, config, mutant)
            assumptions = [in_range(pre, stride), structural(pre), legal(pre, mv, config, mutant)]
            if call_ok is not None:
                assumptions.append(correct(pre, shape.kind) == call_ok)
            bad = z3.And(post.phase == PHASE_CODE[Phase.OVER], holders(post) > 1)
            solver = z3.Solver()
            solver.set(timeout=max(1, int((timeout - (time.monotonic() - started)) * 1000)))
            solver.add(*assumptions, bad)
            queries += 1
            verdict = solve(solver, unsat=Verdict.PROVED, sat=Verdict.COUNTEREXAMPLE)
            if verdict is Verdict.COUNTEREXAMPLE:
                found = find_and_replay(pre, mv, post, config, assumptions + [bad], stride, 3, 60_000,
                                        expect_same=False)
                return CheckResult(verdict, f"{n} players, {shape}: the game ends with two players holding cards",
                                   witness=found.text if found else "no small instance to replay",
                                   witness_replayed=bool(found and found.ok), stats={"queries": queries})
            if verdict is not Verdict.PROVED:
                return CheckResult(verdict, f"{n} players, {shape}: Z3 gave no answer", stats={"queries": queries})
    # witness: a tie or call that ends the game with cards stuck in the pot, replayed
    n = min(players)
    config = SnapConfig(players=n)
    for shape_move in (MoveKind.TIE, MoveKind.CALL):
        pre, mv = slot_state(n, stride), fresh_move(Shape(shape_move, CallKind.SNAP), n)
        post = step(pre, mv, config)
        cond = [structural(pre), legal(pre, mv, config), post.phase == PHASE_CODE[Phase.OVER], post.pot.length > 0,
                holders(post) == 1]
        found = find_and_replay(pre, mv, post, config, cond, stride, 3, int(timeout * 1000))
        if found is not None and found.after is not None:
            outcome = found.after.outcome
            holder = found.after.in_game
            ok = (found.ok and outcome is not None and outcome.termination is Termination.STUCK_POT
                  and len(holder) == 1 and outcome.winner == holder[0])
            return CheckResult(Verdict.PROVED if ok else Verdict.ERROR,
                               f"{queries} queries unsat (players {players}, every flipper and move shape)",
                               witness=f"{found.text}; model outcome {outcome}", witness_replayed=ok,
                               stats={"queries": queries, "seconds": round(time.monotonic() - started, 2)})
    return CheckResult(Verdict.ERROR, "no reachability witness: no move ends a game with cards in the pot")
