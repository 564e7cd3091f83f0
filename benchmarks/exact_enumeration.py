"""Exact Snap enumeration: canonical rank sequences decided per second, and Dask's parallel efficiency.

1. Per core: :func:`cardcanon.engine.exact.decide_range` in this process (the kernel is
   single-threaded), two players, each policy on its own, for samples of the 16-, 20- and
   24-card decks (``--samples`` ranges of ``--sample-size`` consecutive sequences at evenly
   spaced starts, so the sample spans the whole lexicographic order; the whole deck when it is
   smaller). Wall-clock and process CPU time are both reported; on a shared machine
   the CPU rate is the one to use.
2. Parallel efficiency: the same list of chunks (the 16-card deck, both policies) run by
   ``cardcanon.exact.run`` on a Dask ``LocalCluster`` of 1 and of 2 single-threaded workers;
   efficiency = T1 / (2 * T2), wall-clock. The load average before and after is recorded: other
   work on the machine lowers the figure. ``cpu_efficiency`` compares the workers' CPU seconds
   (1 worker / 2 workers): the work the split adds, unaffected by sharing the machine.
3. The cost of the 24-card deck (about 4.5e12 sequences) in core-hours at the measured 24-card
   rate, and the cores a cluster needs to finish it in a day at the measured CPU efficiency
   (and, more pessimistic on a shared machine, at the wall-clock efficiency).

Usage: ``python benchmarks/exact_enumeration.py``; writes
``benchmarks/results/exact_enumeration.json``. Not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from cardcanon import exact as driver
from cardcanon.engine import exact
from cardcanon.provenance import provenance

RESULTS = Path(__file__).resolve().parent / "results" / "exact_enumeration.json"


def rate(ranks: int, suits: int, policy: str, samples: int, size: int) -> dict:
    total = exact.count(ranks, suits)
    if total <= samples * size:
        ranges = [(0, total)]
    else:
        step = (total - size) // (samples - 1)
        ranges = [(k * step, size) for k in range(samples)]
    exact.kernel()
    wall, cpu = time.perf_counter(), time.process_time()
    tallies = [exact.decide_range(2, ranks, suits, first, n, (policy,))[policy] for first, n in ranges]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    n = sum(c for _, c in ranges)
    endless = sum(t["endless"] for t in tallies)
    return {"ranks": ranks, "suits": suits, "cards": ranks * suits, "policy": policy, "canonical_sequences": total,
            "decided": n, "whole_deck": n == total, "endless_in_sample": endless, "seconds": wall,
            "cpu_seconds": cpu, "per_second": n / wall, "per_cpu_second": n / cpu}


def _warm_up() -> None:
    from cardcanon import exact as driver_module  # noqa: F401

    exact.kernel()


def efficiency(chunk: int) -> dict:
    from dask.distributed import Client, LocalCluster

    times, cpu = {}, {}
    for workers in (1, 2):
        folder = Path(tempfile.mkdtemp(prefix="cardcanon-bench-"))
        try:
            with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0") as c, \
                    Client(c) as client:
                client.run(_warm_up)  # every worker imports the package and loads the kernel first
                cpu0 = sum(client.run(time.process_time).values())
                start = time.perf_counter()
                driver.run(2, 4, 4, exact.POLICIES, folder, chunk=chunk, quiet=True, client=client)
                times[workers] = time.perf_counter() - start
                cpu[workers] = sum(client.run(time.process_time).values()) - cpu0
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    return {"deck": "4 ranks x 4 suits, both policies", "chunk": chunk, "seconds_1_worker": times[1],
            "seconds_2_workers": times[2], "efficiency": times[1] / (2 * times[2]),
            "worker_cpu_seconds_1_worker": cpu[1], "worker_cpu_seconds_2_workers": cpu[2],
            "cpu_efficiency": cpu[1] / cpu[2]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=64)
    parser.add_argument("--sample-size", type=int, default=4000)
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    rates = [rate(r, 4, p, args.samples, args.sample_size) for r in (4, 5, 6) for p in exact.POLICIES]
    eff = efficiency(chunk=100_000)
    load_after = os.getloadavg()
    both = {}
    for r in (4, 5, 6):
        per = [x["per_cpu_second"] for x in rates if x["ranks"] == r]
        both[r] = 1 / sum(1 / x for x in per)  # sequences per CPU second for both policies
    total24 = exact.count(6, 4)
    core_hours = total24 / both[6] / 3600
    cores_day = core_hours / 24 / min(eff["cpu_efficiency"], 1.0)
    cores_day_wall = core_hours / 24 / min(eff["efficiency"], 1.0)
    data = {
        "benchmark": "canonical rank sequences decided per second (two players, compiled kernel)",
        "provenance": provenance(), "load_average_before": load_before, "load_average_after": load_after,
        "note": "shared machine: other jobs ran during the measurement (see the load averages); CPU-second "
                "rates are per core, the efficiency is wall-clock and suffers from the sharing",
        "rates": rates,
        "both_policies_per_cpu_second": {f"{r * 4} cards": v for r, v in both.items()},
        "parallel_efficiency_2_vs_1": eff,
        "estimate_24_cards": {"canonical_sequences": total24, "core_hours_both_policies": core_hours,
                              "cores_to_finish_in_24_hours": cores_day,
                              "cores_to_finish_in_24_hours_at_the_wall_clock_efficiency": cores_day_wall},
    }
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    for x in rates:
        print(f"{x['cards']} cards {x['policy']:>13}: {x['per_cpu_second']:>12,.0f} sequences / CPU s "
              f"({x['per_second']:,.0f} / s wall)")
    print(f"parallel efficiency 2 vs 1 workers: {eff['efficiency']:.3f} (load {load_before[0]:.1f} -> {load_after[0]:.1f})")
    print(f"24 cards: {core_hours:,.0f} core-hours; {cores_day:,.0f} cores finish it in a day "
          f"({cores_day_wall:,.0f} at the wall-clock efficiency)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
