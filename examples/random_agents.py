"""Random agents playing the PettingZoo environments of cardcanon.

Usage::

    python examples/random_agents.py hearts --episodes 3 --seed 1
    python examples/random_agents.py snap --players 4 --option index_card=on --render
    python examples/random_agents.py hearts --engine model   # no C compiler: the reference model

The compiled kernel plays by default; where it cannot be built (no C compiler) the script says
why in one line and exits with status 2, and ``--engine model`` (or ``kernel-or-model``) plays
the reference model instead, more slowly. Each ``--option NAME=VALUE`` sets a variation point of the rulebook (see ``cardcanon rules``),
each NAME at most once. Bad input ends with one line on standard error and exit status 2.
Needs the ``rl`` extra: ``pip install 'cardcanon[rl]'``.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from cardcanon.cli import use_fallback_where_needed
from cardcanon.cli_args import SEED_MAX, integer_range
from cardcanon.cli_args import seed as seed_arg
from cardcanon.engine.build import EngineUnavailable
from cardcanon.envs import hearts_v0, snap_v0
from cardcanon.envs._engine import ENGINES
from cardcanon.envs.options import variation_rules
from cardcanon.model import hearts_text, snap_text

PROG = "random_agents"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]  # one line, not usage + message
        self.exit(2, f"{PROG}: error: {message}\n")


def fail(message: str) -> int:
    """Bad input: one line on standard error, exit status 2."""
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return 2


def options(game: str, items: list[str]) -> dict[str, str]:
    """``["index_card=on"]`` as ``{"index_card": "on"}``: each NAME a variation point of ``game``, given
    once (the environment checks each VALUE); ValueError otherwise."""
    known = variation_rules(game)
    chosen: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or name not in known:
            raise ValueError(f"--option {item[:40]!r}: expected NAME=VALUE with NAME one of {', '.join(known)}")
        if name in chosen:
            raise ValueError(f"--option {name}={chosen[name]} and --option {item[:40]}: {name} is given twice")
        chosen[name] = value
    return chosen


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


def result(game: str, state) -> str:
    """How the episode's game ended, in the rulebook's words."""
    if state.outcome is None:
        return "not over"
    if game == "hearts":
        return hearts_text.result_text(state.outcome, state.hand_number, state.config.target)
    winner = state.outcome.winner
    return snap_text.result_text(state.outcome.termination.value, winner and winner.index, state.flips).rstrip(".")


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(prog=PROG, description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=("hearts", "snap"))
    parser.add_argument("--episodes", type=integer_range(1, 1_000_000, "a number of episodes"), default=3,
                        help="1 to 1000000 (default 3)")
    parser.add_argument("--seed", type=seed_arg, default=0, help=f"the first episode's seed, 0 to {SEED_MAX}")
    parser.add_argument("--players", type=integer_range(2, 12, "a number of players"), default=None,
                        help="Snap only: 2 to 12 (default 2)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a variation point of the rulebook")
    parser.add_argument("--render", action="store_true", help="print the table after every step")
    parser.add_argument("--engine", choices=ENGINES, default=None,
                        help="what plays: the compiled kernel (default), the reference model, or the kernel "
                             "where it can play and the model elsewhere")
    args = parser.parse_args(argv)
    use_fallback_where_needed()  # cards as "Kc" on a terminal that cannot show "K♣"
    if args.players is not None and args.game == "hearts":
        return fail("--players applies to Snap only; two-player Hearts has 2 players")
    if args.seed + args.episodes - 1 > SEED_MAX:
        return fail(f"--seed {args.seed} with --episodes {args.episodes} would use seeds above {SEED_MAX}")
    try:
        kwargs: dict[str, object] = dict(options(args.game, args.option), engine=args.engine)
        if args.render:
            kwargs["render_mode"] = "human"
        env = hearts_v0.env(**kwargs) if args.game == "hearts" else snap_v0.env(players=args.players or 2, **kwargs)
    except (TypeError, ValueError, NotImplementedError) as error:  # wrong or unplayed options
        return fail(str(error).replace("\n", " "))
    except EngineUnavailable as error:  # no kernel here: say why, and what plays instead
        return fail(f"{error}".replace("engine='kernel-or-model' or engine='model'", "--engine model"))
    rng = np.random.default_rng(args.seed)
    for episode in range(args.episodes):
        seed = args.seed + episode
        totals, steps, truncated = play(env, seed, rng)
        state = env.unwrapped.state
        ending = "truncated" if truncated else result(args.game, state)
        rewards = ", ".join(f"{agent} {total:+g}" for agent, total in totals.items())
        print(f"seed {seed}: {steps} steps, {ending}; rewards {rewards}")
    env.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
