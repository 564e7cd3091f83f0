"""Concrete play through the reference model, for the Snap searches and replays.

Every move is applied with :func:`cardcanon.model.snap.apply`, so a game found here is a
replay through the model by construction; :func:`replay_moves` replays a recorded game once
more from the first position, with no policy involved.

Mutant ``turnover-shuffle`` (SNAP-FLIP-3 broken: the face-up pile is shuffled before it is
turned over) is applied as a rewrite of the position before each such flip; a shuffled game
is no longer determined by its position, so no repetition is then taken as a cycle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.snap import Deal, Flip, Move, Phase, SnapConfig, SnapState, apply, new_game

MUTANT_SHUFFLE = "turnover-shuffle"


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
         max_flips: int, deterministic: bool = True, mutant: str | None = None,
         stop: Callable[[SnapState], bool] | None = None) -> Played:
    """Play ``deal`` with a calling policy until the end, a repeated position (deterministic
    play only), ``stop`` or ``max_flips`` flips."""
    state = apply(new_game(config), deal)
    moves: list[Move] = [deal]
    seen: dict | None = {} if deterministic and mutant != MUTANT_SHUFFLE else None
    shuffler = SplitMix64(0x5EED)
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
            if mutant == MUTANT_SHUFFLE and not state.down[state.player.index]:
                i = state.player.index
                up = state.up[:i] + (shuffler.shuffled(state.up[i]),) + state.up[i + 1:]
                state = replace(state, up=up)
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
