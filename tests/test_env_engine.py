"""The environments on the compiled kernel against the environments on the reference model: the
same seeded episodes give the same observations, masks, rewards, terminations and moves at every
step, under every variant the rulebook plans; the batched interface gives the same matches."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from cardcanon.engine import build  # noqa: E402
from cardcanon.envs import hearts_v0, options, snap_v0  # noqa: E402
from cardcanon.model.errors import IllegalMoveError, NotModelledError  # noqa: E402
from conftest import PROFILE, cases  # noqa: E402

pytestmark = [pytest.mark.filterwarnings("ignore::UserWarning"),
              pytest.mark.needs_kernel]


def planned_variants(game: str) -> list[dict[str, str]]:
    """The variants verify runs ``game`` under (:func:`cardcanon.verify.variants.plan`): the defaults,
    every modelled option of every variation point of the rulebook, and the manifests' combinations."""
    from cardcanon.verify.plan import combinations
    from cardcanon.verify.variants import plan

    return [dict(variant) for variant in plan(game, [c for g, c in combinations() if g == game]).variants]


HEARTS = planned_variants("hearts")
HEARTS.append({name: value for variant in HEARTS for name, value in variant.items()})  # every option at once
TABLES = ({"players": 2}, {"players": 4, "calling_policy": "owner-first"}, {"players": 3, "calling_policy": "ties:0.5"})
SNAP = [{**variant, **table} for variant in planned_variants("snap") for table in TABLES]
SNAP_QUICK = [{**variant, **TABLES[-1 - i % len(TABLES)]} for i, variant in enumerate(planned_variants("snap"))]


def test_the_variants_are_the_plans():
    """Every option the model plays, of every variation point of the rulebook, is in a variant here."""
    for game, variants in (("hearts", HEARTS), ("snap", SNAP)):
        for name, rule in options.variation_rules(game).items():
            for option in options.variation_of(rule).options:
                try:
                    (hearts_v0.raw_env if game == "hearts" else snap_v0.raw_env)(**{name: option.value})
                except NotModelledError:
                    continue
                assert any(variant.get(name, options.defaults(game)[name]) == option.value for variant in variants), (
                    f"{game}: {name}={option.value}")


def same_step(a: Any, b: Any) -> None:
    assert a.agent_selection == b.agent_selection
    assert a.agents == b.agents
    for agent in a.agents:  # PettingZoo drops the agents that are done
        seen_a, seen_b = a.observe(agent), b.observe(agent)
        assert seen_a["observation"].dtype == seen_b["observation"].dtype
        assert np.array_equal(seen_a["observation"], seen_b["observation"]), agent
        assert np.array_equal(seen_a["action_mask"], seen_b["action_mask"]), agent
    assert a.rewards == b.rewards and a._cumulative_rewards == b._cumulative_rewards
    assert a.terminations == b.terminations and a.truncations == b.truncations


def lockstep(kernel: Any, model: Any, seed: int | None, rng: np.random.Generator) -> int:
    """Play one episode on both with the same random legal actions; the steps played."""
    kernel.reset(seed=seed)
    model.reset(seed=seed)
    assert kernel.episode_seed == model.episode_seed
    steps = 0
    for agent in kernel.agent_iter():
        same_step(kernel, model)
        _, _, terminated, truncated, _ = kernel.last()
        if terminated or truncated:
            kernel.step(None)
            model.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(kernel.observe(agent)["action_mask"])))
        kernel.step(action)
        model.step(action)
        steps += 1
    same_step(kernel, model)
    assert kernel.moves == model.moves and kernel.state == model.state
    return steps


def test_the_environments_say_which_engine_plays():
    assert hearts_v0.raw_env().metadata["engine"] == "kernel"
    assert snap_v0.raw_env().metadata["engine"] == "kernel"
    assert snap_v0.raw_env(engine="kernel-or-model").metadata["engine"] == "kernel"
    model = hearts_v0.raw_env(engine="model")
    assert model.metadata["engine"] == "model" and "engine='model'" in model.metadata["engine_note"]
    with pytest.raises(ValueError, match="engine"):
        snap_v0.raw_env(engine="fast")


