"""Snap: the reference model of the rulebook ``spec/snap.toml``.

The rule blocks below follow the rulebook's order. Each states one rule as a ``*_problem``
function (why a move is refused, naming the rule, or None) or as a small transition, and
:func:`legal_moves` and :func:`apply` use the same ones. The numbers, moves and state are in
``cardcanon.model.snap_types`` (re-exported here); the game API shared with Hearts is
described in :mod:`cardcanon.model.game`.

The race to call is made explicit: after each flip the model lists every possible call event
(SNAP-CALL-3) and the caller of :func:`apply` (a game record, or a calling policy of
:mod:`cardcanon.model.snap_policies`) says which one happened. The random choice of dealer and
the shuffle are one recorded chance move, :class:`Deal`.

Modelling devices that depart from a table game: ``SnapConfig.deck`` may be a smaller deck
(for proofs and exhaustive enumeration; SNAP-DECK-1's 52 cards are the default). With a deck
smaller than the table a seat may be dealt nothing; it is then out from the start and the first
turn goes to the first seat clockwise from the dealer's left that holds cards. The model never
stops a repeating game by itself (SNAP-END-4): :meth:`SnapState.position_key` names positions
and :func:`cardcanon.model.snap_policies.play_game` reports the repetition.
"""

from __future__ import annotations

import itertools
import sys
from collections import Counter
from collections.abc import Iterator

from cardcanon.model import records, snap_records
from cardcanon.model.cards import Card
from cardcanon.model.errors import IllegalMoveError, InvalidMoveError
from cardcanon.model.game import Game
from cardcanon.model.seats import Seat, others_clockwise, seats
from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.snap_types import (
    DECK_SIZE, MAX_PLAYERS, MIN_PLAYERS, MOVE_TYPES, NOT_MODELLED, RULEBOOK, VARIATIONS, AllInPot, Call, CallKind,
    Deal, EmptyPile, Flip, Match, Move, NextTurn, NoCall, Outcome, OutPlayersCall, Phase, Piles, SnapConfig,
    SnapState, Termination, Tie, TieWithPot,
)

__all__ = [
    "DECK_SIZE", "GAME", "MAX_PLAYERS", "MIN_PLAYERS", "MOVE_TYPES", "NOT_MODELLED", "RULEBOOK", "VARIATIONS",
    "AllInPot", "Call", "CallKind", "Deal", "EmptyPile", "Flip", "Match", "Move", "NextTurn", "NoCall", "Outcome",
    "OutPlayersCall", "Phase", "Piles", "SnapConfig", "SnapState", "Termination", "Tie", "TieWithPot", "apply",
    "chance_outcomes", "correct_kinds", "deal_piles", "legal_moves", "matched_seats", "new_game", "outcome",
    "pot_matches", "sample_chance", "sample_deal", "to_move", "total_cards",
]

name = "snap"
Refusal = tuple[str, str]  # (rule ID, what is wrong): why a move is refused


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


def _put(piles: Piles, i: int, pile: tuple[Card, ...]) -> Piles:
    return piles[:i] + (pile,) + piles[i + 1:]


# ---- SNAP-DECK-1 -------------------------------------------------------------------------------
def deck_problem(config: SnapConfig, order: tuple[Card, ...]) -> Refusal | None:
    """SNAP-DECK-1: a deal is an order of the whole deck, each card once."""
    if len(order) != len(config.deck) or Counter(order) != Counter(config.deck):
        return "SNAP-DECK-1", "the dealt cards must be the whole deck, each card once"
    return None


# ---- SNAP-DEAL-1, SNAP-DEAL-2, SNAP-DEAL-3 -------------------------------------------------------
def sample_deal(config: SnapConfig, rng: SplitMix64) -> Deal:
    """SNAP-DEAL-1, SNAP-DEAL-2 from one stream: dealer = ``rng.below(players)``, then the shuffle."""
    dealer = Seat(rng.below(config.players))
    return Deal(dealer, rng.shuffled(config.deck))


def all_deals(config: SnapConfig) -> Iterator[Deal]:
    """Every possible Deal, lazily: dealers in seat order, orders by permutation."""
    for dealer in seats(config.players):
        for order in itertools.permutations(config.deck):
            yield Deal(dealer, order)


