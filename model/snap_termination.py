"""How often Snap games end, and how long they last (SNAP-END-4 in numbers).

For each player count and calling policy, deals ``0 .. N-1`` (the seed is the deal number) are
played with :func:`cardcanon.model.snap_fast.fast_game`, which plays what
:func:`cardcanon.model.snap_policies.play_game` plays, faster (the tests compare them game for
game; ``reference=True`` uses the reference model itself). Deterministic policies either end
or repeat a position, and a repeat is proof the game never ends (exact). A repeat under a
random policy proves nothing, so random policies are run up to a flip cap and games still going
then are reported as "not ended within the cap", never as endless.

    python -m cardcanon.model.snap_termination --deals 2000 --out results/snap_termination.json
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from cardcanon.model.snap import SnapConfig
from cardcanon.model.snap_fast import FastResult, fast_game
from cardcanon.model.snap_policies import GameResult, parse_policy, play_game

PLAYERS = (2, 3, 4, 6)
POLICIES = ("flipper-first", "owner-first", "ties:0.1", "errors:0.05")
RANDOM_CAP = 20_000  # flip cap for random policies
SAFETY_CAP = 1_000_000  # deterministic policies: never reached in practice; reported if it is
QUANTILES = (0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99, 1.0)
BIN_EDGES = (0, 50, 100, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 10000, 20000)
Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default)."""
    if trials <= 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials and trials > 0, got {successes}/{trials}")
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """Linear-interpolation quantile (the usual "type 7") of already sorted values."""
    if not sorted_values:
        raise ValueError("quantile of no values")
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"quantile level {q} outside 0..1")
    pos = q * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def histogram(values: Iterable[int], edges: Sequence[int] = BIN_EDGES) -> list[dict]:
    """Counts in bins ``[edges[i], edges[i+1])``; a last open bin ``[edges[-1], inf)``."""
    counts = Counter()
    for v in values:
        i = next((k for k in range(len(edges) - 1) if v < edges[k + 1]), len(edges) - 1)
        if v < edges[0]:
            raise ValueError(f"value {v} below the first bin edge {edges[0]}")
        counts[i] += 1
    bins = [{"from": edges[i], "to": edges[i + 1], "count": counts[i]} for i in range(len(edges) - 1)]
    return bins + [{"from": edges[-1], "to": None, "count": counts[len(edges) - 1]}]


def distribution(values: Sequence[int]) -> dict | None:
    if not values:
        return None
    ordered = sorted(values)
    return {
        "count": len(ordered),
        "mean": sum(ordered) / len(ordered),
        "quantiles": {f"{q:g}": quantile(ordered, q) for q in QUANTILES},
        "histogram": histogram(ordered),
    }


def summarise(results: Sequence[GameResult | FastResult], deterministic: bool, cap: int) -> dict:
    """The numbers of one cell from its games."""
    n = len(results)
    ended = [r for r in results if r.status == "ended"]
    endless = [r for r in results if r.status == "endless"]
    capped = [r for r in results if r.status == "capped"]
    cell = {
        "deals": n,
        "ended": len(ended),
        "terminations": dict(Counter(r.outcome.termination.value for r in ended)),
        "flips_of_ended_games": distribution([r.flips for r in ended]),
        "flip_cap": cap,
        "not_ended_within_cap": len(capped),
    }
    if deterministic:
        lo, hi = wilson(len(endless), n)
        cell["endless"] = len(endless)
        cell["endless_fraction"] = {"estimate": len(endless) / n, "wilson95": [lo, hi]}
        cell["cycle_lengths"] = distribution([r.endless.length for r in endless])
        cell["cycle_starts"] = distribution([r.endless.start for r in endless])
    else:
        lo, hi = wilson(len(capped), n)
        cell["endless"] = None  # a repeat under a random policy proves nothing
        cell["not_ended_fraction"] = {"estimate": len(capped) / n, "wilson95": [lo, hi]}
    return cell


