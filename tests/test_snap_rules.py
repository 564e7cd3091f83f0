"""One test per normative Snap rule, named after its ID (spec/snap.toml)."""

from collections import Counter
from itertools import combinations

import pytest

from cardcanon.model.cards import FULL_DECK, Card, Rank, Suit
from cardcanon.model.errors import IllegalMoveError
from cardcanon.model.seats import Seat
from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.snap import (
    Call, CallKind, Deal, Flip, NextTurn, NoCall, Phase, SnapConfig, Termination, Tie, apply, chance_outcomes,
    correct_kinds, deal_piles, legal_moves, matched_seats, new_game, sample_deal, total_cards,
)
from cardcanon.model.snap_policies import play_game
from cardcanon.model.snap_text import cards_of, make_state

S0, S1, S2, S3 = Seat(0), Seat(1), Seat(2), Seat(3)
SNAP, POT, HAND = CallKind.SNAP, CallKind.SNAP_POT, CallKind.HAND


def call_state(down, up, pot="", turn=0, **kw):
    """A position in the call window of ``turn``'s flip (``up[turn]`` starts with the flipped card)."""
    return make_state(down, up, pot, turn, Phase.CALL, **kw)


def raises(rule, state, move):
    with pytest.raises(IllegalMoveError) as info:
        apply(state, move)
    assert info.value.rule_id == rule
    return info.value


@pytest.mark.rules("SNAP-PLAYERS-1")
def test_snap_players_1():
    for n in (0, 1, 13):
        with pytest.raises(ValueError, match="SNAP-PLAYERS-1"):
            SnapConfig(players=n)
    for n in (2, 12):
        state = apply(new_game(SnapConfig(players=n)), sample_deal(SnapConfig(players=n), SplitMix64(1)))
        assert len(state.in_game) == n


@pytest.mark.rules("SNAP-DECK-1")
def test_snap_deck_1():
    assert len(FULL_DECK) == 52 and len(set(FULL_DECK)) == 52
    assert Counter(c.suit for c in FULL_DECK) == {s: 13 for s in Suit}
    assert Counter(c.rank for c in FULL_DECK) == {r: 4 for r in Rank}
    start = new_game(SnapConfig())
    short = FULL_DECK[:-1]
    raises("SNAP-DECK-1", start, Deal(S0, short))
    raises("SNAP-DECK-1", start, Deal(S0, short + (FULL_DECK[0],)))
    with pytest.raises(ValueError, match="SNAP-DECK-1"):
        SnapConfig(deck=FULL_DECK[:2] * 2)


@pytest.mark.rules("SNAP-GOAL-1", "SNAP-END-1")
def test_snap_goal_1():
    result = play_game(SnapConfig(players=3), 0, "flipper-first")
    assert result.outcome.termination is Termination.ALL_CARDS
    winner = result.outcome.winner
    assert Counter(result.state.down[winner.index] + result.state.up[winner.index]) == Counter(FULL_DECK)


@pytest.mark.rules("SNAP-DEAL-1")
def test_snap_deal_1():
    config = SnapConfig(players=4)
    counts = Counter(sample_deal(config, SplitMix64(seed)).dealer for seed in range(2000))
    assert set(counts) == {S0, S1, S2, S3}
    assert all(400 <= c <= 600 for c in counts.values())  # 500 expected each
    rng = SplitMix64(7)
    expect_dealer = Seat(rng.below(4))
    assert sample_deal(config, SplitMix64(7)) == Deal(expect_dealer, rng.shuffled(FULL_DECK))
    raises("SNAP-DEAL-1", new_game(config), Deal(Seat(4), FULL_DECK))
    tiny = SnapConfig(players=2, deck=cards_of("2c 2d 3c"))
    deals = list(chance_outcomes(new_game(tiny)))  # every deal, each equally likely
    assert len(deals) == len(set(deals)) == 2 * 6 and {d.dealer for d in deals} == {S0, S1}
    assert legal_moves(new_game(config)) == ()  # a chance node: no player moves


