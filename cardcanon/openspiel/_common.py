"""OpenSpiel game parameters read from the rulebook: every variation point of ``spec/<game>.toml`` is a
string parameter with the rulebook's default, checked by the model's ``Config.from_options``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, TypeVar

from cardcanon.envs import options as variations


def specification(game: str, **settings: Any) -> dict[str, Any]:
    """The parameter specification of ``game``: each variation point with its default option,
    then the game's own ``settings`` with their defaults."""
    return {**variations.defaults(game), **settings}


def chosen(game: str, params: Mapping[str, Any]) -> dict[str, str]:
    """The variation options in ``params`` (the rulebook's words); ValueError naming the rule for a wrong one."""
    options, _ = variations.split_options(game, {name: value for name, value in params.items()
                                                 if name in variations.defaults(game)})
    return options


def whole(name: str, value: Any, low: int, high: int | None = None) -> int:
    """An integer parameter in ``low..high``; ValueError in one line otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        span = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise ValueError(f"{name} must be a whole number {span}, not {value!r}")
    return value


def one_of(name: str, value: Any, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
    return str(value)


T = TypeVar("T")


class Shared(Generic[T]):
    """An immutable value that a state's clones share: OpenSpiel clones a Python state with
    ``copy.deepcopy``, which would otherwise copy every card of the model's state at every step."""

    __slots__ = ("value",)

    def __init__(self, value: T) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> Shared[T]:
        return self


def shared(name: str) -> property:
    """A state attribute kept in a :class:`Shared` box under ``_name`` (set it to a new value, never mutate it)."""
    def get(self: Any) -> Any:
        return getattr(self, f"_{name}").value

    def put(self: Any, value: Any) -> None:
        setattr(self, f"_{name}", Shared(value))

    return property(get, put)


def saw(histories: tuple[str, ...], who: int | None, text: str) -> tuple[str, ...]:
    """Each player's history as text (his information-state string), after ``text`` seen by ``who``
    (or by every player: None)."""
    return tuple(history if who not in (None, seat) else f"{history}; {text}" if history else text
                 for seat, history in enumerate(histories))
