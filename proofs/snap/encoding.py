"""A symbolic Snap position and the Z3 encoding of every call-window and flip transition.

A position has ``n`` seats (a concrete number). Cards are integer names; ``rank`` (a Z3 array)
maps a name to its rank and is left free in proofs, so a proof covers every deck whatever its
ranks. Each pile (a face-down or face-up pile of a seat, or the Snap Pot) is a :class:`Pile`,
index 0 the top, as in :mod:`cardcanon.model.snap`. The flipper ``turn`` is a symbolic seat
(the proofs fix it to each seat in turn, which keeps the queries small).

The pile algebra below moves whole piles as the model's transitions do (SNAP-FLIP-1/3,
SNAP-CALL-4/5, SNAP-TIE-1/2, SNAP-POT-1..3, SNAP-PEN-1/3); what they decide about a position is
not written here but derived from the model (:mod:`cardcanon.proofs.snap.derived`): which piles
are matched and which calls are correct, who may call, the penalty's recipient and who flips
next. The end of the game (SNAP-END-1..3: at most one player holds cards) is stated here: the
model counts the holders with a filter, which path exploration would follow on ``3^n`` paths.
So is the first receiver of SNAP-P2's deal (:func:`first_receiver`), which a probe patches.
A *shape* fixes the kind of move (flip, no call, a call or a tie of one call kind); the caller
and the tied players are symbolic. A check's encoding probe (the manifest's ``[[check.probe]]``)
is passed as ``probe``: it patches a function while one part of the step is built
(:mod:`cardcanon.proofs.snap.probes`).

Every constraint and term is tagged with the rule that states it, so that a vacuity probe
(:mod:`cardcanon.proofs.drops`, ``drop=Drop("SNAP-TIE-1")``) can leave that rule out: its
constraints become ``True`` and the terms it defines fresh, unconstrained constants.
:data:`STATES` lists the rules the encoding states.

:func:`concrete_state` and :func:`evaluate` turn a model :class:`SnapState` into a symbolic one
and back, which is how the encoding is checked against the model's ``apply`` and how every Z3
model is replayed.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import z3

from cardcanon.model.cards import Card
from cardcanon.model.seats import Seat
from cardcanon.model.snap import Call, CallKind, Flip, Move, NoCall, Phase, SnapConfig, SnapState, Tie
from cardcanon.model.snap_text import table_text
from cardcanon.proofs.base import Run
from cardcanon.proofs.drops import Drop
from cardcanon.proofs.rulebook import value
from cardcanon.proofs.snap import derived
from cardcanon.proofs.snap.derived import Template
from cardcanon.proofs.snap.probes import breaking
from cardcanon.proofs.symbolic.terms import (
    above, at_least, below, choice, decided, element, equal, integer, minus, plus, stored, total, value_of,
)


# The rules whose constraints and terms a drop probe can leave out of this encoding.
STATES = frozenset({
    "SNAP-MATCH-1", "SNAP-FLIP-1", "SNAP-FLIP-3", "SNAP-CALL-1", "SNAP-CALL-2", "SNAP-CALL-4", "SNAP-CALL-5",
    "SNAP-TIE-1", "SNAP-TIE-2", "SNAP-POT-1", "SNAP-POT-2", "SNAP-POT-3", "SNAP-INDEX-1", "SNAP-PEN-1",
    "SNAP-PEN-2", "SNAP-PEN-3", "SNAP-TURN-2", "SNAP-OUT-1", "SNAP-END-2", "SNAP-END-3",
})
# The rule that states what a correct call of each kind wins, and what a tie of each kind does.
WINS = {CallKind.SNAP: "SNAP-CALL-1", CallKind.SNAP_POT: "SNAP-POT-1", CallKind.HAND: "SNAP-INDEX-1"}
TIES = {CallKind.SNAP: "SNAP-TIE-1", CallKind.SNAP_POT: "SNAP-POT-2", CallKind.HAND: "SNAP-TIE-1"}

PHASE_CODE = {Phase.FLIP: 0, Phase.CALL: 1, Phase.OVER: 2}
_NO_CARD = -1


@dataclass(frozen=True)
class Pile:
    """A pile as a term builder: ``at(i)`` is the card at position ``i`` (0 = top), ``count(c)``
    how many of its positions hold card ``c``.

    Piles are built by composing Python functions rather than Z3 lambdas, so every formula
    is quantifier-free (Z3 models of lambda-built piles proved unreliable). Each operation
    below keeps ``count`` equal to the number of ``i < length`` with ``at(i) == c`` as long as
    no operand of a concatenation has a negative length.
    """

    at: Callable[[Any], z3.ArithRef]
    length: z3.ArithRef
    count: Callable[[Any], z3.ArithRef]

    def __post_init__(self) -> None:
        object.__setattr__(self, "at", _shared(self.at))
        object.__setattr__(self, "count", _shared(self.count))


def _shared(build: Callable[[Any], z3.ArithRef]) -> Callable[[Any], z3.ArithRef]:
    """``build``, building each term once per argument (an int, or a term named by its Z3 id):
    a pile's terms nest the terms of the piles it is made of, and each is asked many times."""
    built: dict[tuple[bool, int], tuple[Any, z3.ArithRef]] = {}

    def term(arg: Any) -> z3.ArithRef:
        key = (True, arg) if isinstance(arg, int) else (False, arg.get_id())
        if key not in built:
            built[key] = (arg, build(arg))  # the argument is kept, so that its id is not reused
        return built[key][1]

    return term


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

    @property
    def call_kind(self) -> CallKind:
        """The call kind of a ``call`` or ``tie`` shape."""
        if self.kind is None:
            raise ValueError(f"a {self.move.value} shape has no call kind")
        return self.kind

    def __str__(self) -> str:
        return self.move.value if self.kind is None else f"{self.move.value}:{self.kind.value}"


