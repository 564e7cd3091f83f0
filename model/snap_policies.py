"""Calling policies: who wins the race in each Snap call window, and whole seeded games.

The model lists every call event (SNAP-CALL-3); a policy picks one, so a seed and a policy
give a reproducible game. Named policies (``parse_policy``), defined exactly by the rulebook's
rules SNAP-POLICY-1 to SNAP-POLICY-5:

- ``flipper-first``: everyone calls correctly; the flipper wins the race when he may call,
  else the first player clockwise from him who may (SNAP-CALL-2).
- ``owner-first``: the owner of the first matched pile clockwise from the flipper wins;
  for a pot-only match, the flipper.
- ``ties:RATE``: as flipper-first, but with probability RATE a correct race is a tie of
  two or more players (no ties with the index card, SNAP-INDEX-1).
- ``errors:RATE``: with probability RATE per flip a random player still in the game makes a
  wrong call (a kind that is wrong now, if one exists); otherwise as flipper-first. The wrong
  call closes the call window (SNAP-CALL-3), so a match made by that flip lapses.

When both "Snap!" and "Snap Pot!" are correct, every policy calls "Snap Pot!".
Random policies draw from the same SplitMix64 stream as the deal. ``play_game`` plays one
seeded game (``cardcanon.engine.snap.find_cycle`` searches for one that never ends, SNAP-END-4).
How often games end is measured by ``cardcanon analyze snap`` (the fast engine), not here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from cardcanon.model.records import FORMAT, VERSION
from cardcanon.model.seats import Seat
from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.snap import (
    Call, CallKind, Deal, Flip, Move, NoCall, Outcome, Phase, SnapConfig, SnapState, Tie, apply,
    correct_kinds, matched_seats, new_game, sample_deal,
)
from cardcanon.model.snap_records import config_to_json, move_to_json, result_to_json

_TWO64 = 1 << 64


class Policy(Protocol):
    """A calling policy: its name, whether it draws from the stream, and its choice of call event."""

    @property
    def name(self) -> str: ...

    @property
    def deterministic(self) -> bool: ...

    def choose(self, state: SnapState, rng: SplitMix64) -> Move: ...


def _preferred_kind(state: SnapState) -> CallKind | None:
    correct = correct_kinds(state)
    for kind in (CallKind.SNAP_POT, CallKind.SNAP, CallKind.HAND):
        if kind in correct:
            return kind
    return None


def _first_caller_from(state: SnapState, seat: Seat) -> Seat:
    while not state.holds(seat):
        seat = seat.left(state.config.players)
    return seat


def draw_chance(rng: SplitMix64, rate: float) -> bool:
    return rng.next() < int(rate * _TWO64)


@dataclass(frozen=True)
class FlipperFirst:
    name: str = "flipper-first"
    deterministic: bool = True

    def choose(self, state: SnapState, rng: SplitMix64) -> Move:
        kind = _preferred_kind(state)
        return NoCall() if kind is None else Call(_first_caller_from(state, state.player), kind)


@dataclass(frozen=True)
class OwnerFirst:
    name: str = "owner-first"
    deterministic: bool = True

    def choose(self, state: SnapState, rng: SplitMix64) -> Move:
        kind = _preferred_kind(state)
        if kind is None:
            return NoCall()
        matched = matched_seats(state)
        if kind is CallKind.SNAP_POT or not matched:
            return Call(_first_caller_from(state, state.player), kind)
        return Call(matched[0], kind)


@dataclass(frozen=True)
class Ties:
    rate: float

    @property
    def name(self) -> str:
        return f"ties:{self.rate:g}"

    deterministic: bool = False

    def choose(self, state: SnapState, rng: SplitMix64) -> Move:
        kind = _preferred_kind(state)
        if kind is None:
            return NoCall()
        callers = state.in_game
        if not state.config.index_card and draw_chance(rng, self.rate):
            size = 2 + rng.below(len(callers) - 1)  # 2 .. all players in the game
            pool = rng.shuffled(callers)
            return Tie(frozenset(pool[:size]), kind)
        return Call(_first_caller_from(state, state.player), kind)


@dataclass(frozen=True)
class Errors:
    rate: float

    @property
    def name(self) -> str:
        return f"errors:{self.rate:g}"

    deterministic: bool = False

    def choose(self, state: SnapState, rng: SplitMix64) -> Move:
        wrong = [k for k in state.config.kinds if k not in correct_kinds(state)]
        if wrong and draw_chance(rng, self.rate):
            callers = state.in_game
            return Call(callers[rng.below(len(callers))], wrong[rng.below(len(wrong))])
        return FlipperFirst().choose(state, rng)


POLICY_NAMES = ("flipper-first", "owner-first", "ties:RATE", "errors:RATE")


def parse_policy(text: str) -> Policy:
    """``flipper-first``, ``owner-first``, ``ties:RATE`` or ``errors:RATE`` (0 <= RATE <= 1)."""
    expected = f"expected one of {', '.join(POLICY_NAMES)} with RATE between 0 and 1"
    if text == "flipper-first":
        return FlipperFirst()
    if text == "owner-first":
        return OwnerFirst()
    head, sep, rate_text = str(text).partition(":")
    if sep and head in ("ties", "errors"):
        try:
            rate = float(rate_text)
        except ValueError:
            raise ValueError(f"policy {text!r}: {rate_text!r} is not a number; {expected}") from None
        if not 0.0 <= rate <= 1.0:
            raise ValueError(f"policy {text!r}: rate {rate_text} is outside 0..1; {expected}")
        return Ties(rate) if head == "ties" else Errors(rate)
    raise ValueError(f"unknown policy {text!r}; {expected}")


# ---- whole games -----------------------------------------------------------------------
@dataclass(frozen=True)
class Cycle:
    """SNAP-END-4: the position before flip ``start + length + 1`` equals the one before flip ``start + 1``."""

    start: int  # flips made before the first occurrence of the repeated position
    length: int  # flips in one turn of the cycle


@dataclass(frozen=True)
class GameResult:
    config: SnapConfig
    seed: int | None  # None: a given deal, not one drawn from a seed
    policy: str
    state: SnapState
    moves: tuple[Move, ...]
    outcome: Outcome | None
    endless: Cycle | None = None  # deterministic policy, repeated position
    capped: bool = False  # stopped at max_flips, neither ended nor shown endless

    @property
    def flips(self) -> int:
        return self.state.flips

    @property
    def status(self) -> str:
        return "ended" if self.outcome else "endless" if self.endless else "capped"


def play_game(config: SnapConfig, seed: int, policy: Policy | str, max_flips: int | None = None) -> GameResult:
    """Deal from ``seed`` and play with ``policy`` until the end, a repetition (deterministic
    policies only) or ``max_flips`` flips. ``max_flips=None`` means no cap."""
    rng = SplitMix64(seed)
    return play_deal(config, sample_deal(config, rng), policy, rng, seed=seed, max_flips=max_flips)


def play_deal(config: SnapConfig, deal: Deal, policy: Policy | str, rng: SplitMix64, *, seed: int | None = None,
              max_flips: int | None = None) -> GameResult:
    """Play a given deal as :func:`play_game` does, the policy drawing from ``rng``."""
    if isinstance(policy, str):
        policy = parse_policy(policy)
    state = apply(new_game(config), deal)
    moves: list[Move] = [deal]
    seen: dict[tuple[object, ...], int] | None = {} if policy.deterministic else None
    while state.phase is not Phase.OVER:
        if state.phase is Phase.FLIP:
            if seen is not None:
                first = seen.setdefault(state.position_key(), state.flips)  # the flips made before its first time
                if first != state.flips:
                    cycle = Cycle(first, state.flips - first)
                    return GameResult(config, seed, policy.name, state, tuple(moves), None, endless=cycle)
            if max_flips is not None and state.flips >= max_flips:
                return GameResult(config, seed, policy.name, state, tuple(moves), None, capped=True)
            move: Move = Flip(state.player)
        else:
            move = policy.choose(state, rng)
        state = apply(state, move)
        moves.append(move)
    return GameResult(config, seed, policy.name, state, tuple(moves), state.outcome)


def game_record(result: GameResult) -> dict[str, Any]:
    """The record of a played game, with its policy and whether it ended, repeats or was stopped."""
    status: dict[str, Any] = result_to_json(result.state)
    if result.endless:
        status = {"status": "endless", "cycle_start": result.endless.start, "cycle_length": result.endless.length,
                  "flips": result.flips}
    return {"format": FORMAT, "version": VERSION, "game": "snap", "config": config_to_json(result.config),
            "seed": result.seed, "policy": result.policy, "moves": [move_to_json(m) for m in result.moves],
            "result": status}
