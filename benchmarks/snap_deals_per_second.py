"""Snap deals decided per second by the engine, on one core (the kernel is single-threaded).

Each deal: 52 cards, two players, the deal of seed k (SplitMix64 + Fisher-Yates), played with a
deterministic policy until it ends or a position repeats (Brent's cycle detection on whole
positions, SNAP-END-4). Seeds are consecutive, in batches of 10,000 through
:func:`cardcanon.engine.snap.batch`, so the time includes the Python call per batch. Wall-clock
and process CPU time are both reported (the machine may be shared); the target is 50,000
deals per second.

Usage: ``python benchmarks/snap_deals_per_second.py [--seconds S]``; writes
``benchmarks/results/snap_deals_per_second.json``. Not a test.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

from cardcanon.engine import build
from cardcanon.engine import snap as engine_snap
from cardcanon.model.snap import SnapConfig

RESULTS = Path(__file__).resolve().parent / "results" / "snap_deals_per_second.json"
BATCH = 10_000


def measure(players: int, policy: str, seconds: float) -> dict:
    config = SnapConfig(players=players)
    deals, batches = 0, []
    wall, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        batches.append(engine_snap.batch(config, policy, deals, BATCH).raw)
        deals += BATCH
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    endless = sum(1 for raw in batches for k in range(BATCH) if raw[8 * k] == 1)  # tallied after timing
    flips = sum(raw[8 * k + 3] for raw in batches for k in range(BATCH))
    return {"players": players, "policy": policy, "deals": deals, "endless": endless,
            "mean_flips_to_verdict": flips / deals, "seconds": wall, "cpu_seconds": cpu,
            "deals_per_second": deals / wall, "deals_per_cpu_second": deals / cpu}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="budget per measurement (default 5)")
    args = parser.parse_args(argv)
    build.load()
    runs = [measure(2, "flipper-first", args.seconds), measure(2, "owner-first", args.seconds)]
    data = {"description": __doc__.splitlines()[0], "runs": runs, "target_deals_per_second": 50_000,
            "python": platform.python_version(), "machine": platform.machine(), "compiler_flags": list(build.CFLAGS)}
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    for r in runs:
        print(f"{r['players']} players, {r['policy']}: {r['deals_per_second']:,.0f} deals/s "
              f"({r['deals_per_cpu_second']:,.0f} per CPU second), {r['endless']} of {r['deals']} endless")
    print(f"results in {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