def deal_problem(state: SnapState, move: Move) -> Refusal | None:
    """SNAP-DEAL-1, SNAP-DEAL-2: the cards are dealt once, before anything else, by a dealer of
    this table, and the deal is the whole deck (SNAP-DECK-1)."""
    if state.phase is Phase.DEAL and not isinstance(move, Deal):
        return "SNAP-DEAL-2", f"the cards must be dealt first, not: {move}"
    if state.phase is not Phase.DEAL and isinstance(move, Deal):
        return "SNAP-DEAL-2", "the cards have already been dealt"
    if isinstance(move, Deal) and move.dealer.index >= state.config.players:
        return "SNAP-DEAL-1", f"the dealer must be one of the {state.config.players} seats, not {move.dealer}"
    return deck_problem(state.config, move.order) if isinstance(move, Deal) else None


def deal_piles(config: SnapConfig, dealer: Seat, order: tuple[Card, ...]) -> Piles:
    """SNAP-DEAL-2, SNAP-DEAL-3: one card at a time clockwise from the dealer's left; last dealt = top."""
    piles: list[list[Card]] = [[] for _ in range(config.players)]
    seat = dealer
    for card in order:
        seat = seat.left(config.players)
        piles[seat.index].append(card)
    return tuple(tuple(reversed(p)) for p in piles)


def _apply_deal(state: SnapState, move: Deal) -> SnapState:
    down = deal_piles(state.config, move.dealer, move.order)
    empty = ((),) * state.config.players
    return _next_flip(state, down, empty, (), move.dealer, None, first=True)  # SNAP-TURN-1


# ---- SNAP-TURN-1, SNAP-TURN-2 ------------------------------------------------------------------
def turn_problem(state: SnapState, move: Move) -> Refusal | None:
    """SNAP-TURN-1 (the first flip: the first player clockwise from the dealer's left who holds
    cards) and SNAP-TURN-2 (then the turn passes): only the player whose turn it is flips."""
    if not isinstance(move, Flip) or move.player == state.turn:
        return None
    rule = "SNAP-TURN-1" if state.flips == 0 else "SNAP-TURN-2"
    return rule, f"it is {state.turn}'s turn to flip, not {move.player}'s"


def next_player(state: SnapState, down: Piles, up: Piles, after: Seat, winner: Seat | None) -> Seat:
    """SNAP-TURN-2 with SNAP-OUT-1: the winner of a correct call (``next_turn = winner``), else the
    next seat clockwise from ``after`` that holds cards."""
    if winner is not None and state.config.next_turn is NextTurn.WINNER:
        return winner
    seat = after.left(state.config.players)
    while not (down[seat.index] or up[seat.index]):
        seat = seat.left(state.config.players)
    return seat


# ---- SNAP-FLIP-1, SNAP-FLIP-3 ------------------------------------------------------------------
def turned_over(down: tuple[Card, ...], up: tuple[Card, ...]) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """SNAP-FLIP-3: an empty face-down pile is the face-up pile turned over (its bottom card on top)."""
    return (tuple(reversed(up)), ()) if not down else (down, up)


def _apply_flip(state: SnapState, move: Flip) -> SnapState:
    """SNAP-FLIP-1: the top card of the face-down pile goes face up on the face-up pile."""
    i = state.player.index
    down_i, up_i = turned_over(state.down[i], state.up[i])
    down = _put(state.down, i, down_i[1:])
    up = _put(state.up, i, (down_i[0],) + up_i)
    return SnapState(state.config, Phase.CALL, state.dealer, down, up, state.pot, state.turn, state.flips + 1)


# ---- SNAP-MATCH-1, SNAP-MATCH-2 ----------------------------------------------------------------
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
    others = others_clockwise(state.player, state.config.players)
    return tuple(Seat(i) for i in others if state.up[i] and state.up[i][0].rank == card.rank)


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


# ---- SNAP-CALL-1 to SNAP-CALL-5 ----------------------------------------------------------------
def caller_problem(state: SnapState, seat: Seat) -> Refusal | None:
    """SNAP-CALL-2 (with SNAP-OUT-1): only a player who holds cards may call."""
    if seat.index >= state.config.players:
        return "SNAP-CALL-2", f"{seat}, not one of the {state.config.players} players at this table, holds no cards and may not call"
    if not state.holds(seat):
        return "SNAP-CALL-2", f"{seat} holds no cards and may not call"
    return None


