"""A symbolic Snap position and the Z3 encoding of every call-window and flip transition.

A position has ``n`` seats (a concrete number). Cards are integer names; ``rank`` (a Z3 array)
maps a name to its rank and is left free in proofs, so a proof covers every deck whatever its
ranks. Each pile (a face-down or face-up pile of a seat, or the Snap Pot) is a :class:`Pile`:
a term builder ``at(i)`` for the card at position ``i`` and a symbolic length, index 0 the top,
exactly as in :mod:`cardcanon.model.snap`. The flipper ``turn`` is a symbolic seat (the proofs
fix it to each seat in turn, which keeps the queries small).

The transitions follow the model's rules one to one (SNAP-FLIP-1/3, SNAP-CALL-1..5,
SNAP-TIE-1/2, SNAP-POT-1..3, SNAP-INDEX-1, SNAP-PEN-1..3, SNAP-OUT-1, SNAP-TURN-2,
SNAP-END-1..3). A *shape* fixes the kind of move (flip, no call, a call or a tie of one call
kind); the caller and the tied players are symbolic. The mutants of the encoding
(deliberately broken rules) are named by the keys of :data:`MUTANTS`.

:func:`concrete_state` and :func:`evaluate` turn a model :class:`SnapState` into a symbolic one
and back, which is how the encoding is checked against the model's ``apply`` and how every Z3
model is replayed.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import z3

from cardcanon.model.seats import Seat
from cardcanon.model.snap import (
    Call, CallKind, Flip, Move, NextTurn, NoCall, Phase, SnapConfig, SnapState, Tie,
)

MUTANTS = {
    "tie-drops-matched": "SNAP-TIE-1/SNAP-CALL-4 broken: a tie puts only the flipper's pile in the pot and drops the matched piles",
    "penalty-no-turnover": "SNAP-PEN-3 broken: a wrong caller with an empty face-down pile pays without turning his face-up pile over",
    "index-tie": "SNAP-INDEX-1 broken: players may tie on the index card",
    "out-players-call": "SNAP-CALL-2 broken: players who are out may call",
    "end-down-only": "SNAP-END-2 broken: the game ends when at most one player has a face-down card",
}

PHASE_CODE = {Phase.FLIP: 0, Phase.CALL: 1, Phase.OVER: 2}
_NO_CARD = -1


@dataclass(frozen=True)
class Pile:
    """A pile as a term builder: ``at(i)`` is the card at position ``i`` (0 = top).

    Piles are built by composing Python functions rather than Z3 lambdas, so every formula
    is quantifier-free (Z3 models of lambda-built piles proved unreliable).
    """

    at: Callable[[Any], z3.ArithRef]
    length: z3.ArithRef


class MoveKind(str, enum.Enum):
    FLIP = "flip"
    NOCALL = "nocall"
    CALL = "call"
    TIE = "tie"


@dataclass(frozen=True)
class Shape:
    """The kind of move: ``flip``, ``nocall``, ``call`` or ``tie`` (with a call kind)."""

    move: MoveKind
    kind: CallKind | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "move", MoveKind(self.move))

    @property
    def call_kind(self) -> CallKind:
        """The call kind of a ``call`` or ``tie`` shape."""
        if self.kind is None:
            raise ValueError(f"a {self.move.value} shape has no call kind")
        return self.kind

    def __str__(self) -> str:
        return self.move.value if self.kind is None else f"{self.move.value}:{self.kind.value}"


def require_mutant(mutant: str | None, allowed: tuple[str, ...]) -> None:
    """Reject a mutant ID that the check does not implement (a typo must not pass silently)."""
    if mutant is not None and mutant not in allowed:
        raise ValueError(f"unknown mutant {mutant!r} for this check; expected one of {', '.join(allowed)}")


def shapes(config: SnapConfig) -> tuple[Shape, ...]:
    """Every move shape of the table (ties only without the index card, SNAP-INDEX-1)."""
    out = [Shape(MoveKind.FLIP), Shape(MoveKind.NOCALL)] + [Shape(MoveKind.CALL, k) for k in config.kinds]
    if not config.index_card:
        out += [Shape(MoveKind.TIE, k) for k in config.kinds]
    return tuple(out)


@dataclass(frozen=True)
class SymState:
    n: int
    down: tuple[Pile, ...]
    up: tuple[Pile, ...]
    pot: Pile
    turn: z3.ArithRef  # FLIP: who flips; CALL: who just flipped
    phase: z3.ArithRef  # PHASE_CODE
    rank: z3.ArrayRef  # card name -> rank

    def holds(self, s: int) -> z3.BoolRef:
        return self.down[s].length + self.up[s].length > 0

    def zones(self) -> tuple[Pile, ...]:
        return self.down + self.up + (self.pot,)


@dataclass(frozen=True)
class SymMove:
    """A symbolic move of a given shape: the caller, and for a tie the set of tied players."""

    shape: Shape
    caller: z3.ArithRef
    tied: tuple[z3.BoolRef, ...]


# ---- pile operations ------------------------------------------------------------------------
def empty() -> Pile:
    return Pile(lambda i: z3.IntVal(_NO_CARD), z3.IntVal(0))


def cat(p: Pile, q: Pile) -> Pile:
    return Pile(lambda i: z3.If(i < p.length, p.at(i), q.at(i - p.length)), p.length + q.length)


def rev(p: Pile) -> Pile:
    """A pile turned over as a whole: its top becomes its bottom."""
    return Pile(lambda i: p.at(p.length - 1 - i), p.length)


def tail(p: Pile) -> Pile:
    return Pile(lambda i: p.at(i + 1), p.length - 1)


def cons(card, p: Pile) -> Pile:
    return Pile(lambda i: z3.If(i == 0, card, p.at(i - 1)), p.length + 1)


def snoc(p: Pile, card) -> Pile:
    return Pile(lambda i: z3.If(i == p.length, card, p.at(i)), p.length + 1)


def ite(c, p: Pile, q: Pile) -> Pile:
    return Pile(lambda i: z3.If(c, p.at(i), q.at(i)), z3.If(c, p.length, q.length))


def select(items, index, combine=z3.If):
    """``items[index]`` for a symbolic index (the last item is the fallback)."""
    out = items[-1]
    for s in range(len(items) - 2, -1, -1):
        out = combine(index == s, items[s], out)
    return out


def select_pile(piles, index) -> Pile:
    return select(list(piles), index, ite)


# ---- the table in the call window -----------------------------------------------------------
def flipped(st: SymState):
    return select_pile(st.up, st.turn).at(0)


def matched(st: SymState) -> tuple[z3.BoolRef, ...]:
    """SNAP-MATCH-1/2: seat s (not the flipper) shows a card of the flipped card's rank."""
    r = st.rank[flipped(st)]
    return tuple(z3.And(st.turn != s, st.up[s].length > 0, st.rank[st.up[s].at(0)] == r) for s in range(st.n))


