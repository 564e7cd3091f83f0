"""One test per normative Hearts rule (``spec/hearts.toml``), named after its ID."""

from __future__ import annotations

import itertools

import pytest

import cardcanon.spec as spec
from cardcanon.model.cards import Card, Rank, Suit
from cardcanon.model.errors import IllegalMoveError
from cardcanon.model.hearts import (
    DECK, POINT_CARDS, BreakOn, ChooseDealer, Deal, FirstLead, FirstTrickPoints, HeartsConfig, HeartsState,
    MoonScore, Phase, Play, QueenBreaks, Termination, apply, deal_hands, first_leader, legal_moves, match_result,
    new_game, score_hand, trick_winner,
)
from cardcanon.model.hearts_players import RandomPlayer, play_match
from cardcanon.model.seats import Seat

P0, P1 = Seat(0), Seat(1)


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def c(text: str) -> Card:
    return Card.parse(text)


def order_for(dealer: Seat, dealer_hand: str, other_hand: str, dead: str) -> tuple[Card, ...]:
    """The deck order that deals these hands (HEARTS-DEAL-2: top card dead, the other player first)."""
    top, last = cards(dead)
    order = [top]
    for theirs, mine in zip(cards(other_hand), cards(dealer_hand)):
        order += [theirs, mine]
    return tuple(order + [last])


def dealt(config=HeartsConfig(), dealer=P1, p0="", p1="", dead="") -> HeartsState:
    """A state just after the deal, P0 and P1 holding the given 13 cards each."""
    hands = {0: p0, 1: p1}
    order = order_for(dealer, hands[dealer.index], hands[1 - dealer.index], dead)
    return apply(apply(new_game(config), ChooseDealer(dealer)), Deal(order))


def position(p0: str, p1: str, *, to_move=P0, trick=(), tricks_played=5, broken=False, config=HeartsConfig(),
             dead="Td Ts", taken1="", scores=(0, 0)) -> HeartsState:
    """A mid-hand position. P1's tricks hold ``taken1``; P0's every other card not in play."""
    in_trick = {play.card for play in trick}  # played: no longer in the leader's hand
    hands = (frozenset(cards(p0)) - in_trick, frozenset(cards(p1)) - in_trick)
    dead_cards = tuple(cards(dead))
    won1 = frozenset(cards(taken1))
    won0 = frozenset(DECK) - hands[0] - hands[1] - set(dead_cards) - in_trick - won1
    leader = trick[0].player if trick else to_move
    return HeartsState(config=config, phase=Phase.PLAY, scores=scores, hand_number=1, dealer=P1, hands=hands,
                       dead=dead_cards, trick=tuple(trick), leader=leader, to_move=to_move, hearts_broken=broken,
                       taken=(won0, won1), tricks_played=tricks_played)


def legal_cards(state) -> set[str]:
    return {str(m.card) for m in legal_moves(state)}


def rule_of(state, move) -> str:
    with pytest.raises(IllegalMoveError) as info:
        apply(state, move)
    return info.value.rule_id


# A standard deal used by several tests: P1 deals, P0 holds the 2 of clubs.
HAND_P0 = "2c 4c 6c 2d 4d 6d 2h 4h 6h 2s 4s 6s Qs"
HAND_P1 = "8c Tc Qc Ac 8d Td Qd Ad 8h Th Qh Ah As"
DEAD = "8s Ts"


def test_every_normative_rule_has_a_test():
    names = {name for name in globals() if name.startswith("test_HEARTS_")}
    for rule in spec.load("hearts").rules:
        prefix = "test_" + rule.id.replace("-", "_") + "_"
        has_test = any(name.startswith(prefix) for name in names)
        assert has_test == rule.normative, rule.id


@pytest.mark.rules("HEARTS-GOAL-1")
def test_HEARTS_GOAL_1_lower_score_wins_the_match():
    final, _ = play_match(11, (RandomPlayer(1), RandomPlayer(2)))
    low = min((0, 1), key=lambda s: final.scores[s])
    assert final.outcome.winner == Seat(low) and final.scores[0] != final.scores[1]


