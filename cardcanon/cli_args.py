"""Argument types of the command line: every number range-checked, with one clear message.

Used as ``type=`` in argparse, so a bad value ends with ``cardcanon ...: error: argument
--seed: ...`` and exit status 2 before any work starts.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

SEED_MAX = 2**64 - 1  # seeds are taken modulo 2**64 (SplitMix64), so larger ones would repeat smaller ones
SECONDS_MAX = 86_400.0  # a time limit longer than a day is a typing mistake


def _integer(text: str) -> int:
    try:
        return int(text.strip(), 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {_quoted(text)}") from None


def integer_range(low: int, high: int | None = None, what: str = "a whole number") -> Callable[[str], int]:
    """An argparse type: an integer from ``low`` to ``high`` (inclusive)."""
    def parse(text: str) -> int:
        value = _integer(text)
        if value < low or (high is not None and value > high):
            bound = f"from {low} to {high}" if high is not None else f"of at least {low}"
            raise argparse.ArgumentTypeError(f"expected {what} {bound}, not {_quoted(text)}")
        return value
    parse.__name__ = what  # argparse names the type in its messages
    return parse


seed = integer_range(0, SEED_MAX, "a seed")


def seconds(text: str) -> float:
    """A time limit: a finite number of seconds, more than 0 and at most a day."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {_quoted(text)}") from None
    if not math.isfinite(value) or not 0 < value <= SECONDS_MAX:
        raise argparse.ArgumentTypeError(
            f"expected a number of seconds more than 0 and at most {SECONDS_MAX:g} (a day), not {_quoted(text)}")
    return value


def _quoted(text: str, limit: int = 30) -> str:
    shown = text if len(text) <= limit else text[: limit - 3] + "..."
    return repr(shown)
