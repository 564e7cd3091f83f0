"""Reference model of two-player Hearts.

Rulebook: ``spec/hearts.toml`` (print it with ``cardcanon rules hearts``). Every rule block
below cites the rule ID it implements; the variation points of the rulebook are the
:class:`HeartsConfig` parameters, with the rulebook's defaults.

Where this game departs from common four-player Hearts (OpenSpiel's ``hearts``, for instance):

- Two players and a 28-card deck: the 3, 5, 7, 9, jack and king are removed (HEARTS-DECK-1).
- Two dead cards per hand, the top card before the deal and the last card after it, unseen
  until the hand ends (HEARTS-DEAL-2). No cards are passed.
- Hearts are trump: a heart wins a trick even when another suit was led (HEARTS-TRICK-1).
- The 2 of clubs leads, or the 4, or the 6 when lower clubs are dead (HEARTS-LEAD-1/2/3).
- Point cards may be played to the first trick (HEARTS-FIRST-1, variation ``no-hearts``).
- Shooting the moon scores 0 for the shooter and 20 for the other player, also when point
  cards are dead (HEARTS-MOON-1/2, variation ``points-in-play``).
- A match is played to 100 over many hands; when both reach 100 the lower score wins, and
  equal scores are played off with further hands, without a cap (HEARTS-MATCH-1/2/3).

Chance is explicit: :class:`ChooseDealer` once per match and one :class:`Deal` per hand are
moves like any other, so a match is exactly its list of moves. A seeded match draws all chance
from one :class:`~cardcanon.model.shuffle.SplitMix64` stream: first the dealer, then one shuffle per hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from cardcanon.model.cards import Card, Suit
from cardcanon.model.errors import IllegalMoveError
from cardcanon.model.hearts_scoring import match_result, score_hand, score_masks
from cardcanon.model.hearts_types import (
    DECK, FULL_MASK, HEARTS_MASK, NON_HEARTS_MASK, POINT_CARDS, QUEEN_OF_SPADES, SEATS, SUIT_MASK,
    SUITS, BreakOn, ChooseDealer, Deal, FirstLead, FirstTrickPoints, HeartsConfig, HeartsState, MoonScore, Move,
    Outcome, Phase, Play, Termination, deck_index, deck_indices, evolve, mask_of,
)
from cardcanon.model.seats import Seat
from cardcanon.model.shuffle import SplitMix64

__all__ = [
    "DECK", "POINT_CARDS", "QUEEN_OF_SPADES", "BreakOn", "ChooseDealer", "Deal", "FirstLead", "FirstTrickPoints",
    "HeartsConfig", "HeartsState", "MoonScore", "Move", "Outcome", "Phase", "Play", "Strategy", "Termination",
    "apply", "deal_hands", "first_leader", "legal_moves", "match_result", "new_match", "play_match",
    "sample_chance", "score_hand", "trick_winner",
]

TRICKS_PER_HAND = 13  # HEARTS-TRICK-3
FIRST_LEAD_CLUBS = tuple(c for c in DECK if c.suit is Suit.CLUBS)[:3]  # 2, 4, 6 of clubs
TWO_OF_CLUBS = FIRST_LEAD_CLUBS[0]

# Prebuilt plays: _PLAY[seat][i] plays DECK[i]; _PLAYS_BY_PATTERN[seat][suit][p] are the plays
# of the cards of that suit whose 7-bit pattern is p, in deck order.
_PLAY = tuple(tuple(Play(seat, card) for card in DECK) for seat in SEATS)
_PLAYS_BY_PATTERN = tuple(
    tuple(tuple(tuple(_PLAY[s][7 * k + r] for r in range(7) if p >> r & 1) for p in range(128)) for k in range(4))
    for s in range(2)
)
# The deck index of each prebuilt play, by identity (of either seat, and by seat). _PLAY keeps them
# alive, so their ids are never reused; any other Play (even an equal one) takes the slow path.
_PLAY_INDEX = {id(_PLAY[s][i]): i for s in range(2) for i in range(len(DECK))}
_PLAY_INDEX_BY_SEAT = tuple({id(play): i for i, play in enumerate(plays)} for plays in _PLAY)
_new, _set = object.__new__, object.__setattr__  # to build a state without __init__ (see apply)


class Strategy(Protocol):
    """A player: picks one of the legal plays."""

    def __call__(self, state: HeartsState, legal: tuple[Play, ...]) -> Play: ...


def new_match(config: HeartsConfig = HeartsConfig()) -> HeartsState:
    """The start of a match: the dealer is yet to be chosen (HEARTS-DEAL-1)."""
    return HeartsState(config=config)


def other(seat: Seat) -> Seat:
    return SEATS[1 - seat.index]


# --- pure rule functions ----------------------------------------------------------------------
def deal_hands(order: Sequence[Card], dealer: Seat) -> tuple[tuple[frozenset[Card], frozenset[Card]], tuple[Card, Card]]:
    """HEARTS-DEAL-2: the top card is dead, then 13 cards each, one at a time, alternately,
    beginning with the player who is not the dealer; the last card is dead."""
    if len(order) != len(DECK):
        raise ValueError(f"a deal has {len(DECK)} cards, not {len(order)}")
    hand0, hand1, dead = _split_deal(order, dealer.index)
    return (frozenset(hand0), frozenset(hand1)), dead


def _split_deal(order: Sequence, dealer: int) -> tuple[Sequence, Sequence, tuple]:
    """HEARTS-DEAL-2 on any 28-item sequence: (seat 0's items, seat 1's items, the dead items)."""
    dealt = [(), ()]
    dealt[1 - dealer], dealt[dealer] = order[1:27:2], order[2:27:2]
    return dealt[0], dealt[1], (order[0], order[27])


def _first_lead_index(dead_indices: Sequence[int | None]) -> int:
    """HEARTS-LEAD-1/2: the deck index of the lowest live club of 2, 4, 6 (it names the leader)."""
    for index in _FIRST_LEAD_INDICES:
        if index not in dead_indices:
            return index
    raise ValueError("at most two cards are dead: one of the 2, 4, 6 of clubs is live")  # pragma: no cover


_FIRST_LEAD_INDICES = tuple(DECK.index(club) for club in FIRST_LEAD_CLUBS)


def _forced_first_lead(dead: Sequence[Card], config: HeartsConfig) -> tuple[Card, Card | None]:
    """HEARTS-LEAD-1/2: the lowest live club of 2, 4, 6 names the leader. HEARTS-LEAD-3: it is
    also the card he must lead (``free``: only the 2 of clubs is forced)."""
    club = DECK[_first_lead_index(deck_indices(dead))]
    forced = club is TWO_OF_CLUBS or config.first_lead is FirstLead.LOWEST_CLUB
    return club, club if forced else None


def first_leader(hands, dead, config: HeartsConfig = HeartsConfig()) -> tuple[Seat, Card | None]:
    """HEARTS-LEAD-1/2/3: the leader of the first trick and the card he must lead (or None)."""
    return _first_leader((mask_of(hands[0]), mask_of(hands[1])), dead, config)


def _first_leader(hand_masks: tuple[int, int], dead, config: HeartsConfig) -> tuple[Seat, Card | None]:
    club, forced = _forced_first_lead(dead, config)
    bit = 1 << deck_index(club)
    for seat in SEATS:
        if hand_masks[seat.index] & bit:
            return seat, forced
    raise ValueError(f"{club} is neither dead nor in a hand")


def trick_winner(lead: Card, follow: Card) -> int:
    """HEARTS-TRICK-1 (with HEARTS-TRUMP-1, HEARTS-RANK-1): 0 if the leader's card wins, 1 if
    the follower's. A heart beats any other suit; otherwise the higher card of the suit led."""
    lead_index, follow_index = deck_index(lead), deck_index(follow)
    if lead_index is None or follow_index is None:
        raise ValueError(f"not cards of the 28-card deck: {lead}, {follow}")
    return _trick_winner(lead_index, follow_index)


