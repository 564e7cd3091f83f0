"""The terms derived from the Snap model (:mod:`cardcanon.proofs.snap.derived`) compared with the
rulebook's text (:mod:`cardcanon.proofs.snap.rulebook_text`), for SNAP-P9: a model that breaks
which piles match, which calls are correct, who may call, who receives a penalty card or who
flips next changes the encoding and the model alike, never the text.

Every term is evaluated, compiled, on every value of the template symbols it is derived over
that the text reads, at a table of ``n`` seats, for every flipper:

- ``matched`` (for each other seat) and ``pot_matches``: the pile shown or not, its top of the
  flipped card's rank or not (the flipper shows his flipped card);
- ``correct``: a pile matched or not, the pot matched or not;
- ``may_call`` (each seat): each of his two piles holding cards or not;
- ``recipient`` (each offender) and ``next_player`` (no winner, or the caller as winner): every
  pattern of who holds cards: each of the ``2n`` piles held or empty up to :data:`EVERY_PILE`
  seats, each seat's two piles both held or both empty above; the recipient of a caller other
  than the flipper (the flipper, whatever the piles hold) on one pattern where its term reads
  no symbol.

:func:`compare_window` asks the model itself, in a call window of real cards, which piles and
calls it finds matched and correct: a model that reads a suit or a card below a top cannot be
derived on the template.

A difference is a :class:`Difference` with records of the calls made in a position of that
pattern (cards of real ranks, at most four of a rank), played by the loaded model, for the
verify runner to replay against the reference model.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

import z3
import z3.z3util

from cardcanon.model import snap as model
from cardcanon.model.cards import Card, Rank, Suit
from cardcanon.model.errors import IllegalMoveError
from cardcanon.model.seats import Seat
from cardcanon.model.snap import Call, CallKind, Move, NextTurn, NoCall, Phase, SnapConfig, SnapState
from cardcanon.model.snap_text import position_text
from cardcanon.proofs.records import Record, snap_record
from cardcanon.proofs.snap import derived
from cardcanon.proofs.snap import rulebook_text as text
from cardcanon.proofs.z3_eval import compile_terms

EVERY_PILE = 5  # tables up to this size: each pile held or empty on its own (4^n patterns)
FLIPPED = Rank(2)  # the flipped card's rank in a pattern's piles
SUITS = tuple(Suit)
Pattern = dict[str, Any]  # a value for each template symbol, by name
PileList = list[tuple[Card, ...]]


@dataclass(frozen=True)
class Difference:
    text: str
    records: tuple[Record, ...]


@dataclass
class Tally:
    patterns: int = 0  # (term, pattern) pairs compared


# ---- patterns and their positions --------------------------------------------------------------
def _name(term: Any) -> str:
    return str(term.decl().name())


# the names of the template's symbols, read once (asking Z3 a name costs more than a pattern's comparison)
DOWN_NAMES, UP_NAMES, RANK_NAMES = (tuple(map(_name, terms)) for terms in (derived.DOWN, derived.UP, derived.UP_RANK))


def _down(s: int) -> str:
    return DOWN_NAMES[s]


def _up(s: int) -> str:
    return UP_NAMES[s]


def _rank(s: int) -> str:
    return RANK_NAMES[s]


POT, POT_RANK, WINNER = map(_name, (derived.POT, derived.POT_RANK, derived.WINNER))
MATCHED, POT_MATCHED = map(_name, (derived.MATCHED, derived.POT_MATCHED))


def _empty(n: int) -> Pattern:
    pattern: Pattern = {_down(s): False for s in range(n)}
    pattern.update({_up(s): False for s in range(n)})
    pattern.update({_rank(s): 1 for s in range(n)})
    pattern.update({POT: False, POT_RANK: 1, WINNER: n})
    return pattern


def holdings(n: int) -> Iterator[Pattern]:
    """Every pattern of who holds cards (module docstring)."""
    states = ((False, False), (True, False), (False, True), (True, True)) if n <= EVERY_PILE else (
        (False, False), (True, True))
    for held in itertools.product(states, repeat=n):
        pattern = _empty(n)
        for s, (down, up) in enumerate(held):
            pattern[_down(s)], pattern[_up(s)] = down, up
        yield pattern


def piles(n: int, pattern: Pattern) -> tuple[PileList, PileList, tuple[Card, ...]]:
    """The pattern's piles of one card each: a face-up top of rank class 0 is of the flipped
    card's rank (:data:`FLIPPED`), any other card of another, spread over the ranks so that no
    rank has more than four cards unless more than four tops are of the flipped rank."""
    counts: dict[Rank, int] = {}

    def card(rank: Rank) -> tuple[Card, ...]:
        counts[rank] = counts.get(rank, 0) + 1
        return (Card(rank, SUITS[(counts[rank] - 1) % 4]),)

    def top(rank_class: int, other: Rank) -> Rank:
        return FLIPPED if rank_class == 0 else other

    down = [card(Rank(4 + s % 10)) if pattern[_down(s)] else () for s in range(n)]
    up = [card(top(pattern[_rank(s)], Rank(3 + s % 11))) if pattern[_up(s)] else () for s in range(n)]
    pot = card(top(pattern[POT_RANK], Rank(14))) if pattern[POT] else ()
    return down, up, pot


def _records(config: SnapConfig, flipper: int, pattern: Pattern, what: str) -> tuple[Record, ...]:
    """:func:`window_records` in the pattern's position (none where the pattern is no call window
    of a real deck)."""
    n = config.players
    down, up, pot = piles(n, pattern)
    cards = [c for pile in (*down, *up, pot) for c in pile]
    holders = [s for s in range(n) if down[s] or up[s]]
    if not up[flipper] or len(holders) < 2 or len(set(cards)) < len(cards):
        return ()
    table = replace(config, deck=tuple(cards))
    return window_records(SnapState(table, Phase.CALL, Seat(0), tuple(down), tuple(up), pot, Seat(flipper), 1), what)


def window_records(state: SnapState, what: str) -> tuple[Record, ...]:
    """No call and every call by every seat in a call window, played (or refused) by the loaded model."""
    moves: list[Move] = [NoCall()]
    moves += [Call(Seat(s), kind) for s in range(state.config.players) for kind in CallKind]
    listed = set(model.legal_moves(state))
    out = []
    for move in moves:
        label = f"{what}: {move} in {position_text(state)}"[:300]
        try:
            after = model.apply(state, move) if move in listed else None
        except IllegalMoveError:
            after = None
        if after is None:
            out.append(snap_record(state.config, (), state, start=state, rejects=move, label=label))
        else:
            out.append(snap_record(state.config, (move,), after, start=state, label=label))
    return tuple(out)


def compare_window(state: SnapState) -> Difference | None:
    """The model's matched piles, matched pot and correct calls in a call window of real cards
    compared with the text's (a model that reads a suit or a card below a top cannot be derived
    on the template, so these are asked of the model itself)."""
    f, up = state.player.index, state.up
    piles_said = tuple(s.index for s in model.matched_seats(state))
    pot_said, kinds_said = model.pot_matches(state), model.correct_kinds(state)
    piles_text, pot_text = text.matched_piles(up, f), text.pot_matched(up, state.pot, f)
    kinds_text = frozenset(text.correct_calls(bool(piles_text), pot_text, state.config.index_card))
    if (piles_said, pot_said, kinds_said) == (piles_text, pot_text, kinds_text):
        return None
    what = "the matched piles, the matched pot and the correct calls"
    return Difference(f"{what} in {position_text(state)}: the model says {_said(piles_said, pot_said, kinds_said)}; "
                      f"the rulebook's text {_said(piles_text, pot_text, kinds_text)}", window_records(state, what))


def _said(seats: Sequence[int], pot: bool, kinds: frozenset[CallKind]) -> str:
    piles = ", ".join(f"player {s}" for s in seats) or "no pile"
    calls = ", ".join(sorted(k.value for k in kinds)) or "no call"
    return f"{piles} matched, the pot {'matched' if pot else 'not matched'}, correct: {calls}"


# ---- the comparison ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Term:
    """A derived term, where it is asked, and what the text answers on a pattern's piles."""

    what: str  # in words, for a difference
    flipper: int  # the flipper of the template it was derived on
    term: Any
    text: Callable[[PileList, PileList, tuple[Card, ...]], Any]
    applies: Callable[[set[int]], bool] = lambda held: True  # given the seats that hold cards
    winner_shown: bool = False  # its records need a correct call: the others show the flipped rank
    constant: bool = False  # the text reads no pile for it


