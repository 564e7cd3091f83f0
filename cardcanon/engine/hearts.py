"""Fast two-player Hearts: whole matches by the compiled kernel, the same as the reference model.

A match of seed ``s`` is :func:`cardcanon.model.hearts_players.play_match` with the players
``make_player(kind, 2 * s + 1)`` and ``make_player(kind, 2 * s + 2)`` (the convention of
``cardcanon play hearts``): the same dealer draw, the same shuffles, the same plays. Player kinds
are those of :mod:`cardcanon.model.hearts_players`: ``random`` and ``greedy``.

``match``, ``batch`` and ``bench`` raise :class:`~cardcanon.engine.build.EngineUnavailable` (one
line: why) when the compiled kernel is unavailable or cannot play the config (:func:`kernel_mismatch`).
``match`` and ``batch`` with ``fallback=True`` play the reference model instead (same answers,
slower); their results record the engine that played (``played_by``). ``reference_match`` is the
reference model by name.
"""

from __future__ import annotations

import ctypes
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, overload

from cardcanon.engine import abi
from cardcanon.engine.build import KERNEL, EngineUnavailable, PlayedBy, kernel_or_model, load
from cardcanon.model import hearts_types
from cardcanon.model.cards import Suit
from cardcanon.model.hearts import (
    DECK, POINT_CARDS, BreakOn, ChooseDealer, Deal, Dealer, FirstLead, FirstTrickPoints, HeartsConfig, HeartsState,
    MoonScore, Move, Play, QueenBreaks, Termination, apply, new_game,
)
from cardcanon.model.hearts_players import PLAYER_KINDS, make_player, play_match
from cardcanon.model.seats import Seat

_TWO64 = 1 << 64
_TERMINATIONS = (Termination.ONE_REACHED_TARGET, Termination.BOTH_REACHED_LOWER_WINS, Termination.TIE_BROKEN)
MAX_HANDS = 4096  # buffer size; a match gains at least one point a hand, so it is far shorter


_Cfg = abi.HeartsCfg
_CFG_SIZE = ctypes.sizeof(_Cfg)


@dataclass(frozen=True)
class MatchRun:
    """How one match went."""

    seed: int
    first_dealer: Seat
    termination: Termination
    winner: Seat
    scores: tuple[int, int]
    hand_scores: tuple[tuple[int, int], ...]
    moons: tuple[int, int]  # hands in which seat 0 / seat 1 shot the moon
    played_by: PlayedBy = field(default=KERNEL, compare=False)  # the kernel or the reference model, and why

    @property
    def hands(self) -> int:
        return len(self.hand_scores)


# The options of each variation point the kernel plays (HeartsCfg); every one the model plays.
KERNEL_PLAYS: dict[str, frozenset[object]] = {
    "dealer": frozenset({Dealer.ALTERNATE}), "first_lead": frozenset(FirstLead), "break_on": frozenset(BreakOn),
    "first_trick_points": frozenset(FirstTrickPoints), "queen_breaks": frozenset(QueenBreaks),
    "moon_score": frozenset(MoonScore),
}
# The rulebook's numbers the kernel is given with every call (HeartsCfg), by name; the kernel plays
# any values within these limits (a 28-card deck of 7 ranks per suit, two players).
# Hands of fewer than 11 cards leave 7 or more dead cards: every club can be dead, and no rule says
# who leads then (the model cannot play it either).
KERNEL_LIMITS = {"players": (2, 2), "deck_size": (28, 28), "hand_size": (11, 13), "tricks_per_hand": (11, 13),
                 "queen_points": (0, 4096), "heart_points": (0, 4096), "moon_shooter_points": (0, 4096),
                 "moon_other_points": (0, 4096)}
RULES_OF_NUMBERS = {"players": "HEARTS-PLAYERS-1", "deck_size": "HEARTS-DECK-1", "hand_size": "HEARTS-DEAL-2",
                    "tricks_per_hand": "HEARTS-TRICK-3", "queen_points": "HEARTS-QUEEN-1",
                    "heart_points": "HEARTS-SCORE-1", "moon_shooter_points": "HEARTS-MOON-1",
                    "moon_other_points": "HEARTS-MOON-1"}


