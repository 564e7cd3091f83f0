"""SNAP-P3 (stuck pot): at each table size of the bounds, a game reaches a pot whose top card's rank is
nowhere else on the table."""

from __future__ import annotations

from cardcanon.model.cards import format_cards
from cardcanon.model.snap import Phase, SnapConfig, SnapState
from cardcanon.proofs.base import CheckResult, Run, Verdict
from cardcanon.proofs.snap.search import Played, play_seed, search_seeds


def stuck(state: SnapState) -> bool:
    """The pot holds cards and no card of its top card's rank is outside it."""
    if state.phase is not Phase.FLIP or not state.pot:
        return False
    rank = state.pot[0].rank
    return all(c.rank != rank for pile in state.down + state.up for c in pile)


def play_to_stuck_pot(config: SnapConfig, seed: int, policy: str, max_flips: int) -> Played:
    """The game of ``seed`` played until its pot is stuck (``stopped``), its end or ``max_flips``."""
    return play_seed(config, seed, policy, max_flips, stop=stuck)


def check(run: Run) -> CheckResult:
    run.no_probe()
    stats: dict[str, int] = {}
    records, witnesses = [], []
    players = [int(n) for n in run.bounds["players"]]
    for n in players:
        found = search_seeds(run, play_to_stuck_pot, lambda played: played.stopped,
                             f"{n} players: no seed in range reaches a stuck pot", players=n, golden=f"seed_{n}p")
        if isinstance(found, CheckResult):
            return found
        seed, played = found
        final = played.final
        witness = (f"{n} players, seed {seed}, before flip {final.flips + 1}: pot [{format_cards(final.pot)}], "
                   f"no other {final.pot[0].rank.label} on the table")
        stats.update({f"seed_{n}p": seed, f"flips_{n}p": final.flips})
        records.append(played.record(witness))
        witnesses.append(witness)
    return CheckResult(Verdict.WITNESS, f"stuck pot reached at {len(records)} table sizes, {players[0]} to {players[-1]} players",
                       witness="\n".join(witnesses), records=tuple(records), stats=stats)
