"""Errors raised by the reference models. Each names the rule it enforces."""

from __future__ import annotations


class CardcanonError(Exception):
    """Base class for every error cardcanon raises on bad input."""


class IllegalMoveError(CardcanonError):
    """A move that the rules forbid in this state. ``rule_id`` names the rule it breaks."""

    def __init__(self, rule_id: str, message: str) -> None:
        super().__init__(f"{rule_id}: {message}")
        self.rule_id = rule_id
        self.message = message


class RecordError(CardcanonError):
    """A malformed game record. The message names the file, the place and the problem."""

    def __init__(self, where: str, message: str, *, rule_id: str | None = None, position: int | None = None) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message
        self.rule_id = rule_id
        self.position = position
