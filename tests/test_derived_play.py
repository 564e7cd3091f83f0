"""The terms of the Hearts play rules derived from the model (``proofs/hearts/play_terms.py``) against the
concrete model: legality (``play_problem``), the trick winner and the first lead, on random positions,
under each variant; a probe or a dropped rule changes them only while deriving; a model the symbolic
values cannot follow is refused, never assumed."""

from __future__ import annotations

import pytest
import z3
from hypothesis import given, settings, strategies as st

from cardcanon.model import hearts as model
from cardcanon.model.cards import Card, Suit
from cardcanon.model.hearts_types import DECK, HAND_SIZE
from cardcanon.proofs.hearts import play_terms
from cardcanon.proofs.hearts.play_terms import INDEX, NOT_FORCED, LegalCards, first_lead, legality, trick_winner
from cardcanon.proofs.records import hearts_position
from cardcanon.proofs.symbolic import Unsupported
from cardcanon.proofs.z3_eval import compile_terms

CONFIGS = [model.HeartsConfig(),
           model.HeartsConfig(first_lead=model.FirstLead.FREE, break_on=model.BreakOn.VOID,
                              first_trick_points=model.FirstTrickPoints.NO_HEARTS,
                              moon_score=model.MoonScore.POINTS_IN_PLAY),
           model.HeartsConfig(queen_breaks=model.QueenBreaks.YES),
           model.HeartsConfig(first_trick_points=model.FirstTrickPoints.NO_HEARTS)]
configs = st.sampled_from(CONFIGS)


@st.composite
def positions(draw):
    """Seat 0 to move: a hand of some suits, two dead cards, a lead or none, tricks played, hearts broken."""
    order = draw(st.permutations(DECK))
    dead, rest = order[:2], order[2:]
    lead = draw(st.sampled_from([None, rest[0]]))
    pool = rest[1:] if lead else rest
    suits = draw(st.sets(st.sampled_from(list(Suit)), min_size=1))
    hand = [c for c in pool if c.suit in suits][:draw(st.integers(min_value=1, max_value=HAND_SIZE))]
    tricks = HAND_SIZE - len(hand)
    return hand, dead, lead, tricks, tricks > 0 and draw(st.booleans())


def legal_cards(config, hand, dead, lead, tricks, broken, probe=None):
    state = hearts_position(config, hand=hand, dead=dead, lead=lead, tricks_played=tricks, hearts_broken=broken)
    return LegalCards(legality(config, probe)).at(state), frozenset(m.card for m in model.legal_moves(state))


@pytest.mark.rules("HEARTS-LEAD-1", "HEARTS-LEAD-3", "HEARTS-FOLLOW-1", "HEARTS-BREAK-1", "HEARTS-FIRST-1")
@settings(deadline=None)
@given(config=configs, position=positions())
def test_derived_legality_is_the_models(config, position):
    derived, concrete = legal_cards(config, *position)
    assert derived == concrete


@pytest.mark.rules("HEARTS-TRICK-1", "HEARTS-TRUMP-1", "HEARTS-RANK-1")
@given(lead=st.sampled_from(DECK), follow=st.sampled_from(DECK))
def test_derived_trick_winner_is_the_models(lead, follow):
    if lead != follow:
        assert z3.is_true(trick_winner().follower(INDEX[lead], INDEX[follow])) == (model.trick_winner(lead, follow) == 1)


@st.composite
def deals(draw):
    order = draw(st.permutations(DECK))
    return (frozenset(order[1:1 + HAND_SIZE]), frozenset(order[1 + HAND_SIZE:-1])), (order[0], order[-1])


@pytest.mark.rules("HEARTS-LEAD-1", "HEARTS-LEAD-2", "HEARTS-LEAD-3")
@given(config=configs, deal=deals())
def test_derived_first_lead_is_the_models(config, deal):
    hands, dead = deal
    terms = first_lead(config)
    env = ({f"dead{i}": c in dead for i, c in enumerate(DECK)} | {f"held{i}": c in hands[0] for i, c in enumerate(DECK)}
           | {f"other{i}": c in hands[1] for i, c in enumerate(DECK)})
    club, forced, leader = compile_terms([terms.club, terms.forced, terms.leader])(env)
    seat, card = model.first_leader(hands, dead, config)
    assert (club, forced, leader) == (INDEX[model.first_lead_club(dead)], NOT_FORCED if card is None else INDEX[card],
                                      seat.index)


ONLY_HEARTS = ([c for c in DECK if c.suit is Suit.HEARTS], [Card.parse("2C"), Card.parse("AS")], None, 6, False)


def test_a_probe_breaks_the_rule_only_while_deriving():
    derived, concrete = legal_cards(model.HeartsConfig(), *ONLY_HEARTS, probe="no-heart-lead-exception")
    assert derived == frozenset() and concrete == frozenset(ONLY_HEARTS[0])
    assert legal_cards(model.HeartsConfig(), *ONLY_HEARTS)[0] == concrete  # the model itself is untouched


def test_a_dropped_rule_leaves_its_decision_open():
    hand = [Card.parse("2H"), Card.parse("4C")]
    derived, concrete = legal_cards(model.HeartsConfig(), hand, [Card.parse("2C"), Card.parse("AS")], None, 11, False,
                                    probe="drop:HEARTS-BREAK-1")
    assert derived is None and concrete == {Card.parse("4C")}


def test_a_changed_model_is_derived_as_changed(monkeypatch):
    """The terms read the model each time it changes: a rule looking at one card anywhere in the hand is seen."""
    original = model.follow_problem

    def follow_problem(state, hand, card):  # the 10 of spades may never be discarded by a holder of the 2 of hearts
        if state.trick and Card.parse("2H") in hand and card == Card.parse("TS"):
            return "HEARTS-FOLLOW-1", "no"
        return original(state, hand, card)

    monkeypatch.setattr(model, "follow_problem", follow_problem)
    hand = [Card.parse("2H"), Card.parse("TS")]
    derived, concrete = legal_cards(model.HeartsConfig(), hand, [Card.parse("2C"), Card.parse("AS")], Card.parse("4D"),
                                    11, False)
    assert derived == concrete == {Card.parse("2H")}


def test_a_model_reading_the_hand_otherwise_is_refused(monkeypatch):
    original = model.follow_problem

    def follow_problem(state, hand, card):  # reads the size of the hand: the symbolic run cannot follow
        return original(state, hand, card) if len(hand) < 14 else None

    monkeypatch.setattr(model, "follow_problem", follow_problem)
    with pytest.raises(Unsupported, match="size of a symbolic set"):
        legality(model.HeartsConfig())


def test_every_probe_and_drop_is_a_patch_of_the_model():
    """No probe is a switch of an encoding: each names model functions, every one of them the model's."""
    for replacements in [*play_terms.PROBES.values(), *play_terms.DROPS.values()]:
        assert replacements and all(callable(getattr(model, name)) for name in replacements)
