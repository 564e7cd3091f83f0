"""The one game API that both reference models implement.

:mod:`cardcanon.model.hearts` and :mod:`cardcanon.model.snap` each provide these module-level
functions, with the same names and meaning; each module also exposes ``GAME``, an object
satisfying :class:`Game` (``cardcanon.model.records.GameOfModules``, made from the game's
rules module and its records module). A game is a sequence of moves from :func:`Game.new_game`:

- :func:`Game.to_move` is the seat whose turn it is (None at chance nodes and at the end);
- a *chance node* (:func:`Game.is_chance`) is where chance moves next (choosing the dealer,
  shuffling): :func:`Game.legal_moves` returns ``()`` there, :func:`Game.chance_outcomes` lists
  the possible chance moves (all equally likely, lazily: there may be astronomically many) and
  :func:`Game.sample_chance` draws one from a :class:`~cardcanon.model.shuffle.SplitMix64`;
- at a *decision node* :func:`Game.legal_moves` lists the legal moves, and
  :func:`Game.apply` accepts exactly those: any other move of the game raises
  :class:`~cardcanon.model.errors.IllegalMoveError` naming the rule it breaks, and anything that is
  not a move of the game raises :class:`~cardcanon.model.errors.InvalidMoveError`;
- at the end, :func:`Game.outcome` is the game's typed ``Outcome`` (with a ``Termination``)
  and there are no legal moves.

A game is recorded as JSON (:func:`Game.to_record`), read back (:func:`Game.from_record`) and
re-checked move by move (:func:`Game.replay`). Moves are numbered from 1 everywhere. Moves,
tables, positions and outcomes have one JSON form each (``move_to_json``/``move_from_json``,
``config_to_json``/``config_from_json``, ``position_to_json``/``position_from_json``,
``outcome_to_json``), and a table is also made from the
rulebook's option words: ``Config.from_options({"break_on": "void"})``, ``config.options()``,
refusing a wrong option with :class:`~cardcanon.model.errors.OptionError` naming the rule.
Nothing outside a game's own modules needs to know which game it is playing.
"""

from __future__ import annotations

import importlib
import typing
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from cardcanon.model.errors import InvalidMoveError
from cardcanon.model.seats import Seat
from cardcanon.model.shuffle import SplitMix64
from cardcanon.spec.schema import GAMES as GAMES  # every game, in the order reports list them


def game_api(name: str) -> Game[Any, Any, Any, Any]:
    """The ``GAME`` of the loaded model of ``name`` (the reference model, or a model mutant that patches it)."""
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r} (expected one of {', '.join(GAMES)})")
    game: Game[Any, Any, Any, Any] = importlib.import_module(f"cardcanon.model.{name}").GAME
    return game


