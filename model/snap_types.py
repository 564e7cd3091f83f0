"""Snap: the table's numbers (read from the rulebook), the variation parameters, the moves and
the state. The rules that act on them are in :mod:`cardcanon.model.snap`, which re-exports
everything here.

Every variation point of the rulebook is a :class:`SnapConfig` field with the rulebook's name,
options and default: ``next_turn`` (SNAP-TURN-2) and ``index_card`` (SNAP-INDEX-1, a switch:
``off``/``on`` is ``False``/``True``) are modelled. Options the rulebook marks "not modelled"
raise :class:`~cardcanon.model.errors.NotModelledError` naming their rule when chosen. The
numbers (2 to 12 players, the 52-card deck) are read from the rulebook.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

import cardcanon.spec as spec
from cardcanon.model import snap_endings
from cardcanon.model.cards import FULL_DECK, Card
from cardcanon.model.errors import OptionError
from cardcanon.model.game import CheckedMove
from cardcanon.model.options import OptionEnum, Variations
from cardcanon.model.seats import Seat, seats_text

name = "snap"
RULEBOOK = spec.load("snap")
MIN_PLAYERS = RULEBOOK.value("SNAP-PLAYERS-1", "min_players")
MAX_PLAYERS = RULEBOOK.value("SNAP-PLAYERS-1", "max_players")
DECK_SIZE = RULEBOOK.value("SNAP-DECK-1", "deck_size")
if len(FULL_DECK) != DECK_SIZE:
    raise spec.SpecError(RULEBOOK.file, f"deck_size = {DECK_SIZE}, but a standard deck has {len(FULL_DECK)} cards",
                         entry="rule SNAP-DECK-1", field="values.deck_size")


class CallKind(OptionEnum):
    """What a player calls: "Snap!", "Snap Pot!", or a hand on the index card (SNAP-INDEX-1)."""

    SNAP = "snap"
    SNAP_POT = "snap-pot"
    HAND = "hand"


CALL_WORDS = {CallKind.SNAP: '"Snap!"', CallKind.SNAP_POT: '"Snap Pot!"', CallKind.HAND: "a hand on the index card"}


class NextTurn(OptionEnum):
    """SNAP-TURN-2 variation: who flips after a call. With ``WINNER`` the winner of a correct
    call of any kind flips next; after no call, a wrong call or a tie the turn passes clockwise."""

    CLOCKWISE = "clockwise"
    WINNER = "winner"


class EmptyPile(OptionEnum):  # SNAP-FLIP-3
    TURN_OVER = "turn-over"
    SHUFFLE = "shuffle"


class Match(OptionEnum):  # SNAP-MATCH-1
    RANK = "rank"
    RANK_AND_COLOUR = "rank-and-colour"


class OutPlayersCall(OptionEnum):  # SNAP-CALL-2
    NO = "no"
    YES = "yes"


class TieWithPot(OptionEnum):  # SNAP-TIE-2
    ON_TOP = "on-top"
    UNDERNEATH = "underneath"


class AllInPot(OptionEnum):  # SNAP-END-3
    DRAW = "draw"
    REDEAL = "redeal"


# The variation points, by parameter name, in rulebook order; ``index_card`` is a switch (bool).
VARIATIONS: dict[str, type[OptionEnum] | type[bool]] = {
    "next_turn": NextTurn, "empty_pile": EmptyPile, "match": Match, "out_players_call": OutPlayersCall,
    "tie_with_pot": TieWithPot, "index_card": bool, "all_in_pot": AllInPot,
}
NOT_MODELLED: tuple[OptionEnum, ...] = (
    EmptyPile.SHUFFLE, Match.RANK_AND_COLOUR, OutPlayersCall.YES, TieWithPot.UNDERNEATH, AllInPot.REDEAL,
)


class Phase(OptionEnum):
    DEAL = "deal"  # waiting for the chance move
    FLIP = "flip"  # ``turn`` must flip
    CALL = "call"  # the call window of ``turn``'s flip is open
    OVER = "over"


class Termination(OptionEnum):
    ALL_CARDS = "all-cards"  # one player holds every card (SNAP-GOAL-1, SNAP-END-1)
    STUCK_POT = "stuck-pot"  # one player holds every card outside a pot no flip can win (SNAP-END-2, SNAP-END-5)
    NO_CARDS = "no-cards"  # draw: every card is in the pot (SNAP-END-3)
    WINNABLE_POT = "winnable-pot"  # as stuck-pot, but he holds a card of the pot's top rank (SNAP-END-2, SNAP-END-5)


@dataclass(frozen=True)
class SnapConfig(Variations):
    """The table: number of players (SNAP-PLAYERS-1), variants and the deck used."""

    _GAME, _VARIATIONS, _NOT_MODELLED = "snap", VARIATIONS, NOT_MODELLED

    players: int = 2
    index_card: bool = False
    next_turn: NextTurn = NextTurn.CLOCKWISE
    deck: tuple[Card, ...] = FULL_DECK
    empty_pile: EmptyPile = EmptyPile.TURN_OVER
    match: Match = Match.RANK
    out_players_call: OutPlayersCall = OutPlayersCall.NO
    tie_with_pot: TieWithPot = TieWithPot.ON_TOP
    all_in_pot: AllInPot = AllInPot.DRAW

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or isinstance(self.players, bool):
            raise OptionError("SNAP-PLAYERS-1", f"the number of players must be an integer, not {self.players!r}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise OptionError("SNAP-PLAYERS-1", f"Snap is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                                                f"not {self.players}")
        self.check_variations()
        deck = tuple(self.deck)
        object.__setattr__(self, "deck", deck)
        if not deck or not all(isinstance(c, Card) for c in deck) or len(set(deck)) != len(deck):
            raise OptionError("SNAP-DECK-1", "the deck must be a non-empty sequence of distinct cards")

    @property
    def kinds(self) -> tuple[CallKind, ...]:
        """The calls that exist at this table (SNAP-CALL-1, SNAP-POT-1 or SNAP-INDEX-1)."""
        return (CallKind.HAND,) if self.index_card else (CallKind.SNAP, CallKind.SNAP_POT)

    def __repr__(self) -> str:
        deck = "" if self.deck == FULL_DECK else f", deck={self.deck!r}"
        others = "".join(f", {p}={getattr(self, p)!r}" for p in VARIATIONS
                         if p not in ("index_card", "next_turn") and getattr(self, p) != getattr(SnapConfig, p))
        return (f"SnapConfig(players={self.players}, index_card={self.index_card}, "
                f"next_turn={self.next_turn!r}{deck}{others})")


# ---- moves -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Deal(CheckedMove):
    """Chance (SNAP-DEAL-1, SNAP-DEAL-2): the dealer and the shuffled deck, index 0 = top."""

    dealer: Seat
    order: tuple[Card, ...]

    def __str__(self) -> str:
        return f"{self.dealer} deals"


@dataclass(frozen=True)
class Flip(CheckedMove):
    """SNAP-FLIP-1 (with the SNAP-FLIP-3 turn-over when the face-down pile is empty)."""

    player: Seat

    def __str__(self) -> str:
        return f"{self.player} flips"


@dataclass(frozen=True)
class NoCall(CheckedMove):
    """SNAP-CALL-3: nobody calls in this call window."""

    def __str__(self) -> str:
        return "nobody calls"


@dataclass(frozen=True)
class Call(CheckedMove):
    """The first caller of the window; the state decides whether the call is right (SNAP-PEN-1)."""

    caller: Seat
    kind: CallKind

    def __str__(self) -> str:
        if self.kind is CallKind.HAND:
            return f"{self.caller} puts a hand on the index card"
        return f"{self.caller} calls {CALL_WORDS[self.kind]}"


@dataclass(frozen=True)
class Tie(CheckedMove):
    """Two or more players make the same correct call at once (SNAP-TIE-1, SNAP-POT-2)."""

    callers: frozenset[Seat]
    kind: CallKind

    def __str__(self) -> str:
        return f"{seats_text(tuple(self.callers))} call {CALL_WORDS[self.kind]} at once"


Move: TypeAlias = Deal | Flip | NoCall | Call | Tie
MOVE_TYPES = (Deal, Flip, NoCall, Call, Tie)

Piles: TypeAlias = tuple[tuple[Card, ...], ...]


@dataclass(frozen=True)
class Outcome:
    termination: Termination
    winner: Seat | None


# ---- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class SnapState:
    """A position. Piles are read from the top (index 0); ``up[s][0]`` is the visible card."""

    config: SnapConfig
    phase: Phase
    dealer: Seat | None
    down: Piles
    up: Piles
    pot: tuple[Card, ...]
    turn: Seat | None  # whose turn it is: who flips next (FLIP) or whose flip is called on (CALL)
    flips: int

    def holds(self, seat: Seat) -> bool:
        """Holds cards: at least one card in either own pile (SNAP-TERM-4)."""
        return bool(self.down[seat.index] or self.up[seat.index])

    @property
    def player(self) -> Seat:
        """``turn`` while the game is under way: who must flip (FLIP) or just flipped (CALL)."""
        if self.turn is None:
            raise ValueError(f"nobody has the turn in phase {self.phase}")
        return self.turn

    @property
    def in_game(self) -> tuple[Seat, ...]:
        """Players still in the game (SNAP-OUT-1), in seat order."""
        return tuple(Seat(i) for i in range(self.config.players) if self.down[i] or self.up[i])

    @property
    def outcome(self) -> Outcome | None:
        if self.phase is not Phase.OVER:
            return None
        holders = self.in_game
        termination = Termination(snap_endings.ending_label(self))  # labelled as SNAP-END-5 says
        if not holders:
            return Outcome(termination, None)  # SNAP-END-3
        return Outcome(termination, holders[0])  # SNAP-END-1, SNAP-END-2

    @property
    def is_chance(self) -> bool:
        return self.phase is Phase.DEAL

    def position_key(self) -> tuple[object, ...]:
        """SNAP-END-4: every pile, the Snap Pot, whose turn it is (and the phase)."""
        return (self.phase, self.turn, self.down, self.up, self.pot)
