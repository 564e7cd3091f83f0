"""The rulebook-text oracles of what a call window decides (``proofs/snap/rulebook_text.py``)
against the model on random positions, and SNAP-P9's comparison of the derived terms with them
(``proofs/snap/text_terms.py``) failing on a broken oracle or a model mutant."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardcanon.model import snap as model
from cardcanon.model.cards import Card, Rank, Suit
from cardcanon.model.seats import Seat
from cardcanon.model.snap import NextTurn, Phase, SnapConfig, SnapState
from cardcanon.proofs.base import snap_config
from cardcanon.proofs.snap import rulebook_text as text
from cardcanon.proofs.snap import text_terms
from cardcanon.verify.model_mutants import patched
from test_derived_snap import positions


@settings(max_examples=60, deadline=None)
@given(positions(), st.data())
def test_the_text_decides_a_call_window_as_the_model_does(state: SnapState, data: Any) -> None:
    n, f, down, up = state.config.players, state.player.index, state.down, state.up
    assert text.matched_piles(up, f) == tuple(s.index for s in model.matched_seats(state))
    assert text.pot_matched(up, state.pot, f) == model.pot_matches(state)
    kinds = text.correct_calls(bool(text.matched_piles(up, f)), text.pot_matched(up, state.pot, f),
                               state.config.index_card)
    assert frozenset(kinds) == model.correct_kinds(state)
    assert [text.may_call(down, up, s) for s in range(n)] == [model.caller_problem(state, Seat(s)) is None
                                                              for s in range(n)]
    if any(state.holds(Seat(s)) for s in range(n) if s != f):
        assert [text.penalty_recipient(down, up, f, o) for o in range(n)] == [
            model.penalty_recipient(state, Seat(o)).index for o in range(n)]
    winner = data.draw(st.sampled_from([None, *range(n)]))
    if any(state.holds(Seat(s)) for s in range(n)):
        said = model.next_player(state, down, up, Seat(f), None if winner is None else Seat(winner))
        assert text.next_flipper(down, up, f, winner, state.config.next_turn is NextTurn.WINNER) == said.index


@pytest.mark.parametrize("variant", [{}, {"next_turn": "winner"}, {"index_card": "on"}])
def test_the_derived_terms_agree_with_the_text(variant: dict[str, str]) -> None:
    for n in (2, 3, 6):
        tally = text_terms.Tally()
        assert text_terms.compare(snap_config(variant, players=n), tally) is None
        assert tally.patterns > 0


def _pays_left(down: Any, up: Any, flipper: int, offender: int) -> int:
    n = len(down)
    if offender != flipper:
        return flipper
    return next((flipper + k) % n for k in range(1, n) if text.holds(down, up, (flipper + k) % n))


@pytest.mark.parametrize("broken", [
    ("penalty_recipient", _pays_left),
    ("next_flipper", lambda down, up, flipper, winner, winner_flips: flipper),
    ("may_call", lambda down, up, seat: True),
    ("pot_matched", lambda up, pot, flipper: bool(pot)),
])
def test_a_broken_oracle_makes_the_comparison_fail(monkeypatch: pytest.MonkeyPatch, broken: Any) -> None:
    monkeypatch.setattr(text, *broken)
    assert text_terms.compare(snap_config({}, players=3), text_terms.Tally()) is not None


@pytest.mark.parametrize("mutant", ["snap:penalty-to-left", "snap:turn-swapped"])
def test_a_model_mutant_of_a_derived_rule_makes_the_comparison_fail(mutant: str) -> None:
    with patched(mutant):
        found = text_terms.compare(snap_config({}, players=3), text_terms.Tally())
    assert found is not None and found.records


def _window(*piles: tuple[Card, ...]) -> SnapState:
    """A call window of 2 players after player 0's flip: face-up piles and the pot as given."""
    up0, up1, pot = piles
    deck = (*up0, *up1, *pot)
    return SnapState(SnapConfig(players=2, deck=deck), Phase.CALL, Seat(0), ((), ()), (up0, up1), pot, Seat(0), 1)


@pytest.mark.parametrize(("mutant", "piles"), [
    ("snap:match-colour", ((Card(Rank(5), Suit.CLUBS),), (Card(Rank(5), Suit.HEARTS),), ())),
    ("snap:pot-matches-any", ((Card(Rank(5), Suit.CLUBS),), (Card(Rank(6), Suit.CLUBS),),
                         (Card(Rank(7), Suit.CLUBS), Card(Rank(5), Suit.HEARTS)))),
    ("snap:match-second-card", ((Card(Rank(5), Suit.CLUBS),), (Card(Rank(6), Suit.CLUBS), Card(Rank(5), Suit.HEARTS)), ())),
])
def test_a_model_that_matches_otherwise_differs_from_the_text(mutant: str, piles: Any) -> None:
    state = _window(*piles)
    assert text_terms.compare_window(state) is None
    with patched(mutant):
        found = text_terms.compare_window(state)
    assert found is not None and found.records