def window_problem(state: SnapState, move: Move) -> Refusal | None:
    """SNAP-CALL-3: after each flip the call window opens; it closes (by one call event) before
    the next flip, and there is nothing to call on before a flip."""
    if state.phase is Phase.FLIP and not isinstance(move, Flip):
        return "SNAP-CALL-3", f"no card has been flipped to call on: {move}"
    if state.phase is Phase.CALL and isinstance(move, Flip):
        return "SNAP-CALL-3", "the call window of the last flip must close before the next flip"
    return None


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


# ---- SNAP-TIE-1, SNAP-TIE-2, SNAP-POT-2 ----------------------------------------------------------
def tie_problem(state: SnapState, kind: CallKind, callers: int) -> Refusal | None:
    """SNAP-TIE-1, SNAP-POT-2: a tie is two or more players making the same correct call at once."""
    if callers < 2:
        return "SNAP-CALL-3", "a tie needs two or more callers; one caller alone makes a call"
    if kind not in correct_kinds(state):
        return "SNAP-CALL-3", f"a tie is of a correct call; a call of {kind} is wrong now"
    return None


def _tie(state: SnapState) -> SnapState:
    """SNAP-TIE-1, SNAP-TIE-2, SNAP-POT-2, SNAP-CALL-4: the tied piles go face up on the pot, flipper's uppermost."""
    up = list(state.up)
    added: list[Card] = []
    for seat in (state.player,) + matched_seats(state):
        added.extend(up[seat.index])
        up[seat.index] = ()
    return _next_flip(state, state.down, tuple(up), tuple(added) + state.pot, state.player, None)


# ---- SNAP-INDEX-1 ------------------------------------------------------------------------------
def kind_problem(state: SnapState, kind: CallKind, tie: bool = False) -> Refusal | None:
    """SNAP-INDEX-1 (with SNAP-CALL-1, SNAP-POT-1): the calls of this table; hands on the index card
    arrive one after another, so with it there are no ties."""
    if tie and state.config.index_card:
        return "SNAP-INDEX-1", "with the index card there are no ties"
    if kind not in state.config.kinds:
        table = "the index card is in use" if state.config.index_card else "there is no index card"
        return "SNAP-INDEX-1", f"a call of {kind}: not a call at this table: {table}"
    return None


# ---- SNAP-PEN-1, SNAP-PEN-2, SNAP-PEN-3 ----------------------------------------------------------
def penalty_recipient(state: SnapState, offender: Seat) -> Seat:
    """SNAP-PEN-1: a wrong caller pays the flipper; SNAP-PEN-2: a wrong flipper pays the nearest
    player to his right who holds cards."""
    flipper = state.player
    if offender != flipper:
        return flipper
    seat = flipper.right(state.config.players)
    while not state.holds(seat):
        seat = seat.right(state.config.players)
    return seat


def _penalty(state: SnapState, offender: Seat) -> SnapState:
    """SNAP-PEN-1, SNAP-PEN-3: the wrong caller's top face-down card (SNAP-FLIP-3 when his
    face-down pile is empty) goes under the recipient's face-down pile."""
    recipient = penalty_recipient(state, offender)
    i = offender.index
    down_i, up_i = turned_over(state.down[i], state.up[i])
    down = _put(state.down, i, down_i[1:])
    down = _put(down, recipient.index, down[recipient.index] + (down_i[0],))
    up = _put(state.up, i, up_i)
    return _next_flip(state, down, up, state.pot, state.player, None)


def _apply_call_event(state: SnapState, move: NoCall | Call | Tie) -> SnapState:
    """The call window closes: nobody calls (SNAP-CALL-3; a match lapses, SNAP-MATCH-2), a tie, the
    first correct call wins, or a wrong call pays a penalty."""
    if isinstance(move, NoCall):
        return _next_flip(state, state.down, state.up, state.pot, state.player, None)
    if isinstance(move, Tie):
        return _tie(state)
    if move.kind in correct_kinds(state):
        won_pot = move.kind is CallKind.SNAP_POT or (move.kind is CallKind.HAND and pot_matches(state))
        return _win(state, move.caller, won_pot)
    return _penalty(state, move.caller)


# ---- SNAP-END-1, SNAP-END-2, SNAP-END-3 ----------------------------------------------------------
END_RULES = {Termination.ALL_CARDS: "SNAP-END-1", Termination.STUCK_POT: "SNAP-END-2",
             Termination.WINNABLE_POT: "SNAP-END-2", Termination.NO_CARDS: "SNAP-END-3"}


