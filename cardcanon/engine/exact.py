"""Exact Snap figures by enumeration of canonical rank sequences (the kernel ``exact.c``).

A deck of ``ranks`` x ``suits`` cards has ``(rs)!`` card orders and ``players`` dealers, all
equally likely. Three symmetries leave the game's course unchanged: suits (SNAP-MATCH-1
compares ranks only), relabelling the ranks, and turning the table (the dealer's seat). So
each *canonical rank sequence* (ranks numbered in order of first appearance, dealt by seat 0)
stands for exactly ``weight = players * ranks! * (suits!)**ranks`` deals, and there are
``(rs)! / ((s!)**r * r!)`` of them. Every figure counted over canonical sequences times the
weight is the count over all deals; fractions need no weight at all.

Cycle lengths are the same for every deal a sequence stands for: the cards are distinct, and
the relabelling moves whole cards, so a position repeats in one deal exactly when it repeats in
its image. ``tests/test_exact.py`` checks the reduction against the brute-force enumeration.
"""

from __future__ import annotations

import ctypes
import math
import os
from dataclasses import dataclass
from typing import Any
from pathlib import Path

from cardcanon.engine import build
from cardcanon.engine.build import EngineUnavailable
from cardcanon.model.cards import Card, Rank, Suit
from cardcanon.model.seats import Seat
from cardcanon.model.snap import Deal

SOURCE = Path(__file__).with_name("exact.c")
POLICIES = ("flipper-first", "owner-first")
HEAD = 16  # numbers before the histograms, per policy (see exact.c)
HIST_LEN = 4096
CAP = 10_000_000  # flips; a deck of at most 32 cards repeats or ends far sooner
MAX_CARDS = 32


def count(ranks: int, suits: int) -> int:
    """The number of canonical rank sequences: ``(rs)! / ((s!)**r * r!)``."""
    return int(math.factorial(ranks * suits) // (math.factorial(suits) ** ranks * math.factorial(ranks)))


def weight(players: int, ranks: int, suits: int) -> int:
    """How many equally likely deals (dealer and card order) one canonical sequence stands for."""
    return int(players * math.factorial(ranks) * math.factorial(suits) ** ranks)


_LIB: ctypes.CDLL | None = None


def kernel() -> ctypes.CDLL:
    """``exact.c`` compiled at first use into the engine's cache folder (as ``kernel.c`` is:
    :func:`cardcanon.engine.build.build`)."""
    global _LIB
    if _LIB is not None:
        return _LIB
    if os.environ.get("CARDCANON_ENGINE", "").lower() == "python":
        raise EngineUnavailable("the compiled kernel is disabled by CARDCANON_ENGINE=python")
    try:
        lib = ctypes.CDLL(str(build.build(SOURCE)))
    except EngineUnavailable as exc:
        raise EngineUnavailable(f"the exact enumeration's library is not built: {exc}") from None
    except OSError as exc:
        raise EngineUnavailable(f"cannot load the exact enumeration's library: {exc}") from None
    lib.exact_count.argtypes = [ctypes.c_int, ctypes.c_int]
    lib.exact_count.restype = ctypes.c_int64
    lib.exact_unrank.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int64, ctypes.POINTER(ctypes.c_uint8)]
    lib.exact_unrank.restype = ctypes.c_int
    lib.exact_range.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int64,
                                ctypes.c_int64, ctypes.c_int64, ctypes.c_int64, ctypes.POINTER(ctypes.c_int64)]
    lib.exact_range.restype = ctypes.c_int64
    _LIB = lib
    return lib


def check_deck(players: int, ranks: int, suits: int) -> None:
    if not 2 <= players <= 12:
        raise ValueError(f"SNAP-PLAYERS-1: Snap is played by 2 to 12 players, not {players}")
    if not 1 <= ranks <= 13 or not 1 <= suits <= 4:
        raise ValueError(f"a deck has 1 to 13 ranks and 1 to 4 suits, not {ranks} x {suits}")
    if ranks * suits > MAX_CARDS or ranks * suits < 2:
        raise ValueError(f"exact enumeration handles decks of 2 to {MAX_CARDS} cards, not {ranks * suits}")


