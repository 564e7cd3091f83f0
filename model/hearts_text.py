"""Two-player Hearts in the rulebook's words: seats ("player 1"), moves, cards ("Q♠"), the table's
rules, hands, tricks and results. Every command and error message of Hearts prints through here (a
move's words are its ``str``, in :mod:`cardcanon.model.hearts_types`). It reads the types only,
never the rules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardcanon.model.hearts_types import PLAYERS, POINT_CARDS, SEATS, HeartsConfig, HeartsState, Outcome, Termination
from cardcanon.model.seats import Seat

ENDINGS = {  # how a match ends, as the rulebook words it
    Termination.ONE_REACHED_TARGET: "{loser} reached {target} (HEARTS-MATCH-1)",
    Termination.BOTH_REACHED_LOWER_WINS: "both reached {target}, the lower score wins (HEARTS-MATCH-2)",
    Termination.TIE_BROKEN: "the tie at {target} or more is broken (HEARTS-MATCH-2)",
}


def rules_text(config: HeartsConfig) -> str:
    """The table's rules as ``--variant`` would set them: ``"dealer=alternate, ..., target=100"``."""
    return ", ".join(f"{name}={value}" for name, value in (*config.options().items(), ("target", config.target)))


def scores_text(scores: Sequence[int]) -> str:
    """``"player 0 93, player 1 104"``."""
    return ", ".join(f"{Seat(i)} {score}" for i, score in enumerate(scores))


def decision_text(decision: Outcome | Sequence[Any] | None) -> str:
    """A match decision in words: ``"play on"``, ``"player 1 wins (one-reached-target)"``; an
    :class:`Outcome` or, as checks and records give it, ``(termination, winner index)``."""
    if decision is None:
        return "play on"
    if isinstance(decision, Outcome):
        return f"{decision.winner} wins ({decision.termination.value})"
    return f"{Seat(int(decision[1]))} wins ({decision[0]})"


def result_text(outcome: Outcome, hands: int, target: int) -> str:
    """``"player 0 wins after 9 hands, player 0 93, player 1 104: player 1 reached 100 (HEARTS-MATCH-1)"``."""
    loser = outcome.winner.left(PLAYERS)
    reason = ENDINGS[outcome.termination].format(loser=loser, target=target)
    return f"{outcome.winner} wins after {hands} hands, {scores_text(outcome.scores)}: {reason}"


def state_result(state: HeartsState) -> str:
    """The result of a match, or how far it went."""
    if state.outcome is None:
        return f"match not over after {state.hand_number} hands: {scores_text(state.scores)}"
    return result_text(state.outcome, state.hand_number, state.config.target)


def hand_summary(state: HeartsState) -> str:
    """The scores of the hand just played, and the totals."""
    in_play = POINT_CARDS.difference(state.dead)
    moon = [seat for seat in SEATS if in_play <= state.taken[seat.index]]
    note = f" ({moon[0]} shot the moon)" if moon else ""
    return (f"  Hand {state.hand_number} scores {scores_text(state.hand_scores[-1])}{note}; "
            f"totals {scores_text(state.scores)}")
