"""The encoding probes of the Snap checks (the manifest's ``[[check.probe]]``): each breaks one
rule by patching the function that states it while one part of the step encoding is built
(:func:`cardcanon.proofs.symbolic.patched`), so that the derived terms of that part are those
of the broken rule. Nothing else of the encoding knows the probes.
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


def _unturned(down: Any, up: Any) -> tuple[Any, Any]:
    """SNAP-FLIP-3 broken for a penalty (SNAP-PEN-3): the empty face-down pile is not replaced."""
    return down, up


def _nothing_matched(state: Any) -> tuple[()]:
    """SNAP-TIE-1 broken: a tie moves no matched pile (they vanish: they are cleared all the same)."""
    return ()


def _end_down_only() -> ContextManager[None]:
    """SNAP-END-2 broken: the game ends when at most one player has a face-down card."""
    from cardcanon.proofs.snap import encoding

    def ends(post: Any) -> tuple[Any, Any]:
        count = z3.Sum([z3.If(pile.length > 0, 1, 0) for pile in post.down])
        return count <= 1, z3.BoolVal(False)

    return patched(encoding, ends=ends)


# probe -> (the part of the step it breaks, the patch)
PROBES: dict[str, tuple[str, Callable[[], ContextManager[None]]]] = {
    "out-players-call": ("legal", lambda: patched(model, caller_problem=_anyone_calls)),
    "penalty-no-turnover": ("penalty", lambda: patched(model, turned_over=_unturned)),
    "tie-drops-matched": ("tie", lambda: patched(model, matched_seats=_nothing_matched)),
    "end-down-only": ("end", _end_down_only),
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
