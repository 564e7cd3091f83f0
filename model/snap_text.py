"""Snap in the rulebook's words: seats ("player 2"), moves ("flip", "Snap!"), cards ("K♣"),
results; every command and error message of Snap prints through here (a move's words are its
``str``, in :mod:`cardcanon.model.snap_types`). Also builds a position from pile strings. It reads
the types only, never the rules.

Piles are written top first: ``"Qs 3h"`` is a pile whose top card is the queen of spades.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardcanon.model.cards import FULL_DECK, Card, format_cards
from cardcanon.model.seats import Seat, seats_text
from cardcanon.model.snap_types import CALL_WORDS, NextTurn, Outcome, Phase, SnapConfig, SnapState, Termination

__all__ = ["CALL_WORDS", "ENDINGS", "cards_of", "make_state", "outcome_text", "position_text", "repeat_text",
           "result_text", "rules_text", "seat_text", "seats_text", "sentence", "table_text"]
ENDINGS = {  # the ways a game ends, as the rulebook words them (the labels: SNAP-END-5)
    Termination.NO_CARDS.value: "every card is in the Snap Pot (SNAP-END-3)",
    Termination.STUCK_POT.value: "he holds every card outside the Snap Pot, which no flip can win (SNAP-END-2)",
    Termination.WINNABLE_POT.value: "he holds every card outside the Snap Pot, a card of its top card's rank among"
                                    " them (SNAP-END-2)",
    Termination.ALL_CARDS.value: "he holds every card (SNAP-END-1)",
}


def seat_text(seat: Seat | int) -> str:
    """``"player 2"``."""
    return str(seat if isinstance(seat, Seat) else Seat(seat))


def result_text(termination: str, winner: int | None, flips: int) -> str:
    """How a game ended, e.g. ``"player 1 wins after 87 flips: he holds every card (SNAP-END-1)."``."""
    reason = ENDINGS.get(termination, termination)
    if winner is None:
        return f"Drawn after {flips} flips: {reason}."
    return f"{seat_text(winner)} wins after {flips} flips: {reason}."


def rules_text(config: SnapConfig) -> str:
    """The table as ``--players`` and ``--variant`` would set it: ``"2 players, index_card=off, ..."``."""
    return ", ".join([f"{config.players} players", *(f"{name}={value}" for name, value in config.options().items())])


def repeat_text(repeat: tuple[int, int] | None) -> str:
    """Where a game first repeats (flip, period) in words: ``"from flip 90, every 52 flips"`` or ``"none"``."""
    return f"from flip {repeat[0]}, every {repeat[1]} flips" if repeat else "none"


def outcome_text(outcome: Outcome | None) -> str:
    """``"player 1 wins: he holds every card (SNAP-END-1)"``, ``"drawn: every card ..."``, ``"not over"``."""
    if outcome is None:
        return "not over"
    who = "drawn" if outcome.winner is None else f"{outcome.winner} wins"
    return f"{who}: {ENDINGS[outcome.termination.value]}"


def table_text(phase: Phase, turn: Seat | None, down: Sequence[str], up: Sequence[str], pot: str) -> str:
    """A position, piles given as text top first: ``{call, player 1's turn; player 0: down [Q♣ K♣]
    up [A♦]; player 1: down [] up [A♠]; pot []}`` (in a call window the turn is the flipper's)."""
    piles = "; ".join(f"{Seat(s)}: down [{down[s]}] up [{up[s]}]" for s in range(len(down)))
    whose = f", {turn}'s turn" if turn is not None and phase is not Phase.OVER else ""
    return f"{{{phase.value}{whose}; {piles}; pot [{pot}]}}"


def position_text(state: SnapState) -> str:
    """A position in the rulebook's words (:func:`table_text`)."""
    return table_text(state.phase, state.turn, [format_cards(p) for p in state.down],
                      [format_cards(p) for p in state.up], format_cards(state.pot))


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
