"""Snap: the reference model of the rulebook ``spec/snap.toml``.

Every normative Snap rule is implemented here and cited by its ID. The race to call is made
explicit: after each flip the model lists every possible call event (SNAP-CALL-3) and the
caller of :func:`apply` (a game record, or a policy in :mod:`cardcanon.model.snap_policies`)
says which one happened. The random choice of dealer and the shuffle are one recorded chance
move, :class:`Deal`.

Every variation point of the rulebook is a :class:`SnapConfig` field with the rulebook's name,
options and default: ``next_turn`` (SNAP-TURN-2) and ``index_card`` (SNAP-INDEX-1, a switch:
``off``/``on`` is ``False``/``True``) are modelled. Options the rulebook marks "not modelled"
raise :class:`~cardcanon.model.errors.NotModelledError` naming their rule when chosen:
SNAP-FLIP-3 ``empty_pile = shuffle``, SNAP-MATCH-1 ``match = rank-and-colour``, SNAP-CALL-2
``out_players_call = yes``, SNAP-TIE-2 ``tie_with_pot = underneath`` and SNAP-END-3
``all_in_pot = redeal``. The numbers (2 to 12 players, the 52-card deck) are read from the
rulebook. The game API shared with Hearts is described in :mod:`cardcanon.model.game`.

Modelling devices that depart from a table game: ``SnapConfig.deck`` may be a smaller deck
(for proofs and exhaustive enumeration; SNAP-DECK-1's 52 cards are the default). With a deck
smaller than the table a seat may be dealt nothing; it is then out from the start and the first
turn goes to the first seat clockwise from the dealer's left that holds cards. The model never
stops a repeating game by itself (SNAP-END-4): :meth:`SnapState.position_key` names positions
and :func:`cardcanon.model.snap_policies.play_game` reports the repetition.
"""

from __future__ import annotations

import enum
import itertools
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

import cardcanon.spec as spec
from cardcanon.model.cards import FULL_DECK, Card
from cardcanon.model.errors import IllegalMoveError, InvalidMoveError, NotModelledError
from cardcanon.model.game import Game, Record, ReplayReport
from cardcanon.model.seats import Seat
from cardcanon.model.shuffle import SplitMix64

name = "snap"
RULEBOOK = spec.load("snap")
MIN_PLAYERS = RULEBOOK.value("SNAP-PLAYERS-1", "min_players")
MAX_PLAYERS = RULEBOOK.value("SNAP-PLAYERS-1", "max_players")
DECK_SIZE = RULEBOOK.value("SNAP-DECK-1", "deck_size")
if len(FULL_DECK) != DECK_SIZE:
    raise spec.SpecError(RULEBOOK.file, f"deck_size = {DECK_SIZE}, but a standard deck has {len(FULL_DECK)} cards",
                         entry="rule SNAP-DECK-1", field="values.deck_size")


class _Enum(enum.Enum):
    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    def __str__(self) -> str:
        return str(self.value)


class CallKind(_Enum):
    """What a player calls: "Snap!", "Snap Pot!", or a hand on the index card (SNAP-INDEX-1)."""

    SNAP = "snap"
    SNAP_POT = "snap-pot"
    HAND = "hand"


class NextTurn(_Enum):
    """SNAP-TURN-2 variation: who flips after a call. With ``WINNER`` the winner of a correct
    call of any kind flips next; after no call, a wrong call or a tie the turn passes clockwise."""

    CLOCKWISE = "clockwise"
    WINNER = "winner"


class EmptyPile(_Enum):  # SNAP-FLIP-3
    TURN_OVER = "turn-over"
    SHUFFLE = "shuffle"


class Match(_Enum):  # SNAP-MATCH-1
    RANK = "rank"
    RANK_AND_COLOUR = "rank-and-colour"


class OutPlayersCall(_Enum):  # SNAP-CALL-2
    NO = "no"
    YES = "yes"


class TieWithPot(_Enum):  # SNAP-TIE-2
    ON_TOP = "on-top"
    UNDERNEATH = "underneath"


class AllInPot(_Enum):  # SNAP-END-3
    DRAW = "draw"
    REDEAL = "redeal"


