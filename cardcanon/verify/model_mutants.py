"""Mutants of the reference model: each breaks one rule by replacing the model's rule-block
function for it, in the process that runs a check (a verify worker). The checks and the
checker's machinery (encodings, searches, cycle detection, stop predicates) are never touched.

A check may cite a rule only if some mutant of that rule makes the check fail, with a
counterexample record that replays as a real disagreement between the mutant and the model;
``cardcanon verify`` computes this check x rule matrix (see :mod:`cardcanon.verify`).

Each mutant names its game, the rule it breaks, the variant it is run under (a rule that only
acts under a variation option, such as SNAP-INDEX-1, is broken where it acts) and a patch: a
function that returns ``{(module, attribute): replacement}``. Most patches are made by
:func:`replaces` (a new function) or :func:`wraps` (the model's function, changed in one way).
"""

from __future__ import annotations

import contextlib
import importlib
import itertools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, TypeAlias

from cardcanon.model import snap as m
from cardcanon.model import snap_policies as p
from cardcanon.model.cards import Card, Suit
from cardcanon.model.seats import Seat

if TYPE_CHECKING:
    from cardcanon.model.snap import Call, CallKind, Flip, Move, NoCall, Outcome, Piles, SnapConfig, SnapState, Tie

# A mutant's replacements: (module, attribute) -> the new function (or property, or value).
Changes = dict[tuple[str, str], Any]
Patch = Callable[[], Changes]
StateStep: TypeAlias = "Callable[..., SnapState]"  # a model function that returns the next position
Refusal: TypeAlias = "Callable[..., tuple[str, str] | None]"  # a model function that refuses a move or not
SNAP = "cardcanon.model.snap"
SNAP_TYPES = "cardcanon.model.snap_types"
POLICIES = "cardcanon.model.snap_policies"


@dataclass(frozen=True)
class ModelMutant:
    id: str
    game: str
    rule: str
    description: str
    patch: Patch = field(repr=False, compare=False)
    variant: Mapping[str, str] = field(default_factory=dict)


def _owner_and_name(module: str, attribute: str) -> tuple[Any, str]:
    """The module or class holding ``attribute`` (``Class.name`` reaches into a class), and its last name."""
    owner: Any = importlib.import_module(module)
    path = attribute.split(".")
    for part in path[:-1]:
        owner = getattr(owner, part)
    return owner, path[-1]


def replaces(module: str, attribute: str, value: Any) -> Patch:
    """A patch that sets ``module.attribute`` to ``value``."""
    return lambda: {(module, attribute): value}


def wraps(module: str, attribute: str, wrapper: Callable[..., Any]) -> Patch:
    """A patch that replaces ``module.attribute`` by ``wrapper(original, *arguments)``: ``original``
    is the model's function (a property's getter) as it is when the mutant is applied."""
    def patch() -> Changes:
        owner, name = _owner_and_name(module, attribute)
        original = owner.__dict__[name]  # as stored: a function or a property
        if isinstance(original, property):
            getter = original.fget
            return {(module, attribute): property(lambda self: wrapper(getter, self))}
        return {(module, attribute): lambda *args, **kwargs: wrapper(original, *args, **kwargs)}

    return patch


def combined(*patches: Patch) -> Patch:
    """A patch made of several, each of another attribute."""
    return lambda: {key: value for patch in patches for key, value in patch().items()}


@contextlib.contextmanager
def patched(mutant_id: str | None) -> Iterator[None]:
    """Apply the mutant's patch for the duration of the block (nothing for ``None``)."""
    if mutant_id is None:
        yield
        return
    changes = MUTANTS[mutant_id].patch()
    saved: dict[tuple[Any, str], Any] = {}
    for (module_name, attribute), value in changes.items():
        owner, name = _owner_and_name(module_name, attribute)
        saved[(owner, name)] = owner.__dict__[name]
        setattr(owner, name, value)
    try:
        yield
    finally:
        for (owner, name), value in saved.items():
            setattr(owner, name, value)


