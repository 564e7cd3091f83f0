"""Outcome-sampling MCCFR, OpenSpiel's own, learning Snap on a small deck through cardcanon.openspiel.

Usage::

    python examples/openspiel_mccfr.py --iterations 2000 --games 400 --seed 1

The game is ``python_cardcanon_snap(ranks=2,suits=2)`` (four cards, two players), made turn-based
with ``pyspiel.convert_to_turn_based`` for the sequential algorithm. After training, the average
policy plays seat 0 against a uniformly random seat 1 and the other way round; the script prints
how often it calls "Snap!" when a card matches and when none does, and its wins. Needs the
``openspiel`` extra: ``pip install 'cardcanon[openspiel]'``.
"""

from __future__ import annotations

import argparse
import random
import sys

import numpy as np
import pyspiel
from open_spiel.python.algorithms import outcome_sampling_mccfr

import cardcanon.openspiel  # noqa: F401  (registers the games)
from cardcanon.envs.snap_v0 import SnapAction
from cardcanon.model.snap import CallKind, correct_kinds

GAME = "python_cardcanon_snap(ranks=2,suits=2,max_moves=200)"


def play(game, policy, learner: int, rng: random.Random, calls: dict[bool, list[int]]) -> float:
    """One game: the average policy for seat ``learner``, uniform random for the other; the learner's return."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, weights)[0])
            continue
        player, legal = state.current_player(), state.legal_actions()
        if player != learner:
            state.apply_action(rng.choice(legal))
            continue
        probabilities = policy.action_probabilities(state)
        action = rng.choices(list(probabilities), list(probabilities.values()))[0]
        if SnapAction.SNAP in legal:  # a call window: did the learner call, and was a card matching?
            model = getattr(state, "model", None) or _model_of(state)
            calls[CallKind.SNAP in correct_kinds(model)].append(int(action == SnapAction.SNAP))
        state.apply_action(action)
    return float(state.returns()[learner])


def _model_of(state) -> object:
    """The cardcanon state under the turn-based wrapper (its history replayed on the simultaneous game)."""
    inner = pyspiel.load_game(GAME).new_initial_state()
    pending: list[int] = []
    for item in state.full_history():
        if inner.is_simultaneous_node():
            pending.append(item.action)
            if len(pending) == inner.num_players():
                inner.apply_actions(pending)
                pending = []
        else:
            inner.apply_action(item.action)
    return inner.model


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="openspiel_mccfr", description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=2000, help="MCCFR iterations (default 2000)")
    parser.add_argument("--games", type=int, default=400, help="evaluation games per seat (default 400)")
    parser.add_argument("--seed", type=int, default=1, help="the random seed (default 1)")
    args = parser.parse_args(argv)
    if args.iterations < 1 or args.games < 1:
        print("openspiel_mccfr: --iterations and --games must be positive", file=sys.stderr)
        return 2
    np.random.seed(args.seed)  # MCCFR samples from numpy's global generator
    game = pyspiel.convert_to_turn_based(pyspiel.load_game(GAME))
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(args.iterations):
        solver.iteration()
    policy = solver.average_policy()
    rng, calls = random.Random(args.seed), {True: [], False: []}
    wins = [sum(play(game, policy, seat, rng, calls) > 0 for _ in range(args.games)) for seat in (0, 1)]
    print(f"{GAME}, {args.iterations} MCCFR iterations")
    for matching, made in ((True, calls[True]), (False, calls[False])):
        share = sum(made) / len(made) if made else float("nan")
        where = "a card matches" if matching else "no card matches"
        print(f"calls \"Snap!\" {share:.0%} of {len(made)} call windows where {where}")
    for seat in (0, 1):
        print(f"as player {seat} against a random player: wins {wins[seat]} of {args.games}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
