"""Many Snap games stepped in one call: the batched interface of ``cardcanon.envs.snap_v0``.

``vector.c`` includes ``kernel.c`` whole and adds the batched loop, so the games are the kernel's;
it is a library of its own, compiled at first use into the engine's cache
(:func:`cardcanon.engine.build.build`), so that ``kernel.c`` and the SHA-256 results record of it
do not change. It is used only when the kernel itself can be had (the same fallback rules).
``tests/test_env_engine.py`` plays its games against the single environment, step by step.
"""

from __future__ import annotations

import ctypes
from pathlib import Path
from typing import Any

import numpy as np

from cardcanon.engine import abi, build, snap as engine_snap
from cardcanon.engine.build import EngineUnavailable
from cardcanon.model.snap import SnapConfig
from cardcanon.model.snap_policies import Policy

SOURCE = Path(__file__).with_name("vector.c")
ACTIONS = 5  # snap_v0.SnapAction
_TWO64 = 1 << 64
_V = ctypes.c_void_p
SIGNATURES: dict[str, tuple[type, list[type]]] = {
    "cardcanon_kernel_source": (ctypes.c_char_p, []),
    "snap_slot_size": (abi.i64, []),
    "snap_vec_reset_checked": (abi.i64, [abi.P(abi.SnapCfg), abi.i64, _V, abi.i64, abi.i64, abi.u64, _V, _V, _V, _V,
                                         abi.i64]),
    "snap_vec_step_checked": (abi.i64, [abi.P(abi.SnapCfg), abi.i64, _V, abi.i64, abi.i64, abi.i64, _V, _V, _V, _V,
                                        _V, _V, _V, abi.i64]),
}
_LIBRARY: ctypes.CDLL | None = None


def library() -> ctypes.CDLL:
    """``vector.c`` compiled and loaded (once per process); EngineUnavailable if it cannot be."""
    global _LIBRARY
    if _LIBRARY is None:
        build.load()  # the kernel's own conditions (CARDCANON_ENGINE=python, a failed build) apply
        path = build.build(SOURCE)
        try:
            lib = ctypes.CDLL(str(path))
            for name, (restype, argtypes) in SIGNATURES.items():
                function = getattr(lib, name)
                function.restype, function.argtypes = restype, argtypes
        except (OSError, AttributeError) as exc:
            raise EngineUnavailable(f"cannot load the batched Snap library {path.name}: {exc}") from None
        if lib.cardcanon_kernel_source().decode() != build.source_sha256():
            raise EngineUnavailable(f"{path} was built from another version of kernel.c")
        _LIBRARY = lib
    return _LIBRARY


def observation_size(players: int) -> int:
    return 2 + 57 * players + 53  # snap_v0.observation_parts


class SnapVector:
    """``n`` Snap games stepped together, one step of ``snap_v0`` in each per call: the flip, or
    one decision of the call window. A finished game (over, or truncated after ``max_steps``
    steps, at the next flip) restarts at once with the next seed of its slot's own ``SplitMix64``
    stream, begun at ``seed + i`` for slot ``i``. ``ended`` is 0, 1 (over) or 2 (truncated)."""

    def __init__(self, n: int, config: SnapConfig, policy: Policy, max_steps: int | None) -> None:
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ValueError(f"the number of games must be a positive integer, not {n!r}")
        self.n, self.config, self.policy, self.max_steps = n, config, policy, max_steps
        engine_snap._kernel(config)  # EngineUnavailable for a config the kernel does not play
        self.lib = library()
        self.cfg = engine_snap._cfg(config, policy)
        self.cfg_ref, self.cfg_size = ctypes.byref(self.cfg), ctypes.sizeof(self.cfg)
        players = config.players
        self.size = int(self.lib.snap_slot_size()) * n
        self.slots = np.zeros(self.size, dtype=np.uint8)
        self.streams = np.zeros(n, dtype=np.uint64)
        self.observations = np.zeros((n, observation_size(players)), dtype=np.float32)
        self.masks = np.zeros((n, ACTIONS), dtype=np.int8)
        self.to_move = np.zeros(n, dtype=np.int32)
        self.rewards = np.zeros((n, players), dtype=np.float32)
        self.ended = np.zeros(n, dtype=np.uint8)
        self.actions = np.zeros(n, dtype=np.int32)
        self._arrays: tuple[np.ndarray[Any, Any], ...] = (self.slots, self.streams, self.observations, self.masks, self.to_move, self.rewards, self.ended)
        self._a = [int(a.ctypes.data) for a in (*self._arrays, self.actions)]

    def __reduce__(self) -> tuple[Any, ...]:  # copy.deepcopy and pickle
        return _restore, ((self.n, self.config, self.policy, self.max_steps), tuple(a.copy() for a in self._arrays))

    def reset(self, seed: int) -> None:
        slots, streams, obs, masks, to_move = self._a[:5]
        abi.check(self.lib.snap_vec_reset_checked(self.cfg_ref, self.cfg_size, slots, self.size, self.n, seed % _TWO64,
                                                  streams, obs, masks, to_move, self.n), "snap vector reset")
        self.rewards[:] = 0
        self.ended[:] = 0

    def step(self, actions: np.ndarray[Any, Any]) -> int:
        """Step ``actions`` (one per game): 0, or ``1 + i`` for the first game ``i`` whose action is
        illegal (then nothing is played)."""
        self.actions[:] = actions
        slots, streams, obs, masks, to_move, rewards, ended, acts = self._a
        code = self.lib.snap_vec_step_checked(self.cfg_ref, self.cfg_size, slots, self.size, self.n,
                                              self.max_steps or 0, acts, streams, obs, masks, to_move, rewards, ended,
                                              self.n)
        return int(abi.check(code, "snap vector step"))


def _restore(args: tuple[Any, ...], arrays: tuple[np.ndarray[Any, Any], ...]) -> SnapVector:
    vector = SnapVector(*args)
    for array, saved in zip(vector._arrays, arrays):
        array[...] = saved
    return vector
