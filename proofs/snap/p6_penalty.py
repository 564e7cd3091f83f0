"""SNAP-P6: every penalty is well defined.

Claim (SNAP-PEN-1/2/3 with SNAP-CALL-2 and SNAP-OUT-1): in a call window of a game in
progress, whenever a wrong call is legal the encoding's penalty can be paid: the offender's
face-down pile, after the SNAP-FLIP-3 turn-over that SNAP-PEN-3 asks for, has a top card to
give, and the recipient the encoding names (the flipper, SNAP-PEN-1; when the flipper called
wrongly, the nearest player to his right who holds cards, SNAP-PEN-2) is another player who
holds cards (so not out, SNAP-OUT-1), and a flipper's recipient is the nearest such player to
his right (SNAP-PEN-2). Proved over symbolic pile sizes for every player count in ``players`` (2
to 12) and every flipper and caller. The recipient is derived from the model's
``penalty_recipient``, so the claim is the model's. The probe ``out-players-call`` lets players
who are out call; a penalty is then unpayable.
"""

from __future__ import annotations

import time

import z3

from cardcanon.model.snap import Phase, SnapConfig
from cardcanon.proofs.base import Budget, CheckResult, Run, Verdict, snap_config, solve
from cardcanon.proofs.drops import Drop
from cardcanon.proofs.rulebook import value
from cardcanon.proofs.snap.derived import kept_search
from cardcanon.proofs.snap.encoding import (
    MoveKind, PHASE_CODE, Pile, Shape, SymMove, SymState, correct, fresh_move, legal, penalty_parts, penalty_recipient,
    probe_of, step, structural,
)
from cardcanon.proofs.snap.replay import (
    Found, counterexample, find, find_and_replay, in_range, replay, slot_state,
)


RULES = ("SNAP-PEN-1", "SNAP-PEN-2", "SNAP-PEN-3", "SNAP-CALL-2", "SNAP-OUT-1", "SNAP-FLIP-3")


def _prove(players: list[int], stride: int, probe: str | None, drop: Drop, budget: Budget) -> int | CheckResult:
    """The Z3 part: the number of queries proved, or the counterexample. One query per table size:
    the penalty is payable after every legal call, correct or not, of any kind (legality of a call
    reads neither its kind nor the index card, so a wrong call of each kind on either table is
    among them)."""
    queries = 0
    solver = z3.Solver()  # every query in a push/pop scope of its own: Z3's incremental core decides them fastest
    for n in players:
        config = SnapConfig(players=n)
        kind = config.kinds[0]
        pre, mv = slot_state(n, stride), fresh_move(Shape(MoveKind.CALL, kind), n)
        has_card, recipient = penalty_parts(pre, mv, drop)
        assumptions = [in_range(pre, stride), structural(pre), legal(pre, mv, config, probe, drop)]
        unpaid = z3.Not(z3.And(has_card, recipient, _nearest_right(pre, mv, drop)))
        solver.push()
        solver.add(*assumptions, unpaid)
        queries += 1
        proved = solve(solver, budget, unsat=Verdict.PROVED, sat=Verdict.COUNTEREXAMPLE) is Verdict.PROVED
        solver.pop()
        if not proved:
            post = step(pre, mv, config, probe, drop)
            found = find_and_replay(pre, mv, post, config, assumptions + [z3.Not(correct(pre, kind)), unpaid],
                                    stride, 2, budget, expect_same=probe is None and drop.rule is None)
            return counterexample(f"{n} players, wrong {kind.value}: the penalty cannot be paid, or not to the nearest holder on the flipper's right",
                                  found, queries)
    return queries