@pytest.mark.rules("SNAP-DEAL-2")
def test_snap_deal_2():
    config = SnapConfig(players=5)
    piles = deal_piles(config, S2, FULL_DECK)
    assert [len(p) for p in piles] == [10, 10, 10, 11, 11]  # 52 = 5 * 10 + 2: seats 3 and 4 get one more
    assert FULL_DECK[0] in piles[3] and FULL_DECK[1] in piles[4] and FULL_DECK[2] in piles[0]
    assert Counter(c for p in piles for c in p) == Counter(FULL_DECK)
    raises("SNAP-DEAL-2", new_game(config), Flip(S3))
    dealt = apply(new_game(config), Deal(S2, FULL_DECK))
    raises("SNAP-DEAL-2", dealt, Deal(S2, FULL_DECK))


@pytest.mark.rules("SNAP-DEAL-3")
def test_snap_deal_3():
    state = apply(new_game(SnapConfig(players=2)), Deal(S1, FULL_DECK))
    # card i goes to seat (1 + 1 + i) % 2: the last card, 51, to seat 1, card 50 to seat 0
    assert state.down[1][0] == FULL_DECK[51] and state.down[0][0] == FULL_DECK[50]
    assert state.down[0][-1] == FULL_DECK[0]  # the first card dealt, to the dealer's left, is the bottom
    assert state.up == ((), ())


@pytest.mark.rules("SNAP-TURN-1")
def test_snap_turn_1():
    config = SnapConfig(players=4)
    state = apply(new_game(config), Deal(S3, FULL_DECK))
    assert state.phase is Phase.FLIP and state.turn == S0 and legal_moves(state) == (Flip(S0),)
    raises("SNAP-TURN-1", state, Flip(S1))
    state = apply(apply(state, Flip(S0)), NoCall())
    assert state.turn == S1


@pytest.mark.rules("SNAP-TURN-2")
def test_snap_turn_2():
    # P0 flipped 7h matching P1; P2 wins, yet the turn passes clockwise from P0 to P1
    state = call_state(["2c", "3c", "4c", ""], ["7h", "7s", "9d", ""], turn=0)
    after = apply(state, Call(S2, SNAP))
    assert after.turn == S1
    raises("SNAP-TURN-2", after, Flip(S2))
    # players who are out are skipped: P1 holds only 7s and loses it
    state = call_state(["2c", "", "4c", ""], ["7h", "7s", "9d", ""], turn=0)
    assert apply(state, Call(S0, SNAP)).turn == S2
    # the winner variant
    state = call_state(["2c", "3c", "4c", ""], ["7h", "7s", "9d", ""], turn=0, next_turn=NextTurn.WINNER)
    assert apply(state, Call(S2, SNAP)).turn == S2
    assert apply(state, NoCall()).turn == S1
    assert apply(state, Call(S1, POT)).turn == S1  # a wrong call: clockwise
    assert apply(state, Tie(frozenset({S1, S2}), SNAP)).turn == S1  # a tie: clockwise
    # a "Snap Pot!" win counts as a win for the winner variant
    pot = call_state(["2c", "3c", "4c", ""], ["7h", "8s", "9d", ""], pot="7d", turn=0, next_turn=NextTurn.WINNER)
    assert apply(pot, Call(S2, POT)).turn == S2


@pytest.mark.rules("SNAP-FLIP-1")
def test_snap_flip_1():
    state = make_state(["Qs 3h", "5d"], ["", "9c"], turn=0)
    after = apply(state, Flip(S0))
    assert after.down[0] == cards_of("3h") and after.up[0] == cards_of("Qs")
    assert after.phase is Phase.CALL and after.turn == S0 and after.flips == state.flips + 1
    after = apply(make_state(["Qs", "5d"], ["Kd", "9c"], turn=0), Flip(S0))
    assert after.up[0] == cards_of("Qs Kd")


