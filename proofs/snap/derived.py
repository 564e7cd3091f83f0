"""The Z3 terms of the Snap model's rule functions that read a position, derived by running
:mod:`cardcanon.model.snap` itself on a symbolic stand-in of the position
(:mod:`cardcanon.proofs.symbolic`), not written a second time.

A *template* position at an ``n``-seat table is a model :class:`SnapState` whose piles are
:class:`PileView` stand-ins: whether a pile holds cards is a free Boolean (``tpl!down.s``,
``tpl!up.s``, ``tpl!pot``) and its top card a :class:`CardView` with a free rank
(``tpl!rank.up.s``, ``tpl!rank.pot``); the flipper is a concrete seat. Any other read of a pile
or card raises :class:`Unsupported`, and so does a function that raises on some path: a
derivation fails, it never guesses. The encoding (:mod:`cardcanon.proofs.snap.encoding`) puts
its pile terms in with :meth:`Template.put`.

Derived, for each table size, flipper and variant (a template's cards are of no deck: a table
with another deck reads the terms of the standard one):

- ``matched_seats``: whether seat ``s`` is matched, on the template with the other face-up piles
  empty (all seats at once would take ``3^(n-1)`` paths); the assembled terms are compared with
  the model on whole positions by ``tests/test_derived_snap.py`` and SNAP-P9;
- ``pot_matches``, and ``correct_kinds`` given whether a pile and the pot are matched;
- ``caller_problem``: who may call;
- ``penalty_recipient``: for each offender;
- ``next_player``: after the flipper, with no winner or the caller (:data:`WINNER`) as winner.

Terms are kept per process (:data:`MEMO`) with the model code they ran: a model mutant or a
probe's patch of that code derives them afresh, so a term is never read under another model.
Each is kept under the values of the table's fields its derivation read (:meth:`.ModelMemo.function`):
a variant that changes none of them reads the term derived under another.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import z3
from cardcanon.model import snap as model
from cardcanon.model.seats import Seat
from cardcanon.model.snap import MAX_PLAYERS, CallKind, Phase, SnapConfig, SnapState
from cardcanon.proofs.base import Z3
from cardcanon.proofs.symbolic import (
    Branch,
    Derived,
    SymBool,
    SymInt,
    Unsupported,
    aggregating,
    derive,
    explore,
    join,
    patched,
)
from cardcanon.proofs.symbolic.memo import ModelMemo

T = TypeVar("T")

WINNER = z3.Int("tpl!winner")  # the caller of a correct call, as next_player's winner
MATCHED, POT_MATCHED = z3.Bool("tpl!matched"), z3.Bool("tpl!pot-matched")  # what correct_kinds is given
POT, POT_RANK = z3.Bool("tpl!pot"), z3.Int("tpl!rank.pot")
STANDARD_DECK = SnapConfig().deck


# The template's pile terms of each seat the rulebook allows: built once, so each is one term object.
DOWN = tuple(z3.Bool(f"tpl!down.{s}") for s in range(MAX_PLAYERS))
UP = tuple(z3.Bool(f"tpl!up.{s}") for s in range(MAX_PLAYERS))
UP_RANK = tuple(z3.Int(f"tpl!rank.up.{s}") for s in range(MAX_PLAYERS))
HOLDS = tuple(z3.Or(down, up) for down, up in zip(DOWN, UP))  # seat s holds cards


def down_held(s: int) -> Z3:
    return DOWN[s]


def up_held(s: int) -> Z3:
    return UP[s]


def up_rank(s: int) -> Z3:
    return UP_RANK[s]


# ---- the stand-ins -----------------------------------------------------------------------------
class CardView:
    """A card the model may read the rank of."""

    def __init__(self, rank: Z3) -> None:
        self.rank = SymInt(rank)

    @property
    def suit(self) -> Any:
        raise Unsupported("the model reads the suit of a card")


@dataclass(frozen=True)
class Block:
    """A whole pile, as the one element the model meets when it iterates a pile (``tuple(pile)``,
    ``reversed(pile)``); reading a card of it fails the derivation."""

    pile: str  # the name of the PileView
    turned: bool

    @property
    def rank(self) -> Any:
        raise Unsupported(f"the model reads a card below the top of {self.pile}")


class PileView:
    """A pile the model may ask whether it holds cards and read the top card of."""

    def __init__(self, name: str, held: Z3, top: Z3 | None = None) -> None:
        self.name, self.held, self.top = name, held, top

    def __bool__(self) -> bool:
        return SymBool(self.held).__bool__()

    def __getitem__(self, index: Any) -> CardView:
        if index != 0 or self.top is None:
            raise Unsupported(f"the model reads {self.name}[{index!r}]")
        return CardView(self.top)

    def __iter__(self) -> Iterator[Block]:
        yield Block(self.name, False)

    def __reversed__(self) -> Iterator[Block]:
        yield Block(self.name, True)

    def __len__(self) -> int:  # a TypeError, so that tuple(pile) goes on without it
        raise TypeError(f"the model reads the length of {self.name}, which a template position does not have")


class WinnerView:
    """The winner of a correct call (the symbolic caller): the model may only return it."""


def _template(config: SnapConfig, flipper: int, shown: Sequence[int] | None = None) -> SnapState:
    """The template position in the call window of ``flipper``'s flip; with ``shown``, only those
    seats' face-up piles may hold cards."""
    n = config.players
    def up(s: int) -> PileView:
        held = up_held(s) if shown is None or s in shown else z3.BoolVal(False)
        return PileView(f"up{s}", held, up_rank(s))

    down: Any = tuple(PileView(f"down{s}", down_held(s)) for s in range(n))  # stand-ins for the piles
    ups: Any = tuple(up(s) for s in range(n))
    pot: Any = PileView("pot", POT, POT_RANK)
    return SnapState(config, Phase.CALL, Seat(0), down, ups, pot, Seat(flipper), 1)


