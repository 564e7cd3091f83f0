"""SNAP-P6: every penalty is well defined.

Claim (SNAP-PEN-1/2/3 with SNAP-CALL-2 and SNAP-OUT-1): in a call window of a game in
progress, whenever a wrong call is legal the offender has a card to give (after the SNAP-FLIP-3
turn-over: he holds at least one card) and the card has a recipient (the flipper, or, when the
flipper called wrongly, some other player who holds cards: the nearest to his right). Proved
over symbolic pile sizes for every player count in ``players`` (2 to 12) and every flipper
and caller. The mutant lets players who are out call; a penalty is then unpayable.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import z3

from cardcanon.model.snap import Phase, SnapConfig
from cardcanon.proofs.base import CheckResult, Verdict, solve
from cardcanon.proofs.snap_encoding import (
    PHASE_CODE, MoveKind, Shape, correct, fresh_move, legal, penalty_parts, require_mutant, step, structural,
)
from cardcanon.proofs.snap_replay import find_and_replay, in_range, slot_state

RULES = ("SNAP-PEN-1", "SNAP-PEN-2", "SNAP-PEN-3", "SNAP-CALL-2", "SNAP-OUT-1", "SNAP-FLIP-3")


def check(*, mutant: str | None = None, timeout: float = 60.0, bounds: Mapping[str, Any]) -> CheckResult:
    require_mutant(mutant, ("out-players-call",))
    stride = int(bounds.get("pile_bound", 52)) + 1
    players = list(bounds.get("players", range(2, 13)))
    started, queries = time.monotonic(), 0
    for n in players:
        for index_card in (False, True):
            config = SnapConfig(players=n, index_card=index_card)
            for kind in config.kinds:
                pre, mv = slot_state(n, stride), fresh_move(Shape(MoveKind.CALL, kind), n)
                has_card, recipient = penalty_parts(pre, mv)
                assumptions = [in_range(pre, stride), structural(pre), legal(pre, mv, config, mutant),
                               z3.Not(correct(pre, kind))]
                solver = z3.Solver()
                solver.set(timeout=max(1, int((timeout - (time.monotonic() - started)) * 1000)))
                solver.add(*assumptions, z3.Not(z3.And(has_card, recipient)))
                queries += 1
                verdict = solve(solver, unsat=Verdict.PROVED, sat=Verdict.COUNTEREXAMPLE)
                if verdict is Verdict.COUNTEREXAMPLE:
                    post = step(pre, mv, config, mutant)
                    found = find_and_replay(pre, mv, post, config, assumptions + [z3.Not(z3.And(has_card, recipient))],
                                            stride, 2, 60_000, expect_same=False)
                    text = found.text if found else "no small instance to replay"
                    return CheckResult(verdict, f"{n} players, wrong {kind.value}: the penalty cannot be paid",
                                       witness=text, witness_replayed=bool(found and found.ok),
                                       stats={"queries": queries})
                if verdict is not Verdict.PROVED:
                    return CheckResult(verdict, f"{n} players, {kind.value}: Z3 gave no answer", stats={"queries": queries})
    texts, ok = _witnesses(stride, min(players), max(players), timeout)
    detail = f"{queries} queries unsat (players {players[0]}..{players[-1]}, every flipper and caller, both tables)"
    if texts is None:
        return CheckResult(Verdict.ERROR, detail + "; no reachability witness")
    return CheckResult(Verdict.PROVED if ok else Verdict.ERROR, detail, witness="\n".join(texts), witness_replayed=ok,
                       stats={"queries": queries, "seconds": round(time.monotonic() - started, 2)})


def _witnesses(stride: int, small: int, large: int, timeout: float):
    """Wrong calls that need each clause: a turn-over, the flipper paying past players who are out."""
    texts, ok = [], True
    for n, label in ((small, "offender turns his face-up pile over"), (large, "flipper pays past players who are out")):
        config = SnapConfig(players=n)
        kind = config.kinds[0]
        pre, mv = slot_state(n, stride), fresh_move(Shape(MoveKind.CALL, kind), n)
        post = step(pre, mv, config)
        cond = [structural(pre), legal(pre, mv, config), z3.Not(correct(pre, kind)), pre.phase == PHASE_CODE[Phase.CALL]]
        if n == small:
            cond += [mv.caller != pre.turn, sum_len(pre, mv.caller, "down") == 0]
        else:
            cond += [mv.caller == pre.turn, pre.turn == 0, z3.Not(pre.holds(n - 1)), z3.Not(pre.holds(n - 2))]
        found = find_and_replay(pre, mv, post, config, cond, stride, 2, int(timeout * 1000))
        if found is None:
            return None, False
        ok &= found.ok
        texts.append(f"{n} players, {label}: {found.text}")
    return texts, ok


def sum_len(st, seat, which: str):
    piles = st.down if which == "down" else st.up
    return z3.Sum([z3.If(seat == s, piles[s].length, 0) for s in range(st.n)])
