"""SNAP-P2: the deal (SNAP-DEAL-2/3, SNAP-TURN-1).

For every player count ``n`` from 2 to 12 (two queries each) and every dealer ``d`` (symbolic),
dealing the 52 cards one at a time clockwise from the dealer's left gives card ``k`` (``k = 0``
first) to the seat ``(d + 1 + k) mod n``. Z3 proves: pile sizes differ by at most one; a seat
nearer the dealer's left never has fewer cards than one farther on (so the extra cards go to the
seats nearest the dealer's left); the first card goes to the dealer's left, and the player who
gets it takes the first turn (the first query); the top card of every pile is the last card
dealt to it (the second). The sizes and the top card of every pile are then evaluated for every
``n``, dealer and seat and compared with the model's ``deal_piles`` and first turn. The probe
``deal-from-dealer`` starts the deal with the dealer himself.

Each term is tagged with the rule that states it (SNAP-DEAL-2: who receives each card;
SNAP-DEAL-3: which card is on top; SNAP-TURN-1: who takes the first turn), so that a drop probe
(:mod:`cardcanon.proofs.drops`) can make it a free constant.
"""

from __future__ import annotations

import time
from typing import Any, TypeAlias

import z3

from cardcanon.model import snap
from cardcanon.model.cards import FULL_DECK
from cardcanon.model.seats import Seat
from cardcanon.model.snap import Deal, SnapConfig
from cardcanon.proofs.base import Budget, CheckResult, Run, Verdict, solve
from cardcanon.proofs.drops import Drop
from cardcanon.proofs.records import Record, snap_record
from cardcanon.proofs.rulebook import value
from cardcanon.proofs.snap import encoding
from cardcanon.proofs.snap.encoding import probe_of
from cardcanon.proofs.snap.probes import breaking


# An int or a Z3 integer term: the proof and the model cross-check share the same formulas.
Num: TypeAlias = Any

RULES = ("SNAP-DEAL-2", "SNAP-DEAL-3", "SNAP-TURN-1", "SNAP-PLAYERS-1")
STATES = frozenset({"SNAP-DEAL-2", "SNAP-DEAL-3", "SNAP-TURN-1"})  # the rules a drop probe can leave out


def _stated(drop: Drop, rule: str, term: Num, name: str) -> Num:
    """``term`` (an int when every argument is concrete), or a free integer when ``rule`` is dropped."""
    return term if drop.keeps(rule) else drop.term(rule, z3.IntVal(0), name)


def _clockwise(d: Num, k: int, n: int) -> Num:
    """The seat ``k`` seats clockwise from seat ``d``: ``(d + k) mod n``, written for a symbolic
    ``0 <= d < n`` without modular arithmetic (which cvc5 decides slowly)."""
    if not z3.is_expr(d):
        return (d + k) % n
    return z3.If(d + k % n < n, d + k % n, d + k % n - n)


def _receiver(k: Num, n: int, d: Num, probe: str | None, drop: Drop = Drop()) -> Num:
    """The seat that receives the ``k``-th card dealt (SNAP-DEAL-2)."""
    with breaking(probe, "deal"):
        first = encoding.first_receiver()
    return _stated(drop, "SNAP-DEAL-2", _clockwise(d, first + k, n) if isinstance(k, int) else (d + first + k) % n,
                   f"receiver.{k}")


def _first_turn(n: int, d: Num, drop: Drop) -> Num:
    """The seat that takes the first turn: the dealer's left (SNAP-TURN-1)."""
    return _stated(drop, "SNAP-TURN-1", _clockwise(d, 1, n), "first-turn")


def _offset(s: Num, n: int, d: Num) -> Num:
    """How far clockwise seat ``s`` is from the dealer's left (0 = the dealer's left), for ``0 <= s, d < n``."""
    return z3.If(s - d - 1 >= 0, s - d - 1, s - d - 1 + n)


def _if(cond: Num, a: Num, b: Num) -> Num:
    """``If`` that folds at once when every argument is concrete (the model cross-check)."""
    return (a if cond else b) if isinstance(cond, bool) else z3.If(cond, a, b)


def _size(s: Num, n: int, d: Num, cards: int, probe: str | None, drop: Drop) -> Num:
    return sum(_if(_receiver(k, n, d, probe, drop) == s, 1, 0) for k in range(cards))


def _top(s: Num, n: int, d: Num, cards: int, probe: str | None, drop: Drop, name: str) -> Num:
    """The number of the last card dealt to ``s`` (its top card, SNAP-DEAL-3), or -1."""
    top: Num = -1
    for k in range(cards):
        top = _if(_receiver(k, n, d, probe, drop) == s, k, top)
    return _stated(drop, "SNAP-DEAL-3", top, f"top.{name}")


def _encoded_deal(n: int, d: int, cards: int, probe: str | None, drop: Drop = Drop(),
                  ) -> tuple[list[Num], list[Num], Num]:
    """Concrete pile sizes, top cards and first turn, from the same formulas as the proof."""
    return ([_size(s, n, d, cards, probe, drop) for s in range(n)],
            [_top(s, n, d, cards, probe, drop, str(s)) for s in range(n)], _first_turn(n, d, drop))


def _value(x: Num, model: z3.ModelRef) -> Any:
    """A formula of the deal (or a list of them) read under ``model``; ints as they are."""
    if isinstance(x, list):
        return [_value(y, model) for y in x]
    return model.eval(x, model_completion=True).as_long() if z3.is_expr(x) else x


