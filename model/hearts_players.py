"""Simple built-in Hearts players (strategies for :func:`cardcanon.model.hearts.play_match`).

A strategy is called with the state and the legal plays (never empty) and returns one of them.
"""

from __future__ import annotations

from cardcanon.model.cards import Suit
from cardcanon.model.hearts import HeartsState, Play, Strategy, trick_winner
from cardcanon.model.hearts_types import QUEEN_OF_SPADES
from cardcanon.model.shuffle import SplitMix64

PLAYER_KINDS = ("random", "greedy")


class RandomPlayer:
    """Picks a legal play uniformly, from its own SplitMix64 stream (not the match's)."""

    def __init__(self, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def __call__(self, state: HeartsState, legal: tuple[Play, ...]) -> Play:
        return legal[self.rng.below(len(legal))]

    def __repr__(self) -> str:
        return "RandomPlayer"


class GreedyPlayer:
    """Avoids points trick by trick, with no look-ahead.

    Leading: the lowest card, non-hearts first. Following: the highest card that loses the
    trick; if every card wins, the lowest one. Discarding (void in the suit led): the queen of
    spades, then the highest heart, then the highest card.
    """

    def __call__(self, state: HeartsState, legal: tuple[Play, ...]) -> Play:
        if not state.trick:
            return min(legal, key=lambda p: (p.card.suit is Suit.HEARTS, p.card.rank, p.card.suit.index))
        lead = state.trick[0].card
        if legal[0].card.suit is lead.suit:
            losing = [p for p in legal if trick_winner(lead, p.card) == 0]
            if losing:
                return max(losing, key=lambda p: p.card.rank)
            return min(legal, key=lambda p: p.card.rank)
        return max(legal, key=lambda p: (p.card == QUEEN_OF_SPADES, p.card.suit is Suit.HEARTS, p.card.rank))

    def __repr__(self) -> str:
        return "GreedyPlayer"


def make_player(kind: str, seed: int) -> Strategy:
    """A player of the given kind (``random`` or ``greedy``); ``seed`` feeds a random player."""
    if kind == "random":
        return RandomPlayer(seed)
    if kind == "greedy":
        return GreedyPlayer()
    raise ValueError(f"unknown player {kind!r} (expected one of: {', '.join(PLAYER_KINDS)})")
