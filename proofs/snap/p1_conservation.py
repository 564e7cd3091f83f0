"""SNAP-P1: card conservation is an inductive invariant of every Snap move, for each player count
of the bounds (verify: 2 to 12, every table of the rulebook).

Claim: from any game in progress in which every card lies exactly once in some pile or the
Snap Pot, every legal move (a flip, with the SNAP-FLIP-3 turn-over; no call; a correct call of
each kind; a tie; a wrong call and its penalty; with or without a pot) leads to a position in
which every card again lies exactly once, and which is again a game in progress or is over.

Encoding (:mod:`cardcanon.proofs.snap.replay`): cards are named by their slots in the position
before the move, so "exactly once before" holds by construction, and the rank map is free, so
the proof covers every deck and every deal. After the move the check asks Z3 (and cvc5) for a
pile of negative length, or a value ``card`` that the piles after the move count other than
once if it is a card of the position before and other than never if it is not (every pile the
encoding builds counts, for each value, its positions below its length that hold it, as long as
no length is negative: :class:`~cardcanon.proofs.snap.encoding.Pile`); and, in a query of its
own, for a position after the move that is neither a game in progress nor over. ``unsat`` for
every shape, correct and wrong call, seat count and variant is the proof: the piles after hold
exactly the old cards, each once, and as many cards as before. Pile lengths are bounded by
``pile_bound`` (52 by default: one deck), which bounds nothing else.

Rotation: the queries fix the flipper at seat 0. The encoding, like the rules, names a seat
only by its place relative to the flipper (clockwise from him, SNAP-CALL-4; the next holder to
his left, SNAP-TURN-2; to his right, SNAP-PEN-2), the caller or the tied players, and the claim
names no seat; so a move with flipper ``f`` is the move of the table turned by ``f`` seats, and
is proved with it. The check tests that premise on the encoding at every table size of the
bounds (:mod:`cardcanon.proofs.snap.rotation`); ``test_step_commutes_with_rotation``
(tests/test_snap_proofs.py) tests it on the model and the encoding on random positions. One
flipper keeps a 12-seat query small enough for both solvers (with every flipper symbolic, Z3
alone took minutes).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import z3

from cardcanon.model.snap import CallKind, SnapConfig
from cardcanon.model.snap_text import rules_text
from cardcanon.proofs.base import Budget, CheckResult, Run, Verdict, snap_config, solve
from cardcanon.proofs.drops import Drop
from cardcanon.proofs.rulebook import value
from cardcanon.proofs.snap.derived import kept_search
from cardcanon.proofs.snap.encoding import (
    MoveKind, Shape, SymMove, SymState, correct, fresh_move, legal, matched, penalty_step, pot_matches, probe_of,
    select_pile, shapes, split_by_correctness, step, structural, structural_after,
)
from cardcanon.proofs.snap.replay import (
    Found, counterexample, found_in, in_range, model_of, realisable, replay, slot_state,
)
from cardcanon.proofs.snap.rotation import premise_fails


RULES = ("SNAP-FLIP-1", "SNAP-FLIP-3", "SNAP-CALL-1", "SNAP-CALL-4", "SNAP-CALL-5", "SNAP-TIE-1", "SNAP-TIE-2",
         "SNAP-POT-1", "SNAP-POT-2", "SNAP-INDEX-1", "SNAP-PEN-1", "SNAP-PEN-2", "SNAP-PEN-3")


CARD = z3.Int("card")  # the card value the conservation queries ask about


def _was_there(pre: SymState, stride: int) -> z3.BoolRef:
    """``card`` is a card of the position before: it names a slot below some zone's length."""
    return z3.Or(*[z3.And(z * stride <= CARD, CARD < z * stride + p.length) for z, p in enumerate(pre.zones())])


def _failure(was_there: z3.BoolRef, post: SymState) -> z3.BoolRef:
    """Cards are not conserved: a pile has a negative length, or the piles after the move count
    a card of the position before other than once, or count anything else at all."""
    return z3.Or(*[p.length < 0 for p in post.zones()],
                 z3.Sum([p.count(CARD) for p in post.zones()]) != z3.If(was_there, 1, 0))


def _matches(st: SymState) -> z3.ArithRef:
    """How many piles match the flipped card."""
    return z3.Sum([z3.If(m, 1, 0) for m in matched(st)])