# The variation points, by parameter name, in rulebook order; ``index_card`` is a switch (bool).
VARIATIONS: dict[str, type[_Enum] | type[bool]] = {
    "next_turn": NextTurn, "empty_pile": EmptyPile, "match": Match, "out_players_call": OutPlayersCall,
    "tie_with_pot": TieWithPot, "index_card": bool, "all_in_pot": AllInPot,
}
NOT_MODELLED: dict[_Enum, str] = {
    EmptyPile.SHUFFLE: "SNAP-FLIP-3", Match.RANK_AND_COLOUR: "SNAP-MATCH-1", OutPlayersCall.YES: "SNAP-CALL-2",
    TieWithPot.UNDERNEATH: "SNAP-TIE-2", AllInPot.REDEAL: "SNAP-END-3",
}
SWITCH = {False: "off", True: "on"}  # a switch variation's options


class Phase(_Enum):
    DEAL = "deal"  # waiting for the chance move
    FLIP = "flip"  # ``turn`` must flip
    CALL = "call"  # the call window of ``turn``'s flip is open
    OVER = "over"


class Termination(_Enum):
    ALL_CARDS = "all-cards"  # one player holds every card (SNAP-GOAL-1, SNAP-END-1)
    STUCK_POT = "stuck-pot"  # one player holds every card outside a non-empty pot (SNAP-END-2)
    NO_CARDS = "no-cards"  # draw: every card is in the pot (SNAP-END-3)


@dataclass(frozen=True)
class SnapConfig:
    """The table: number of players (SNAP-PLAYERS-1), variants and the deck used."""

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
            raise ValueError(f"SNAP-PLAYERS-1: the number of players must be an integer, not {self.players!r}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"SNAP-PLAYERS-1: Snap is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                             f"not {self.players}")
        for parameter, kind in VARIATIONS.items():
            value = getattr(self, parameter)
            if not isinstance(value, kind):
                raise ValueError(f"{parameter} must be a {kind.__name__}, not {value!r}")
            if value in NOT_MODELLED:
                raise NotModelledError(NOT_MODELLED[value], f"the reference model does not play {parameter} = {value}")
        deck = tuple(self.deck)
        object.__setattr__(self, "deck", deck)
        if not deck or not all(isinstance(c, Card) for c in deck) or len(set(deck)) != len(deck):
            raise ValueError("SNAP-DECK-1: the deck must be a non-empty sequence of distinct cards")

    @property
    def kinds(self) -> tuple[CallKind, ...]:
        """The calls that exist at this table (SNAP-CALL-1, SNAP-POT-1 or SNAP-INDEX-1)."""
        return (CallKind.HAND,) if self.index_card else (CallKind.SNAP, CallKind.SNAP_POT)

    def variants(self) -> dict[str, str]:
        """The variation parameters as the rulebook writes them (``{"next_turn": "clockwise", ...}``)."""
        return {parameter: SWITCH[value] if isinstance(value, bool) else value.value
                for parameter, value in ((p, getattr(self, p)) for p in VARIATIONS)}

    def __repr__(self) -> str:
        deck = "" if self.deck == FULL_DECK else f", deck={self.deck!r}"
        others = "".join(f", {p}={getattr(self, p)!r}" for p in VARIATIONS
                         if p not in ("index_card", "next_turn") and getattr(self, p) != getattr(SnapConfig, p))
        return (f"SnapConfig(players={self.players}, index_card={self.index_card}, "
                f"next_turn={self.next_turn!r}{deck}{others})")


# ---- moves -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Deal:
    """Chance (SNAP-DEAL-1, SNAP-DEAL-2): the dealer and the shuffled deck, index 0 = top."""

    def __str__(self) -> str:
        return _words(self)

    dealer: Seat
    order: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "order", tuple(self.order))
        if not isinstance(self.dealer, Seat) or not all(isinstance(card, Card) for card in self.order):
            raise InvalidMoveError(f"a deal is a dealer Seat and an order of cards, not {self.dealer!r}, {self.order!r}")


@dataclass(frozen=True)
class Flip:
    """SNAP-FLIP-1 (with the SNAP-FLIP-3 turn-over when the face-down pile is empty)."""

    def __str__(self) -> str:
        return _words(self)

    player: Seat

    def __post_init__(self) -> None:
        if not isinstance(self.player, Seat):
            raise InvalidMoveError(f"a flip is made by a Seat, not {self.player!r}")


@dataclass(frozen=True)
class NoCall:
    """SNAP-CALL-3: nobody calls in this call window."""

    def __str__(self) -> str:
        return _words(self)