def _model_deal(n: int, d: int, cards: int) -> tuple[list[int], list[int], int]:
    state = _dealt(n, d, cards)
    return ([len(p) for p in state.down], [state.config.deck.index(p[0]) if p else -1 for p in state.down],
            state.turn.index if state.turn is not None else -1)


def _deal_text(deal: tuple[list[Any], list[Any], Any] | list[Any]) -> str:
    """Pile sizes, top cards and first turn (:func:`_model_deal`) in words."""
    sizes, tops, first = deal
    top = " ".join(FULL_DECK[t].pretty if 0 <= t < len(FULL_DECK) else "none" for t in tops)
    return f"pile sizes {' '.join(map(str, sizes))}, tops {top}, first turn {Seat(first) if first >= 0 else 'none'}"


def _dealt(n: int, d: int, cards: int) -> snap.SnapState:
    """The model's position after dealing the first ``cards`` cards of the deck in order."""
    config = SnapConfig(players=n, deck=FULL_DECK[:cards])
    return snap.apply(snap.new_game(config), Deal(Seat(d), config.deck))


def _record(n: int, d: int, cards: int, label: str) -> Record:
    state = _dealt(n, d, cards)
    return snap_record(state.config, [Deal(Seat(d), state.config.deck)], state, label=label)


def _differs(n: int, d: int, cards: int, encoded: tuple[list[Any], list[Any], Any] | list[Any]) -> CheckResult:
    """The encoding deals ``encoded`` (sizes, tops, first turn) where the model deals otherwise."""
    label = (f"{n} players, dealer {Seat(d)}: the encoding deals {_deal_text(encoded)}; "
             f"the model {_deal_text(_model_deal(n, d, cards))}")
    return CheckResult(Verdict.COUNTEREXAMPLE, label, witness=label, records=(_record(n, d, cards, label),))


def _prove(lo: int, hi: int, cards: int, probe: str | None, drop: Drop, budget: Budget) -> CheckResult | None:
    """The Z3 part for every number of players: None when proved, else the counterexample."""
    d, s1, s2 = z3.Ints("dealer seat1 seat2")
    for n in range(lo, hi + 1):  # n concrete: symbolic n is nonlinear
        def seat(s: Num) -> Num:
            return z3.And(0 <= s, s < n)

        size1, size2 = _size(s1, n, d, cards, probe, drop), _size(s2, n, d, cards, probe, drop)
        top1 = _top(s1, n, d, cards, probe, drop, "seat1")
        first = _receiver(0, n, d, probe, drop)
        # the top card of a pile is the last card dealt to it (seats with at least one card): it
        # went to that seat, and the seat's next card, a round of n cards later, is past the deck
        last_on_top = z3.Implies(size1 >= 1, z3.And(0 <= top1, top1 < cards, cards <= top1 + n,
                                                    _receiver(top1, n, d, probe) == s1))
        claim = z3.And(size1 - size2 <= 1,
                       z3.Implies(_offset(s1, n, d) < _offset(s2, n, d), size1 >= size2),
                       first == _clockwise(d, 1, n), _first_turn(n, d, drop) == first)
        for part in (claim, last_on_top):  # two queries: faster than one
            solver = z3.Solver()
            solver.add(seat(d), seat(s1), seat(s2), z3.Not(part))
            if solve(solver, budget, unsat=Verdict.PROVED, sat=Verdict.COUNTEREXAMPLE) is Verdict.COUNTEREXAMPLE:
                model = solver.model()
                cd = model.eval(d).as_long()
                return _differs(n, cd, cards, [_value(x, model) for x in _encoded_deal(n, cd, cards, probe, drop)])
    return None


def check(run: Run) -> CheckResult:
    bounds = run.bounds
    probe, drop = probe_of(run, ("deal-from-dealer",), STATES)
    cards = int(bounds.get("cards", value("snap", "SNAP-DEAL-2", "deck_size")))
    lo = int(bounds.get("min_players", value("snap", "SNAP-PLAYERS-1", "min_players")))
    hi = int(bounds.get("max_players", value("snap", "SNAP-PLAYERS-1", "max_players")))
    started = time.monotonic()
    # cross-check every table with the model, and record a deal with unequal piles (non-vacuity);
    # then the proof for every table (Z3 only)
    compared, uneven = 0, None
    for players in range(lo, hi + 1):
        for dealer in range(players):
            encoded, modelled = _encoded_deal(players, dealer, cards, probe), _model_deal(players, dealer, cards)
            if encoded != modelled:
                return _differs(players, dealer, cards, encoded)
            compared += players
            if uneven is None and len(set(modelled[0])) > 1:
                uneven = (players, dealer, f"{players} players, dealer {Seat(dealer)}: {_deal_text(modelled)}")
    counterexample = run.cached(("proof", lo, hi, cards), lambda: _prove(lo, hi, cards, probe, drop, run.budget))
    if counterexample is not None:
        return counterexample
    if uneven is None:
        return CheckResult(Verdict.NO_WITNESS, "no deal with unequal piles: the extra-card clause is vacuous")
    return CheckResult(Verdict.PROVED,
                       f"proved for n in {lo}..{hi}, every dealer; {compared} piles match the model's deal",
                       witness=uneven[2], records=(_record(uneven[0], uneven[1], cards, uneven[2]),),
                       stats={"piles_compared": compared, "seconds": round(time.monotonic() - started, 2)})