def _nearest_right(pre: SymState, mv: SymMove, drop: Drop) -> z3.BoolRef:
    """SNAP-PEN-2: when the flipper called wrongly, no seat between him and the recipient, going to
    his right, holds cards."""
    n, f = pre.n, pre.turn
    recipient = penalty_recipient(pre, mv, drop)
    def nearest(flipper: int) -> z3.BoolRef:
        return z3.And([z3.Implies(recipient == (flipper - k) % n,
                                  z3.And([z3.Not(pre.holds((flipper - j) % n)) for j in range(1, k)]))
                       for k in range(1, n)])
    return z3.Implies(mv.caller == f, z3.And([z3.Implies(f == s, nearest(s)) for s in range(n)]))


def check(run: Run) -> CheckResult:
    bounds = run.bounds
    probe, drop = probe_of(run, ("out-players-call",))
    stride = int(bounds.get("pile_bound", value("snap", "SNAP-DECK-1", "deck_size"))) + 1
    players = list(bounds.get("players", range(2, 13)))
    started = time.monotonic()
    # the witnesses (replayed through the model) and the proof (Z3 only): a probe breaks the
    # encoding, so the proof goes first; a model mutant can only break a replay, so the witnesses do
    queries = _prove(players, stride, probe, drop, run.budget) if run.probe is not None else None
    if isinstance(queries, CheckResult):
        return queries
    variant = tuple(sorted(run.variant.items()))
    searched = _witness_positions(run.budget, stride, min(players), max(players), variant, drop)
    replays = None if searched is None else [(label, replay(found, config)) for label, found, config in searched]
    for label, done in replays or ():
        if not done.ok:
            text = f"{label}: {done.text}"
            return CheckResult(Verdict.COUNTEREXAMPLE, f"the model differs from the encoding: {text}", witness=text,
                               records=(done.record,))
    if queries is None:
        queries = _prove(players, stride, probe, drop, run.budget)
    if isinstance(queries, CheckResult):
        return queries
    detail = f"{queries} queries unsat (players {players[0]}..{players[-1]}, every flipper, caller and call)"
    if replays is None:
        return CheckResult(Verdict.NO_WITNESS, detail + "; no reachability witness")
    return CheckResult(Verdict.PROVED, detail, witness="\n".join(f"{label}: {r.text}" for label, r in replays),
                       records=tuple(r.record for _, r in replays),
                       stats={"queries": queries, "seconds": round(time.monotonic() - started, 2)})


@kept_search
def _witness_positions(budget: Budget, stride: int, small: int, large: int, variant: tuple[tuple[str, str], ...],
                       drop: Drop = Drop()) -> tuple[tuple[str, Found, SnapConfig], ...] | None:
    """Wrong calls that need each clause, read from Z3 models: a turn-over, the flipper paying past
    players who are out (None: one has no instance)."""
    found = []
    for n, label in ((small, "offender turns his face-up pile over"), (large, "flipper pays past players who are out")):
        config = snap_config(dict(variant), players=n)
        kind = config.kinds[0]
        pre, mv = slot_state(n, stride), fresh_move(Shape(MoveKind.CALL, kind), n)
        post = step(pre, mv, config, drop=drop)
        cond = [structural(pre), legal(pre, mv, config, drop=drop), z3.Not(correct(pre, kind)),
                pre.phase == PHASE_CODE[Phase.CALL]]
        if n == small:  # two face-up cards at least, so that turning the pile over shows
            cond += [mv.caller != pre.turn, _length_at(pre.down, mv.caller) == 0, _length_at(pre.up, mv.caller) >= 2]
        else:
            cond += [mv.caller == pre.turn, pre.turn == 0, z3.Not(pre.holds(n - 1)), z3.Not(pre.holds(n - 2))]
        position = find(pre, mv, post, cond, stride, 3, budget)
        if position is None:
            return None
        found.append((f"{n} players, {label}", position, config))
    return tuple(found)


def _length_at(piles: tuple[Pile, ...], seat: z3.ArithRef) -> z3.ArithRef:
    """The length of seat ``seat``'s pile among ``piles``."""
    return z3.Sum([z3.If(seat == s, pile.length, 0) for s, pile in enumerate(piles)])
