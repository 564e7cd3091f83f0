"""Replaying Z3 models of the Snap encoding through the reference model.

Proofs over piles use a *slot-named* position: the card at position ``i`` of zone ``z`` (zones
are the face-down piles, then the face-up piles, then the Snap Pot) is named ``z * stride + i``
and the rank map is free. Every position in which each card lies exactly once is such a
position up to renaming the cards, so a claim about slot-named positions holds for all
positions. To replay a Z3 model, the slot names are turned into real cards: ranks 2 to 14, at
most four cards of a rank, so that a small deck of distinct cards exists.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import z3

from cardcanon.model.cards import Card, Rank, Suit
from cardcanon.model.errors import IllegalMoveError
from cardcanon.model.snap import Move, SnapConfig, apply
from cardcanon.model.snap_text import position_text
from cardcanon.proofs.base import Budget, CheckResult, Verdict
from cardcanon.proofs.records import snap_record
from cardcanon.proofs.snap.encoding import (
    Pile, Position, SymMove, SymState, encoded_text, evaluate, model_move, position_of, same_position, to_model_state,
)


_SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)


def slot_state(n: int, stride: int) -> SymState:
    """A position whose cards are named by their slots; lengths and ranks are free."""
    def pile(zone: int, name: str) -> Pile:
        length = z3.Int(name + "_len")
        return Pile(lambda i: zone * stride + i, length,
                    lambda c: z3.If(z3.And(zone * stride <= c, c < zone * stride + length), 1, 0))

    down = tuple(pile(s, f"down{s}") for s in range(n))
    up = tuple(pile(n + s, f"up{s}") for s in range(n))
    return SymState(n, down, up, pile(2 * n, "pot"), z3.Int("turn"), z3.Int("phase"),
                    z3.Array("rank", z3.IntSort(), z3.IntSort()))


def realisable(st: SymState, stride: int, max_len: int) -> z3.BoolRef:
    """Piles of at most ``max_len`` cards whose ranks fit a standard deck (for replay)."""
    out, slots = [], []
    for z, pile in enumerate(st.zones()):
        out += [pile.length >= 0, pile.length <= max_len]
        slots += [(i < pile.length, z * stride + i) for i in range(max_len)]
    for used, name in slots:
        out.append(z3.Implies(used, z3.And(st.rank[name] >= 2, st.rank[name] <= 14)))
    for r in Rank:
        out.append(z3.Sum([z3.If(z3.And(used, st.rank[name] == int(r)), 1, 0) for used, name in slots]) <= 4)
    return z3.And(*out)


@dataclass(frozen=True)
class Replay:
    ok: bool  # the model agrees with the encoding (with ``expect_same=False``: disagrees)
    text: str
    record: dict[str, Any]  # the position and move as a record prefix, as the model plays it


@dataclass(frozen=True)
class Found:
    """A position and move of the encoding read back from a Z3 model (no model code): the position
    and the encoding's successor (slot names), the rank of each slot in use, and the move."""

    position: Position
    ranks: tuple[tuple[int, int], ...]  # (slot, rank) for every card of the position, in slot order
    move: Move
    after: Position


def _rename(pos: Position, names: dict[int, int]) -> Position:
    def rn(pile: Iterable[int]) -> tuple[int, ...]:
        return tuple(names.get(c, -1) for c in pile)

    return Position(tuple(map(rn, pos.down)), tuple(map(rn, pos.up)), rn(pos.pot), pos.turn, pos.phase)


def found_in(pre: SymState, mv: SymMove, post: SymState, model: z3.ModelRef) -> Found:
    """The position and move a Z3 model picks, with the encoding's successor."""
    position = evaluate(pre, model)
    slots = sorted(c for pile in position.down + position.up + (position.pot,) for c in pile)
    ranks = tuple((c, model.eval(pre.rank[c], model_completion=True).as_long()) for c in slots)
    return Found(position, ranks, model_move(mv, model, pre.n), evaluate(post, model))


def replay(found: Found, base: SnapConfig, expect_same: bool = True) -> Replay:
    """Build the model's position and move from what a Z3 model picked, apply the move with the
    reference model and compare with the encoding's successor. ``expect_same=False`` is for a
    probe's counterexample: the model must then differ from the (broken) encoding."""
    ranks = [r for _, r in found.ranks]
    deck = tuple(Card(Rank(r), _SUITS[ranks[:i].count(r)]) for i, r in enumerate(ranks))  # each rank's suits in order
    names = {c: i for i, (c, _) in enumerate(found.ranks)}
    config = SnapConfig(players=base.players, index_card=base.index_card, next_turn=base.next_turn, deck=deck)
    state, move = to_model_state(_rename(found.position, names), config), found.move
    try:
        after = apply(state, move)
    except IllegalMoveError as err:
        text = f"model rejects {move} in {position_text(state)}: {err}"
        return Replay(not expect_same, text, snap_record(config, (), state, start=state, rejects=move, label=text))
    encoded = _rename(found.after, names)
    same = same_position(encoded, position_of(after))
    text = f"{move} in {position_text(state)} -> {position_text(after)}"
    text = text if same else f"{text}; encoding gives {encoded_text(encoded, config)}"
    return Replay(same == expect_same, text, snap_record(config, (move,), after, start=state, label=text[:300]))


def in_range(st: SymState, stride: int) -> z3.BoolRef:
    """Every pile has between 0 and ``stride - 1`` cards (slot names stay distinct)."""
    return z3.And(*[z3.And(p.length >= 0, p.length < stride) for p in st.zones()])


def model_of(solver: z3.Solver, budget: Budget) -> z3.ModelRef | None:
    """The Z3 model ``solver`` finds, None when its assertions are unsat. A kept search calls this,
    not ``budget.check``: the model memo follows every name the search's code reads, and in a
    check's module ``check`` names the check itself."""
    return solver.model() if budget.check(solver) == z3.sat else None


def find(pre: SymState, mv: SymMove, post: SymState, conditions: Iterable[z3.BoolRef], stride: int, max_len: int,
         budget: Budget) -> Found | None:
    """A small realisable position satisfying ``conditions``, read back; None if there is none."""
    solver = z3.Solver()
    solver.add(realisable(pre, stride, max_len), *conditions)
    picked = model_of(solver, budget)
    return None if picked is None else found_in(pre, mv, post, picked)


def counterexample(label: str, found: Replay | None, queries: int) -> CheckResult:
    """A query's counterexample, with its small instance as the model plays it (None: none found)."""
    return CheckResult(Verdict.COUNTEREXAMPLE, label, witness=found.text if found else "no small instance to replay",
                       records=(found.record,) if found and found.ok else (), stats={"queries": queries})


def find_and_replay(pre: SymState, mv: SymMove, post: SymState, config: SnapConfig, conditions: Iterable[z3.BoolRef],
                    stride: int, max_len: int, budget: Budget, expect_same: bool = True) -> Replay | None:
    """A small realisable position satisfying ``conditions``, replayed; None if there is none."""
    found = find(pre, mv, post, conditions, stride, max_len, budget)
    return None if found is None else replay(found, config, expect_same=expect_same)