def over_problem(state: SnapState, move: Move) -> Refusal | None:
    """SNAP-END-1, SNAP-END-2, SNAP-END-3: once the game has ended no move is possible; the refusal
    names the rule it ended by."""
    ended = state.outcome
    if ended is None:
        return None
    return END_RULES[ended.termination], f"the game is over ({ended.termination}); no move is possible ({move})"


def _next_flip(state: SnapState, down: Piles, up: Piles, pot: tuple[Card, ...], after: Seat,
               winner: Seat | None, first: bool = False) -> SnapState:
    """End the game when at most one player holds cards (SNAP-END-1, SNAP-END-2, SNAP-END-3), else
    pass the turn (:func:`next_player`). The first turn starts at the dealer's left (SNAP-TURN-1)."""
    dealer = after if first else state.dealer
    if sum(1 for d, u in zip(down, up) if d or u) <= 1:
        return SnapState(state.config, Phase.OVER, dealer, down, up, pot, None, state.flips)
    turn = next_player(state, down, up, after, winner)
    return SnapState(state.config, Phase.FLIP, dealer, down, up, pot, turn, state.flips)


# ---- moves -------------------------------------------------------------------------------------
def move_problem(state: SnapState, move: Move) -> Refusal | None:
    """Why ``move`` is refused in ``state`` (the first rule it breaks, in rulebook order), or None."""
    refusal = over_problem(state, move) or deal_problem(state, move) or window_problem(state, move)
    if refusal or isinstance(move, (Deal, NoCall)):
        return refusal
    if isinstance(move, Flip):
        return turn_problem(state, move)
    if isinstance(move, Call):
        return kind_problem(state, move.kind) or caller_problem(state, move.caller)
    return (kind_problem(state, move.kind, tie=True)
            or next(filter(None, (caller_problem(state, seat) for seat in sorted(move.callers))), None)
            or tie_problem(state, move.kind, len(move.callers)))


def legal_moves(state: SnapState) -> tuple[Move, ...]:
    """Every legal move, in a fixed order; ``()`` at the deal (a chance node) and at the end."""
    if state.phase is Phase.DEAL or state.phase is Phase.OVER:  # chance_outcomes lists the deals
        return ()
    players = seats(state.config.players)
    if state.phase is Phase.FLIP:
        return tuple(move for move in map(Flip, players) if move_problem(state, move) is None)
    callers = tuple(seat for seat in players if caller_problem(state, seat) is None)
    calls = (Call(seat, kind) for seat in players for kind in CallKind)
    moves: list[Move] = [NoCall(), *(call for call in calls if move_problem(state, call) is None)]
    for kind in CallKind:  # ties of every size, smallest first
        if kind_problem(state, kind, tie=True) is None and tie_problem(state, kind, len(callers)) is None:
            moves += [Tie(frozenset(group), kind) for size in range(2, len(callers) + 1)
                      for group in itertools.combinations(callers, size)]
    return tuple(moves)


def apply(state: SnapState, move: Move) -> SnapState:
    """The state after ``move``; raises IllegalMoveError naming the broken rule."""
    if not isinstance(move, MOVE_TYPES):
        raise InvalidMoveError(f"not a Snap move: {move!r}")
    refusal = move_problem(state, move)
    if refusal:
        raise IllegalMoveError(*refusal)
    if isinstance(move, Deal):
        return _apply_deal(state, move)
    if isinstance(move, Flip):
        return _apply_flip(state, move)
    return _apply_call_event(state, move)


# ---- the game API ------------------------------------------------------------------------------
def to_move(state: SnapState) -> Seat | None:
    """Whose turn it is: who flips next, or whose flip the call window is of (every player who
    holds cards may call: :func:`legal_moves` lists the call events); None at the deal and the end."""
    return state.turn


def is_chance(state: SnapState) -> bool:
    """The deal (the choice of dealer and the shuffle) is next."""
    return state.phase is Phase.DEAL


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


position_from_json = snap_records.position_from_json  # a position needs no rule to be read


# ---- the game API as one object (records: :mod:`cardcanon.model.snap_records`) -----------------
Config = SnapConfig
GAME: Game[SnapConfig, SnapState, Move, Outcome] = records.GameOfModules(sys.modules[__name__], snap_records)
to_record, from_record, replay = GAME.to_record, GAME.from_record, GAME.replay
