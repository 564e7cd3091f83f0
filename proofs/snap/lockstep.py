"""Playing a Snap position with a named policy in lockstep with the rulebook's text
(:mod:`cardcanon.proofs.snap.rulebook_text`): shared by the checks that compare the policies."""

from __future__ import annotations

from dataclasses import dataclass

from cardcanon.model import snap as model
from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.snap import Flip, Move, Phase, SnapConfig, SnapState, Tie
from cardcanon.model.snap_policies import parse_policy
from cardcanon.proofs.snap import rulebook_text as snap_text


@dataclass(frozen=True)
class Lockstep:
    """One policy played in lockstep with the text: the moves, and the first disagreement."""

    moves: tuple[Move, ...]
    final: SnapState
    problem: str = ""
    windows: int = 0
    big_ties: int = 0  # ties among 3 or more players


def lockstep(state: SnapState, policy: str, rng: SplitMix64, text_rng: snap_text.Generator, windows: int) -> Lockstep:
    """Play ``windows`` call windows from ``state`` (in its call phase, or at a flip). After the
    first window whose draws differ from the text's, play on (up to ``windows`` more) until a
    choice differs too, so that the record shows the difference as a move."""
    chooser = parse_policy(policy)
    moves: list[Move] = []
    seen = big = 0
    drift = ""
    while state.phase is not Phase.OVER and seen < windows:
        if state.phase is Phase.FLIP:
            move: Move = Flip(state.player)
        else:
            expected = snap_text.choose(policy, snap_text.window(state), text_rng)
            move = chooser.choose(state, rng)
            seen += 1
            big += isinstance(move, Tie) and len(move.callers) >= 3
            if move != expected:
                moves.append(move)
                what = f"{policy}, window {seen}: the model: {move}; the text: {expected}"
                problem = f"{drift}; then {what}" if drift else what
                return Lockstep(tuple(moves), model.apply(state, move), problem, seen, big)
            if rng.state != text_rng.state and not drift:
                drift = f"{policy}, window {seen}: the model draws other numbers than the text"
                windows = seen + windows
        moves.append(move)
        state = model.apply(state, move)
    return Lockstep(tuple(moves), state, drift, seen, big)


def first_repeat(moves: tuple[Move, ...], config: SnapConfig) -> tuple[int, int] | None:
    """The text's repetition (SNAP-END-4): the first flip position whose piles, pot and turn recur."""
    state = model.new_game(config)
    seen: dict[tuple[object, ...], int] = {}
    for move in moves:
        state = model.apply(state, move)
        if state.phase is Phase.FLIP:
            key = (state.turn, state.down, state.up, state.pot)
            if key in seen:
                return seen[key], state.flips - seen[key]
            seen[key] = state.flips
    return None
