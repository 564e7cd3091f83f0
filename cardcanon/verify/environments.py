"""verify and the environments' step code: the batched environments (``vector_env``: ``vector.c``
and the kernel's batched Hearts step) and the single environments on the kernel (``raw_env``:
the ``hg_*``/``sg_*`` step functions through ``cardcanon.engine.steps``) play the same episodes as
the single environment on the reference model (``raw_env(engine="model")``), step by step: the
agent to step, observations, legal-action masks, every seat's rewards, terminations and
truncations. The comparison is the environments' own (as ``tests/test_env_engine.py`` makes it);
this module makes it a check of the rulebook, run under every variant verify plans, so that a
rule broken in the step code, or in the model, fails it.

Episodes are chosen so that every ending the table allows is compared: a batch of seeded games
is played first on the batched environment alone (fast), with random legal actions that favour
calls; then the first episode of slots that ended each way (a win, a draw where the table can
draw, a truncation for Snap; a match won for Hearts) is played again on every engine at once.
Where the compiled code cannot run, the result is ``not-applicable`` with the reason.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from cardcanon.engine.build import EngineUnavailable
from cardcanon.proofs.base import CheckResult, Run, Verdict
from cardcanon.proofs.records import hearts_record, snap_record

if TYPE_CHECKING:  # numpy comes with the environments (the rl extra), imported where a check runs
    import numpy as np

CALL_WEIGHT = 3.0  # how much more often a random agent calls than passes (calls make ties and draws)


def check_snap(run: Run) -> CheckResult:
    """Snap's batched and single environments on the compiled code against the model's."""
    from cardcanon.proofs.snap.derived import kept

    snap_v0 = _environments("snap_v0")
    if isinstance(snap_v0, CheckResult):
        return snap_v0
    run.no_probe()
    bounds = run.bounds
    config = run.snap_config()  # the variant's options, refused as the model refuses them
    compared, shown = 0, []
    for players in bounds.get("players", [2, 3]):
        kwargs = {**run.variant, "players": players, "calling_policy": bounds.get("calling_policy", "ties:0.9"),
                  "max_steps": int(bounds.get("max_steps", 1000))}
        made = _made(lambda: snap_v0.vector_env(int(bounds.get("slots", 2048)), 0, **kwargs))
        if isinstance(made, CheckResult):
            return made
        endings = ("win", "truncation") + (() if config.index_card else ("draw",))  # SNAP-INDEX-1: no ties
        # the first pass plays the compiled code alone: kept while the model code it can reach stands
        key = ("snap-episodes", repr(sorted(kwargs.items())), made.num_envs, repr(sorted(bounds.items())), endings)
        chosen, missing, actions = kept(key, lambda: _episodes(made, bounds, _snap_ending, endings, run))
        if missing:
            return CheckResult(Verdict.UNKNOWN, f"{players} players: no episode of the first "
                               f"{made.num_envs} seeded games ended by {' or by '.join(missing)}")
        result = _lockstep(run, snap_v0, kwargs, chosen, actions, _snap_rewards, _snap_record)
        if isinstance(result, CheckResult):
            return result
        compared += result
        shown.append(f"{players} players: {len(chosen)} games ({', '.join(sorted(set(chosen.values())))})")
    return CheckResult(Verdict.PROVED, f"{compared} steps of seeded games alike on the batched, single and model "
                       f"environments", witness="\n".join(shown), stats={"compared": compared})


def check_hearts(run: Run) -> CheckResult:
    """Hearts's batched and single environments on the compiled code against the model's."""
    hearts_v0 = _environments("hearts_v0")
    if isinstance(hearts_v0, CheckResult):
        return hearts_v0
    run.no_probe()
    bounds = run.bounds
    run.hearts_config()  # the variant's options, refused as the model refuses them
    kwargs = dict(run.variant)
    made = _made(lambda: hearts_v0.vector_env(int(bounds.get("slots", 64)), 0, True, **kwargs))
    if isinstance(made, CheckResult):
        return made
    chosen, missing, actions = _episodes(made, bounds, lambda rewards, term, trunc: "win" if term else None, ("win",),
                                         run)
    if missing:
        return CheckResult(Verdict.UNKNOWN, f"no match of the first {made.num_envs} seeded matches ended")
    result = _lockstep(run, hearts_v0, kwargs, chosen, actions, _hearts_rewards, _hearts_record)
    if isinstance(result, CheckResult):
        return result
    return CheckResult(Verdict.PROVED, f"{result} steps of {len(chosen)} seeded matches alike on the batched, single "
                       f"and model environments", witness=f"{len(chosen)} matches won", stats={"compared": result})


def _snap_rewards(before: Any, after: Any) -> list[float]:
    """Each seat's reward for the step from the model's ``before`` to ``after`` (the environment's
    rule, from the model's outcome): -1 on going out (SNAP-OUT-1), 0 going out with a draw
    (SNAP-END-3), +1 to the winner the model names (SNAP-END-1/2)."""
    from cardcanon.model.seats import Seat
    from cardcanon.model.snap import GAME, Termination

    outcome = GAME.outcome(after)
    draw = outcome is not None and outcome.termination is Termination.NO_CARDS
    rewards = [0.0 if draw else -1.0 if before.holds(Seat(s)) and not after.holds(Seat(s)) else 0.0
               for s in range(after.config.players)]
    if outcome is not None and outcome.winner is not None:
        rewards[outcome.winner.index] = 1.0
    return rewards


def _hearts_rewards(before: Any, after: Any) -> list[float]:
    """+1 to the winner the model names and -1 to the loser when the match ends (HEARTS-MATCH-1/2, HEARTS-GOAL-1)."""
    from cardcanon.model.hearts import GAME

    outcome = GAME.outcome(after)
    return [0.0, 0.0] if outcome is None else [1.0 if outcome.winner.index == s else -1.0 for s in (0, 1)]


def _snap_record(env: Any, label: str, extra: int | None = None) -> Any:
    """The model's game as a record (a Snap action is a step of a call window, not a move)."""
    return snap_record(env.config, env.moves, env.state, label=label)


def _hearts_record(env: Any, label: str, extra: int | None = None) -> Any:
    """The model's match as a record; with ``extra``, followed by the play of that card, which the
    model allows and the compiled code refuses."""
    from cardcanon.model.hearts import DECK, GAME, Play

    moves, state = list(env.moves), env.state
    if extra is not None and state.to_move is not None:
        play = Play(state.to_move, DECK[extra])
        moves, state = moves + [play], GAME.apply(state, play)
    return hearts_record(env.config, moves, state, label=label)


def _environments(name: str) -> Any:
    """The environments' module, or not-applicable where their packages (the rl extra) are missing."""
    try:
        return importlib.import_module(f"cardcanon.envs.{name}")
    except ImportError as exc:
        return CheckResult(Verdict.NOT_APPLICABLE, f"the environments cannot be loaded here ({exc}); "
                                                   "pip install 'cardcanon[rl]' installs what they need")


def _made(make: Callable[[], Any]) -> Any:
    """The batched environment, or not-applicable when the compiled code cannot run it."""
    try:
        return make()
    except EngineUnavailable as exc:
        return CheckResult(Verdict.NOT_APPLICABLE, f"the compiled environments cannot run this: {exc}")


def _snap_ending(rewards: np.ndarray, terminated: bool, truncated: bool) -> str | None:
    """How a Snap episode ended, by the batched environment's rewards: a winner gets +1 (SNAP-END-1/2)."""
    if truncated:
        return "truncation"
    if terminated:
        return "win" if (rewards == 1).any() else "draw"
    return None


def _actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random legal action per game, calls (actions 2 and up) :data:`CALL_WEIGHT` times as likely as the rest:
    the legal action with the greatest ``u ** (1 / weight)``, ``u`` uniform in [0, 1)."""
    import numpy as np

    draws = rng.random(masks.shape)
    draws[:, 2:] **= 1 / CALL_WEIGHT  # a weight of 1 leaves a draw as it is
    return np.asarray((draws * masks).argmax(axis=1))


def _episodes(vector: Any, bounds: Any, ending: Callable[[np.ndarray, bool, bool], str | None],
              wanted: Iterable[str], run: Run) -> tuple[dict[int, str], list[str], list[np.ndarray]]:
    """Play the batched environment until every slot's first episode has ended: the slots chosen
    (up to ``per_ending`` of each ending), the endings no slot reached, and the actions of every
    step (the same when the episodes are played again from the same seed)."""
    import numpy as np

    rng, per = np.random.default_rng(int(bounds.get("seed", 0))), int(bounds.get("per_ending", 2))
    obs, infos = vector.reset(seed=int(bounds.get("seed", 0)))
    first: dict[int, str] = {}
    played: list[np.ndarray] = []
    while len(first) < vector.num_envs:
        played.append(_actions(obs["action_mask"], rng).astype(np.int8))
        obs, _, term, trunc, infos = vector.step(played[-1])
        for i in np.flatnonzero(term | trunc):
            if int(i) not in first:
                first[int(i)] = ending(infos["rewards"][i], bool(term[i]), bool(trunc[i])) or "?"
        run.budget.tick()
    chosen: dict[int, str] = {}
    for kind in wanted:
        chosen.update({i: kind for i in [i for i, e in sorted(first.items()) if e == kind][:per]})
    return chosen, [kind for kind in wanted if kind not in chosen.values()], played


def _lockstep(run: Run, module: Any, kwargs: dict[str, Any], chosen: dict[int, str], played: list[np.ndarray],
              expected: Callable[[Any, Any], list[float]], record: Callable[..., Any]) -> int | CheckResult:
    """Play the chosen slots' first episodes again on the batched environment (a batch of the
    slots up to the last one chosen: each starts from the seed it had in :func:`_episodes`, and
    plays the actions played there), the single environment on the kernel and on the model,
    comparing each step; the number of steps compared, or the counterexample (the model's episode
    as a record)."""
    import numpy as np

    seed = int(run.bounds.get("seed", 0))
    vector = _made(lambda: module.vector_env(max(chosen) + 1, 0, **kwargs))
    if isinstance(vector, CheckResult):
        return vector
    obs, infos = vector.reset(seed=seed)
    pairs = {}
    for i in chosen:
        pairs[i] = (module.raw_env(engine="model", **kwargs), module.raw_env(engine="kernel", **kwargs))
        for env in pairs[i]:
            env.reset(seed=seed + i)
    compared, live, steps = 0, set(chosen), iter(played)
    while live:
        actions = next(steps, None)
        if actions is None:
            raise RuntimeError("the batched environment played the chosen episodes longer the second time")
        actions = actions[:vector.num_envs]  # the first pass's actions of the slots in this batch
        for i in sorted(live):
            model, kernel = pairs[i]
            for env, name in ((model, "model"), (kernel, "kernel")):
                seen = env.observe(env.agent_selection)
                alike = (int(infos["to_move"][i]) == env.agent_name_mapping[env.agent_selection]
                         and np.array_equal(obs["observation"][i], seen["observation"])
                         and np.array_equal(obs["action_mask"][i], seen["action_mask"]))
                if not alike:
                    allowed = [int(a) for a in np.flatnonzero(seen["action_mask"] > obs["action_mask"][i])]
                    extra = allowed[0] if allowed and name == "model" else None
                    return _differs(run, record(model, f"{chosen[i]} game {i}, step {compared + 1}: the batched "
                                                f"environment's agent, observation or action mask differs from the "
                                                f"{name}'s", extra))
        obs, _, term, trunc, infos = vector.step(actions)
        for i in sorted(live):
            model, kernel = pairs[i]
            before = model.state
            for env in (model, kernel):
                env.step(int(actions[i]))
            compared += 1
            mine = expected(before, model.state)
            truncated = all(model.truncations.values())
            terminated = model.state.outcome is not None
            ends = (terminated, truncated)
            theirs = [[float(kernel.rewards.get(agent, 0)) for agent in kernel.possible_agents],
                      list(map(float, infos["rewards"][i]))]
            kernel_ends = (all(kernel.terminations.values()) and not all(kernel.truncations.values()),
                           all(kernel.truncations.values()))
            if theirs != [mine, mine] or (bool(term[i]), bool(trunc[i])) != ends or kernel_ends != ends:
                return _differs(run, record(model, f"{chosen[i]} game {i}, step {compared}: rewards {mine} and ends "
                                f"{_ends(ends)} on the model; the kernel's {theirs[0]}, {_ends(kernel_ends)}; the "
                                f"batched environment's {theirs[1]}, {_ends((bool(term[i]), bool(trunc[i])))}"))
            if terminated or truncated:
                live.discard(i)
                if i == min(chosen):
                    run.record(record(model, f"{chosen[i]} game {i}: alike on every engine"))
            else:
                for env in (model, kernel):
                    while env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
                        env.step(None)  # PettingZoo's steps of agents that are out: the batch has none
        run.budget.tick()
    return compared


def _ends(ends: tuple[bool, bool]) -> str:
    return "terminated" if ends[0] else "truncated" if ends[1] else "going on"


def _differs(run: Run, record: Any) -> CheckResult:
    """A counterexample: the model's episode where the compiled code plays otherwise."""
    run.record(record)
    return CheckResult(Verdict.COUNTEREXAMPLE, str(record["label"]), witness=str(record["label"]))
