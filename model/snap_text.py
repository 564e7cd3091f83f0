"""Snap positions and moves as text: build a position from pile strings, describe moves.

Piles are written top first: ``"Qs 3h"`` is a pile whose top card is the queen of spades.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardcanon.model.cards import FULL_DECK, Card, format_cards
from cardcanon.model.seats import Seat
from cardcanon.model.snap import (
    CallKind, Deal, Flip, Move, NextTurn, NoCall, Phase, SnapConfig, SnapState, Tie,
    correct_kinds, matched_seats,
)

CALL_WORDS = {CallKind.SNAP: '"Snap!"', CallKind.SNAP_POT: '"Snap Pot!"', CallKind.HAND: "a hand on the index card"}


def cards_of(text: str) -> tuple[Card, ...]:
    """``"Qs 3h"`` -> the cards, top first."""
    return tuple(Card.parse(t) for t in text.split())


def make_state(down: Sequence[str], up: Sequence[str] | None = None, pot: str = "", turn: int | None = 0,
               phase: Phase = Phase.FLIP, *, index_card: bool = False,
               next_turn: NextTurn = NextTurn.CLOCKWISE, dealer: int = 0, flips: int = 1) -> SnapState:
    """A position from pile strings, one per seat. The deck is exactly the cards on the table."""
    up = up if up is not None else [""] * len(down)
    if len(up) != len(down):
        raise ValueError("one face-up pile per seat")
    down_p = tuple(cards_of(t) for t in down)
    up_p = tuple(cards_of(t) for t in up)
    pot_p = cards_of(pot)
    every = [c for pile in down_p + up_p + (pot_p,) for c in pile]
    deck = tuple(c for c in FULL_DECK if c in set(every))
    if len(deck) != len(every):
        raise ValueError("a card appears twice")
    config = SnapConfig(players=len(down), index_card=index_card, next_turn=next_turn, deck=deck)
    return SnapState(config, phase, Seat(dealer), down_p, up_p, pot_p, None if turn is None else Seat(turn), flips)


def describe(before: SnapState, move: Move, after: SnapState) -> str:
    """One line saying what a move did."""
    if isinstance(move, Deal):
        sizes = ", ".join(f"{s}: {len(p)}" for s, p in zip((Seat(i) for i in range(len(after.down))), after.down))
        return f"{move.dealer} deals ({sizes} cards)"
    if isinstance(move, Flip):
        card = after.up[move.player.index][0]
        turned = " (turns his face-up pile over first)" if not before.down[move.player.index] else ""
        return f"flip {after.flips}: {move.player} flips {card.pretty}{turned}"
    if isinstance(move, NoCall):
        return "  no call"
    if isinstance(move, Tie):
        names = [str(s) for s in sorted(move.callers)]
        who = ", ".join(names[:-1]) + " and " + names[-1]
        return (f"  tie: {who} call {CALL_WORDS[move.kind]} at once; the Snap Pot now holds "
                f"{len(after.pot)} cards (top {after.pot[0].pretty})")
    if move.kind in correct_kinds(before):
        gained = len(after.down[move.caller.index]) - len(before.down[move.caller.index])
        pot = " with the Snap Pot" if before.pot and not after.pot else ""
        return f"  {move.caller} calls {CALL_WORDS[move.kind]} first and wins {gained} cards{pot}"
    n = before.config.players
    got = next(Seat(i) for i in range(n) if len(after.down[i]) > len(before.down[i]) and Seat(i) != move.caller)
    return f"  {move.caller} calls {CALL_WORDS[move.kind]} wrongly and gives a card to {got}"


def format_state(state: SnapState) -> str:
    """The table, one line per seat, then the pot."""
    lines = []
    for i in range(state.config.players):
        mark = "*" if state.turn == Seat(i) else " "
        lines.append(f"{mark}P{i}: down [{format_cards(state.down[i])}]  up [{format_cards(state.up[i])}]")
    lines.append(f" pot [{format_cards(state.pot)}]")
    if state.phase is Phase.CALL:
        lines.append(f" matched: {', '.join(map(str, matched_seats(state))) or 'none'}")
    return "\n".join(lines)