def check_policies(policies: tuple[str, ...]) -> None:
    unknown = set(policies) - set(POLICIES)
    if unknown or not policies:
        raise ValueError(f"exact enumeration plays {' and '.join(POLICIES)}, not {', '.join(sorted(unknown)) or 'none'}")


def sequence(ranks: int, suits: int, index: int) -> tuple[int, ...]:
    """The canonical rank sequence number ``index`` (lexicographic order), ranks as 0..r-1."""
    total = count(ranks, suits)
    if not 0 <= index < total:
        raise ValueError(f"sequence index {index} outside 0..{total - 1}")
    buf = (ctypes.c_uint8 * MAX_CARDS)()
    if kernel().exact_unrank(ranks, suits, index, buf):
        raise ValueError(f"cannot unrank sequence {index} of {ranks} x {suits}")
    return tuple(buf[: ranks * suits])


def deck(ranks: int, suits: int) -> tuple[Card, ...]:
    """The deck of the lowest ``ranks`` ranks in the first ``suits`` suits."""
    return tuple(Card(r, s) for r in list(Rank)[:ranks] for s in list(Suit)[:suits])


def deal(ranks: int, suits: int, index: int) -> Deal:
    """A deal that sequence ``index`` stands for: dealer seat 0, rank k is the k-th lowest rank,
    and each rank's cards are dealt in suit order (as the kernel plays it)."""
    seq = sequence(ranks, suits, index)
    used = [0] * ranks
    order = []
    for r in seq:
        order.append(Card(list(Rank)[r], list(Suit)[used[r]]))
        used[r] += 1
    return Deal(Seat(0), tuple(order))


@dataclass(frozen=True)
class Tally:
    """What one index range gave, per policy: counts, sums, extremes and histograms."""

    first: int
    count: int
    per_policy: dict[str, dict[str, Any]]  # policy name -> tally (see decide_range)


def decide_range(players: int, ranks: int, suits: int, first: int, count_: int,
                 policies: tuple[str, ...] = POLICIES, hist_len: int = HIST_LEN, *, cycle_starts: bool = False,
                 general: bool = False) -> dict[str, dict[str, Any]]:
    """Play canonical sequences ``first .. first + count_ - 1`` under each policy. Per policy:
    ``ended``, ``endless``, ``capped``, ``ended_flips`` (sum), ``lengths`` / ``cycle_lengths`` /
    ``cycle_starts`` as ``{value: count}`` (a value ``hist_len - 1`` means that or more) and
    ``extremes`` (``[value, index]`` of the longest ended game and the shortest and longest
    cycles; the first index among equals). ``cycle_starts``: also find where each cycle starts
    (a second pass; else that histogram is empty). ``general``: two players on the kernel's
    general path instead of its two-player path (for tests; the same results)."""
    check_deck(players, ranks, suits)
    check_policies(policies)
    mask = sum(1 << POLICIES.index(p) for p in policies) | cycle_starts << 2 | general << 3
    stride = HEAD + 3 * hist_len
    out = (ctypes.c_int64 * (2 * stride))()
    got = kernel().exact_range(players, ranks, suits, mask, first, count_, CAP, hist_len, out)
    if got != count_:
        raise ValueError(f"bad range {first}..{first + count_ - 1} of {count(ranks, suits)} sequences")
    result: dict[str, dict[str, Any]] = {}
    for p in policies:
        o: list[int] = out[POLICIES.index(p) * stride: (POLICIES.index(p) + 1) * stride]

        def hist(k: int) -> dict[str, int]:
            part = o[HEAD + k * hist_len: HEAD + (k + 1) * hist_len]
            return {str(v): c for v, c in enumerate(part) if c}

        extremes: dict[str, list[int]] = {}
        for key, at in (("longest_ended", 4), ("shortest_cycle", 6), ("longest_cycle", 8)):
            if o[at + 1] >= 0:
                extremes[key] = [o[at], o[at + 1]]
        result[p] = {"ended": o[0], "endless": o[1], "capped": o[2], "ended_flips": o[3],
                     "lengths": hist(0), "cycle_lengths": hist(1), "cycle_starts": hist(2), "extremes": extremes}
    return result
