"""The OpenSpiel games behind the conformance protocol: ``cardcanon conform -- python -m cardcanon.openspiel.conform``.

Every position is an OpenSpiel state of ``python_cardcanon_hearts(scope=match)`` or
``python_cardcanon_snap(calling_policy=race)`` at the vector's table, reached by OpenSpiel actions:
a game record's moves become chance outcomes (the dealer, then the deal card by card), card
plays, flips, and for a call event the players' simultaneous calls, then, for a race of two or
more correct callers, the race's chance outcome. The legal moves are read from the state's legal
actions (and the race's outcomes); ``show`` and ``outcome`` are the position the state stepped
to. The rule an illegal move breaks is named by the reference model, as the environments name
it. ``shuffle`` and ``deal`` are about seeds, which OpenSpiel games do not take: they are answered
by :mod:`cardcanon.conform.adapter`. ``--engine`` chooses the engine the states step on (the games'
``engine`` parameter, ``kernel-or-model`` by default); on the kernel, ``show`` is the position read
back from it.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import pyspiel

from cardcanon import __version__
from cardcanon.conform import adapter, positions, session
from cardcanon.conform.protocol import serve
from cardcanon.engine.build import EngineUnavailable
from cardcanon.envs._engine import ENGINES
from cardcanon.envs.snap_v0 import KIND_OF_ACTION, SnapAction
from cardcanon.model import hearts, snap
from cardcanon.model.errors import IllegalMoveError, InvalidMoveError, RecordError
from cardcanon.model.seats import Seat
from cardcanon.openspiel import engines
from cardcanon.openspiel.snap import ACTION_OF_KIND, small_deck

NO_CAP = {"hearts": {"max_hands": 10**6}, "snap": {"max_moves": 10**9}}  # conformance games are never truncated


def load(game: str, config_json: Any, engine: str = engines.DEFAULT) -> Any:
    """The OpenSpiel game of the vector's table, its states on ``engine``; ValueError when it cannot be one."""
    config = adapter.config_from_json(game, config_json)
    params: dict[str, Any] = {**config.options(), **NO_CAP[game], "engine": engine}
    if game == "hearts":
        params.update(scope="match", target=config.target)
    else:
        ranks, suits = len({card.rank for card in config.deck}), len({card.suit for card in config.deck})
        if small_deck(ranks, suits) != config.deck:
            raise ValueError("python_cardcanon_snap plays the lowest ranks of the first suits, not this deck")
        params.update(players=config.players, ranks=ranks, suits=suits, calling_policy="race")
    return pyspiel.load_game(f"python_cardcanon_{game}", params)


def apply(state: Any, game: str, move: Any) -> Any:
    """The state after the model's ``move``, reached by OpenSpiel actions on a clone. An illegal
    move raises the reference model's IllegalMoveError (its rule); a malformed one InvalidMoveError."""
    model = adapter.MODELS[game]
    model.apply(state.model, move)  # the rule an illegal move breaks
    child = state.clone()
    for step in actions(state, game, move):
        if isinstance(step, list):
            child.apply_actions(step)
        else:
            child.apply_action(step)
    return child


def actions(state: Any, game: str, move: Any) -> list[Any]:
    """The OpenSpiel actions of a legal move: numbers, or a list for a simultaneous node."""
    if isinstance(move, (hearts.ChooseDealer,)):
        return [move.dealer.index]
    if isinstance(move, hearts.Deal):
        return [hearts.DECK.index(card) for card in move.order]
    if isinstance(move, hearts.Play):
        return [hearts.DECK.index(move.card)]
    deck = state.config.deck
    if isinstance(move, snap.Deal):
        return [move.dealer.index] + [deck.index(card) for card in move.order]
    if isinstance(move, snap.Flip):
        return [int(SnapAction.FLIP)]
    calls = [int(SnapAction.PASS)] * state.config.players
    if isinstance(move, snap.Call):
        calls[move.caller.index] = int(ACTION_OF_KIND[move.kind])
        return [calls]
    if isinstance(move, snap.Tie):
        for seat in move.callers:
            calls[seat.index] = int(ACTION_OF_KIND[move.kind])
        return [calls, sum(1 << seat.index for seat in move.callers)]
    return [calls]  # NoCall