# ---- Snap: flips and turns --------------------------------------------------------------------
def _flip_bottom(original: StateStep, state: SnapState, move: Flip) -> SnapState:
    if move.player != state.turn:
        return original(state, move)  # SNAP-FLIP-1 broken: the bottom card of the face-down pile
    i = state.player.index
    down_i, up_i = m.turned_over(state.down[i], state.up[i])
    down = m._put(state.down, i, down_i[:-1])
    up = m._put(state.up, i, (down_i[-1],) + up_i)
    return m.SnapState(state.config, m.Phase.CALL, state.dealer, down, up, state.pot, state.turn, state.flips + 1)


def _unreversed(down: tuple[Card, ...], up: tuple[Card, ...]) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """SNAP-FLIP-3 broken: an empty face-down pile is replaced by the face-up pile as it lies."""
    return (tuple(up), ()) if not down else (down, up)


def _dealer_flips_first(original: StateStep, state: SnapState, down: Piles, up: Piles, pot: tuple[Card, ...],
                        after: Seat, winner: Seat | None, first: bool = False) -> SnapState:
    if first:  # SNAP-TURN-1 broken: the dealer flips first
        after = Seat((after.index - 1) % state.config.players)
        result = original(state, down, up, pot, after, winner, first)
        return replace(result, dealer=Seat((after.index + 1) % state.config.players))
    return original(state, down, up, pot, after, winner, first)


def _turn_swapped(original: Callable[..., Seat], state: SnapState, *rest: Any) -> Seat:
    swapped = m.NextTurn.WINNER if state.config.next_turn is m.NextTurn.CLOCKWISE else m.NextTurn.CLOCKWISE
    return original(replace(state, config=replace(state.config, next_turn=swapped)), *rest)


def _out_get_turns(original: StateStep, state: SnapState, down: Piles, up: Piles, pot: tuple[Card, ...], after: Seat,
                   winner: Seat | None, first: bool = False) -> SnapState:
    result = original(state, down, up, pot, after, winner, first)
    passed = winner is None or state.config.next_turn is m.NextTurn.CLOCKWISE
    if result.phase is m.Phase.FLIP and not first and passed:
        return replace(result, turn=Seat((after.index + 1) % state.config.players))  # SNAP-OUT-1 broken
    return result


def _out_flip_nothing(original: StateStep, state: SnapState, move: Flip) -> SnapState:
    if not state.holds(state.player):  # a player who is out "flips" nothing
        return replace(state, phase=m.Phase.CALL, flips=state.flips + 1)
    return original(state, move)


def _ends_when(ends: Callable[[SnapState, Piles, Piles], bool]) -> Callable[..., SnapState]:
    """A broken ``_next_flip``: after the first flip, the game is over when ``ends(state, down, up)``."""
    def next_flip(original: StateStep, state: SnapState, down: Piles, up: Piles, pot: tuple[Card, ...], after: Seat,
                  winner: Seat | None, first: bool = False) -> SnapState:
        if not first and ends(state, down, up):
            return m.SnapState(state.config, m.Phase.OVER, state.dealer, down, up, pot, None, state.flips)
        return original(state, down, up, pot, after, winner, first)

    return next_flip


# ---- Snap: calls, wins, ties and penalties ------------------------------------------------------
def _out_call_allowed(original: Refusal, state: SnapState, move: Move) -> tuple[str, str] | None:
    if (state.phase is m.Phase.CALL and isinstance(move, m.Call) and move.caller.index < state.config.players
            and move.kind in state.config.kinds):
        return None  # legal_moves lists these calls too
    return original(state, move)


def _out_call_counts(original: StateStep, state: SnapState, move: NoCall | Call | Tie) -> SnapState:
    if isinstance(move, m.Call) and not state.holds(move.caller) and move.kind not in m.correct_kinds(state):
        return m._next_flip(state, state.down, state.up, state.pot, state.player, None)  # nothing to pay
    if isinstance(move, m.Call) and not state.holds(move.caller):
        return m._win(state, move.caller, won_pot=move.kind is m.CallKind.SNAP_POT)
    return original(state, move)


