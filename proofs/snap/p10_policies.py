"""SNAP-P10: the calling policies choose what the rulebook's text says (SNAP-POLICY-1 to
SNAP-POLICY-5), on positions built for each clause and in seeded games at every table size the
bounds name.

The positions, made by hand from the text: "Snap!" and "Snap Pot!" both correct; several owners
of matched piles, clockwise from the flipper and across seat 0; the Snap Pot alone matched;
nothing matched; a player out, so that a tie draws from 4 of 5 seats. From each, a few call
windows are played with every named policy (the random ones from several seeds); in each window
the model's choice and the generator's state after it must equal those of
:mod:`cardcanon.proofs.snap.rulebook_text` (the text, written apart from the model). The seeded
games are compared the same way from the deal on, and include ties among 3 or more players.
Every run is a record with its policy and seed, which the runner replays by drawing again.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from itertools import chain

from cardcanon.model import snap as model
from cardcanon.model.seats import Seat
from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.snap import Phase, SnapConfig, SnapState
from cardcanon.model.snap_text import cards_of
from cardcanon.proofs.base import CheckResult, Run, Verdict, snap_config
from cardcanon.proofs.records import Record, snap_record
from cardcanon.proofs.snap import rulebook_text as snap_text
from cardcanon.proofs.snap.lockstep import Lockstep, lockstep

RANDOM_POLICIES = ("ties:0.5", "ties:1", "errors:0.5", "errors:1")
POLICIES = ("flipper-first", "owner-first") + RANDOM_POLICIES


@dataclass(frozen=True)
class Position:
    """A call window built by hand: ``up``/``down`` per seat as text, top card first."""

    label: str
    players: int
    flipper: int
    up: tuple[str, ...]
    down: tuple[str, ...]
    pot: str = ""

    def state(self, config: SnapConfig) -> SnapState:
        return SnapState(config, Phase.CALL, Seat(0), tuple(map(cards_of, self.down)), tuple(map(cards_of, self.up)),
                         cards_of(self.pot), Seat(self.flipper), 1)


POSITIONS = (
    Position("\"Snap!\" and \"Snap Pot!\" both correct", 3, 0,
             ("7c 2d", "7d 2s", "Ks"), ("4c 5c", "4d 5d", "4h 5h"), "7h 3c"),
    Position("\"Snap!\" and \"Snap Pot!\" both correct, two owners", 4, 1,
             ("8c", "8d", "8h", "3c"), ("4c 5c", "4d 5d", "4h 5h", "4s 5s"), "8s"),
    Position("three owners of matched piles, clockwise from the flipper across seat 0", 4, 2,
             ("5c Td", "5d", "5h 9c", "5s"), ("4c", "4d 6d", "Ac", "As Kd"), ""),
    Position("two owners of matched piles, the flipper's left not among them", 4, 1,
             ("9c", "9d", "3h", "9s"), ("4c 6c", "4d 6d", "4h 6h", "4s 6s"), ""),
    Position("the Snap Pot alone matched", 3, 1,
             ("2c", "Qd", "3s"), ("4c 5c", "4d 5d", "4h 5h"), "Qc 6c"),
    Position("nothing matched, then a match", 3, 0,
             ("Jd", "3c", "Kh"), ("Kc 2c", "2d 4d", "2h 4h"), ""),
    Position("a player out, four players hold cards", 5, 0,
             ("Tc", "3h", "Td", "6s", ""), ("4c 5c", "4d 5d", "4h 5h", "4s 5s", ""), "Qc"),
)


def position_runs(variant: Mapping[str, str], seeds: int, windows: int) -> Iterator[tuple[str, Record, Lockstep]]:
    """Every hand-built position with every policy (random ones from ``seeds`` seeds)."""
    for position in POSITIONS:
        config = snap_config(variant, players=position.players)
        start = position.state(config)
        for policy in POLICIES:
            for seed in range(seeds if policy in RANDOM_POLICIES else 1):
                run = lockstep(start, policy, SplitMix64(seed), snap_text.Generator(seed), windows)
                label = f"{position.label}, {position.players} players, {policy}, seed {seed}"
                if run.problem:
                    label += f": {run.problem}"
                yield label, snap_record(config, run.moves, run.final, label=label, start=start, policy=policy,
                                         seed=seed), run


def game_runs(variant: Mapping[str, str], players: list[int], seeds: int, max_windows: int,
              policies: list[str]) -> Iterator[tuple[str, Record, Lockstep]]:
    """Seeded games from the deal: the deal as SNAP-SEED-2 gives it, then every call window."""
    for n in players:
        config = snap_config(variant, players=n)
        for policy in policies:
            for seed in range(seeds):
                rng = SplitMix64(seed)
                deal = model.sample_deal(config, rng)
                text_deal, text_rng = snap_text.deal_from_seed(n, seed)
                label = f"{n} players, {policy}, seed {seed}"
                state = model.apply(model.new_game(config), deal)
                if (deal.dealer.index, deal.order) != (text_deal.dealer, text_deal.order):
                    run = Lockstep((deal,), state, "the deal is not the one SNAP-SEED-2 gives")
                else:
                    run = lockstep(state, policy, rng, text_rng, max_windows)
                    run = replace(run, moves=(deal,) + run.moves)
                if run.problem:
                    label += f": {run.problem}"
                yield label, snap_record(config, run.moves, run.final, label=label, policy=policy, seed=seed), run


def check(run: Run) -> CheckResult:
    run.no_probe()
    variant, bounds = run.variant, run.bounds
    stats = {"runs": 0, "windows": 0, "ties_of_3_or_more": 0}
    records: list[Record] = []
    policies = list(bounds.get("policies", ["ties:0.5", "errors:0.2"]))
    runs = chain(position_runs(variant, int(bounds.get("seeds", 6)), int(bounds.get("windows", 4))),
                 game_runs(variant, list(bounds.get("players", [3, 4])), int(bounds.get("game_seeds", 4)),
                           int(bounds.get("game_windows", 60)), policies))
    for label, record, played in runs:
        stats["runs"] += 1
        stats["windows"] += played.windows
        stats["ties_of_3_or_more"] += played.big_ties
        if played.problem:
            return CheckResult(Verdict.COUNTEREXAMPLE, label, witness=label, records=(record,), stats=stats)
        records.append(record)
        run.budget.tick()
    if variant.get("index_card") != "on" and stats["ties_of_3_or_more"] == 0:
        return CheckResult(Verdict.NO_WITNESS, "no tie among 3 or more players was played", stats=stats)
    return CheckResult(Verdict.PROVED, f"{stats['runs']} runs, {stats['windows']} call windows: every choice and draw "
                                       "is the rulebook's", witness=f"{len(POSITIONS)} positions built for the rule; "
                                       f"{stats['ties_of_3_or_more']} ties among 3 or more players",
                       records=tuple(records), stats=stats)