def legal_moves(state: Any, game: str) -> list[Any]:
    """The legal moves, as the model's moves, read from the state's legal actions."""
    if state.is_terminal():
        return []
    if game == "hearts":
        return [hearts.Play(Seat(state.current_player()), hearts.DECK[a]) for a in state.legal_actions()]
    if not state.is_simultaneous_node():
        return [snap.Flip(Seat(state.current_player()))]
    players = state.config.players
    moves: list[Any] = [snap.NoCall()]
    moves += [snap.Call(Seat(seat), KIND_OF_ACTION[SnapAction(a)]) for seat in range(players)
              for a in state.legal_actions(seat) if a != SnapAction.PASS]
    for kind in state.config.kinds:  # ties: every holder calls; the race's outcomes of two or more
        calls = [int(ACTION_OF_KIND[kind]) if len(state.legal_actions(seat)) > 1 else int(SnapAction.PASS)
                 for seat in range(players)]
        child = state.clone()
        child.apply_actions(calls)
        if child.is_chance_node():
            moves += [snap.Tie(frozenset(Seat(s) for s in range(players) if mask >> s & 1), kind)
                      for mask, _ in child.chance_outcomes() if mask & (mask - 1)]
    return moves


def perft(state: Any, game: str, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(apply(state, game, move), game, depth - 1) for move in legal_moves(state, game))


class Session(session.Session):
    """One protocol session over an OpenSpiel state (see :mod:`cardcanon.conform.reference`)."""

    def __init__(self, engine: str = engines.DEFAULT) -> None:
        super().__init__()
        self.engine = engine
        self.spiel: Any = None
        self.state: Any = None

    def start(self, game: str, config: Any) -> str:
        try:
            self.spiel = load(game, config, self.engine)
        except (pyspiel.SpielError, EngineUnavailable) as exc:  # answered as unsupported
            raise ValueError(str(exc)) from None
        self.state = self.spiel.new_initial_state()
        return f"cardcanon {__version__} OpenSpiel games (python_cardcanon_{game})"

    def set_position(self, moves: list[Any]) -> dict[str, Any]:
        state = self.spiel.new_initial_state()
        for number, move in enumerate(moves, start=1):
            answer = self._apply(state, move)
            if "ok" not in answer:
                return {**answer, "at": number}
            state = answer["ok"]
        self.state = state
        return {"ok": True}

    def legal(self) -> dict[str, Any]:
        if self.state.is_chance_node():
            return {"chance": True}
        return {"moves": [adapter.MODELS[self.game].move_to_json(m) for m in legal_moves(self.state, self.game)]}

    def apply(self, move: Any) -> dict[str, Any]:
        answer = self._apply(self.state, move)
        if "ok" in answer:
            self.state, answer = answer["ok"], {"ok": True}
        return answer

    def show(self) -> Any:
        return positions.position_json(self.game, self.state.model)

    def outcome(self) -> Any:
        model = adapter.MODELS[self.game]
        return model.outcome_to_json(model.outcome(self.state.model))

    def perft(self, depth: int) -> int:
        return perft(self.state, self.game, depth)

    def _apply(self, state: Any, move_json: Any) -> dict[str, Any]:
        model = adapter.MODELS[self.game]
        try:
            move = model.move_from_json(move_json, "move")
            return {"ok": apply(state, self.game, move)}
        except IllegalMoveError as exc:
            return {"illegal": exc.rule_id}
        except (InvalidMoveError, RecordError, ValueError) as exc:
            return {"invalid": str(exc)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cardcanon.openspiel.conform",
                                     description="The conformance protocol over the OpenSpiel games' states.")
    parser.add_argument("--engine", choices=ENGINES, default=engines.DEFAULT,
                        help="the engine the states step on (the games' engine parameter)")
    return serve(Session(parser.parse_args(argv).engine).handle)


if __name__ == "__main__":
    sys.exit(main())
