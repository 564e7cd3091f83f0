"""OpenSpiel game parameters read from the rulebook: every variation point of ``spec/<game>.toml`` is a
string parameter with the rulebook's default, checked by the model's ``Config.from_options``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Generic, TypeVar

import numpy as np
import pyspiel

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


def game_type(short_name: str, long_name: str, dynamics: Any, utility: Any, players: tuple[int, int],
              parameters: dict[str, Any]) -> Any:
    """An OpenSpiel game type of cardcanon: explicit chance (the deal card by card), imperfect
    information, terminal rewards, and every observer string and tensor provided."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=dynamics,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        min_num_players=players[0],
        max_num_players=players[1],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


class Observer:
    """A player's observation, or with ``perfect_recall`` his information state: ``tensor`` is the
    environments' observation vector (``size`` numbers, in the named ``parts``), then, for the
    information state, the ``recall`` parts; ``dict`` names each part's slice of ``tensor``."""

    def __init__(self, game: str, iig_obs_type: Any, params: Any, parts: Sequence[tuple[str, int]],
                 recall: Sequence[tuple[str, int]]) -> None:
        if params:
            raise ValueError(f"{game}: observers take no parameters, not {params!r}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError(f"{game}: observers see what one player sees (public and his private information)")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.size = sum(size for _, size in parts)
        pieces = [*parts, *(recall if self.perfect_recall else ())]
        self.tensor = np.zeros(sum(size for _, size in pieces), np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        start = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[start:start + size]
            start += size


class TableState(pyspiel.State):  # type: ignore[misc]
    """A state over the table of the engine that plays (``cardcanon.openspiel.engines``), with
    each player's history as text (``seen``)."""

    table: Any
    seen = shared("seen")

    @property
    def model(self) -> Any:
        """The reference model's position (on the kernel, read back from it)."""
        return self.table.model

    def _saw(self, who: int | None, text: str) -> None:
        self.seen = saw(self.seen, who, text)