def rulebook_numbers() -> dict[str, int]:
    """The rulebook's numbers as the model reads them now (``cardcanon.model.hearts_types``)."""
    return {"players": hearts_types.PLAYERS, "deck_size": hearts_types.DECK_SIZE, "hand_size": hearts_types.HAND_SIZE,
            "tricks_per_hand": hearts_types.TRICKS_PER_HAND, "queen_points": hearts_types.QUEEN_POINTS,
            "heart_points": hearts_types.HEART_POINTS, "moon_shooter_points": hearts_types.MOON_SHOOTER_POINTS,
            "moon_other_points": hearts_types.MOON_OTHER_POINTS}


def kernel_mismatch(config: HeartsConfig) -> str | None:
    """Why the kernel cannot play ``config`` as the reference model does (a rulebook number outside
    what it can play), or None. Every variation point of the rulebook is played by the kernel."""
    for name in hearts_types.VARIATIONS:
        value = getattr(config, name)
        if value not in KERNEL_PLAYS.get(name, ()):
            return f"the kernel does not play {name} = {value}"
    numbers = rulebook_numbers()
    for name, (low, high) in KERNEL_LIMITS.items():
        if not low <= numbers[name] <= high:
            span = str(low) if low == high else f"{low} to {high}"
            return (f"the kernel plays {name} = {span} only, the rulebook has {numbers[name]} "
                    f"({RULES_OF_NUMBERS[name]})")
    if numbers["tricks_per_hand"] != numbers["hand_size"]:
        return "the kernel plays one trick per card of a hand (HEARTS-TRICK-3, HEARTS-DEAL-2)"
    return None


def tally_dim() -> int:
    """Rows (and columns) of the kernel's tally of hand scores: the largest hand score + 1."""
    n = rulebook_numbers()
    hearts = sum(1 for card in DECK if card.suit is Suit.HEARTS)
    return max(hearts * n["heart_points"] + n["queen_points"], n["moon_other_points"], n["moon_shooter_points"]) + 1


def _kinds(kinds: tuple[str, str]) -> tuple[int, int]:
    for kind in kinds:
        if kind not in PLAYER_KINDS:
            raise ValueError(f"unknown player {kind!r} (expected one of: {', '.join(PLAYER_KINDS)})")
    return PLAYER_KINDS.index(kinds[0]), PLAYER_KINDS.index(kinds[1])


def _cfg(config: HeartsConfig, kinds: tuple[str, str]) -> _Cfg:
    if config.target >= 1 << 24:
        raise ValueError(f"the engine plays to targets below {1 << 24}, not {config.target}")
    cfg = _Cfg()
    cfg.lowest_club_lead = int(config.first_lead is FirstLead.LOWEST_CLUB)
    cfg.break_void = int(config.break_on is BreakOn.VOID)
    cfg.first_no_hearts = int(config.first_trick_points is FirstTrickPoints.NO_HEARTS)
    cfg.moon_in_play = int(config.moon_score is MoonScore.POINTS_IN_PLAY)
    cfg.queen_breaks = int(config.queen_breaks is QueenBreaks.YES)
    cfg.target = config.target
    cfg.kinds[0], cfg.kinds[1] = _kinds(kinds)
    numbers = rulebook_numbers()
    cfg.queen_points, cfg.heart_points = numbers["queen_points"], numbers["heart_points"]
    cfg.moon_shooter_points, cfg.moon_other_points = numbers["moon_shooter_points"], numbers["moon_other_points"]
    cfg.hand_size, cfg.tricks_per_hand = numbers["hand_size"], numbers["tricks_per_hand"]
    cfg.tally_dim = tally_dim()
    return cfg