def probe_of(run: Run, known: Collection[str], states: Collection[str] = STATES) -> tuple[str | None, Drop]:
    """The run's encoding probe (one of ``known``; None when there is none) and the rule it drops
    (a drop probe of a check whose encoding states ``states``); an unknown probe raises ValueError."""
    return run.encoding_probe(known), Drop.of(run.probe_id, states)


def shapes(config: SnapConfig, drop: Drop = Drop()) -> tuple[Shape, ...]:
    """Every move shape of the table (ties only without the index card, SNAP-INDEX-1)."""
    out = [Shape(MoveKind.FLIP), Shape(MoveKind.NOCALL)] + [Shape(MoveKind.CALL, k) for k in config.kinds]
    if not config.index_card or not drop.keeps("SNAP-INDEX-1"):
        out += [Shape(MoveKind.TIE, k) for k in config.kinds]
    return tuple(out)


# ---- tagging: what a drop probe leaves out ---------------------------------------------------
def _gone(drop: Drop, rules: Sequence[str]) -> str | None:
    """The one of ``rules`` that ``drop`` leaves out, if any."""
    return next((r for r in rules if not drop.keeps(r)), None)


def _term(drop: Drop, rules: Sequence[str], term: Any, name: str) -> Any:
    """``term``, stated by each of ``rules``; a fresh constant when one of them is dropped."""
    rule = _gone(drop, rules)
    return term if rule is None else drop.term(rule, term, name)


def _fact(drop: Drop, rules: Sequence[str], constraint: Any) -> Any:
    """A constraint stated by each of ``rules``; ``True`` when one of them is dropped."""
    rule = _gone(drop, rules)
    return constraint if rule is None else drop.constraint(rule, constraint)


def _pile(drop: Drop, rules: Sequence[str], pile: Pile, name: str) -> Pile:
    """A pile stated by ``rules``; when one is dropped, a fresh pile (free cards, free length)."""
    rule = _gone(drop, rules)
    if rule is None:
        return pile
    cards = z3.Array(f"dropped!{rule}!{name}.cards", z3.IntSort(), z3.IntSort())
    count = z3.Function(f"dropped!{rule}!{name}.count", z3.IntSort(), z3.IntSort())
    return Pile(lambda i: cards[i], drop.term(rule, pile.length, name + ".length"), count)


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
        return above(plus(self.down[s].length, self.up[s].length), 0)

    def zones(self) -> tuple[Pile, ...]:
        return self.down + self.up + (self.pot,)


