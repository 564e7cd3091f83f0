"""Fast Snap: whole deals decided by the compiled kernel, the same games as the reference model.

A deal is played with a named policy (:mod:`cardcanon.model.snap_policies`) exactly as
:func:`cardcanon.model.snap_policies.play_game` plays it: the same deal from the seed, the same
call events, the same outcome. Deterministic policies are decided with Brent's cycle detection
on whole positions (SNAP-END-4): ``endless`` reports the same cycle start and length as the
reference model's first repeated position. Random policies are played to the flip cap.

Every function here raises :class:`~cardcanon.engine.build.EngineUnavailable` (one line: why)
when the compiled kernel is unavailable (no compiler, ``CARDCANON_ENGINE=python``) or cannot play
the config (:func:`kernel_mismatch`). With ``fallback=True`` it plays the reference model instead
(same answers, much slower); every result records the engine that played (``played_by``).
``reference_play_deal`` is the reference model by name.
"""

from __future__ import annotations

import ctypes
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, cast

from cardcanon.engine import abi
from cardcanon.engine.build import ASKED_FOR_MODEL, KERNEL, EngineUnavailable, PlayedBy, kernel_or_model, load
from cardcanon.model import snap_endings
from cardcanon.model.cards import Card
from cardcanon.model.seats import Seat
from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.snap import (
    VARIATIONS, AllInPot, Call, CallKind, Deal, EmptyPile, Flip, Match, Move, NextTurn, NoCall, OutPlayersCall,
    SnapConfig, SnapState, Termination, Tie, TieWithPot, all_deals,
)
from cardcanon.model.snap_policies import (
    Cycle, Errors, FlipperFirst, GameResult, OwnerFirst, Policy, Ties, parse_policy, play_deal, play_game,
)

SAFETY_CAP = 1_000_000  # flips; deterministic games repeat or end long before
_TWO64 = 1 << 64
_STATUS = ("ended", "endless", "capped")
# The kernel's ending codes: the model's Termination, and the analysis label of each code.
_TERMINATIONS = (Termination.ALL_CARDS, Termination.STUCK_POT, Termination.NO_CARDS, Termination.WINNABLE_POT)
ENDINGS = tuple(t.value for t in _TERMINATIONS)
_KINDS = (CallKind.SNAP, CallKind.SNAP_POT, CallKind.HAND)


_Cfg = abi.SnapCfg
_Move = abi.SnapMove
_CFG_SIZE = ctypes.sizeof(_Cfg)


_I64_8 = ctypes.c_int64 * 8


@dataclass(frozen=True)
class SnapRun:
    """How one deal went: ``status`` is ``ended``, ``endless`` or ``capped``."""

    seed: int | None
    dealer: Seat
    status: str
    flips: int
    termination: Termination | None = None
    winner: Seat | None = None
    cycle: Cycle | None = None
    ending: str | None = None  # an ended game's label in ENDINGS (see ending())
    played_by: PlayedBy = field(default=KERNEL, compare=False)  # the kernel or the reference model, and why


def ending(state: SnapState) -> str:
    """How a finished game ended, as the analysis names it (SNAP-END-5,
    ``cardcanon.model.snap_endings.ending_label``)."""
    return snap_endings.ending_label(state)


def _policy(policy: Policy | str) -> Policy:
    return parse_policy(policy) if isinstance(policy, str) else policy


def _cfg(config: SnapConfig, policy: Policy) -> _Cfg:
    cfg = _Cfg()
    cfg.players, cfg.index_card = config.players, int(config.index_card)
    cfg.next_winner = int(config.next_turn is NextTurn.WINNER)
    if isinstance(policy, FlipperFirst):
        cfg.policy = 0
    elif isinstance(policy, OwnerFirst):
        cfg.policy = 1
    elif isinstance(policy, (Ties, Errors)):
        cfg.policy = 2 if isinstance(policy, Ties) else 3
        threshold = int(policy.rate * _TWO64)  # as snap_policies._chance
        cfg.rate_always = int(threshold >= _TWO64)
        cfg.rate_threshold = min(threshold, _TWO64 - 1)
    else:
        raise ValueError(f"the engine plays the named policies only, not {policy!r}")
    cfg.ncards = len(config.deck)
    for i, card in enumerate(config.deck):
        cfg.deck[i] = card.index
    return cfg


