"""Snap in the rulebook's words: seats ("player 2"), moves ("flip", "Snap!"), cards ("K♣"),
results; every command and error message of Snap prints through here. Also builds a position
from pile strings.

Piles are written top first: ``"Qs 3h"`` is a pile whose top card is the queen of spades.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardcanon.model.cards import FULL_DECK, Card, format_cards
from cardcanon.model.seats import Seat
from cardcanon.model.snap import (
    Call, CallKind, Deal, Flip, Move, NextTurn, NoCall, Phase, SnapConfig, SnapState, Termination, Tie,
    correct_kinds, matched_seats,
)

CALL_WORDS = {CallKind.SNAP: '"Snap!"', CallKind.SNAP_POT: '"Snap Pot!"', CallKind.HAND: "a hand on the index card"}
ENDINGS = {  # the three ways a game ends, as the rulebook words them
    Termination.NO_CARDS.value: "every card is in the Snap Pot (SNAP-END-3)",
    Termination.STUCK_POT.value: "he holds every card outside the Snap Pot (SNAP-END-2)",
    Termination.ALL_CARDS.value: "he holds every card (SNAP-END-1)",
}


def seat_text(seat: Seat | int) -> str:
    """``"player 2"``."""
    return str(seat if isinstance(seat, Seat) else Seat(seat))


def seats_text(seats: Sequence[Seat]) -> str:
    """``"player 1 and player 3"``, ``"player 0, player 1 and player 2"``."""
    names = [str(s) for s in sorted(seats)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def call_text(kind: CallKind) -> str:
    """``'"Snap!"'``, ``'"Snap Pot!"'`` or ``"a hand on the index card"``."""
    return CALL_WORDS[kind] if isinstance(kind, CallKind) else f"an unknown call {str(kind)[:30]}"


def move_text(move: Move) -> str:
    """A move named as the rulebook names it, e.g. ``'player 2 calls "Snap!"'`` or ``"player 0 flips"``."""
    if isinstance(move, Deal):
        return f"{move.dealer} deals"
    if isinstance(move, Flip):
        return f"{move.player} flips"
    if isinstance(move, NoCall):
        return "nobody calls"
    if isinstance(move, Call):
        if move.kind is CallKind.HAND:
            return f"{move.caller} puts a hand on the index card"
        return f"{move.caller} calls {call_text(move.kind)}"
    return f"{seats_text(tuple(move.callers))} call {call_text(move.kind)} at once"


def result_text(termination: str, winner: int | None, flips: int) -> str:
    """How a game ended, e.g. ``"player 1 wins after 87 flips: he holds every card (SNAP-END-1)."``."""
    reason = ENDINGS.get(termination, termination)
    if winner is None:
        return f"Drawn after {flips} flips: {reason}."
    return f"{seat_text(winner)} wins after {flips} flips: {reason}."


def sentence(text: str) -> str:
    """``text`` with a capital first letter (``"player 1 wins"`` opening a line)."""
    return text[:1].upper() + text[1:]


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
        sizes = ", ".join(f"{s} {len(p)}" for s, p in zip((Seat(i) for i in range(len(after.down))), after.down))
        return f"{move.dealer} deals ({sizes} cards)"
    if isinstance(move, Flip):
        card = after.up[move.player.index][0]
        turned = " (turns his face-up pile over first)" if not before.down[move.player.index] else ""
        return f"flip {after.flips}: {move.player} flips {card.pretty}{turned}"
    if isinstance(move, NoCall):
        return "  nobody calls"
    if isinstance(move, Tie):
        return (f"  tie: {move_text(move)}; the Snap Pot now holds "
                f"{len(after.pot)} cards (top {after.pot[0].pretty})")
    if move.kind in correct_kinds(before):
        gained = len(after.down[move.caller.index]) - len(before.down[move.caller.index])
        pot = " with the Snap Pot" if before.pot and not after.pot else ""
        return f"  {move_text(move)} first and wins {gained} cards{pot}"
    n = before.config.players
    got = next(Seat(i) for i in range(n) if len(after.down[i]) > len(before.down[i]) and Seat(i) != move.caller)
    return f"  {move_text(move)} wrongly and gives a card to {got}"


def format_state(state: SnapState) -> str:
    """The table, one line per seat, then the pot."""
    lines = []
    for i in range(state.config.players):
        mark = "*" if state.turn == Seat(i) else " "
        lines.append(f"{mark}{Seat(i)}: down [{format_cards(state.down[i])}]  up [{format_cards(state.up[i])}]")
    lines.append(f" pot [{format_cards(state.pot)}]")
    if state.phase is Phase.CALL:
        lines.append(f" matched: {', '.join(map(str, matched_seats(state))) or 'none'}")
    return "\n".join(lines)