@dataclass(frozen=True)
class SymMove:
    """A symbolic move of a given shape: the caller, and for a tie the set of tied players."""

    shape: Shape
    caller: z3.ArithRef
    tied: tuple[z3.BoolRef, ...]


# ---- pile operations ------------------------------------------------------------------------
# (terms built through Z3's C API, :mod:`cardcanon.proofs.symbolic.terms`: the same terms as the
# Python operators and ``z3.If`` build, at a fraction of the cost)
def empty() -> Pile:
    return Pile(lambda i: integer(_NO_CARD), integer(0), lambda c: integer(0))


def cat(p: Pile, q: Pile) -> Pile:
    return Pile(lambda i: choice(below(i, p.length), p.at(i), q.at(minus(i, p.length))), plus(p.length, q.length),
                lambda c: plus(p.count(c), q.count(c)))


def rev(p: Pile) -> Pile:
    """A pile turned over as a whole: its top becomes its bottom."""
    return Pile(lambda i: p.at(minus(minus(p.length, 1), i)), p.length, p.count)


def tail(p: Pile) -> Pile:
    return Pile(lambda i: p.at(i + 1), minus(p.length, 1),
                lambda c: minus(p.count(c), choice(z3.And(at_least(p.length, 1), equal(p.at(0), c)), 1, 0)))


def _one(card: z3.ArithRef, c: z3.ArithRef) -> z3.ArithRef:
    return choice(equal(card, c), 1, 0)


def cons(card: z3.ArithRef, p: Pile) -> Pile:
    return Pile(lambda i: choice(equal(i, 0), card, p.at(i - 1)), plus(p.length, 1),
                lambda c: plus(_one(card, c), p.count(c)))


def snoc(p: Pile, card: z3.ArithRef) -> Pile:
    return Pile(lambda i: choice(equal(i, p.length), card, p.at(i)), plus(p.length, 1),
                lambda c: plus(p.count(c), _one(card, c)))


def ite(c: z3.BoolRef, p: Pile, q: Pile) -> Pile:
    """``p`` where ``c`` holds, else ``q``; one of them when ``c`` is known (a concrete seat)."""
    known = decided(c)
    if known is not None:
        return p if known else q
    return Pile(lambda i: choice(c, p.at(i), q.at(i)), choice(c, p.length, q.length),
                lambda card: choice(c, p.count(card), q.count(card)))


T = TypeVar("T")


def select(items: Sequence[T], index: z3.ArithRef, combine: Callable[[z3.BoolRef, T, T], T] = choice) -> T:
    """``items[index]`` for a symbolic index (the last item is the fallback)."""
    out = items[-1]
    for s in range(len(items) - 2, -1, -1):
        out = combine(equal(index, s), items[s], out)
    return out


def select_pile(piles: Sequence[Pile], index: z3.ArithRef) -> Pile:
    return select(list(piles), index, ite)


# ---- the table in the call window -----------------------------------------------------------
def flipped(st: SymState) -> z3.ArithRef:
    return select_pile(st.up, st.turn).at(0)


def template(st: SymState, drop: Drop = Drop(), where: str = "pre", winner: z3.ArithRef | None = None) -> Template:
    """The position's terms for the template the model's functions were derived on. Whether a
    pile holds cards is its length; a drop of SNAP-OUT-1 frees whether each seat holds cards
    (``where`` names the position for the fresh constants)."""
    down, up = [above(p.length, 0) for p in st.down], [above(p.length, 0) for p in st.up]
    if not drop.keeps("SNAP-OUT-1"):
        down, up = holding(st, drop, where), [z3.BoolVal(False)] * st.n
    return Template(down, up, above(st.pot.length, 0), [element(st.rank, p.at(0)) for p in st.up], element(st.rank, st.pot.at(0)), winner)


def _table(st: SymState, config: SnapConfig | None, kind: CallKind | None = None) -> SnapConfig:
    """The table the terms are derived for (without ``config``: ``n`` seats, the index card as
    ``kind`` says)."""
    return config if config is not None else SnapConfig(players=st.n, index_card=kind is CallKind.HAND)


