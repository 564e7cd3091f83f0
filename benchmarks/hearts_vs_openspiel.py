"""Random legal play: the Hearts reference model against OpenSpiel's ``hearts``.

Both games are driven from Python by the same loop, for the same wall-clock budget each:
at a chance node sample the chance move, otherwise get the legal actions, pick one uniformly
with a seeded ``random.Random`` and apply it; start a new game when one ends.

The headline rate is *player actions per second* (plays, and OpenSpiel's card passes), with
the time spent on chance nodes included. Chance is counted separately because the two games
model it differently: our deal is one move (the shuffled deck), OpenSpiel deals card by card
(52 chance actions a hand, plus the pass direction). The games also differ: ours is two-player
Hearts with matches to 100 over many hands, OpenSpiel's is four-player and one hand a game.

Usage: ``python benchmarks/hearts_vs_openspiel.py [--seconds S] [--seed N]``. Writes
``benchmarks/results/hearts_vs_openspiel.json``. Not a test.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path

from cardcanon.model import hearts
from cardcanon.model.shuffle import SplitMix64

RESULTS = Path(__file__).resolve().parent / "results" / "hearts_vs_openspiel.json"


def run_reference(seconds: float, seed: int) -> dict:
    pick = random.Random(seed)
    chance_rng = SplitMix64(seed)
    legal_moves, apply, sample_chance, new_match = hearts.legal_moves, hearts.apply, hearts.sample_chance, hearts.new_match
    over = hearts.Phase.OVER
    actions = chance = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = new_match()
        while state.phase is not over:
            if state.is_chance:
                state = apply(state, sample_chance(state, chance_rng))
                chance += 1
            else:
                legal = legal_moves(state)
                state = apply(state, legal[pick.randrange(len(legal))])
                actions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"player_actions": actions, "chance_actions": chance, "games": games, "seconds": elapsed,
            "game": "cardcanon two-player Hearts, whole matches to 100, default config"}


def run_openspiel(seconds: float, seed: int) -> dict:
    import pyspiel

    game = pyspiel.load_game("hearts")
    pick = random.Random(seed)
    actions = chance = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()  # uniform in hearts; sampled by probability anyway
                action = outcomes[_sample_index(pick, [p for _, p in outcomes])][0]
                state.apply_action(action)
                chance += 1
            else:
                legal = state.legal_actions()
                state.apply_action(legal[pick.randrange(len(legal))])
                actions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"player_actions": actions, "chance_actions": chance, "games": games, "seconds": elapsed,
            "game": f"OpenSpiel {game} (one four-player hand a game), parameters {game.get_parameters()}"}


def _sample_index(rng: random.Random, probabilities: list[float]) -> int:
    x = rng.random()
    for i, p in enumerate(probabilities):
        x -= p
        if x < 0:
            return i
    return len(probabilities) - 1


def _rates(run: dict) -> dict:
    s = run["seconds"]
    return {**run, "player_actions_per_second": run["player_actions"] / s,
            "all_actions_per_second": (run["player_actions"] + run["chance_actions"]) / s}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="wall-clock budget for each engine")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)

    ours = _rates(run_reference(args.seconds, args.seed))
    print(f"reference model: {ours['player_actions_per_second']:,.0f} player actions/s "
          f"({ours['all_actions_per_second']:,.0f} with chance), {ours['games']} matches")
    try:
        import pyspiel  # noqa: F401
    except ImportError as exc:
        result = {"reference": ours, "openspiel": None, "ratio": None,
                  "note": f"OpenSpiel is not installed ({exc}); install it with `pip install open-spiel`"}
        print(f"OpenSpiel: not available ({exc}); install it with `pip install open-spiel`. No ratio.")
    else:
        theirs = _rates(run_openspiel(args.seconds, args.seed))
        ratio = ours["player_actions_per_second"] / theirs["player_actions_per_second"]
        print(f"OpenSpiel hearts: {theirs['player_actions_per_second']:,.0f} player actions/s "
              f"({theirs['all_actions_per_second']:,.0f} with chance), {theirs['games']} games")
        print(f"ratio (ours / OpenSpiel, player actions per second): {ratio:.2f}")
        result = {"reference": ours, "openspiel": theirs, "ratio": ratio}
    result["python"] = sys.version.split()[0]
    result["machine"] = platform.machine()
    result["budget_seconds"] = args.seconds
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
