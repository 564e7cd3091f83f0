"""SNAP-P1: card conservation is an inductive invariant of every Snap move.

Claim: from any game in progress in which every card lies exactly once in some pile or the
Snap Pot, every legal move (a flip, with the SNAP-FLIP-3 turn-over; no call; a correct call of
each kind; a tie; a wrong call and its penalty; with or without a pot) leads to a position in
which every card again lies exactly once, and which is again a game in progress or is over.

Encoding (:mod:`cardcanon.proofs.snap_replay`): cards are named by their slots in the position
before the move, so "exactly once before" holds by construction, and the rank map is free, so
the proof covers every deck and every deal. After the move the check asks Z3 for one of:
the total number of cards changed; a slot that names no card of the position before; two slots
naming the same card. ``unsat`` for every shape, seat count and variant is the proof: the move
maps the old slots one-to-one onto the new ones. Pile lengths are bounded by ``pile_bound``
(52 by default: one deck), which bounds nothing else.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import z3

from cardcanon.model.snap import CallKind, NextTurn, SnapConfig
from cardcanon.proofs.base import CheckResult, Verdict, solve
from cardcanon.proofs.snap_encoding import (
    MoveKind, Shape, SymState, correct, fresh_move, legal, matched, require_mutant, select, select_pile, shapes, step,
    structural, structural_after,
)
from cardcanon.proofs.snap_replay import in_range, realisable, replay, slot_state

RULES = ("SNAP-FLIP-1", "SNAP-FLIP-3", "SNAP-CALL-1", "SNAP-CALL-4", "SNAP-CALL-5", "SNAP-TIE-1", "SNAP-TIE-2",
         "SNAP-POT-1", "SNAP-POT-2", "SNAP-POT-3", "SNAP-INDEX-1", "SNAP-PEN-1", "SNAP-PEN-2", "SNAP-PEN-3")


def _failure(pre: SymState, post: SymState, stride: int) -> z3.BoolRef:
    """Cards are not conserved: total changed, a slot names no old card, or two slots collide."""
    zones_pre, zones_post = pre.zones(), post.zones()
    total = lambda st: z3.Sum([p.length for p in st.zones()])  # noqa: E731
    z1, i1, z2, i2 = z3.Ints("slot_zone1 slot_pos1 slot_zone2 slot_pos2")

    def slot(z, i):
        length = select([p.length for p in zones_post], z)
        card = select([p.at(i) for p in zones_post], z)
        return z3.And(0 <= z, z < len(zones_post), 0 <= i, i < length), card

    in1, c1 = slot(z1, i1)
    in2, c2 = slot(z2, i2)
    names_old = z3.Or(*[z3.And(z * stride <= c1, c1 < z * stride + p.length) for z, p in enumerate(zones_pre)])
    return z3.Or(total(post) != total(pre), z3.And(in1, z3.Not(names_old)),
                 z3.And(in1, in2, z3.Or(z1 != z2, i1 != i2), c1 == c2))


def _witness_goals(config: SnapConfig):
    """Interesting cases for the reachability witnesses: (shape, label, condition)."""
    goals: list[tuple[Shape, str, Callable[..., Any]]] = [(Shape(MoveKind.FLIP), "flip with turn-over", lambda st, mv: select_pile(st.down, st.turn).length == 0),
             (Shape(MoveKind.FLIP), "flip", lambda st, mv: select_pile(st.down, st.turn).length > 0),
             (Shape(MoveKind.NOCALL), "no call", lambda st, mv: z3.BoolVal(True))]
    for kind in config.kinds:
        goals += [
            (Shape(MoveKind.CALL, kind), f"correct {kind.value} with a pot", lambda st, mv, k=kind: z3.And(
                correct(st, k), st.pot.length > 0, z3.Or(*matched(st)))),
            (Shape(MoveKind.CALL, kind), f"correct {kind.value} without a pot",
             lambda st, mv, k=kind: z3.And(correct(st, k), st.pot.length == 0)),
            (Shape(MoveKind.CALL, kind), f"wrong {kind.value} with turn-over", lambda st, mv, k=kind: z3.And(
                z3.Not(correct(st, k)), select_pile(st.down, mv.caller).length == 0, mv.caller != st.turn)),
            (Shape(MoveKind.CALL, kind), f"wrong {kind.value} by the flipper",
             lambda st, mv, k=kind: z3.And(z3.Not(correct(st, k)), mv.caller == st.turn)),
        ]
        if not config.index_card:
            goals += [(Shape(MoveKind.TIE, kind), f"tie on {kind.value} with a pot",
                       lambda st, mv: z3.And(st.pot.length > 0, z3.Sum([z3.If(m, 1, 0) for m in matched(st)]) >= 1)),
                      (Shape(MoveKind.TIE, kind), f"tie on {kind.value} without a pot", lambda st, mv: st.pot.length == 0)]
    return [g for g in goals if not (g[0].kind is CallKind.SNAP_POT and "without a pot" in g[1])]


def check(*, mutant: str | None = None, timeout: float = 60.0, bounds: Mapping[str, Any]) -> CheckResult:
    require_mutant(mutant, ("tie-drops-matched", "penalty-no-turnover"))
    stride = int(bounds.get("pile_bound", 52)) + 1
    players = list(bounds.get("players", [2, 3]))
    replay_len = int(bounds.get("replay_pile", 3))
    started, queries, witnesses = time.monotonic(), 0, []
    for n in players:
        for index_card in (False, True):
            for next_turn in NextTurn:
                config = SnapConfig(players=n, index_card=index_card, next_turn=next_turn)
                for turn, shape, call_ok in cases(config):
                    pre, mv = replace(slot_state(n, stride), turn=z3.IntVal(turn)), fresh_move(shape, n)
                    post = step(pre, mv, config, mutant)
                    bad = z3.Not(structural_after(post))
                    if next_turn is NextTurn.CLOCKWISE:  # the piles do not depend on next_turn
                        bad = z3.Or(_failure(pre, post, stride), bad)
                    elif not call_ok:
                        continue  # only a won call passes the turn differently (SNAP-TURN-2)
                    solver = z3.Solver()
                    solver.set(timeout=max(1, int((timeout - (time.monotonic() - started)) * 1000)))
                    solver.add(in_range(pre, stride), structural(pre), legal(pre, mv, config, mutant), bad)
                    if call_ok is not None:
                        solver.add(correct(pre, shape.kind) == call_ok)
                    queries += 1
                    verdict = solve(solver, unsat=Verdict.PROVED, sat=Verdict.COUNTEREXAMPLE)
                    if verdict is Verdict.COUNTEREXAMPLE:
                        return _counterexample(solver, pre, mv, post, config, mutant, stride, replay_len, queries)
                    if verdict is not Verdict.PROVED:
                        return CheckResult(verdict, f"{config!r}, {shape}: Z3 gave no answer", stats={"queries": queries})
    # reachability witnesses, each replayed through the model (2 players and 3 players)
    replayed = True
    for n in sorted({min(players), max(players)}):
        for index_card in (False, True):
            config = SnapConfig(players=n, index_card=index_card)
            for shape, label, cond in _witness_goals(config):
                pre, mv = slot_state(n, stride), fresh_move(shape, n)
                post = step(pre, mv, config)
                solver = z3.Solver()
                solver.set(timeout=int(timeout * 1000))
                solver.add(realisable(pre, stride, replay_len), structural(pre), legal(pre, mv, config), cond(pre, mv))
                if solver.check() != z3.sat:
                    return CheckResult(Verdict.ERROR, f"no reachability witness for {label} ({config!r})")
                result = replay(pre, mv, post, solver.model(), config)
                replayed &= result.ok
                witnesses.append(f"{n}p{' index' if index_card else ''} {label}: {result.text}"
                                 + ("" if result.ok else "  [MODEL DISAGREES]"))
    detail = (f"{queries} inductive-step queries unsat (players {players}, every flipper, piles of at most "
              f"{stride - 1} cards, index card off and on, next_turn clockwise and winner)")
    if not replayed:
        return CheckResult(Verdict.ERROR, detail + "; a witness replay disagrees with the model",
                           witness="\n".join(witnesses), stats={"queries": queries})
    return CheckResult(Verdict.PROVED, detail, witness="\n".join(witnesses), witness_replayed=True,
                       stats={"queries": queries, "witnesses": len(witnesses),
                              "seconds": round(time.monotonic() - started, 2)})


def cases(config: SnapConfig):
    """(flipper, shape, whether the call is correct) for every query: every flipper concretely,
    and each call shape split into a correct and a wrong call (smaller, faster queries)."""
    for turn in range(config.players):
        for shape in shapes(config):
            for call_ok in ((True, False) if shape.move == "call" else (None,)):
                yield turn, shape, call_ok


def _counterexample(solver, pre, mv, post, config, mutant, stride, replay_len, queries) -> CheckResult:
    """A broken step: find a small realisable instance and replay it (the model must differ)."""
    solver.set(timeout=60_000)
    solver.add(realisable(pre, stride, replay_len))
    if solver.check() != z3.sat:
        return CheckResult(Verdict.COUNTEREXAMPLE, f"{config!r}, {mv.shape}: conservation fails (no small replay)",
                           stats={"queries": queries})
    result = replay(pre, mv, post, solver.model(), config, expect_same=False)
    return CheckResult(Verdict.COUNTEREXAMPLE, f"{config!r}, {mv.shape}: conservation fails",
                       witness=result.text, witness_replayed=result.ok, stats={"queries": queries})
