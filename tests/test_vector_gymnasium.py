"""The batched environments are Gymnasium vector environments: the loop a Gymnasium user writes,
fresh arrays, the autoreset mode and the final observation, spaces, and one-line refusals."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.vector import AutoresetMode  # noqa: E402

from cardcanon.envs import hearts_v0, snap_v0  # noqa: E402

pytestmark = pytest.mark.needs_kernel
MODULES = [hearts_v0, snap_v0]


def random_actions(obs: dict[str, np.ndarray], rng: np.random.Generator) -> np.ndarray:
    return ((1 + rng.random(obs["action_mask"].shape)) * obs["action_mask"]).argmax(axis=1)


@pytest.mark.parametrize("module", MODULES)
def test_a_gymnasium_loop_runs_and_kept_arrays_stay_unchanged(module):
    v = module.vector_env(6, max_steps=200) if module is snap_v0 else module.vector_env(6)
    assert v.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP and v.num_envs == 6
    obs, infos = v.reset(seed=1)
    assert v.observation_space.contains(obs) and np.array_equal(infos["action_mask"], obs["action_mask"])
    rng, kept, ended = np.random.default_rng(1), [], 0
    for _ in range(1500):
        actions = random_actions(obs, rng)
        assert v.action_space.contains(actions)
        mover = infos["to_move"]
        obs, rew, term, trunc, infos = v.step(actions)
        assert rew.shape == (6,) and term.dtype == trunc.dtype == np.bool_
        assert np.array_equal(rew, infos["rewards"][np.arange(6), mover])
        kept.append((obs, obs["observation"].copy(), rew, rew.copy(), term, term.copy()))
        ended += int((term | trunc).sum())
        if (term | trunc).any():
            assert np.array_equal(infos["_final_obs"], term | trunc)
    assert ended >= 6
    for obs, seen, rew, rew_seen, term, term_seen in kept:
        assert np.array_equal(obs["observation"], seen) and np.array_equal(rew, rew_seen)
        assert np.array_equal(term, term_seen)
    v.close()
    with pytest.raises(ValueError, match="closed"):
        v.step(actions)


@pytest.mark.parametrize("module", MODULES)
def test_copy_false_returns_the_environments_own_buffers(module):
    v = module.vector_env(3, copy=False)
    obs, _ = v.reset(seed=2)
    obs2, *_ = v.step(obs["action_mask"].argmax(axis=1))
    assert obs2["observation"] is obs["observation"]


@pytest.mark.parametrize("module, kwargs", [(hearts_v0, {}), (snap_v0, {"max_steps": 120}),
                                            (snap_v0, {"players": 3, "index_card": "on", "max_steps": 300})])
def test_the_final_observation_is_the_single_environments(module, kwargs):
    n, seed = 3, 11
    v = module.vector_env(n, **kwargs)
    obs, infos = v.reset(seed=seed)
    envs = [module.raw_env(**kwargs) for _ in range(n)]
    for i, env in enumerate(envs):
        env.reset(seed=seed + i)
    rng, finals = np.random.default_rng(seed), 0
    for _ in range(2500):
        actions = random_actions(obs, rng)
        obs, rew, term, trunc, infos = v.step(actions)
        for i, env in enumerate(envs):
            agent = env.agent_selection
            env.step(int(actions[i]))
            if term[i] or trunc[i]:
                final = infos["final_obs"][i]["observation"]
                assert np.array_equal(final, env.observe(agent)["observation"])
                finals += 1
                env.reset()
            while env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
                env.step(None)
    assert finals >= n


@pytest.mark.parametrize("module", MODULES)
def test_bad_sizes_seeds_and_actions_are_refused_in_one_line(module):
    name = module.__name__.rsplit(".", 1)[-1]
    for size in (10**7, 0, -1, 2.5, True):
        with pytest.raises(ValueError, match=f"{name}.vector_env: the number of games is a whole number") as error:
            module.vector_env(size)
        assert "\n" not in str(error.value)
    for seed in (-1, 2**64, 1.5):
        with pytest.raises(ValueError, match="a seed is a whole number from 0 to") as error:
            module.vector_env(4, seed=seed)
        assert "\n" not in str(error.value)
    v = module.vector_env(4)
    obs, _ = v.reset()  # an unseeded reset draws a seed
    for actions in (obs["action_mask"].argmax(axis=1).astype(float), np.zeros(3, dtype=int), [[0]] * 4):
        with pytest.raises(ValueError, match="actions are 4 whole numbers"):
            v.step(actions)
    with pytest.raises(ValueError, match="no options"):
        v.reset(options={"x": 1})