@pytest.mark.rules("SNAP-FLIP-3")
def test_snap_flip_3():
    # face-up pile top first: 3h was flipped last, 9d first
    state = make_state(["", "5d"], ["3h 5c 9d", "Ac"], turn=0)
    after = apply(state, Flip(S0))
    assert after.up[0] == cards_of("9d") and after.down[0] == cards_of("5c 3h")


@pytest.mark.rules("SNAP-MATCH-1")
def test_snap_match_1():
    state = call_state(["2c", "3c", "4c"], ["7h", "7s", "8h"], turn=0)
    assert matched_seats(state) == (S1,)  # same rank matches, same suit does not
    assert correct_kinds(state) == {SNAP}


@pytest.mark.rules("SNAP-MATCH-2")
def test_snap_match_2():
    # 7s lies under P1's top card; P1 and P2 match each other but neither flipped
    state = call_state(["2c", "3c", "4c"], ["7h", "8s 7s", "8d"], turn=0)
    assert matched_seats(state) == () and correct_kinds(state) == frozenset()
    # a match that went uncalled lapses
    state = call_state(["2c", "3c", "4c 5c"], ["7h", "7s", "9d"], turn=0)
    state = apply(apply(state, NoCall()), Flip(S1))
    assert state.up[1][0] == Card.parse("3c") and correct_kinds(state) == frozenset()
    raises("SNAP-CALL-3", state, Tie(frozenset({S0, S1}), SNAP))


@pytest.mark.rules("SNAP-CALL-1")
def test_snap_call_1():
    state = call_state(["2c", "3c", "4c"], ["7h 2h", "7s 2s", "9d"], turn=0)
    after = apply(state, Call(S2, SNAP))
    assert after.up == ((), (), cards_of("9d"))
    assert after.down[2] == cards_of("4c 2h 7h 2s 7s")


@pytest.mark.rules("SNAP-CALL-2")
def test_snap_call_2():
    state = call_state(["2c", "3c", "4c", ""], ["7h", "7s", "9d", ""], turn=0)
    callers = {m.caller for m in legal_moves(state) if isinstance(m, Call)}
    assert callers == {S0, S1, S2}  # the flipper and the uninvolved P2 too; not P3, who is out
    raises("SNAP-CALL-2", state, Call(S3, SNAP))
    raises("SNAP-CALL-2", state, Tie(frozenset({S0, S3}), SNAP))
    assert apply(state, Call(S0, SNAP)).down[0] == cards_of("2c 7h 7s")


@pytest.mark.rules("SNAP-CALL-3")
def test_snap_call_3():
    state = call_state(["2c", "3c", "4c"], ["7h", "7s", "9d"], turn=0)
    moves = legal_moves(state)
    assert moves[0] == NoCall()
    assert {m for m in moves if isinstance(m, Call)} == {Call(s, k) for s in (S0, S1, S2) for k in (SNAP, POT)}
    assert {m for m in moves if isinstance(m, Tie)} == {Tie(frozenset(c), SNAP) for c in
                                                       ({S0, S1}, {S0, S2}, {S1, S2}, {S0, S1, S2})}
    for move in moves:
        assert apply(state, move).phase is Phase.FLIP  # every event closes the window
    raises("SNAP-CALL-3", state, Tie(frozenset({S0, S1}), POT))  # a tie on a wrong call
    raises("SNAP-CALL-3", state, Tie(frozenset({S0}), SNAP))
    raises("SNAP-CALL-3", state, Flip(S0))
    flip_state = apply(state, NoCall())
    raises("SNAP-CALL-3", flip_state, Call(S0, SNAP))
    raises("SNAP-CALL-3", flip_state, NoCall())
    # "Snap!" and "Snap Pot!" at the same instant: a tie of either kind, the same position
    both = call_state(["2c", "3c", "4c"], ["7h", "7s", "9d"], pot="7d Jd", turn=0)
    assert correct_kinds(both) == {SNAP, POT}
    assert apply(both, Tie(frozenset({S1, S2}), SNAP)) == apply(both, Tie(frozenset({S1, S2}), POT))


