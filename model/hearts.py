"""Reference model of two-player Hearts.

Rulebook: ``spec/hearts.toml`` (print it with ``cardcanon rules hearts``). The rule blocks below
follow the rulebook's order; each is the one implementation of the rule it cites, used by
:func:`legal_moves`, :func:`apply` and the error messages alike. The numbers of the game (13
tricks, 13 points for the queen of spades, 100 to end the match, ...) are read from the
rulebook (``cardcanon.model.hearts_types``); its variation points are the
:class:`HeartsConfig` fields, with the rulebook's defaults.

Where this game departs from common four-player Hearts (OpenSpiel's ``hearts``, for instance):

- Two players and a 28-card deck: the 3, 5, 7, 9, jack and king are removed (HEARTS-DECK-1).
- Two dead cards per hand, the top card before the deal and the last card after it, unseen
  until the hand ends (HEARTS-DEAL-2). No cards are passed.
- Hearts are trump: a heart wins a trick even when another suit was led (HEARTS-TRICK-1).
- The 2 of clubs leads, or the 4, or the 6 when lower clubs are dead (HEARTS-LEAD-1/2/3).
- Point cards may be played to the first trick (HEARTS-FIRST-1, variation ``no-hearts``).
- The queen of spades does not break hearts (HEARTS-QUEEN-2, variation ``queen_breaks``).
- Shooting the moon scores 0 for the shooter and 20 for the other player, also when point
  cards are dead (HEARTS-MOON-1/2, variation ``points-in-play``).
- A match is played to 100 over many hands; when both reach 100 the lower score wins, and
  equal scores are played off with further hands, without a cap (HEARTS-MATCH-1/2/3).

Chance is explicit: :class:`ChooseDealer` once per match and one :class:`Deal` per hand are
moves like any other, so a match is exactly its list of moves. A seeded match draws all chance
from one :class:`~cardcanon.model.shuffle.SplitMix64` stream: first the dealer, then one shuffle
per hand. The game API shared with Snap is described in :mod:`cardcanon.model.game`.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import Any
from dataclasses import replace

from cardcanon.model import hearts_records, records
from cardcanon.model.cards import Card, Suit
from cardcanon.model.errors import IllegalMoveError, InvalidMoveError
from cardcanon.model.game import Game
from cardcanon.model.hearts_types import (
    DEAD_CARDS, DECK, HAND_SIZE, HEART_POINTS, MOON_OTHER_POINTS, MOON_SHOOTER_POINTS, MOVE_TYPES, PLAYERS,
    POINT_CARDS, QUEEN_OF_SPADES, QUEEN_POINTS, SEATS, TRICKS_PER_HAND, BreakOn, ChooseDealer, Deal, Dealer,
    FirstLead, FirstTrickPoints, Hands, HeartsConfig, HeartsState, MoonScore, Move, Outcome, Phase, Play,
    QueenBreaks, Termination,
)
from cardcanon.model.seats import Seat
from cardcanon.model.shuffle import SplitMix64

__all__ = [
    "DECK", "GAME", "POINT_CARDS", "QUEEN_OF_SPADES", "BreakOn", "ChooseDealer", "Deal", "Dealer", "FirstLead",
    "FirstTrickPoints", "HeartsConfig", "HeartsState", "MoonScore", "Move", "Outcome", "Phase", "Play",
    "QueenBreaks", "Termination", "apply", "chance_outcomes", "deal_hands", "first_leader", "from_record",
    "is_chance", "legal_moves", "match_result", "new_game", "outcome", "replay", "sample_chance", "score_hand",
    "to_move", "to_record", "trick_winner",
]

name = "hearts"
Refusal = tuple[str, str]  # (rule ID, what is wrong): why a card may not be played


def new_game(config: HeartsConfig = HeartsConfig()) -> HeartsState:
    """The start of a match: the dealer is yet to be chosen (HEARTS-DEAL-1)."""
    return HeartsState(config=config)


# --- HEARTS-PLAYERS-1 -------------------------------------------------------------------------
def other(seat: Seat) -> Seat:
    """HEARTS-PLAYERS-1: exactly two players; the other one."""
    return seat.left(PLAYERS)


def seat_problem(seat: Seat) -> Refusal | None:
    """HEARTS-PLAYERS-1: a seat of this table."""
    if seat not in SEATS:
        return "HEARTS-PLAYERS-1", f"there are {PLAYERS} players, player 0 and player 1, not {seat}"
    return None


# --- HEARTS-DECK-1, HEARTS-RANK-1, HEARTS-TRUMP-1 ---------------------------------------------
def deck_problem(cards: Sequence[Card]) -> Refusal | None:
    """HEARTS-DECK-1: a deal is an order of exactly the 28 cards of the deck, each once."""
    unknown = [str(card) for card in cards if card not in DECK]
    if unknown:
        return "HEARTS-DECK-1", f"not cards of the {len(DECK)}-card deck: {', '.join(unknown)}"
    if len(cards) != len(DECK):
        return "HEARTS-DECK-1", f"a deal is the whole deck of {len(DECK)} cards, not {len(cards)}"
    missing = [str(card) for card in DECK if card not in cards]
    if missing:
        return "HEARTS-DECK-1", f"a deal must hold every card once; missing: {', '.join(missing)}"
    return None


def beats(card: Card, other_card: Card) -> bool:
    """HEARTS-RANK-1 with HEARTS-TRUMP-1: whether ``card``, played second, beats ``other_card``:
    a higher card of the same suit, or a heart (hearts are trump) on a card of another suit."""
    if card.suit is other_card.suit:
        return card.rank > other_card.rank
    return card.suit is Suit.HEARTS


# --- HEARTS-DEAL-1, HEARTS-DEAL-2 -------------------------------------------------------------
def next_dealer(state: HeartsState) -> Seat:
    """HEARTS-DEAL-1 (``alternate``): the dealer of the next hand did not deal this one."""
    assert state.dealer is not None
    return other(state.dealer)


def deal_hands(order: Sequence[Card], dealer: Seat) -> tuple[Hands, tuple[Card, ...]]:
    """HEARTS-DEAL-2: the top card is dead, then 13 cards each, one at a time, alternately,
    beginning with the player who is not the dealer; the last card is dead."""
    if len(order) != len(DECK):
        raise ValueError(f"a deal has {len(DECK)} cards, not {len(order)}")
    dealt = order[1:1 + PLAYERS * HAND_SIZE]
    first = other(dealer)
    hands = {first: frozenset(dealt[0::2]), dealer: frozenset(dealt[1::2])}
    return (hands[SEATS[0]], hands[SEATS[1]]), (order[0], *order[1 + PLAYERS * HAND_SIZE:])


# --- HEARTS-PASS-1 ----------------------------------------------------------------------------
# No cards are passed: a deal moves straight to the first trick (see _apply_deal).


# --- HEARTS-LEAD-1, HEARTS-LEAD-2, HEARTS-LEAD-3 ----------------------------------------------
FIRST_LEAD_CLUBS = tuple(c for c in DECK if c.suit is Suit.CLUBS)[:DEAD_CARDS + 1]  # the 2, 4 and 6 of clubs
TWO_OF_CLUBS = FIRST_LEAD_CLUBS[0]


def first_lead_club(dead: Collection[Card]) -> Card:
    """HEARTS-LEAD-1, HEARTS-LEAD-2: the lowest club of the 2, 4, 6 that is not dead."""
    return next(club for club in FIRST_LEAD_CLUBS if club not in dead)


def forced_first_lead(dead: Collection[Card], config: HeartsConfig) -> Card | None:
    """HEARTS-LEAD-1, HEARTS-LEAD-3: the card the first leader must lead, or None (``free``: only
    the 2 of clubs is forced)."""
    club = first_lead_club(dead)
    return club if club == TWO_OF_CLUBS or config.first_lead is FirstLead.LOWEST_CLUB else None


def first_leader(hands: Sequence[frozenset[Card]], dead: Sequence[Card],
                 config: HeartsConfig = HeartsConfig()) -> tuple[Seat, Card | None]:
    """HEARTS-LEAD-1/2/3: the leader of the first trick and the card he must lead (or None)."""
    club = first_lead_club(dead)
    holder = next((seat for seat in SEATS if club in hands[seat.index]), None)
    if holder is None:
        raise ValueError(f"{club} is neither dead nor in a hand")
    return holder, forced_first_lead(dead, config)


def first_lead_problem(state: HeartsState, card: Card) -> Refusal | None:
    """HEARTS-LEAD-1, HEARTS-LEAD-3: the first lead is the club that made the leader."""
    if state.tricks_played or state.trick:
        return None
    forced = forced_first_lead(state.dead, state.config)
    if forced is None or card == forced:
        return None
    if forced == TWO_OF_CLUBS:
        return "HEARTS-LEAD-1", f"{state.to_move} must lead the 2 of clubs to the first trick, not {card.pretty}"
    return "HEARTS-LEAD-3", f"{state.to_move} must lead the club that made him leader ({forced.pretty}), not {card.pretty}"


# --- HEARTS-FOLLOW-1 --------------------------------------------------------------------------
def follow_problem(state: HeartsState, hand: frozenset[Card], card: Card) -> Refusal | None:
    """HEARTS-FOLLOW-1: the second player follows suit if he can; if not, he may play any card."""
    if not state.trick:
        return None
    suit = state.trick[0].card.suit
    if card.suit is suit or not any(held.suit is suit for held in hand):
        return None
    return "HEARTS-FOLLOW-1", f"{state.to_move} must follow suit ({suit.name.lower()}) and may not play {card.pretty}"


# --- HEARTS-TRICK-1, HEARTS-TRICK-2, HEARTS-TRICK-3, HEARTS-TRICK-4 ---------------------------
def trick_winner(lead: Card, follow: Card) -> int:
    """HEARTS-TRICK-1: 0 if the leader's card wins the trick, 1 if the follower's. A heart wins
    (HEARTS-TRUMP-1); otherwise the higher card of the suit led (HEARTS-RANK-1)."""
    if lead not in DECK or follow not in DECK:
        raise ValueError(f"not cards of the {len(DECK)}-card deck: {lead}, {follow}")
    return 1 if beats(follow, lead) else 0


def turn_problem(state: HeartsState, player: Seat) -> Refusal | None:
    """HEARTS-TRICK-4 (the other player plays second), HEARTS-TRICK-2 (the winner of a trick
    leads the next) and, for the first trick, HEARTS-LEAD-1/2 (the holder of the lowest live
    club leads)."""
    if player == state.to_move:
        return None
    if state.trick:
        return "HEARTS-TRICK-4", f"{state.to_move} plays second to this trick, not {player}"
    if state.tricks_played == 0:
        rule = "HEARTS-LEAD-1" if TWO_OF_CLUBS not in state.dead else "HEARTS-LEAD-2"
        return rule, f"{state.to_move} holds the lowest live club and leads the first trick, not {player}"
    return "HEARTS-TRICK-2", f"{state.to_move} won the last trick and leads, not {player}"


def hand_is_over(tricks_played: int) -> bool:
    """HEARTS-TRICK-3: the hand ends when all 13 tricks have been played."""
    return tricks_played >= TRICKS_PER_HAND


# --- HEARTS-BREAK-1, HEARTS-BREAK-2 -----------------------------------------------------------
def lead_hearts_problem(state: HeartsState, hand: frozenset[Card], card: Card) -> Refusal | None:
    """HEARTS-BREAK-1: no heart is led before hearts are broken, unless the leader holds only hearts."""
    if state.trick or state.hearts_broken or card.suit is not Suit.HEARTS:
        return None
    if all(held.suit is Suit.HEARTS for held in hand):
        return None
    return "HEARTS-BREAK-1", f"{state.to_move} may not lead {card.pretty}: hearts are not broken and he holds other suits"


def breaks_hearts(state: HeartsState, play: Play) -> bool:
    """HEARTS-BREAK-2: a heart played breaks hearts; with ``void``, so does any failure to
    follow suit; with HEARTS-QUEEN-2's ``queen_breaks``, so does the queen of spades."""
    if play.card.suit is Suit.HEARTS or queen_breaks_hearts(state.config, play.card):
        return True
    failed_to_follow = bool(state.trick) and play.card.suit is not state.trick[0].card.suit
    return state.config.break_on is BreakOn.VOID and failed_to_follow


