"""Seats at the table. Seats are numbered clockwise from 0; a seat's left is the next seat."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Seat:
    """One player's place at the table (``Seat(0)`` ... ``Seat(n - 1)``, clockwise)."""

    index: int

    def __post_init__(self) -> None:
        if not isinstance(self.index, int) or isinstance(self.index, bool) or self.index < 0:
            raise ValueError(f"a seat is a non-negative integer, not {self.index!r}")

    def left(self, players: int) -> Seat:
        """The next seat clockwise (the player to this seat's left)."""
        return Seat((self.index + 1) % players)

    def right(self, players: int) -> Seat:
        """The previous seat clockwise (the player to this seat's right)."""
        return Seat((self.index - 1) % players)

    def __str__(self) -> str:  # the rulebook's word for a seat
        return f"player {self.index}"

    def __repr__(self) -> str:
        return f"Seat({self.index})"


def others_clockwise(seat: Seat, players: int) -> Iterator[int]:
    """The index of every other seat, clockwise from ``seat``'s left."""
    return ((seat.index + step) % players for step in range(1, players))


def seats(players: int) -> tuple[Seat, ...]:
    return tuple(Seat(i) for i in range(players))


def seats_text(seats: Sequence[Seat]) -> str:
    """``"player 1 and player 3"``, ``"player 0, player 1 and player 2"``; ``"nobody"`` for no seat."""
    names = [str(s) for s in sorted(seats)] or ["nobody"]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