@pytest.mark.rules("SNAP-CALL-4")
def test_snap_call_4():
    state = call_state(["2c", "3c", "4c", "5c"], ["7h", "7s", "9d", "7c"], turn=0)
    assert matched_seats(state) == (S1, S3)
    won = apply(state, Call(S2, SNAP))
    assert won.up == ((), (), cards_of("9d"), ()) and len(won.down[2]) == 4
    tied = apply(state, Tie(frozenset({S1, S2}), SNAP))
    assert tied.up == ((), (), cards_of("9d"), ()) and Counter(tied.pot) == Counter(cards_of("7h 7s 7c"))


@pytest.mark.rules("SNAP-CALL-5")
def test_snap_call_5():
    # P2 flipped 7h; matches P3 and P1 (clockwise from P2: P3, P0, P1); pot matches too
    state = call_state(["2c", "3c", "4c", "5c"], ["Kc", "7s 8s", "7h 8h", "7c 8c"], pot="7d 8d", turn=2)
    after = apply(state, Call(S0, POT))
    assert after.down[0] == cards_of("2c  8h 7h  8c 7c  8s 7s  8d 7d")
    assert after.up[0] == cards_of("Kc") and after.pot == ()


@pytest.mark.rules("SNAP-TIE-1")
def test_snap_tie_1():
    state = call_state(["2c", "3c", "4c", "5c"], ["7h 8h", "7s", "9d", "7c"], turn=0)
    after = apply(state, Tie(frozenset({S0, S1, S2}), SNAP))
    assert after.pot[:2] == cards_of("7h 8h") and after.pot[0] == Card.parse("7h")
    assert Counter(after.pot) == Counter(cards_of("7h 8h 7s 7c"))
    assert Counter(total_cards(after)) == Counter(state.config.deck)
    # several matched piles: the flipper's on top, then the matched piles clockwise from him
    state = call_state(["2c", "3c", "4c", "5c"], ["7h 2h", "7s", "7d 3d", "7c 4h"], turn=2)
    assert matched_seats(state) == (S3, S0, S1)
    after = apply(state, Tie(frozenset({S0, S1}), SNAP))
    assert after.pot == cards_of("7d 3d 7c 4h 7h 2h 7s")


@pytest.mark.rules("SNAP-TIE-2")
def test_snap_tie_2():
    state = call_state(["2c", "3c", "4c"], ["7h", "7s", "9d"], pot="Qd Jd", turn=0)
    after = apply(state, Tie(frozenset({S1, S2}), SNAP))
    assert after.pot == cards_of("7h 7s Qd Jd")


@pytest.mark.rules("SNAP-POT-1")
def test_snap_pot_1():
    state = call_state(["2c", "3c", "4c"], ["7h", "9s", "9d"], pot="7d Jd", turn=0)
    assert correct_kinds(state) == {POT}
    after = apply(state, Call(S1, POT))
    assert after.pot == () and after.down[1] == cards_of("3c 7h Jd 7d") and after.up[1] == cards_of("9s")


@pytest.mark.rules("SNAP-POT-2")
def test_snap_pot_2():
    state = call_state(["2c", "3c", "4c"], ["7h", "7s", "9d"], pot="7d Jd", turn=0)
    after = apply(state, Tie(frozenset({S1, S2}), POT))
    assert after.pot == cards_of("7h 7s 7d Jd") and after.up == ((), (), cards_of("9d"))