@pytest.mark.rules("HEARTS-PLAYERS-1")
def test_HEARTS_PLAYERS_1_only_seats_0_and_1():
    with pytest.raises(IllegalMoveError) as info:
        apply(new_game(), ChooseDealer(Seat(2)))
    assert info.value.rule_id == "HEARTS-PLAYERS-1"
    state = dealt(p0=HAND_P0, p1=HAND_P1, dead=DEAD)
    assert {m.player for m in legal_moves(state)} == {P0}


@pytest.mark.rules("HEARTS-DECK-1")
def test_HEARTS_DECK_1_the_28_cards():
    assert len(DECK) == 28 and len(set(DECK)) == 28
    assert {card.rank for card in DECK} == {Rank.TWO, Rank.FOUR, Rank.SIX, Rank.EIGHT, Rank.TEN, Rank.QUEEN, Rank.ACE}
    assert list(DECK) == sorted(DECK, key=lambda card: card.index)
    state = apply(new_game(), ChooseDealer(P0))
    bad_orders = [DECK[:27], DECK[:27] + (DECK[0],), DECK[:27] + (c("3c"),), DECK + (DECK[0],)]
    for order in bad_orders:
        assert rule_of(state, Deal(tuple(order))) == "HEARTS-DECK-1"
    playing = dealt(p0=HAND_P0, p1=HAND_P1, dead=DEAD)
    assert rule_of(playing, Play(P0, c("3c"))) == "HEARTS-DECK-1"


@pytest.mark.rules("HEARTS-RANK-1")
def test_HEARTS_RANK_1_two_lowest_ace_highest():
    ranks = "2 4 6 8 T Q A".split()
    for low, high in itertools.combinations(ranks, 2):
        assert trick_winner(c(low + "d"), c(high + "d")) == 1
        assert trick_winner(c(high + "d"), c(low + "d")) == 0


@pytest.mark.rules("HEARTS-TRUMP-1")
def test_HEARTS_TRUMP_1_a_heart_beats_every_other_suit():
    for lead in DECK:
        if lead.suit is not Suit.HEARTS:
            assert trick_winner(lead, c("2h")) == 1  # the lowest heart beats the ace led
    assert trick_winner(c("2h"), c("As")) == 0


@pytest.mark.rules("HEARTS-DEAL-1")
def test_HEARTS_DEAL_1_dealer_chosen_once_then_alternates():
    final, moves = play_match(5, (RandomPlayer(1), RandomPlayer(2)))
    assert isinstance(moves[0], ChooseDealer) and sum(isinstance(m, ChooseDealer) for m in moves) == 1
    state, dealers = new_game(), []
    for move in moves:
        state = apply(state, move)
        if isinstance(move, Deal):
            dealers.append(state.dealer.index)
    assert len(dealers) == final.hand_number > 1
    assert dealers == [(moves[0].dealer.index + k) % 2 for k in range(len(dealers))]
    assert rule_of(HeartsState(phase=Phase.DEAL, dealer=P0), ChooseDealer(P1)) == "HEARTS-DEAL-1"
    assert rule_of(new_game(), Deal(DECK)) == "HEARTS-DEAL-1"


@pytest.mark.rules("HEARTS-DEAL-2")
def test_HEARTS_DEAL_2_dead_cards_and_alternate_deal():
    order = DECK[5:] + DECK[:5]
    hands, dead = deal_hands(order, P1)
    assert dead == (order[0], order[27])
    assert hands[0] == frozenset(order[1:27:2]) and hands[1] == frozenset(order[2:27:2])  # P0 is dealt first
    hands_p0_deals, _ = deal_hands(order, P0)
    assert hands_p0_deals == (hands[1], hands[0])
    state = dealt(p0=HAND_P0, p1=HAND_P1, dead=DEAD)
    assert state.hands == (frozenset(cards(HAND_P0)), frozenset(cards(HAND_P1)))
    assert state.dead == tuple(cards(DEAD))
    assert rule_of(state, Play(P0, c("8c"))) == "HEARTS-DEAL-2"  # not his card
    assert rule_of(HeartsState(phase=Phase.DEAL, dealer=P0), Play(P0, c("2c"))) == "HEARTS-DEAL-2"


