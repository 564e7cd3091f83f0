"""SNAP-P3 (stuck pot): a game reaches a pot whose top card's rank is nowhere else on the table."""

from __future__ import annotations

from cardcanon.model.cards import format_cards
from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.snap import Phase, SnapConfig, SnapState, sample_deal
from cardcanon.model.snap_policies import parse_policy
from cardcanon.proofs.base import CheckResult, Run, Verdict
from cardcanon.proofs.records import snap_record
from cardcanon.proofs.snap.search import Played, play, search_seeds


def stuck(state: SnapState) -> bool:
    """The pot holds cards and no card of its top card's rank is outside it."""
    if state.phase is not Phase.FLIP or not state.pot:
        return False
    rank = state.pot[0].rank
    outside = [c for pile in state.down + state.up for c in pile]
    return all(c.rank != rank for c in outside)


def play_to_stuck_pot(config: SnapConfig, seed: int, policy: str, max_flips: int) -> Played:
    """The game of ``seed`` played until its pot is stuck (``stopped``), its end or ``max_flips``."""
    chosen, rng = parse_policy(policy), SplitMix64(seed)
    return play(config, sample_deal(config, rng), chosen.choose, rng, max_flips=max_flips, deterministic=False,
                stop=stuck)


def check(run: Run) -> CheckResult:
    run.no_probe()
    found = search_seeds(run, play_to_stuck_pot, lambda played: played.stopped, "no seed in range reaches a stuck pot")
    if isinstance(found, CheckResult):
        return found
    seed, played = found
    final = played.final
    top = final.pot[0]
    witness = (f"seed {seed}, before flip {final.flips + 1}: pot [{format_cards(final.pot)}], no other "
               f"{top.rank.label} on the table")
    record = snap_record(final.config, played.moves, final, label=witness)
    return CheckResult(Verdict.WITNESS, f"stuck pot reached from seed {seed}", witness=witness, records=(record,),
                       stats={"seed": seed, "flips": final.flips})