def _ints(array: ctypes.Array[ctypes.c_int64]) -> Sequence[int]:
    """A ctypes int64 array read as the sequence of ints it indexes and slices as."""
    return cast(Sequence[int], array)


def _run(config: SnapConfig, seed: int | None, out: Sequence[int], dealer: Seat | None = None) -> SnapRun:
    status = _STATUS[out[0]]
    dealer = dealer or Seat(int(out[6]))
    if status == "ended":
        winner = None if out[2] < 0 else Seat(int(out[2]))
        return SnapRun(seed, dealer, status, int(out[3]), _TERMINATIONS[out[1]], winner, ending=ENDINGS[out[1]])
    if status == "endless":
        return SnapRun(seed, dealer, status, int(out[3]), cycle=Cycle(int(out[4]), int(out[5])))
    return SnapRun(seed, dealer, status, int(out[3]))


def _dealer(result: GameResult) -> Seat:
    deal = result.moves[0]
    assert isinstance(deal, Deal)
    return deal.dealer


def _from_reference(result: GameResult, seed: int | None, dealer: Seat, played_by: PlayedBy) -> SnapRun:
    if result.outcome:
        return SnapRun(seed, dealer, "ended", result.flips, result.outcome.termination, result.outcome.winner,
                       ending=ending(result.state), played_by=played_by)
    return SnapRun(seed, dealer, result.status, result.flips, cycle=result.endless, played_by=played_by)


def decide(config: SnapConfig, seed: int, policy: Policy | str = "flipper-first",
           max_flips: int = SAFETY_CAP, *, fallback: bool = False) -> SnapRun:
    """The deal of ``seed`` played out: as ``play_game(config, seed, policy, max_flips)``."""
    policy = _policy(policy)
    lib, played_by = kernel_or_model(lambda: _kernel(config), fallback)
    if lib is None:
        result = play_game(config, seed, policy, max_flips=max_flips)
        return _from_reference(result, seed, _dealer(result), played_by)
    out = _I64_8()
    abi.check(lib.snap_play_checked(ctypes.byref(_cfg(config, policy)), _CFG_SIZE, seed % _TWO64, 0, None, 0,
                                    max_flips, out, len(out), None, 0), f"snap seed {seed}")
    return _run(config, seed, _ints(out))


def reference_play_deal(config: SnapConfig, deal: Deal, policy: Policy | str = "flipper-first",
                        max_flips: int = SAFETY_CAP, seed: int = 0) -> SnapRun:
    """The reference model plays a given deal (``play_deal``), random policies drawing from ``SplitMix64(seed)``."""
    return _reference_deal(config, deal, _policy(policy), max_flips, seed, ASKED_FOR_MODEL)


def _reference_deal(config: SnapConfig, deal: Deal, policy: Policy, max_flips: int, seed: int,
                    played_by: PlayedBy) -> SnapRun:
    result = play_deal(config, deal, policy, SplitMix64(seed), max_flips=max_flips)
    return _from_reference(result, None, deal.dealer, played_by)


def decide_deal(config: SnapConfig, deal: Deal, policy: Policy | str = "flipper-first",
                max_flips: int = SAFETY_CAP, seed: int = 0, *, fallback: bool = False) -> SnapRun:
    """A given deal played out (random policies draw from ``SplitMix64(seed)``)."""
    policy = _policy(policy)
    lib, played_by = kernel_or_model(lambda: _kernel(config), fallback)
    if lib is None:
        return _reference_deal(config, deal, policy, max_flips, seed, played_by)
    order = (ctypes.c_uint8 * 52)(*[c.index for c in deal.order])
    out = _I64_8()
    abi.check(lib.snap_play_checked(ctypes.byref(_cfg(config, policy)), _CFG_SIZE, seed % _TWO64, deal.dealer.index,
                                    order, len(deal.order), max_flips, out, len(out), None, 0), "snap deal")
    return _run(config, None, _ints(out), deal.dealer)