@pytest.mark.rules("HEARTS-PASS-1")
def test_HEARTS_PASS_1_play_starts_right_after_the_deal():
    state = dealt(p0=HAND_P0, p1=HAND_P1, dead=DEAD)
    assert state.phase is Phase.PLAY and not state.is_chance
    assert state.hands == (frozenset(cards(HAND_P0)), frozenset(cards(HAND_P1)))  # nothing passed
    assert legal_moves(state) == (Play(P0, c("2c")),)  # the first move is the first lead, not a pass
    after = apply(apply(state, Play(P0, c("2c"))), Play(P1, c("8c")))
    assert after.hands == (frozenset(cards(HAND_P0)) - {c("2c")}, frozenset(cards(HAND_P1)) - {c("8c")})


@pytest.mark.rules("HEARTS-LEAD-1")
def test_HEARTS_LEAD_1_two_of_clubs_leads():
    state = dealt(p0=HAND_P1, p1=HAND_P0, dead=DEAD)
    assert state.to_move == P1 and legal_cards(state) == {"2c"}
    assert rule_of(state, Play(P1, c("4c"))) == "HEARTS-LEAD-1"
    assert rule_of(state, Play(P0, c("8c"))) == "HEARTS-LEAD-1"  # the wrong player
    assert first_leader(state.hands, state.dead, HeartsConfig()) == (P1, c("2c"))


@pytest.mark.rules("HEARTS-LEAD-2")
def test_HEARTS_LEAD_2_four_or_six_of_clubs_when_two_is_dead():
    p1 = "4c 8c Qc Ac 8d Td Qd Ad 8h Th Qh Ah As"
    p0 = "6c Tc 2d 4d 6d 2h 4h 6h 2s 4s 6s Qs Ts"
    assert first_leader((frozenset(cards(p0)), frozenset(cards(p1))), tuple(cards("2c 8s")))[0] == P1
    state = dealt(p0=p0, p1=p1, dead="2c 8s")
    assert state.to_move == P1
    assert rule_of(state, Play(P0, c("6c"))) == "HEARTS-LEAD-2"
    # both 2 and 4 of clubs dead: the holder of the 6 leads
    p1b = "8c Tc Qc Ac 8d Td Qd Ad 8h Th Qh Ah As"
    p0b = "6c 8s 2d 4d 6d 2h 4h 6h 2s 4s 6s Qs Ts"
    assert dealt(p0=p0b, p1=p1b, dead="2c 4c").to_move == P0


@pytest.mark.rules("HEARTS-LEAD-3")
def test_HEARTS_LEAD_3_lead_the_club_that_made_the_leader():
    p1 = "4c 8c Qc Ac 8d Td Qd Ad 8h Th Qh Ah As"
    p0 = "6c Tc 2d 4d 6d 2h 4h 6h 2s 4s 6s Qs Ts"
    state = dealt(p0=p0, p1=p1, dead="2c 8s")
    assert legal_cards(state) == {"4c"}
    assert rule_of(state, Play(P1, c("8d"))) == "HEARTS-LEAD-3"
    free = dealt(HeartsConfig(first_lead=FirstLead.FREE), p0=p0, p1=p1, dead="2c 8s")
    assert legal_cards(free) == {"4c", "8c", "Qc", "Ac", "8d", "Td", "Qd", "Ad", "As"}  # no heart: HEARTS-BREAK-1
    assert first_leader(free.hands, free.dead, free.config) == (P1, None)
    # with ``free`` the 2 of clubs is still forced
    assert legal_cards(dealt(HeartsConfig(first_lead=FirstLead.FREE), p0=HAND_P0, p1=HAND_P1,
                             dead=DEAD)) == {"2c"}


@pytest.mark.rules("HEARTS-FOLLOW-1")
def test_HEARTS_FOLLOW_1_follow_suit_if_able():
    state = position("2d 4h Qs", "8d Ah 2s", to_move=P0, trick=[Play(P1, c("6s"))])
    assert legal_cards(state) == {"Qs"}
    assert rule_of(state, Play(P0, c("2d"))) == "HEARTS-FOLLOW-1"
    void = position("2d 4h Qc", "8d Ah 2s", to_move=P0, trick=[Play(P1, c("6s"))])
    assert legal_cards(void) == {"2d", "4h", "Qc"}


