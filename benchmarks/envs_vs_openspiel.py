"""Environment steps per second: ``cardcanon.envs.hearts_v0`` against OpenSpiel's ``hearts``.

One environment step is what a learning loop pays per decision: apply the chosen action, make
the chance moves that follow, and hand the next player his observation and legal actions. Each
side plays uniformly random legal actions (``random.Random(seed)``), starting a new game when
one ends:

- ``cardcanon``: the wrapped PettingZoo environment ``hearts_v0.env()``, driven by the usual AEC
  loop (``agent_iter``, ``last``, ``step``), the action drawn from ``action_mask``.
- ``openspiel``: a ``pyspiel`` state of ``hearts``: ``apply_action``, chance outcomes sampled,
  then ``legal_actions()`` and ``information_state_tensor()`` of the player to move (OpenSpiel's
  hearts has no plain observation tensor).
- ``cardcanon_openspiel``: the same state loop on ``python_cardcanon_hearts(scope=match,engine=kernel)``
  (:mod:`cardcanon.openspiel`, its states stepping on the compiled kernel), for
  ``ratio_openspiel_game_cpu``; ``cardcanon_openspiel_model``: the same with ``engine=model``
  (stepping the reference model), for ``ratio_openspiel_game_model_cpu``. Where the kernel cannot
  play, ``cardcanon_openspiel`` is left out and the result says why (``openspiel_game_note``).
- ``openspiel_rl_environment``: OpenSpiel's own RL wrapper, ``rl_environment.Environment("hearts")``,
  whose ``step`` computes every player's information state.

- ``cardcanon_model``: the same environment on the reference model (``engine="model"``), the
  path taken without a C compiler, for comparison.
- ``cardcanon_snap``: ``snap_v0.env()`` (two players, flipper-first) by the same loop.
- ``vector``: ``hearts_v0.vector_env(n)``, one call stepping ``n`` matches (``--vector N``), timed
  in CPU seconds of this process (one core) and in wall seconds, once with the first legal card
  of every match (the interface alone) and once with a uniformly random legal card drawn by
  numpy for every match. ``snap_vector``: the same for ``snap_v0.vector_env(n)`` (two players,
  flipper-first, every position before a flip kept to find a repeated one, as ``snap_v0`` does);
  its first legal action is always a flip or a pass, so those games end at a repeated position.
  ``snap_vector_without_repeat_check``: the same with ``truncate_on_repeat=False``.

The games differ: ours is two-player Hearts, matches to 100 over many hands; OpenSpiel's is
four-player, one hand a game, with card passing. The headline ratios are cardcanon's steps over
the ``openspiel`` loop's, per wall second (``ratio``) and per CPU second of the process
(``ratio_cpu``); on a loaded machine the CPU figure is the steadier. The budget is cut into
alternating slices (``--rounds``) so that the load of the machine falls on all alike; the spread
of the slice ratios is reported. The provenance records the load average at the end of the run.
Usage: ``python benchmarks/envs_vs_openspiel.py [--seconds S] [--rounds R] [--seed N] [--vector N]``.
Writes ``benchmarks/results/envs_vs_openspiel.json`` with its provenance. Not a test.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from cardcanon.engine import vector as engine_vector
from cardcanon.engine.build import EngineUnavailable
from cardcanon.envs import hearts_v0, snap_v0
from cardcanon.provenance import provenance

RESULTS = Path(__file__).resolve().parent / "results" / "envs_vs_openspiel.json"


class Runner:
    """Counts decisions (steps) and finished games over time slices."""

    game = ""

    def __init__(self) -> None:
        self.counts = {"steps": 0, "games": 0, "seconds": 0.0, "cpu_seconds": 0.0}

    def run(self, seconds: float) -> tuple[float, float]:
        """Play for ``seconds``; the slice's steps per wall second and per CPU second."""
        start, cpu = time.perf_counter(), time.process_time()
        steps, games = self.play(start + seconds)
        elapsed, used = time.perf_counter() - start, time.process_time() - cpu
        self.counts["steps"] += steps
        self.counts["games"] += games
        self.counts["seconds"] += elapsed
        self.counts["cpu_seconds"] += used
        return steps / elapsed, steps / max(used, 1e-9)

    def play(self, deadline: float) -> tuple[int, int]:
        raise NotImplementedError


class CardcanonRunner(Runner):
    def __init__(self, seed: int, engine: str = "kernel", game: str = "hearts") -> None:
        super().__init__()
        self.pick = random.Random(seed)
        self.env = hearts_v0.env(engine=engine) if game == "hearts" else snap_v0.env(engine=engine)
        what = "two-player Hearts, matches to 100" if game == "hearts" else "two-player Snap, flipper-first"
        self.game = f"cardcanon {game}_v0 (PettingZoo AEC, wrapped) on the {engine}, {what}"
        self.env.reset(seed=seed)

    def play(self, deadline: float) -> tuple[int, int]:
        env, pick = self.env, self.pick
        steps = games = 0
        while time.perf_counter() < deadline:
            for _ in range(100):
                if not env.agents:
                    env.reset()
                    games += 1
                observation, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = np.flatnonzero(observation["action_mask"])
                env.step(int(legal[pick.randrange(len(legal))]))
                steps += 1
        return steps, games


