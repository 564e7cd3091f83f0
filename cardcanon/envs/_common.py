"""What both environments share: episode seeds, the standard wrappers, text rendering."""

from __future__ import annotations

import secrets

from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from cardcanon.model.shuffle import SplitMix64


class EpisodeSeeds:
    """The seed of each episode: the one given to ``reset``; after a seeded reset, unseeded
    resets draw the next seeds from a SplitMix64 stream of it; never seeded, a random seed."""

    def __init__(self) -> None:
        self._stream: SplitMix64 | None = None

    def next(self, seed: int | None) -> int:
        if seed is not None:
            self._stream = SplitMix64(seed)
            return seed
        if self._stream is not None:
            return self._stream.next()
        return secrets.randbits(64)


def wrap(env: AECEnv) -> AECEnv:
    """PettingZoo's usual wrappers for turn-based games: an illegal action ends the game for
    the agent that made it (reward -1), out-of-range actions are refused, the API order is enforced."""
    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def check_render_mode(render_mode: str | None, modes: list[str]) -> str | None:
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"render_mode must be None or one of {', '.join(modes)}, not {render_mode!r}")
    return render_mode


def check_max_steps(max_steps: int | None) -> int | None:
    if max_steps is not None and (not isinstance(max_steps, int) or isinstance(max_steps, bool) or max_steps < 1):
        raise ValueError(f"max_steps must be a positive integer or None, not {max_steps!r}")
    return max_steps