@pytest.mark.rules("SNAP-POT-3")
def test_snap_pot_3():
    state = call_state(["2c", "3c", "4c"], ["7h", "7s", "9d"], pot="7d Jd", turn=0)
    assert correct_kinds(state) == {SNAP, POT}
    snap = apply(state, Call(S2, SNAP))
    assert snap.pot == cards_of("7d Jd") and snap.down[2] == cards_of("4c 7h 7s")
    pot = apply(state, Call(S2, POT))
    assert pot.pot == () and pot.down[2] == cards_of("4c 7h 7s Jd 7d")


@pytest.mark.rules("SNAP-INDEX-1")
def test_snap_index_1():
    state = call_state(["2c", "3c", "4c"], ["7h", "7s", "9d"], turn=0, index_card=True)
    moves = legal_moves(state)
    assert not any(isinstance(m, Tie) for m in moves)
    assert {m.kind for m in moves if isinstance(m, Call)} == {HAND}
    assert correct_kinds(state) == {HAND}
    raises("SNAP-INDEX-1", state, Tie(frozenset({S1, S2}), SNAP))
    raises("SNAP-INDEX-1", state, Tie(frozenset({S1, S2}), HAND))
    raises("SNAP-INDEX-1", state, Call(S1, SNAP))
    assert apply(state, Call(S2, HAND)).down[2] == cards_of("4c 7h 7s")
    nothing = call_state(["2c", "3c", "4c"], ["7h", "8s", "9d"], turn=0, index_card=True)
    assert correct_kinds(nothing) == frozenset()
    assert apply(nothing, Call(S2, HAND)).down == (cards_of("2c 4c"), cards_of("3c"), ())
    no_index = call_state(["2c", "3c"], ["7h", "7s"], turn=0)
    raises("SNAP-INDEX-1", no_index, Call(S1, HAND))


@pytest.mark.rules("SNAP-PEN-1")
def test_snap_pen_1():
    state = call_state(["2c", "3c 5c", "4c"], ["7h", "8s", "9d"], pot="Qd", turn=0)
    assert correct_kinds(state) == frozenset()
    for kind in (SNAP, POT):
        after = apply(state, Call(S1, kind))
        assert after.down[1] == cards_of("5c") and after.down[0] == cards_of("2c 3c")
    empty_pot = call_state(["2c", "3c 5c"], ["7h", "7s"], turn=0)
    assert apply(empty_pot, Call(S1, POT)).down == (cards_of("2c 3c"), cards_of("5c"))


@pytest.mark.rules("SNAP-PEN-2")
def test_snap_pen_2():
    # P2 flipped and calls wrongly; P1 on his right is out, so P0 receives the card
    state = call_state(["2c", "", "4c 5c", "6c"], ["7h", "", "9d", "Ts"], turn=2)
    after = apply(state, Call(S2, SNAP))
    assert after.down == (cards_of("2c 4c"), (), cards_of("5c"), cards_of("6c"))


@pytest.mark.rules("SNAP-PEN-3")
def test_snap_pen_3():
    # P1's face-down pile is empty: he turns "8s 2s" over (2s on top) and gives 2s
    state = call_state(["2c", "", "4c"], ["7h", "8s 2s", "9d"], turn=0)
    after = apply(state, Call(S1, SNAP))
    assert after.down[1] == cards_of("8s") and after.up[1] == ()
    assert after.down[0] == cards_of("2c 2s")


@pytest.mark.rules("SNAP-OUT-1")
def test_snap_out_1():
    # P1's last card goes with a wrong call: he is out, skipped, and may not call again
    state = call_state(["2c", "", "4c 5c"], ["7h", "8s", "9d"], turn=0)
    after = apply(state, Call(S1, SNAP))
    assert not after.holds(S1) and after.in_game == (S0, S2) and after.turn == S2
    after = apply(after, Flip(S2))
    assert S1 not in {m.caller for m in legal_moves(after) if isinstance(m, Call)}
    raises("SNAP-CALL-2", after, Call(S1, SNAP))
    # a wrong call by P2 on his own turn skips P1 on his right: P0 receives the card
    after = apply(after, Call(S2, SNAP))
    assert after.down[1] == () and after.turn == S0