# HEARTS-BREAK-3: every hand begins with hearts unbroken (see _apply_deal).


# --- HEARTS-FIRST-1 ---------------------------------------------------------------------------
def first_trick_problem(state: HeartsState, hand: frozenset[Card], card: Card) -> Refusal | None:
    """HEARTS-FIRST-1 (``no-hearts``): no heart to the first trick unless he holds only hearts."""
    if state.tricks_played or state.config.first_trick_points is not FirstTrickPoints.NO_HEARTS:
        return None
    if card.suit is not Suit.HEARTS or all(held.suit is Suit.HEARTS for held in hand):
        return None
    return "HEARTS-FIRST-1", f"{state.to_move} may not play {card.pretty} to the first trick: he holds cards other than hearts"


# --- HEARTS-QUEEN-1, HEARTS-QUEEN-2 -----------------------------------------------------------
def card_points(card: Card) -> int:
    """HEARTS-QUEEN-1 (the queen of spades is worth 13) and HEARTS-SCORE-1 (1 per heart)."""
    if card == QUEEN_OF_SPADES:
        return QUEEN_POINTS
    return HEART_POINTS if card.suit is Suit.HEARTS else 0


def queen_breaks_hearts(config: HeartsConfig, card: Card) -> bool:
    """HEARTS-QUEEN-2: no timing rule holds the queen of spades back, and she is not a heart, so
    no rule block above refuses her except by following suit. Whether playing her breaks hearts
    is the ``queen_breaks`` variation (default ``no``)."""
    return card == QUEEN_OF_SPADES and config.queen_breaks is QueenBreaks.YES