def pot_matches(st: SymState) -> z3.BoolRef:
    return z3.And(st.pot.length > 0, st.rank[st.pot.at(0)] == st.rank[flipped(st)])


def correct(st: SymState, kind: CallKind) -> z3.BoolRef:
    """SNAP-CALL-1, SNAP-POT-1/3, SNAP-INDEX-1, SNAP-PEN-1."""
    piles, pot = z3.Or(*matched(st)), pot_matches(st)
    return {CallKind.SNAP: piles, CallKind.SNAP_POT: pot, CallKind.HAND: z3.Or(piles, pot)}[kind]


def clockwise_from_turn(st: SymState, k: int):
    return (st.turn + k) % st.n


def holders(st: SymState) -> z3.ArithRef:
    return z3.Sum([z3.If(st.holds(s), 1, 0) for s in range(st.n)])


# ---- legality (the model's legal_moves, symbolically) ---------------------------------------
def legal(st: SymState, mv: SymMove, config: SnapConfig, mutant: str | None = None) -> z3.BoolRef:
    n, shape = st.n, mv.shape
    may_call = (lambda s: z3.BoolVal(True)) if mutant == "out-players-call" else st.holds  # SNAP-CALL-2
    if shape.move == "flip":  # SNAP-TURN-2: only the player whose turn it is flips
        return z3.And(st.phase == PHASE_CODE[Phase.FLIP], mv.caller == st.turn)
    in_call = st.phase == PHASE_CODE[Phase.CALL]
    if shape.move == "nocall":
        return in_call
    valid = shape.kind in config.kinds
    if shape.move == "call":
        return z3.And(in_call, valid, 0 <= mv.caller, mv.caller < n, select([may_call(s) for s in range(n)], mv.caller))
    ties_allowed = not config.index_card or mutant == "index-tie"  # SNAP-INDEX-1
    return z3.And(in_call, valid, ties_allowed, correct(st, shape.call_kind),
                  z3.Sum([z3.If(t, 1, 0) for t in mv.tied]) >= 2,
                  *[z3.Implies(mv.tied[s], may_call(s)) for s in range(n)])