@pytest.mark.rules("SNAP-END-1")
def test_snap_end_1():
    state = call_state(["2c", ""], ["7h", "7s"], turn=0)
    over = apply(state, Call(S0, SNAP))
    assert over.phase is Phase.OVER and over.outcome.termination is Termination.ALL_CARDS
    assert over.outcome.winner == S0 and legal_moves(over) == ()
    for move in (Flip(S0), NoCall(), Call(S0, SNAP), Deal(S0, over.config.deck)):
        raises("SNAP-END-1", over, move)


@pytest.mark.rules("SNAP-END-2", "SNAP-END-5")
@pytest.mark.parametrize("down, termination", [("2c", Termination.STUCK_POT), ("2c Kc", Termination.WINNABLE_POT)])
def test_snap_end_2(down, termination):
    state = call_state([down, ""], ["7h", "7s"], pot="Kd", turn=0)
    over = apply(state, Call(S0, SNAP))
    assert over.outcome.termination is termination and over.outcome.winner == S0  # labelled as SNAP-END-5 says
    assert over.pot == cards_of("Kd")
    for move in (Flip(S0), NoCall(), Call(S0, SNAP), Deal(S0, over.config.deck)):
        raises("SNAP-END-2", over, move)  # refused by the rule the game ended by


@pytest.mark.rules("SNAP-END-3")
def test_snap_end_3():
    state = call_state(["", ""], ["7h", "7s"], pot="Kd", turn=0)
    over = apply(state, Tie(frozenset({S0, S1}), SNAP))
    assert over.phase is Phase.OVER and over.outcome.termination is Termination.NO_CARDS
    assert over.outcome.winner is None and over.pot == cards_of("7h 7s Kd")
    for move in (Flip(S0), NoCall(), Tie(frozenset({S0, S1}), SNAP)):
        raises("SNAP-END-3", over, move)


@pytest.mark.rules("SNAP-END-4")
def test_snap_end_4():
    result = next(r for r in (play_game(SnapConfig(players=2), s, "owner-first") for s in range(40)) if r.endless)
    start, length = result.endless.start, result.endless.length
    assert length > 0 and result.outcome is None
    state, keys = new_game(result.config), {}
    for move in result.moves:  # replay and find the repeated position independently
        state = apply(state, move)
        if state.phase is Phase.FLIP:
            keys.setdefault(state.flips, state.position_key())
    assert keys[start] == keys[start + length] == result.state.position_key()
    assert len({keys[f] for f in range(start, start + length)}) == length


def test_reprs_are_python():
    import cardcanon.model.snap as snap

    namespace = {**vars(snap), "Card": Card}
    state = call_state(["2c", "3c", "4c"], ["7h", "7s", "9d"], pot="Qd", turn=0, index_card=True)
    for value in (state, state.config, SnapConfig(players=3), Tie(frozenset({S1, S2}), SNAP), Call(S0, HAND),
                  NoCall(), Deal(S1, FULL_DECK[:3]), snap.Outcome(Termination.STUCK_POT, S1)):
        assert eval(repr(value), namespace) == value


def test_legal_moves_and_apply_use_the_same_rule_blocks():
    """In a call window every call event that legal_moves leaves out is one apply refuses."""
    state = call_state(["2c 3c", "4c", "", "5c"], ["7h", "7s", "", "8d"], pot="7d", turn=0)
    legal = set(legal_moves(state))
    seats = [S0, S1, S2, S3]
    events = [NoCall(), *(Call(s, k) for s in seats for k in CallKind),
              *(Tie(frozenset(c), k) for k in CallKind for n in (1, 2, 3) for c in combinations(seats, n))]
    for move in events:
        if move in legal:
            apply(state, move)
        else:
            with pytest.raises(IllegalMoveError):
                apply(state, move)
    assert Tie(frozenset({S0, S1}), POT) in legal and Call(S2, SNAP) not in legal