class CheckedMove:
    """The base of every move of both games, each a frozen dataclass: when a move is made, each
    field is checked against its declared type (a ``tuple[Card, ...]`` or ``frozenset[Seat]`` field
    takes any sequence or set of those and is stored as declared). A field of another type raises
    :class:`~cardcanon.model.errors.InvalidMoveError` naming the move and the field."""

    # each field's name, its container (tuple, frozenset or None) and the type of its value or items
    _field_types: ClassVar[tuple[tuple[str, type | None, type], ...]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        hints = typing.get_type_hints(cls)
        fields = []
        for name in cls.__dict__.get("__annotations__", {}):  # the class's own fields, in order
            declared = hints[name]
            fields.append((name, typing.get_origin(declared), (typing.get_args(declared) or (declared,))[0]))
        cls._field_types = tuple(fields)

    def __post_init__(self) -> None:
        for name, container, kind in self._field_types:
            value = getattr(self, name)
            if container is None:
                if isinstance(value, kind):
                    continue
                wanted = f"a {kind.__name__}"
            else:
                if isinstance(value, (tuple, list, frozenset, set)) and all(isinstance(v, kind) for v in value):
                    object.__setattr__(self, name, container(value))
                    continue
                wanted = f"{'a sequence' if container is tuple else 'a set'} of {kind.__name__}"
            raise InvalidMoveError(f"{type(self).__name__}: {name} must be {wanted}, not {value!r}")


class Config(Protocol):
    """A game's table (``HeartsConfig``, ``SnapConfig``): its variation points and settings."""

    @classmethod
    def from_options(cls, options: Mapping[str, str], **settings: Any) -> Self:
        """The table for the rulebook's option words and other ``settings``; OptionError naming the rule."""
        ...

    def options(self) -> dict[str, str]:
        """Every variation parameter with its option, as the rulebook writes them."""
        ...


#: A game's table (``HeartsConfig``, ``SnapConfig``).
ConfigT = TypeVar("ConfigT", bound=Config)
#: A game's position (``HeartsState``, ``SnapState``).
StateT = TypeVar("StateT")
#: A game's moves (``hearts.Move``, ``snap.Move``).
MoveT = TypeVar("MoveT")
#: A game's outcome (``hearts.Outcome``, ``snap.Outcome``).
OutcomeT = TypeVar("OutcomeT")


@dataclass(frozen=True)
class Record(Generic[ConfigT, MoveT]):
    """A game record read back: the table, the seed (or None), every move, and the recorded result
    (the record's ``result`` object, or None for an unfinished game)."""

    game: str
    config: ConfigT
    seed: int | None
    moves: tuple[MoveT, ...]
    result: Mapping[str, Any] | None


@dataclass(frozen=True)
class ReplayReport:
    """What a replay found: ``ok`` and, when not, the first bad move (``position``, 1-based; one
    more than the number of moves when the recorded result is wrong) and the rule it breaks."""

    game: str
    moves_checked: int
    ok: bool
    error: str | None = None
    rule_id: str | None = None
    position: int | None = None
    summary: str = ""


class Game(Protocol[ConfigT, StateT, MoveT, OutcomeT]):
    """A game as the reference models present it (see the module documentation)."""

    name: str
    Config: type[ConfigT]

    def new_game(self, config: ConfigT) -> StateT:
        """The start of a game at this table: a chance node."""
        ...

    def to_move(self, state: StateT) -> Seat | None:
        """The seat whose turn it is; None at a chance node and at the end."""
        ...

    def is_chance(self, state: StateT) -> bool:
        """Whether chance moves next."""
        ...

    def legal_moves(self, state: StateT) -> tuple[MoveT, ...]:
        """The legal moves of the player to move, in a fixed order; ``()`` at a chance node and at the end."""
        ...

    def chance_outcomes(self, state: StateT) -> Iterator[MoveT]:
        """Every chance move possible at a chance node, each equally likely (none elsewhere)."""
        ...

    def sample_chance(self, state: StateT, rng: SplitMix64) -> MoveT:
        """Draw the chance move of a chance node from ``rng``."""
        ...

    def apply(self, state: StateT, move: MoveT) -> StateT:
        """The state after ``move``; IllegalMoveError (with ``rule_id``) or InvalidMoveError."""
        ...

    def outcome(self, state: StateT) -> OutcomeT | None:
        """How the game ended, or None while it goes on."""
        ...

    # ---- JSON forms (a ``where`` names the place for the RecordError of a malformed value) ----
    def move_to_json(self, move: MoveT) -> dict[str, Any]:
        ...

    def move_from_json(self, obj: Any, where: str) -> MoveT:
        ...

    def move_name(self, move: MoveT) -> str:
        """The kind of move, in words (``deal``, ``play``, ``no call``)."""
        ...

    def config_to_json(self, config: ConfigT) -> dict[str, Any]:
        ...

    def config_from_json(self, obj: Any, where: str) -> ConfigT:
        ...

    def outcome_to_json(self, outcome: OutcomeT | None) -> dict[str, Any] | None:
        ...

    def position_to_json(self, state: StateT) -> dict[str, Any]:
        """The position's one JSON form: what ``cardcanon conform`` shows and a record's ``reaches``
        and ``start`` hold."""
        ...

    def position_from_json(self, config: ConfigT, obj: Any, where: str) -> StateT:
        """The state :func:`position_to_json` writes, at the table ``config``."""
        ...

    # ---- records (:mod:`cardcanon.model.records` runs the loops with these) -------------------------
    def result_to_json(self, state: StateT) -> dict[str, Any] | None:
        """The record's ``result`` for a game that reached ``state``."""
        ...

    def result_problem(self, result: Mapping[str, Any] | None, states: Sequence[StateT],
                       where: str) -> tuple[str, str | None] | None:
        """What is wrong with a recorded result after ``states`` (the last one reached) and the rule, or None."""
        ...

    def summary(self, result: Mapping[str, Any] | None, state: StateT) -> str:
        """A replayed record's result in words."""
        ...

    def to_record(self, config: ConfigT, moves: Sequence[MoveT], seed: int | None = None) -> dict[str, Any]:
        """The JSON record of a game played from :func:`new_game` by ``moves``."""
        ...

    def from_record(self, data: Mapping[str, Any], where: str = "record") -> Record[ConfigT, MoveT]:
        """Read a record's table, seed, moves and result; RecordError naming ``where`` and the place."""
        ...

    def replay(self, data: Mapping[str, Any], where: str = "record") -> ReplayReport:
        """Re-check every move of a record (and, with a seed, every chance move) and its result."""
        ...
