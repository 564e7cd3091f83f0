"""Concrete play through the reference model, for the Snap searches and replays.

Every move is applied with :func:`cardcanon.model.snap.apply`, so a game found here is a
replay through the model by construction; :func:`replay_moves` replays a recorded game once
more from the first position, with no policy involved.

"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.snap import Deal, Flip, Move, Phase, SnapConfig, SnapState, apply, new_game

@dataclass(frozen=True)
class Played:
    moves: tuple[Move, ...]
    final: SnapState
    cycle: tuple[int, int] | None = None  # (flips before the repeated position, flips per cycle)
    stopped: bool = False  # the ``stop`` predicate held at ``final``

    @property
    def capped(self) -> bool:
        return self.final.phase is not Phase.OVER and self.cycle is None and not self.stopped


def play(config: SnapConfig, deal: Deal, choose: Callable[[SnapState, SplitMix64], Move], rng: SplitMix64, *,
         max_flips: int, deterministic: bool = True, stop: Callable[[SnapState], bool] | None = None) -> Played:
    """Play ``deal`` with a calling policy until the end, a repeated position (deterministic
    play only), ``stop`` or ``max_flips`` flips."""
    state = apply(new_game(config), deal)
    moves: list[Move] = [deal]
    seen: dict[tuple[object, ...], int] | None = {} if deterministic else None
    while state.phase is not Phase.OVER:
        if stop is not None and stop(state):
            return Played(tuple(moves), state, stopped=True)
        if state.phase is Phase.FLIP:
            if seen is not None:
                key = state.position_key()
                if key in seen:
                    return Played(tuple(moves), state, cycle=(seen[key], state.flips - seen[key]))
                seen[key] = state.flips
            if state.flips >= max_flips:
                break
            move: Move = Flip(state.player)
        else:
            move = choose(state, rng)
        state = apply(state, move)
        moves.append(move)
    return Played(tuple(moves), state)


def replay_moves(config: SnapConfig, moves: tuple[Move, ...]) -> list[SnapState]:
    """Every position of a recorded game, from the deal on, applied with the model."""
    states = [new_game(config)]
    for move in moves:
        states.append(apply(states[-1], move))
    return states