def moves(config: SnapConfig, seed: int, policy: Policy | str = "flipper-first",
          max_flips: int = SAFETY_CAP, *, fallback: bool = False) -> tuple[SnapRun, tuple[Move, ...]]:
    """The run and all its moves as the model's moves: the deal, then each flip and its call
    event, up to the end, the repeated position (endless) or the cap."""
    policy = _policy(policy)
    lib, played_by = kernel_or_model(lambda: _kernel(config), fallback)
    if lib is None:
        result = play_game(config, seed, policy, max_flips=max_flips)
        return _from_reference(result, seed, _dealer(result), played_by), result.moves
    cfg = _cfg(config, policy)
    run = decide(config, seed, policy, max_flips)
    order = (ctypes.c_uint8 * 52)()
    dealer = abi.check(lib.snap_sample_deal_checked(ctypes.byref(cfg), _CFG_SIZE, seed % _TWO64, order, len(order)),
                       f"snap seed {seed}")
    buffer = (_Move * max(run.flips, 1))()
    out = _I64_8()
    abi.check(lib.snap_play_checked(ctypes.byref(cfg), _CFG_SIZE, seed % _TWO64, 0, None, 0, max_flips, out, len(out),
                                    buffer, len(buffer)), f"snap seed {seed}")
    played: list[Move] = [Deal(Seat(dealer), tuple(Card.from_index(order[i]) for i in range(len(config.deck))))]
    for m in buffer[:run.flips]:
        played.append(Flip(Seat(m.flipper)))
        if m.event == 0:
            played.append(NoCall())
        elif m.event == 1:
            played.append(Call(Seat(m.who), _KINDS[m.kind]))
        else:
            played.append(Tie(frozenset(Seat(i) for i in range(config.players) if m.who >> i & 1), _KINDS[m.kind]))
    return run, tuple(played)


@dataclass(frozen=True)
class Batch:
    """Seeds ``first_seed .. first_seed + count - 1``: eight numbers per deal (see kernel.c)."""

    first_seed: int
    raw: Sequence[int]  # a ctypes int64 array, or a list
    played_by: PlayedBy = KERNEL

    def __len__(self) -> int:
        return len(self.raw) // 8

    def row(self, k: int) -> tuple[int, ...]:
        return tuple(self.raw[8 * k: 8 * k + 8])

    def run(self, config: SnapConfig, k: int) -> SnapRun:
        return replace(_run(config, self.first_seed + k, self.row(k)), played_by=self.played_by)


def batch(config: SnapConfig, policy: Policy | str, first_seed: int, count: int, max_flips: int = SAFETY_CAP, *,
          fallback: bool = False) -> Batch:
    """Decide ``count`` consecutive seeds in one call into the kernel."""
    lib, played_by = kernel_or_model(lambda: _kernel(config), fallback)
    if lib is None:
        return Batch(first_seed, [x for seed in range(first_seed, first_seed + count)
                                  for x in _row(decide(config, seed, policy, max_flips, fallback=True))], played_by)
    out = (ctypes.c_int64 * (8 * count))()
    abi.check(lib.snap_batch_checked(ctypes.byref(_cfg(config, _policy(policy))), _CFG_SIZE, first_seed % _TWO64,
                                     count, max_flips, out, len(out)), f"snap seeds {first_seed}..")
    return Batch(first_seed, _ints(out))


def _row(run: SnapRun) -> tuple[int, ...]:
    """A run as the kernel's eight numbers (the pot size, unused by callers, as 0)."""
    status = _STATUS.index(run.status)
    term = ENDINGS.index(run.ending) if run.ending else 0
    winner = -1 if run.winner is None else run.winner.index
    start, length = (run.cycle.start, run.cycle.length) if run.cycle else (0, 0)
    return (status, term, winner if status == 0 else 0, run.flips, start, length, run.dealer.index, 0)