@pytest.mark.rules("HEARTS-TRICK-1")
def test_HEARTS_TRICK_1_higher_heart_else_higher_of_suit_led():
    assert trick_winner(c("4h"), c("2h")) == 0 and trick_winner(c("2h"), c("4h")) == 1
    assert trick_winner(c("4d"), c("Ac")) == 0  # off-suit, not a heart: the lead wins
    assert trick_winner(c("Ah"), c("2s")) == 0
    state = position("2d 4h", "8d Ah", to_move=P0, trick=[Play(P1, c("6d"))], tricks_played=11)
    after = apply(state, Play(P0, c("2d")))
    assert after.leader == P1 and {c("6d"), c("2d")} <= after.taken[1]


@pytest.mark.rules("HEARTS-TRICK-2")
def test_HEARTS_TRICK_2_winner_leads_next():
    state = position("Ad 4h", "8d Ah", to_move=P1, trick=[Play(P0, c("Ad"))], tricks_played=11, broken=True)
    after = apply(state, Play(P1, c("8d")))
    assert after.to_move == P0 == after.leader and after.trick == ()
    assert rule_of(after, Play(P1, c("Ah"))) == "HEARTS-TRICK-2"


@pytest.mark.rules("HEARTS-TRICK-4")
def test_HEARTS_TRICK_4_the_other_player_plays_second():
    state = position("Ad 4h", "8d Ah", to_move=P1, trick=[Play(P0, c("Ad"))], tricks_played=11, broken=True)
    assert rule_of(state, Play(P0, c("4h"))) == "HEARTS-TRICK-4"  # the leader may not play twice
    assert {c("Ad"), c("8d")} <= apply(state, Play(P1, c("8d"))).taken[0]


@pytest.mark.rules("HEARTS-TRICK-3")
def test_HEARTS_TRICK_3_hand_ends_after_thirteen_tricks():
    state = position("4h", "Ah", to_move=P0, tricks_played=12, broken=True)
    after = apply(state, Play(P0, c("4h")))
    after = apply(after, Play(P1, c("Ah")))
    assert after.tricks_played == 13 and after.phase is Phase.DEAL and after.hands == (frozenset(), frozenset())
    assert after.hand_scores and rule_of(position("4h", "Ah"), Deal(DECK)) == "HEARTS-TRICK-3"


@pytest.mark.rules("HEARTS-BREAK-1")
def test_HEARTS_BREAK_1_no_heart_lead_until_broken():
    state = position("2d 4h Qs", "8d Ah 2s", to_move=P0)
    assert legal_cards(state) == {"2d", "Qs"}
    assert rule_of(state, Play(P0, c("4h"))) == "HEARTS-BREAK-1"
    assert legal_cards(position("2d 4h Qs", "8d Ah 2s", broken=True)) == {"2d", "4h", "Qs"}
    assert legal_cards(position("2h 4h", "8d 2s")) == {"2h", "4h"}  # nothing but hearts


@pytest.mark.rules("HEARTS-BREAK-2")
def test_HEARTS_BREAK_2_broken_when_a_heart_is_played():
    discard_heart = position("2d 4h", "8d Ah", to_move=P1, trick=[Play(P0, c("2d"))])
    assert not apply(discard_heart, Play(P1, c("8d"))).hearts_broken
    void = position("2c 4h", "8d Ah", to_move=P1, trick=[Play(P0, c("2c"))])
    assert apply(void, Play(P1, c("Ah"))).hearts_broken
    assert not apply(void, Play(P1, c("8d"))).hearts_broken  # failing to follow alone does not break
    only_hearts = position("2h 4h", "8d As")
    assert apply(only_hearts, Play(P0, c("2h"))).hearts_broken
    literal = position("2c 4h", "8d Ah", to_move=P1, trick=[Play(P0, c("2c"))],
                       config=HeartsConfig(break_on=BreakOn.VOID))
    assert apply(literal, Play(P1, c("8d"))).hearts_broken