@dataclass(frozen=True)
class Call:
    """The first caller of the window; the state decides whether the call is right (SNAP-PEN-1)."""

    def __str__(self) -> str:
        return _words(self)

    caller: Seat
    kind: CallKind

    def __post_init__(self) -> None:
        if not isinstance(self.caller, Seat) or not isinstance(self.kind, CallKind):
            raise InvalidMoveError(f"a call is a Seat and a CallKind, not {self.caller!r}, {self.kind!r}")


@dataclass(frozen=True)
class Tie:
    """Two or more players make the same correct call at once (SNAP-TIE-1, SNAP-POT-2)."""

    def __str__(self) -> str:
        return _words(self)

    callers: frozenset[Seat]
    kind: CallKind

    def __post_init__(self) -> None:
        object.__setattr__(self, "callers", frozenset(self.callers))
        if not all(isinstance(seat, Seat) for seat in self.callers) or not isinstance(self.kind, CallKind):
            raise InvalidMoveError(f"a tie is a set of Seats and a CallKind, not {self.callers!r}, {self.kind!r}")


Move: TypeAlias = Deal | Flip | NoCall | Call | Tie
MOVE_TYPES = (Deal, Flip, NoCall, Call, Tie)
Piles: TypeAlias = tuple[tuple[Card, ...], ...]


def _words(move: Move) -> str:
    """A move as the rulebook names it (the formatter imports this module, hence imported late)."""
    from cardcanon.model.snap_text import move_text

    return move_text(move)


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
    turn: Seat | None  # FLIP: who flips next; CALL: who just flipped
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
        if not holders:
            return Outcome(Termination.NO_CARDS, None)  # SNAP-END-3
        if self.pot:
            return Outcome(Termination.STUCK_POT, holders[0])  # SNAP-END-2
        return Outcome(Termination.ALL_CARDS, holders[0])  # SNAP-END-1

    @property
    def is_chance(self) -> bool:
        return self.phase is Phase.DEAL

    def position_key(self) -> tuple[object, ...]:
        """SNAP-END-4: every pile, the Snap Pot, whose turn it is (and the phase)."""
        return (self.phase, self.turn, self.down, self.up, self.pot)


def new_game(config: SnapConfig = SnapConfig()) -> SnapState:
    """The table before the deal: a chance node (SNAP-DEAL-1, SNAP-DEAL-2)."""
    empty = ((),) * config.players
    return SnapState(config, Phase.DEAL, None, empty, empty, (), None, 0)


def total_cards(state: SnapState) -> Counter[Card]:
    """The multiset of every card on the table: piles and pot."""
    counts: Counter[Card] = Counter(state.pot)
    for pile in state.down + state.up:
        counts.update(pile)
    return counts


# ---- the deal ----------------------------------------------------------------------------
def sample_deal(config: SnapConfig, rng: SplitMix64) -> Deal:
    """SNAP-DEAL-1, SNAP-DEAL-2 from one stream: dealer = ``rng.below(players)``, then the shuffle."""
    dealer = Seat(rng.below(config.players))
    return Deal(dealer, rng.shuffled(config.deck))


def all_deals(config: SnapConfig) -> Iterator[Deal]:
    """Every possible Deal, lazily: dealers in seat order, orders by permutation."""
    for d in range(config.players):
        for order in itertools.permutations(config.deck):
            yield Deal(Seat(d), order)


def deal_piles(config: SnapConfig, dealer: Seat, order: tuple[Card, ...]) -> Piles:
    """SNAP-DEAL-2, SNAP-DEAL-3: one card at a time clockwise from the dealer's left; last dealt = top."""
    n = config.players
    piles: list[list[Card]] = [[] for _ in range(n)]
    for i, card in enumerate(order):
        piles[(dealer.index + 1 + i) % n].append(card)
    return tuple(tuple(reversed(p)) for p in piles)


# ---- reading the table in the call window -------------------------------------------------
def flipped_card(state: SnapState) -> Card | None:
    """The card just flipped (CALL phase), else None."""
    if state.phase is not Phase.CALL:
        return None
    return state.up[state.player.index][0]


