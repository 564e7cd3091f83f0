"""Two-player Hearts: the table's numbers (read from the rulebook), the variation parameters, the
moves and the state. The rules that act on them are in :mod:`cardcanon.model.hearts`, which
re-exports everything here.

Every number of the game is a named value of a rule in ``spec/hearts.toml`` and is read from
the loaded rulebook; every variation point of the rulebook is a :class:`HeartsConfig` field
with the rulebook's name, options and default.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeAlias

import cardcanon.spec as spec
from cardcanon.model.cards import FULL_DECK, Card, Rank, Suit
from cardcanon.model.errors import OptionError
from cardcanon.model.game import CheckedMove
from cardcanon.model.options import OptionEnum, Variations
from cardcanon.model.seats import Seat

RULEBOOK = spec.load("hearts")
PLAYERS = RULEBOOK.value("HEARTS-PLAYERS-1", "players")
DECK_SIZE = RULEBOOK.value("HEARTS-DECK-1", "deck_size")
HAND_SIZE = RULEBOOK.value("HEARTS-DEAL-2", "hand_size")
DEAD_CARDS = RULEBOOK.value("HEARTS-DEAL-2", "dead_cards")
TRICKS_PER_HAND = RULEBOOK.value("HEARTS-TRICK-3", "tricks_per_hand")
HEART_POINTS = RULEBOOK.value("HEARTS-SCORE-1", "heart_points")
QUEEN_POINTS = RULEBOOK.value("HEARTS-QUEEN-1", "queen_points")
MOON_SHOOTER_POINTS = RULEBOOK.value("HEARTS-MOON-1", "moon_shooter_points")
MOON_OTHER_POINTS = RULEBOOK.value("HEARTS-MOON-1", "moon_other_points")
TARGET = RULEBOOK.value("HEARTS-MATCH-1", "target")

# HEARTS-PLAYERS-1: the seats at the table.
SEATS: tuple[Seat, ...] = tuple(Seat(i) for i in range(PLAYERS))
# HEARTS-DECK-1: the 2, 4, 6, 8, 10, queen and ace of each suit, in canonical order (clubs,
# diamonds, hearts, spades; 2..A). HEARTS-RANK-1: within a suit, deck order is rank order.
DECK_RANKS = (Rank.TWO, Rank.FOUR, Rank.SIX, Rank.EIGHT, Rank.TEN, Rank.QUEEN, Rank.ACE)
DECK: tuple[Card, ...] = tuple(c for c in FULL_DECK if c.rank in DECK_RANKS)
SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
QUEEN_OF_SPADES = Card(Rank.QUEEN, Suit.SPADES)
POINT_CARDS: frozenset[Card] = frozenset(c for c in DECK if c.suit is Suit.HEARTS) | {QUEEN_OF_SPADES}


def _check_table() -> None:
    """The rulebook's numbers fit together (they are checked where they are read)."""
    if len(DECK) != DECK_SIZE:
        raise spec.SpecError(RULEBOOK.file, f"deck_size = {DECK_SIZE}, but the ranks named leave {len(DECK)} cards",
                             entry="rule HEARTS-DECK-1", field="values.deck_size")
    if PLAYERS * HAND_SIZE + DEAD_CARDS != DECK_SIZE:
        raise spec.SpecError(RULEBOOK.file, f"{PLAYERS} hands of {HAND_SIZE} and {DEAD_CARDS} dead cards are not "
                             f"the {DECK_SIZE}-card deck", entry="rule HEARTS-DEAL-2", field="values")
    if TRICKS_PER_HAND * PLAYERS != PLAYERS * HAND_SIZE:
        raise spec.SpecError(RULEBOOK.file, f"{TRICKS_PER_HAND} tricks do not use hands of {HAND_SIZE} cards",
                             entry="rule HEARTS-TRICK-3", field="values.tricks_per_hand")


_check_table()


class Dealer(OptionEnum):  # HEARTS-DEAL-1
    ALTERNATE = "alternate"
    LOSER_DEALS = "loser-deals"


class FirstLead(OptionEnum):  # HEARTS-LEAD-3
    LOWEST_CLUB = "lowest-club"
    FREE = "free"


class BreakOn(OptionEnum):  # HEARTS-BREAK-2
    HEART_PLAYED = "heart-played"
    VOID = "void"


class FirstTrickPoints(OptionEnum):  # HEARTS-FIRST-1
    ALLOWED = "allowed"
    NO_HEARTS = "no-hearts"


class QueenBreaks(OptionEnum):  # HEARTS-QUEEN-2
    NO = "no"
    YES = "yes"


class MoonScore(OptionEnum):  # HEARTS-MOON-2
    TWENTY = "twenty"
    POINTS_IN_PLAY = "points-in-play"


# The variation points, by parameter name (the rulebook's ``[rule.variation]`` order), and the
# options the model does not play.
VARIATIONS: dict[str, type[OptionEnum]] = {
    "dealer": Dealer, "first_lead": FirstLead, "break_on": BreakOn, "first_trick_points": FirstTrickPoints,
    "queen_breaks": QueenBreaks, "moon_score": MoonScore,
}
NOT_MODELLED: tuple[OptionEnum, ...] = (Dealer.LOSER_DEALS,)


