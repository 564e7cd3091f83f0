"""One game at a time, one action at a time, in the compiled kernel: what the environments step.

:class:`HeartsSteps` and :class:`SnapSteps` hold one game in a buffer of the kernel and move it
by one action (a Hearts play; a Snap flip, or the calls of one call window), making the chance
moves that follow exactly as the reference model draws them from ``SplitMix64(seed)``, and write
the observation vectors of ``cardcanon.envs.hearts_v0`` and ``snap_v0``. :class:`HeartsVector`
steps many Hearts matches in one call. Each constructor raises
:class:`~cardcanon.engine.build.EngineUnavailable` when the kernel cannot play the config.
``tests/test_env_engine.py`` plays the same episodes through the kernel and the model.
"""

from __future__ import annotations

import ctypes
from typing import Any, NamedTuple, TypeVar

import numpy as np

from cardcanon.engine import abi, hearts as engine_hearts, snap as engine_snap, vector
from cardcanon.model.hearts import HeartsConfig
from cardcanon.model.seats import Seat
from cardcanon.model.snap import Call, CallKind, Move, NoCall, Phase, SnapConfig, Tie
from cardcanon.model.snap_policies import Policy

_TWO64 = 1 << 64
HEARTS_OBSERVATION = 7 * 28 + 6  # kernel.c H_OBS; hearts_v0.OBSERVATION_SIZE
SNAP_CALL_KINDS = (CallKind.SNAP, CallKind.SNAP_POT, CallKind.HAND)  # kernel.c K_SNAP, K_POT, K_HAND
SNAP_PHASES = (Phase.FLIP, Phase.CALL, Phase.OVER)  # kernel.c SG_FLIP, SG_CALL, SG_OVER: SnapSteps.view[0]


class HeartsPosition(NamedTuple):
    """A Hearts position as the kernel reads it (kernel.c ``hearts_game_position_checked``): cards as
    masks of deck indices, -1 for nobody or no card."""

    hand0: int
    hand1: int
    dead: int
    taken0: int
    taken1: int
    lead: int  # the card led to the current trick
    broken: int  # hearts broken
    tricks: int  # tricks played this hand
    to_move: int
    over: int
    winner: int
    dealer: int
    hand_number: int
    score0: int
    score1: int
    legal: int  # the legal cards of the player to move


HEARTS_POSITION = len(HeartsPosition._fields)  # kernel.c H_POSITION


def snap_event(players: int, event: int, who: int, kind: int) -> Move:
    """The model's call event of the kernel's codes (:meth:`SnapSteps.settle`)."""
    if event == 0:
        return NoCall()
    if event == 1:
        return Call(Seat(who), SNAP_CALL_KINDS[kind])
    return Tie(frozenset(Seat(i) for i in range(players) if who >> i & 1), SNAP_CALL_KINDS[kind])


def _address(array: np.ndarray[Any, Any]) -> int:
    return int(array.ctypes.data)


def _restore(kind: Any, args: tuple[Any, ...], game: bytes, view: bytes) -> Any:
    """A copy of a game in the kernel (see ``__reduce__``): a fresh holder, the same bytes."""
    steps = kind(*args)
    ctypes.memmove(steps.game, game, len(game))
    ctypes.memmove(steps.view, view, len(view))
    return steps


S = TypeVar("S", "HeartsSteps", "SnapSteps")


def _twin(steps: S) -> S:
    """A copy of a game in the kernel without a new holder: its own game and view, the rest shared
    (the scratch buffers are written and read within one call)."""
    twin = object.__new__(type(steps))
    twin.__dict__.update(steps.__dict__)
    twin.game = type(steps.game).from_buffer_copy(steps.game)
    twin.view = type(steps.view).from_buffer_copy(steps.view)
    return twin