# ---- transitions ----------------------------------------------------------------------------
def _turn_over(down: Pile, up: Pile, mutant_skip: bool = False) -> tuple[Pile, Pile]:
    """SNAP-FLIP-3: an empty face-down pile is replaced by the face-up pile turned over."""
    if mutant_skip:
        return down, up
    needed = down.length == 0
    return ite(needed, rev(up), down), ite(needed, empty(), up)


def _after_event(st: SymState, down, up, pot: Pile, winner, config: SnapConfig, mutant: str | None) -> SymState:
    """SNAP-TURN-2, SNAP-OUT-1, SNAP-END-1..3: pass the turn or end the game."""
    n = st.n
    post = SymState(n, tuple(down), tuple(up), pot, st.turn, st.phase, st.rank)
    holds = [post.holds(s) for s in range(n)]
    nxt = clockwise_from_turn(st, n)  # only the flipper left: the game is over anyway
    for k in range(n - 1, 0, -1):
        seat = clockwise_from_turn(st, k)
        nxt = z3.If(select(holds, seat), seat, nxt)
    if winner is not None and config.next_turn is NextTurn.WINNER:
        nxt = winner
    over = holders(post) <= 1
    if mutant == "end-down-only":
        over = z3.Sum([z3.If(post.down[s].length > 0, 1, 0) for s in range(n)]) <= 1
    phase = z3.If(over, PHASE_CODE[Phase.OVER], PHASE_CODE[Phase.FLIP])
    return SymState(n, post.down, post.up, pot, nxt, phase, st.rank)


def step(st: SymState, mv: SymMove, config: SnapConfig, mutant: str | None = None) -> SymState:
    """The position after ``mv`` (meaningful where :func:`legal` holds)."""
    n, shape, f = st.n, mv.shape, st.turn
    if shape.move == "flip":  # SNAP-FLIP-1/3
        down, up = [], []
        for s in range(n):
            d, u = _turn_over(st.down[s], st.up[s])
            me = f == s
            down.append(ite(me, tail(d), st.down[s]))
            up.append(ite(me, cons(d.at(0), u), st.up[s]))
        return SymState(n, tuple(down), tuple(up), st.pot, f, z3.IntVal(PHASE_CODE[Phase.CALL]), st.rank)
    if shape.move == "nocall":  # SNAP-CALL-3
        return _after_event(st, st.down, st.up, st.pot, None, config, mutant)
    m = matched(st)
    taken = [z3.Or(f == s, m[s]) for s in range(n)]  # flipper's pile and matched piles (SNAP-CALL-4)
    cleared_up = [ite(taken[s], empty(), st.up[s]) for s in range(n)]
    if shape.move == "tie":  # SNAP-TIE-1/2, SNAP-POT-2: flipper's pile uppermost, then clockwise
        pile = select_pile(st.up, f)
        for k in range(1, n):
            seat = clockwise_from_turn(st, k)
            if mutant != "tie-drops-matched":
                pile = cat(pile, ite(select(list(m), seat), select_pile(st.up, seat), empty()))
        return _after_event(st, st.down, cleared_up, cat(pile, st.pot), None, config, mutant)
    ok, w = correct(st, shape.call_kind), mv.caller
    # a correct call (SNAP-CALL-1/5, SNAP-POT-1/3, SNAP-INDEX-1): won piles turned over, in order
    won_pot = {CallKind.SNAP: z3.BoolVal(False), CallKind.SNAP_POT: z3.BoolVal(True),
               CallKind.HAND: pot_matches(st)}[shape.call_kind]
    won = rev(select_pile(st.up, f))
    for k in range(1, n):
        seat = clockwise_from_turn(st, k)
        won = cat(won, ite(select(list(m), seat), rev(select_pile(st.up, seat)), empty()))
    won = cat(won, ite(won_pot, rev(st.pot), empty()))
    win_down = [ite(w == s, cat(st.down[s], won), st.down[s]) for s in range(n)]
    win = _after_event(st, win_down, cleared_up, ite(won_pot, empty(), st.pot), w, config, mutant)
    # a wrong call (SNAP-PEN-1/2/3): the offender's top face-down card, under the recipient's pile
    holds = [st.holds(s) for s in range(n)]
    right = clockwise_from_turn(st, n)
    for k in range(n - 1, 0, -1):
        seat = (f - k) % n
        right = z3.If(select(holds, seat), seat, right)
    recipient = z3.If(w != f, f, right)
    turned = [_turn_over(st.down[s], st.up[s], mutant == "penalty-no-turnover") for s in range(n)]
    card = select([turned[s][0].at(0) for s in range(n)], w)
    pen_down = [ite(w == s, tail(turned[s][0]), ite(recipient == s, snoc(st.down[s], card), st.down[s]))
                for s in range(n)]
    pen_up = [ite(w == s, turned[s][1], st.up[s]) for s in range(n)]
    pen = _after_event(st, pen_down, pen_up, st.pot, None, config, mutant)
    return SymState(n, tuple(ite(ok, a, b) for a, b in zip(win.down, pen.down)),
                    tuple(ite(ok, a, b) for a, b in zip(win.up, pen.up)), ite(ok, win.pot, pen.pot),
                    z3.If(ok, win.turn, pen.turn), z3.If(ok, win.phase, pen.phase), st.rank)