def reference_match(seed: int, kinds: tuple[str, str] = ("random", "random"),
                    config: HeartsConfig = HeartsConfig()) -> tuple[HeartsState, list[Move]]:
    """The reference model's match of ``seed`` (final state, moves)."""
    players = (make_player(kinds[0], seed * 2 + 1), make_player(kinds[1], seed * 2 + 2))
    return play_match(seed, players, config)


def _moons(moves: Sequence[Move], config: HeartsConfig) -> tuple[int, int]:
    """Hands in which seat 0 / seat 1 took every point card in play (HEARTS-MOON-1), by replaying ``moves``."""
    moons, state, hands = [0, 0], new_game(config), 0
    for move in moves:
        state = apply(state, move)
        if len(state.hand_scores) > hands:  # a hand just ended; taken and dead still show it
            hands = len(state.hand_scores)
            in_play = POINT_CARDS.difference(state.dead)
            for seat in (0, 1):
                moons[seat] += in_play <= state.taken[seat]
    return moons[0], moons[1]


def _run_from_reference(seed: int, state: HeartsState, moves: Sequence[Move], played_by: PlayedBy) -> MatchRun:
    outcome, choice = state.outcome, moves[0]
    assert outcome is not None and isinstance(choice, ChooseDealer)
    return MatchRun(seed, choice.dealer, outcome.termination, outcome.winner, state.scores, state.hand_scores,
                    _moons(moves, state.config), played_by)


@overload
def match(seed: int, kinds: tuple[str, str] = ..., config: HeartsConfig = ...,
          with_moves: Literal[False] = ..., *, fallback: bool = ...) -> MatchRun: ...
@overload
def match(seed: int, kinds: tuple[str, str], config: HeartsConfig,
          with_moves: Literal[True], *, fallback: bool = ...) -> tuple[MatchRun, list[Move]]: ...
@overload
def match(seed: int, kinds: tuple[str, str] = ..., config: HeartsConfig = ..., *,
          with_moves: Literal[True], fallback: bool = ...) -> tuple[MatchRun, list[Move]]: ...


def match(seed: int, kinds: tuple[str, str] = ("random", "random"), config: HeartsConfig = HeartsConfig(),
          with_moves: bool = False, *, fallback: bool = False) -> MatchRun | tuple[MatchRun, list[Move]]:
    """One match; with ``with_moves`` also its moves as the model's moves. Without the kernel:
    ``EngineUnavailable``, or with ``fallback`` the reference model's match."""
    lib, played_by = kernel_or_model(lambda: _kernel(config), fallback)
    if lib is None:
        state, moves = reference_match(seed, kinds, config)
        run = _run_from_reference(seed, state, moves, played_by)
        return (run, moves) if with_moves else run
    cfg = _cfg(config, kinds)
    out = (ctypes.c_int64 * 8)()
    scores = (ctypes.c_int32 * (2 * MAX_HANDS))()
    buffer = (ctypes.c_uint8 * (1 + 80 * MAX_HANDS))() if with_moves else None
    s = seed % _TWO64
    rc = abi.check(lib.hearts_match_checked(ctypes.byref(cfg), _CFG_SIZE, s, (seed * 2 + 1) % _TWO64,
                                            (seed * 2 + 2) % _TWO64, MAX_HANDS, out, len(out), scores, len(scores),
                                            buffer, len(buffer) if buffer is not None else 0, None, 0),
                   f"hearts seed {seed}")
    if rc != 0:
        raise RuntimeError(f"hearts kernel failed on seed {seed} (code {rc}: "
                           f"{'too many hands' if rc == -1 else 'no legal card or no club to lead'})")
    hands = int(out[0])
    run = MatchRun(seed, Seat(int(out[7])), _TERMINATIONS[out[1]], Seat(int(out[2])), (int(out[3]), int(out[4])),
                   tuple((int(scores[2 * h]), int(scores[2 * h + 1])) for h in range(hands)),
                   (int(out[5]), int(out[6])))
    if buffer is None:
        return run
    played: list[Move] = [ChooseDealer(Seat(buffer[0]))]
    pos = 1
    for _ in range(hands):
        played.append(Deal(tuple(DECK[buffer[pos + i]] for i in range(28))))
        pos += 28
        for _ in range(2 * hearts_types.HAND_SIZE):
            played.append(Play(Seat(buffer[pos]), DECK[buffer[pos + 1]]))
            pos += 2
    return run, played


