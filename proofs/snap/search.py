"""Concrete play through the reference model, for the Snap searches and replays: every move is
applied with :func:`cardcanon.model.snap.apply`, so a game found here is a replay by construction."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from cardcanon.model import snap as model
from cardcanon.model.cards import Card, Rank, Suit
from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.snap import Deal, Flip, Move, Phase, SnapConfig, SnapState, apply, new_game, sample_deal
from cardcanon.model.snap_policies import parse_policy
from cardcanon.proofs.base import CheckResult, Run, Verdict
from cardcanon.proofs.records import Record, snap_record


def small_deck(players: int) -> tuple[Card, ...]:
    """Four suits of the lowest ranks, about two cards a player: matches, ties and players out early."""
    ranks = list(Rank)[: max(2, (2 * players + 3) // 4)]
    return tuple(Card(r, s) for r in ranks for s in Suit)


@dataclass(frozen=True)
class Played:
    moves: tuple[Move, ...]
    final: SnapState
    cycle: tuple[int, int] | None = None  # (flips before the repeated position, flips per cycle)
    stopped: bool = False  # the ``stop`` predicate held at ``final``
    problem: str | None = None  # the step ``explore``'s claim rejected

    def record(self, label: str, **extra: Any) -> Record:
        return snap_record(self.final.config, self.moves, self.final, label=label, **extra)

    @property
    def deal(self) -> Deal:
        deal = self.moves[0]
        assert isinstance(deal, Deal)  # a played game starts with its deal
        return deal


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
                first = seen.setdefault(state.position_key(), state.flips)  # the flips made before its first time
                if first != state.flips:
                    return Played(tuple(moves), state, cycle=(first, state.flips - first))
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
    return list(accumulate(moves, apply, initial=new_game(config)))


def search_seeds(run: Run, goal: Callable[[SnapConfig, int, str, int], Played], hit: Callable[[Played], bool],
                 missing: str, players: int | None = None, golden: str = "seed") -> tuple[int, Played] | CheckResult:
    """The first seed of the bounds whose game (``goal``) ``hit`` accepts, with that game, at a table
    of ``players`` (else of the bounds' ``players``); else no witness (``missing`` says what), every
    game searched a record (as the loaded model plays it). The search ends at the golden witness
    seed (``run.golden[golden]``), if any: no witness by then differs."""
    bounds = run.bounds
    config = run.snap_config(players=players if players is not None else int(bounds.get("players", 2)))
    policy, max_flips = str(bounds.get("policy", "ties:0.3")), int(bounds.get("max_flips", 1000))
    first, last = bounds.get("seeds", [0, 100])
    last = min(last, int((run.golden or {}).get(golden, last - 1)) + 1)
    records = []
    for seed in range(first, last):
        played = goal(config, seed, policy, max_flips)
        if hit(played):
            return seed, played
        records.append(played.record(f"seed {seed}, {policy}"))
    return CheckResult(Verdict.NO_WITNESS, missing, witness=f"seeds {first} to {last - 1}, {policy}",
                       records=tuple(records))


def play_seed(config: SnapConfig, seed: int, policy: str, max_flips: int,
              stop: Callable[[SnapState], bool] | None = None) -> Played:
    """Deal from ``seed`` (as ``play_game`` does) and play with a named policy; with ``stop``, play
    is not cut at a repeated position."""
    chosen, rng = parse_policy(policy), SplitMix64(seed)
    return play(config, sample_deal(config, rng), chosen.choose, rng, max_flips=max_flips,
                deterministic=chosen.deterministic and stop is None, stop=stop)


# a claim about one step (before, move, after, the model's legal moves after it when ``after`` is a
# call window, else ()): what is wrong, with a move the model should refuse, or None
Claim = Callable[[SnapState, Move, SnapState, tuple[Move, ...]], str | tuple[str, Move] | None]


def explore(config: SnapConfig, seed: int, claim: Claim, *, max_flips: int = 400) -> Played:
    """One game: a seeded deal, then at every call window a seeded pick among the model's legal
    events; stops at the end, after ``max_flips`` flips, or at the first step ``claim`` rejects
    (``problem``). The legal moves of each call window are listed once: the claim reads them, then
    the pick. ``model.sample_deal`` and ``model.legal_moves`` are looked up at each call, where a
    model mutant replaces them."""
    rng = SplitMix64(seed)
    deal = model.sample_deal(config, rng)
    moves: list[Move] = [deal]
    state = apply(new_game(config), deal)
    options: tuple[Move, ...] = ()
    while state.phase is not Phase.OVER and state.flips < max_flips:
        move = Flip(state.player) if state.phase is Phase.FLIP else options[rng.below(len(options))]
        after = apply(state, move)
        moves.append(move)
        options = model.legal_moves(after) if after.phase is Phase.CALL else ()
        problem = claim(state, move, after, options)
        if isinstance(problem, tuple):  # the claim names a move that shows the problem: play it too
            problem, shown = problem
            moves.append(shown)
            after = apply(after, shown)
        if problem:
            return Played(tuple(moves), after, problem=problem)
        state = after
    return Played(tuple(moves), state)
