"""SNAP-P5 (lasso): deterministic policies repeat a position, so play can go on forever (SNAP-END-4)."""

from __future__ import annotations

from typing import Any

from cardcanon.model.snap import Call, Flip, Tie
from cardcanon.proofs.base import CheckResult, Run, Verdict
from cardcanon.proofs.records import Record
from cardcanon.proofs.snap.search import play_seed


def check(run: Run) -> CheckResult:
    run.no_probe()
    bounds = run.bounds
    config = run.snap_config(players=int(bounds.get("players", 2)))
    max_flips = int(bounds.get("max_flips", 5000))
    stats: dict[str, Any] = {}
    records: list[Record] = []
    for lasso in bounds.get("lassos", [{"seed": 47, "policy": "flipper-first"}, {"seed": 63, "policy": "owner-first"}]):
        seed, policy = int(lasso["seed"]), str(lasso["policy"])
        played = play_seed(config, seed, policy, max_flips)
        if played.cycle is None:
            how = played.final.outcome.termination.value if played.final.outcome else f"still going after {max_flips} flips"
            label = f"seed {seed} ({policy}): no repeated position ({how})"
            return CheckResult(Verdict.NO_WITNESS, label, witness=label, records=(played.record(label),))
        start, length = played.cycle
        before = in_cycle = flips = 0
        for move in played.moves:
            if isinstance(move, Flip):
                flips += 1
            elif isinstance(move, (Call, Tie)):
                before, in_cycle = (before + 1, in_cycle) if flips <= start else (before, in_cycle + 1)
        label = (f"seed {seed} ({policy}): dealer {played.deal.dealer}; {before} snaps in the first {start} flips, "
                 f"then the position before flip {start + 1} recurs before flip {start + length + 1}, with {in_cycle} "
                 f"snaps in the cycle; the policy is deterministic, so play repeats forever")
        name = policy.replace("-", "_")
        stats.update({f"{name}_seed": seed, f"{name}_cycle_start": start, f"{name}_cycle_length": length,
                      f"{name}_snaps_before_cycle": before, f"{name}_snaps_in_cycle": in_cycle})
        records.append(played.record(label, policy=policy, repeats=(start, length)))
    return CheckResult(Verdict.WITNESS, f"{len(records)} lassos, each replayed by the runner and the engine",
                       witness="\n".join(r["label"] for r in records), records=tuple(records), stats=stats)
