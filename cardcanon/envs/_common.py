"""What both environments share: episode seeds, the standard wrappers, options, spaces and the
per-agent bookkeeping of an episode."""

from __future__ import annotations

import numbers
import secrets
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv as GymVectorEnv
from gymnasium.vector.utils import batch_space
from pettingzoo import AECEnv

from cardcanon.envs import _wrappers, options as variations
from cardcanon.envs.actions import is_action
from cardcanon.model.shuffle import SplitMix64

SEED_MAX = 2**64 - 1  # SplitMix64 takes seeds modulo 2**64: a larger seed would repeat a smaller one's episode


class EpisodeSeeds:
    """The seed of each episode: the one given to ``reset``; after a seeded reset, unseeded
    resets draw the next seeds from a SplitMix64 stream of it; never seeded, a random seed."""

    def __init__(self) -> None:
        self._stream: SplitMix64 | None = None

    def next(self, seed: int | None) -> int:
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or not 0 <= seed <= SEED_MAX:
                raise ValueError(f"reset(seed=...): a seed is a whole number from 0 to {SEED_MAX} (2**64 - 1), "
                                 f"not {str(seed)[:30]}")
            seed = int(seed)
            self._stream = SplitMix64(seed)
            return seed
        if self._stream is not None:
            return self._stream.next()
        return secrets.randbits(64)


def wrap(env: AECEnv) -> AECEnv:
    """PettingZoo's usual wrappers for turn-based games (:mod:`cardcanon.envs._wrappers`): an illegal
    action ends the game for the agent that made it (reward -1), out-of-range actions are refused,
    the API order is enforced."""
    return _wrappers.wrap(env)


def check_render_mode(render_mode: str | None, modes: list[str]) -> str | None:
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"render_mode must be None or one of {', '.join(modes)}, not {render_mode!r}")
    return render_mode


def check_max_steps(max_steps: int | None) -> int | None:
    if max_steps is not None and (not isinstance(max_steps, int) or isinstance(max_steps, bool) or max_steps < 1):
        raise ValueError(f"max_steps must be a positive integer or None, not {max_steps!r}")
    return max_steps


class CardGameEnv(AECEnv):
    """An AEC environment over one of the reference models: the rulebook's variation points as
    keyword arguments, a flat float32 observation with an action mask, one discrete action space."""

    def _options(self, game: str, kwargs: Mapping[str, Any], render_mode: str | None,
                 max_steps: int | None) -> dict[str, str]:
        """Check the keyword arguments; returns the chosen options of the variation points."""
        chosen, unknown = variations.split_options(game, dict(kwargs))
        if unknown:
            raise TypeError(f"{game}_v0: unknown keyword arguments {', '.join(sorted(unknown))} "
                            f"(variation points: {', '.join(chosen)})")
        self.options = chosen
        self._game = game
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.max_steps = check_max_steps(max_steps)
        return chosen

    def _spaces(self, agents: int, high: np.ndarray[Any, Any], actions: int) -> None:
        """The agents, and the observation (vector up to ``high``, action mask) and action spaces."""
        self.possible_agents = [f"player_{i}" for i in range(agents)]
        self.agent_name_mapping = {agent: i for i, agent in enumerate(self.possible_agents)}
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8),
        })
        self._action_space = spaces.Discrete(actions)
        self._seeds = EpisodeSeeds()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def _live_action(self, action: int | None) -> int | None:
        """The action of a step by a live agent; ``None`` once the step of an agent that is done
        has been taken (PettingZoo's dead step). An action outside the action space is refused."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return None
        if action is None or not is_action(action, self._action_space.n):
            raise ValueError(f"{self._game}_v0: {action!r} is not an action (0 to {self._action_space.n - 1})")
        return int(action)

    def _begin_episode(self, seed: int | None) -> None:
        """The episode's seed and random stream, and a fresh step count."""
        self.episode_seed = self._seeds.next(seed)
        self._rng = SplitMix64(self.episode_seed)
        self.steps = 0

    def _reset_agents(self) -> None:
        """Every agent in play, with no reward, termination, truncation or info yet."""
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}

    def _show(self, text: str) -> str | None:
        """Render ``text``: printed in ``human`` mode, returned in ``ansi`` mode."""
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


MAX_ENVS = 1 << 18  # games stepped by one batched environment: about 0.5 GB of Hearts buffers at most


def check_num_envs(n: Any, where: str) -> int:
    """The number of games of a batched environment: a whole number from 1 to :data:`MAX_ENVS`."""
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or not 1 <= int(n) <= MAX_ENVS:
        raise ValueError(f"{where}: the number of games is a whole number from 1 to {MAX_ENVS}, not {str(n)[:30]}")
    return int(n)