def test_without_the_kernel_the_environments_play_the_model_only_when_asked(monkeypatch):
    from cardcanon.engine import hearts as engine_hearts

    def unavailable(config: Any) -> None:
        raise build.EngineUnavailable("disabled for this test")

    monkeypatch.setattr(engine_hearts, "_kernel", unavailable)
    env = hearts_v0.raw_env(engine="kernel-or-model")
    assert env.metadata["engine"] == "model" and "disabled for this test" in env.metadata["engine_note"]
    for engine in (None, "kernel"):
        with pytest.raises(build.EngineUnavailable, match="disabled for this test; engine='kernel-or-model'"):
            hearts_v0.raw_env(engine=engine)


@pytest.mark.rules("HEARTS-QUEEN-2", "HEARTS-BREAK-2", "HEARTS-LEAD-3", "HEARTS-FIRST-1", "HEARTS-MOON-2")
@pytest.mark.parametrize("kwargs", HEARTS, ids=str)
def test_hearts_on_the_kernel_is_the_model_step_by_step(kwargs):
    kernel, model = hearts_v0.raw_env(**kwargs), hearts_v0.raw_env(engine="model", **kwargs)
    assert kernel.metadata["engine"] == "kernel"
    rng = np.random.default_rng(len(str(kwargs)))
    assert lockstep(kernel, model, 11, rng) > 0
    assert lockstep(kernel, model, None, rng) > 0  # the next seed of the episode stream


@pytest.mark.slow
@pytest.mark.parametrize("kwargs", HEARTS, ids=str)
def test_hearts_on_the_kernel_is_the_model_over_many_matches(kwargs):
    kernel, model = hearts_v0.raw_env(**kwargs), hearts_v0.raw_env(engine="model", **kwargs)
    rng = np.random.default_rng(2026)
    for seed in (0, None, None, None, 2**64 - 1, None):
        lockstep(kernel, model, seed, rng)


@pytest.mark.rules("SNAP-INDEX-1", "SNAP-TURN-2", "SNAP-POLICY-3", "SNAP-POLICY-4", "SNAP-END-4")
@pytest.mark.parametrize("kwargs", SNAP_QUICK, ids=str)
def test_snap_on_the_kernel_is_the_model_step_by_step(kwargs):
    """Every variant, each at one of the tables, short episodes (the slow test plays every variant at
    every table, longer)."""
    snap_lockstep(kwargs, 500)


@pytest.mark.slow
@pytest.mark.parametrize("kwargs", SNAP, ids=str)
def test_snap_on_the_kernel_is_the_model_at_every_table(kwargs):
    snap_lockstep(kwargs, 1500)


def snap_lockstep(kwargs: dict[str, Any], max_steps: int) -> None:
    kernel = snap_v0.raw_env(max_steps=max_steps, **kwargs)
    model = snap_v0.raw_env(max_steps=max_steps, engine="model", **kwargs)
    assert kernel.metadata["engine"] == "kernel"
    rng = np.random.default_rng(7)
    for seed in (3, None):
        lockstep(kernel, model, seed, rng)


def test_snap_on_the_kernel_truncates_the_same_repeated_position():
    """Passing is a deterministic policy; the owner-first game of seed 10 repeats a position."""
    kernel, model = snap_v0.raw_env(calling_policy="owner-first"), snap_v0.raw_env(calling_policy="owner-first",
                                                                                     engine="model")
    for env in (kernel, model):
        env.reset(seed=10)
    for _ in range(20_000):
        if any(kernel.truncations.values()) or any(kernel.terminations.values()):
            break
        mask = kernel.observe(kernel.agent_selection)["action_mask"]
        action = snap_v0.SnapAction.FLIP if mask[snap_v0.SnapAction.FLIP] else snap_v0.SnapAction.PASS
        kernel.step(action)
        model.step(action)
    same_step(kernel, model)


def test_an_illegal_action_on_the_kernel_names_the_models_rule():
    env = hearts_v0.raw_env()
    env.reset(seed=4)
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(IllegalMoveError):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(AttributeError, match="engine='model'"):
        env.state = env.state