def penalty_parts(st: SymState, mv: SymMove):
    """SNAP-PEN-1/2/3: the offender's card to give (after turn-over) and whether a recipient exists."""
    n, f, w = st.n, st.turn, mv.caller
    has_card = select([st.holds(s) for s in range(n)], w)
    others = z3.Or(*[z3.And(f != s, st.holds(s)) for s in range(n)])
    return has_card, z3.Or(w != f, others)


# ---- symbolic moves and the structural invariant ---------------------------------------------
def fresh_move(shape: Shape, n: int, prefix: str = "") -> SymMove:
    return SymMove(shape, z3.Int(prefix + "caller"), tuple(z3.Bool(f"{prefix}tied{s}") for s in range(n)))


def structural(st: SymState) -> z3.BoolRef:
    """The position is a game in progress: a flipper who holds cards (FLIP) or shows the card
    just flipped (CALL), and at least two players hold cards (SNAP-END-1/2/3)."""
    n = st.n
    return z3.And(0 <= st.turn, st.turn < n, z3.Or(st.phase == 0, st.phase == 1), holders(st) >= 2,
                  z3.Implies(st.phase == 0, select([st.holds(s) for s in range(n)], st.turn)),
                  z3.Implies(st.phase == 1, select_pile(st.up, st.turn).length >= 1))


def structural_after(st: SymState) -> z3.BoolRef:
    """After a move: either the game is over (at most one holder) or the position is structural."""
    return z3.Or(z3.And(st.phase == PHASE_CODE[Phase.OVER], holders(st) <= 1), structural(st))


# ---- concrete positions ---------------------------------------------------------------------
def _concrete_pile(cards, ids) -> Pile:
    names = [ids[c] for c in cards]

    def at(i):
        index = i if isinstance(i, int) else z3.simplify(i)
        if not isinstance(index, int) and z3.is_int_value(index):
            index = index.as_long()
        if isinstance(index, int):
            return z3.IntVal(names[index] if 0 <= index < len(names) else _NO_CARD)
        return select([z3.IntVal(c) for c in names] + [z3.IntVal(_NO_CARD)], index)

    return Pile(at, z3.IntVal(len(cards)))


