"""The base of every error cardcanon raises on bad input (the lowest layer, so every layer can use it)."""

from __future__ import annotations


class CardcanonError(Exception):
    """Base class for every error cardcanon raises on bad input."""
