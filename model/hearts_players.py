"""Hearts players (strategies) and the whole-match driver :func:`play_match`.

A strategy is called with the state and the legal plays (never empty) and returns one of them.
"""

from __future__ import annotations

from typing import Protocol

from cardcanon.model.cards import Suit
from cardcanon.model.hearts import apply, legal_moves, new_game, sample_chance, trick_winner
from cardcanon.model.hearts_types import QUEEN_OF_SPADES, HeartsConfig, HeartsState, Move, Phase, Play
from cardcanon.model.shuffle import SplitMix64


class Strategy(Protocol):
    """A player: picks one of the legal plays."""

    def __call__(self, state: HeartsState, legal: tuple[Play, ...]) -> Play: ...


def play_match(seed: int, players: tuple[Strategy, Strategy],
               config: HeartsConfig = HeartsConfig()) -> tuple[HeartsState, list[Move]]:
    """Play a whole match: chance from ``SplitMix64(seed)``, plays from the two strategies.

    HEARTS-MATCH-3: there is no cap on the number of hands.
    """
    rng = SplitMix64(seed)
    state = new_game(config)
    moves: list[Move] = []
    while state.phase is not Phase.OVER:
        if state.to_move is None:
            move: Move = sample_chance(state, rng)
        else:
            move = players[state.to_move.index](state, legal_moves(state))
        state = apply(state, move)
        moves.append(move)
    return state, moves

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
