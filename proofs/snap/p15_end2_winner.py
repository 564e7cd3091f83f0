"""SNAP-P15-end2-winner: when a move ends the game, at most one player holds cards, and the model
names him as the only winner (SNAP-END-2).

Z3 and cvc5, every move shape (a call split into correct and wrong), symbolic flipper and
caller, every player count in ``players`` (2 to 12): when exactly one player holds cards, every
card outside the pot is his (conservation, SNAP-P1) and the model's outcome names him. The Z3
part restates the encoding's own end test (it ends the game exactly when at most one player
holds cards); its content is that the model does the same: its witnesses, a move that ends a
game with cards stuck in the pot and a move after which a player holding only face-up cards
plays on, are replayed through the model.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import z3

from cardcanon.model.snap import Phase
from cardcanon.proofs.base import CheckResult, Run, Verdict, solve
from cardcanon.proofs.drops import Drop
from cardcanon.proofs.rulebook import value
from cardcanon.proofs.snap.encoding import (
    MoveKind, PHASE_CODE, Shape, SymState, fresh_move, holders, legal, probe_of, shapes, split_by_correctness, step,
    structural,
)
from cardcanon.proofs.snap.replay import Replay, counterexample, find_and_replay, in_range, slot_state


RULES = ("SNAP-END-1", "SNAP-END-2", "SNAP-END-3", "SNAP-TIE-1", "SNAP-TIE-2", "SNAP-POT-1", "SNAP-OUT-1")


def check(run: Run) -> CheckResult:
    bounds = run.bounds
    probe, drop = probe_of(run, ("end-down-only",))
    stride = int(bounds.get("pile_bound", value("snap", "SNAP-DECK-1", "deck_size"))) + 1
    players = list(bounds.get("players", [2, 3]))
    started, queries = time.monotonic(), 0
    # the two witnesses go first, in every run: they take a fraction of the proof's time; a model
    # mutant can only break a replay, and a probe of a rule the end claim does not read
    # (SNAP-TIE-2, how a tie stacks the pot) only a witness
    witnesses = _witnesses(run, min(players), stride, drop)
    if isinstance(witnesses, CheckResult):
        return witnesses
    solver = z3.Solver()  # every query in a push/pop scope of its own: Z3's incremental core decides them fastest
    for n in players:
        config = run.snap_config(players=n)
        for shape in shapes(config, drop):
            if shape.move == "flip":
                continue  # a flip moves no card between players and never ends the game
            pre, mv = slot_state(n, stride), fresh_move(shape, n)
            post = step(pre, mv, config, probe, drop)
            # the claim, stated apart from the encoding's own end test: when a move ends the game at
            # most one player holds cards, and while two do the game goes on. It holds of every
            # successor term, so the query needs no assumption about the position before
            bad = z3.Or(z3.And(post.phase == PHASE_CODE[Phase.OVER], holders(post) > 1),
                        z3.And(post.phase != PHASE_CODE[Phase.OVER], holders(post) <= 1))
            for claim in split_by_correctness(bad, pre, shape, drop, config):
                solver.push()
                solver.add(claim)
                queries += 1
                proved = solve(solver, run.budget, unsat=Verdict.PROVED, sat=Verdict.COUNTEREXAMPLE) is Verdict.PROVED
                solver.pop()
                if proved:
                    continue
                assumptions = [in_range(pre, stride), structural(pre), legal(pre, mv, config, probe, drop), bad]
                found = find_and_replay(pre, mv, post, config, assumptions, stride, 3, run.budget, expect_same=False)
                return counterexample(f"{n} players, {shape}: the game ends with two players holding cards", found,
                                      queries)
    return CheckResult(Verdict.PROVED, f"{queries} queries unsat (players {players}, every flipper and move shape)",
                       witness="\n".join(f"{label}: {replayed.text}" for label, replayed in witnesses),
                       records=tuple(replayed.record for _, replayed in witnesses),
                       stats={"queries": queries, "seconds": round(time.monotonic() - started, 2)})


def _witnesses(run: Run, n: int, stride: int, drop: Drop) -> CheckResult | list[tuple[str, Replay]]:
    """The module's two witnesses on ``n`` seats, replayed through the model (the replay of a tie
    onto a pot that holds cards compares its stacking, SNAP-TIE-2), or the first that fails."""
    config = run.snap_config(players=n)
    goals: tuple[tuple[str, MoveKind, Callable[[SymState, SymState], list[z3.BoolRef]]], ...] = (
        # without the index card a tie onto a pot that already holds cards (SNAP-TIE-2)
        ("a move ends the game with cards in the pot, which held cards before",
         MoveKind.TIE if not config.index_card else MoveKind.CALL,
         lambda pre, post: [post.phase == PHASE_CODE[Phase.OVER], pre.pot.length > 0, post.pot.length > 0,
                            holders(post) == 1]),
        ("a player with only face-up cards plays on", MoveKind.NOCALL,
         lambda pre, post: [pre.down[0].length == 0, pre.up[0].length >= 1, pre.turn == 1]))
    done = []
    for label, shape_move, goal in goals:
        pre, mv = slot_state(n, stride), fresh_move(Shape(shape_move, config.kinds[0]), n)
        post = step(pre, mv, config, drop=drop)
        found = find_and_replay(pre, mv, post, config, [structural(pre), legal(pre, mv, config, drop=drop),
                                                        *goal(pre, post)], stride, 3, run.budget)
        if found is None:
            return CheckResult(Verdict.NO_WITNESS, f"no reachability witness: {label}")
        if not found.ok:
            return CheckResult(Verdict.COUNTEREXAMPLE, f"{label}: the model differs from the encoding: {found.text}",
                               witness=found.text, records=(found.record,), stats={"queries": 0})
        done.append((label, found))
    return done