# The rule blocks that may refuse a card the player to move holds, in rulebook order.
def play_problem(state: HeartsState, play: Play) -> Refusal | None:
    """Why ``play`` is illegal in ``state`` (the first rule it breaks, in rulebook order), or None."""
    if state.phase is Phase.OVER:
        return "HEARTS-MATCH-1", f"the match is over; {play.player} cannot play {play.card.pretty}"
    if state.phase is Phase.CHOOSE_DEALER:
        return "HEARTS-DEAL-1", "no card can be played before the dealer is chosen"
    if state.phase is Phase.DEAL:
        return "HEARTS-DEAL-2", "no card can be played before the cards are dealt"
    refusal = seat_problem(play.player) or turn_problem(state, play.player)
    if refusal:
        return refusal
    if play.card not in DECK:
        return "HEARTS-DECK-1", f"{play.card.pretty} is not a card of the {len(DECK)}-card deck"
    hand = state.hands[play.player.index]
    if play.card not in hand:  # HEARTS-DEAL-2: a player plays only the cards dealt to him
        return "HEARTS-DEAL-2", f"{play.player} does not hold {play.card.pretty}"
    return (first_lead_problem(state, play.card) or follow_problem(state, hand, play.card)
            or lead_hearts_problem(state, hand, play.card) or first_trick_problem(state, hand, play.card))