@pytest.mark.rules("HEARTS-BREAK-3")
def test_HEARTS_BREAK_3_every_hand_starts_unbroken():
    state = position("4h", "Ah", broken=True, tricks_played=12, dead="2c Qs", taken1="Th Qh")
    ended = apply(apply(state, Play(P0, c("4h"))), Play(P1, c("Ah")))
    assert ended.phase is Phase.DEAL
    next_hand = apply(ended, Deal(order_for(ended.dealer, HAND_P0, HAND_P1, DEAD)))
    assert next_hand.phase is Phase.PLAY and not next_hand.hearts_broken


@pytest.mark.rules("HEARTS-FIRST-1")
def test_HEARTS_FIRST_1_points_allowed_on_first_trick_by_default():
    state = position("2c 4h Qs", "8d Ah 2s", to_move=P1, trick=[Play(P0, c("2c"))], tricks_played=0)
    assert legal_cards(state) == {"8d", "Ah", "2s"}
    strict = HeartsConfig(first_trick_points=FirstTrickPoints.NO_HEARTS)
    state = position("2c 4h Qs", "8d Ah 2s", to_move=P1, trick=[Play(P0, c("2c"))],
                     tricks_played=0, config=strict)
    assert legal_cards(state) == {"8d", "2s"}
    assert rule_of(state, Play(P1, c("Ah"))) == "HEARTS-FIRST-1"
    only_hearts = position("2c 4d", "Ah 8h", to_move=P1, trick=[Play(P0, c("2c"))], tricks_played=0, config=strict)
    assert legal_cards(only_hearts) == {"Ah", "8h"}
    later = position("2c 4d", "Ah 8d", to_move=P1, trick=[Play(P0, c("2c"))], tricks_played=1, config=strict)
    assert legal_cards(later) == {"Ah", "8d"}


@pytest.mark.rules("HEARTS-QUEEN-1")
def test_HEARTS_QUEEN_1_queen_of_spades_is_13_points():
    dead = tuple(cards("2d 4d"))
    assert score_hand((frozenset(cards("Qs 2c")), frozenset(DECK) - set(cards("Qs 2c Ah")) - set(dead)), dead) == (13, 6)
    assert c("Qs") in POINT_CARDS and len(POINT_CARDS) == 8


@pytest.mark.rules("HEARTS-QUEEN-2", "HEARTS-BREAK-2")
def test_HEARTS_QUEEN_2_queen_has_no_timing_rule_but_follows_suit():
    strict = HeartsConfig(first_trick_points=FirstTrickPoints.NO_HEARTS)
    first = position("2c 4h", "Qs Ah", to_move=P1, trick=[Play(P0, c("2c"))], tricks_played=0, config=strict)
    assert legal_cards(first) == {"Qs"}  # discarded to the first trick
    assert "Qs" in legal_cards(position("Qs 4h", "8d Ah"))  # led before hearts are broken
    must_follow = position("2d 4h", "Qs 8d", to_move=P1, trick=[Play(P0, c("2d"))])
    assert rule_of(must_follow, Play(P1, c("Qs"))) == "HEARTS-FOLLOW-1"
    # queen_breaks: by default discarding her leaves hearts unbroken; with "yes" it breaks them
    for option, broken in ((QueenBreaks.NO, False), (QueenBreaks.YES, True)):
        void = position("2c 4h 6d", "Qs 8h 8d", to_move=P1, trick=[Play(P0, c("2c"))],
                        config=HeartsConfig(queen_breaks=option))
        after = apply(void, Play(P1, c("Qs")))
        assert after.hearts_broken is broken and after.to_move == P0
        assert ("4h" in legal_cards(after)) is broken  # P0 won the trick and leads: a heart only once broken


@pytest.mark.rules("HEARTS-SCORE-1")
def test_HEARTS_SCORE_1_one_per_heart_plus_queen():
    dead = tuple(cards("2c 4c"))
    taken0 = frozenset(cards("2h 4h 6h 2d"))
    taken1 = frozenset(DECK) - taken0 - set(dead)
    assert score_hand((taken0, taken1), dead) == (3, 4 + 13)