@dataclass
class BatchSummary:
    """Matches ``first_seed .. first_seed + count - 1``."""

    first_seed: int
    count: int
    hands: Counter[int]  # match length in hands -> matches
    terminations: Counter[str]  # Termination value -> matches
    winners: Counter[int]  # seat index -> matches
    moons: int  # hands won by shooting the moon
    total_hands: int
    pairs: Counter[tuple[int, int]]  # (score 0, score 1) of a hand -> hands
    played_by: PlayedBy = field(default=KERNEL, compare=False)  # the kernel or the reference model, and why


def batch(first_seed: int, count: int, kinds: tuple[str, str] = ("random", "random"),
          config: HeartsConfig = HeartsConfig(), *, fallback: bool = False) -> BatchSummary:
    """Play ``count`` matches and tally them. Without the kernel: ``EngineUnavailable``, or with
    ``fallback`` the reference model's matches."""
    lib, played_by = kernel_or_model(lambda: _kernel(config), fallback)
    summary = BatchSummary(first_seed, count, Counter(), Counter(), Counter(), 0, 0, Counter(), played_by)
    if lib is None:
        for seed in range(first_seed, first_seed + count):
            run = match(seed, kinds, config, fallback=True)
            summary.hands[run.hands] += 1
            summary.terminations[run.termination.value] += 1
            summary.winners[run.winner.index] += 1
            summary.moons += sum(run.moons)
            summary.total_hands += run.hands
            summary.pairs.update(run.hand_scores)
        return summary
    out = (ctypes.c_int64 * (8 * count))()
    dim = tally_dim()
    tally = (ctypes.c_int64 * (dim * dim))()
    rc = abi.check(lib.hearts_batch_checked(ctypes.byref(_cfg(config, kinds)), _CFG_SIZE, first_seed % _TWO64,
                                            count, out, len(out), tally, len(tally)), f"hearts seeds {first_seed}..")
    if rc != 0:
        raise RuntimeError(f"hearts kernel failed in seeds {first_seed}.. (code {rc})")
    for k in range(count):
        row = out[8 * k: 8 * k + 8]
        summary.hands[row[0]] += 1
        summary.terminations[_TERMINATIONS[row[1]].value] += 1
        summary.winners[row[2]] += 1
        summary.moons += row[5] + row[6]
        summary.total_hands += row[0]
    summary.pairs.update({(i // dim, i % dim): tally[i] for i in range(dim * dim) if tally[i]})
    return summary


def bench(first_seed: int, matches: int, config: HeartsConfig = HeartsConfig()) -> tuple[int, int]:
    """Random play of ``matches`` matches inside the kernel: (plays made, hands played)."""
    lib = _kernel(config)
    hands = ctypes.c_int64()
    plays = abi.check(lib.hearts_bench_checked(ctypes.byref(_cfg(config, ("random", "random"))), _CFG_SIZE,
                                               first_seed % _TWO64, matches, ctypes.byref(hands)), "hearts bench")
    return plays, hands.value


def require(config: HeartsConfig) -> None:
    """Raise ``EngineUnavailable`` (with the reason) unless the compiled kernel is loaded and
    plays ``config`` as the reference model does (what every function here does first, unless
    asked to fall back)."""
    _kernel(config)


def _kernel(config: HeartsConfig) -> ctypes.CDLL:
    """The compiled kernel, its functions declared (:mod:`cardcanon.engine.abi`), loaded at first use;
    EngineUnavailable when it cannot play ``config`` as the reference model does."""
    mismatch = kernel_mismatch(config)
    if mismatch:
        raise EngineUnavailable(mismatch)
    return load()


__all__ = ["BatchSummary", "MatchRun", "batch", "bench", "kernel_mismatch", "match", "reference_match", "require",
           "rulebook_numbers"]
