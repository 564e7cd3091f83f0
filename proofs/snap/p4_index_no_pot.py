"""SNAP-P4: with the index card (SNAP-INDEX-1) no Snap Pot ever forms.

Inductive claim: in a game in progress with the index card and an empty pot, every legal move
(flip, no call, a correct or wrong hand on the card) leaves the pot empty. The deal starts with
an empty pot, so the pot is empty in every reachable position. Proved for every player count in
``players`` and every flipper (symbolic), for piles of any length below ``pile_bound``. The
model is then played: index-card games in which every call event the model offers may happen
(a seeded pick at each call window) must keep the pot empty and never offer a tie; this is how
a model that lets players tie on the index card fails the check.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

import z3

from cardcanon.model.snap import CallKind, Move, SnapState
from cardcanon.proofs.base import Budget, CheckResult, Run, Verdict, snap_config, solve
from cardcanon.proofs.drops import Drop
from cardcanon.proofs.records import snap_record
from cardcanon.proofs.rulebook import value
from cardcanon.proofs.snap.encoding import (
    MoveKind, Shape, correct, fresh_move, legal, matched, probe_of, shapes, step, structural,
)
from cardcanon.proofs.snap.replay import counterexample, find_and_replay, in_range, slot_state
from cardcanon.proofs.snap.search import explore


RULES = ("SNAP-INDEX-1", "SNAP-TIE-1", "SNAP-POT-2", "SNAP-CALL-3")


def _prove(players: list[int], stride: int, variant: Mapping[str, str], drop: Drop,
           budget: Budget) -> int | CheckResult:
    """The Z3 part: the number of queries proved, or the counterexample."""
    queries = 0
    solver = z3.Solver()  # every query in a push/pop scope of its own: Z3's incremental core decides them fastest
    for n in players:
        config = snap_config(variant, players=n)
        for shape in shapes(config, drop):
            pre, mv = slot_state(n, stride), fresh_move(shape, n)
            post = step(pre, mv, config, drop=drop)
            query = [in_range(pre, stride), structural(pre), pre.pot.length == 0,
                     legal(pre, mv, config, drop=drop), post.pot.length != 0]
            solver.push()
            solver.add(*query)
            queries += 1
            proved = solve(solver, budget, unsat=Verdict.PROVED, sat=Verdict.COUNTEREXAMPLE) is Verdict.PROVED
            solver.pop()
            if not proved:
                found = find_and_replay(pre, mv, post, config, query, stride, 3, budget, expect_same=False)
                return counterexample(f"{n} players, {shape}: the pot is no longer empty", found, queries)
    return queries


def check(run: Run) -> CheckResult:
    bounds = run.bounds
    drop = probe_of(run, ())[1]
    variant = {**run.variant, "index_card": "on"}
    stride = int(bounds.get("pile_bound", value("snap", "SNAP-DECK-1", "deck_size"))) + 1
    players = list(bounds.get("players", range(2, 13)))
    started = time.monotonic()
    queries = run.cached(("proof", tuple(players), stride), lambda: _prove(players, stride, variant, drop, run.budget))
    if isinstance(queries, CheckResult):
        return queries
    # the model: index-card games in which every call event the model offers may happen
    games = int(bounds.get("games", 10))
    records, texts = [], []
    for n in (min(players), max(players)):
        config = snap_config(variant, players=n)
        for seed in range(games):
            played = explore(config, seed, _pot_stays_empty, max_flips=int(bounds.get("max_flips", 300)))
            if played.problem:
                label = f"{n} players, seed {seed}: {played.problem}"
                return CheckResult(Verdict.COUNTEREXAMPLE, label, witness=label,
                                   records=(snap_record(config, played.moves, played.final, label=label),),
                                   stats={"queries": queries})
        label = f"{n} players, index card, seed {seed}: every call event the model offers, pot always empty"
        records.append(snap_record(config, played.moves, played.final, label=label))
        texts.append(label)
    # non-vacuity: a winning hand and a wrong hand with the index card, replayed
    n = min(players)
    config = snap_config(variant, players=n)
    pre, mv = slot_state(n, stride), fresh_move(Shape(MoveKind.CALL, CallKind.HAND), n)
    post = step(pre, mv, config, drop=drop)
    for label, cond in (("winning hand", z3.And(correct(pre, CallKind.HAND), z3.Or(*matched(pre)))),
                        ("wrong hand", z3.Not(correct(pre, CallKind.HAND)))):
        found = find_and_replay(pre, mv, post, config,
                                [structural(pre), pre.pot.length == 0, legal(pre, mv, config, drop=drop), cond],
                                stride, 3, run.budget)
        if found is None:
            return CheckResult(Verdict.NO_WITNESS, f"no reachability witness for a {label}")
        if not found.ok:
            return CheckResult(Verdict.COUNTEREXAMPLE, f"{label}: the model differs from the encoding: {found.text}",
                               witness=found.text, records=(found.record,), stats={"queries": queries})
        records.append(found.record)
        texts.append(f"{label}: {found.text}")
    detail = (f"{queries} inductive-step queries unsat (players {players[0]}..{players[-1]}, every flipper); "
              f"{games} model games each of {min(players)} and {max(players)} players keep the pot empty")
    return CheckResult(Verdict.PROVED, detail, witness="\n".join(texts), records=tuple(records),
                       stats={"queries": queries, "seconds": round(time.monotonic() - started, 2)})


def _pot_stays_empty(before: SnapState, move: Move, after: SnapState,
                     options: tuple[Move, ...]) -> str | tuple[str, Move] | None:
    if after.pot:
        return f"{move} puts cards in the Snap Pot"
    ties = [m for m in options if type(m).__name__ == "Tie"]
    if ties:
        return f"the model offers a tie with the index card: {ties[0]}", ties[0]
    return None
