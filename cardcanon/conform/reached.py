"""A position with the record prefix that reaches it, and the shortest one of a kind."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardcanon.conform.adapter import Json, Position


@dataclass(frozen=True)
class Reached:
    """A position and the record prefix that reaches it."""

    moves: tuple[Json, ...]
    position: Position


def shortest(positions: list[Reached], predicate: Callable[[Any], bool]) -> Reached | None:
    """The position of shortest prefix among ``positions`` whose state has ``predicate``, or None."""
    hits = [r for r in positions if predicate(r.position.state)]
    return min(hits, key=lambda r: len(r.moves)) if hits else None