def _win_variant(*, without_flipper: bool = False, first_match_only: bool = False, unturned: bool = False) -> Patch:
    def win(state: SnapState, winner: Seat, won_pot: bool) -> SnapState:
        flipper = state.player
        matched = m.matched_seats(state)
        won = (() if without_flipper else (flipper,)) + (matched[:1] if first_match_only else matched)
        up = list(state.up)
        gained: list[Card] = []
        for seat in won:
            gained.extend(up[seat.index] if unturned else reversed(up[seat.index]))
            up[seat.index] = ()
        pot = state.pot
        if won_pot:
            gained.extend(pot if unturned else reversed(pot))
            pot = ()
        down = m._put(state.down, winner.index, state.down[winner.index] + tuple(gained))
        return m._next_flip(state, down, tuple(up), pot, flipper, winner)

    return replaces(SNAP, "_win", win)


def _broken_tie(state: SnapState, *, only_flipper: bool = False, under_pot: bool = False) -> SnapState:
    """A tie that moves only the flipper's pile to the pot, or puts the tied piles under the pot."""
    up = list(state.up)
    added: list[Card] = []
    for seat in (state.player,) if only_flipper else (state.player,) + m.matched_seats(state):
        added.extend(up[seat.index])
        up[seat.index] = ()
    pot = state.pot + tuple(added) if under_pot else tuple(added) + state.pot
    return m._next_flip(state, state.down, tuple(up), pot, state.player, None)


def _pot_tie_flipper_only(original: StateStep, state: SnapState, move: NoCall | Call | Tie) -> SnapState:
    if isinstance(move, m.Tie) and move.kind is m.CallKind.SNAP_POT and m.CallKind.SNAP_POT in m.correct_kinds(state):
        return _broken_tie(state, only_flipper=True)
    return original(state, move)


def _index_tie_allowed(original: Refusal, state: SnapState, move: Move) -> tuple[str, str] | None:
    if (isinstance(move, m.Tie) and state.phase is m.Phase.CALL and state.config.index_card
            and move.kind in m.correct_kinds(state)):
        return None
    return original(state, move)


def _index_ties_listed(original: Any, state: SnapState) -> tuple[Move, ...]:
    moves: tuple[Move, ...] = original(state)  # SNAP-INDEX-1 broken: players may tie on the index card
    if state.phase is not m.Phase.CALL or not state.config.index_card or not m.correct_kinds(state):
        return moves
    callers = state.in_game
    return moves + tuple(m.Tie(frozenset(c), m.CallKind.HAND) for size in range(2, len(callers) + 1)
                         for c in itertools.combinations(callers, size))


def _index_tie_played(original: StateStep, state: SnapState, move: NoCall | Call | Tie) -> SnapState:
    if isinstance(move, m.Tie) and state.config.index_card and move.kind in m.correct_kinds(state):
        return m._tie(state)
    return original(state, move)


def _ties_widened(*, single: bool = False, wrong: bool = False) -> Changes:
    original_legal, original_event = m.legal_moves, m._apply_call_event

    def legal_moves(state: SnapState) -> tuple[Move, ...]:  # SNAP-CALL-3 broken: more ties than the window allows
        moves = original_legal(state)
        if state.phase is not m.Phase.CALL or state.config.index_card:
            return moves
        correct = m.correct_kinds(state)
        extra: list[Move] = []
        if single:  # one caller alone makes a tie
            extra += [m.Tie(frozenset({p}), k) for p in state.in_game for k in state.config.kinds if k in correct]
        if wrong and len(state.in_game) >= 2:  # a wrong call made at once by two players is a tie
            extra += [m.Tie(frozenset(state.in_game[:2]), k) for k in state.config.kinds if k not in correct]
        return moves + tuple(extra)

    def apply_call_event(state: SnapState, move: NoCall | Call | Tie) -> SnapState:
        if isinstance(move, m.Tie) and move in legal_moves(state) and move not in original_legal(state):
            return m._tie(state)
        return original_event(state, move)

    def tie_problem(state: SnapState, kind: CallKind, callers: int) -> tuple[str, str] | None:
        if callers < (1 if single else 2):
            return "SNAP-CALL-3", "too few callers for a tie"
        if kind not in m.correct_kinds(state) and not (wrong and callers >= 2):
            return "SNAP-CALL-3", "a tie is of a correct call"
        return None

    return {(SNAP, "legal_moves"): legal_moves, (SNAP, "_apply_call_event"): apply_call_event,
            (SNAP, "tie_problem"): tie_problem}


def _penalty_free(state: SnapState, offender: Seat) -> SnapState:  # SNAP-PEN-1 broken: a wrong call costs nothing
    return m._next_flip(state, state.down, state.up, state.pot, state.player, None)