def _trick_winner(lead: int, follow: int) -> int:
    """:func:`trick_winner` on deck indices (suit number = index // 7; deck order is rank order)."""
    if lead // 7 == follow // 7:
        return 1 if follow > lead else 0
    return 1 if follow // 7 == _HEARTS_NUMBER else 0


_HEARTS_NUMBER = SUITS.index(Suit.HEARTS)
# _FOLLOWER_WINS[lead][follow]: _trick_winner on every pair of deck indices, as a table.
_FOLLOWER_WINS = tuple(tuple(_trick_winner(lead, follow) == 1 for follow in range(len(DECK))) for lead in range(len(DECK)))


# --- legal plays: rule blocks in rulebook order -----------------------------------------------
def _play_rules(state: HeartsState, hand: int) -> list[tuple[str, int]]:
    """The rules that restrict the player to move, each with the mask of cards it allows.

    The legal plays are the cards of ``hand`` allowed by every rule; an illegal play breaks the
    first rule that does not allow it.
    """
    rules: list[tuple[str, int]] = []
    first_trick = state.tricks_played == 0
    leading = not state.trick
    # HEARTS-LEAD-1, HEARTS-LEAD-3: the first lead is the club that made the leader (HEARTS-LEAD-2).
    if leading and first_trick:
        _, forced = _forced_first_lead(state.dead, state.config)
        if forced is not None:
            rules.append(("HEARTS-LEAD-1" if forced is TWO_OF_CLUBS else "HEARTS-LEAD-3", 1 << deck_index(forced)))
    # HEARTS-FOLLOW-1: the second player follows suit if he can; if not, he may play any card.
    if not leading:
        follow = _FOLLOW_1[deck_index(state.trick[0].card) // 7]
        if hand & follow[1]:
            rules.append(follow)
    # HEARTS-BREAK-1: no heart lead before hearts are broken, unless he holds only hearts.
    if leading and not state.hearts_broken and hand & NON_HEARTS_MASK:
        rules.append(_BREAK_1)
    # HEARTS-FIRST-1 (``no-hearts``): no heart to the first trick unless he holds only hearts.
    if first_trick and state.config.first_trick_points is _NO_HEARTS and hand & NON_HEARTS_MASK:
        rules.append(_FIRST_1)
    # HEARTS-QUEEN-2: no timing rule holds the queen of spades back; she is not a heart, so
    # none of the masks above excludes her except by following suit.
    return rules


_BREAK_1 = ("HEARTS-BREAK-1", NON_HEARTS_MASK)
_FOLLOW_1 = tuple(("HEARTS-FOLLOW-1", SUIT_MASK[suit]) for suit in SUITS)  # by suit number (deck index // 7)
_FIRST_1 = ("HEARTS-FIRST-1", NON_HEARTS_MASK)
_NO_HEARTS = FirstTrickPoints.NO_HEARTS


def legal_moves(state: HeartsState) -> tuple[Move, ...]:
    """The legal plays of the player to move, in deck order; ``()`` at chance nodes and at the end.

    After the first trick only HEARTS-FOLLOW-1 and HEARTS-BREAK-1 can restrict a play (see
    ``_play_rules``), so those two are applied directly; the first trick goes through every
    rule block. The answer is remembered (as a mask) until the next call, so that ``apply`` does
    not work it out again (states are immutable: identity is enough).
    """
    global _last_legal
    seat = state.to_move
    if seat is None:
        return ()
    s = seat.index
    hand = state.hand_masks[s]
    if state.tricks_played:
        trick = state.trick
        if trick:  # HEARTS-FOLLOW-1: follow suit if he can
            lead_index = _PLAY_INDEX.get(id(trick[0]))
            if lead_index is None:
                lead_index = deck_index(trick[0].card)
            suit = lead_index // 7
            legal = hand & _SUIT_MASKS[suit]
            if legal:  # cards of one suit: their plays are one prebuilt tuple
                _last_legal = (state, s, legal)
                return _PLAYS_BY_PATTERN[s][suit][legal >> 7 * suit]
            legal = hand
        elif state.hearts_broken:
            legal = hand
        else:  # HEARTS-BREAK-1: no heart lead unless he holds only hearts
            legal = hand & NON_HEARTS_MASK or hand
    else:
        legal = hand
        for _, allowed in _play_rules(state, hand):
            legal &= allowed
    _last_legal = (state, s, legal)
    by_suit = _PLAYS_BY_PATTERN[s]
    return by_suit[0][legal & 127] + by_suit[1][legal >> 7 & 127] + by_suit[2][legal >> 14 & 127] + by_suit[3][legal >> 21]


# (state, seat number of the player to move, mask of his legal plays) of the last state asked.
_last_legal: tuple[HeartsState | None, int, int] = (None, 0, 0)
_SUIT_MASKS = tuple(SUIT_MASK[suit] for suit in SUITS)  # by suit number (deck index // 7)


def _legal_mask(state: HeartsState) -> int:
    """The mask of the legal plays of the player to move (as :func:`legal_moves` finds them)."""
    if _last_legal[0] is not state:
        legal_moves(state)
    return _last_legal[2]


# --- applying moves ---------------------------------------------------------------------------
def apply(state: HeartsState, move: Move) -> HeartsState:
    """The state after ``move``; raises :class:`~cardcanon.model.errors.IllegalMoveError` naming the broken rule.

    A play is checked against every rule, unless it is one of the plays :func:`legal_moves` just
    returned for this very state. The hot path (a play) builds the next state as ``evolve``
    does, without the call; ``hands`` and ``taken`` are left out, to be rebuilt from the masks
    when read.
    """
    cached_state, s, legal = _last_legal
    index = _PLAY_INDEX_BY_SEAT[s].get(id(move))  # a prebuilt play of the player to move?
    if cached_state is not state or index is None or not legal >> index & 1:
        if type(move) is not Play:
            return _apply_chance(state, move)
        s, index = _checked_play(state, move)
    bit = 1 << index
    hand_masks = state.hand_masks
    hand_masks = (hand_masks[0] ^ bit, hand_masks[1]) if s == 0 else (hand_masks[0], hand_masks[1] ^ bit)
    # HEARTS-BREAK-2: a heart played breaks hearts; with ``void``, so does any failure to follow.
    broken = state.hearts_broken or bit & HEARTS_MASK != 0
    trick = state.trick
    if not trick:
        fields = state.__dict__.copy()
        if "hands" in fields:
            del fields["hands"]
        fields["hand_masks"], fields["hearts_broken"] = hand_masks, broken
        fields["trick"], fields["to_move"] = (_PLAY[s][index],), SEATS[1 - s]
        new = _new(HeartsState)
        _set(new, "__dict__", fields)
        return new
    lead_index = _PLAY_INDEX.get(id(trick[0]))
    if lead_index is None:
        lead_index = deck_index(trick[0].card)
    if not broken and state.config.break_on is _VOID and lead_index // 7 != index // 7:
        broken = True
    # The trick is complete. HEARTS-TRICK-1: who wins; HEARTS-TRICK-2: the winner leads next.
    winner = SEATS[s] if _FOLLOWER_WINS[lead_index][index] else trick[0].player
    w = winner.index
    taken_masks = state.taken_masks
    won = taken_masks[w] | bit | 1 << lead_index
    taken_masks = (won, taken_masks[1]) if w == 0 else (taken_masks[0], won)
    tricks_played = state.tricks_played + 1
    if tricks_played >= TRICKS_PER_HAND:
        return _end_hand(state, hand_masks, taken_masks, broken)
    fields = state.__dict__.copy()
    if "hands" in fields:
        del fields["hands"]
    if "taken" in fields:
        del fields["taken"]
    fields["hand_masks"], fields["hearts_broken"] = hand_masks, broken
    fields["trick"], fields["leader"], fields["to_move"] = (), winner, winner
    fields["taken_masks"], fields["tricks_played"] = taken_masks, tricks_played
    new = _new(HeartsState)
    _set(new, "__dict__", fields)
    return new


def _checked_play(state: HeartsState, move: Play) -> tuple[int, int]:
    """Check a play against every rule: (seat number, deck index) of a legal play."""
    seat = state.to_move
    if seat is None:
        _refuse_play_outside_play_phase(state, move)
    player, card = move.player, move.card
    if player is not seat and player != seat:
        _refuse_wrong_player(state, move)
    index = deck_index(card)
    if index is None:
        raise IllegalMoveError("HEARTS-DECK-1", f"{card} is not a card of the 28-card deck")
    bit = 1 << index
    hand = state.hand_masks[seat.index]
    if not hand & bit:  # HEARTS-DEAL-2: a player plays only the cards dealt to him
        raise IllegalMoveError("HEARTS-DEAL-2", f"{seat} does not hold {card}")
    if not bit & _legal_mask(state):
        for rule, allowed in _play_rules(state, hand):
            if not bit & allowed:
                raise IllegalMoveError(rule, _RULE_MESSAGES[rule].format(player=seat, card=card))
    return seat.index, index


def _apply_chance(state: HeartsState, move: Move) -> HeartsState:
    if state.phase is Phase.OVER:
        what = "a deal" if type(move) is Deal else "a choice of dealer"  # not the move's long repr
        raise IllegalMoveError("HEARTS-MATCH-1", f"the match is over; no move is possible, not even {what}")
    kind = type(move)
    if kind is ChooseDealer:
        return _apply_choose_dealer(state, move)
    if kind is Deal:
        return _apply_deal(state, move)
    raise TypeError(f"not a Hearts move: {move!r}")


def sample_chance(state: HeartsState, rng: SplitMix64) -> Move:
    """Draw the chance move of a chance node from ``rng``."""
    if state.phase is Phase.CHOOSE_DEALER:
        return ChooseDealer(SEATS[rng.below(2)])
    if state.phase is Phase.DEAL:
        return Deal(rng.shuffled(DECK))
    raise ValueError(f"not a chance node (phase {state.phase})")


def _apply_choose_dealer(state: HeartsState, move: ChooseDealer) -> HeartsState:
    # HEARTS-DEAL-1: the first dealer is chosen at random, once.
    if state.phase is not Phase.CHOOSE_DEALER:
        raise IllegalMoveError("HEARTS-DEAL-1", "the dealer is chosen once, before the first hand")
    if move.dealer not in SEATS:
        raise IllegalMoveError("HEARTS-PLAYERS-1", f"there are two players, Seat(0) and Seat(1), not {move.dealer!r}")
    return evolve(state, phase=Phase.DEAL, dealer=SEATS[move.dealer.index])


def _apply_deal(state: HeartsState, move: Deal) -> HeartsState:
    if state.phase is Phase.CHOOSE_DEALER:
        raise IllegalMoveError("HEARTS-DEAL-1", "the dealer must be chosen before the first deal")
    if state.phase is not Phase.DEAL:
        raise IllegalMoveError("HEARTS-TRICK-3", f"the hand is not over: {state.tricks_played} of 13 tricks played")
    # HEARTS-DECK-1: a deal is an order of exactly the 28 cards. Each card's bit over DECK: 28
    # powers of two add up to FULL_MASK only when they are all different.
    order = move.order if isinstance(move.order, (tuple, list)) else tuple(move.order)
    bits = list(map(_BIT_BY_ID.get, map(id, order)))  # fast path: the DECK instances themselves
    if None in bits:
        bits = [None if i is None else 1 << i for i in deck_indices(order)]
    if len(bits) != len(DECK) or None in bits or sum(bits) != FULL_MASK:
        raise IllegalMoveError("HEARTS-DECK-1", _deck_problem(order, deck_indices(order)))
    # HEARTS-DEAL-2 (as deal_hands does), on the bits.
    hand0, hand1, dead_bits = _split_deal(bits, state.dealer.index)
    masks = (sum(hand0), sum(hand1))
    dead_indices = (dead_bits[0].bit_length() - 1, dead_bits[1].bit_length() - 1)
    # HEARTS-LEAD-1/2: whoever holds the lowest live club of 2, 4, 6 leads.
    leader = SEATS[0] if masks[0] >> _first_lead_index(dead_indices) & 1 else SEATS[1]
    return evolve(
        state, phase=Phase.PLAY, hand_number=state.hand_number + 1, hand_masks=masks,
        dead=(DECK[dead_indices[0]], DECK[dead_indices[1]]), trick=(), leader=leader, to_move=leader,
        hearts_broken=False, taken_masks=(0, 0), tricks_played=0,
    )


_BIT_BY_ID = {id(card): 1 << i for i, card in enumerate(DECK)}  # DECK keeps the cards alive


def _deck_problem(order, indices) -> str:
    unknown = [str(card) for card, i in zip(order, indices) if i is None]
    if unknown:
        return f"not cards of the 28-card deck: {', '.join(unknown)}"
    if len(indices) != len(DECK):
        return f"a deal is the whole deck of {len(DECK)} cards, not {len(indices)}"
    missing = [str(DECK[i]) for i in range(len(DECK)) if i not in indices]
    return f"a deal must hold every card once; missing: {', '.join(missing)}"


def _end_hand(state, hand_masks, taken_masks, broken) -> HeartsState:
    """HEARTS-TRICK-3: after 13 tricks the hand is scored; HEARTS-MATCH-1/2 decide whether the
    match goes on, and HEARTS-DEAL-1 passes the deal to the other player."""
    hand_score = score_masks(taken_masks, mask_of(state.dead), state.config)
    scores = (state.scores[0] + hand_score[0], state.scores[1] + hand_score[1])
    outcome = match_result(scores, state.config, previous=state.scores)
    return evolve(
        state, phase=Phase.OVER if outcome else Phase.DEAL, scores=scores,
        dealer=state.dealer if outcome else other(state.dealer), hand_masks=hand_masks, trick=(),
        leader=None, to_move=None, hearts_broken=broken, taken_masks=taken_masks,
        tricks_played=TRICKS_PER_HAND, hand_scores=state.hand_scores + (hand_score,), outcome=outcome,
    )


_VOID = BreakOn.VOID
_RULE_MESSAGES = {
    "HEARTS-LEAD-1": "{player} must lead the 2 of clubs to the first trick, not {card}",
    "HEARTS-LEAD-3": "{player} must lead the club that made him leader to the first trick, not {card}",
    "HEARTS-BREAK-1": "{player} may not lead {card}: hearts are not broken and he holds other suits",
    "HEARTS-FOLLOW-1": "{player} must follow suit and may not play {card}",
    "HEARTS-FIRST-1": "{player} may not play {card} to the first trick: he holds cards other than hearts",
}


def _refuse_play_outside_play_phase(state: HeartsState, move: Play):
    if state.phase is Phase.OVER:
        raise IllegalMoveError("HEARTS-MATCH-1", f"the match is over; {move.player} cannot play {move.card}")
    if state.phase is Phase.CHOOSE_DEALER:
        raise IllegalMoveError("HEARTS-DEAL-1", "no card can be played before the dealer is chosen")
    raise IllegalMoveError("HEARTS-DEAL-2", "no card can be played before the cards are dealt")


def _refuse_wrong_player(state: HeartsState, move: Play):
    seat = state.to_move
    if state.trick:
        raise IllegalMoveError("HEARTS-TRICK-2", f"{seat} plays second to this trick, not {move.player}")
    if state.tricks_played == 0:  # HEARTS-LEAD-1, or HEARTS-LEAD-2 when the 2 of clubs is dead
        rule = "HEARTS-LEAD-1" if TWO_OF_CLUBS not in state.dead else "HEARTS-LEAD-2"
        raise IllegalMoveError(rule, f"{seat} holds the lowest live club and leads the first trick, not {move.player}")
    raise IllegalMoveError("HEARTS-TRICK-2", f"{seat} won the last trick and leads, not {move.player}")


# --- whole matches ----------------------------------------------------------------------------
def play_match(seed: int, players: tuple[Strategy, Strategy],
               config: HeartsConfig = HeartsConfig()) -> tuple[HeartsState, list[Move]]:
    """Play a whole match: chance from ``SplitMix64(seed)``, plays from the two strategies.

    HEARTS-MATCH-3: there is no cap on the number of hands.
    """
    rng = SplitMix64(seed)
    state = new_match(config)
    moves: list[Move] = []
    while state.phase is not Phase.OVER:
        if state.is_chance:
            move = sample_chance(state, rng)
        else:
            move = players[state.to_move.index](state, legal_moves(state))
        state = apply(state, move)
        moves.append(move)
    return state, moves