def _witness_goals(config: SnapConfig) -> list[tuple[Shape, str, Callable[..., Any]]]:
    """Interesting cases for the reachability witnesses: (shape, label, condition on the position and move)."""
    flip, nocall = Shape(MoveKind.FLIP), Shape(MoveKind.NOCALL)
    goals: list[tuple[Shape, str, Callable[..., Any]]] = [
        (flip, "flip with turn-over", lambda st, mv: select_pile(st.down, st.turn).length == 0),
        (flip, "flip", lambda st, mv: select_pile(st.down, st.turn).length > 0),
        (nocall, "no call", lambda st, mv: z3.BoolVal(True))]
    if config.players >= 3:
        goals.append((nocall, "no call, the turn passing over a player who is out",
                      lambda st, mv: z3.And(st.turn == 0, z3.Not(st.holds(1)))))
    for kind in config.kinds:
        call, tie, name = Shape(MoveKind.CALL, kind), Shape(MoveKind.TIE, kind), kind.value
        goals += [
            (call, f"correct {name} winning two piles of two cards", lambda st, mv, k=kind: z3.And(
                correct(st, k), _matches(st) >= 2, select_pile(st.up, st.turn).length >= 2)),
            (call, f"correct {name} winning a pot of two cards", lambda st, mv, k=kind: z3.And(
                correct(st, k), pot_matches(st), st.pot.length >= 2, select_pile(st.up, st.turn).length >= 2)),
            (call, f"wrong {name} by the flipper, paid to his right past a player who is out",
             lambda st, mv, k=kind: z3.And(z3.Not(correct(st, k)), mv.caller == st.turn, st.turn == 0,
                                           *([z3.Not(st.holds(st.n - 1))] if st.n >= 3 else []))),
            (call, f"correct {name} with a pot", lambda st, mv, k=kind: z3.And(
                correct(st, k), st.pot.length > 0, z3.Or(*matched(st)))),
            (call, f"correct {name} without a pot", lambda st, mv, k=kind: z3.And(correct(st, k), st.pot.length == 0)),
            (call, f"wrong {name} with turn-over", lambda st, mv, k=kind: z3.And(
                z3.Not(correct(st, k)), select_pile(st.down, mv.caller).length == 0, mv.caller != st.turn)),
            (call, f"wrong {name} by the flipper, everyone holding cards",
             lambda st, mv, k=kind: z3.And(z3.Not(correct(st, k)), mv.caller == st.turn,
                                           *[st.holds(s) for s in range(st.n)])),
        ]
        if not config.index_card:
            goals += [(tie, f"tie on {name} with two matched piles and a pot", lambda st, mv: z3.And(
                          st.pot.length >= 2, select_pile(st.up, st.turn).length >= 2, _matches(st) >= 2)),
                      (tie, f"tie on {name} with a pot", lambda st, mv: z3.And(st.pot.length > 0, _matches(st) >= 1)),
                      (tie, f"tie on {name} without a pot", lambda st, mv: st.pot.length == 0)]
    return [g for g in goals if not (g[0].kind is CallKind.SNAP_POT and "without a pot" in g[1])]


def check(run: Run) -> CheckResult:
    bounds = run.bounds
    probe, drop = probe_of(run, ("tie-drops-matched", "penalty-no-turnover"))
    variant = tuple(sorted(run.variant.items()))
    stride = int(bounds.get("pile_bound", value("snap", "SNAP-DECK-1", "deck_size"))) + 1
    players = tuple(bounds.get("players", [2, 3]))
    replay_players = tuple(bounds.get("replay_players", [min(players), max(players)]))
    replay_len = int(bounds.get("replay_pile", 3))
    started = time.monotonic()
    # reachability witnesses (searched once per worker and variant), each a position and move whose
    # successor in the model (replayed here and by the runner) must be the encoding's; and the
    # inductive step (Z3 only). A probe breaks the encoding, so the proof goes first; a model mutant
    # can only break a replay, so the witnesses go first and the first that differs ends the run.
    queries = _prove(players, variant, stride, probe, run.budget, drop) if run.probe is not None else None
    if isinstance(queries, CheckResult):
        return queries
    witnesses, records = [], []
    for n, label, found, config in _witness_positions(run.budget, replay_players, variant, stride, replay_len, drop):
        result = replay(found, config)
        if not result.ok:
            return CheckResult(Verdict.COUNTEREXAMPLE, f"{n}p {label}: the model's move differs from the "
                               f"encoding's: {result.text}", witness=result.text, records=(result.record,))
        records.append(result.record)
        witnesses.append(f"{n}p {label}: {result.text}")
    if queries is None:
        queries = _prove(players, variant, stride, probe, run.budget, drop)
    if isinstance(queries, CheckResult):
        return queries
    # the premise of the rotation argument (on the encoding without a rule drop, whose free terms no
    # position reads back)
    turned, problem = premise_fails(players, run.snap_config, probe, tick=run.budget.tick)
    if problem is not None:
        return CheckResult(Verdict.COUNTEREXAMPLE, f"the rotation argument fails: {problem}", witness=problem)
    detail = (f"{queries} inductive-step queries unsat (players {list(players)}, the flipper at seat 0: every "
              f"flipper by rotation; piles of at most {stride - 1} cards); {len(records)} witness moves "
              f"({', '.join(map(str, replay_players))} players) agree with the model; the encoding's step commutes "
              f"with turning the table at {turned} seeded steps")
    return CheckResult(Verdict.PROVED, detail, witness="\n".join(witnesses), records=tuple(records),
                       stats={"queries": queries, "witnesses": len(witnesses), "turned_steps": turned,
                              "seconds": round(time.monotonic() - started, 2)})