class OpenSpielRunner(Runner):
    def __init__(self, seed: int, name: str = "hearts") -> None:
        super().__init__()
        import pyspiel

        if name.startswith("python_cardcanon"):
            import cardcanon.openspiel  # noqa: F401  (registers the games)
        self.spiel_game = pyspiel.load_game(name)
        self.game = (f"OpenSpiel {self.spiel_game} state loop with information_state_tensor, parameters "
                     f"{self.spiel_game.get_parameters()}")
        self.pick = random.Random(seed)
        self.state = self._new_state()

    def _new_state(self):
        state = self.spiel_game.new_initial_state()
        self._chance(state)
        return state

    def _chance(self, state) -> None:
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[self.pick.randrange(len(outcomes))][0])  # uniform in both games

    def play(self, deadline: float) -> tuple[int, int]:
        pick, state = self.pick, self.state
        steps = games = 0
        while time.perf_counter() < deadline:
            for _ in range(100):
                if state.is_terminal():
                    state = self._new_state()
                    games += 1
                legal = state.legal_actions()
                state.information_state_tensor()
                state.apply_action(legal[pick.randrange(len(legal))])
                self._chance(state)
                steps += 1
        self.state = state
        return steps, games


class OpenSpielRLRunner(Runner):
    def __init__(self, seed: int) -> None:
        super().__init__()
        from open_spiel.python import rl_environment

        self.env = rl_environment.Environment("hearts", chance_event_sampler=rl_environment.ChanceEventSampler(seed))
        self.game = f"OpenSpiel rl_environment.Environment({self.env.game})"
        self.pick = random.Random(seed)
        self.time_step = self.env.reset()

    def play(self, deadline: float) -> tuple[int, int]:
        env, pick, time_step = self.env, self.pick, self.time_step
        steps = games = 0
        while time.perf_counter() < deadline:
            for _ in range(100):
                if time_step.last():
                    time_step = env.reset()
                    games += 1
                player = time_step.observations["current_player"]
                legal = time_step.observations["legal_actions"][player]
                time_step = env.step([legal[pick.randrange(len(legal))]])
                steps += 1
        self.time_step = time_step
        return steps, games


def vector_rates(module, n: int, seconds: float, seed: int, **kwargs) -> dict:
    """Steps per CPU second and per wall second of ``module.vector_env(n, **kwargs)`` (each call makes
    one step in ``n`` games)."""
    vector = module.vector_env(n, seed, **kwargs)
    rng = np.random.default_rng(seed)
    out: dict = {"matches_per_call": n, "engine": vector.metadata["engine"],
                 "interface": f"{module.__name__}.vector_env", "keyword_arguments": kwargs}
    if module is snap_v0:
        out["vector_c_sha256"] = hashlib.sha256(engine_vector.SOURCE.read_bytes()).hexdigest()
    for name in ("first_legal", "random_legal"):
        steps = matches = 0
        start, wall = time.process_time(), time.perf_counter()
        while time.process_time() - start < seconds / 2:
            for _ in range(20):
                masks = vector.action_masks
                if name == "first_legal":
                    actions = masks.argmax(axis=1)
                else:
                    # > 0 exactly where legal
                    actions = ((1 + rng.random(masks.shape, dtype=np.float32)) * masks).argmax(axis=1)
                vector.step(actions)
                steps += n
                matches += int(vector.dones.sum())
        cpu, elapsed = time.process_time() - start, time.perf_counter() - wall
        out[name] = {"steps": steps, "matches_finished": matches, "cpu_seconds": cpu, "wall_seconds": elapsed,
                     "steps_per_cpu_second": steps / cpu, "steps_per_second": steps / elapsed}
    return out