# the text's answers on a pattern's piles (down, up, pot), for Term.text
def _pile_matched(f: int, s: int, down: PileList, up: PileList, pot: tuple[Card, ...]) -> bool:
    return s in text.matched_piles(up, f)


def _pot_matched(f: int, down: PileList, up: PileList, pot: tuple[Card, ...]) -> bool:
    return text.pot_matched(up, pot, f)


def _may_call(s: int, down: PileList, up: PileList, pot: tuple[Card, ...]) -> bool:
    return text.may_call(down, up, s)


def _recipient(f: int, o: int, down: PileList, up: PileList, pot: tuple[Card, ...]) -> int:
    return text.penalty_recipient(down, up, f, o)


def _next(f: int, winner: int | None, winner_flips: bool, down: PileList, up: PileList, pot: tuple[Card, ...]) -> int:
    return text.next_flipper(down, up, f, winner, winner_flips)


def _others_hold(f: int, held: set[int]) -> bool:
    return bool(held - {f})


def _window_terms(config: SnapConfig, f: int) -> list[tuple[Term, int | None]]:
    """The match terms of ``f``'s flip, each with the seat whose pile it reads (None: the pot)."""
    n = config.players
    out: list[tuple[Term, int | None]] = [
        (Term(f"whether the flipped card of player {f} matches player {s}'s pile", f, derived.matched(config, f, s),
              functools.partial(_pile_matched, f, s)), s) for s in range(n) if s != f]
    out.append((Term(f"whether the flipped card of player {f} matches the Snap Pot", f, derived.pot_matches(config, f),
                     functools.partial(_pot_matched, f)), None))
    return out