@dataclass(frozen=True)
class HeartsConfig(Variations):
    """The variation points of the rulebook, each defaulting to the canonical rule, and the target
    score (HEARTS-MATCH-1; a smaller one makes short matches for tests)."""

    _GAME, _VARIATIONS, _NOT_MODELLED = "hearts", VARIATIONS, NOT_MODELLED

    dealer: Dealer = Dealer.ALTERNATE
    first_lead: FirstLead = FirstLead.LOWEST_CLUB
    break_on: BreakOn = BreakOn.HEART_PLAYED
    first_trick_points: FirstTrickPoints = FirstTrickPoints.ALLOWED
    queen_breaks: QueenBreaks = QueenBreaks.NO
    moon_score: MoonScore = MoonScore.TWENTY
    target: int = TARGET

    def __post_init__(self) -> None:
        self.check_variations()
        if not isinstance(self.target, int) or isinstance(self.target, bool) or self.target < 1:
            raise OptionError("HEARTS-MATCH-1", f"target must be a positive integer, not {self.target!r}")

    @property
    def deck(self) -> tuple[Card, ...]:
        """The cards of this table (HEARTS-DECK-1), as ``SnapConfig.deck``."""
        return DECK


# --- moves ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ChooseDealer(CheckedMove):
    """Chance: the dealer of the first hand (HEARTS-DEAL-1)."""

    dealer: Seat

    def __str__(self) -> str:
        return f"{self.dealer} deals first"


@dataclass(frozen=True)
class Deal(CheckedMove):
    """Chance: the shuffled deck, ``order[0]`` the top card (HEARTS-DEAL-2)."""

    order: tuple[Card, ...]

    def __str__(self) -> str:
        return "the cards are dealt"


@dataclass(frozen=True)
class Play(CheckedMove):
    """A player plays a card to the current trick."""

    player: Seat
    card: Card

    def __str__(self) -> str:
        return f"{self.player} plays {self.card.pretty}"


Move: TypeAlias = ChooseDealer | Deal | Play
MOVE_TYPES = (ChooseDealer, Deal, Play)


class Phase(OptionEnum):
    CHOOSE_DEALER = "choose-dealer"  # chance
    DEAL = "deal"  # chance
    PLAY = "play"
    OVER = "over"


class Termination(OptionEnum):
    ONE_REACHED_TARGET = "one-reached-target"  # HEARTS-MATCH-1
    BOTH_REACHED_LOWER_WINS = "both-reached-lower-wins"  # HEARTS-MATCH-2
    TIE_BROKEN = "tie-broken"  # HEARTS-MATCH-2, after one or more tied hands


@dataclass(frozen=True)
class Outcome:
    termination: Termination
    winner: Seat
    scores: tuple[int, int]


Hands: TypeAlias = tuple[frozenset[Card], frozenset[Card]]
NO_CARDS: Hands = (frozenset(), frozenset())


@dataclass(frozen=True)
class HeartsState:
    """A match position. Immutable; :func:`cardcanon.model.hearts.apply` returns a new one.

    ``hand_number`` counts the hands dealt so far. ``dealer`` is the dealer of the current hand
    (during ``DEAL``, of the hand about to be dealt). ``trick`` holds the plays of the current
    trick (none or one: a complete trick goes at once to the winner's ``taken``). After a hand
    ends, ``taken`` and ``dead`` still show it until the next deal. ``outcome`` is set when the
    match is over.
    """

    config: HeartsConfig = field(default_factory=HeartsConfig)
    phase: Phase = Phase.CHOOSE_DEALER
    scores: tuple[int, int] = (0, 0)
    hand_number: int = 0
    dealer: Seat | None = None
    hands: Hands = NO_CARDS
    dead: tuple[Card, ...] = ()
    trick: tuple[Play, ...] = ()
    leader: Seat | None = None
    to_move: Seat | None = None
    hearts_broken: bool = False
    taken: Hands = NO_CARDS
    tricks_played: int = 0
    hand_scores: tuple[tuple[int, int], ...] = ()
    outcome: Outcome | None = None

    def __post_init__(self) -> None:
        problem = _state_problem(self)
        if problem:
            raise ValueError(f"not a Hearts position: {problem}")

    @property
    def is_chance(self) -> bool:
        """Chance moves next: the choice of the first dealer, or a deal."""
        return self.phase is Phase.CHOOSE_DEALER or self.phase is Phase.DEAL


def _state_problem(state: HeartsState) -> str | None:
    """What makes ``state`` impossible, or None."""
    if not isinstance(state.config, HeartsConfig) or not isinstance(state.phase, Phase):
        return "config and phase must be a HeartsConfig and a Phase"
    for name in ("dealer", "leader", "to_move"):
        seat = getattr(state, name)
        if seat is not None and seat not in SEATS:
            return f"{name} {seat} is not one of the {PLAYERS} seats"
    if len(state.hands) != PLAYERS or len(state.taken) != PLAYERS:
        return f"hands and taken hold one set of cards per player ({PLAYERS})"
    placed = [*state.hands[0], *state.hands[1], *state.taken[0], *state.taken[1], *state.dead,
              *(play.card for play in state.trick)]
    cards = set(placed)
    if not cards <= set(DECK):
        return "every card must be one of the 28-card deck (HEARTS-DECK-1)"
    if len(cards) != len(placed):
        return "a card is in two places"
    if len(state.dead) not in (0, DEAD_CARDS) or len(state.trick) >= PLAYERS:
        return f"{DEAD_CARDS} dead cards and at most {PLAYERS - 1} play in the current trick"
    if not 0 <= state.tricks_played <= TRICKS_PER_HAND:
        return f"tricks_played {state.tricks_played} is outside 0..{TRICKS_PER_HAND}"
    if state.phase is Phase.PLAY and (state.to_move is None or state.leader is None):
        return "during play someone is to move"
    if state.phase is not Phase.PLAY and state.to_move is not None:
        return f"nobody moves in phase {state.phase}"
    if (state.phase is Phase.OVER) != (state.outcome is not None):
        return "the outcome is set exactly when the match is over"
    return None
