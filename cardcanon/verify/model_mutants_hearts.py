"""Model mutants of the Hearts reference model (see :mod:`cardcanon.verify.model_mutants`).

Each patch replaces the model's rule-block function for one rule (``beats``, ``next_dealer``,
``follow_problem``, ``score_hand``, ...).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from cardcanon.model import hearts as _hearts
from cardcanon.model.cards import Card, Rank, Suit
from cardcanon.model.hearts_types import Outcome, Termination
from cardcanon.verify.model_mutants import ModelMutant, Patch, replaces, wraps

if TYPE_CHECKING:
    from cardcanon.model.hearts import Deal, HeartsConfig, HeartsState, Play, Refusal
    from cardcanon.model.seats import Seat

HEARTS = "cardcanon.model.hearts"
m: Any = _hearts  # the model module: patches read its attributes when they run, as the model does


# ---- tricks ---------------------------------------------------------------------------------------
def _beats(rule: str) -> Callable[[Card, Card], bool]:
    """A broken ``beats(card, other)``: whether the follower's ``card`` wins."""
    def beats(card: Card, other: Card) -> bool:
        if rule == "no-trump":  # HEARTS-TRUMP-1 broken
            return card.suit is other.suit and card.rank > other.rank
        if rule == "lower-wins":  # HEARTS-RANK-1 broken
            if card.suit is other.suit:
                return card.rank < other.rank
            return card.suit is Suit.HEARTS
        return card.rank > other.rank  # HEARTS-TRICK-1 broken: the higher card, whatever its suit

    return beats


# ---- scoring ---------------------------------------------------------------------------------------
def _score(*, queen: int = 13, heart: int = 1, moon_other: int = 20, moon_needs_all: bool = False) -> Patch:
    def points(cards: Iterable[Card]) -> int:
        return sum(queen if c == m.QUEEN_OF_SPADES else heart if c.suit is Suit.HEARTS else 0 for c in cards)

    def score_hand(taken: Sequence[Iterable[Card]], dead: Iterable[Card], config: HeartsConfig) -> tuple[int, int]:
        taken = (frozenset(taken[0]), frozenset(taken[1]))
        every = frozenset(c for c in m.DECK if c == m.QUEEN_OF_SPADES or c.suit is Suit.HEARTS)
        in_play = every if moon_needs_all else every - frozenset(dead)
        for seat in (0, 1):
            if in_play <= taken[seat]:
                other = moon_other if config.moon_score.value == "twenty" else points(in_play)
                return (0, other) if seat == 0 else (other, 0)
        return points(taken[0]), points(taken[1])

    return replaces(HEARTS, "score_hand", score_hand)


# ---- the match -------------------------------------------------------------------------------------
def _match(rule: str) -> Patch:
    def match_result(scores: tuple[int, int], config: HeartsConfig | None = None,
                     previous: tuple[int, int] | None = None) -> Outcome | None:
        a, b = scores
        target = (config or m.HeartsConfig()).target
        if a < target and b < target:
            return None
        if a < target or b < target:
            loser = 0 if a >= target else 1
            winner = loser if rule == "reached-wins" else 1 - loser  # HEARTS-MATCH-1 broken
            return Outcome(Termination.ONE_REACHED_TARGET, m.SEATS[winner], (a, b))
        if a == b:
            if rule == "tie-ends":  # HEARTS-MATCH-2 broken: a tie past the target ends the match
                return Outcome(Termination.BOTH_REACHED_LOWER_WINS, m.SEATS[0], (a, b))
            return None
        tied_before = previous is not None and previous[0] == previous[1]
        if rule != "tie-label":  # the label bug: a tie below the target counts as one broken
            tied_before = tied_before and previous is not None and previous[0] >= target
        lower = 0 if a < b else 1
        winner = 1 - lower if rule == "higher-wins" else lower  # HEARTS-GOAL-1 broken
        return Outcome(Termination.TIE_BROKEN if tied_before else Termination.BOTH_REACHED_LOWER_WINS,
                       m.SEATS[winner], (a, b))

    return replaces(HEARTS, "match_result", match_result)


