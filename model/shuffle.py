"""The portable seeded shuffle used for every deal.

Any language can reproduce a deal from its seed with three small pieces, all on unsigned
64-bit integers with wrap-around arithmetic:

1. **SplitMix64** generator. ``state`` starts as ``seed mod 2**64``. Each draw::

       state = state + 0x9E3779B97F4A7C15
       z = state
       z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
       z = (z ^ (z >> 27)) * 0x94D049BB133111EB
       return z ^ (z >> 31)

2. **Unbiased bounded draw** ``below(n)`` for ``1 <= n < 2**64``: let
   ``t = 2**64 mod n``; draw ``x`` until ``x >= t``; return ``x mod n``.

3. **Fisher-Yates** (Durstenfeld) on a list in canonical deck order: for ``i`` from
   ``len - 1`` down to ``1``: ``j = below(i + 1)``, swap items ``i`` and ``j``.

A shuffled list is read from index 0 (the top of the deck) onwards. Golden values for
cross-language checks are in ``tests/test_shuffle.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


class SplitMix64:
    """SplitMix64 pseudo-random generator (Steele, Lea and Flood 2014)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an integer, not {type(seed).__name__}")
        self.state = seed & _MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in ``range(n)`` by rejection (no modulo bias)."""
        if not 1 <= n <= _MASK:
            raise ValueError(f"bound out of range: {n}")
        threshold = (1 << 64) % n
        while True:
            x = self.next()
            if x >= threshold:
                return x % n

    def shuffled(self, items: Sequence[T]) -> tuple[T, ...]:
        """Fisher-Yates shuffle of a copy of ``items`` (``next``/``below`` inlined for speed)."""
        out = list(items)
        state = self.state
        for i in range(len(out) - 1, 0, -1):
            n = i + 1
            threshold = (1 << 64) % n
            while True:
                state = (state + 0x9E3779B97F4A7C15) & _MASK
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                x = z ^ (z >> 31)
                if x >= threshold:
                    break
            j = x % n
            out[i], out[j] = out[j], out[i]
        self.state = state
        return tuple(out)


def shuffle(items: Sequence[T], seed: int) -> tuple[T, ...]:
    """Shuffle ``items`` with a fresh generator seeded by ``seed``."""
    return SplitMix64(seed).shuffled(items)
