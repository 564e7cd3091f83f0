"""Many Snap games stepped in one call: the batched interface of ``cardcanon.envs.snap_v0``.

``vector.c`` includes ``kernel.c`` whole and adds the batched loop, so the games are the kernel's;
it is a library of its own, built with the package where a compiler exists, else compiled at first
use into the engine's cache (:func:`cardcanon.engine.build.build`), so that ``kernel.c`` and the
SHA-256 results record of it do not change. It is used only when the kernel itself can be had (the
same fallback rules), and only if it reports the SHA-256 of this package's ``kernel.c`` and ``vector.c``.
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
    "cardcanon_vector_source": (ctypes.c_char_p, []),
    "snap_slot_size": (abi.i64, []),
    "snap_vec_reset_checked": (abi.i64, [abi.P(abi.SnapCfg), abi.i64, _V, abi.i64, abi.i64, abi.u64, _V, _V, _V, _V,
                                         _V, abi.i64, abi.i64]),
    "snap_vec_step_checked": (abi.i64, [abi.P(abi.SnapCfg), abi.i64, _V, abi.i64, abi.i64, abi.i64, _V, _V, _V, _V,
                                        _V, _V, _V, _V, abi.i64, _V, abi.i64]),
    "hearts_vec_step_final_checked": (abi.i64, [abi.P(abi.HeartsCfg), abi.i64, _V, abi.i64, abi.i64, _V, _V, _V, _V,
                                                _V, _V, _V, _V, abi.i64]),
}
_LIBRARY: ctypes.CDLL | None = None


def library() -> ctypes.CDLL:
    """``vector.c`` compiled and loaded (once per process); EngineUnavailable if it cannot be."""
    global _LIBRARY
    if _LIBRARY is None:
        build.load()  # the kernel's own conditions (CARDCANON_ENGINE=python, a failed build) apply
        prebuilt = build.packaged("_vector")
        try:
            _LIBRARY = _open(prebuilt) if prebuilt else None
        except EngineUnavailable:
            _LIBRARY = None  # e.g. an in-place build of an older source: build a fresh one
        if _LIBRARY is None:
            _LIBRARY = _open(build.build(SOURCE))
    return _LIBRARY


def _open(path: Path) -> ctypes.CDLL:
    """Load ``path`` and declare its functions; EngineUnavailable unless it is built from these sources."""
    try:
        lib = ctypes.CDLL(str(path))
        for name, (restype, argtypes) in SIGNATURES.items():
            function = getattr(lib, name)
            function.restype, function.argtypes = restype, argtypes
    except (OSError, AttributeError) as exc:
        raise EngineUnavailable(f"cannot load the batched Snap library {path.name}: {exc}") from None
    if (lib.cardcanon_kernel_source().decode(), lib.cardcanon_vector_source().decode()) != (
            build.source_sha256(), build.source_sha256(SOURCE)):
        raise EngineUnavailable(f"{path} was built from another version of kernel.c or vector.c")
    return lib


def observation_size(players: int) -> int:
    return 2 + 57 * players + 53  # snap_v0.observation_parts


class Seen(ctypes.Structure):
    """vector.c's ``Seen``: the positions each slot's episode has seen before a flip (SNAP-END-4)."""

    _fields_ = [(name, ctypes.c_void_p) for name in ("pool", "heads", "lists", "meta")] + [
        (name, abi.i64) for name in ("capacity", "len", "rec", "buckets")]


BUCKETS = 1024  # hash lists per slot
_RENEWED = ("observations", "masks", "to_move", "rewards")  # SnapVector.renew
_SEEN = ("pool", "heads", "lists", "meta")


class SnapVector:
    """``n`` Snap games stepped together, one step of ``snap_v0`` in each per call: the flip, or
    one decision of the call window. A finished game (over, or truncated at the next flip after
    ``max_steps`` steps or, with ``repeats``, at a position it has seen before) restarts at once
    with the next seed of its slot's own ``SplitMix64`` stream, begun at ``seed + i`` for slot
    ``i``. ``ended`` is 0, 1 (over) or 2 (truncated); ``final`` holds an ended game's last observation
    (of the seat that stepped). The positions seen are kept in numpy arrays
    that grow as the episodes need (each slot's are given back when it restarts)."""

    def __init__(self, n: int, config: SnapConfig, policy: Policy, max_steps: int | None,
                 repeats: bool = True) -> None:
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ValueError(f"the number of games must be a positive integer, not {n!r}")
        self.n, self.config, self.policy, self.max_steps, self.repeats = n, config, policy, max_steps, repeats
        engine_snap._kernel(config)  # EngineUnavailable for a config the kernel does not play
        self.lib = library()
        self.cfg = engine_snap._cfg(config, policy)
        self.cfg_ref, self.cfg_size = ctypes.byref(self.cfg), ctypes.sizeof(self.cfg)
        players = config.players
        self.size = int(self.lib.snap_slot_size()) * n
        self.position = 2 + 2 * players + len(config.deck)  # bytes of one position (vector.c sg_position)
        self.record = (16 + self.position + 7) // 8 * 8  # a Record (hash, two links), then the position
        self.arrays: dict[str, np.ndarray[Any, Any]] = {
            "slots": np.zeros(self.size, dtype=np.uint8), "streams": np.zeros(n, dtype=np.uint64),
            "observations": np.zeros((n, observation_size(players)), dtype=np.float32),
            "masks": np.zeros((n, ACTIONS), dtype=np.int8), "to_move": np.zeros(n, dtype=np.int32),
            "rewards": np.zeros((n, players), dtype=np.float32), "ended": np.zeros(n, dtype=np.uint8),
            "actions": np.zeros(n, dtype=np.int32), "final": np.zeros((n, observation_size(players)), dtype=np.float32),
        }
        if repeats:
            self._empty_seen(4 * n)
        self._bind()

    def _empty_seen(self, capacity: int) -> None:
        """No position seen, room for ``capacity`` (every record free, none used yet)."""
        self.arrays.update(pool=np.zeros(capacity * self.record, dtype=np.uint8),
                           heads=np.full(self.n * BUCKETS, -1, dtype=np.int32),
                           lists=np.tile(np.array([-1, -1, 0], dtype=np.int32), self.n),
                           meta=np.array([-1, capacity, 0], dtype=np.int64))

    def _capacity(self) -> int:
        return len(self.arrays["pool"]) // self.record

    def _grow(self) -> None:
        """Twice the room for positions (the records keep their places; the new ones are free)."""
        a, old = self.arrays, self._capacity()
        a["pool"] = np.concatenate([a["pool"], np.zeros(old * self.record, dtype=np.uint8)])
        a["meta"][1] += old
        self._bind()

    def _bind(self) -> None:
        """The addresses of the arrays, for the kernel (again after the arrays change)."""
        a = self.arrays
        self.observations, self.masks, self.to_move = a["observations"], a["masks"], a["to_move"]
        self.rewards, self.ended, self.final = a["rewards"], a["ended"], a["final"]
        self._a = [int(a[name].ctypes.data) for name in ("slots", "streams", "observations", "masks", "to_move",
                                                          "rewards", "ended", "actions", "final")]
        self.seen: Seen | None = None
        if self.repeats:
            self.seen = Seen(*(int(a[name].ctypes.data) for name in _SEEN), self._capacity(), self.position,
                             self.record, BUCKETS)
        self._seen = (None if self.seen is None else ctypes.byref(self.seen), ctypes.sizeof(Seen))

    def renew(self) -> tuple[np.ndarray[Any, Any], ...]:
        """New arrays for what a step writes whole (observations, masks, to move, rewards), so that
        arrays handed out before stay as they are; the old ones, for :meth:`restore`."""
        old = tuple(self.arrays[name] for name in _RENEWED)
        self._use(*(np.empty_like(array) for array in old))
        return old

    def restore(self, old: tuple[np.ndarray[Any, Any], ...]) -> None:
        """Use the arrays :meth:`renew` replaced again (after a step that played nothing)."""
        self._use(*old)

    def _use(self, *arrays: np.ndarray[Any, Any]) -> None:
        self.arrays.update(zip(_RENEWED, arrays))
        self.observations, self.masks, self.to_move, self.rewards = arrays
        self._a[2:6] = [int(a.ctypes.data) for a in arrays]

    def __reduce__(self) -> tuple[Any, ...]:  # copy.deepcopy and pickle
        args = (self.n, self.config, self.policy, self.max_steps, self.repeats)
        return _restore, (args, {name: array.copy() for name, array in self.arrays.items()})

    def reset(self, seed: int) -> None:
        if self.repeats:
            self._empty_seen(self._capacity())
            self._bind()
        slots, streams, obs, masks, to_move = self._a[:5]
        abi.check(self.lib.snap_vec_reset_checked(self.cfg_ref, self.cfg_size, slots, self.size, self.n, seed % _TWO64,
                                                  streams, obs, masks, to_move, *self._seen, self.n),
                  "snap vector reset")
        self.rewards[:] = 0
        self.ended[:] = 0

    def step(self, actions: np.ndarray[Any, Any]) -> int:
        """Step ``actions`` (one per game): 0, or ``1 + i`` for the first game ``i`` whose action is
        illegal (then nothing is played)."""
        self.arrays["actions"][:] = actions
        if self.repeats and self.arrays["meta"][1] < self.n:  # a record per slot, at most, this step
            self._grow()
        slots, streams, obs, masks, to_move, rewards, ended, acts, final = self._a
        code = self.lib.snap_vec_step_checked(self.cfg_ref, self.cfg_size, slots, self.size, self.n,
                                              self.max_steps or 0, acts, streams, obs, masks, to_move, rewards, ended,
                                              *self._seen, final, self.n)
        return int(abi.check(code, "snap vector step"))


def _restore(args: tuple[Any, ...], arrays: dict[str, np.ndarray[Any, Any]]) -> SnapVector:
    vector = SnapVector(*args)
    vector.arrays = arrays
    vector._bind()
    return vector