def matched(st: SymState, drop: Drop = Drop(), config: SnapConfig | None = None) -> tuple[z3.BoolRef, ...]:
    """SNAP-MATCH-1/2: whether ``matched_seats`` lists seat s, derived from the model."""
    table, tpl = _table(st, config), template(st)

    def seats(f: int) -> tuple[z3.BoolRef, ...]:  # every seat's term for the flipper f
        return tuple(tpl.put(term) for term in derived.matched_all(table, f))

    def each(c: z3.BoolRef, p: tuple[z3.BoolRef, ...], q: tuple[z3.BoolRef, ...]) -> tuple[z3.BoolRef, ...]:
        return tuple(choice(c, a, b) for a, b in zip(p, q))

    terms = per_flipper(st, seats, each)
    return tuple(_term(drop, ("SNAP-MATCH-1",), terms[s], f"matched.{s}") for s in range(st.n))


def holding(st: SymState, drop: Drop = Drop(), where: str = "pre") -> list[z3.BoolRef]:
    """SNAP-OUT-1: who holds cards (is not out), as the transitions read it; ``where`` names the
    position for the fresh constants of a drop probe."""
    return [_term(drop, ("SNAP-OUT-1",), st.holds(s), f"holds.{where}.{s}") for s in range(st.n)]


def pot_matches(st: SymState, config: SnapConfig | None = None) -> z3.BoolRef:
    """SNAP-MATCH-2: ``pot_matches``, derived from the model."""
    table, tpl = _table(st, config), template(st)
    return per_flipper(st, lambda f: tpl.put(derived.pot_matches(table, f)))


def correct(st: SymState, kind: CallKind, drop: Drop = Drop(), config: SnapConfig | None = None) -> z3.BoolRef:
    """SNAP-CALL-1, SNAP-POT-1/3, SNAP-INDEX-1, SNAP-PEN-1: whether ``correct_kinds`` holds
    ``kind``, derived from the model given the matched piles and pot."""
    table = _table(st, config, kind)
    given = [(derived.MATCHED, z3.Or(*matched(st, drop, table))), (derived.POT_MATCHED, pot_matches(st, table))]
    return _term(drop, (WINS[kind],), z3.substitute(derived.correct(table)[kind], *given), f"correct.{kind.value}")


def per_flipper(st: SymState, build: Callable[[int], T], combine: Callable[[z3.BoolRef, T, T], T] = choice) -> T:
    """``build(f)`` for the flipper ``f`` (seats worked out for each concrete flipper, so that no
    query has modular arithmetic on a symbolic seat)."""
    turn = z3.simplify(st.turn)
    if z3.is_int_value(turn):
        return build(turn.as_long())
    return select([build(f) for f in range(st.n)], st.turn, combine)


def holders(st: SymState) -> z3.ArithRef:
    return total([choice(st.holds(s), 1, 0) for s in range(st.n)])


# ---- legality (the model's legal_moves, symbolically) ---------------------------------------
def legal(st: SymState, mv: SymMove, config: SnapConfig, probe: str | None = None, drop: Drop = Drop()) -> z3.BoolRef:
    n, shape, tpl = st.n, mv.shape, template(st, drop)
    with breaking(probe, "legal"):
        callers = [tpl.put(term) for term in derived.may_call_all(config)]
    def may_call(s: int) -> z3.BoolRef:  # SNAP-CALL-2 (players who are out, SNAP-OUT-1, may not)
        return _fact(drop, ("SNAP-CALL-2",), callers[s])
    if shape.move == "flip":  # SNAP-FLIP-1: only the player whose turn it is flips
        return z3.And(st.phase == PHASE_CODE[Phase.FLIP], _fact(drop, ("SNAP-FLIP-1",), mv.caller == st.turn))
    in_call = st.phase == PHASE_CODE[Phase.CALL]
    if shape.move == "nocall":
        return in_call
    valid = shape.kind in config.kinds
    if shape.move == "call":
        return z3.And(in_call, valid, 0 <= mv.caller, mv.caller < n, select([may_call(s) for s in range(n)], mv.caller))
    ties_allowed = _fact(drop, ("SNAP-INDEX-1",), z3.BoolVal(not config.index_card))
    tie = _fact(drop, (TIES[shape.call_kind],), z3.And(correct(st, shape.call_kind, drop, config),
                                                       z3.Sum([z3.If(t, 1, 0) for t in mv.tied]) >= 2))
    return z3.And(in_call, valid, ties_allowed, tie, *[z3.Implies(mv.tied[s], may_call(s)) for s in range(n)])


