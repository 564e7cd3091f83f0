"""SNAP-END-5: the label of an ended Snap game, as the figures and records name it: the
``termination`` of the game's outcome (:attr:`cardcanon.model.snap.SnapState.outcome`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardcanon.model.snap_types import SnapState


def ending_label(state: SnapState) -> str:
    """``all-cards`` (SNAP-END-1), ``no-cards`` (SNAP-END-3), and for SNAP-END-2 (one player holds
    every card outside a non-empty Snap Pot) ``stuck-pot`` when no card of the pot's top rank is
    among all the holder's cards, face down and face up, so no flip could ever win it
    (SNAP-MATCH-2), else ``winnable-pot``."""
    held = [card for seat in state.in_game for card in state.down[seat.index] + state.up[seat.index]]
    if not held:
        return "no-cards"
    if not state.pot:
        return "all-cards"
    rank = state.pot[0].rank
    return "winnable-pot" if any(card.rank == rank for card in held) else "stuck-pot"