def measure(players: int, policy: str, deals: int, first_seed: int = 0, reference: bool = False) -> dict:
    """Play ``deals`` seeded deals for one cell and summarise them."""
    pol = parse_policy(policy)
    cap = SAFETY_CAP if pol.deterministic else RANDOM_CAP
    config = SnapConfig(players=players)
    start = time.perf_counter()
    play = play_game if reference else fast_game
    results = [play(config, seed, pol, max_flips=cap) for seed in range(first_seed, first_seed + deals)]
    cell = summarise(results, pol.deterministic, cap)
    cell.update(players=players, policy=pol.name, seeds=[first_seed, first_seed + deals - 1],
                seconds=round(time.perf_counter() - start, 1))
    return cell


def run(deals: int, players: Sequence[int] = PLAYERS, policies: Sequence[str] = POLICIES, log=None) -> dict:
    cells = []
    for p in players:
        for policy in policies:
            cells.append(measure(p, policy, deals))
            if log:
                c = cells[-1]
                print(f"{p} players, {policy}: {c['ended']}/{deals} ended, endless {c['endless']}, "
                      f"capped {c['not_ended_within_cap']} ({c['seconds']} s)", file=log, flush=True)
    return {
        "description": "Snap termination under the named calling policies; seeds 0..deals-1, "
                       "one deal per seed (cardcanon.model.snap_policies.play_game).",
        "deals_per_cell": deals,
        "random_policy_flip_cap": RANDOM_CAP,
        "deterministic_safety_cap": SAFETY_CAP,
        "confidence": "95% Wilson score interval",
        "quantile_method": "linear interpolation (type 7)",
        "simulator": "cardcanon.model.snap_fast.fast_game, checked game for game against "
                     "cardcanon.model.snap_policies.play_game by tests/test_snap_termination.py",
        "cells": cells,
    }


def find_cycle(players: int = 2, policy: str = "flipper-first", seeds: Iterable[int] = range(100_000),
               config: SnapConfig | None = None) -> GameResult | None:
    """The first seeded game that is endless under a deterministic policy, or None. The search
    runs on the fast simulator; the game returned is the reference model's, with every move."""
    pol = parse_policy(policy)
    if not pol.deterministic:
        raise ValueError(f"policy {policy!r} is random; a repeated position proves nothing under it")
    config = config or SnapConfig(players=players)
    for seed in seeds:
        if fast_game(config, seed, pol, max_flips=SAFETY_CAP).endless:
            result = play_game(config, seed, pol, max_flips=SAFETY_CAP)
            if not result.endless:
                raise RuntimeError(f"the fast simulator and the model disagree on seed {seed}")
            return result
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cardcanon.model.snap_termination",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals per cell (default 1000)")
    parser.add_argument("--players", type=int, nargs="+", default=list(PLAYERS))
    parser.add_argument("--policies", nargs="+", default=list(POLICIES))
    parser.add_argument("--out", help="write the JSON here (default: standard output)")
    parser.add_argument("--merge", nargs="+", metavar="JSON", help="merge the cells of earlier runs instead")
    args = parser.parse_args(argv)
    if args.merge:
        return _write(merge([json.loads(Path(f).read_text(encoding="utf-8")) for f in args.merge]), args.out)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    try:
        for policy in args.policies:
            parse_policy(policy)
        for players in args.players:
            SnapConfig(players=players)
    except ValueError as exc:
        parser.error(str(exc))
    return _write(run(args.deals, args.players, args.policies, log=sys.stderr), args.out)


def merge(runs: Sequence[dict]) -> dict:
    """One document from runs over disjoint cells (e.g. player counts run in parallel)."""
    if len({r["deals_per_cell"] for r in runs}) != 1:
        raise ValueError("the runs differ in deals per cell")
    cells = [c for r in runs for c in r["cells"]]
    keys = [(c["players"], c["policy"]) for c in cells]
    if len(set(keys)) != len(keys):
        raise ValueError("the runs overlap")
    order = {p: i for i, p in enumerate(POLICIES)}
    cells.sort(key=lambda c: (c["players"], order.get(c["policy"], len(order)), c["policy"]))
    return {**runs[0], "cells": cells}


def _write(data: dict, out: str | None) -> int:
    text = json.dumps(data, indent=1) + "\n"
    if out:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