def _holds(n: int) -> tuple[Z3, ...]:
    return HOLDS[:n]


# ---- the memo ----------------------------------------------------------------------------------
MEMO = ModelMemo(model, SnapState, Seat)  # every term below, kept while the model code it ran stands
kept, kept_search = MEMO.kept, MEMO.search


def _checked(derived: Derived, what: str) -> Derived:
    if not z3.is_false(z3.simplify(derived.raised)):
        raise Unsupported(f"{what} raises on some path of the template position")
    return derived


def _branches(fn: Callable[[], T], what: str, assuming: Z3 | None = None) -> list[Branch[T]]:
    with aggregating():
        branches = explore(fn, assuming=assuming)
    if any(b.raised is not None for b in branches):
        raise Unsupported(f"{what} raises on some path of the template position")
    return branches


# ---- the derived functions ---------------------------------------------------------------------
def _table(config: SnapConfig) -> SnapConfig:
    """The table a term is derived for: its seats and variant, with the standard deck whatever the
    position's (the template's cards are stand-ins of free rank, of no deck)."""
    return config if config.deck == STANDARD_DECK else replace(config, deck=STANDARD_DECK)


def matched(config: SnapConfig, flipper: int, seat: int) -> Z3:
    """Whether ``matched_seats`` lists ``seat`` (False for the flipper)."""
    return _matched(_table(config), flipper, seat)


@MEMO.function
def _matched(config: SnapConfig, flipper: int, seat: int) -> Z3:
    state = _template(config, flipper, (flipper, seat))
    return _checked(derive(lambda: model.matched_seats(state), lambda seats: z3.BoolVal(Seat(seat) in seats),
                           prune=False), "matched_seats").term


def matched_all(config: SnapConfig, flipper: int) -> tuple[Z3, ...]:
    """:func:`matched` for every seat, in one look-up of the memo (the encoding asks for them all)."""
    return _matched_all(_table(config), flipper)


@MEMO.function
def _matched_all(config: SnapConfig, flipper: int) -> tuple[Z3, ...]:
    return tuple(_matched(config, flipper, seat) for seat in range(config.players))


def pot_matches(config: SnapConfig, flipper: int) -> Z3:
    return _pot_matches(_table(config), flipper)


@MEMO.function
def _pot_matches(config: SnapConfig, flipper: int) -> Z3:
    state = _template(config, flipper)
    return _checked(derive(lambda: model.pot_matches(state), lambda ok: z3.BoolVal(bool(ok)), prune=False),
                    "pot_matches").term


class _Listed:
    """``matched_seats`` standing for its derived terms while ``correct_kinds`` is derived."""

    def __init__(self, any_term: Z3) -> None:
        self.any_term = any_term

    def __bool__(self) -> bool:
        return SymBool(self.any_term).__bool__()

    def __len__(self) -> int:
        raise Unsupported("the model reads how many piles are matched")


def correct(config: SnapConfig) -> dict[CallKind, Z3]:
    """Whether a call of each kind is correct (``correct_kinds``), given whether some pile is
    matched (:data:`MATCHED`, standing for ``matched_seats``) and whether the pot is
    (:data:`POT_MATCHED`, for ``pot_matches``)."""
    return _correct(_table(config))


