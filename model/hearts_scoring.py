"""Two-player Hearts: scoring a hand and deciding the match (HEARTS-SCORE-1, HEARTS-MOON-1/2,
HEARTS-MATCH-1/2/3). Re-exported by :mod:`cardcanon.model.hearts`."""

from __future__ import annotations

from cardcanon.model.hearts_types import (
    DECK, HEARTS_MASK, QUEEN_OF_SPADES, SEATS, HeartsConfig, MoonScore, Outcome, Termination, mask_of,
)

MOON_OTHER_SCORE = 20  # HEARTS-MOON-1


def score_hand(taken, dead, config: HeartsConfig = HeartsConfig()) -> tuple[int, int]:
    """HEARTS-SCORE-1, HEARTS-MOON-1, HEARTS-MOON-2: the two players' scores for a hand."""
    return score_masks((mask_of(taken[0]), mask_of(taken[1])), mask_of(dead), config)


def _points(mask: int) -> int:
    """HEARTS-SCORE-1, HEARTS-QUEEN-1: 1 per heart, 13 for the queen of spades."""
    return (mask & HEARTS_MASK).bit_count() + (13 if mask & _QUEEN_BIT else 0)


def score_masks(taken: tuple[int, int], dead: int, config: HeartsConfig) -> tuple[int, int]:
    """:func:`score_hand` on masks over DECK."""
    in_play = _POINTS_MASK & ~dead
    for seat in (0, 1):
        if taken[seat] & in_play == in_play:  # shooting the moon: every point card in play
            other_score = MOON_OTHER_SCORE if config.moon_score is MoonScore.TWENTY else _points(in_play)
            return (0, other_score) if seat == 0 else (other_score, 0)
    return _points(taken[0]), _points(taken[1])


_QUEEN_BIT = 1 << DECK.index(QUEEN_OF_SPADES)
_POINTS_MASK = HEARTS_MASK | _QUEEN_BIT


def match_result(scores: tuple[int, int], config: HeartsConfig = HeartsConfig(),
                 previous: tuple[int, int] | None = None) -> Outcome | None:
    """HEARTS-MATCH-1/2 (and HEARTS-GOAL-1, the lower score wins): the outcome after a hand
    ending with ``scores``, or None to play on.

    ``previous`` (the scores before that hand) only tells a broken tie (``TIE_BROKEN``) from a
    first arrival of both players at the target.
    """
    a, b = scores
    target = config.target
    if a < target and b < target:
        return None
    if a < target or b < target:  # HEARTS-MATCH-1: the one who reached it loses
        return Outcome(Termination.ONE_REACHED_TARGET, SEATS[0] if a < target else SEATS[1], (a, b))
    if a == b:  # HEARTS-MATCH-2, HEARTS-MATCH-3: equal scores play on, without a cap
        return None
    tied_before = previous is not None and previous[0] == previous[1] and previous[0] >= target
    termination = Termination.TIE_BROKEN if tied_before else Termination.BOTH_REACHED_LOWER_WINS
    return Outcome(termination, SEATS[0] if a < b else SEATS[1], (a, b))
