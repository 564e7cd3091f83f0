"""SNAP-P2: the deal (SNAP-DEAL-2/3, SNAP-TURN-1).

For every player count ``n`` from 2 to 12 and every dealer ``d`` (both symbolic), dealing the
52 cards one at a time clockwise from the dealer's left gives card ``k`` (``k = 0`` first) to
the seat ``(d + 1 + k) mod n``. Z3 proves: pile sizes differ by at most one; a seat nearer the
dealer's left never has fewer cards than one farther on (so the extra cards go to the seats
nearest the dealer's left); the first card, and so the first turn, goes to the dealer's left.
The sizes and the top card of every pile are then evaluated for every ``n``, dealer and seat and
compared with the model's ``deal_piles`` and first turn. The mutant starts the deal with the
dealer himself.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import z3

from cardcanon.model.cards import FULL_DECK
from cardcanon.model.seats import Seat
from cardcanon.model.snap import Deal, SnapConfig, apply, deal_piles, new_game
from cardcanon.proofs.base import CheckResult, Verdict, solve

RULES = ("SNAP-DEAL-2", "SNAP-DEAL-3", "SNAP-TURN-1", "SNAP-PLAYERS-1")


def _receiver(k, n, d, mutant):
    """The seat that receives the ``k``-th card dealt."""
    first = 0 if mutant == "deal-from-dealer" else 1
    return (d + first + k) % n


def _offset(s, n, d):
    """How far clockwise seat ``s`` is from the dealer's left (0 = the dealer's left)."""
    return (s - d - 1 + n) % n


def _size(s, n, d, cards, mutant):
    return z3.Sum([z3.If(_receiver(k, n, d, mutant) == s, 1, 0) for k in range(cards)])


def _top(s, n, d, cards, mutant):
    """The number of the last card dealt to ``s`` (its top card, SNAP-DEAL-3), or -1."""
    top = z3.IntVal(-1)
    for k in range(cards):
        top = z3.If(_receiver(k, n, d, mutant) == s, k, top)
    return top


def check(*, mutant: str | None = None, timeout: float = 60.0, bounds: Mapping[str, Any]) -> CheckResult:
    cards = int(bounds.get("cards", 52))
    lo, hi = bounds.get("players", [2, 12])
    started = time.monotonic()
    n, d, s1, s2 = z3.Ints("n dealer seat1 seat2")
    seat = lambda s: z3.And(0 <= s, s < n)  # noqa: E731
    size1, size2 = _size(s1, n, d, cards, mutant), _size(s2, n, d, cards, mutant)
    claim = z3.And(size1 - size2 <= 1,
                   z3.Implies(_offset(s1, n, d) < _offset(s2, n, d), size1 >= size2),
                   _receiver(0, n, d, mutant) == (d + 1) % n)
    solver = z3.Solver()
    solver.set(timeout=int(timeout * 1000))
    solver.add(lo <= n, n <= hi, seat(d), seat(s1), seat(s2), z3.Not(claim))
    verdict = solve(solver, unsat=Verdict.PROVED, sat=Verdict.COUNTEREXAMPLE)
    if verdict is Verdict.COUNTEREXAMPLE:
        m = solver.model()
        cn, cd = m.eval(n).as_long(), m.eval(d).as_long()
        sizes = [len(p) for p in deal_piles(SnapConfig(players=cn, deck=FULL_DECK[:cards]), Seat(cd), FULL_DECK[:cards])]
        encoded = [_eval(_size(z3.IntVal(s), cn, cd, cards, mutant)) for s in range(cn)]
        return CheckResult(verdict, f"{cn} players, dealer P{cd}: encoded pile sizes {encoded}",
                           witness=f"model deal_piles sizes {sizes}", witness_replayed=sizes != encoded)
    if verdict is not Verdict.PROVED:
        return CheckResult(verdict, "Z3 gave no answer")
    # cross-check every table with the model, and record a deal with unequal piles (non-vacuity)
    compared, uneven = 0, None
    for players in range(lo, hi + 1):
        config = SnapConfig(players=players, deck=FULL_DECK[:cards])
        for dealer in range(players):
            piles = deal_piles(config, Seat(dealer), config.deck)
            state = apply(new_game(config), Deal(Seat(dealer), config.deck))
            if state.turn != Seat((dealer + 1) % players):
                return CheckResult(Verdict.ERROR, f"{players} players, dealer P{dealer}: model's first turn {state.turn}")
            for s in range(players):
                size = _eval(_size(z3.IntVal(s), players, dealer, cards, mutant))
                top = _eval(_top(z3.IntVal(s), players, dealer, cards, mutant))
                model_top = config.deck.index(piles[s][0]) if piles[s] else -1
                if size != len(piles[s]) or top != model_top:
                    return CheckResult(Verdict.ERROR, f"{players} players, dealer P{dealer}, seat P{s}: encoded "
                                       f"size {size} top {top}, model {len(piles[s])} top {model_top}")
                compared += 1
            if uneven is None and len({len(p) for p in piles}) > 1:
                uneven = f"{players} players, dealer P{dealer}: pile sizes {[len(p) for p in piles]}"
    if uneven is None:
        return CheckResult(Verdict.ERROR, "no deal with unequal piles: the extra-card clause is vacuous")
    return CheckResult(Verdict.PROVED, f"proved for n in {lo}..{hi}, every dealer; {compared} piles match deal_piles",
                       witness=uneven, witness_replayed=True,
                       stats={"piles_compared": compared, "seconds": round(time.monotonic() - started, 2)})


def _eval(term) -> int:
    return z3.simplify(term).as_long()
