"""Typed playing cards shared by both games.

The canonical deck order (used by the portable shuffle) is suit-major: clubs, diamonds,
hearts, spades, and within each suit the ranks from two up to ace.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field


class Suit(enum.Enum):
    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def index(self) -> int:
        return _SUIT_ORDER.index(self)

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


_SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}


class Rank(enum.IntEnum):
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def label(self) -> str:
        return _RANK_LABELS.get(self, str(int(self)))

    def __repr__(self) -> str:
        return f"Rank.{self.name}"


_RANK_LABELS = {Rank.TEN: "T", Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K", Rank.ACE: "A"}
_LABEL_RANKS = {**{str(int(r)): r for r in Rank}, **{v: k for k, v in _RANK_LABELS.items()}}
_LETTER_SUITS = {s.value: s for s in Suit} | {s.symbol: s for s in Suit}


class CardParseError(ValueError):
    """A card name that does not name a card."""


@dataclass(frozen=True, eq=True)
class Card:
    """One playing card. ``str`` gives the short name (``"Qs"``); ``pretty`` uses suit symbols.

    Cards order and hash by their position in the canonical deck order (:attr:`index`).
    """

    rank: Rank
    suit: Suit
    index: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.rank, Rank) or not isinstance(self.suit, Suit):
            raise TypeError(f"a card needs a Rank and a Suit, not {self.rank!r} and {self.suit!r}")
        # position in the canonical 52-card order (0 = 2♣ ... 51 = A♠)
        object.__setattr__(self, "index", self.suit.index * 13 + (int(self.rank) - 2))

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index >= other.index

    @property
    def pretty(self) -> str:
        label = "10" if self.rank is Rank.TEN else self.rank.label
        return f"{label}{self.suit.symbol}"

    def __str__(self) -> str:
        return f"{self.rank.label}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``"Qs"``, ``"10h"``, ``"Th"`` or ``"Q♠"``; raises :class:`CardParseError`."""
        if not isinstance(text, str) or len(text) < 2:
            raise CardParseError(f"not a card: {text!r}")
        rank = _LABEL_RANKS.get(text[:-1].upper())
        suit = _LETTER_SUITS.get(text[-1].lower())
        if rank is None or suit is None:
            raise CardParseError(f"not a card: {text!r} (expected rank 2-10/T/J/Q/K/A and suit c/d/h/s)")
        return cls(rank, suit)

    @classmethod
    def from_index(cls, index: int) -> Card:
        return FULL_DECK[index]


FULL_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in _SUIT_ORDER for rank in Rank)


def format_cards(cards: Iterable[Card], pretty: bool = True) -> str:
    return " ".join(c.pretty if pretty else str(c) for c in cards)
