"""The C kernel's interface as ctypes sees it: structs, and the signature of every function called.

Python calls only the ``*_checked`` entry points of ``kernel.c`` (and ``*_game_size``, the size of
the buffer that holds one game for :mod:`cardcanon.engine.steps`). Each takes the size of its
config struct and the length of every buffer, so a stale library or a short buffer is an error
code, never memory corruption; :func:`check` turns the code into :class:`EngineError`.
"""

from __future__ import annotations

import ctypes

from cardcanon.spec.errors import CardcanonError

i64, u64, c_int = ctypes.c_int64, ctypes.c_uint64, ctypes.c_int
P = ctypes.POINTER


class SnapCfg(ctypes.Structure):
    _fields_ = [("players", ctypes.c_int), ("index_card", ctypes.c_int), ("next_winner", ctypes.c_int),
                ("policy", ctypes.c_int), ("rate_threshold", ctypes.c_uint64), ("rate_always", ctypes.c_int),
                ("ncards", ctypes.c_int), ("deck", ctypes.c_uint8 * 52)]


class SnapMove(ctypes.Structure):
    _fields_ = [("flipper", ctypes.c_uint16), ("event", ctypes.c_uint16), ("who", ctypes.c_uint16),
                ("kind", ctypes.c_uint16)]


class HeartsCfg(ctypes.Structure):
    _fields_ = [("lowest_club_lead", ctypes.c_int), ("break_void", ctypes.c_int), ("first_no_hearts", ctypes.c_int),
                ("moon_in_play", ctypes.c_int), ("queen_breaks", ctypes.c_int), ("target", ctypes.c_int),
                ("kinds", ctypes.c_int * 2), ("queen_points", ctypes.c_int), ("heart_points", ctypes.c_int),
                ("moon_shooter_points", ctypes.c_int), ("moon_other_points", ctypes.c_int), ("hand_size", ctypes.c_int),
                ("tricks_per_hand", ctypes.c_int), ("tally_dim", ctypes.c_int)]


U8 = P(ctypes.c_uint8)
SIGNATURES: dict[str, tuple[type, list[type]]] = {
    # name: (restype, argtypes), as in kernel.c
    "cardcanon_kernel_source": (ctypes.c_char_p, []),
    "snap_play_checked": (c_int, [P(SnapCfg), i64, u64, c_int, U8, i64, i64, P(i64), i64, P(SnapMove), i64]),
    "snap_sample_deal_checked": (c_int, [P(SnapCfg), i64, u64, U8, i64]),
    "snap_batch_checked": (c_int, [P(SnapCfg), i64, u64, i64, i64, P(i64), i64]),
    "snap_enumerate_checked": (i64, [P(SnapCfg), i64, i64, P(i64), i64, P(i64), i64]),
    "hearts_match_checked": (c_int, [P(HeartsCfg), i64, u64, u64, u64, i64, P(i64), i64, P(ctypes.c_int32), i64,
                                     U8, i64, P(i64), i64]),
    "hearts_batch_checked": (c_int, [P(HeartsCfg), i64, u64, i64, P(i64), i64, P(i64), i64]),
    "hearts_bench_checked": (i64, [P(HeartsCfg), i64, u64, i64, P(i64)]),
    # step by step (cardcanon/engine/steps.py); games are byte buffers of the size the kernel reports
    "hearts_game_size": (i64, []),
    "snap_game_size": (i64, []),
    "hearts_game_reset_checked": (c_int, [P(HeartsCfg), i64, ctypes.c_void_p, i64, u64]),
    "hearts_game_step_checked": (c_int, [P(HeartsCfg), i64, ctypes.c_void_p, i64, c_int, P(ctypes.c_int32), i64]),
    "hearts_game_observe_checked": (c_int, [P(HeartsCfg), i64, ctypes.c_void_p, i64, c_int, ctypes.c_void_p, i64,
                                            ctypes.c_void_p, i64, ctypes.c_void_p, i64]),
    "hearts_vec_reset_checked": (i64, [P(HeartsCfg), i64, ctypes.c_void_p, i64, i64, u64, ctypes.c_void_p,
                                       ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, i64]),
    "hearts_vec_step_checked": (i64, [P(HeartsCfg), i64, ctypes.c_void_p, i64, i64, ctypes.c_void_p, ctypes.c_void_p,
                                      ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                      ctypes.c_void_p, i64]),
    "snap_game_reset_checked": (c_int, [P(SnapCfg), i64, ctypes.c_void_p, i64, u64, P(ctypes.c_int32), i64, U8, i64]),
    "snap_game_step_checked": (c_int, [P(SnapCfg), i64, ctypes.c_void_p, i64, ctypes.c_void_p, i64,
                                       P(ctypes.c_int32), i64, P(ctypes.c_int32), i64]),
    "snap_game_observe_checked": (c_int, [P(SnapCfg), i64, ctypes.c_void_p, i64, c_int, ctypes.c_void_p, i64,
                                          ctypes.c_void_p, i64, P(i64)]),
    # a deal given from outside (cardcanon/openspiel: OpenSpiel deals card by card)
    "hearts_game_start_checked": (c_int, [P(HeartsCfg), i64, ctypes.c_void_p, i64, c_int]),
    "hearts_game_deal_checked": (c_int, [P(HeartsCfg), i64, ctypes.c_void_p, i64, U8, i64]),
    "hearts_game_position_checked": (c_int, [P(HeartsCfg), i64, ctypes.c_void_p, i64, P(ctypes.c_int32), i64]),
    "snap_game_deal_checked": (c_int, [P(SnapCfg), i64, ctypes.c_void_p, i64, c_int, U8, i64, P(ctypes.c_int32),
                                       i64]),
    "snap_game_correct_checked": (c_int, [P(SnapCfg), i64, ctypes.c_void_p, i64]),
    "snap_game_event_checked": (c_int, [P(SnapCfg), i64, ctypes.c_void_p, i64, ctypes.c_void_p, i64,
                                        P(ctypes.c_int32), i64, P(ctypes.c_int32), i64]),
}

_CODES = {-10: "the library was built from another kernel.c (struct sizes differ)",
          -11: "a configuration the kernel cannot play", -12: "a buffer too short for the call"}


class EngineError(CardcanonError):
    """The kernel refused a call (see ``kernel.c``, checked entry points)."""


def declare(lib: ctypes.CDLL) -> None:
    """Set ``restype``/``argtypes`` of every function Python calls; AttributeError if one is missing."""
    for name, (restype, argtypes) in SIGNATURES.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes


def check(code: int, what: str) -> int:
    """``code`` if it is not an error code of the checked entry points, else raise EngineError."""
    if code in _CODES:
        raise EngineError(f"{what}: {_CODES[code]} (code {code})")
    return code
