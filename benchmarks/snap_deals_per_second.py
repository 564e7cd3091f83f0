"""Snap deals decided per second by the engine, on one core (the kernel is single-threaded).

Each deal: 52 cards, two players, the deal of seed k (SplitMix64 + Fisher-Yates), played with a
deterministic policy until it ends or a position repeats (Brent's cycle detection on whole
positions, SNAP-END-4). Seeds are consecutive, in batches of 10,000 through
:func:`cardcanon.engine.snap.batch`, so the time includes the Python call per batch. Wall-clock
and process CPU time are both reported (the machine may be shared); the target is 50,000
deals per second.

With ``--grid``, it measures instead every deterministic cell of the termination figures (2 to
12 players, flipper-first and owner-first, the index card off and on, 52 cards; and two players on
every deck of 4 suits from 24 to 48 cards) for ``--cell-seconds`` CPU seconds each, and estimates
the core-hours that ``--deals`` deals per cell would take; it writes
``benchmarks/results/snap_termination_estimate.json``.

Usage: ``python benchmarks/snap_deals_per_second.py [--seconds S] [--grid [--cell-seconds S] [--deals N]]``;
writes ``benchmarks/results/snap_deals_per_second.json``, with its provenance and the engine that
ran (``engine``, in words): it measures the compiled kernel only; without it, one line and status 2.
Not a test.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from cardcanon.engine import build, exact
from cardcanon.engine import snap as engine_snap
from cardcanon.model.snap import SnapConfig
from cardcanon.provenance import provenance

RESULTS = Path(__file__).resolve().parent / "results" / "snap_deals_per_second.json"
ESTIMATE = RESULTS.with_name("snap_termination_estimate.json")
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


def rate(config: SnapConfig, policy: str, cpu_seconds: float, batch: int = 500) -> dict:
    """Deals per CPU second of one cell, from consecutive seeds in batches."""
    deals, start = 0, time.process_time()
    while time.process_time() - start < cpu_seconds:
        engine_snap.batch(config, policy, deals, batch)
        deals += batch
    cpu = time.process_time() - start
    return {"deals": deals, "cpu_seconds": cpu, "deals_per_cpu_second": deals / cpu}


def grid(cpu_seconds: float, deals: int) -> dict:
    cells = []
    for players in range(2, 13):
        for policy in ("flipper-first", "owner-first"):
            for index_card in (False, True):
                cell = rate(SnapConfig(players=players, index_card=index_card), policy, cpu_seconds)
                cells.append({"cards": 52, "players": players, "policy": policy, "index_card": index_card, **cell})
    for ranks in range(6, 13):
        for policy in ("flipper-first", "owner-first"):
            cell = rate(SnapConfig(players=2, deck=exact.deck(ranks, 4)), policy, cpu_seconds)
            cells.append({"cards": 4 * ranks, "players": 2, "policy": policy, "index_card": False, **cell})
    for cell in cells:
        cell["core_hours_for_deals"] = deals / cell["deals_per_cpu_second"] / 3600
        print(f"{cell['cards']} cards, {cell['players']:>2} players, {cell['policy']:>13}, index card "
              f"{'on ' if cell['index_card'] else 'off'}: {cell['deals_per_cpu_second']:>9,.0f} deals / CPU s, "
              f"{cell['core_hours_for_deals']:.3f} core-hours for {deals:,}")
    full = sum(c["core_hours_for_deals"] for c in cells if c["cards"] == 52)
    curve = sum(c["core_hours_for_deals"] for c in cells if c["cards"] < 52)
    print(f"52-card cells: {full:.1f} core-hours; 24-48-card curve: {curve:.1f}; total {full + curve:.1f}")
    return {"description": "deals per CPU second of every deterministic termination cell, and the core-hours "
                           f"for {deals:,} deals each", "provenance": provenance(), "deals_per_cell": deals,
            "cpu_seconds_per_measurement": cpu_seconds, "cells": cells,
            "core_hours": {"52_cards": full, "24_to_48_cards": curve, "total": full + curve}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="budget per measurement (default 5)")
    parser.add_argument("--grid", action="store_true", help="measure every termination cell and estimate")
    parser.add_argument("--cell-seconds", type=float, default=1.0, help="CPU seconds per cell (with --grid)")
    parser.add_argument("--deals", type=int, default=1_000_000, help="deals per cell to estimate (with --grid)")
    args = parser.parse_args(argv)
    try:
        build.load()
    except build.EngineUnavailable as exc:
        print(f"snap_deals_per_second: {exc}", file=sys.stderr)
        return 2
    if args.grid:
        estimate = {**grid(args.cell_seconds, args.deals), "engine": str(build.KERNEL)}
        ESTIMATE.write_text(json.dumps(estimate, indent=1) + "\n", encoding="utf-8")
        print(f"results in {ESTIMATE}")
        return 0
    runs = [measure(2, "flipper-first", args.seconds), measure(2, "owner-first", args.seconds)]
    data = {"description": __doc__.splitlines()[0], "engine": str(build.KERNEL), "runs": runs,
            "target_deals_per_second": 50_000,
            "provenance": provenance(), "compiler_flags": list(build.CFLAGS)}
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    for r in runs:
        print(f"{r['players']} players, {r['policy']}: {r['deals_per_second']:,.0f} deals/s "
              f"({r['deals_per_cpu_second']:,.0f} per CPU second), {r['endless']} of {r['deals']} endless")
    print(f"results in {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