# --- HEARTS-SCORE-1, HEARTS-MOON-1, HEARTS-MOON-2 ---------------------------------------------
def points(cards: Iterable[Card]) -> int:
    """HEARTS-SCORE-1: the points of the cards a player took."""
    return sum(card_points(card) for card in cards)


def points_in_play(dead: Iterable[Card]) -> frozenset[Card]:
    """HEARTS-MOON-2: the point cards in play, those that are not dead."""
    return POINT_CARDS - frozenset(dead)


def score_hand(taken: Sequence[Iterable[Card]], dead: Iterable[Card],
               config: HeartsConfig = HeartsConfig()) -> tuple[int, int]:
    """HEARTS-SCORE-1, HEARTS-MOON-1, HEARTS-MOON-2: the two players' scores for a hand."""
    taken_sets = (frozenset(taken[0]), frozenset(taken[1]))
    in_play = points_in_play(dead)
    for seat in SEATS:
        if in_play <= taken_sets[seat.index]:  # shooting the moon: every point card in play
            other_points = MOON_OTHER_POINTS if config.moon_score is MoonScore.TWENTY else points(in_play)
            return (MOON_SHOOTER_POINTS, other_points) if seat.index == 0 else (other_points, MOON_SHOOTER_POINTS)
    return points(taken_sets[0]), points(taken_sets[1])


