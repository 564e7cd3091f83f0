"""SNAP-P9's small-model premises on Hypothesis positions of up to 52 cards and 12 players."""

from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from cardcanon.model import snap as model
from cardcanon.proofs.base import Run
from cardcanon.verify.model_mutants import patched
from cardcanon.proofs.snap.p12_locality import _broken_block, check, random_position, random_substitution, substitute
from cardcanon.proofs.base import snap_config


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 12), st.integers(2, 52), st.integers(0, 2**32 - 1))
def test_unread_cards_change_nothing_and_blocks_stay_whole(players: int, cards: int, seed: int) -> None:
    rng = random.Random(seed)
    state = random_position(snap_config({}, players=players), rng, cards)
    if state is None:
        return
    swap = random_substitution(state, rng)
    other = substitute(state, swap)
    moves = model.legal_moves(state)
    assert model.legal_moves(other) == moves
    for move in moves[:40]:
        after = model.apply(state, move)
        assert not _broken_block(state, after)
        assert substitute(after, swap) == model.apply(other, move)


def test_a_model_reading_the_card_under_a_top_fails_the_check() -> None:
    bounds = {"exhaustive_players": [2], "exhaustive_cards": 4, "samples": 20}
    assert check(Run(bounds=bounds)).verdict.value == "proved"
    with patched("snap:match-second-card"):
        assert check(Run(bounds=bounds)).verdict.value == "counterexample found"