def window_patterns(n: int, f: int, shown: int | None) -> Iterator[Pattern]:
    """The flipper's flipped card with the pile of ``shown`` (or the pot) shown or not, of his rank or not."""
    for held, rank in itertools.product((False, True), (0, 1)):
        pattern = _empty(n)
        pattern[_up(f)], pattern[_rank(f)] = True, 0
        if shown is None:
            pattern[POT], pattern[POT_RANK] = held, rank
        else:
            pattern[_up(shown)], pattern[_rank(shown)] = held, rank
        yield pattern


def _holding_terms(config: SnapConfig) -> list[Term]:
    n, winner_flips = config.players, config.next_turn is NextTurn.WINNER
    out = []
    for f in range(n):
        out += [Term(f"who receives the penalty card of player {o} after player {f}'s flip", f,
                     derived.recipient(config, f, o),
                     functools.partial(_recipient, f, o), functools.partial(_others_hold, f), constant=o != f)
                for o in range(n)]
        out.append(Term(f"who flips after player {f}'s flip and no correct call", f, derived.next_player(config, f, False),
                        functools.partial(_next, f, None, winner_flips), bool))
        out.append(Term(f"who flips after player {f}'s flip and a correct call", f, derived.next_player(config, f, True),
                        functools.partial(_next, f, n, winner_flips), bool, True))
    return out


def _differs(config: SnapConfig, term: Term, pattern: Pattern) -> Difference:
    n = config.players
    if term.winner_shown:  # a correct call: the flipper and up to three holders on his right show his rank
        right = (s for s in ((term.flipper - k) % n for k in range(1, n)) if pattern[_down(s)] or pattern[_up(s)])
        pattern = dict(pattern)
        for s in [term.flipper, *itertools.islice(right, 3)]:
            pattern[_up(s)], pattern[_rank(s)] = True, 0
    where = position_text(SnapState(config, Phase.CALL, Seat(0), *_state_piles(n, pattern), Seat(term.flipper), 1))
    return Difference(f"{term.what} in {where}: the derived term and the rulebook's text differ",
                      _records(config, term.flipper, pattern, term.what))


