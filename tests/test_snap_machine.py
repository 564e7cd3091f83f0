"""Whole Snap games driven by Hypothesis: every call event, including wrong calls and ties."""

from collections import Counter

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine, initialize, invariant, precondition, rule, run_state_machine_as_test,
)

from cardcanon.model.cards import FULL_DECK
from cardcanon.model.errors import IllegalMoveError
from cardcanon.model.seats import Seat
from cardcanon.model.snap import (
    Call, CallKind, Deal, Flip, NextTurn, NoCall, Phase, SnapConfig, Termination, Tie, apply, correct_kinds,
    legal_moves, new_game, total_cards,
)

FEW_RANKS = [c for c in FULL_DECK if c.rank <= 4]  # many matches: games move and end
decks = st.one_of(
    st.lists(st.sampled_from(FEW_RANKS), unique=True, min_size=2, max_size=12).map(tuple),
    st.lists(st.sampled_from(FULL_DECK), unique=True, min_size=2, max_size=20).map(tuple),
    st.just(FULL_DECK),
)


class SnapGames(RuleBasedStateMachine):
    @initialize(players=st.integers(2, 12), index_card=st.booleans(), next_turn=st.sampled_from(NextTurn),
                deck=decks, data=st.data())
    def deal(self, players, index_card, next_turn, deck, data):
        self.config = SnapConfig(players=players, index_card=index_card, next_turn=next_turn, deck=deck)
        self._deal(data)

    def _deal(self, data):
        dealer = Seat(data.draw(st.integers(0, self.config.players - 1)))
        order = tuple(data.draw(st.permutations(self.config.deck)))
        self.state = apply(new_game(self.config), Deal(dealer, order))
        self.out = {s for s in range(self.config.players) if not self.state.holds(Seat(s))}

    def _play(self, move):
        before = self.state
        assert move in legal_moves(before)
        actors = {move.player} if isinstance(move, Flip) else {move.caller} if isinstance(move, Call) else (
            set(move.callers) if isinstance(move, Tie) else set())
        assert not {a.index for a in actors} & self.out  # out players never move
        self.state = apply(before, move)
        now_out = {s for s in range(self.config.players) if not self.state.holds(Seat(s))}
        assert self.out <= now_out  # out players stay out
        self.out = now_out
        if self.state.phase is Phase.OVER:
            event(f"game over: {self.state.outcome.termination.value}")
        if isinstance(move, Tie):
            event("tie")

    @precondition(lambda self: self.state.phase is Phase.FLIP)
    @rule()
    def flip(self):
        self._play(Flip(self.state.turn))

    @precondition(lambda self: self.state.phase is Phase.CALL)
    @rule(data=st.data())
    def call_event(self, data):
        self._play(data.draw(st.sampled_from(legal_moves(self.state))))

    @precondition(lambda self: self.state.phase is Phase.CALL)
    @rule(data=st.data())
    def correct_call_often(self, data):
        """Bias towards matches being taken, so piles move and games end."""
        wins = [m for m in legal_moves(self.state) if isinstance(m, (Call, Tie)) and self._is_win(m)]
        self._play(data.draw(st.sampled_from(wins)) if wins else NoCall())

    def _is_win(self, move):
        return move.kind in correct_kinds(self.state)

    @precondition(lambda self: self.state.phase is not Phase.OVER)
    @rule(seat=st.integers(0, 11), kind=st.sampled_from(CallKind))
    def illegal_moves_are_refused(self, seat, kind):
        seat = Seat(seat % self.config.players)
        state = self.state
        if kind not in self.config.kinds:
            move, rules = Call(seat, kind), {"SNAP-INDEX-1", "SNAP-CALL-3"}
        elif state.phase is Phase.FLIP and seat != state.turn:
            move, rules = Flip(seat), {"SNAP-TURN-1" if state.flips == 0 else "SNAP-TURN-2"}
        elif seat.index in self.out and state.phase is Phase.CALL:
            move, rules = Call(seat, kind), {"SNAP-CALL-2"}
        else:
            move, rules = (Call(seat, kind) if state.phase is Phase.FLIP else Flip(seat)), {"SNAP-CALL-3"}
        with pytest.raises(IllegalMoveError) as info:
            apply(state, move)
        assert info.value.rule_id in rules
        assert self.state == state  # apply is pure

    @precondition(lambda self: self.state.phase is Phase.OVER)
    @rule(data=st.data())
    def new_deal(self, data):
        with pytest.raises(IllegalMoveError):
            apply(self.state, NoCall())
        self._deal(data)

    @invariant()
    def every_card_once(self):
        assert total_cards(self.state) == Counter(self.config.deck)

    @invariant()
    def pot_only_from_ties(self):
        if self.config.index_card:
            assert self.state.pot == ()

    @invariant()
    def over_exactly_when_at_most_one_holds(self):
        holders = self.state.in_game
        assert (self.state.phase is Phase.OVER) == (len(holders) <= 1)
        if self.state.phase is Phase.OVER:
            outcome = self.state.outcome
            if not holders:
                assert outcome.termination is Termination.NO_CARDS and outcome.winner is None
            else:
                assert outcome.winner == holders[0]
                pot_left = outcome.termination in (Termination.STUCK_POT, Termination.WINNABLE_POT)
                assert pot_left == bool(self.state.pot)
        else:
            assert self.state.holds(self.state.turn)  # the player to flip (or who flipped) holds cards


MACHINE_RULES = ("SNAP-DECK-1", "SNAP-DEAL-2", "SNAP-TURN-2", "SNAP-CALL-2", "SNAP-CALL-3", "SNAP-TIE-1",
                 "SNAP-TIE-2", "SNAP-INDEX-1", "SNAP-PEN-1", "SNAP-PEN-3", "SNAP-OUT-1", "SNAP-END-1",
                 "SNAP-END-2", "SNAP-END-3")


@pytest.mark.rules(*MACHINE_RULES)
def test_snap_games():
    run_state_machine_as_test(SnapGames, settings=settings(max_examples=10, stateful_step_count=120, deadline=None))


@pytest.mark.slow
@pytest.mark.rules(*MACHINE_RULES)
def test_snap_games_thorough():
    """Longer runs; ``max_examples`` comes from the Hypothesis profile (``ci``, ``thorough``)."""
    run_state_machine_as_test(SnapGames, settings=settings(
        stateful_step_count=300, deadline=None,
        suppress_health_check=[HealthCheck.large_base_example, HealthCheck.too_slow]))