def _pays_right(original: Callable[..., Seat], state: SnapState, offender: Seat) -> Seat:
    return offender.right(state.config.players) if offender == state.player else original(state, offender)


def _pays_left(original: Callable[..., Seat], state: SnapState, offender: Seat) -> Seat:
    if offender != state.player:  # SNAP-PEN-2 broken: a flipper pays the nearest player to his left
        return original(state, offender)
    seat = offender.left(state.config.players)
    while not state.holds(seat):
        seat = seat.left(state.config.players)
    return seat


def _penalty_on_top(state: SnapState, offender: Seat) -> SnapState:
    recipient = m.penalty_recipient(state, offender)  # SNAP-PEN-3 broken: the card goes on top of his pile
    i = offender.index
    down_i, up_i = m.turned_over(state.down[i], state.up[i])
    down = m._put(state.down, i, down_i[1:])
    down = m._put(down, recipient.index, (down_i[0],) + down[recipient.index])
    return m._next_flip(state, down, m._put(state.up, i, up_i), state.pot, state.player, None)


# ---- Snap: endings, positions, the deal and matching ----------------------------------------------
def _outcome_names_dealer(termination: str) -> Callable[[Any, SnapState], Outcome | None]:
    """SNAP-END-1 / SNAP-END-3 broken: a game ended by ``termination`` names the dealer as winner."""
    def outcome(original: Any, self: SnapState) -> Outcome | None:
        result: Outcome | None = original(self)
        if result is not None and result.termination is m.Termination[termination]:
            return m.Outcome(result.termination, self.dealer)
        return result

    return outcome


def _position_without_turn(self: SnapState) -> tuple[object, ...]:  # SNAP-END-4 broken
    return (self.phase, self.down, self.up, self.pot)


def _position_by_sizes(self: SnapState) -> tuple[object, ...]:  # SNAP-END-4 broken: piles compared by their sizes
    return (self.phase, self.turn, tuple(map(len, self.down)), tuple(map(len, self.up)), len(self.pot))


def _deal(*, from_dealer: bool = False, first_on_top: bool = False) -> Patch:
    def deal_piles(config: SnapConfig, dealer: Seat, order: tuple[Card, ...]) -> Piles:
        n = config.players
        piles: list[list[Card]] = [[] for _ in range(n)]
        for i, card in enumerate(order):
            piles[(dealer.index + (0 if from_dealer else 1) + i) % n].append(card)
        return tuple(tuple(p) if first_on_top else tuple(reversed(p)) for p in piles)

    return replaces(SNAP, "deal_piles", deal_piles)


_RED = (Suit.HEARTS, Suit.DIAMONDS)


def _same_colour(a: Card, b: Card) -> bool:  # SNAP-MATCH-1 broken: cards match only in rank and colour
    return a.rank == b.rank and (a.suit in _RED) == (b.suit in _RED)


def _matched_by(pile_matches: Callable[[tuple[Card, ...], Card], bool]) -> Callable[[SnapState], tuple[Seat, ...]]:
    """A broken ``matched_seats``: the other face-up piles, clockwise from the flipper, that ``pile_matches``."""
    def matched_seats(state: SnapState) -> tuple[Seat, ...]:
        card = m.flipped_card(state)
        if card is None:
            return ()
        n, f = state.config.players, state.player.index
        return tuple(Seat((f + k) % n) for k in range(1, n)
                     if state.up[(f + k) % n] and pile_matches(state.up[(f + k) % n], card))

    return matched_seats


def _pot_matches_by_colour(state: SnapState) -> bool:
    card = m.flipped_card(state)
    return card is not None and bool(state.pot) and _same_colour(state.pot[0], card)


def _pot_matches_any(state: SnapState) -> bool:  # SNAP-MATCH-2 broken: any card of the pot matches, not only its top
    card = m.flipped_card(state)
    return card is not None and any(c.rank == card.rank for c in state.pot)