def enumerate_deals(config: SnapConfig, policy: Policy | str = "flipper-first", max_flips: int = SAFETY_CAP,
                    hist_len: int = 4096, *, fallback: bool = False) -> dict[str, Any]:
    """Every deal of a small deck (each dealer, each order): counts by status and termination,
    and the lengths of the games that end (a length of ``hist_len - 1`` or more is counted as
    ``hist_len - 1``), and ``played_by``. Each deal has the same chance, so these are exact."""
    policy = _policy(policy)
    if not policy.deterministic:
        raise ValueError(f"policy {policy.name!r} is random; enumeration needs a deterministic policy")
    lib, played_by = kernel_or_model(lambda: _kernel(config), fallback)
    if lib is None:
        runs = [_reference_deal(config, deal, policy, max_flips, 0, played_by) for deal in all_deals(config)]
        return {"deals": len(runs),
                "ended": {t.value: sum(1 for r in runs if r.termination is t) for t in _TERMINATIONS[:3]},
                "endless": sum(1 for r in runs if r.status == "endless"),
                "capped": sum(1 for r in runs if r.status == "capped"),
                "lengths": Counter(min(r.flips, hist_len - 1) for r in runs if r.status == "ended"),
                "played_by": played_by}
    tally = (ctypes.c_int64 * 9)()
    hist = (ctypes.c_int64 * hist_len)()
    deals = abi.check(lib.snap_enumerate_checked(ctypes.byref(_cfg(config, policy)), _CFG_SIZE, max_flips, tally,
                                                 len(tally), hist, hist_len), "snap enumeration")
    lengths = Counter({i: hist[i] for i in range(hist_len) if hist[i]})
    return {"deals": deals, "ended": {t.value: tally[i] for i, t in enumerate(_TERMINATIONS[:3])},
            "endless": tally[3], "capped": tally[6], "lengths": lengths, "played_by": played_by}


# The options of each variation point the kernel plays (SnapCfg); every one the model plays.
KERNEL_PLAYS: dict[str, frozenset[object]] = {
    "next_turn": frozenset(NextTurn), "index_card": frozenset({False, True}),
    "empty_pile": frozenset({EmptyPile.TURN_OVER}), "match": frozenset({Match.RANK}),
    "out_players_call": frozenset({OutPlayersCall.NO}), "tie_with_pot": frozenset({TieWithPot.ON_TOP}),
    "all_in_pot": frozenset({AllInPot.DRAW}),
}
KERNEL_MAX_PLAYERS = 12  # kernel.c: piles of 12 seats, a tie as a 16-bit mask of seats
KERNEL_MAX_CARDS = 52  # kernel.c: SnapCfg.deck, card indices of the standard deck


def kernel_mismatch(config: SnapConfig) -> str | None:
    """Why the kernel cannot play ``config`` as the reference model does (an option of a variation
    point it lacks, more players or cards than it holds), or None."""
    for name in VARIATIONS:
        value = getattr(config, name)
        if value not in KERNEL_PLAYS.get(name, ()):
            return f"the kernel does not play {name} = {value}"
    if config.players > KERNEL_MAX_PLAYERS:
        return f"the kernel plays 2 to {KERNEL_MAX_PLAYERS} players, not {config.players} (SNAP-PLAYERS-1)"
    if len(config.deck) > KERNEL_MAX_CARDS or any(card.index >= KERNEL_MAX_CARDS for card in config.deck):
        return f"the kernel plays decks of at most the {KERNEL_MAX_CARDS} standard cards (SNAP-DECK-1)"
    return None


def require(config: SnapConfig) -> None:
    """Raise ``EngineUnavailable`` (with the reason) unless the compiled kernel is loaded
    and plays ``config`` as the reference model does (what every function here does first,
    unless asked to fall back)."""
    _kernel(config)


def _kernel(config: SnapConfig) -> ctypes.CDLL:
    """The compiled kernel, its functions declared (:mod:`cardcanon.engine.abi`), loaded at first use;
    EngineUnavailable when it cannot play ``config`` as the reference model does."""
    mismatch = kernel_mismatch(config)
    if mismatch:
        raise EngineUnavailable(mismatch)
    return load()


def find_cycle(players: int = 2, policy: str = "flipper-first", seeds: Iterable[int] = range(100_000),
               config: SnapConfig | None = None, *, fallback: bool = False) -> GameResult | None:
    """The first seeded game that is endless under a deterministic policy (SNAP-END-4), or None.

    The search asks the fast engine (``EngineUnavailable`` without it, unless ``fallback`` asks
    for the reference model); the game returned is the reference model's ``play_game``, with
    every move, and must repeat a position too.
    """
    pol = parse_policy(policy)
    if not pol.deterministic:
        raise ValueError(f"policy {policy!r} is random; a repeated position proves nothing under it")
    config = config or SnapConfig(players=players)
    for seed in seeds:
        if decide(config, seed, pol, fallback=fallback).status == "endless":
            result = play_game(config, seed, pol, max_flips=SAFETY_CAP)
            if not result.endless:
                raise RuntimeError(f"the engine and the model disagree on seed {seed}")
            return result
    return None
