"""What the vectors are about, read from the reference models' states: the rules each vector
exercises, the moves that are illegal at a position (with the rule each breaks), the named edge
positions, the golden games and the lines built by hand. Used by :mod:`cardcanon.conform.vectors`.

The loops here serve both games; what each game adds is its :class:`GameCases`
(:mod:`cardcanon.conform.cases_hearts`, :mod:`cardcanon.conform.cases_snap`).
"""

from __future__ import annotations

from typing import Any, Protocol

from cardcanon.conform import cases_hearts, cases_snap, overlaps
from cardcanon.conform.adapter import Json, Position, config_from_json, deal, illegal_rule
from cardcanon.conform.reached import Reached
from cardcanon.model.shuffle import SplitMix64

__all__ = ["GameCases", "Reached", "candidate_moves", "cases_of", "context_rules", "edge_positions", "extra_illegal_cases",
           "forbidden_moves", "game_rules", "golden_games", "hand_built_lines", "has_ties"]


class GameCases(Protocol):
    """A game's part of the vectors."""

    SHUFFLE_RULES: list[str]  # the rules a shuffle vector exercises
    DEAL_RULES: list[str]  # ... a deal vector
    DEAL_FIELDS: dict[str, list[str]]  # each field of a deal's answer -> the rules that decide it
    PERFT_RULES: list[str]  # ... a perft vector
    VARIANT_PLAYERS: int  # the table of the variants' files
    TABLES: list[tuple[str, int, dict[str, Any]]]  # the files of the default rules: name, players, FileSpec options

    def context_rules(self, position: Position) -> list[str]:
        """The rules that decide the legal moves at ``position``."""
        ...

    def has_ties(self, position: Position) -> bool:
        """A call window where several players may tie (the legal moves then list every tie)."""
        ...

    def candidate_moves(self, position: Position, ties: bool, chance: bool) -> list[Json]:
        """The legal moves and the plausible mistakes at ``position`` (with ``chance``, chance moves too)."""
        ...

    def out_of_place(self, config_json: Json, dealt: list[Json]) -> list[tuple[list[Json], Json]]:
        """Illegal chance moves and moves out of place: (prefix, move), after ``dealt`` (a seed's chance moves)."""
        ...

    def choose(self, position: Position, legal: tuple[Any, ...], rng: SplitMix64) -> Any:
        """The move the vectors' random games play among ``legal``."""
        ...

    def edge_positions(self, start: Position, positions: list[Reached]) -> list[tuple[str, str, Reached | None]]:
        """The named edge positions (name, what it shows, position or None where none was found)."""
        ...

    def hand_built_lines(self, start: Position, positions: list[Reached]) -> list[tuple[str, list[Json]]]:
        """Move sequences built from the rulebook where the random games do not go."""
        ...

    def golden_games(self, config: Any, max_moves: int, few: bool) -> list[tuple[str, str, list[Json]]]:
        """Complete games: (id, what it shows, every move)."""
        ...

    def games_after_lines(self, start: Position, positions: list[Reached],
                          max_moves: int) -> list[tuple[str, str, list[Json], int]]:
        """Complete games that begin with a line built by hand: (id, what it shows, every move,
        the length of the line; the rules its last move applies come first in the vector's)."""
        ...

    def game_rules(self, states: list[Any], moves: list[Json]) -> list[str]:
        """The rules a complete game (its ``states``, first to last) exercises."""
        ...


CASES: dict[str, GameCases] = {"hearts": cases_hearts, "snap": cases_snap}


def cases_of(game: str) -> GameCases:
    """The part of the vectors that is ``game``'s own."""
    return CASES[game]


def context_rules(position: Position) -> list[str]:
    """The rules that decide the legal moves at ``position``."""
    return cases_of(position.game).context_rules(position)


def has_ties(position: Position) -> bool:
    """A call window where several players may tie (the legal moves then list every tie)."""
    return cases_of(position.game).has_ties(position)


# ---- forbidden moves ---------------------------------------------------------------------------
def candidate_moves(position: Position, ties: bool = True, chance: bool = True) -> list[Json]:
    """Moves worth trying at ``position``: the legal ones and the plausible mistakes (with
    ``chance``, chance moves too even where players move)."""
    return cases_of(position.game).candidate_moves(position, ties, chance or position.is_chance())


def forbidden_moves(position: Position, ties: bool = True, chance: bool = False) -> list[Json]:
    """The candidate moves that are illegal here, each with the rule it breaks."""
    out = []
    for move in candidate_moves(position, ties, chance):
        rule = illegal_rule(position, move)
        if rule is not None:
            also = overlaps.equally_right(position, move, rule)
            out.append({"move": move, "rule": rule, **({"also": also} if also else {})})
    return out


def extra_illegal_cases(game: str, config_json: Json) -> list[tuple[list[Json], Json, str]]:
    """Illegal chance moves and moves out of place: (prefix, move, rule)."""
    start = Position.start(game, config_json)
    found: list[tuple[list[Json], Json, str]] = []
    for prefix, move in cases_of(game).out_of_place(config_json, deal(game, config_json, 1)["moves"]):
        rule = illegal_rule(start.apply_all(prefix), move)
        if rule is None:
            raise ValueError(f"expected {move} to be illegal after {len(prefix)} moves")
        found.append((prefix, move, rule))
    return found


# ---- positions the vectors are about -----------------------------------------------------------
def edge_positions(game: str, config_json: Json, positions: list[Reached]) -> list[tuple[str, str, Reached]]:
    """The named edge positions of a game: (name, what it shows, position); most are the ones with
    the shortest prefix among ``positions``, a few are built on purpose."""
    start = Position.start(game, config_json)
    found = [("start", "the start of the game: a chance node", Reached((), start)),
             *cases_of(game).edge_positions(start, positions)]
    return [(name, about, reached) for name, about, reached in found if reached is not None]


def hand_built_lines(game: str, config_json: Json, positions: list[Reached]) -> list[tuple[str, list[Json]]]:
    """Move sequences built from the rulebook where the random games do not go: (what it shows,
    moves)."""
    return cases_of(game).hand_built_lines(Position.start(game, config_json), positions)


# ---- golden games ------------------------------------------------------------------------------
def golden_games(game: str, config_json: Json, max_moves: int, few: bool = False) -> list[tuple[str, str, list[Json]]]:
    """Complete games: (id, what it shows, every move). With ``few``, only the most eventful one."""
    return cases_of(game).golden_games(config_from_json(game, config_json), max_moves, few)


def game_rules(game: str, moves: list[Json], config_json: Json) -> list[str]:
    """The rules a complete game exercises: the ones every game needs and those its events show."""
    position = Position.start(game, config_json)
    states = [position.state]
    for move in moves:
        position = position.apply(move)
        states.append(position.state)
    return cases_of(game).game_rules(states, moves)