def vector_lockstep(module: Any, kwargs: dict[str, Any], n: int, seed: int, steps: int,
                    engine: str = "kernel", first: bool = False) -> tuple[int, int]:
    """Step ``module.vector_env(n, seed)`` and ``n`` single environments on ``engine`` with the same
    random legal actions (``first``: the first legal action), requiring the same agent to step,
    observation, mask, rewards and ends at every step; the episodes that ended (by termination,
    by truncation)."""
    vector = module.vector_env(n, seed, **kwargs)
    envs = [module.raw_env(engine=engine, **kwargs) for _ in range(n)]
    for i, env in enumerate(envs):
        env.reset(seed=seed + i)
    rng, ended = np.random.default_rng(seed), [0, 0]
    for _ in range(steps):
        for i, env in enumerate(envs):
            seen = env.observe(env.agent_selection)
            assert vector.to_move[i] == env.agent_name_mapping[env.agent_selection]
            assert np.array_equal(vector.observations[i], seen["observation"])
            assert np.array_equal(vector.action_masks[i], seen["action_mask"])
        actions = np.array([np.flatnonzero(m)[0] if first else rng.choice(np.flatnonzero(m))
                            for m in vector.action_masks])
        vector.step(actions)
        for i, env in enumerate(envs):
            env.step(int(actions[i]))
            assert list(vector.rewards[i]) == [env.rewards.get(agent, 0) for agent in env.possible_agents]
            truncated = all(env.truncations.values())
            terminated = all(env.terminations.values()) and not truncated
            assert vector.dones[i] == (terminated or truncated)
            assert (vector.terminations[i], vector.truncations[i]) == (terminated, truncated)
            if vector.dones[i]:
                ended[truncated] += 1
                env.reset()  # the next seed of the episode stream
            while env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
                env.step(None)  # PettingZoo's steps of agents that are out: the vector env has none
    return ended[0], ended[1]


@pytest.mark.parametrize("kwargs", HEARTS, ids=str)
def test_the_hearts_vector_env_plays_the_environments_matches(kwargs):
    ended, _ = vector_lockstep(hearts_v0, kwargs, 3, 40, 700)
    assert ended >= 3


@pytest.mark.parametrize("kwargs", SNAP_QUICK, ids=str)
def test_the_snap_vector_env_plays_the_environments_games(kwargs):
    """Every variant at one of the tables, with a short cap (random agents play long games)."""
    _, truncated = vector_lockstep(snap_v0, {**kwargs, "max_steps": 150}, 4, 40, 400)
    assert truncated >= 4


def test_the_snap_vector_env_ends_games_both_ways():
    over, truncated = vector_lockstep(snap_v0, {"index_card": "on", "max_steps": 300}, 6, 42, 700)
    assert over >= 5 and truncated >= 5


@pytest.mark.parametrize("kwargs", [{}, {"players": 4, "calling_policy": "owner-first", "next_turn": "winner"}],
                         ids=str)
def test_the_snap_vector_env_truncates_the_same_repeated_positions(kwargs):
    """Agents that always pass repeat positions (SNAP-END-4); with the check off, only the cap ends games."""
    _, truncated = vector_lockstep(snap_v0, kwargs, 5, 1, 600, first=True)
    assert truncated >= 5
    _, truncated = vector_lockstep(snap_v0, {**kwargs, "truncate_on_repeat": False, "max_steps": 250}, 3, 1, 600,
                                   first=True)
    assert truncated >= 3


@pytest.mark.slow  # CI: every variant at one table each; a thorough run: every variant at every table
@pytest.mark.parametrize("kwargs", SNAP if PROFILE == "thorough" else SNAP_QUICK, ids=str)
def test_the_snap_vector_env_plays_the_models_games_at_every_table(kwargs):
    over, truncated = vector_lockstep(snap_v0, {**kwargs, "max_steps": 1500}, 6, 7, 3000, engine="model")
    assert over >= 1 and over + truncated >= 8
    if kwargs["players"] != 3:  # at these tables agents that always pass soon repeat a position (SNAP-END-4)
        _, repeated = vector_lockstep(snap_v0, kwargs, 3, 7, 600, engine="model", first=True)
        assert repeated >= 3


@pytest.mark.slow
@pytest.mark.parametrize("kwargs", HEARTS, ids=str)
def test_the_hearts_vector_env_plays_the_models_matches(kwargs):
    matches = cases(4, 2)
    ended, _ = vector_lockstep(hearts_v0, kwargs, matches, 5, 3000, engine="model")
    assert ended >= 3 * matches


@pytest.mark.parametrize("module", [hearts_v0, snap_v0])
def test_the_vector_env_refuses_an_illegal_action_and_plays_nothing(module):
    vector = module.vector_env(2, 0)
    before = vector.observations.copy()
    actions = np.array([np.flatnonzero(m)[0] for m in vector.action_masks])
    actions[1] = np.flatnonzero(vector.action_masks[1] == 0)[0]
    with pytest.raises(ValueError, match="(match|game) 1"):
        vector.step(actions)
    assert np.array_equal(vector.observations, before)


