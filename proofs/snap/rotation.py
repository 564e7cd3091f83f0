"""Turning the table: the premise of SNAP-P1's rotation argument, checked on seeded steps.

SNAP-P1 proves conservation with the flipper at seat 0. That covers every flipper when the
encoding's step commutes with turning the table: from the position turned by ``k`` seats (seat
``s`` becomes seat ``s + k``), the step gives the position after the move, turned by ``k``
seats. :func:`premise_fails` checks this at every table size, on a seeded game's first step of
each kind (a flip, no call, a correct call, a wrong call, a tie) whose flipper is not at seat 0,
each turned so that the flipper sits at seat 0. The reference model only supplies the steps.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import TypeVar

from cardcanon.model.seats import Seat
from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.snap import (
    Call, Flip, Move, Phase, SnapConfig, SnapState, Tie, apply, correct_kinds, legal_moves, new_game, sample_deal,
)
from cardcanon.proofs.snap import encoding as enc
from cardcanon.proofs.snap.search import small_deck

T = TypeVar("T")


def turned_seat(seat: Seat, k: int, n: int) -> Seat:
    return Seat((seat.index + k) % n)


def _turned(items: tuple[T, ...], k: int) -> tuple[T, ...]:
    """Per-seat ``items``: seat ``s``'s item moves to ``s + k``."""
    return tuple(items[(s - k) % len(items)] for s in range(len(items)))


def turned_state(state: SnapState, k: int) -> SnapState:
    n = state.config.players

    def seat(s: Seat | None) -> Seat | None:
        return None if s is None else turned_seat(s, k, n)

    return replace(state, dealer=seat(state.dealer), down=_turned(state.down, k), up=_turned(state.up, k),
                   turn=seat(state.turn))


def turned_move(move: Move, k: int, n: int) -> Move:
    if isinstance(move, Flip):
        return Flip(turned_seat(move.player, k, n))
    if isinstance(move, Call):
        return Call(turned_seat(move.caller, k, n), move.kind)
    if isinstance(move, Tie):
        return Tie(frozenset(turned_seat(s, k, n) for s in move.callers), move.kind)
    return move


def turned_position(pos: enc.Position, k: int, n: int) -> enc.Position:
    return enc.Position(_turned(pos.down, k), _turned(pos.up, k), pos.pot, (pos.turn + k) % n, pos.phase)


def _kinds(state: SnapState, moves: Sequence[Move]) -> dict[Move, str]:
    """The kind of each move from ``state`` (its correct calls asked of the model once)."""
    correct = correct_kinds(state) if any(isinstance(m, Call) for m in moves) else frozenset()
    return {m: ("correct call" if m.kind in correct else "wrong call") if isinstance(m, Call)
            else {Flip: "flip", Tie: "tie"}.get(type(m), "no call") for m in moves}


KINDS = ("flip", "no call", "correct call", "wrong call", "tie")


def sample_steps(config: SnapConfig, seed: int) -> Iterator[tuple[str, SnapState, Move]]:
    """(kind, position, move): the first step of each kind whose flipper is not at seat 0, in up to
    five seeded games of up to 300 flips from ``seed`` on, moves picked among the model's legal
    ones, ties and calls first."""
    seen: set[str] = set()
    for game in range(seed, seed + 5):
        rng = SplitMix64(game)
        state = apply(new_game(config), sample_deal(config, rng))
        while state.phase is not Phase.OVER and state.flips < 300 and len(seen) < len(KINDS):
            options = legal_moves(state)
            kinds = _kinds(state, options)
            rare = [m for m in options if kinds[m] not in seen | {"flip", "no call"}]
            pool = rare if rare and rng.below(2) else list(options)
            move = pool[rng.below(len(pool))]
            kind = kinds[move]
            if kind not in seen and state.player.index != 0:
                seen.add(kind)
                yield kind, state, move
            state = apply(state, move)


def premise_fails(players: tuple[int, ...], config_for: Callable[..., SnapConfig], probe: str | None = None,
                  tick: Callable[[], None] = lambda: None) -> tuple[int, str | None]:
    """(steps checked, the first step at which the encoding does not commute with turning the
    table, in words, or None); ``tick`` is called at each table size (the run's time budget)."""
    checked = 0
    for n in players:
        tick()
        config = config_for(players=n, deck=small_deck(n))
        for kind, state, move in sample_steps(config, seed=100 * n):
            k = (-state.player.index) % n
            after = _encoded_step(state, move, config, probe)
            after_turned = _encoded_step(turned_state(state, k), turned_move(move, k, n), config, probe)
            checked += 1
            if not enc.same_position(after_turned, turned_position(after, k, n)):
                return checked, (f"{n} players, {kind} ({move}) with {state.player} flipping: the encoding's step "
                                 f"from the table turned by {k} seats is not its step turned the same way")
    return checked, None


def _encoded_step(state: SnapState, move: Move, config: SnapConfig, probe: str | None) -> enc.Position:
    sym, mv = enc.concrete_state(state), enc.concrete_move(move, config.players)
    return enc.evaluate(enc.step(sym, mv, config, probe))
