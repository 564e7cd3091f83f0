"""Random legal play: the Hearts reference model against OpenSpiel's ``hearts``.

Both games are driven from Python by the same loop, for the same wall-clock budget each:
at a chance node sample the chance move, otherwise get the legal actions, pick one uniformly
with a seeded ``random.Random`` and apply it; start a new game when one ends.

The headline rate is *player actions per second* (plays, and OpenSpiel's card passes), with
the time spent on chance nodes included. Chance is counted separately because the two games
model it differently: our deal is one move (the shuffled deck), OpenSpiel deals card by card
(52 chance actions a hand, plus the pass direction). The games also differ: ours is two-player
Hearts with matches to 100 over many hands, OpenSpiel's is four-player and one hand a game.

The budget is cut into alternating slices (``--rounds``) so that both engines see the same
machine load; the spread of the slice-by-slice ratios is reported too, as a measure of how much
the load moved the result. Usage: ``python benchmarks/hearts_vs_openspiel.py [--seconds S] [--rounds R]
[--seed N]``. Writes
``benchmarks/results/hearts_vs_openspiel.json``. Not a test.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

from cardcanon.model import hearts
from cardcanon.model.shuffle import SplitMix64
from cardcanon.provenance import provenance

RESULTS = Path(__file__).resolve().parent / "results" / "hearts_vs_openspiel.json"


class ReferenceRunner:
    """Random matches of the reference model; ``run`` plays on for a time slice."""

    game = "cardcanon two-player Hearts, whole matches to 100, default config"

    def __init__(self, seed: int) -> None:
        self.pick = random.Random(seed)
        self.chance_rng = SplitMix64(seed)
        self.state = hearts.new_game()
        self.counts = {"player_actions": 0, "chance_actions": 0, "games": 0, "seconds": 0.0}

    def run(self, seconds: float) -> None:
        legal_moves, apply, sample_chance = hearts.legal_moves, hearts.apply, hearts.sample_chance
        over = hearts.Phase.OVER
        pick, chance_rng, state = self.pick, self.chance_rng, self.state
        actions = chance = games = 0
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            for _ in range(100):  # check the clock every 100 moves
                if state.phase is over:
                    state = hearts.new_game()
                    games += 1
                elif state.is_chance:
                    state = apply(state, sample_chance(state, chance_rng))
                    chance += 1
                else:
                    legal = legal_moves(state)
                    state = apply(state, legal[pick.randrange(len(legal))])
                    actions += 1
        self.state = state
        self._add(actions, chance, games, time.perf_counter() - start)

    def _add(self, actions, chance, games, seconds) -> None:
        c = self.counts
        c["player_actions"] += actions
        c["chance_actions"] += chance
        c["games"] += games
        c["seconds"] += seconds


class OpenSpielRunner(ReferenceRunner):
    """Random games of OpenSpiel's ``hearts``, driven by the same loop."""

    def __init__(self, seed: int) -> None:
        import pyspiel

        self.spiel_game = pyspiel.load_game("hearts")
        self.game = f"OpenSpiel {self.spiel_game} (one four-player hand a game), parameters " \
                    f"{self.spiel_game.get_parameters()}"
        self.pick = random.Random(seed)
        self.state = self.spiel_game.new_initial_state()
        self.counts = {"player_actions": 0, "chance_actions": 0, "games": 0, "seconds": 0.0}

    def run(self, seconds: float) -> None:
        pick, state = self.pick, self.state
        actions = chance = games = 0
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            for _ in range(100):
                if state.is_terminal():
                    state = self.spiel_game.new_initial_state()
                    games += 1
                elif state.is_chance_node():
                    outcomes = state.chance_outcomes()  # uniform in hearts; sampled by probability anyway
                    state.apply_action(outcomes[_sample_index(pick, [p for _, p in outcomes])][0])
                    chance += 1
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[pick.randrange(len(legal))])
                    actions += 1
        self.state = state
        self._add(actions, chance, games, time.perf_counter() - start)


def _sample_index(rng: random.Random, probabilities: list[float]) -> int:
    x = rng.random()
    for i, p in enumerate(probabilities):
        x -= p
        if x < 0:
            return i
    return len(probabilities) - 1


def _rates(runner) -> dict:
    run = runner.counts
    s = run["seconds"]
    return {"game": runner.game, **run, "player_actions_per_second": run["player_actions"] / s,
            "all_actions_per_second": (run["player_actions"] + run["chance_actions"]) / s}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="wall-clock budget for each engine")
    parser.add_argument("--rounds", type=int, default=10, help="alternating slices the budget is cut into")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)

    runners = {"reference": ReferenceRunner(args.seed)}
    try:
        runners["openspiel"] = OpenSpielRunner(args.seed)
    except ImportError as exc:
        missing = f"OpenSpiel is not installed ({exc}); install it with `pip install open-spiel`"
    # Alternate short slices, so that a change in the machine's load affects both alike.
    slice_rates: dict[str, list[float]] = {name: [] for name in runners}
    for _ in range(args.rounds):
        for name, runner in runners.items():
            before = runner.counts["player_actions"], runner.counts["seconds"]
            runner.run(args.seconds / args.rounds)
            slice_rates[name].append((runner.counts["player_actions"] - before[0])
                                     / (runner.counts["seconds"] - before[1]))

    ours = _rates(runners["reference"])
    print(f"reference model: {ours['player_actions_per_second']:,.0f} player actions/s "
          f"({ours['all_actions_per_second']:,.0f} with chance), {ours['games']} matches finished")
    if "openspiel" not in runners:
        result = {"reference": ours, "openspiel": None, "ratio": None, "note": missing}
        print(f"OpenSpiel: not available: {missing}. No ratio.")
    else:
        theirs = _rates(runners["openspiel"])
        ratio = ours["player_actions_per_second"] / theirs["player_actions_per_second"]
        print(f"OpenSpiel hearts: {theirs['player_actions_per_second']:,.0f} player actions/s "
              f"({theirs['all_actions_per_second']:,.0f} with chance), {theirs['games']} games finished")
        # The ratio of each pair of adjacent slices shows how much the machine's load moved it.
        slice_ratios = sorted(a / b for a, b in zip(slice_rates["reference"], slice_rates["openspiel"]))
        print(f"ratio (ours / OpenSpiel, player actions per second): {ratio:.2f} "
              f"(slice by slice: {slice_ratios[0]:.2f} to {slice_ratios[-1]:.2f}, "
              f"median {statistics.median(slice_ratios):.2f})")
        result = {"reference": ours, "openspiel": theirs, "ratio": ratio,
                  "slice_ratios": {"min": slice_ratios[0], "median": statistics.median(slice_ratios),
                                   "max": slice_ratios[-1]}}
    result["provenance"] = provenance()
    result["budget_seconds"] = args.seconds
    result["rounds"] = args.rounds
    result["seed"] = args.seed
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
