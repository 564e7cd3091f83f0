"""The one place where the environments call the reference models.

Each game is seen through the same few functions: a new game, the chance move drawn from the
portable shuffle's stream, the legal moves, applying a move and the outcome.
"""

from __future__ import annotations

from cardcanon.model import hearts, snap
from cardcanon.model.shuffle import SplitMix64


class HeartsGame:
    """Two-player Hearts (:mod:`cardcanon.model.hearts`)."""

    config_type = hearts.HeartsConfig

    @staticmethod
    def new_game(config: hearts.HeartsConfig) -> hearts.HeartsState:
        return hearts.new_match(config)

    @staticmethod
    def is_chance(state: hearts.HeartsState) -> bool:
        return state.is_chance

    @staticmethod
    def sample_chance(state: hearts.HeartsState, rng: SplitMix64) -> hearts.Move:
        return hearts.sample_chance(state, rng)

    @staticmethod
    def legal_moves(state: hearts.HeartsState) -> tuple[hearts.Move, ...]:
        return hearts.legal_moves(state)

    @staticmethod
    def apply(state: hearts.HeartsState, move: hearts.Move) -> hearts.HeartsState:
        return hearts.apply(state, move)

    @staticmethod
    def outcome(state: hearts.HeartsState) -> hearts.Outcome | None:
        return state.outcome


class SnapGame:
    """Snap (:mod:`cardcanon.model.snap`); the call race is in :mod:`cardcanon.envs.snap_race`."""

    config_type = snap.SnapConfig

    @staticmethod
    def new_game(config: snap.SnapConfig) -> snap.SnapState:
        return snap.new_game(config)

    @staticmethod
    def is_chance(state: snap.SnapState) -> bool:
        return state.is_chance

    @staticmethod
    def sample_chance(state: snap.SnapState, rng: SplitMix64) -> snap.Move:
        return snap.sample_deal(state.config, rng)

    @staticmethod
    def legal_moves(state: snap.SnapState) -> tuple[snap.Move, ...]:
        return snap.legal_moves(state)

    @staticmethod
    def apply(state: snap.SnapState, move: snap.Move) -> snap.SnapState:
        return snap.apply(state, move)

    @staticmethod
    def outcome(state: snap.SnapState) -> snap.Outcome | None:
        return state.outcome
