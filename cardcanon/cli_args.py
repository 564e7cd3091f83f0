"""Argument types of the command line: every number range-checked, with one clear message.

Used as ``type=`` in argparse, so a bad value ends with ``cardcanon ...: error: argument
--seed: ...`` and exit status 2 before any work starts. Numbers are written in ASCII digits
only (``int`` and ``float`` would also take Arabic-Indic or full-width digits).
"""

from __future__ import annotations

import argparse
import math
import os
import re
from collections.abc import Callable
from pathlib import Path

SEED_MAX = 2**64 - 1  # seeds are taken modulo 2**64 (SplitMix64), so larger ones would repeat smaller ones
SECONDS_MAX = 86_400.0  # a time limit longer than a day is a typing mistake
_INTEGER = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def whole_number(text: str) -> int | None:
    """``text`` as an integer if it is one in ASCII digits (spaces around allowed), else None."""
    text = text.strip()
    return int(text, 10) if _INTEGER.fullmatch(text) else None


def decimal_number(text: str) -> float | None:
    """``text`` as a finite float if it is a decimal number in ASCII digits, else None (so no nan or inf)."""
    text = text.strip()
    return float(text) if _DECIMAL.fullmatch(text) else None


def integer(text: str) -> int:
    """An argparse type: a whole number in ASCII digits (the caller checks its range, naming the rule)."""
    value = whole_number(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"expected a whole number in digits 0-9, not {quoted(text)}")
    return value


def integer_range(low: int, high: int | None = None, what: str = "a whole number") -> Callable[[str], int]:
    """An argparse type: an integer from ``low`` to ``high`` (inclusive)."""
    def parse(text: str) -> int:
        value = integer(text)
        if value < low or (high is not None and value > high):
            bound = f"from {low} to {high}" if high is not None else f"of at least {low}"
            raise argparse.ArgumentTypeError(f"expected {what} {bound}, not {quoted(text)}")
        return value
    parse.__name__ = what  # argparse names the type in its messages
    return parse


seed = integer_range(0, SEED_MAX, "a seed")
positive_int = integer_range(1, None, "a whole number")


def seconds(text: str) -> float:
    """A time limit: a number of seconds, more than 0 and at most a day."""
    return _seconds(text, allow_zero=False)


def seconds_or_zero(text: str) -> float:
    """A time limit that may be 0, and at most a day."""
    return _seconds(text, allow_zero=True)


def _seconds(text: str, allow_zero: bool) -> float:
    value = decimal_number(text)
    low = "at least 0" if allow_zero else "more than 0"
    if value is None or not math.isfinite(value) or value < 0 or (value == 0 and not allow_zero) \
            or value > SECONDS_MAX:
        raise argparse.ArgumentTypeError(
            f"expected a number of seconds {low} and at most {SECONDS_MAX:g} (a day), not {quoted(text)}")
    return value


def policy_name(text: str) -> str:
    """A Snap calling policy (``flipper-first``, ``ties:0.1``, ...), its rate in ASCII digits."""
    from cardcanon.model.snap_policies import parse_policy

    head, sep, rate = text.partition(":")
    if sep and decimal_number(rate) is None:
        raise argparse.ArgumentTypeError(f"policy {quoted(text)}: the rate is a number from 0 to 1 in digits 0-9, "
                                         f"such as {head}:0.1")
    try:
        return parse_policy(text).name
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def nonempty(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a value, not an empty string")
    return text


def output_file(text: str) -> str:
    """A file to write: not empty, not a folder, in a folder that exists and may be written."""
    return check_output_file(text, argparse.ArgumentTypeError)


def _stat_error(text: str, exc: OSError) -> str:
    return f"cannot write {quoted(text)}: {(exc.strerror or str(exc)).lower()}"


def output_file_or_stdout(text: str) -> str:
    """As :func:`output_file`, or ``-`` for standard output."""
    return text if text == "-" else output_file(text)


def output_folder(text: str) -> Path:
    """A folder to write into: not empty, not a file, and (where it does not exist yet) one that can be made."""
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a folder name, not an empty string")
    path = Path(text)
    try:
        existing = next((p for p in (path.resolve(), *path.resolve().parents) if p.exists()), Path("/"))
        usable = existing.is_dir() and os.access(existing, os.W_OK | os.X_OK)
    except (OSError, ValueError) as exc:  # e.g. a name too long for the file system
        raise argparse.ArgumentTypeError(_stat_error(text, exc) if isinstance(exc, OSError)
                                         else f"cannot write into {quoted(text)}") from None
    if not existing.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write into {quoted(text)}: {quoted(str(existing), 60)} is a file")
    if not usable:
        raise argparse.ArgumentTypeError(f"cannot write into {quoted(text)}: permission denied")
    return path


def check_output_file(text: str, error: type[Exception] = ValueError) -> str:
    """``text`` if a file can be written there (checked before any work starts); ``error`` otherwise."""
    if not text.strip():
        raise error("expected a file name, not an empty string")
    if text == "-":
        raise error("expected a file name ('-' for standard output is not offered here)")
    path = Path(text)
    try:
        folder = path.resolve().parent
        if path.is_dir():
            raise error(f"{quoted(text)} is a folder, not a file")
        if not folder.is_dir():
            raise error(f"cannot write {quoted(text)}: no such folder {folder}")
        if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
            raise error(f"cannot write {quoted(text)}: permission denied")
    except (OSError, ValueError) as exc:  # e.g. a name too long for the file system
        if isinstance(exc, error):
            raise
        raise error(_stat_error(text, exc) if isinstance(exc, OSError) else f"cannot write {quoted(text)}") from None
    return text


def quoted(text: str, limit: int = 30) -> str:
    shown = text if len(text) <= limit else text[: limit - 3] + "..."
    return repr(shown)