def _broken_carries(original: Callable[..., HeartsState], state: HeartsState, move: Deal) -> HeartsState:
    return replace(original(state, move), hearts_broken=bool(state.hearts_broken))  # from the hand before


def _discard_unbroken(original: Callable[..., bool], state: HeartsState, play: Play) -> bool:
    discard = bool(state.trick) and play.card.suit is Suit.HEARTS and state.trick[0].card.suit is not Suit.HEARTS
    return original(state, play) and not discard  # HEARTS-BREAK-2 broken: only a heart led breaks hearts


def _void_unbroken(state: HeartsState, play: Play) -> bool:
    return play.card.suit is Suit.HEARTS or m.queen_breaks_hearts(state.config, play.card)  # the void clause gone


# ---- the deal and the first lead -------------------------------------------------------------------
def _no_six_clause(original: Callable[..., Card], dead: Collection[Card]) -> Card:
    # HEARTS-LEAD-2 without its last sentence: the next club leads
    if m.FIRST_LEAD_CLUBS[0] in dead and m.FIRST_LEAD_CLUBS[1] in dead:
        clubs: list[Card] = [c for c in m.DECK if c.suit is Suit.CLUBS]
        return next(c for c in clubs[3:] if c not in dead)
    return original(dead)


def _first_lead(rule: str) -> Callable[..., Card | None]:
    def forced(original: Any, dead: Iterable[Card], config: HeartsConfig) -> Card | None:
        card: Card | None = original(dead, config)
        return None if rule == "free" or card != m.TWO_OF_CLUBS else card

    return forced


# ---- legal play ------------------------------------------------------------------------------------
def _no_hearts_bans_queen(original: Any, state: HeartsState, hand: frozenset[Card], card: Card) -> Refusal | None:
    refusal: Refusal | None = original(state, hand, card)
    qs = m.QUEEN_OF_SPADES
    if refusal or card != qs or state.tricks_played or state.config.first_trick_points.value != "no-hearts":
        return refusal
    if any(c.suit is not Suit.HEARTS and c != qs for c in hand):
        return "HEARTS-FIRST-1", f"{state.to_move} may not play {card.pretty} to the first trick"
    return None


# ---- rules no check cited before ---------------------------------------------------------------------
def _loser_leads(original: Any, state: HeartsState, play: Play) -> HeartsState:
    after: HeartsState = original(state, play)  # HEARTS-TRICK-2 broken: the loser leads next
    if state.trick and after.phase is m.Phase.PLAY and after.tricks_played == state.tricks_played + 1:
        loser = m.other(after.leader)
        return replace(after, leader=loser, to_move=loser)
    return after


def _queen_held_back(original: Any, state: HeartsState, hand: frozenset[Card], card: Card) -> Refusal | None:
    qs = m.QUEEN_OF_SPADES  # HEARTS-QUEEN-2 broken: the queen may not be led before hearts are broken
    if card == qs and not state.trick and not state.hearts_broken and any(c != qs for c in hand):
        return "HEARTS-QUEEN-2", f"{state.to_move} may not lead the queen of spades before hearts are broken"
    refusal: Refusal | None = original(state, hand, card)
    return refusal


def _pass_highest(original: Any, order: Sequence[Card], dealer: Seat) -> tuple[tuple[frozenset[Card], frozenset[Card]],
                                                                                 tuple[Card, ...]]:
    (a, b), dead = original(order, dealer)  # HEARTS-PASS-1 broken: each passes his highest card to the other
    top_a, top_b = max(a), max(b)
    return (a - {top_a} | {top_b}, b - {top_b} | {top_a}), dead


def _deck_kings() -> dict[tuple[str, str], Any]:
    deck = tuple(Card(Rank.KING, c.suit) if c.rank is Rank.ACE else c for c in m.DECK)
    return {(HEARTS, "DECK"): deck, ("cardcanon.model.hearts_types", "DECK"): deck}  # HEARTS-DECK-1 broken