@pytest.mark.parametrize("module", [hearts_v0, snap_v0])
def test_without_the_kernel_the_vector_env_says_so(module, monkeypatch):
    from cardcanon.engine import hearts as engine_hearts, snap as engine_snap

    def unavailable(config: Any) -> None:
        raise build.EngineUnavailable("disabled for this test")

    monkeypatch.setattr(engine_hearts if module is hearts_v0 else engine_snap, "_kernel", unavailable)
    with pytest.raises(build.EngineUnavailable, match="disabled for this test"):
        module.vector_env(2)


def test_the_snap_vector_env_says_what_it_does_not_do():
    with pytest.raises(TypeError, match="render_mode"):
        snap_v0.vector_env(2, render_mode="ansi")
    with pytest.raises(ValueError, match="errors"):
        snap_v0.vector_env(2, calling_policy="errors:0.1")
    with pytest.raises(NotModelledError, match="SNAP-FLIP-3"):
        snap_v0.vector_env(2, empty_pile="shuffle")


def test_the_cheap_action_check_is_gymnasiums():
    from gymnasium import spaces

    from cardcanon.envs.actions import is_action

    space = spaces.Discrete(28)
    values = [None, True, False, -1, 0, 27, 28, 3.0, "3", np.int64(5), np.int8(-2), np.uint8(30), np.float32(2),
              np.array(4), np.array([4]), np.array(2.0), 2**70]
    for value in values:
        assert is_action(value, 28) == space.contains(value), repr(value)


@pytest.mark.parametrize("module", [hearts_v0, snap_v0])
def test_an_environment_on_the_kernel_can_be_copied(module):
    import copy
    import pickle

    env = module.raw_env()
    rng = np.random.default_rng(3)
    env.reset(seed=8)
    for _ in range(30):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    twins = (copy.deepcopy(env), pickle.loads(pickle.dumps(env)))
    for _ in range(60):
        if any(env.terminations.values()) or any(env.truncations.values()):
            break
        action = int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])))
        for one in (env, *twins):
            one.step(action)
        for twin in twins:
            same_step(env, twin)
    assert all(env.moves == twin.moves and env.state == twin.state for twin in twins)


@pytest.mark.parametrize("module", [hearts_v0, snap_v0])
def test_the_vector_env_can_be_copied(module):
    import copy
    import pickle

    vector = module.vector_env(5, 2)
    for _ in range(50):
        vector.step(vector.action_masks.argmax(axis=1))
    twins = (copy.deepcopy(vector), pickle.loads(pickle.dumps(vector)))
    for _ in range(300):
        actions = vector.action_masks.argmax(axis=1)
        for one in (vector, *twins):
            one.step(actions)
        for twin in twins:
            assert np.array_equal(vector.observations, twin.observations) and np.array_equal(vector.dones, twin.dones)
            assert np.array_equal(vector.rewards, twin.rewards)


def test_the_snap_vector_library_refuses_short_buffers_and_stale_structs():
    import ctypes

    from cardcanon.engine import abi
    from cardcanon.engine.vector import Seen, SnapVector

    vector = snap_v0.vector_env(3, 1)._vector
    assert isinstance(vector, SnapVector) and vector.seen is not None
    lib, (slots, streams, obs, masks, to_move, rewards, ended, actions, final) = vector.lib, vector._a
    args = (vector.n, 0, actions, streams, obs, masks, to_move, rewards, ended)
    seen, size = ctypes.byref(vector.seen), ctypes.sizeof(Seen)

    def step(cfg_size: int, slots_size: int, seen_size: int, slots_held: int) -> int:
        return int(lib.snap_vec_step_checked(vector.cfg_ref, cfg_size, slots, slots_size, *args, seen, seen_size,
                                             final, slots_held))

    good = (vector.cfg_size, vector.size, size, 3)
    assert step(*good) == 0
    for bad, message in (((vector.cfg_size - 8, vector.size, size, 3), "struct sizes differ"),
                         ((vector.cfg_size, vector.size - 1, size, 3), "buffer too short"),
                         ((vector.cfg_size, vector.size, size, 2), "buffer too short"),
                         ((vector.cfg_size, vector.size, size - 8, 3), "struct sizes differ")):
        with pytest.raises(abi.EngineError, match=message):
            abi.check(step(*bad), "test")
    vector.arrays["meta"][1] = 2  # fewer free records than games
    with pytest.raises(abi.EngineError, match="buffer too short"):
        abi.check(step(*good), "test")
