"""Random agents playing the PettingZoo environments of cardcanon.

Usage::

    python examples/random_agents.py hearts --episodes 3 --seed 1
    python examples/random_agents.py snap --players 4 --option index_card=on --render

Each ``--option NAME=VALUE`` sets a variation point of the rulebook (see ``cardcanon rules``).
Needs the ``rl`` extra: ``pip install 'cardcanon[rl]'``.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from cardcanon.envs import hearts_v0, snap_v0


def play(env, seed: int, rng: np.random.Generator) -> tuple[dict[str, float], int, bool]:
    """One episode with uniformly random legal actions: total rewards, steps, truncated."""
    env.reset(seed=seed)
    totals = {agent: 0.0 for agent in env.possible_agents}
    steps, truncated_any = 0, False
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            truncated_any |= truncated
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        steps += 1
    return totals, steps, truncated_any


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=("hearts", "snap"))
    parser.add_argument("--episodes", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=2, help="Snap only: 2 to 12")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a variation point of the rulebook")
    parser.add_argument("--render", action="store_true", help="print the table after every step")
    args = parser.parse_args(argv)

    kwargs = dict(option.split("=", 1) for option in args.option)
    if args.render:
        kwargs["render_mode"] = "human"
    try:
        env = hearts_v0.env(**kwargs) if args.game == "hearts" else snap_v0.env(players=args.players, **kwargs)
    except (TypeError, ValueError, NotImplementedError) as error:  # unknown, wrong or unplayed options
        print(f"random_agents: {error}", file=sys.stderr)
        return 2
    rng = np.random.default_rng(args.seed)
    for episode in range(args.episodes):
        seed = args.seed + episode
        totals, steps, truncated = play(env, seed, rng)
        state = env.unwrapped.state
        ending = "truncated" if truncated else f"{state.outcome}"
        rewards = ", ".join(f"{agent} {total:+g}" for agent, total in totals.items())
        print(f"seed {seed}: {steps} steps, {ending}; rewards {rewards}")
    env.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
