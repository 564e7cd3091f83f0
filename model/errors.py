"""Errors raised by the reference models. A rule-breaking move names the rule it breaks."""

from __future__ import annotations

from cardcanon.spec.errors import CardcanonError

__all__ = ["CardcanonError", "IllegalMoveError", "InvalidMoveError", "NotModelledError", "OptionError", "RecordError"]


class IllegalMoveError(CardcanonError):
    """A move of this game that the rules forbid in this state. ``rule_id`` names the rule it breaks."""

    def __init__(self, rule_id: str, message: str) -> None:
        super().__init__(f"{rule_id}: {message}")
        self.rule_id = rule_id
        self.message = message


class InvalidMoveError(CardcanonError, ValueError):
    """Not a move of this game at all (a wrong type, or a move built from malformed parts)."""


class OptionError(CardcanonError, ValueError):
    """A table the game cannot be played at: an unknown variation parameter or option, a wrongly
    typed config field, a number of players out of range. ``rule_id`` names the rule that declares
    the variation point or the number (None for a parameter no rule declares)."""

    def __init__(self, rule_id: str | None, message: str) -> None:
        super().__init__(message if rule_id is None else f"{rule_id}: {message}")
        self.rule_id = rule_id
        self.message = message


class NotModelledError(OptionError, NotImplementedError):
    """A variation option the rulebook lists but the reference model does not play. ``rule_id``
    names the rule that declares the variation point."""

    rule_id: str

    def __init__(self, rule_id: str, message: str) -> None:
        super().__init__(rule_id, message)


class RecordError(CardcanonError):
    """A malformed game record. The message names the file, the place and the problem."""

    def __init__(self, where: str, message: str, *, rule_id: str | None = None, position: int | None = None) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message
        self.rule_id = rule_id
        self.position = position
