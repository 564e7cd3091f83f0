"""Two-player Hearts in the rulebook's words: seats ("player 1"), moves, cards ("Q♠"), the table's
rules, hands, tricks and results. Every command and error message of Hearts prints through here."""

from __future__ import annotations

from collections.abc import Sequence

from cardcanon.model.cards import Card, format_cards
from cardcanon.model.hearts import POINT_CARDS, apply, new_game, trick_winner
from cardcanon.model.hearts_types import (
    ChooseDealer, Deal, HeartsConfig, HeartsState, Move, Outcome, Phase, Play, Termination,
)
from cardcanon.model.seats import Seat

ENDINGS = {  # how a match ends, as the rulebook words it
    Termination.ONE_REACHED_TARGET: "{loser} reached {target} (HEARTS-MATCH-1)",
    Termination.BOTH_REACHED_LOWER_WINS: "both reached {target}, the lower score wins (HEARTS-MATCH-2)",
    Termination.TIE_BROKEN: "the tie at {target} or more is broken (HEARTS-MATCH-2)",
}


def move_text(move: Move) -> str:
    """``"player 0 plays Q♠"``, ``"player 1 deals first"`` or ``"the cards are dealt"``."""
    if isinstance(move, ChooseDealer):
        return f"{move.dealer} deals first"
    if isinstance(move, Deal):
        return "the cards are dealt"
    return f"{move.player} plays {move.card.pretty}"


def rules_text(config: HeartsConfig) -> str:
    """The table's rules as ``--variant`` would set them: ``"dealer=alternate, ..., target=100"``."""
    return ", ".join(f"{name}={value}" for name, value in (*config.options().items(), ("target", config.target)))


def scores_text(scores: Sequence[int]) -> str:
    """``"player 0 93, player 1 104"``."""
    return ", ".join(f"{Seat(i)} {score}" for i, score in enumerate(scores))


def result_text(outcome: Outcome, hands: int, target: int) -> str:
    """``"player 0 wins after 9 hands, player 0 93, player 1 104: player 1 reached 100 (HEARTS-MATCH-1)"``."""
    loser = Seat(1 - outcome.winner.index)
    reason = ENDINGS[outcome.termination].format(loser=loser, target=target)
    return f"{outcome.winner} wins after {hands} hands, {scores_text(outcome.scores)}: {reason}"


def state_result(state: HeartsState) -> str:
    """The result of a match, or how far it went."""
    if state.outcome is None:
        return f"match not over after {state.hand_number} hands: {scores_text(state.scores)}"
    return result_text(state.outcome, state.hand_number, state.config.target)


def format_match(config: HeartsConfig, moves: Sequence[Move], show_tricks: bool = False) -> str:
    """The match readably, hand by hand (with ``show_tricks``, the hands and every trick)."""
    lines: list[str] = []
    state = new_game(config)
    for move in moves:
        before, state = state, apply(state, move)
        if before.phase is Phase.CHOOSE_DEALER:
            lines.append(f"{state.dealer} deals the first hand.")
        elif before.phase is Phase.DEAL:
            lines.append(f"Hand {state.hand_number}, dealt by {state.dealer}. Dead cards: {format_cards(state.dead)}")
            if show_tricks:
                for seat in (0, 1):
                    lines.append(f"  {Seat(seat)} holds {format_cards(sorted(state.hands[seat], key=_deck_order))}")
        elif before.trick and show_tricks and isinstance(move, Play):
            lead = before.trick[0]
            winner = move.player if trick_winner(lead.card, move.card) else lead.player
            lines.append(f"  trick {before.tricks_played + 1:2d}: {lead.player} {lead.card.pretty:>3}"
                         f"  {move.player} {move.card.pretty:>3}  won by {winner}")
        if before.phase is Phase.PLAY and state.phase is not Phase.PLAY:
            lines.append(hand_summary(state))
    if state.outcome is not None:
        lines.append(f"Match over: {state_result(state)}.")
    return "\n".join(lines)


def _deck_order(card: Card) -> int:
    return card.index


def hand_summary(state: HeartsState) -> str:
    """The scores of the hand just played, and the totals."""
    in_play = POINT_CARDS.difference(state.dead)
    moon = [seat for seat in (0, 1) if in_play <= state.taken[seat]]
    note = f" ({Seat(moon[0])} shot the moon)" if moon else ""
    return (f"  Hand {state.hand_number} scores {scores_text(state.hand_scores[-1])}{note}; "
            f"totals {scores_text(state.scores)}")
