"""The match rules of Hearts as the rulebook states them (:func:`rulebook_outcome`): the second opinion,
written from the rulebook's text, that the model's decision is compared with (its Z3 terms are derived
from the model itself: :mod:`.score_terms`)."""

from __future__ import annotations

from cardcanon.model.hearts_types import Outcome


def rulebook_outcome(scores: tuple[int, ...], previous: tuple[int, ...], target: int) -> tuple[str, int] | None:
    """The second opinion: HEARTS-MATCH-1/2 and HEARTS-GOAL-1 written from the rulebook's text, not the
    model's code. None (play on), or (termination, winner). The tie is broken only when the scores before were equal at or past
    the target (equal scores there are what the tie-break plays off)."""
    a, b = scores
    if a < target and b < target:
        return None
    if a < target or b < target:
        return ("one-reached-target", 0 if a < target else 1)
    if a == b:
        return None
    tied = previous[0] == previous[1] and previous[0] >= target
    return ("tie-broken" if tied else "both-reached-lower-wins", 0 if a < b else 1)


def decision(outcome: Outcome | None) -> tuple[str, int] | None:
    """The model's outcome in :func:`rulebook_outcome`'s form."""
    return None if outcome is None else (outcome.termination.value, outcome.winner.index)