# --- HEARTS-MATCH-1, HEARTS-MATCH-2, HEARTS-MATCH-3, HEARTS-GOAL-1 -----------------------------
def match_result(scores: tuple[int, int], config: HeartsConfig = HeartsConfig(),
                 previous: tuple[int, int] | None = None) -> Outcome | None:
    """HEARTS-MATCH-1/2 (and HEARTS-GOAL-1, the lower score wins): the outcome after a hand
    ending with ``scores``, or None to play on (HEARTS-MATCH-3: equal scores play on, uncapped).

    ``previous`` (the scores before that hand) only tells a broken tie (``TIE_BROKEN``) from a
    first arrival of both players at the target.
    """
    a, b = scores
    if not reached(a, config) and not reached(b, config):
        return None
    if not reached(a, config) or not reached(b, config):  # HEARTS-MATCH-1: the one who reached it loses
        return Outcome(Termination.ONE_REACHED_TARGET, SEATS[1] if reached(a, config) else SEATS[0], (a, b))
    if ties_play_on(a, b):  # HEARTS-MATCH-2, HEARTS-MATCH-3
        return None
    tied_before = previous is not None and previous[0] == previous[1] and reached(previous[0], config)
    termination = Termination.TIE_BROKEN if tied_before else Termination.BOTH_REACHED_LOWER_WINS
    return Outcome(termination, lower_score(a, b), (a, b))


def reached(score: int, config: HeartsConfig) -> bool:
    """HEARTS-MATCH-1: a player with this score has reached the target."""
    return score >= config.target


def ties_play_on(a: int, b: int) -> bool:
    """HEARTS-MATCH-2, HEARTS-MATCH-3: both have reached the target; equal scores play on."""
    return a == b


def lower_score(a: int, b: int) -> Seat:
    """HEARTS-GOAL-1: of two unequal scores, the player with the lower one wins."""
    return SEATS[0] if a < b else SEATS[1]


# --- the game API -----------------------------------------------------------------------------
def to_move(state: HeartsState) -> Seat | None:
    """The player to play a card; None at chance nodes and at the end."""
    return state.to_move


def is_chance(state: HeartsState) -> bool:
    """Chance moves next: the choice of the first dealer, or a deal."""
    return state.is_chance


def legal_moves(state: HeartsState) -> tuple[Play, ...]:
    """The legal plays of the player to move, in deck order; ``()`` at chance nodes and at the end."""
    if state.to_move is None:
        return ()
    seat = state.to_move
    plays = (Play(seat, card) for card in sorted(state.hands[seat.index]))
    return tuple(play for play in plays if play_problem(state, play) is None)


def chance_outcomes(state: HeartsState) -> Iterator[Move]:
    """Every chance move at a chance node, each equally likely: the two dealers, or every order of
    the deck (28! of them, generated lazily)."""
    if state.phase is Phase.CHOOSE_DEALER:
        return (ChooseDealer(seat) for seat in SEATS)
    if state.phase is Phase.DEAL:
        return (Deal(order) for order in itertools.permutations(DECK))
    return iter(())


def sample_chance(state: HeartsState, rng: SplitMix64) -> Move:
    """Draw the chance move of a chance node from ``rng``: the dealer by ``rng.below(2)``, a deal
    by shuffling ``DECK``."""
    if state.phase is Phase.CHOOSE_DEALER:
        return ChooseDealer(SEATS[rng.below(PLAYERS)])
    if state.phase is Phase.DEAL:
        return Deal(rng.shuffled(DECK))
    raise ValueError(f"not a chance node (phase {state.phase})")


def outcome(state: HeartsState) -> Outcome | None:
    """How the match ended, or None while it goes on."""
    return state.outcome


def apply(state: HeartsState, move: Move) -> HeartsState:
    """The state after ``move``; raises :class:`~cardcanon.model.errors.IllegalMoveError` naming
    the broken rule, or :class:`~cardcanon.model.errors.InvalidMoveError` for a non-move."""
    if not isinstance(move, MOVE_TYPES):
        raise InvalidMoveError(f"not a Hearts move: {move!r}")
    if isinstance(move, Play):
        refusal = play_problem(state, move)
        if refusal:
            raise IllegalMoveError(*refusal)
        return _apply_play(state, move)
    if state.phase is Phase.OVER:
        what = "a deal" if isinstance(move, Deal) else "a choice of dealer"  # not the move's long repr
        raise IllegalMoveError("HEARTS-MATCH-1", f"the match is over; no move is possible, not even {what}")
    if isinstance(move, ChooseDealer):
        return _apply_choose_dealer(state, move)
    return _apply_deal(state, move)