# ---- transitions ----------------------------------------------------------------------------
def turn_over(down: Pile, up: Pile, drop: Drop = Drop(), rules: Sequence[str] = (), name: str = "") -> tuple[Pile, Pile]:
    """SNAP-FLIP-3: an empty face-down pile is replaced by the face-up pile turned over (also
    stated by each of ``rules``, the rules that call for the turn-over). Pile algebra: which card
    goes where is the representation, and SNAP-P9 compares it with the model's ``turned_over``."""
    needed = down.length == 0
    rules = ("SNAP-FLIP-3", *rules)
    return (_pile(drop, rules, ite(needed, rev(up), down), f"{name}.turned-down"),
            _pile(drop, rules, ite(needed, empty(), up), f"{name}.turned-up"))


def _after_event(st: SymState, down: Sequence[Pile], up: Sequence[Pile], pot: Pile, winner: z3.ArithRef | None,
                 config: SnapConfig, probe: str | None, drop: Drop = Drop(), where: str = "post") -> SymState:
    """SNAP-TURN-2, SNAP-OUT-1, SNAP-END-1..3: pass the turn or end the game."""
    n = st.n
    post = SymState(n, tuple(down), tuple(up), pot, st.turn, st.phase, st.rank)
    tpl = template(post, drop, where, winner)
    nxt = per_flipper(st, lambda f: tpl.put(derived.next_player(config, f, winner is not None)))
    nxt = _term(drop, ("SNAP-TURN-2",), nxt, f"{where}.turn")
    with breaking(probe, "end"):
        one, none = ends(post)
    over = z3.Or(_term(drop, ("SNAP-END-2",), one, f"{where}.one-holder-ends"),
                 _term(drop, ("SNAP-END-3",), none, f"{where}.no-holder-ends"))
    phase = z3.If(over, PHASE_CODE[Phase.OVER], PHASE_CODE[Phase.FLIP])
    return SymState(n, post.down, post.up, pot, nxt, phase, st.rank)


def ends(post: SymState) -> tuple[z3.BoolRef, z3.BoolRef]:
    """SNAP-END-2, SNAP-END-3: the game ends when one player holds cards, or none does."""
    count = holders(post)
    return count == 1, count == 0


def first_receiver() -> int:
    """SNAP-DEAL-2 as SNAP-P2's deal states it: the first card goes to the seat one clockwise from
    the dealer (his left); kept here, beside the step's functions a probe patches."""
    return 1


def _matched_block(st: SymState, m: Sequence[z3.BoolRef], turned: bool, drop: Drop, name: str) -> Pile:
    """SNAP-CALL-4: every matched pile other than the flipper's, clockwise from the flipper
    (each turned over as a whole for a winner, SNAP-CALL-5)."""
    def block(f: int) -> Pile:
        out = empty()
        for seat in ((f + k) % st.n for k in range(1, st.n)):
            out = cat(out, ite(m[seat], rev(st.up[seat]) if turned else st.up[seat], empty()))
        return out

    return _pile(drop, ("SNAP-CALL-4",), per_flipper(st, block, ite), name)