def cpu_model() -> str | None:
    """The processor's name (Linux), for the record of the machine."""
    try:
        lines = Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    return next((line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")), None)


def _rates(runner: Runner) -> dict:
    counts = runner.counts
    return {"game": runner.game, **counts, "steps_per_second": counts["steps"] / counts["seconds"],
            "steps_per_cpu_second": counts["steps"] / counts["cpu_seconds"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="wall-clock budget for each runner")
    parser.add_argument("--rounds", type=int, default=10, help="alternating slices the budget is cut into")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--vector", type=int, default=4096, help="matches stepped by one call of vector_env")
    args = parser.parse_args(argv)

    kernel_missing = ""
    runners: dict[str, Runner] = {"cardcanon": CardcanonRunner(args.seed),
                                  "cardcanon_model": CardcanonRunner(args.seed, "model"),
                                  "cardcanon_snap": CardcanonRunner(args.seed, "kernel", "snap")}
    engine = runners["cardcanon"].env.unwrapped.metadata["engine"]  # type: ignore[attr-defined]
    try:
        runners["openspiel"] = OpenSpielRunner(args.seed)
        runners["openspiel_rl_environment"] = OpenSpielRLRunner(args.seed)
        runners["cardcanon_openspiel_model"] = OpenSpielRunner(args.seed,
                                                               "python_cardcanon_hearts(scope=match,engine=model)")
        runners["cardcanon_openspiel"] = OpenSpielRunner(args.seed, "python_cardcanon_hearts(scope=match,engine=kernel)")
    except ImportError as exc:
        missing = f"OpenSpiel is not installed ({exc}); install it with `pip install -e '.[bench]'`"
    except EngineUnavailable as exc:
        kernel_missing = f"python_cardcanon_hearts cannot step on the compiled kernel here: {exc}"
    load_at_start = provenance()["load_average"]
    slice_rates: dict[str, list[tuple[float, float]]] = {name: [] for name in runners}
    for _ in range(args.rounds):
        for name, runner in runners.items():
            slice_rates[name].append(runner.run(args.seconds / args.rounds))

    result: dict = {"provenance": provenance(), "load_average_at_start": load_at_start, "cpu": cpu_model(),
                    "engine": engine}
    result.update({name: _rates(runner) for name, runner in runners.items()})
    for name in ("cardcanon", "cardcanon_model", "cardcanon_snap"):
        print(f"{result[name]['game']}: {result[name]['steps_per_second']:,.0f} steps/s, "
              f"{result[name]['games']} games finished")
    for key, module, kwargs in (("vector", hearts_v0, {}), ("snap_vector", snap_v0, {}),
                                ("snap_vector_without_repeat_check", snap_v0, {"truncate_on_repeat": False})):
        result[key] = vector_rates(module, args.vector, args.seconds, args.seed, **kwargs)
        for name in ("first_legal", "random_legal"):
            rate = result[key][name]
            call = ", ".join([str(args.vector), *(f"{k}={v}" for k, v in kwargs.items())])
            print(f"{module.__name__.rsplit('.')[-1]}.vector_env({call}), {name.replace('_', ' ')} action: "
                  f"{rate['steps_per_cpu_second']:,.0f} steps per CPU second ({rate['steps_per_second']:,.0f} per wall "
                  f"second)")
    if "openspiel" not in runners:
        result.update(openspiel=None, ratio=None, note=missing)
        print(f"OpenSpiel: not available: {missing}. No ratio.")
    else:
        for name in ("openspiel", "openspiel_rl_environment", "cardcanon_openspiel", "cardcanon_openspiel_model"):
            if name in result:
                print(f"{name}: {result[name]['steps_per_second']:,.0f} steps/s, {result[name]['games']} games finished")
        ours = result["cardcanon"]["steps_per_second"]
        result["ratio"] = ours / result["openspiel"]["steps_per_second"]
        result["ratio_vs_rl_environment"] = ours / result["openspiel_rl_environment"]["steps_per_second"]
        result["ratio_cpu"] = result["cardcanon"]["steps_per_cpu_second"] / result["openspiel"]["steps_per_cpu_second"]
        for key, name in (("ratio_openspiel_game_cpu", "cardcanon_openspiel"),
                          ("ratio_openspiel_game_model_cpu", "cardcanon_openspiel_model")):
            result[key] = (result[name]["steps_per_cpu_second"] / result["openspiel"]["steps_per_cpu_second"]
                           if name in result else None)
        if kernel_missing:
            result["openspiel_game_note"] = kernel_missing
        for key, k in (("slice_ratios", 0), ("slice_ratios_cpu", 1)):
            slices = sorted(a[k] / b[k] for a, b in zip(slice_rates["cardcanon"], slice_rates["openspiel"]))
            result[key] = {"min": slices[0], "median": statistics.median(slices), "max": slices[-1]}
        wall, cpu = result["slice_ratios"], result["slice_ratios_cpu"]
        print(f"ratio (cardcanon / OpenSpiel state loop): {result['ratio']:.2f} per wall second (slice by slice "
              f"{wall['min']:.2f} to {wall['max']:.2f}), {result['ratio_cpu']:.2f} per CPU second ({cpu['min']:.2f} to "
              f"{cpu['max']:.2f}); against OpenSpiel's rl_environment: {result['ratio_vs_rl_environment']:.2f}")
        for engine_name, key in (("kernel", "ratio_openspiel_game_cpu"), ("model", "ratio_openspiel_game_model_cpu")):
            ratio = result[key]
            print(f"ratio (python_cardcanon_hearts on the {engine_name} / OpenSpiel's hearts, the same state loop): "
                  + (f"{ratio:.3f} per CPU second" if ratio is not None else kernel_missing))
    result.update(budget_seconds=args.seconds, rounds=args.rounds, seed=args.seed)
    result["provenance"] = provenance()  # the load average at the end of the run
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
