"""The encoding probes of the Snap checks (the manifest's ``[[check.probe]]``): each breaks one
rule by patching the function that states it while one part of the step encoding is built
(:func:`cardcanon.proofs.symbolic.patched`): a model function, whose derived terms are then those
of the broken rule, or, for what an encoding states itself (the pile algebra's turn-over, the
end of the game, SNAP-P2's deal's first receiver), that encoding's function. Nothing else knows the probes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any, ContextManager

import z3

from cardcanon.model import snap as model
from cardcanon.proofs.symbolic import patched


def _anyone_calls(state: Any, seat: Any) -> None:
    """SNAP-CALL-2 broken: players who are out may call."""
    return None


def _nothing_matched(state: Any) -> tuple[()]:
    """SNAP-TIE-1 broken: a tie moves no matched pile (they vanish: they are cleared all the same)."""
    return ()


def _pays_left(state: Any, offender: Any) -> Any:
    """SNAP-PEN-2 broken: a wrong flipper pays the nearest player to his left who holds cards."""
    if offender != state.player:
        return state.player
    seat = offender.left(state.config.players)
    while not state.holds(seat):
        seat = seat.left(state.config.players)
    return seat


def _turn_right(state: Any, down: Any, up: Any, after: Any, winner: Any) -> Any:
    """SNAP-TURN-2 broken: with no winner to flip next, the turn passes counter-clockwise."""
    if winner is not None and state.config.next_turn is model.NextTurn.WINNER:
        return winner
    seat = after.right(state.config.players)
    while not (down[seat.index] or up[seat.index]):
        seat = seat.right(state.config.players)
    return seat


def _end_down_only() -> ContextManager[None]:
    """SNAP-END-2 broken: the game ends when at most one player has a face-down card."""
    from cardcanon.proofs.snap import encoding

    def ends(post: Any) -> tuple[Any, Any]:
        count = z3.Sum([z3.If(pile.length > 0, 1, 0) for pile in post.down])
        return count <= 1, z3.BoolVal(False)

    return patched(encoding, ends=ends)


def _penalty_unturned() -> ContextManager[None]:
    """SNAP-PEN-3 broken: the offender's empty face-down pile is not replaced (SNAP-FLIP-3)."""
    from cardcanon.proofs.snap import encoding

    return patched(encoding, turn_over=lambda down, up, *rest, **named: (down, up))


def _deal_from_dealer() -> ContextManager[None]:
    """SNAP-DEAL-2 broken (SNAP-P2's encoded deal): the first card goes to the dealer himself."""
    from cardcanon.proofs.snap import encoding

    return patched(encoding, first_receiver=lambda: 0)


# probe -> (the part of the encoding it breaks, the patch)
PROBES: dict[str, tuple[str, Callable[[], ContextManager[None]]]] = {
    "out-players-call": ("legal", lambda: patched(model, caller_problem=_anyone_calls)),
    "penalty-no-turnover": ("penalty", _penalty_unturned),
    "tie-drops-matched": ("tie", lambda: patched(model, matched_seats=_nothing_matched)),
    "end-down-only": ("end", _end_down_only),
    "deal-from-dealer": ("deal", _deal_from_dealer),
    "penalty-to-left": ("compiled", lambda: patched(model, penalty_recipient=_pays_left)),
    "turn-counter-clockwise": ("compiled", lambda: patched(model, next_player=_turn_right)),
}


@contextlib.contextmanager
def breaking(probe: str | None, part: str) -> Iterator[None]:
    """``probe``'s patch while the block builds ``part`` of the step (nothing for another part)."""
    if probe is None or probe not in PROBES:
        if probe is not None:
            raise ValueError(f"{probe}: not an encoding probe of the Snap checks ({', '.join(sorted(PROBES))})")
        yield
        return
    broken, patch = PROBES[probe]
    if broken != part:
        yield
        return
    with patch():
        yield