def _state_piles(n: int, pattern: Pattern) -> tuple[tuple[tuple[Card, ...], ...], tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    down, up, pot = piles(n, pattern)
    return tuple(down), tuple(up), pot


def _compare(config: SnapConfig, terms: Sequence[Term], patterns: Sequence[Pattern], tally: Tally) -> Difference | None:
    """Every term on every pattern; a term that reads no symbol, where the text reads no pile
    (:attr:`Term.constant`), on the first pattern only: no pattern changes either answer. The
    first difference found in a call window of real cards is returned, else the first."""
    values = compile_terms([t.term for t in terms])
    once = [t.constant and not z3.z3util.get_vars(t.term) for t in terms]
    first = None  # the first difference, kept while one with records is looked for
    for number, pattern in enumerate(patterns):
        down, up, pot = piles(config.players, pattern)
        held = {s for s in range(config.players) if down[s] or up[s]}
        for term, value, skip in zip(terms, values(pattern), once if number else [False] * len(terms)):
            if skip or not term.applies(held):
                continue
            tally.patterns += 1
            if value != term.text(down, up, pot):
                found = _differs(config, term, pattern)
                if found.records:
                    return found
                first = first or found
    return first


def compare(config: SnapConfig, tally: Tally) -> Difference | None:
    """The first difference between a derived term and the text at this table, or None."""
    n = config.players
    for f in range(n):
        for term, shown in _window_terms(config, f):
            found = _compare(config, [term], list(window_patterns(n, f, shown)), tally)
            if found is not None:
                return found
    found = _correct(config, tally)
    if found is not None:
        return found
    seats = list(itertools.product((False, True), repeat=2))
    for s in range(n):
        patterns = []
        for down, up in seats:
            pattern = _empty(n)
            pattern[_down(s)], pattern[_up(s)] = down, up
            patterns.append(pattern)
        flipper = (s + 1) % n
        term = Term(f"whether player {s} may call", flipper, derived.may_call(config, s),
                    functools.partial(_may_call, s))
        found = _compare(config, [term], patterns, tally)
        if found is not None:
            return found
    found, compared = _holdings_compared(config, _oracle())
    tally.patterns += compared
    return found


def _oracle() -> tuple[Any, ...]:
    """What the text's oracle is made of now (:mod:`.rulebook_text`, whose functions are read as
    attributes, unseen by the memo): part of the key of a comparison with it."""
    return tuple(value for value in vars(text).values() if callable(value))


@derived.MEMO.function
def _holdings_compared(config: SnapConfig, oracle: tuple[Any, ...]) -> tuple[Difference | None, int]:
    """The penalty recipients and next players against the text (``oracle``) on every pattern of
    who holds cards: the first difference or None, and the patterns compared; kept with the terms,
    for every variant that agrees on the options read."""
    tally = Tally()
    return _compare(config, _holding_terms(config), list(holdings(config.players)), tally), tally.patterns


def _correct(config: SnapConfig, tally: Tally) -> Difference | None:
    terms = derived.correct(config)
    kinds = list(terms)
    values = compile_terms([terms[k] for k in kinds])
    for piles_matched, pot in itertools.product((False, True), repeat=2):
        tally.patterns += len(kinds)
        said = values({MATCHED: piles_matched, POT_MATCHED: pot})
        says = text.correct_calls(piles_matched, pot, config.index_card)
        for kind, value in zip(kinds, said):
            if bool(value) != (kind in says):
                n = config.players
                pattern = _empty(n)
                pattern.update({_up(0): True, _rank(0): 0,
                                _up(1): True, _rank(1): 0 if piles_matched else 1,
                                POT: True, POT_RANK: 0 if pot else 1})
                what = f"whether a {kind.value} call is correct"
                return Difference(f"{what} when a pile is {'' if piles_matched else 'not '}matched and the pot "
                                  f"{'is' if pot else 'is not'}: the derived term and the rulebook's text differ",
                                  _records(config, 0, pattern, what))
    return None