def matched_seats(state: SnapState) -> tuple[Seat, ...]:
    """SNAP-MATCH-1, SNAP-MATCH-2: other seats whose face-up top has the flipped card's rank, clockwise."""
    card = flipped_card(state)
    if card is None:
        return ()
    n, f = state.config.players, state.player.index
    out = []
    for k in range(1, n):
        pile = state.up[(f + k) % n]
        if pile and pile[0].rank == card.rank:
            out.append(Seat((f + k) % n))
    return tuple(out)


def pot_matches(state: SnapState) -> bool:
    """SNAP-MATCH-2: the flipped card matches the top card of the Snap Pot."""
    card = flipped_card(state)
    return card is not None and bool(state.pot) and state.pot[0].rank == card.rank


def correct_kinds(state: SnapState) -> frozenset[CallKind]:
    """The calls that are correct now (SNAP-CALL-1, SNAP-POT-1, SNAP-POT-3, SNAP-INDEX-1)."""
    if state.phase is not Phase.CALL:
        return frozenset()
    piles, pot = bool(matched_seats(state)), pot_matches(state)
    if state.config.index_card:
        return frozenset({CallKind.HAND}) if piles or pot else frozenset()
    return frozenset(k for k, ok in ((CallKind.SNAP, piles), (CallKind.SNAP_POT, pot)) if ok)


# ---- legal moves ---------------------------------------------------------------------------
def legal_moves(state: SnapState) -> tuple[Move, ...]:
    """Every legal move, in a fixed order; ``()`` at the deal (a chance node) and at the end."""
    if state.phase is Phase.OVER or state.phase is Phase.DEAL:  # SNAP-END-1; chance_outcomes lists deals
        return ()
    if state.phase is Phase.FLIP:  # SNAP-TURN-1, SNAP-TURN-2, SNAP-FLIP-1
        return (Flip(state.player),)
    callers = state.in_game  # SNAP-CALL-2
    moves: list[Move] = [NoCall()]  # SNAP-CALL-3
    moves += [Call(p, k) for p in callers for k in state.config.kinds]  # SNAP-PEN-1: wrong calls too
    if not state.config.index_card:  # SNAP-INDEX-1: no ties with the index card
        correct = correct_kinds(state)
        for kind in (k for k in state.config.kinds if k in correct):  # SNAP-TIE-1, SNAP-POT-2
            for size in range(2, len(callers) + 1):
                moves += [Tie(frozenset(c), kind) for c in itertools.combinations(callers, size)]
    return tuple(moves)


# ---- applying moves ------------------------------------------------------------------------
def apply(state: SnapState, move: Move) -> SnapState:
    """The state after ``move``; raises IllegalMoveError naming the broken rule."""
    if not isinstance(move, MOVE_TYPES):
        raise InvalidMoveError(f"not a Snap move: {move!r}")
    if state.phase is Phase.OVER:
        raise IllegalMoveError("SNAP-END-1", f"the game is over; no move is possible ({move})")
    if state.phase is Phase.DEAL:
        if not isinstance(move, Deal):
            raise IllegalMoveError("SNAP-DEAL-2", f"the cards must be dealt first, not: {move}")
        return _apply_deal(state, move)
    if isinstance(move, Deal):
        raise IllegalMoveError("SNAP-DEAL-2", "the cards have already been dealt")
    if state.phase is Phase.FLIP:
        if not isinstance(move, Flip):
            raise IllegalMoveError("SNAP-CALL-3", f"no card has been flipped to call on: {move}")
        return _apply_flip(state, move)
    if isinstance(move, Flip):
        raise IllegalMoveError("SNAP-CALL-3", "the call window of the last flip must close before the next flip")
    return _apply_call_event(state, move)


def _apply_deal(state: SnapState, move: Deal) -> SnapState:
    cfg = state.config
    if not isinstance(move.dealer, Seat) or move.dealer.index >= cfg.players:  # SNAP-DEAL-1
        raise IllegalMoveError("SNAP-DEAL-1", f"the dealer must be one of the {cfg.players} seats, not {move.dealer}")
    order = tuple(move.order)
    if len(order) != len(cfg.deck) or Counter(order) != Counter(cfg.deck):  # SNAP-DECK-1
        raise IllegalMoveError("SNAP-DECK-1", "the dealt cards must be the whole deck, each card once")
    down = deal_piles(cfg, move.dealer, order)  # SNAP-DEAL-2, SNAP-DEAL-3
    empty = ((),) * cfg.players
    return _next_flip(state, down, empty, (), move.dealer, None, first=True)  # SNAP-TURN-1