def step(st: SymState, mv: SymMove, config: SnapConfig, probe: str | None = None, drop: Drop = Drop()) -> SymState:
    """The position after ``mv`` (meaningful where :func:`legal` holds)."""
    n, shape, f = st.n, mv.shape, st.turn
    if shape.move == "flip":  # SNAP-FLIP-1/3
        down, up = [], []
        for s in range(n):
            d, u = turn_over(st.down[s], st.up[s], drop, name=f"flip.{s}")
            me = equal(f, s)
            down.append(ite(me, _pile(drop, ("SNAP-FLIP-1",), tail(d), f"flip.down.{s}"), st.down[s]))
            up.append(ite(me, _pile(drop, ("SNAP-FLIP-1",), cons(d.at(0), u), f"flip.up.{s}"), st.up[s]))
        return SymState(n, tuple(down), tuple(up), st.pot, f, z3.IntVal(PHASE_CODE[Phase.CALL]), st.rank)
    if shape.move == "nocall":  # SNAP-CALL-3
        return _after_event(st, st.down, st.up, st.pot, None, config, probe, drop, "nocall")
    m = matched(st, drop, config)
    taken = [z3.Or(equal(f, s), m[s]) for s in range(n)]  # flipper's pile and matched piles (SNAP-CALL-4)
    if shape.move == "tie":  # SNAP-TIE-1/2, SNAP-POT-2: flipper's pile uppermost, then clockwise
        rule = TIES[shape.call_kind]
        with breaking(probe, "tie"):
            moved = matched(st, drop, config)
        pile = cat(select_pile(st.up, f), _matched_block(st, moved, False, drop, "tie.matched"))
        pile = _pile(drop, (rule,), pile, "tie.piles")
        cleared = [_pile(drop, (rule,), ite(taken[s], empty(), st.up[s]), f"tie.up.{s}") for s in range(n)]
        pot = cat(pile, st.pot)  # SNAP-TIE-2: onto the pot, if there is one
        if not drop.keeps("SNAP-TIE-2"):
            pot = ite(st.pot.length == 0, pile, _pile(drop, ("SNAP-TIE-2",), pot, "tie.onto-pot"))
        return _after_event(st, st.down, cleared, pot, None, config, probe, drop, "tie")
    kind, w = shape.call_kind, mv.caller
    ok = correct(st, kind, drop, config)
    # a correct call (SNAP-CALL-1/5, SNAP-POT-1/3, SNAP-INDEX-1): won piles turned over, in order
    won_pot = {CallKind.SNAP: _term(drop, ("SNAP-POT-3",), z3.BoolVal(False), "snap-wins-pot"),
               CallKind.SNAP_POT: _term(drop, ("SNAP-POT-1",), z3.BoolVal(True), "snap-pot-wins-pot"),
               CallKind.HAND: _term(drop, ("SNAP-INDEX-1",), pot_matches(st, config), "hand-wins-pot")}[kind]
    won = cat(rev(select_pile(st.up, f)), _matched_block(st, m, True, drop, "won.matched"))
    won = _pile(drop, ("SNAP-CALL-5",), cat(won, ite(won_pot, rev(st.pot), empty())), "won")
    win_down = [ite(equal(w, s), _pile(drop, ("SNAP-CALL-5",), cat(st.down[s], won), f"win.down.{s}"), st.down[s])
                for s in range(n)]
    win_up = [_pile(drop, (WINS[kind],), ite(taken[s], empty(), st.up[s]), f"win.up.{s}") for s in range(n)]
    win = _after_event(st, win_down, win_up, ite(won_pot, empty(), st.pot), w, config, probe, drop, "win")
    pen = penalty_step(st, mv, config, probe, drop)
    return SymState(n, tuple(ite(ok, a, b) for a, b in zip(win.down, pen.down)),
                    tuple(ite(ok, a, b) for a, b in zip(win.up, pen.up)), ite(ok, win.pot, pen.pot),
                    choice(ok, win.turn, pen.turn), choice(ok, win.phase, pen.phase), st.rank)


def penalty_step(st: SymState, mv: SymMove, config: SnapConfig, probe: str | None = None,
                 drop: Drop = Drop()) -> SymState:
    """The position after a wrong call (SNAP-PEN-1/2/3): the offender's top face-down card, under
    the recipient's pile. :func:`step` takes it for a call that is not correct; it reads nothing
    of the call's kind or of who flips after a win, so one term serves every call kind."""
    n, w = st.n, mv.caller
    recipient, turned, card = _penalty_terms(st, mv, config, probe, drop)
    pen_down = [ite(equal(w, s), _pile(drop, ("SNAP-PEN-1",), tail(turned[s][0]), f"pen.offender-down.{s}"),
                    ite(equal(recipient, s), _pile(drop, ("SNAP-PEN-3",), snoc(st.down[s], card), f"pen.recipient-down.{s}"),
                        st.down[s]))
                for s in range(n)]
    pen_up = [ite(equal(w, s), turned[s][1], st.up[s]) for s in range(n)]
    return _after_event(st, pen_down, pen_up, st.pot, None, config, probe, drop, "pen")