@MEMO.function
def _correct(config: SnapConfig) -> dict[CallKind, Z3]:
    state = _template(config, 0)
    def listed(st: SnapState) -> _Listed:
        return _Listed(MATCHED)

    def pot_matched(st: SnapState) -> SymBool:
        return SymBool(POT_MATCHED)

    def has(kind: CallKind) -> Callable[[frozenset[CallKind]], Z3]:
        return lambda kinds: z3.BoolVal(kind in kinds)

    with patched(model, matched_seats=listed, pot_matches=pot_matched):
        branches = _branches(lambda: model.correct_kinds(state), "correct_kinds")
    return {kind: join(branches, has(kind)).term for kind in CallKind}


def may_call(config: SnapConfig, seat: int) -> Z3:
    """Whether ``caller_problem`` lets ``seat`` call (in any call window)."""
    return _may_call(_table(config), seat)


@MEMO.function
def _may_call(config: SnapConfig, seat: int) -> Z3:
    state = _template(config, 0)
    return _checked(derive(lambda: model.caller_problem(state, Seat(seat)),
                           lambda refusal: z3.BoolVal(refusal is None), prune=False), "caller_problem").term


def may_call_all(config: SnapConfig) -> tuple[Z3, ...]:
    """:func:`may_call` for every seat, in one look-up of the memo."""
    return _may_call_all(_table(config))


@MEMO.function
def _may_call_all(config: SnapConfig) -> tuple[Z3, ...]:
    return tuple(_may_call(config, seat) for seat in range(config.players))


def _seat_term(seat: Any) -> Z3:
    if isinstance(seat, WinnerView):
        return WINNER
    if isinstance(seat, Seat):
        return z3.IntVal(seat.index)
    raise Unsupported(f"the model returned {type(seat).__name__}, not a seat")


def recipient(config: SnapConfig, flipper: int, offender: int) -> Z3:
    """``penalty_recipient``'s seat for ``offender`` (where some other seat holds cards)."""
    return _recipient(_table(config), flipper, offender)


@MEMO.function
def _recipient(config: SnapConfig, flipper: int, offender: int) -> Z3:
    state, n = _template(config, flipper), config.players
    others = z3.Or([h for s, h in enumerate(_holds(n)) if s != flipper])
    return _checked(derive(lambda: model.penalty_recipient(state, Seat(offender)), _seat_term,
                           prune=False, assuming=others), "penalty_recipient").term


def recipients(config: SnapConfig, flipper: int) -> tuple[Z3, ...]:
    """:func:`recipient` for every offender, in one look-up of the memo."""
    return _recipients(_table(config), flipper)


@MEMO.function
def _recipients(config: SnapConfig, flipper: int) -> tuple[Z3, ...]:
    return tuple(_recipient(config, flipper, offender) for offender in range(config.players))


def next_player(config: SnapConfig, after: int, won: bool) -> Z3:
    """``next_player``'s seat after ``after``'s flip with no winner, or (``won``) with the caller
    :data:`WINNER` as winner (where some seat holds cards)."""
    return _next_player(_table(config), after, won)


@MEMO.function
def _next_player(config: SnapConfig, after: int, won: bool) -> Z3:
    state = _template(config, after)
    winner = WinnerView() if won else None
    return _checked(derive(lambda: model.next_player(state, state.down, state.up, Seat(after), winner),  # type: ignore[arg-type]
                           _seat_term, prune=False, assuming=z3.Or(_holds(config.players))), "next_player").term


# ---- instantiation -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Template:
    """The terms an encoding's position gives the template's symbols."""

    down: Sequence[Z3]  # each seat's face-down pile holds cards
    up: Sequence[Z3]
    pot: Z3
    up_ranks: Sequence[Z3]  # the rank of each face-up top
    pot_rank: Z3
    winner: Z3 | None = None
    _pairs: Any = field(default=None, compare=False, repr=False)

    def put(self, term: Z3) -> Z3:
        """``term`` with this position's terms for the template's symbols."""
        if self._pairs is None:
            pairs = [(down_held(s), t) for s, t in enumerate(self.down)] + [(up_held(s), t) for s, t in enumerate(self.up)]
            pairs += [(up_rank(s), t) for s, t in enumerate(self.up_ranks)] + [(POT, self.pot), (POT_RANK, self.pot_rank)]
            if self.winner is not None:
                pairs.append((WINNER, self.winner))
            sources, targets = (z3.Ast * len(pairs))(), (z3.Ast * len(pairs))()
            for i, (source, target) in enumerate(pairs):
                sources[i], targets[i] = source.as_ast(), target.as_ast()
            object.__setattr__(self, "_pairs", (pairs, sources, targets))  # the terms kept alive with the arrays
        pairs, sources, targets = self._pairs
        ctx = term.ctx  # Z3's C substitution with the arrays built once: z3.substitute checks every pair each time
        return z3.z3._to_expr_ref(z3.Z3_substitute(ctx.ref(), term.as_ast(), len(pairs), sources, targets), ctx)
