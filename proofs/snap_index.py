"""SNAP-P4: with the index card (SNAP-INDEX-1) no Snap Pot ever forms.

Inductive claim: in a game in progress with the index card and an empty pot, every legal move
(flip, no call, a correct or wrong hand on the card) leaves the pot empty. The deal starts with
an empty pot, so the pot is empty in every reachable position. Proved for every player count in
``players`` and every flipper (symbolic), for piles of any length below ``pile_bound``. The
mutant lets players tie on the index card; the tie then starts a pot.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import z3

from cardcanon.model.snap import CallKind, SnapConfig
from cardcanon.proofs.base import CheckResult, Verdict, solve
from cardcanon.proofs.snap_encoding import (
    MoveKind, Shape, correct, fresh_move, legal, matched, require_mutant, shapes, step, structural,
)
from cardcanon.proofs.snap_replay import find_and_replay, in_range, slot_state

RULES = ("SNAP-INDEX-1", "SNAP-TIE-1", "SNAP-POT-2", "SNAP-CALL-3")


def check(*, mutant: str | None = None, timeout: float = 60.0, bounds: Mapping[str, Any]) -> CheckResult:
    require_mutant(mutant, ("index-tie",))
    stride = int(bounds.get("pile_bound", 52)) + 1
    players = list(bounds.get("players", range(2, 13)))
    started, queries = time.monotonic(), 0
    for n in players:
        config = SnapConfig(players=n, index_card=True)
        extra = (Shape(MoveKind.TIE, CallKind.HAND),) if mutant == "index-tie" else ()
        for shape in shapes(config) + extra:
            pre, mv = slot_state(n, stride), fresh_move(shape, n)
            post = step(pre, mv, config, mutant)
            assumptions = [in_range(pre, stride), structural(pre), pre.pot.length == 0, legal(pre, mv, config, mutant)]
            solver = z3.Solver()
            solver.set(timeout=max(1, int((timeout - (time.monotonic() - started)) * 1000)))
            solver.add(*assumptions, post.pot.length != 0)
            queries += 1
            verdict = solve(solver, unsat=Verdict.PROVED, sat=Verdict.COUNTEREXAMPLE)
            if verdict is Verdict.COUNTEREXAMPLE:
                found = find_and_replay(pre, mv, post, config, assumptions + [post.pot.length != 0], stride, 3,
                                        60_000, expect_same=False)
                text = found.text if found else "no small instance to replay"
                return CheckResult(verdict, f"{n} players, {shape}: the pot is no longer empty", witness=text,
                                   witness_replayed=bool(found and found.ok), stats={"queries": queries})
            if verdict is not Verdict.PROVED:
                return CheckResult(verdict, f"{n} players, {shape}: Z3 gave no answer", stats={"queries": queries})
    # non-vacuity: a winning hand and a wrong hand with the index card, replayed
    n = min(players)
    config = SnapConfig(players=n, index_card=True)
    pre, mv = slot_state(n, stride), fresh_move(Shape(MoveKind.CALL, CallKind.HAND), n)
    post = step(pre, mv, config)
    texts, ok = [], True
    for label, cond in (("winning hand", z3.And(correct(pre, CallKind.HAND), z3.Or(*matched(pre)))),
                        ("wrong hand", z3.Not(correct(pre, CallKind.HAND)))):
        found = find_and_replay(pre, mv, post, config, [structural(pre), pre.pot.length == 0, legal(pre, mv, config),
                                                        cond], stride, 3, int(timeout * 1000))
        if found is None:
            return CheckResult(Verdict.ERROR, f"no reachability witness for a {label}")
        ok &= found.ok
        texts.append(f"{label}: {found.text}")
    detail = f"{queries} inductive-step queries unsat (players {players[0]}..{players[-1]}, every flipper)"
    return CheckResult(Verdict.PROVED if ok else Verdict.ERROR, detail, witness="\n".join(texts),
                       witness_replayed=ok, stats={"queries": queries, "seconds": round(time.monotonic() - started, 2)})