def _penalty_terms(st: SymState, mv: SymMove, config: SnapConfig | None, probe: str | None, drop: Drop,
             ) -> tuple[z3.ArithRef, list[tuple[Pile, Pile]], z3.ArithRef]:
    """SNAP-PEN-1/2/3: who receives the penalty card (``penalty_recipient``, derived: the value
    for another offender is SNAP-PEN-1's, for the flipper SNAP-PEN-2's), every seat's piles after
    the SNAP-FLIP-3 turn-over (only the offender's are used), and the card (the offender's top
    face-down card)."""
    n, f, w = st.n, st.turn, mv.caller
    table, tpl = _table(st, config), template(st, drop)

    def recipient_of(flipper: int) -> z3.ArithRef:
        terms = derived.recipients(table, flipper)
        other = select([tpl.put(terms[o]) for o in range(n)], w)
        own = tpl.put(terms[flipper])
        return z3.If(w != flipper, _term(drop, ("SNAP-PEN-1",), other, "pen.to-flipper"),
                     _term(drop, ("SNAP-PEN-2",), own, "pen.to-right"))

    recipient = per_flipper(st, recipient_of)
    with breaking(probe, "penalty"):
        turned = [turn_over(st.down[s], st.up[s], drop, ("SNAP-PEN-3",), f"pen.{s}") for s in range(n)]
    card = _term(drop, ("SNAP-PEN-1",), select([turned[s][0].at(0) for s in range(n)], w), "pen.card")
    return recipient, turned, card


def penalty_recipient(st: SymState, mv: SymMove, drop: Drop = Drop(), config: SnapConfig | None = None,
                      ) -> z3.ArithRef:
    """Who receives the penalty card of a wrong call by ``mv``'s caller (SNAP-PEN-1/2)."""
    return _penalty_terms(st, mv, config, None, drop)[0]


def penalty_parts(st: SymState, mv: SymMove, drop: Drop = Drop(), config: SnapConfig | None = None,
                  ) -> tuple[z3.BoolRef, z3.BoolRef]:
    """SNAP-PEN-1/2/3 as the encoding pays a wrong call: whether the offender's face-down pile,
    after the SNAP-FLIP-3 turn-over, has a card to give, and whether the recipient is another
    player who holds cards."""
    n, w = st.n, mv.caller
    recipient, turned, _ = _penalty_terms(st, mv, config, None, drop)
    has_card = select([turned[s][0].length >= 1 for s in range(n)], w)
    receives = z3.And(0 <= recipient, recipient < n, recipient != w, select([st.holds(s) for s in range(n)], recipient))
    return has_card, receives


# ---- symbolic moves and the structural invariant ---------------------------------------------
def fresh_move(shape: Shape, n: int) -> SymMove:
    return SymMove(shape, z3.Int("caller"), tuple(z3.Bool(f"tied{s}") for s in range(n)))


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
def _concrete_pile(cards: Sequence[Card], ids: Mapping[Card, int]) -> Pile:
    names = [ids[c] for c in cards]

    def at(i: int | z3.ArithRef) -> z3.ArithRef:
        index = i if isinstance(i, int) else value_of(i)
        if index is not None:
            return integer(names[index] if 0 <= index < len(names) else _NO_CARD)
        return select([integer(c) for c in names] + [integer(_NO_CARD)], i)

    return Pile(at, z3.IntVal(len(cards)),
                lambda c: z3.Sum([_one(integer(name), c) for name in names] or [integer(0)]))


def concrete_state(state: SnapState) -> SymState:
    """A model position (FLIP or CALL phase) as a fully concrete symbolic state."""
    deck = state.config.deck
    ids = {c: i for i, c in enumerate(deck)}
    rank = z3.K(z3.IntSort(), z3.IntVal(0))
    for i, c in enumerate(deck):
        rank = stored(rank, i, int(c.rank))
    return SymState(state.config.players, tuple(_concrete_pile(p, ids) for p in state.down),
                    tuple(_concrete_pile(p, ids) for p in state.up), _concrete_pile(state.pot, ids),
                    z3.IntVal(state.player.index), z3.IntVal(PHASE_CODE[state.phase]), rank)