def _label(part: str) -> Patch:
    def ending_label(state: SnapState) -> str:  # SNAP-END-5 broken: the label reads part of the holder's cards
        holders = state.in_game
        if not holders:
            return "no-cards"
        if not state.pot:
            return "all-cards"
        piles = {"down": state.down, "up": state.up}
        held = [c for s in holders for c in (piles[part][s.index] if part in piles else state.up[s.index][:1]
                                             + state.down[s.index][:1])]
        return "winnable-pot" if any(c.rank == state.pot[0].rank for c in held) else "stuck-pot"

    return replaces("cardcanon.model.snap_endings", "ending_label", ending_label)


def _outcome_pot_stuck(original: Any, self: SnapState) -> Outcome | None:
    result: Outcome | None = original(self)  # SNAP-END-5 broken: every ending with a pot is recorded stuck-pot
    if result is not None and result.termination is m.Termination.WINNABLE_POT:
        return m.Outcome(m.Termination.STUCK_POT, result.winner)
    return result


# ---- Snap: calling policies, the seeded deal, the deck ---------------------------------------------
def _snap_before_pot(state: SnapState) -> CallKind | None:  # SNAP-POLICY-1 broken: "Snap!" before "Snap Pot!"
    correct = m.correct_kinds(state)
    return next((k for k in (m.CallKind.SNAP, m.CallKind.SNAP_POT, m.CallKind.HAND) if k in correct), None)


def _chance_inverted(rng: Any, rate: float) -> bool:  # SNAP-POLICY-1 broken: succeeds when the number is not below
    return bool(rng.next() >= int(rate * (1 << 64)))


def _flipper_first_snap(original: Any, self: Any, state: SnapState, rng: Any) -> Move:
    if m.CallKind.SNAP in m.correct_kinds(state):  # SNAP-POLICY-2 broken: "Snap!" when both are correct
        return m.Call(state.player, m.CallKind.SNAP)
    move: Move = original(self, state, rng)
    return move


def _flipper_first_left(original: Any, self: Any, state: SnapState, rng: Any) -> Move:
    move: Move = original(self, state, rng)  # SNAP-POLICY-2 broken: the player to his left calls
    if isinstance(move, m.Call):
        return m.Call(p._first_caller_from(state, Seat((state.player.index + 1) % state.config.players)), move.kind)
    return move


def _owner_first(*, last: bool = False, owner_pot: bool = False) -> Patch:
    def choose(self: Any, state: SnapState, rng: Any) -> Move:  # SNAP-POLICY-3 broken
        kind = p._preferred_kind(state)
        if kind is None:
            return m.NoCall()
        matched = m.matched_seats(state)
        if matched and (kind is not m.CallKind.SNAP_POT or owner_pot):
            return m.Call(matched[-1] if last else matched[0], kind)
        return m.Call(p._first_caller_from(state, state.player), kind)

    return replaces(POLICIES, "OwnerFirst.choose", choose)


def _ties(*, shuffle_first: bool = False, draw_always: bool = False) -> Patch:
    def choose(self: Any, state: SnapState, rng: Any) -> Move:  # SNAP-POLICY-4 broken
        kind = p._preferred_kind(state)
        if kind is None:
            if draw_always and not state.config.index_card:
                p.draw_chance(rng, self.rate)  # a draw although no call is correct
            return m.NoCall()
        callers = state.in_game
        if not state.config.index_card and p.draw_chance(rng, self.rate):
            if shuffle_first:  # the players shuffled before the number of them is drawn
                pool = rng.shuffled(callers)
                size = 2 + rng.below(len(callers) - 1)
            else:
                size = 2 + rng.below(len(callers) - 1)
                pool = rng.shuffled(callers)
            return m.Tie(frozenset(pool[:size]), kind)
        return m.Call(p._first_caller_from(state, state.player), kind)

    return replaces(POLICIES, "Ties.choose", choose)


def _errors_kind_first(self: Any, state: SnapState, rng: Any) -> Move:
    wrong = [k for k in state.config.kinds if k not in m.correct_kinds(state)]  # SNAP-POLICY-5 broken: kind first
    if wrong and p.draw_chance(rng, self.rate):
        kind = wrong[rng.below(len(wrong))]
        callers = state.in_game
        return m.Call(callers[rng.below(len(callers))], kind)
    return p.FlipperFirst().choose(state, rng)