def _apply_choose_dealer(state: HeartsState, move: ChooseDealer) -> HeartsState:
    """HEARTS-DEAL-1: the first dealer is chosen at random, once."""
    if state.phase is not Phase.CHOOSE_DEALER:
        raise IllegalMoveError("HEARTS-DEAL-1", "the dealer is chosen once, before the first hand")
    refusal = seat_problem(move.dealer)
    if refusal:
        raise IllegalMoveError(*refusal)
    return replace(state, phase=Phase.DEAL, dealer=move.dealer)


def _apply_deal(state: HeartsState, move: Deal) -> HeartsState:
    """HEARTS-DECK-1, HEARTS-DEAL-2, then at once (HEARTS-PASS-1) HEARTS-LEAD-1/2: whoever holds the
    lowest live club leads; HEARTS-BREAK-3: hearts start unbroken."""
    if state.phase is Phase.CHOOSE_DEALER:
        raise IllegalMoveError("HEARTS-DEAL-1", "the dealer must be chosen before the first deal")
    if state.phase is not Phase.DEAL:
        raise IllegalMoveError("HEARTS-TRICK-3", f"the hand is not over: {state.tricks_played} of "
                                                 f"{TRICKS_PER_HAND} tricks played")
    refusal = deck_problem(move.order)
    if refusal:
        raise IllegalMoveError(*refusal)
    assert state.dealer is not None
    hands, dead = deal_hands(move.order, state.dealer)
    leader, _ = first_leader(hands, dead, state.config)
    return replace(state, phase=Phase.PLAY, hand_number=state.hand_number + 1, hands=hands, dead=dead, trick=(),
                   leader=leader, to_move=leader, hearts_broken=False, taken=(frozenset(), frozenset()),
                   tricks_played=0)


def _apply_play(state: HeartsState, play: Play) -> HeartsState:
    """A legal play: into the trick; a complete trick goes to its winner (HEARTS-TRICK-1), who
    leads next (HEARTS-TRICK-2); after the last trick the hand is scored (HEARTS-TRICK-3)."""
    seat = play.player
    hands = _with(state.hands, seat, state.hands[seat.index] - {play.card})
    broken = state.hearts_broken or breaks_hearts(state, play)
    if not state.trick:
        return replace(state, hands=hands, trick=(play,), to_move=other(seat), hearts_broken=broken)
    lead = state.trick[0]
    winner = seat if trick_winner(lead.card, play.card) == 1 else lead.player
    taken = _with(state.taken, winner, state.taken[winner.index] | {lead.card, play.card})
    tricks_played = state.tricks_played + 1
    after = replace(state, hands=hands, trick=(), leader=winner, to_move=winner, hearts_broken=broken,
                    taken=taken, tricks_played=tricks_played)
    return _end_hand(after) if hand_is_over(tricks_played) else after


def _end_hand(state: HeartsState) -> HeartsState:
    """HEARTS-SCORE-1 and HEARTS-MOON-1/2 score the hand; HEARTS-MATCH-1/2/3 decide whether the
    match goes on, and HEARTS-DEAL-1 passes the deal to the other player."""
    hand_score = score_hand(state.taken, state.dead, state.config)
    scores = (state.scores[0] + hand_score[0], state.scores[1] + hand_score[1])
    result = match_result(scores, state.config, previous=state.scores)
    return replace(state, phase=Phase.OVER if result else Phase.DEAL, scores=scores,
                   dealer=state.dealer if result else next_dealer(state), leader=None, to_move=None,
                   hand_scores=state.hand_scores + (hand_score,), outcome=result)


def _with(hands: Hands, seat: Seat, cards: frozenset[Card]) -> Hands:
    return (cards, hands[1]) if seat.index == 0 else (hands[0], cards)


def position_from_json(config: HeartsConfig, obj: Any, where: str) -> HeartsState:
    """The state of a position in its JSON form (:func:`cardcanon.model.hearts_records.position_to_json`);
    at the end, the outcome is :func:`match_result`'s."""
    return hearts_records.position_from_json(config, obj, where, match_result)


# --- the game API as one object (records: :mod:`cardcanon.model.hearts_records`) ----------------
Config = HeartsConfig
GAME: Game[HeartsConfig, HeartsState, Move, Outcome] = records.GameOfModules(sys.modules[__name__], hearts_records)
to_record, from_record, replay = GAME.to_record, GAME.from_record, GAME.replay