def _apply_flip(state: SnapState, move: Flip) -> SnapState:
    if move.player != state.turn:  # SNAP-TURN-1 (first flip) / SNAP-TURN-2
        rule = "SNAP-TURN-1" if state.flips == 0 else "SNAP-TURN-2"
        raise IllegalMoveError(rule, f"it is {state.turn}'s turn to flip, not {move.player}'s")
    i = state.player.index
    down_i, up_i = state.down[i], state.up[i]
    if not down_i:  # SNAP-FLIP-3: turn the face-up pile over; the first card flipped is on top
        down_i, up_i = tuple(reversed(up_i)), ()
    down = _put(state.down, i, down_i[1:])
    up = _put(state.up, i, (down_i[0],) + up_i)  # SNAP-FLIP-1
    return SnapState(state.config, Phase.CALL, state.dealer, down, up, state.pot, state.turn, state.flips + 1)


def _apply_call_event(state: SnapState, move: NoCall | Call | Tie) -> SnapState:
    if isinstance(move, NoCall):  # SNAP-CALL-3: nobody calls; the match lapses (SNAP-MATCH-2)
        return _next_flip(state, state.down, state.up, state.pot, state.player, None)
    if isinstance(move, Tie) and state.config.index_card:  # SNAP-INDEX-1: hands arrive one after another
        raise IllegalMoveError("SNAP-INDEX-1", "with the index card there are no ties")
    if not isinstance(move.kind, CallKind) or move.kind not in state.config.kinds:  # SNAP-INDEX-1
        table = "the index card is in use" if state.config.index_card else "there is no index card"
        raise IllegalMoveError("SNAP-INDEX-1", f"{_words(move)}: not a call at this table: {table}")
    callers = (move.caller,) if isinstance(move, Call) else tuple(sorted(move.callers))
    for seat in callers:  # SNAP-CALL-2, SNAP-OUT-1
        if not isinstance(seat, Seat) or seat.index >= state.config.players or not state.holds(seat):
            who = f"{seat}" if isinstance(seat, Seat) and seat.index < state.config.players else (
                f"{str(seat)[:30]}, not one of the {state.config.players} players at this table,")
            raise IllegalMoveError("SNAP-CALL-2", f"{who} holds no cards and may not call")
    correct = correct_kinds(state)
    if isinstance(move, Tie):
        if len(callers) < 2:  # SNAP-CALL-3: a tie is two or more callers
            raise IllegalMoveError("SNAP-CALL-3", "a tie needs two or more callers; one caller alone makes a call")
        if move.kind not in correct:
            raise IllegalMoveError("SNAP-CALL-3", f"a tie is of a correct call; {_words(move)} is wrong now")
        return _tie(state)
    if move.kind in correct:
        return _win(state, move.caller, won_pot=move.kind is CallKind.SNAP_POT or (
            move.kind is CallKind.HAND and pot_matches(state)))
    return _penalty(state, move.caller)


def _win(state: SnapState, winner: Seat, won_pot: bool) -> SnapState:
    """The first correct caller wins the piles: SNAP-CALL-1, SNAP-CALL-4, SNAP-CALL-5, SNAP-POT-1,
    SNAP-POT-3, SNAP-INDEX-1."""
    flipper = state.player
    won = (flipper,) + matched_seats(state)  # flipper's pile, then matched piles clockwise
    up = list(state.up)
    gained: list[Card] = []
    for seat in won:  # each pile turned over as a whole: its top goes to the bottom
        gained.extend(reversed(up[seat.index]))
        up[seat.index] = ()
    pot = state.pot
    if won_pot:
        gained.extend(reversed(pot))
        pot = ()
    down = _put(state.down, winner.index, state.down[winner.index] + tuple(gained))
    return _next_flip(state, down, tuple(up), pot, flipper, winner)


def _tie(state: SnapState) -> SnapState:
    """SNAP-TIE-1, SNAP-TIE-2, SNAP-POT-2, SNAP-CALL-4: the tied piles go face up on the pot, flipper's uppermost."""
    up = list(state.up)
    added: list[Card] = []
    for seat in (state.player,) + matched_seats(state):
        added.extend(up[seat.index])
        up[seat.index] = ()
    return _next_flip(state, state.down, tuple(up), tuple(added) + state.pot, state.player, None)


