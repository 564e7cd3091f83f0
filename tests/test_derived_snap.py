"""The terms derived from the Snap model (``proofs/snap/derived.py``) against the model itself, on
random call-window positions of 2 to 12 players under every modelled variant."""

from __future__ import annotations

from typing import Any

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from cardcanon.model import snap as model
from cardcanon.model.cards import FULL_DECK, Card
from cardcanon.model.seats import Seat
from cardcanon.model.snap import CallKind, NextTurn, Phase, SnapConfig, SnapState
from cardcanon.proofs.snap import derived
from cardcanon.proofs.snap import encoding as enc
from cardcanon.proofs.symbolic import Unsupported, patched

NO_RANK = -1  # the rank of the top of an empty pile (no card has it)


@st.composite
def positions(draw: Any) -> SnapState:
    """A call window: cards of a few ranks (so that piles match) spread over the piles."""
    n = draw(st.integers(2, 12))
    config = SnapConfig(players=n, index_card=draw(st.booleans()), next_turn=draw(st.sampled_from(list(NextTurn))))
    ranks = draw(st.integers(1, 4))
    deck = [c for c in FULL_DECK if int(c.rank) < 2 + ranks]
    cards = draw(st.lists(st.sampled_from(deck), min_size=1, max_size=3 * n, unique=True))
    zones: list[list[Card]] = [[] for _ in range(2 * n + 1)]
    for card in cards:
        zones[draw(st.integers(0, 2 * n))].append(card)
    flipper = draw(st.integers(0, n - 1))
    if not zones[n + flipper]:
        zones[n + flipper].append(next(c for c in FULL_DECK if c not in cards))
    down, up = tuple(map(tuple, zones[:n])), tuple(map(tuple, zones[n:2 * n]))
    return SnapState(config, Phase.CALL, Seat(0), down, up, tuple(zones[2 * n]), Seat(flipper), 1)


def _template(state: SnapState, winner: int | None = None) -> derived.Template:
    def rank(pile: tuple[Card, ...]) -> z3.ArithRef:
        return z3.IntVal(int(pile[0].rank) if pile else NO_RANK)

    return derived.Template([z3.BoolVal(bool(p)) for p in state.down], [z3.BoolVal(bool(p)) for p in state.up],
                            z3.BoolVal(bool(state.pot)), [rank(p) for p in state.up], rank(state.pot),
                            None if winner is None else z3.IntVal(winner))


def _value(term: z3.ExprRef) -> Any:
    got = z3.simplify(term)
    return z3.is_true(got) if z3.is_bool(got) else got.as_long()


@settings(max_examples=40, deadline=None)
@given(positions())
def test_matched_pot_and_correct_calls_are_the_models(state: SnapState) -> None:
    config, f, tpl = state.config, state.player.index, _template(state)
    matched = [_value(tpl.put(derived.matched(config, f, s))) for s in range(config.players)]
    assert matched == [Seat(s) in model.matched_seats(state) for s in range(config.players)]
    pot = _value(tpl.put(derived.pot_matches(config, f)))
    assert pot == model.pot_matches(state)
    given_terms = [(derived.MATCHED, z3.BoolVal(any(matched))), (derived.POT_MATCHED, z3.BoolVal(pot))]
    correct = {k for k, term in derived.correct(config).items() if _value(z3.substitute(term, *given_terms))}
    assert correct == set(model.correct_kinds(state))


@settings(max_examples=40, deadline=None)
@given(positions(), st.data())
def test_callers_recipient_and_next_player_are_the_models(state: SnapState, data: Any) -> None:
    config, f, tpl = state.config, state.player.index, _template(state)
    n = config.players
    assert [_value(tpl.put(derived.may_call(config, s))) for s in range(n)] == [
        model.caller_problem(state, Seat(s)) is None for s in range(n)]
    if any(state.holds(Seat(s)) for s in range(n) if s != f):  # penalty_recipient's precondition
        assert [_value(tpl.put(derived.recipient(config, f, o))) for o in range(n)] == [
            model.penalty_recipient(state, Seat(o)).index for o in range(n)]
    winner = data.draw(st.integers(0, n - 1))
    for won in (False, True):
        term = _template(state, winner).put(derived.next_player(config, f, won))
        expected = model.next_player(state, state.down, state.up, Seat(f), Seat(winner) if won else None)
        assert _value(term) == expected.index


@settings(max_examples=20, deadline=None)
@given(positions())
def test_the_encodings_terms_on_a_concrete_position_are_the_models(state: SnapState) -> None:
    sym = enc.concrete_state(state)
    assert [z3.is_true(z3.simplify(m)) for m in enc.matched(sym, config=state.config)] == [
        Seat(s) in model.matched_seats(state) for s in range(state.config.players)]
    for kind in state.config.kinds:
        assert z3.is_true(z3.simplify(enc.correct(sym, kind, config=state.config))) == (kind in model.correct_kinds(state))


def test_a_read_the_stand_ins_cannot_follow_fails_the_derivation() -> None:
    def by_colour(state: SnapState) -> tuple[Seat, ...]:  # reads the suit of a face-up top
        card = model.flipped_card(state)
        assert card is not None
        return tuple(Seat(s) for s in range(state.config.players) if state.up[s] and state.up[s][0].suit == card.suit)

    with patched(model, matched_seats=by_colour), pytest.raises(Unsupported):
        derived.matched(SnapConfig(players=3), 0, 1)


def test_a_broken_rule_is_derived_as_broken() -> None:
    """The derivation reads the model as it stands: a wrong penalty recipient gives another term."""
    config = SnapConfig(players=4)
    right = derived.recipient(config, 0, 0)
    with patched(model, penalty_recipient=lambda state, offender: offender.left(state.config.players)):
        left = derived.recipient(config, 0, 0)
    assert _value(left) == 1 and not z3.eq(z3.simplify(right), z3.simplify(left))
    assert CallKind.SNAP in derived.correct(config)


def test_a_term_is_kept_across_the_variants_whose_options_it_does_not_read() -> None:
    """A variant changing no option a derivation read reads the same term; one that changes it not."""
    clockwise, winner = (SnapConfig(players=5, next_turn=turn) for turn in (NextTurn.CLOCKWISE, NextTurn.WINNER))
    assert derived.matched(clockwise, 1, 2) is derived.matched(SnapConfig(players=5, index_card=True), 1, 2)
    assert derived.next_player(clockwise, 1, False) is derived.next_player(winner, 1, False)
    assert not z3.eq(z3.simplify(derived.next_player(clockwise, 1, True)),
                     z3.simplify(derived.next_player(winner, 1, True)))


def test_a_model_that_reads_another_option_is_derived_per_that_option() -> None:
    """A changed model whose derivation reads an option the kept key lacks is derived for each value."""
    def by_turn(state: SnapState, offender: Seat) -> Seat:
        return Seat(0) if state.config.next_turn is NextTurn.WINNER else Seat(1)

    clockwise, winner = (SnapConfig(players=6, next_turn=turn) for turn in (NextTurn.CLOCKWISE, NextTurn.WINNER))
    derived.recipient(clockwise, 2, 3)  # the reference model reads no option here
    with patched(model, penalty_recipient=by_turn):
        assert (_value(derived.recipient(clockwise, 2, 3)), _value(derived.recipient(winner, 2, 3))) == (1, 0)
