"""Whole Hearts matches of random legal moves, checked after every move by invariants.

Chance moves come from a SplitMix64 stream whose seed Hypothesis draws; the plays are picked
from the legal moves with indices Hypothesis draws. After every move the machine also checks
that a card is accepted by ``apply`` exactly when ``legal_moves`` offers it.
"""

from __future__ import annotations

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule, run_state_machine_as_test

from cardcanon.model.cards import Suit
from cardcanon.model.errors import IllegalMoveError
from cardcanon.model.hearts import (
    DECK, POINT_CARDS, BreakOn, FirstLead, FirstTrickPoints, HeartsConfig, MoonScore, Phase, Play, apply,
    legal_moves, new_game, sample_chance,
)
from cardcanon.model.hearts_types import SEATS
from cardcanon.model.shuffle import SplitMix64

RULES = ("HEARTS-DECK-1", "HEARTS-DEAL-1", "HEARTS-DEAL-2", "HEARTS-FOLLOW-1", "HEARTS-TRICK-2", "HEARTS-TRICK-3",
         "HEARTS-BREAK-1", "HEARTS-BREAK-2", "HEARTS-FIRST-1", "HEARTS-LEAD-3", "HEARTS-SCORE-1", "HEARTS-MOON-1",
         "HEARTS-MOON-2", "HEARTS-MATCH-1", "HEARTS-MATCH-2")

configs = st.builds(
    HeartsConfig,
    first_lead=st.sampled_from(FirstLead), break_on=st.sampled_from(BreakOn),
    first_trick_points=st.sampled_from(FirstTrickPoints), moon_score=st.sampled_from(MoonScore),
    target=st.sampled_from([100, 100, 40]),
)


class HeartsMachine(RuleBasedStateMachine):
    @initialize(seed=st.integers(0, 2**64 - 1), config=configs)
    def start(self, seed, config):
        self.rng = SplitMix64(seed)
        self.config = config
        self.state = new_game(config)
        self.matches = 0
        self._new_hand_tracking()
        self.last_scores = (0, 0)

    def _new_hand_tracking(self):
        self.plays_this_hand = 0
        self.heart_played = False
        self.failed_to_follow = False

    @precondition(lambda self: self.state.phase is not Phase.OVER)
    @rule(picks=st.lists(st.integers(0, 12), min_size=1, max_size=30))
    def advance(self, picks):
        """Play up to len(picks) moves, checking the invariants after each one."""
        for pick in picks:
            if self.state.phase is Phase.OVER:
                return
            self._step(pick)
            self.check_all()

    @precondition(lambda self: self.state.phase is Phase.OVER)
    @rule()
    def next_match(self):
        self.matches += 1
        self.state = new_game(self.config)
        self.last_scores = (0, 0)

    def _step(self, pick):
        state = self.state
        if state.is_chance:
            assert legal_moves(state) == ()
            move = sample_chance(state, self.rng)
        else:
            legal = legal_moves(state)
            self._check_apply_agrees_with_legal_moves(state, legal)
            move = legal[pick % len(legal)]
            self.plays_this_hand += 1
            self.heart_played |= move.card.suit is Suit.HEARTS
            if state.trick and move.card.suit is not state.trick[0].card.suit:
                self.failed_to_follow = True
        after = apply(state, move)
        if state.phase is Phase.DEAL:
            self._new_hand_tracking()
        if state.phase is Phase.PLAY and after.phase is not Phase.PLAY:
            # HEARTS-TRICK-3: a hand ends after exactly 13 tricks, all 26 cards played.
            assert after.tricks_played == 13 and self.plays_this_hand == 26
            assert after.hands == (frozenset(), frozenset())
        self.state = after

    @staticmethod
    def _check_apply_agrees_with_legal_moves(state, legal):
        offered = {m.card for m in legal}
        seat = state.to_move
        for card in state.hands[seat.index]:
            if card in offered:
                apply(state, Play(seat, card))
            else:
                with pytest.raises(IllegalMoveError):
                    apply(state, Play(seat, card))
        opponent = SEATS[1 - seat.index]
        for card in sorted(state.hands[opponent.index], key=lambda c: c.index)[:2]:  # out of turn
            with pytest.raises(IllegalMoveError):
                apply(state, Play(opponent, card))

    # The invariants run after every rule; ``advance`` also runs them after every move.
    def check_all(self):
        self.all_cards_accounted_for()
        self.scores_never_decrease()
        self.hearts_broken_as_break_2_says()
        self.legal_move_until_match_ends()
        self.tricks_bounded()

    @invariant()
    def all_cards_accounted_for(self):
        s = self.state
        if s.hand_number == 0:
            return
        places = [*s.hands[0], *s.hands[1], *(p.card for p in s.trick), *s.taken[0], *s.taken[1], *s.dead]
        assert sorted(places, key=lambda c: c.index) == list(DECK)

    @invariant()
    def scores_never_decrease(self):
        s = self.state
        assert s.scores[0] >= self.last_scores[0] and s.scores[1] >= self.last_scores[1]
        assert s.scores == tuple(sum(h[i] for h in s.hand_scores) for i in (0, 1))
        if s.hand_scores and s.phase is not Phase.PLAY:  # the hand just scored: its dead cards are shown
            hand = s.hand_scores[-1]
            in_play = POINT_CARDS.difference(s.dead)
            points = sum(13 if c.suit is Suit.SPADES else 1 for c in in_play)
            moon = 20 if s.config.moon_score is MoonScore.TWENTY else points
            assert sum(hand) == points or sorted(hand) == [0, moon]
        self.last_scores = s.scores

    @invariant()
    def hearts_broken_as_break_2_says(self):
        s = self.state
        if s.phase is not Phase.PLAY:
            return
        expected = self.heart_played
        if s.config.break_on is BreakOn.VOID:
            expected = expected or self.failed_to_follow
        assert s.hearts_broken == expected

    @invariant()
    def legal_move_until_match_ends(self):
        s = self.state
        if s.phase is Phase.PLAY:
            assert legal_moves(s) and not s.is_chance and s.outcome is None
        elif s.phase is Phase.OVER:
            assert legal_moves(s) == () and s.outcome is not None and s.to_move is None
        else:
            assert s.is_chance and legal_moves(s) == ()

    @invariant()
    def tricks_bounded(self):
        assert 0 <= self.state.tricks_played <= 13
        assert len(self.state.trick) <= 1


@pytest.mark.rules(*RULES)
def test_hearts_machine():
    quick = settings(max_examples=min(settings.default.max_examples, 8), stateful_step_count=40, deadline=None)
    run_state_machine_as_test(HeartsMachine, settings=quick)


@pytest.mark.slow
@pytest.mark.rules(*RULES)
def test_hearts_machine_thorough():
    """Bounded by the loaded Hypothesis profile (``ci``: 150 examples, ``thorough``: 5000)."""
    thorough = settings(max_examples=settings.default.max_examples, stateful_step_count=100, deadline=None)
    run_state_machine_as_test(HeartsMachine, settings=thorough)