def concrete_move(move: Move, n: int) -> SymMove:
    untied = tuple(z3.BoolVal(False) for _ in range(n))
    if isinstance(move, Flip):
        return SymMove(Shape(MoveKind.FLIP), z3.IntVal(move.player.index), untied)
    if isinstance(move, NoCall):
        return SymMove(Shape(MoveKind.NOCALL), z3.IntVal(-1), untied)
    if isinstance(move, Call):
        return SymMove(Shape(MoveKind.CALL, move.kind), z3.IntVal(move.caller.index), untied)
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
    """Read a symbolic state back, under ``model`` or (for concrete states) by simplification.

    A pile longer than a deck (possible only for a free pile of a drop probe) is read up to one
    card more than a deck: that is enough to tell it from every real pile."""
    limit = value("snap", "SNAP-DECK-1", "deck_size") + 1

    def val(term: z3.ArithRef) -> int:
        if model is not None:
            return int(model.eval(term, model_completion=True).as_long())
        number = value_of(term)
        if number is None:
            raise ValueError(f"not a concrete position: {term} is no number")
        return number

    def pile(p: Pile) -> tuple[int, ...]:
        return tuple(val(p.at(integer(i))) for i in range(min(val(p.length), limit)))

    phase = {v: k for k, v in PHASE_CODE.items()}[val(st.phase)]
    return Position(tuple(pile(p) for p in st.down), tuple(pile(p) for p in st.up), pile(st.pot),
                    val(st.turn), phase)


def position_of(state: SnapState) -> Position:
    """A model position in the same form (card names = deck positions)."""
    ids = {c: i for i, c in enumerate(state.config.deck)}
    def names(pile: Sequence[Card]) -> tuple[int, ...]:
        return tuple(ids[c] for c in pile)

    turn = state.turn.index if state.turn is not None else -1
    return Position(tuple(map(names, state.down)), tuple(map(names, state.up)), names(state.pot), turn, state.phase)


def same_position(encoded: Position, modelled: Position) -> bool:
    """Equal piles, phase and, while the game goes on, turn (the model clears it at the end)."""
    if (encoded.down, encoded.up, encoded.pot, encoded.phase) != (
            modelled.down, modelled.up, modelled.pot, modelled.phase):
        return False
    return encoded.phase is Phase.OVER or encoded.turn == modelled.turn


def encoded_text(pos: Position, config: SnapConfig) -> str:
    """An encoded position in words (card names = deck positions; a name no card has shows as ``?``)."""
    def cards(pile: Sequence[int]) -> str:
        return " ".join(config.deck[i].pretty if 0 <= i < len(config.deck) else "?" for i in pile)
    return table_text(pos.phase, Seat(pos.turn) if pos.turn >= 0 else None, [*map(cards, pos.down)],
                      [*map(cards, pos.up)], cards(pos.pot))


def to_model_state(pos: Position, config: SnapConfig) -> SnapState:
    """A :class:`SnapState` for a position read from a Z3 model (card names = deck positions)."""
    deck = config.deck
    def cards(pile: Sequence[int]) -> tuple[Card, ...]:
        return tuple(deck[i] for i in pile)

    return SnapState(config, pos.phase, Seat(0), tuple(map(cards, pos.down)), tuple(map(cards, pos.up)),
                     cards(pos.pot), Seat(pos.turn), 1)


def model_move(mv: SymMove, model: z3.ModelRef, n: int) -> Move:
    """The concrete move a Z3 model picks for a symbolic move."""
    shape = mv.shape
    if shape.move == "nocall":
        return NoCall()
    if shape.move == "tie":
        return Tie(frozenset(Seat(s) for s in range(n) if z3.is_true(model.eval(mv.tied[s], model_completion=True))),
                   shape.call_kind)
    caller = Seat(model.eval(mv.caller, model_completion=True).as_long())
    return Flip(caller) if shape.move == "flip" else Call(caller, shape.call_kind)


def split_by_correctness(claim: z3.BoolRef, st: SymState, shape: Shape, drop: Drop = Drop(),
                         config: SnapConfig | None = None) -> list[z3.BoolRef]:
    """``claim`` as one query per case: for a call, once for a correct call and once for a wrong one
    (its correctness also put into the step's terms, so that each query sees one branch of it)."""
    if shape.move != "call":
        return [claim]
    ok = correct(st, shape.call_kind, drop, config)
    return [z3.And(ok == value, z3.substitute(claim, (ok, z3.BoolVal(value)))) for value in (True, False)]
