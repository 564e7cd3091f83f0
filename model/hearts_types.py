"""Two-player Hearts: the deck, the variation parameters, the moves and the state.

The rules that act on these types are in :mod:`cardcanon.model.hearts`, which re-exports
everything here. A state keeps the hands and the cards taken as 28-bit masks over :data:`DECK`
(bit ``i`` is ``DECK[i]``), which make the legal-move and follow-suit tests a few integer
operations; their public view, ``hands`` and ``taken`` (``frozenset[Card]`` pairs), is built from
the masks when first read (or given to the constructor, and the masks derived from it).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Union

from cardcanon.model.cards import FULL_DECK, Card, Rank, Suit
from cardcanon.model.seats import Seat

# HEARTS-DECK-1: the 2, 4, 6, 8, 10, queen and ace of each suit, in canonical order
# (clubs, diamonds, hearts, spades; 2..A). HEARTS-RANK-1: within a suit, deck order is rank order.
DECK_RANKS = (Rank.TWO, Rank.FOUR, Rank.SIX, Rank.EIGHT, Rank.TEN, Rank.QUEEN, Rank.ACE)
DECK: tuple[Card, ...] = tuple(c for c in FULL_DECK if c.rank in DECK_RANKS)
SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
QUEEN_OF_SPADES = next(c for c in DECK if c.rank is Rank.QUEEN and c.suit is Suit.SPADES)
POINT_CARDS: frozenset[Card] = frozenset(c for c in DECK if c.suit is Suit.HEARTS) | {QUEEN_OF_SPADES}
SEATS = (Seat(0), Seat(1))  # HEARTS-PLAYERS-1

# --- masks over DECK --------------------------------------------------------------------------
FULL_MASK = (1 << len(DECK)) - 1
SUIT_MASK = {suit: 0b1111111 << (7 * i) for i, suit in enumerate(SUITS)}
HEARTS_MASK = SUIT_MASK[Suit.HEARTS]
NON_HEARTS_MASK = FULL_MASK & ~HEARTS_MASK
# Deck positions by object identity: a fast path for the DECK instances themselves, which DECK
# keeps alive (so their ids are never reused). Equal cards built elsewhere take the slow path.
DECK_INDEX_BY_ID = {id(card): i for i, card in enumerate(DECK)}
_INDEX_BY_CARD = {card: i for i, card in enumerate(DECK)}
# _CARDS_BY_PATTERN[k][p]: the cards of suit number k whose 7-bit pattern (by rank) is p.
_CARDS_BY_PATTERN = tuple(
    tuple(frozenset(DECK[7 * k + r] for r in range(7) if p >> r & 1) for p in range(128)) for k in range(4)
)


def deck_index(card: Card) -> int | None:
    """The card's position in :data:`DECK`, or None if it is not one of the 28 cards."""
    index = DECK_INDEX_BY_ID.get(id(card))  # fast path: the DECK instances themselves
    return index if index is not None else _INDEX_BY_CARD.get(card)


def deck_indices(cards) -> list[int | None]:
    """:func:`deck_index` of each card."""
    if not isinstance(cards, (list, tuple)):
        cards = list(cards)
    indices = list(map(DECK_INDEX_BY_ID.get, map(id, cards)))
    if None in indices:
        indices = [deck_index(card) for card in cards]
    return indices


def mask_of(cards) -> int:
    """The mask of some cards of :data:`DECK` (cards outside the deck are ignored)."""
    mask = 0
    for card in cards:
        index = DECK_INDEX_BY_ID.get(id(card))  # the fast path of deck_index
        if index is None:
            index = _INDEX_BY_CARD.get(card)
        if index is not None:
            mask |= 1 << index
    return mask


def cards_of(mask: int) -> frozenset[Card]:
    """The cards of a mask over :data:`DECK`, as a frozenset (the inverse of :func:`mask_of`)."""
    clubs, diamonds, hearts, spades = _CARDS_BY_PATTERN
    return clubs[mask & 127].union(diamonds[mask >> 7 & 127], hearts[mask >> 14 & 127], spades[mask >> 21 & 127])


