"""PettingZoo's usual wrappers for turn-based games, with direct access to the hot attributes.

The classes are PettingZoo's own (``TerminateIllegalWrapper``, ``AssertOutOfBoundsWrapper``,
``OrderEnforcingWrapper``) and behave the same; each reads the attributes a learning loop reads
at every step (``agents``, ``agent_selection``, ``rewards``, ...) from the bare environment with
one property, instead of a chain of ``__getattr__`` calls through every wrapper (which cost more
than a step of the compiled kernel). Before ``reset`` the order-enforcing wrapper still refuses them.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from cardcanon.envs.actions import is_action

HOT = ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos", "_cumulative_rewards",
       "possible_agents", "num_agents")
_BEFORE_RESET = {"rewards", "terminations", "truncations", "infos", "agent_selection", "num_agents", "agents"}


def _forward(name: str, enforce: bool) -> property:
    def get(self: Any) -> Any:
        if enforce and name in _BEFORE_RESET and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._bare, name)

    def put(self: Any, value: Any) -> None:
        setattr(self._bare, name, value)

    return property(get, put)


def _fast(base: type, enforce: bool = False, **methods: Any) -> type:
    namespace: dict[str, Any] = {name: _forward(name, enforce) for name in HOT}
    namespace.update(methods, __doc__=base.__doc__)
    return type(base.__name__, (base,), namespace)


def _step_in_bounds(self: Any, action: Any) -> None:
    """``AssertOutOfBoundsWrapper.step``, with the bound check of :func:`cardcanon.envs._common.is_action`."""
    agent = self._bare.agent_selection
    dead = self._bare.terminations[agent] or self._bare.truncations[agent]
    assert (action is None and dead) or is_action(action, self._bare.action_space(agent).n), \
        "action is not in action space"
    self.env.step(action)


TerminateIllegalWrapper = _fast(wrappers.TerminateIllegalWrapper)
AssertOutOfBoundsWrapper = _fast(wrappers.AssertOutOfBoundsWrapper, step=_step_in_bounds)
OrderEnforcingWrapper = _fast(wrappers.OrderEnforcingWrapper, enforce=True)


def wrap(env: AECEnv) -> AECEnv:
    """An illegal action ends the game for the agent that made it (reward -1), out-of-range
    actions are refused, the API order is enforced."""
    bare = env
    wrapped: Any = TerminateIllegalWrapper(env, illegal_reward=-1)
    wrapped._bare = bare
    wrapped = AssertOutOfBoundsWrapper(wrapped)
    wrapped._bare = bare
    wrapped = OrderEnforcingWrapper(wrapped)
    wrapped._bare = bare
    return wrapped