class HeartsSteps:
    """One Hearts match in the kernel. ``view`` after each call: to move (-1 when over), over,
    winner, dealer, hand number, score 0, score 1, the last step's code (0 a play, 2 a new hand
    dealt, 1 the match is over)."""

    def __init__(self, config: HeartsConfig) -> None:
        self.config = config
        self.lib = engine_hearts._kernel(config)
        self.cfg = engine_hearts._cfg(config, ("random", "random"))
        self.cfg_ref, self.cfg_size = ctypes.byref(self.cfg), ctypes.sizeof(self.cfg)
        self.size = int(self.lib.hearts_game_size())
        self.game = (ctypes.c_uint8 * self.size)()
        self.view = (ctypes.c_int32 * 8)()
        self.obs = np.zeros(HEARTS_OBSERVATION, dtype=np.float32)
        self.mask = np.zeros(28, dtype=np.int8)
        self.order = np.zeros(28, dtype=np.uint8)
        self._obs, self._mask, self._order = _address(self.obs), _address(self.mask), _address(self.order)
        self.spot = (ctypes.c_int32 * HEARTS_POSITION)()

    def __reduce__(self) -> tuple[Any, ...]:  # copy.deepcopy and pickle: the game's bytes
        return _restore, (HeartsSteps, (self.config,), bytes(self.game), bytes(self.view))

    def twin(self) -> HeartsSteps:
        """A copy of the game that shares this holder's library, config and scratch buffers."""
        return _twin(self)

    def reset(self, seed: int) -> None:
        abi.check(self.lib.hearts_game_reset_checked(self.cfg_ref, self.cfg_size, self.game, self.size, seed % _TWO64),
                  "hearts reset")
        self.step(-1)

    def start(self, dealer: int) -> None:
        """A match whose deals are given (:meth:`deal_given`) instead of drawn: nothing dealt yet,
        ``dealer`` the first dealer (-1: not chosen yet). After each hand, :meth:`step` returns 3
        and the next hand waits for its deal."""
        abi.check(self.lib.hearts_game_start_checked(self.cfg_ref, self.cfg_size, self.game, self.size, dealer),
                  "hearts start")
        self.step(-1)

    def deal_given(self, order: bytes) -> None:
        """Deal ``order`` (deck indices, top card first) to the hand waiting for its deal."""
        abi.check(self.lib.hearts_game_deal_checked(self.cfg_ref, self.cfg_size, self.game, self.size,
                                                    (ctypes.c_uint8 * 28).from_buffer_copy(order), len(order)),
                  "hearts deal")
        self.step(-1)

    def position(self) -> HeartsPosition:
        """The position (:class:`HeartsPosition`)."""
        abi.check(self.lib.hearts_game_position_checked(self.cfg_ref, self.cfg_size, self.game, self.size, self.spot,
                                                        HEARTS_POSITION), "hearts position")
        return HeartsPosition(*self.spot)

    def step(self, card: int) -> int:
        """Play ``card`` (a deck index) for the player to move: the step's code, or -1 if illegal."""
        code = self.lib.hearts_game_step_checked(self.cfg_ref, self.cfg_size, self.game, self.size, card, self.view, 8)
        return -1 if code == -1 else int(abi.check(code, "hearts step")) or int(self.view[7])

    def observe(self, seat: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """``seat``'s observation vector and action mask (copies)."""
        abi.check(self.lib.hearts_game_observe_checked(self.cfg_ref, self.cfg_size, self.game, self.size, seat,
                                                       self._obs, HEARTS_OBSERVATION, self._mask, 28, None, 0),
                  "hearts observe")
        return self.obs.copy(), self.mask.copy()

    def deal(self) -> bytes:
        """The order of the current hand's deal, top card first (deck indices)."""
        abi.check(self.lib.hearts_game_observe_checked(self.cfg_ref, self.cfg_size, self.game, self.size, 0,
                                                       self._obs, HEARTS_OBSERVATION, None, 0, self._order, 28),
                  "hearts deal")
        return self.order.tobytes()


class HeartsVector:
    """``n`` Hearts matches stepped together: each call plays one card in every match (for its
    player to move). A finished match writes its final observation (of the player who made the
    last play) into ``final`` and restarts at once with the next seed of its slot's own
    ``SplitMix64`` stream, begun at ``seed + i`` for slot ``i`` (as the environment's unseeded
    resets after ``reset(seed=seed + i)``)."""

    def __init__(self, n: int, config: HeartsConfig = HeartsConfig()) -> None:
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ValueError(f"the number of matches must be a positive integer, not {n!r}")
        self.n, self.config = n, config
        self.lib = engine_hearts._kernel(config)
        self.cfg = engine_hearts._cfg(config, ("random", "random"))
        self.cfg_ref, self.cfg_size = ctypes.byref(self.cfg), ctypes.sizeof(self.cfg)
        self.size = int(self.lib.hearts_game_size()) * n
        self.games = np.zeros(self.size, dtype=np.uint8)
        self.streams = np.zeros(n, dtype=np.uint64)
        self.observations = np.zeros((n, HEARTS_OBSERVATION), dtype=np.float32)
        self.masks = np.zeros((n, 28), dtype=np.int8)
        self.to_move = np.zeros(n, dtype=np.int32)
        self.rewards = np.zeros((n, 2), dtype=np.float32)
        self.dones = np.zeros(n, dtype=np.uint8)
        self.actions = np.zeros(n, dtype=np.int32)
        self.final = np.zeros((n, HEARTS_OBSERVATION), dtype=np.float32)
        self.batched = vector.library()  # vector.c: the batched step that keeps the final observation
        self._a = [_address(a) for a in (self.games, self.streams, self.observations, self.masks, self.to_move,
                                         self.rewards, self.dones, self.actions, self.final)]

    def renew(self) -> tuple[np.ndarray[Any, Any], ...]:
        """New arrays for what a step writes whole (observations, masks, to move, rewards), so that
        arrays handed out before stay as they are; the old ones, for :meth:`restore`."""
        old = (self.observations, self.masks, self.to_move, self.rewards)
        self._use(*(np.empty_like(array) for array in old))
        return old

    def restore(self, old: tuple[np.ndarray[Any, Any], ...]) -> None:
        """Use the arrays :meth:`renew` replaced again (after a step that played nothing)."""
        self._use(*old)

    def _use(self, *arrays: np.ndarray[Any, Any]) -> None:
        self.observations, self.masks, self.to_move, self.rewards = arrays
        self._a[2:6] = [_address(a) for a in arrays]

    def __reduce__(self) -> tuple[Any, ...]:  # copy.deepcopy and pickle
        arrays = (self.games, self.streams, self.observations, self.masks, self.to_move, self.rewards, self.dones)
        return _restore_vector, (self.n, self.config, tuple(a.copy() for a in arrays))

    def reset(self, seed: int) -> None:
        games, streams, obs, masks, to_move = self._a[:5]
        abi.check(self.lib.hearts_vec_reset_checked(self.cfg_ref, self.cfg_size, games, self.size, self.n,
                                                    seed % _TWO64, streams, obs, masks, to_move, self.n),
                  "hearts vector reset")

    def step(self, actions: np.ndarray[Any, Any]) -> int:
        """Play ``actions`` (one card index per match): 0, or ``1 + i`` for the first match ``i`` whose card
        is illegal (then no card is played)."""
        self.actions[:] = actions
        games, streams, obs, masks, to_move, rewards, dones, acts, final = self._a
        code = self.batched.hearts_vec_step_final_checked(self.cfg_ref, self.cfg_size, games, self.size, self.n, acts,
                                                          streams, obs, masks, to_move, rewards, dones, final, self.n)
        return int(abi.check(code, "hearts vector step"))


def _restore_vector(n: int, config: HeartsConfig, arrays: tuple[np.ndarray[Any, Any], ...]) -> HeartsVector:
    vector = HeartsVector(n, config)
    mine: tuple[np.ndarray[Any, Any], ...] = (vector.games, vector.streams, vector.observations, vector.masks,
                                              vector.to_move, vector.rewards, vector.dones)
    for array, saved in zip(mine, arrays):
        array[...] = saved
    return vector


class SnapSteps:
    """One Snap game in the kernel, moved by flips and settled call windows. ``view`` after each
    call: phase (0 flip, 1 call window, 2 over), turn, holders (bit mask of seats), dealer, ending
    code (engine/snap.py ENDINGS) and winner when over, pot size."""

    def __init__(self, config: SnapConfig, policy: Policy) -> None:
        self.config, self.policy = config, policy
        self.lib = engine_snap._kernel(config)
        self.players = config.players
        self.cfg = engine_snap._cfg(config, policy)
        self.cfg_ref, self.cfg_size = ctypes.byref(self.cfg), ctypes.sizeof(self.cfg)
        self.size = int(self.lib.snap_game_size())
        self.game = (ctypes.c_uint8 * self.size)()
        self.view = (ctypes.c_int32 * 7)()
        self.event = (ctypes.c_int32 * 3)()
        self.calls = (ctypes.c_int8 * self.players)()
        self.order = (ctypes.c_uint8 * 52)()
        self.ncards = len(config.deck)
        self.obs = np.zeros(2 + 57 * self.players + 53, dtype=np.float32)
        self.position = (ctypes.c_uint8 * (2 + 2 * self.players + 52))()
        self.used = ctypes.c_int64()
        self._obs = _address(self.obs)

    def __reduce__(self) -> tuple[Any, ...]:  # copy.deepcopy and pickle: the game's bytes
        return _restore, (SnapSteps, (self.config, self.policy), bytes(self.game), bytes(self.view))

    def twin(self) -> SnapSteps:
        """A copy of the game that shares this holder's library, config and scratch buffers."""
        return _twin(self)

    def reset(self, seed: int) -> tuple[int, bytes]:
        """Deal from ``seed``: the dealer and the order dealt (card indices, top first)."""
        abi.check(self.lib.snap_game_reset_checked(self.cfg_ref, self.cfg_size, self.game, self.size, seed % _TWO64,
                                                   self.view, 7, self.order, 52), "snap reset")
        return int(self.view[3]), bytes(self.order)[:self.ncards]

    def deal(self, dealer: int, order: bytes) -> None:
        """Deal ``order`` (card indices of the config's deck, top first) from ``dealer``."""
        abi.check(self.lib.snap_game_deal_checked(self.cfg_ref, self.cfg_size, self.game, self.size, dealer,
                                                  (ctypes.c_uint8 * 52).from_buffer_copy(order.ljust(52, b"\0")),
                                                  len(order), self.view, 7), "snap deal")

    def close(self, event: tuple[int, int, int] | None = None) -> tuple[int, int, int]:
        """Close the open call window with ``event`` (0 no call, 1 a call, 2 a tie; the caller, or the
        tied seats as a bit mask; the kind), or with None the policy's own event: the event applied."""
        given = None if event is None else (ctypes.c_int32 * 3)(*event)
        abi.check(self.lib.snap_game_event_checked(self.cfg_ref, self.cfg_size, self.game, self.size, given,
                                                   3 if given else 0, self.event, 3, self.view, 7),
                  "snap call event")
        return int(self.event[0]), int(self.event[1]), int(self.event[2])

    def correct(self) -> tuple[CallKind, ...]:
        """The kinds of call that are correct in the open call window."""
        mask = abi.check(self.lib.snap_game_correct_checked(self.cfg_ref, self.cfg_size, self.game, self.size),
                         "snap correct calls")
        return tuple(kind for k, kind in enumerate(SNAP_CALL_KINDS) if mask >> k & 1)

    def flip(self) -> None:
        abi.check(self.lib.snap_game_step_checked(self.cfg_ref, self.cfg_size, self.game, self.size, None, 0,
                                                  self.event, 3, self.view, 7), "snap flip")

    def settle(self, calls: dict[int, CallKind | None]) -> tuple[int, int, int]:
        """Settle the open call window (``calls``: seat -> kind called, or None): the event
        (0 no call, 1 a call, 2 a tie), the caller (or the tie's seats as a bit mask) and the kind."""
        for seat in range(self.players):
            kind = calls.get(seat)
            self.calls[seat] = -1 if kind is None else SNAP_CALL_KINDS.index(kind)
        abi.check(self.lib.snap_game_step_checked(self.cfg_ref, self.cfg_size, self.game, self.size, self.calls,
                                                  self.players, self.event, 3, self.view, 7), "snap call window")
        return int(self.event[0]), int(self.event[1]), int(self.event[2])

    def observe(self, seat: int) -> np.ndarray[Any, Any]:
        abi.check(self.lib.snap_game_observe_checked(self.cfg_ref, self.cfg_size, self.game, self.size, seat,
                                                     self._obs, len(self.obs), None, 0, None), "snap observe")
        return self.obs.copy()

    def position_key(self) -> bytes:
        """The position (every pile, the pot, whose turn), as bytes: equal exactly when the positions are."""
        abi.check(self.lib.snap_game_observe_checked(self.cfg_ref, self.cfg_size, self.game, self.size, 0, None, 0,
                                                     self.position, len(self.position), ctypes.byref(self.used)),
                  "snap position")
        return bytes(self.position)[:self.used.value]