def _leader_plays_again(original: Any, state: HeartsState, player: Seat) -> Refusal | None:
    if state.trick and player == state.trick[0].player:
        return None  # HEARTS-TRICK-4 broken: the leader may play to his own trick again
    refusal: Refusal | None = original(state, player)
    return refusal


def _queen_breaks_on_discard(original: Callable[..., bool], state: HeartsState, play: Play) -> bool:
    led_or_in_suit = not state.trick or state.trick[0].card.suit is Suit.SPADES
    if play.card == m.QUEEN_OF_SPADES and led_or_in_suit:  # HEARTS-QUEEN-2 broken: queen_breaks read as discards only
        return original(replace(state, config=replace(state.config, queen_breaks=m.QueenBreaks.NO)), play)
    return original(state, play)


def _one_player_tricks(original: Any, state: HeartsState, play: Play) -> HeartsState:
    after: HeartsState = original(state, play)  # HEARTS-TRICK-4 broken: the leader plays both cards
    return replace(after, to_move=play.player) if not state.trick else after


HEARTS_MUTANTS = (
    ModelMutant("hearts-not-trump", "hearts", "HEARTS-TRUMP-1", "a heart on another suit does not win",
                replaces(HEARTS, "beats", _beats("no-trump"))),
    ModelMutant("lower-card-wins", "hearts", "HEARTS-RANK-1", "the lower card of the suit led wins",
                replaces(HEARTS, "beats", _beats("lower-wins"))),
    ModelMutant("higher-rank-any-suit", "hearts", "HEARTS-TRICK-1", "the higher card wins whatever its suit",
                replaces(HEARTS, "beats", _beats("any-suit"))),
    ModelMutant("twelve-tricks", "hearts", "HEARTS-TRICK-3", "a hand ends after 12 tricks",
                lambda: {(HEARTS, "TRICKS_PER_HAND"): m.TRICKS_PER_HAND - 1}),
    ModelMutant("queen-12", "hearts", "HEARTS-QUEEN-1", "the queen of spades is worth 12", _score(queen=12)),
    ModelMutant("hearts-two", "hearts", "HEARTS-SCORE-1", "each heart is worth 2", _score(heart=2)),
    ModelMutant("moon-26", "hearts", "HEARTS-MOON-1", "shooting the moon gives the other player 26",
                _score(moon_other=26)),
    ModelMutant("moon-needs-dead", "hearts", "HEARTS-MOON-2", "a moon needs every point card, dead ones too",
                _score(moon_needs_all=True)),
    ModelMutant("reached-wins", "hearts", "HEARTS-MATCH-1", "the player who reaches the target wins",
                _match("reached-wins")),
    ModelMutant("tie-ends-match", "hearts", "HEARTS-MATCH-2", "equal scores past the target end the match",
                _match("tie-ends")),
    ModelMutant("tie-label-below-target", "hearts", "HEARTS-MATCH-2",
                "a match is labelled tie-broken when the scores before were equal, even below the target",
                _match("tie-label")),
    ModelMutant("higher-wins", "hearts", "HEARTS-GOAL-1", "when both pass the target the higher score wins",
                _match("higher-wins")),
    ModelMutant("dealer-stays", "hearts", "HEARTS-DEAL-1", "the dealer never changes",
                replaces(HEARTS, "next_dealer", lambda state: state.dealer)),
    ModelMutant("broken-carries", "hearts", "HEARTS-BREAK-3", "hearts broken in one hand stay broken in the next",
                wraps(HEARTS, "_apply_deal", _broken_carries)),
    ModelMutant("discard-unbroken", "hearts", "HEARTS-BREAK-2",
                "a heart discarded to a trick led in another suit does not break hearts",
                wraps(HEARTS, "breaks_hearts", _discard_unbroken)),
    ModelMutant("void-unbroken", "hearts", "HEARTS-BREAK-2",
                "with break_on = void, failing to follow suit with a card other than a heart breaks nothing",
                replaces(HEARTS, "breaks_hearts", _void_unbroken), {"break_on": "void"}),
    ModelMutant("deal-from-dealer", "hearts", "HEARTS-DEAL-2", "the dealer deals the first card to himself",
                wraps(HEARTS, "deal_hands", lambda deal, order, dealer: deal(order, m.other(dealer)))),
    ModelMutant("no-six-clause", "hearts", "HEARTS-LEAD-2", "with the 2 and 4 of clubs dead, the next club above the"
                " 6 names the leader", wraps(HEARTS, "first_lead_club", _no_six_clause)),
    ModelMutant("first-lead-free", "hearts", "HEARTS-LEAD-1", "the first leader may lead any card",
                wraps(HEARTS, "forced_first_lead", _first_lead("free"))),
    ModelMutant("only-two-forced", "hearts", "HEARTS-LEAD-3", "only the 2 of clubs must be led; the 4 or 6 need not",
                wraps(HEARTS, "forced_first_lead", _first_lead("two-only"))),
    ModelMutant("heart-lead-anytime", "hearts", "HEARTS-BREAK-1", "hearts may be led before they are broken",
                replaces(HEARTS, "lead_hearts_problem", lambda state, hand, card: None)),
    ModelMutant("no-hearts-bans-queen", "hearts", "HEARTS-FIRST-1",
                "the no-hearts option also keeps the queen of spades off the first trick",
                wraps(HEARTS, "first_trick_problem", _no_hearts_bans_queen), {"first_trick_points": "no-hearts"}),
    ModelMutant("no-follow", "hearts", "HEARTS-FOLLOW-1", "the second player need not follow suit",
                replaces(HEARTS, "follow_problem", lambda state, hand, card: None)),
    # rules no check cited before
    ModelMutant("third-player", "hearts", "HEARTS-PLAYERS-1", "a seat other than player 0 and player 1 may take part",
                replaces(HEARTS, "seat_problem", lambda seat: None)),
    ModelMutant("leader-plays-second", "hearts", "HEARTS-TRICK-4",
                "the leader, not the other player, plays the second card of a trick",
                wraps(HEARTS, "_apply_play", _one_player_tricks)),
    ModelMutant("leader-plays-twice", "hearts", "HEARTS-TRICK-4",
                "the leader may also play the second card of his own trick",
                wraps(HEARTS, "turn_problem", _leader_plays_again)),
    ModelMutant("loser-leads", "hearts", "HEARTS-TRICK-2", "the loser of a trick leads to the next",
                wraps(HEARTS, "_apply_play", _loser_leads)),
    ModelMutant("hand-begins-broken", "hearts", "HEARTS-BREAK-3", "every hand begins with hearts broken",
                wraps(HEARTS, "_apply_deal", lambda deal, state, move: replace(deal(state, move), hearts_broken=True))),
    ModelMutant("queen-breaks-hearts", "hearts", "HEARTS-QUEEN-2", "playing the queen of spades breaks hearts",
                replaces(HEARTS, "queen_breaks_hearts", lambda config, card: card == m.QUEEN_OF_SPADES)),
    ModelMutant("queen-held-back", "hearts", "HEARTS-QUEEN-2",
                "the queen of spades may not be led before hearts are broken",
                wraps(HEARTS, "lead_hearts_problem", _queen_held_back)),
    ModelMutant("queen-breaks-on-discard", "hearts", "HEARTS-QUEEN-2",
                "with queen_breaks = yes, the queen of spades breaks hearts only when discarded, not when led or"
                " followed in suit", wraps(HEARTS, "breaks_hearts", _queen_breaks_on_discard), {"queen_breaks": "yes"}),
    ModelMutant("pass-highest-card", "hearts", "HEARTS-PASS-1", "after the deal each player passes his highest card",
                wraps(HEARTS, "deal_hands", _pass_highest)),
    ModelMutant("deck-kings-not-aces", "hearts", "HEARTS-DECK-1", "the deck has the kings instead of the aces",
                _deck_kings),
)