class _Enum(enum.Enum):
    """An enum whose ``repr`` is valid Python (``BreakOn.VOID``)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    def __str__(self) -> str:
        return str(self.value)


class FirstLead(_Enum):  # HEARTS-LEAD-3
    LOWEST_CLUB = "lowest-club"
    FREE = "free"


class BreakOn(_Enum):  # HEARTS-BREAK-2
    HEART_PLAYED = "heart-played"
    VOID = "void"


class FirstTrickPoints(_Enum):  # HEARTS-FIRST-1
    ALLOWED = "allowed"
    NO_HEARTS = "no-hearts"


class MoonScore(_Enum):  # HEARTS-MOON-2
    TWENTY = "twenty"
    POINTS_IN_PLAY = "points-in-play"


@dataclass(frozen=True)
class HeartsConfig:
    """The variation points of the rulebook, each defaulting to the canonical rule."""

    first_lead: FirstLead = FirstLead.LOWEST_CLUB
    break_on: BreakOn = BreakOn.HEART_PLAYED
    first_trick_points: FirstTrickPoints = FirstTrickPoints.ALLOWED
    moon_score: MoonScore = MoonScore.TWENTY
    target: int = 100  # HEARTS-MATCH-1

    def __post_init__(self) -> None:
        for name, kind in (("first_lead", FirstLead), ("break_on", BreakOn),
                           ("first_trick_points", FirstTrickPoints), ("moon_score", MoonScore)):
            if not isinstance(getattr(self, name), kind):
                raise TypeError(f"{name} must be a {kind.__name__}, not {getattr(self, name)!r}")
        if not isinstance(self.target, int) or isinstance(self.target, bool) or self.target < 1:
            raise ValueError(f"target must be a positive integer, not {self.target!r}")


# --- moves ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ChooseDealer:
    """Chance: the dealer of the first hand (HEARTS-DEAL-1)."""

    dealer: Seat


@dataclass(frozen=True)
class Deal:
    """Chance: the shuffled deck, ``order[0]`` the top card (HEARTS-DEAL-2)."""

    order: tuple[Card, ...]


@dataclass(frozen=True)
class Play:
    """A player plays a card to the current trick."""

    player: Seat
    card: Card


Move = Union[ChooseDealer, Deal, Play]


class Phase(_Enum):
    CHOOSE_DEALER = "choose-dealer"  # chance
    DEAL = "deal"  # chance
    PLAY = "play"
    OVER = "over"


class Termination(_Enum):
    ONE_REACHED_TARGET = "one-reached-target"  # HEARTS-MATCH-1
    BOTH_REACHED_LOWER_WINS = "both-reached-lower-wins"  # HEARTS-MATCH-2
    TIE_BROKEN = "tie-broken"  # HEARTS-MATCH-2, after one or more tied hands


@dataclass(frozen=True)
class Outcome:
    termination: Termination
    winner: Seat
    scores: tuple[int, int]


_NO_CARDS: frozenset[Card] = frozenset()


def _no_cards() -> tuple[frozenset[Card], frozenset[Card]]:
    return _NO_CARDS, _NO_CARDS


def _is_chance_phase(phase: Phase) -> bool:
    return phase is Phase.CHOOSE_DEALER or phase is Phase.DEAL


@dataclass(frozen=True)
class HeartsState:
    """A match position. Immutable; :func:`cardcanon.model.hearts.apply` returns a new one.

    ``hand_number`` counts the hands dealt so far. ``dealer`` is the dealer of the current hand
    (during ``DEAL``, of the hand about to be dealt). ``trick`` holds the plays of the current
    trick (0 or 1: a complete trick is moved at once to the winner's ``taken``). After a hand
    ends, ``taken`` and ``dead`` still show it until the next deal. ``outcome`` is set when the
    match is over.
    """

    config: HeartsConfig = HeartsConfig()
    phase: Phase = Phase.CHOOSE_DEALER
    scores: tuple[int, int] = (0, 0)
    hand_number: int = 0
    dealer: Seat | None = None
    hands: tuple[frozenset[Card], frozenset[Card]] = field(default_factory=_no_cards)
    dead: tuple[Card, ...] = ()
    trick: tuple[Play, ...] = ()
    leader: Seat | None = None
    to_move: Seat | None = None
    hearts_broken: bool = False
    taken: tuple[frozenset[Card], frozenset[Card]] = field(default_factory=_no_cards)
    tricks_played: int = 0
    hand_scores: tuple[tuple[int, int], ...] = ()
    outcome: Outcome | None = None
    # ``hands`` and ``taken`` as masks over DECK. ``apply`` sets only the masks; ``hands`` and
    # ``taken`` (no class attribute, thanks to ``default_factory``) are then built when first read.
    hand_masks: tuple[int, int] = field(init=False, repr=False, compare=False)
    taken_masks: tuple[int, int] = field(init=False, repr=False, compare=False)
    # True when chance moves next (``CHOOSE_DEALER``, ``DEAL``); derived from ``phase``.
    is_chance: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "hand_masks", (mask_of(self.hands[0]), mask_of(self.hands[1])))
        object.__setattr__(self, "taken_masks", (mask_of(self.taken[0]), mask_of(self.taken[1])))
        object.__setattr__(self, "is_chance", _is_chance_phase(self.phase))

    def __getattr__(self, name: str):
        """Build ``hands`` or ``taken`` from its masks on first read (only called when missing)."""
        if name == "hands":
            masks = self.hand_masks
        elif name == "taken":
            masks = self.taken_masks
        else:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        value = (cards_of(masks[0]), cards_of(masks[1]))
        object.__setattr__(self, name, value)
        return value


_new = object.__new__


def evolve(state: HeartsState, **changes) -> HeartsState:
    """``dataclasses.replace`` without re-running ``__init__``: the fields are already checked.

    Hands and cards taken change through ``hand_masks`` and ``taken_masks`` only: ``hands`` and
    ``taken`` are then dropped, to be rebuilt from the masks when read.
    """
    if "hands" in changes or "taken" in changes:
        raise TypeError("evolve changes hands and cards taken through hand_masks and taken_masks")
    new = _new(HeartsState)
    object.__setattr__(new, "__dict__", state.__dict__.copy())
    fields = new.__dict__
    fields.update(changes)
    if "hand_masks" in changes:
        fields.pop("hands", None)
    if "taken_masks" in changes:
        fields.pop("taken", None)
    if "phase" in changes:
        fields["is_chance"] = _is_chance_phase(changes["phase"])
    return new