@pytest.mark.rules("HEARTS-MOON-1")
def test_HEARTS_MOON_1_all_points_score_zero_and_twenty():
    dead = tuple(cards("2c 4c"))
    taken0 = frozenset(POINT_CARDS)
    taken1 = frozenset(DECK) - taken0 - set(dead)
    assert score_hand((taken0, taken1), dead) == (0, 20)
    assert score_hand((taken1, taken0), dead) == (20, 0)
    assert score_hand((taken0 - {c("2h")}, taken1 | {c("2h")}), dead) == (19, 1)


@pytest.mark.rules("HEARTS-MOON-2")
def test_HEARTS_MOON_2_moon_with_dead_point_cards():
    dead = tuple(cards("Qs 2h"))
    live_points = POINT_CARDS - set(dead)
    taken1 = frozenset(live_points | set(cards("2c")))
    taken0 = frozenset(DECK) - taken1 - set(dead)
    assert score_hand((taken0, taken1), dead) == (20, 0)
    assert score_hand((taken0, taken1), dead, HeartsConfig(moon_score=MoonScore.POINTS_IN_PLAY)) == (6, 0)
    dead = tuple(cards("4h 2c"))
    taken1 = frozenset(POINT_CARDS - {c("4h")})
    taken0 = frozenset(DECK) - taken1 - set(dead)
    assert score_hand((taken0, taken1), dead, HeartsConfig(moon_score=MoonScore.POINTS_IN_PLAY)) == (19, 0)


@pytest.mark.rules("HEARTS-MATCH-1")
def test_HEARTS_MATCH_1_first_to_reach_100_loses():
    assert match_result((99, 60)) is None
    outcome = match_result((100, 60))
    assert outcome.winner == P1 and outcome.termination is Termination.ONE_REACHED_TARGET
    assert match_result((10, 104)).winner == P0
    assert match_result((10, 30), HeartsConfig(target=30)).winner == P0
    final, moves = play_match(2, (RandomPlayer(5), RandomPlayer(6)))
    assert final.phase is Phase.OVER and max(final.scores) >= 100
    before_last = [sum(hand[seat] for hand in final.hand_scores[:-1]) for seat in (0, 1)]
    assert max(before_last) < 100  # the match ended at the first hand that reached 100
    assert rule_of(final, moves[-1]) == "HEARTS-MATCH-1" and rule_of(final, Deal(DECK)) == "HEARTS-MATCH-1"


@pytest.mark.rules("HEARTS-MATCH-2")
def test_HEARTS_MATCH_2_both_over_lower_wins_and_ties_play_on():
    outcome = match_result((101, 120))
    assert outcome.winner == P0 and outcome.termination is Termination.BOTH_REACHED_LOWER_WINS
    assert match_result((110, 110)) is None
    broken = match_result((113, 130), previous=(110, 110))
    assert broken.winner == P0 and broken.termination is Termination.TIE_BROKEN
    # The last trick of a hand: P0 has taken 3 points, P1 2 and wins 2 more (3 + 4 in the hand).
    def last_trick(scores):
        state = position("4h", "Ah", broken=True, tricks_played=12, dead="2c Qs", taken1="Th Qh", scores=scores)
        return apply(apply(state, Play(P0, c("4h"))), Play(P1, c("Ah")))

    level = last_trick((97, 96))
    assert level.scores == (100, 100) and level.phase is Phase.DEAL and level.outcome is None
    lower = last_trick((98, 99))
    assert lower.outcome == match_result((101, 103)) and lower.outcome.winner == P0
    after_tie = last_trick((110, 110))
    assert after_tie.outcome.termination is Termination.TIE_BROKEN and after_tie.outcome.winner == P0


@pytest.mark.rules("HEARTS-MATCH-2")
def test_HEARTS_MATCH_2_tied_hands_play_on_without_a_cap():
    # The queen of spades and one heart dead, three hearts each: the scores stay equal.
    tied = (106, 106)
    for _ in range(50):
        assert match_result(tied, previous=tied) is None
    dead = tuple(cards("Qs 2h"))
    taken0 = frozenset(cards("4h 6h 8h 2c 4c"))
    taken1 = frozenset(DECK) - taken0 - set(dead)
    assert score_hand((taken0, taken1), dead) == (3, 3)