def _penalty(state: SnapState, offender: Seat) -> SnapState:
    """SNAP-PEN-1, SNAP-PEN-2, SNAP-PEN-3: a wrong caller gives his top face-down card away."""
    n, flipper = state.config.players, state.player
    if offender != flipper:
        recipient = flipper  # SNAP-PEN-1
    else:  # SNAP-PEN-2: the nearest player to the right who holds cards
        recipient = next(s for s in (Seat((flipper.index - k) % n) for k in range(1, n)) if state.holds(s))
    i = offender.index
    down_i, up_i = state.down[i], state.up[i]
    if not down_i:  # SNAP-PEN-3 with SNAP-FLIP-3
        down_i, up_i = tuple(reversed(up_i)), ()
    down = _put(state.down, i, down_i[1:])
    down = _put(down, recipient.index, down[recipient.index] + (down_i[0],))  # under the pile
    up = _put(state.up, i, up_i)
    return _next_flip(state, down, up, state.pot, flipper, None)


def _next_flip(state: SnapState, down: Piles, up: Piles, pot: tuple[Card, ...], after: Seat,
               winner: Seat | None, first: bool = False) -> SnapState:
    """End the game (SNAP-END-1, SNAP-END-2, SNAP-END-3) or pass the turn (SNAP-TURN-1, SNAP-TURN-2, SNAP-OUT-1)."""
    n = state.config.players
    holders = [s for s in range(n) if down[s] or up[s]]
    flips = state.flips
    if len(holders) <= 1:
        return SnapState(state.config, Phase.OVER, after if first else state.dealer, down, up, pot, None, flips)
    if winner is not None and state.config.next_turn is NextTurn.WINNER:
        turn = winner
    else:  # the next seat clockwise that holds cards; the first turn starts at the dealer's left
        seat = next(s for s in ((after.index + k) % n for k in range(1, n + 1)) if down[s] or up[s])
        turn = Seat(seat)
    dealer = after if first else state.dealer
    return SnapState(state.config, Phase.FLIP, dealer, down, up, pot, turn, flips)


def _put(piles: Piles, i: int, pile: tuple[Card, ...]) -> Piles:
    return piles[:i] + (pile,) + piles[i + 1:]


# ---- the game API ------------------------------------------------------------------------
def chance_outcomes(state: SnapState) -> Iterator[Move]:
    """Every deal at the deal (each equally likely, generated lazily); none elsewhere."""
    if state.phase is Phase.DEAL:
        return iter(all_deals(state.config))
    return iter(())


def sample_chance(state: SnapState, rng: SplitMix64) -> Move:
    """Draw the deal from ``rng`` (:func:`sample_deal`)."""
    if state.phase is not Phase.DEAL:
        raise ValueError(f"not a chance node (phase {state.phase})")
    return sample_deal(state.config, rng)


def outcome(state: SnapState) -> Outcome | None:
    """How the game ended, or None while it goes on."""
    return state.outcome


def to_record(config: SnapConfig, moves: Sequence[Move], seed: int | None = None) -> dict[str, Any]:
    """The JSON record of a game played from :func:`new_game` by ``moves`` (see
    ``cardcanon.model.snap_records``)."""
    from cardcanon.model import snap_records

    return snap_records.to_record(config, moves, seed)


def from_record(data: Mapping[str, Any], where: str = "record") -> Record[SnapConfig, Move]:
    """A record's table, seed, moves and result; :class:`~cardcanon.model.errors.RecordError` if malformed."""
    from cardcanon.model import snap_records

    return snap_records.from_record(data, where)


def replay(data: Mapping[str, Any], where: str = "record") -> ReplayReport:
    """Re-check every move of a record (and, with a seed, the deal) and its result."""
    from cardcanon.model import snap_records

    return snap_records.replay(data, where)


class _Snap:
    """This module's game API as one object (:class:`cardcanon.model.game.Game`)."""

    name = name
    new_game = staticmethod(new_game)
    legal_moves = staticmethod(legal_moves)
    chance_outcomes = staticmethod(chance_outcomes)
    sample_chance = staticmethod(sample_chance)
    apply = staticmethod(apply)
    outcome = staticmethod(outcome)
    to_record = staticmethod(to_record)
    from_record = staticmethod(from_record)
    replay = staticmethod(replay)


GAME: Game[SnapConfig, SnapState, Move, Outcome] = _Snap()