def _seeded_deal(*, dealer_after: bool = False, dealer_range: int = 0) -> Patch:
    def sample_deal(config: SnapConfig, rng: Any) -> m.Deal:  # SNAP-SEED-2 / SNAP-DEAL-1 broken
        if dealer_after:
            order = rng.shuffled(config.deck)
            return m.Deal(Seat(rng.below(config.players)), order)
        dealer = Seat(rng.below(max(1, config.players + dealer_range)))
        return m.Deal(dealer, rng.shuffled(config.deck))

    return replaces(SNAP, "sample_deal", sample_deal)


def _shuffle_upward(self: Any, items: Any) -> tuple[Any, ...]:  # SNAP-SEED-1 broken: Fisher-Yates from the bottom up
    out = list(items)
    for i in range(1, len(out)):
        j = self.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


def _deck_unchecked(config: SnapConfig, order: tuple[Card, ...]) -> tuple[str, str] | None:
    if len(order) != len(config.deck):  # SNAP-DECK-1 broken: any 52 cards are dealt, a card twice too
        return "SNAP-DECK-1", "the dealt cards must be as many as the deck's"
    return None


_SNAP_MUTANTS = (
    ModelMutant("flip-bottom", "snap", "SNAP-FLIP-1", "the bottom card of the face-down pile is flipped",
                wraps(SNAP, "_apply_flip", _flip_bottom)),
    ModelMutant("turnover-unreversed", "snap", "SNAP-FLIP-3",
                "an empty face-down pile is replaced by the face-up pile without turning it over",
                replaces(SNAP, "turned_over", _unreversed)),
    ModelMutant("dealer-flips-first", "snap", "SNAP-TURN-1", "the dealer takes the first turn",
                wraps(SNAP, "_next_flip", _dealer_flips_first)),
    ModelMutant("turn-swapped", "snap", "SNAP-TURN-2",
                "the turn order of the other next_turn option (winner instead of clockwise and back)",
                wraps(SNAP, "next_player", _turn_swapped)),
    ModelMutant("out-not-skipped", "snap", "SNAP-OUT-1", "players who are out are not skipped: they get turns",
                combined(wraps(SNAP, "_next_flip", _out_get_turns), wraps(SNAP, "_apply_flip", _out_flip_nothing))),
    ModelMutant("out-players-call", "snap", "SNAP-CALL-2", "players who are out may call",
                combined(wraps(SNAP, "_apply_call_event", _out_call_counts),
                         wraps(SNAP, "move_problem", _out_call_allowed))),
    ModelMutant("win-without-flipper", "snap", "SNAP-CALL-1", "a correct call does not win the flipper's pile",
                _win_variant(without_flipper=True)),
    ModelMutant("win-one-match", "snap", "SNAP-CALL-4", "a correct call wins only the first matched pile",
                _win_variant(first_match_only=True)),
    ModelMutant("won-piles-unturned", "snap", "SNAP-CALL-5", "won piles go under the face-down pile unturned",
                _win_variant(unturned=True)),
    ModelMutant("pot-never-won", "snap", "SNAP-POT-1", "a correct \"Snap Pot!\" does not win the pot",
                wraps(SNAP, "_win", lambda win, state, winner, won_pot: win(state, winner, False))),
    ModelMutant("snap-takes-pot", "snap", "SNAP-POT-3", "a correct \"Snap!\" also wins a matching pot",
                wraps(SNAP, "_win", lambda win, state, winner, won_pot:
                      win(state, winner, won_pot or m.pot_matches(state)))),
    ModelMutant("tie-drops-matched", "snap", "SNAP-TIE-1", "a tie puts only the flipper's pile in the pot",
                replaces(SNAP, "_tie", lambda state: _broken_tie(state, only_flipper=True))),
    ModelMutant("tie-under-pot", "snap", "SNAP-TIE-2", "tied piles go under the Snap Pot",
                replaces(SNAP, "_tie", lambda state: _broken_tie(state, under_pot=True))),
    ModelMutant("pot-tie-flipper-only", "snap", "SNAP-POT-2", "a \"Snap Pot!\" tie moves only the flipper's pile",
                wraps(SNAP, "_apply_call_event", _pot_tie_flipper_only)),
    ModelMutant("index-tie", "snap", "SNAP-INDEX-1", "players may tie on the index card",
                combined(wraps(SNAP, "legal_moves", _index_ties_listed),
                         wraps(SNAP, "_apply_call_event", _index_tie_played),
                         wraps(SNAP, "move_problem", _index_tie_allowed)), {"index_card": "on"}),
    ModelMutant("wrong-call-free", "snap", "SNAP-PEN-1", "a wrong call costs nothing",
                replaces(SNAP, "_penalty", _penalty_free)),
    ModelMutant("penalty-to-left", "snap", "SNAP-PEN-2", "a flipper's penalty card goes to his left",
                wraps(SNAP, "penalty_recipient", _pays_left)),
    ModelMutant("penalty-to-out", "snap", "SNAP-OUT-1", "a flipper's penalty card may go to a player who is out",
                wraps(SNAP, "penalty_recipient", _pays_right)),
    ModelMutant("penalty-on-top", "snap", "SNAP-PEN-3", "the penalty card goes on top of the recipient's pile",
                replaces(SNAP, "_penalty", _penalty_on_top)),
    ModelMutant("end-down-only", "snap", "SNAP-END-2", "the game ends when at most one player has a face-down card",
                wraps(SNAP, "_next_flip", _ends_when(lambda state, down, up: sum(1 for pile in down if pile) <= 1))),
    ModelMutant("draw-has-winner", "snap", "SNAP-END-3", "a game where nobody holds cards names a winner",
                wraps(SNAP, "SnapState.outcome", _outcome_names_dealer("NO_CARDS"))),
    ModelMutant("position-without-turn", "snap", "SNAP-END-4", "a position leaves out whose turn it is",
                replaces(SNAP, "SnapState.position_key", _position_without_turn)),
    ModelMutant("deal-from-dealer", "snap", "SNAP-DEAL-2", "the deal starts with the dealer", _deal(from_dealer=True)),
    ModelMutant("first-dealt-on-top", "snap", "SNAP-DEAL-3", "the first card dealt is the top of the pile",
                _deal(first_on_top=True)),
    ModelMutant("match-colour", "snap", "SNAP-MATCH-1", "cards match only in rank and colour",
                combined(replaces(SNAP, "matched_seats", _matched_by(lambda up, card: _same_colour(up[0], card))),
                         replaces(SNAP, "pot_matches", _pot_matches_by_colour))),
    ModelMutant("pot-matches-any", "snap", "SNAP-MATCH-2", "any card of the pot matches, not only its top",
                replaces(SNAP, "pot_matches", _pot_matches_any)),
    ModelMutant("match-second-card", "snap", "SNAP-MATCH-2",
                "a face-up pile matches by its second card (the card under its top), when it has one",
                replaces(SNAP, "matched_seats", _matched_by(  # SNAP-MATCH-2 broken: reads below the top
                    lambda pile, card: pile[min(1, len(pile) - 1)].rank == card.rank))),
    # calling policies, the seeded deal, the table
    ModelMutant("pot-not-preferred", "snap", "SNAP-POLICY-1",
                "every policy calls \"Snap!\" when \"Snap Pot!\" is also correct",
                replaces(POLICIES, "_preferred_kind", _snap_before_pot)),
    ModelMutant("chance-inverted", "snap", "SNAP-POLICY-1", "a random draw succeeds when the number is at least RATE"
                " times 2^64", replaces(POLICIES, "draw_chance", _chance_inverted)),
    ModelMutant("flipper-first-snap", "snap", "SNAP-POLICY-2",
                "flipper-first calls \"Snap!\" when \"Snap Pot!\" is also correct",
                wraps(POLICIES, "FlipperFirst.choose", _flipper_first_snap)),
    ModelMutant("flipper-first-left", "snap", "SNAP-POLICY-2", "under flipper-first the player to the flipper's left"
                " calls", wraps(POLICIES, "FlipperFirst.choose", _flipper_first_left)),
    ModelMutant("owner-first-last-owner", "snap", "SNAP-POLICY-3",
                "owner-first: the owner of the last matched pile clockwise calls", _owner_first(last=True)),
    ModelMutant("owner-first-owner-pot", "snap", "SNAP-POLICY-3",
                "owner-first: the first owner calls \"Snap Pot!\" too", _owner_first(owner_pot=True)),
    ModelMutant("ties-draw-order", "snap", "SNAP-POLICY-4", "ties: the players are shuffled before k is drawn",
                _ties(shuffle_first=True)),
    ModelMutant("ties-draw-on-no-call", "snap", "SNAP-POLICY-4", "ties: a number is drawn when no call is correct",
                _ties(draw_always=True)),
    ModelMutant("errors-kind-first", "snap", "SNAP-POLICY-5", "errors: the wrong kind is drawn before the caller",
                replaces(POLICIES, "Errors.choose", _errors_kind_first)),
    ModelMutant("dealer-after-shuffle", "snap", "SNAP-SEED-2", "the dealer is drawn after the shuffle",
                _seeded_deal(dealer_after=True)),
    ModelMutant("dealer-never-last-seat", "snap", "SNAP-DEAL-1", "the last seat is never drawn as dealer",
                _seeded_deal(dealer_range=-1)),
    ModelMutant("shuffle-upward", "snap", "SNAP-SEED-1", "Fisher-Yates runs from the bottom of the list up",
                replaces("cardcanon.model.shuffle", "SplitMix64.shuffled", _shuffle_upward)),
    ModelMutant("deck-unchecked", "snap", "SNAP-DECK-1", "a deal of 52 cards is accepted with a card twice",
                replaces(SNAP, "deck_problem", _deck_unchecked)),
    ModelMutant("thirteen-players", "snap", "SNAP-PLAYERS-1", "13 players may play",
                combined(replaces(SNAP, "MAX_PLAYERS", 13), replaces(SNAP_TYPES, "MAX_PLAYERS", 13))),
    ModelMutant("one-player", "snap", "SNAP-PLAYERS-1", "one player may play",
                combined(replaces(SNAP, "MIN_PLAYERS", 1), replaces(SNAP_TYPES, "MIN_PLAYERS", 1))),
    # the endings
    ModelMutant("label-face-down-only", "snap", "SNAP-END-5",
                "the stuck-pot label reads only the holder's face-down pile", _label("down")),
    ModelMutant("label-top-cards-only", "snap", "SNAP-END-5",
                "the stuck-pot label reads only the holder's top cards", _label("tops")),
    ModelMutant("outcome-pot-always-stuck", "snap", "SNAP-END-5",
                "the outcome, which the records carry, labels every ending with cards in the Snap Pot stuck-pot",
                wraps(SNAP, "SnapState.outcome", _outcome_pot_stuck)),
    ModelMutant("all-cards-winner-dealer", "snap", "SNAP-END-1", "a game won with all the cards names the dealer",
                wraps(SNAP, "SnapState.outcome", _outcome_names_dealer("ALL_CARDS"))),
    ModelMutant("ends-at-three-quarters", "snap", "SNAP-GOAL-1",
                "a player holding three quarters of the deck has won",
                wraps(SNAP, "_next_flip", _ends_when(lambda state, down, up: max(
                    len(d) + len(u) for d, u in zip(down, up)) * 4 > 3 * len(state.config.deck)))),
    ModelMutant("position-by-pile-sizes", "snap", "SNAP-END-4", "positions are compared by the sizes of the piles",
                replaces(SNAP, "SnapState.position_key", _position_by_sizes)),
    ModelMutant("tie-of-one", "snap", "SNAP-CALL-3", "one player calling alone makes a tie",
                lambda: _ties_widened(single=True)),
    ModelMutant("tie-on-wrong-call", "snap", "SNAP-CALL-3", "two players making the same wrong call at once tie",
                lambda: _ties_widened(wrong=True)),
)

MUTANTS: dict[str, ModelMutant] = {}


def register(*mutants: ModelMutant) -> None:
    for mutant in mutants:
        key = f"{mutant.game}:{mutant.id}"
        if key in MUTANTS:
            raise ValueError(f"duplicate model mutant {key}")
        MUTANTS[key] = mutant


def for_rule(rule: str) -> tuple[str, ...]:
    """The keys of the mutants that break ``rule``."""
    return tuple(key for key, mutant in MUTANTS.items() if mutant.rule == rule)


from cardcanon.verify.model_mutants_hearts import HEARTS_MUTANTS  # noqa: E402 - it imports this module

register(*_SNAP_MUTANTS, *HEARTS_MUTANTS)
