"""Random Hearts, native loop against native loop: the cardcanon engine against OpenSpiel.

- cardcanon: :func:`cardcanon.engine.hearts.bench` plays whole two-player matches to 100 inside
  the compiled kernel (chance and both players' uniformly random plays, the random players of
  :mod:`cardcanon.model.hearts_players`).
- OpenSpiel: ``pyspiel.evaluate_bots`` plays a ``hearts`` game (four players, one hand) in C++
  with ``make_uniform_random_bot`` players. The first chance node (the pass direction) is
  applied from Python so that the number of player actions of each game is known exactly:
  52 plays, plus 12 card passes unless the direction is "No Pass".

The headline is *player actions per second* (plays, and OpenSpiel's passes) with chance
included in the time; ``ratio`` = cardcanon / OpenSpiel. The games differ (two players and a
28-card deck against four and 52), so this compares engines, not games. Both run one after the
other in one process on one core, for the same wall-clock budget; CPU seconds are reported too
because the machine may be shared.

Usage: ``python benchmarks/engine_vs_openspiel.py [--seconds S] [--seed N]``; writes
``benchmarks/results/engine_vs_openspiel.json``. Not a test.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from cardcanon.engine import hearts as engine_hearts
from cardcanon.engine.build import EngineUnavailable
from cardcanon.provenance import provenance

RESULTS = Path(__file__).resolve().parent / "results" / "engine_vs_openspiel.json"


def _timed(run_once, seconds: float) -> tuple[int, int, float, float]:
    """Call ``run_once() -> (actions, games)`` until the budget is spent."""
    actions = games = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        a, g = run_once()
        actions += a
        games += g
    return actions, games, time.perf_counter() - wall, time.process_time() - cpu


def run_engine(seconds: float, seed: int) -> dict:
    next_seed = [seed]

    def once():
        plays, _hands = engine_hearts.bench(next_seed[0], 200)
        next_seed[0] += 200
        return plays, 200

    actions, games, wall, cpu = _timed(once, seconds)
    return {"game": "cardcanon two-player Hearts, whole matches to 100, default rules, random players",
            "loop": "cardcanon.engine.hearts.bench (compiled kernel)", "player_actions": actions,
            "matches": games, "seconds": wall, "cpu_seconds": cpu,
            "player_actions_per_second": actions / wall, "player_actions_per_cpu_second": actions / cpu}


def run_openspiel(seconds: float, seed: int) -> dict:
    import pyspiel

    game = pyspiel.load_game("hearts")
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(game.num_players())]
    pick = random.Random(seed)
    counter = [seed]

    def once():
        state = game.new_initial_state()
        direction = pick.randrange(4)  # the pass direction: uniform, as chance_outcomes() says
        passes = 0 if state.action_to_string(direction) == "No Pass" else 12
        state.apply_action(direction)
        counter[0] += 1
        pyspiel.evaluate_bots(state, bots, counter[0])
        return 52 + passes, 1

    actions, games, wall, cpu = _timed(once, seconds)
    return {"game": f"OpenSpiel {game} (four players, one hand a game)", "parameters": str(game.get_parameters()),
            "loop": "pyspiel.evaluate_bots with make_uniform_random_bot (C++)", "player_actions": actions,
            "games": games, "seconds": wall, "cpu_seconds": cpu,
            "player_actions_per_second": actions / wall, "player_actions_per_cpu_second": actions / cpu}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="budget for each side (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("OpenSpiel is not installed: pip install open-spiel", file=sys.stderr)
        return 2
    try:
        engine = run_engine(args.seconds, args.seed)
    except EngineUnavailable as exc:  # it measures the compiled kernel, never the model
        print(f"engine_vs_openspiel: {exc}", file=sys.stderr)
        return 2
    openspiel = run_openspiel(args.seconds, args.seed)
    data = {"engine": engine, "openspiel": openspiel,
            "ratio": engine["player_actions_per_second"] / openspiel["player_actions_per_second"],
            "ratio_cpu": engine["player_actions_per_cpu_second"] / openspiel["player_actions_per_cpu_second"],
            "target_ratio": 1.0, "budget_seconds": args.seconds, "provenance": provenance()}
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"cardcanon engine: {engine['player_actions_per_second']:,.0f} player actions/s "
          f"({engine['player_actions_per_cpu_second']:,.0f} per CPU second)")
    print(f"OpenSpiel hearts: {openspiel['player_actions_per_second']:,.0f} player actions/s "
          f"({openspiel['player_actions_per_cpu_second']:,.0f} per CPU second)")
    print(f"ratio {data['ratio']:.1f} (CPU time: {data['ratio_cpu']:.1f}); results in {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