def concrete_state(state: SnapState) -> SymState:
    """A model position (FLIP or CALL phase) as a fully concrete symbolic state."""
    deck = state.config.deck
    ids = {c: i for i, c in enumerate(deck)}
    rank = z3.K(z3.IntSort(), z3.IntVal(0))
    for i, c in enumerate(deck):
        rank = z3.Store(rank, i, int(c.rank))
    return SymState(state.config.players, tuple(_concrete_pile(p, ids) for p in state.down),
                    tuple(_concrete_pile(p, ids) for p in state.up), _concrete_pile(state.pot, ids),
                    z3.IntVal(state.player.index), z3.IntVal(PHASE_CODE[state.phase]), rank)


def concrete_move(move: Move, n: int) -> SymMove:
    if isinstance(move, Flip):
        return SymMove(Shape(MoveKind.FLIP), z3.IntVal(move.player.index), tuple(z3.BoolVal(False) for _ in range(n)))
    if isinstance(move, NoCall):
        return SymMove(Shape(MoveKind.NOCALL), z3.IntVal(-1), tuple(z3.BoolVal(False) for _ in range(n)))
    if isinstance(move, Call):
        return SymMove(Shape(MoveKind.CALL, move.kind), z3.IntVal(move.caller.index),
                       tuple(z3.BoolVal(False) for _ in range(n)))
    if isinstance(move, Tie):
        seats = {s.index for s in move.callers}
        return SymMove(Shape(MoveKind.TIE, move.kind), z3.IntVal(-1), tuple(z3.BoolVal(s in seats) for s in range(n)))
    raise TypeError(f"not a call-window or flip move: {move!r}")


@dataclass(frozen=True)
class Position:
    """A symbolic state read back under a Z3 model (or by simplification): piles of card names."""

    down: tuple[tuple[int, ...], ...]
    up: tuple[tuple[int, ...], ...]
    pot: tuple[int, ...]
    turn: int
    phase: Phase


def evaluate(st: SymState, model: z3.ModelRef | None = None) -> Position:
    """Read a symbolic state back, under ``model`` or (for concrete states) by simplification."""
    def val(term) -> int:
        term = model.eval(term, model_completion=True) if model is not None else z3.simplify(term)
        return term.as_long()

    def pile(p: Pile) -> tuple[int, ...]:
        return tuple(val(p.at(z3.IntVal(i))) for i in range(val(p.length)))

    phase = {v: k for k, v in PHASE_CODE.items()}[val(st.phase)]
    return Position(tuple(pile(p) for p in st.down), tuple(pile(p) for p in st.up), pile(st.pot),
                    val(st.turn), phase)


def position_of(state: SnapState) -> Position:
    """A model position in the same form (card names = deck positions)."""
    ids = {c: i for i, c in enumerate(state.config.deck)}
    names = lambda pile: tuple(ids[c] for c in pile)  # noqa: E731
    turn = state.turn.index if state.turn is not None else -1
    return Position(tuple(map(names, state.down)), tuple(map(names, state.up)), names(state.pot), turn, state.phase)


def same_position(encoded: Position, modelled: Position) -> bool:
    """Equal piles, phase and, while the game goes on, turn (the model clears it at the end)."""
    if (encoded.down, encoded.up, encoded.pot, encoded.phase) != (
            modelled.down, modelled.up, modelled.pot, modelled.phase):
        return False
    return encoded.phase is Phase.OVER or encoded.turn == modelled.turn


def to_model_state(pos: Position, config: SnapConfig) -> SnapState:
    """A :class:`SnapState` for a position read from a Z3 model (card names = deck positions)."""
    deck = config.deck
    cards = lambda pile: tuple(deck[i] for i in pile)  # noqa: E731
    return SnapState(config, pos.phase, Seat(0), tuple(map(cards, pos.down)), tuple(map(cards, pos.up)),
                     cards(pos.pot), Seat(pos.turn), 1)


def model_move(mv: SymMove, model: z3.ModelRef, n: int) -> Move:
    """The concrete move a Z3 model picks for a symbolic move."""
    shape = mv.shape
    if shape.move == "flip":
        return Flip(Seat(model.eval(mv.caller, model_completion=True).as_long()))
    if shape.move == "nocall":
        return NoCall()
    if shape.move == "call":
        return Call(Seat(model.eval(mv.caller, model_completion=True).as_long()), shape.call_kind)
    tied = frozenset(Seat(s) for s in range(n) if z3.is_true(model.eval(mv.tied[s], model_completion=True)))
    return Tie(tied, shape.call_kind)