def _prove(players: tuple[int, ...], variant: tuple[tuple[str, str], ...], stride: int, probe: str | None,
           budget: Budget, drop: Drop = Drop()) -> int | CheckResult:
    """The Z3 part: the number of inductive-step queries proved, or the first counterexample. The
    flipper is seat 0 (every other flipper by rotation, see the module docstring); conservation and
    the position after are asked separately (two small queries are far cheaper than one, for cvc5
    above all). A wrong call's successor is :func:`~cardcanon.proofs.snap.encoding.penalty_step`'s
    position (``step`` takes it exactly when the call is not correct); its queries ask about the
    penalty after every legal call, correct or not: a stronger claim, and the same text for every
    call kind. Conservation does not read who flips next, so its queries are the same text under
    both ``next_turn`` options, and both solvers decide each once per verify run
    (:mod:`cardcanon.proofs.smt`; the runner does not start two paired runs of a check at once
    when it has other runs at hand)."""
    queries = 0
    for n in players:
        config = snap_config(dict(variant), players=n)
        pre = replace(slot_state(n, stride), turn=z3.IntVal(0))
        before, was_there = (in_range(pre, stride), structural(pre)), _was_there(pre, stride)
        solver = z3.Solver()  # one per table, each query in a push/pop scope
        solver.add(*before)
        for shape in shapes(config, drop):
            mv = fresh_move(shape, n)
            post, allowed = step(pre, mv, config, probe, drop), legal(pre, mv, config, probe, drop)
            claims = [(post, _failure(was_there, post)), (post, z3.Not(structural_after(post)))]
            if shape.move is MoveKind.CALL:  # a correct call ([0]: assumed correct); a wrong one is the penalty
                claims = [(post, split_by_correctness(bad, pre, shape, drop, config)[0]) for _, bad in claims]
                pen = penalty_step(pre, mv, config, probe, drop)
                claims += [(pen, _failure(was_there, pen)), (pen, z3.Not(structural_after(pen)))]
            for after, claim in claims:
                solver.push()
                solver.add(allowed, claim)
                queries += 1
                if solve(solver, budget, unsat=Verdict.PROVED, sat=Verdict.COUNTEREXAMPLE) is Verdict.COUNTEREXAMPLE:
                    return _counterexample(solver, pre, mv, after, config, budget, stride, queries)
                solver.pop()
    return queries


@kept_search
def _witness_positions(budget: Budget, players: tuple[int, ...], variant: tuple[tuple[str, str], ...], stride: int,
                       replay_len: int, drop: Drop = Drop()) -> tuple[tuple[int, str, Found, SnapConfig], ...]:
    """(players, label, the position and move a Z3 model picked, config) for each interesting case:
    small witness moves to replay, read from Z3 models (no model code)."""
    witnesses = []
    for n in sorted(set(players)):
        config, pre = snap_config(dict(variant), players=n), slot_state(n, stride)
        small = (realisable(pre, stride, replay_len), structural(pre))  # built once: it is most of the cost
        moves: dict[Shape, tuple[SymMove, SymState, z3.BoolRef]] = {}  # each shape's move, successor and legality
        for shape, label, cond in _witness_goals(config):
            if shape not in moves:
                mv = fresh_move(shape, n)
                moves[shape] = mv, step(pre, mv, config, drop=drop), legal(pre, mv, config, drop=drop)
            mv, post, allowed = moves[shape]
            solver = z3.Solver()
            solver.add(*small, allowed, cond(pre, mv))
            picked = model_of(solver, budget)
            if picked is None:
                continue  # a goal this table cannot reach (two matched piles with 2 players)
            witnesses.append((n, label, found_in(pre, mv, post, picked), config))
    return tuple(witnesses)


def _counterexample(solver: z3.Solver, pre: SymState, mv: SymMove, post: SymState, config: SnapConfig,
                    budget: Budget, stride: int, queries: int) -> CheckResult:
    """A broken step: a small realisable instance, as the model plays it (the model must differ)."""
    solver.add(realisable(pre, stride, 3))
    label = f"{rules_text(config)}, {mv.shape}: conservation fails"
    if budget.check(solver) != z3.sat:
        return CheckResult(Verdict.COUNTEREXAMPLE, f"{label} (no small replay)", stats={"queries": queries})
    return counterexample(label, replay(found_in(pre, mv, post, solver.model()), config, expect_same=False), queries)