class VectorEnv(GymVectorEnv):
    """What both games' batched environments share: a Gymnasium vector environment over the
    kernel's vector (``_vector``, with ``reset``, ``step``, ``observations``, ``masks``, ``to_move``,
    ``rewards`` and ``final``). A game's class sets ``_vector``, ``metadata``, ``_env`` (its module's
    name) and ``_unit`` ("game", "match"), calls :meth:`_begin`, and gives ``dones``,
    ``terminations`` and ``truncations`` (the current arrays, overwritten by each step)."""

    metadata: dict[str, Any]
    n: int
    _vector: Any
    _env: str
    _unit = "game"

    def _begin(self, n: int, seed: Any, observation_space: spaces.Space[Any], actions: int, copy: bool) -> None:
        """The spaces, then the first reset (from ``seed``)."""
        self.num_envs = self.n = n
        self.single_observation_space = observation_space
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = batch_space(observation_space, n)
        self.action_space = spaces.MultiDiscrete(np.full(n, actions))
        self.copy = bool(copy)
        self.metadata = {**self.metadata, "autoreset_mode": AutoresetMode.SAME_STEP}
        self._seeds = EpisodeSeeds()
        self._closed = False
        self.reset(seed=self._seed(seed))

    def _seed(self, seed: Any) -> int:
        try:
            return self._seeds.next(seed)
        except ValueError as error:
            raise ValueError(f"{self._env}.vector_env: {error}".replace("reset(seed=...): ", "")) from None

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start game (or match) ``i`` from ``seed + i`` (a random seed when None): (observations, infos)."""
        self._open()
        if options:
            raise ValueError(f"{self._env}.vector_env: reset takes no options, not {options!r}")
        seed = self._seed(seed)
        if self.copy:
            self._vector.renew()
        self._vector.reset(seed)
        obs = self._observations()
        return obs, self._infos(obs, None)

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action in every game: (observations, rewards, terminations, truncations, infos). An
        illegal action raises ValueError and plays nothing."""
        self._open()
        actions = self._actions(actions)
        mover = self._vector.to_move
        if self.copy:
            old = self._vector.renew()
        else:
            mover = mover.copy()
        bad = self._vector.step(actions)
        if bad:
            if self.copy:
                self._vector.restore(old)
            raise ValueError(f"{self._env}.vector_env: action {int(actions[bad - 1])} is not legal in "
                             f"{self._unit} {bad - 1} (see the action mask)")
        ended = self.dones
        rewards = self._vector.rewards[np.arange(self.n), mover]
        obs = self._observations()
        return obs, rewards, self.terminations.copy(), self.truncations.copy(), self._infos(obs, ended)

    def close(self, **kwargs: Any) -> None:
        """Free the games' buffers; the environment can no longer be stepped."""
        self._closed = True

    def _open(self) -> None:
        if self._closed:
            raise ValueError(f"{self._env}.vector_env: the environment is closed")

    def _actions(self, actions: Any) -> np.ndarray:
        """One whole number per game; anything else is refused in one line."""
        array = np.asarray(actions)
        if array.shape != (self.n,) or not np.issubdtype(array.dtype, np.integer):
            raise ValueError(f"{self._env}.vector_env: actions are {self.n} whole numbers (one per {self._unit}), "
                             f"not an array of shape {array.shape} and type {array.dtype}")
        return array

    def _observations(self) -> dict[str, np.ndarray]:
        """The arrays the step wrote: new ones at each step (:meth:`renew`), or with ``copy=False`` the same."""
        return {"observation": self._vector.observations, "action_mask": self._vector.masks}

    def _infos(self, obs: dict[str, np.ndarray], ended: np.ndarray | None) -> dict[str, Any]:
        """The action masks and the player to move of every game, each seat's reward and, for the
        games that ended, their final observations (Gymnasium's ``final_obs``)."""
        infos: dict[str, Any] = {"action_mask": obs["action_mask"],
                                 "to_move": self._vector.to_move, "rewards": self._vector.rewards}
        if ended is not None and ended.any():
            final = np.full(self.n, None, dtype=object)
            for i in np.flatnonzero(ended):
                final[i] = {"observation": self._vector.final[i].copy(),
                            "action_mask": np.zeros(self._vector.masks.shape[1], dtype=np.int8)}
            infos["final_obs"], infos["_final_obs"] = final, ended.copy()
        return infos

    @property
    def observations(self) -> np.ndarray:
        """The current observations (overwritten by the next step)."""
        return self._vector.observations  # type: ignore[no-any-return]

    @property
    def action_masks(self) -> np.ndarray:
        return self._vector.masks  # type: ignore[no-any-return]

    @property
    def to_move(self) -> np.ndarray:
        return self._vector.to_move  # type: ignore[no-any-return]

    @property
    def rewards(self) -> np.ndarray:
        return self._vector.rewards  # type: ignore[no-any-return]

    @property
    def dones(self) -> np.ndarray:
        raise NotImplementedError

    @property
    def terminations(self) -> np.ndarray:
        raise NotImplementedError

    @property
    def truncations(self) -> np.ndarray:
        raise NotImplementedError
