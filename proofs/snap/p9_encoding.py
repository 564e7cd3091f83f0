"""SNAP-P9: the Snap Z3 encoding equals the reference model on every position of a bounded domain.

The Z3 terms of :mod:`cardcanon.proofs.snap.encoding` for legality (``legal``) and the transition
(``step``: flip, call window, correct and wrong calls, ties, the turn and the end of the game) are
compared with :mod:`cardcanon.model.snap` (``legal_moves``, ``apply``, ``outcome``) exhaustively on:

- ``n`` seats (each number in ``bounds["players"]``) and ``k`` cards on the table, ``1 <= k <=``
  the card bound of that ``n``;
- every distribution of the ``k`` cards over the ``2n + 1`` piles (each seat's face-down and
  face-up pile, the Snap Pot), in every order, and every rank pattern of the cards up to
  renaming the ranks (a set partition: ranks matter only through equality, SNAP-MATCH-1), with
  at most four cards of a rank (SNAP-DECK-1) and at most ``bounds["ranks"]`` distinct ranks.
  Card identities matter to neither side, so naming the cards in table order loses nothing;
- every phase and seat of a game under way (SNAP-END-1..3): a flip by a seat that holds cards
  or a call window after a flip by a seat that shows a card, while two or more seats hold
  cards; the game over (whose turn is then immaterial) when at most one does. The other
  (phase, seat) pairs of each layout are no position of a game and are counted as ``skipped``.
  The deal (a chance node) is outside the encoding. The dealer and the flip count, which
  neither legality nor a successor's piles, turn, phase or outcome read, are fixed (seat 0, one
  flip).

On each position every candidate move is asked of both sides: a flip by each seat, no call, a
call of each kind by each seat, a tie of each kind by each set of seats. The encoding's legality
must equal membership in ``legal_moves``, and for every move both call legal, the encoding's
successor (every pile, the pot, whose turn it is, the phase) must equal ``apply``'s, and the
outcome ``outcome`` names must be the one the encoded end position names (SNAP-END-1..3).

The encoding's decisions about a position (which piles match, which calls are correct, who may
call, who receives a penalty card, who flips next) are derived from the model
(:mod:`cardcanon.proofs.snap.derived`): what the comparison of positions holds is the pile
algebra built on them and what the encoding states itself (the turn-over, the end of the game).
The decisions themselves are held against the rulebook's text (:mod:`.rulebook_text`, by
:mod:`.text_terms`): each derived term at every table of ``bounds["text_players"]`` (the
smallest before the positions, the others after), and the model's matches and correct calls in
every call window of the positions (a model that reads a suit or a card below a top cannot be
derived, and is caught there).

``z3.simplify`` costs ~0.1 s a term, so the terms are built once per table size on a *free*
symbolic position and compiled into plain Python functions (:func:`compile_terms`). Any
difference is a counterexample record (the position, the move and what the loaded model does)
for the verify runner to replay.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from cardcanon.model import snap as model
from cardcanon.model.cards import Card, Rank, Suit
from cardcanon.model.errors import IllegalMoveError
from cardcanon.model.seats import Seat
from cardcanon.model.snap import Call, CallKind, Flip, Move, NoCall, Phase, SnapConfig, SnapState, Tie
from cardcanon.model.snap_text import outcome_text, position_text
from cardcanon.proofs.base import CheckResult, Run, Verdict, snap_config, variant_name
from cardcanon.proofs.records import Record, snap_record
from cardcanon.proofs.snap.encoding import (
    MoveKind, PHASE_CODE, Pile, Position, Shape, SymMove, SymState, encoded_text, legal, same_position, select, step,
)
from cardcanon.proofs.snap.derived import MEMO
from cardcanon.proofs.snap.probes import breaking
from cardcanon.proofs.snap.text_terms import Difference as TextDifference, Tally as TextTally, compare, compare_window
from cardcanon.proofs.symbolic import Unsupported
from cardcanon.proofs.z3_eval import compile_terms


PROBES = ("penalty-to-left", "turn-counter-clockwise")  # each patches a model function while the encoding is derived
NO_CARD = -1
SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)  # a rank's cards, in this order
PHASES = {code: phase for phase, code in PHASE_CODE.items()}


# ---- the encoding on a free position --------------------------------------------------------
def free_state(n: int, capacity: int) -> SymState:
    """A position whose every pile holds free cards ``<pile>_<i>`` (``i < capacity``) and has a
    free length ``<pile>_len``; turn, phase and the rank array are free too."""
    def pile(name: str) -> Pile:
        cards = [z3.Int(f"{name}_{i}") for i in range(capacity)]

        def at(i: int | z3.ArithRef) -> z3.ArithRef:
            if isinstance(i, int):
                return cards[i] if 0 <= i < capacity else z3.IntVal(NO_CARD)
            return select(cards + [z3.IntVal(NO_CARD)], i)

        length = z3.Int(f"{name}_len")
        return Pile(at, length, lambda c: z3.Sum([z3.If(z3.And(i < length, cards[i] == c), 1, 0) for i in range(capacity)]))

    return SymState(n, tuple(pile(f"down{s}") for s in range(n)), tuple(pile(f"up{s}") for s in range(n)),
                    pile("pot"), z3.Int("turn"), z3.Int("phase"), z3.Array("rank", z3.IntSort(), z3.IntSort()))


@dataclass(frozen=True)
class Compiled:
    """The encoding at one table, compiled: the legality of every candidate move (one function
    of the position), and the successor of each move shape (piles, turn, phase)."""

    legality: Callable[[Mapping[str, Any]], tuple[Any, ...]]
    steps: Mapping[Shape, Callable[[Mapping[str, Any]], tuple[Any, ...]]]


def compiled(n: int, capacity: int, config: SnapConfig) -> Compiled:
    """The encoding at an ``n``-seat table, compiled (the terms depend on the table only through
    ``n`` and the variant, so a card-less ``config`` is the key). A candidate move's legality is
    its shape's ``legal`` term with the move's caller and tied seats put in. Its terms are derived
    from the model, so each part is kept with them (:data:`~cardcanon.proofs.snap.derived.MEMO`),
    for every variant that agrees on the options its derivation read."""
    shapes = dict.fromkeys(shape for _, shape, _, _ in candidate_moves(n))
    return Compiled(_legality(config, n, capacity), {shape: _step(config, n, capacity, shape) for shape in shapes})


def _move(n: int, shape: Shape) -> SymMove:
    """A move of this shape with a free caller and free tied seats."""
    return SymMove(shape, z3.Int("caller"), tuple(z3.Bool(f"tied{s}") for s in range(n)))


@MEMO.function
def _legality(config: SnapConfig, n: int, capacity: int) -> Callable[[Mapping[str, Any]], tuple[Any, ...]]:
    """The legality of every candidate move, compiled (its shape's term, built once)."""
    st, legality, terms = free_state(n, capacity), dict[Shape, Any](), []
    for _, shape, caller, tied in candidate_moves(n):
        mv = _move(n, shape)
        if shape not in legality:
            legality[shape] = legal(st, mv, config)
        values = [(mv.caller, z3.IntVal(caller))] + [(mv.tied[s], z3.BoolVal(s in tied)) for s in range(n)]
        terms.append(z3.substitute(legality[shape], *values))
    return compile_terms(terms)


@MEMO.function
def _step(config: SnapConfig, n: int, capacity: int, shape: Shape) -> Callable[[Mapping[str, Any]], tuple[Any, ...]]:
    """The successor of a move of this shape, compiled: every pile's length, then each pile's
    ``capacity`` slots, the turn and the phase."""
    post = step(free_state(n, capacity), _move(n, shape), config)
    outputs = [p.length for p in post.zones()] + [p.at(i) for p in post.zones() for i in range(capacity)]
    return compile_terms(outputs + [post.turn, post.phase])


def _read(values: tuple[Any, ...], n: int, capacity: int) -> Position | None:
    """The successor read from a compiled step (None: a pile length outside ``0..capacity``)."""
    zones = 2 * n + 1
    lengths, cards = values[:zones], values[zones:zones + zones * capacity]
    if any(not 0 <= length <= capacity for length in lengths):
        return None
    piles = tuple(tuple(cards[z * capacity:z * capacity + lengths[z]]) for z in range(zones))
    phase = PHASES.get(values[-1])
    if phase is None:
        return None
    return Position(piles[:n], piles[n:2 * n], piles[2 * n], values[-2], phase)


# ---- the domain ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Layout:
    """How a position's cards lie, as the encoding's free constants read it."""

    lengths: tuple[int, ...]  # of each pile: face-down piles, face-up piles, the Snap Pot
    pattern: tuple[int, ...]  # the rank class of each card (cards named in table order)
    names: Mapping[Card, int]  # each card's name
    cards: Mapping[int, Card]  # the card of each name


def rank_patterns(k: int, ranks: int) -> Iterator[tuple[int, ...]]:
    """Every set partition of ``k`` cards as a restricted growth string (card ``i`` has rank
    class ``p[i]``, classes numbered in order of first use), with at most ``ranks`` classes
    and at most four cards in a class (a rank has four suits, SNAP-DECK-1)."""
    def grow(prefix: list[int], used: int) -> Iterator[tuple[int, ...]]:
        if len(prefix) == k:
            yield tuple(prefix)
            return
        for r in range(min(used + 1, ranks)):
            if prefix.count(r) < len(SUITS):
                yield from grow(prefix + [r], max(used, r + 1))

    return grow([], 0)


def pile_lengths(k: int, piles: int) -> Iterator[tuple[int, ...]]:
    """Every way to share ``k`` cards among ``piles`` ordered piles (lengths, in pile order)."""
    for bars in itertools.combinations(range(k + piles - 1), piles - 1):
        edges = (-1,) + bars + (k + piles - 1,)
        yield tuple(edges[i + 1] - edges[i] - 1 for i in range(piles))


def deck_of(pattern: tuple[int, ...]) -> tuple[Card, ...]:
    """Card ``i`` of the pattern as a real card: rank class ``r`` is rank ``2 + r``, suits in
    order of appearance."""
    return tuple(Card(Rank(2 + r), SUITS[pattern[:i].count(r)]) for i, r in enumerate(pattern))


def game_phases(n: int, down: model.Piles, up: model.Piles) -> Iterator[tuple[Phase, int]]:
    """The (phase, seat) pairs of a game under way at this table (see the module docstring)."""
    holders = [s for s in range(n) if down[s] or up[s]]
    if len(holders) <= 1:
        yield Phase.OVER, 0
        return
    for s in holders:
        yield Phase.FLIP, s
    for s in range(n):
        if up[s]:
            yield Phase.CALL, s


# ---- the comparison ----------------------------------------------------------------------------
def candidate_moves(n: int) -> tuple[tuple[Move, Shape, int, frozenset[int]], ...]:
    """Every move asked of both sides, with its shape, caller and tied seats."""
    seats = range(n)
    out: list[tuple[Move, Shape, int, frozenset[int]]] = [(Flip(Seat(s)), Shape(MoveKind.FLIP), s, frozenset())
                                                          for s in seats]
    out.append((NoCall(), Shape(MoveKind.NOCALL), -1, frozenset()))
    for kind in CallKind:
        out += [(Call(Seat(s), kind), Shape(MoveKind.CALL, kind), s, frozenset()) for s in seats]
        for size in range(n + 1):
            for tied in itertools.combinations(seats, size):
                out.append((Tie(frozenset(map(Seat, tied)), kind), Shape(MoveKind.TIE, kind), -1, frozenset(tied)))
    return tuple(out)


def encoded_outcome(pos: Position) -> tuple[str, int | None] | None:
    """The rule an encoded end position ends by, and the winner: nobody holds cards, a draw
    (SNAP-END-3); else the one holder wins, with cards left in the pot (SNAP-END-2) or with every
    card (SNAP-END-1). The label of the ending (SNAP-END-5) is SNAP-P13's."""
    if pos.phase is not Phase.OVER:
        return None
    holders = [s for s in range(len(pos.down)) if pos.down[s] or pos.up[s]]
    if not holders:
        return "SNAP-END-3", None
    return ("SNAP-END-2" if pos.pot else "SNAP-END-1"), holders[0]


def model_outcome(state: SnapState) -> tuple[str, int | None] | None:
    outcome = model.outcome(state)
    if outcome is None:
        return None
    return model.END_RULES[outcome.termination], None if outcome.winner is None else outcome.winner.index


class _Ranks(dict[int, int]):
    """The rank class of each card name; any other name has a rank no card has."""

    def __init__(self, pattern: tuple[int, ...]) -> None:
        super().__init__(enumerate(pattern))
        self.none = len(pattern)

    def __missing__(self, name: int) -> int:
        return self.none


@dataclass(frozen=True)
class Difference:
    text: str
    record: Record


@dataclass
class Tally:
    positions: int = 0  # positions compared
    skipped: int = 0  # distributions that are no game position under way
    moves: int = 0  # (position, candidate move) pairs whose legality was compared
    successors: int = 0  # legal moves whose successors were compared
    endings: int = 0  # of which the game ends
    windows: int = 0  # call windows whose matches and correct calls were compared with the text


class Comparison:
    """One table size under one variant: the compiled encoding and the model, side by side."""

    def __init__(self, n: int, capacity: int, variant: Mapping[str, str], probe: str | None = None) -> None:
        self.n, self.capacity, self.variant = n, capacity, variant
        self.underivable: str | None = None  # why the encoding cannot be derived from the loaded model
        try:
            with breaking(probe, "compiled"):  # a probe breaks the encoding's terms, not the model
                self.encoding = compiled(n, capacity, snap_config(variant, players=n))
        except Unsupported as err:
            self.underivable = f"the encoding cannot be derived from the model at {n} players: {err}"
            return
        self.candidates = [(move, self.encoding.steps[shape], caller, {f"tied{s}": s in tied for s in range(n)})
                           for move, shape, caller, tied in candidate_moves(n)]
        self.index = {move: number for number, (move, *_) in enumerate(self.candidates)}
        self.witnesses: dict[str, Record] = {}
        self.piles: dict[tuple[int, ...], dict[str, int]] = {}  # the pile constants of each layout

    def env(self, lengths: tuple[int, ...], pattern: tuple[int, ...], phase: Phase, turn: int) -> dict[str, Any]:
        """The free constants' values for a position: card ``i`` of the table is named ``i``; a
        pile's slots past its length hold ``NO_CARD``, whose rank is one no card has."""
        piles = self.piles.get(lengths)
        if piles is None:
            n, capacity = self.n, self.capacity
            piles = self.piles[lengths] = {}
            names = [f"down{s}" for s in range(n)] + [f"up{s}" for s in range(n)] + ["pot"]
            start = 0
            for name, length in zip(names, lengths):
                piles[f"{name}_len"] = length
                for i in range(capacity):
                    piles[f"{name}_{i}"] = start + i if i < length else NO_CARD
                start += length
        env: dict[str, Any] = dict(piles)
        env["rank"] = _Ranks(pattern).__getitem__
        env["turn"], env["phase"] = turn, PHASE_CODE[phase]
        return env

    def position(self, state: SnapState, layout: Layout, tally: Tally) -> Difference | TextDifference | None:
        """Compare the text's matches and correct calls in a call window, then every candidate move."""
        if state.phase is Phase.CALL:
            tally.windows += 1
            said = compare_window(state)
            if said is not None:
                return said
        if self.underivable is not None:
            return None
        env = self.env(layout.lengths, layout.pattern, state.phase, state.player.index)
        listed = model.legal_moves(state)
        chosen = {self.index.get(move, -1) for move in listed}
        if -1 in chosen:  # a move of no shape the encoding has
            return self.legality_difference(state, next(m for m in listed if m not in self.index), False)
        tally.moves += len(self.candidates)
        values = self.encoding.legality(env)
        allowed = list(itertools.compress(range(len(values)), values))
        # where the encoding allows exactly the listed moves only their successors are left to compare;
        # else every candidate in order, so that the first difference is the one reported
        for number in allowed if len(allowed) == len(chosen) and chosen.issuperset(allowed) else range(len(values)):
            says = values[number]
            if bool(says) != (number in chosen):
                return self.legality_difference(state, self.candidates[number][0], bool(says))
            if says:
                move, encoded_step, caller, tied = self.candidates[number]
                env["caller"] = caller
                env.update(tied)
                found = self.successor(state, layout, move, encoded_step(env), tally)
                if found is not None:
                    return found
        return None

    def successor(self, state: SnapState, layout: Layout, move: Move, values: tuple[Any, ...], tally: Tally,
                  ) -> Difference | None:
        try:
            after = model.apply(state, move)
        except IllegalMoveError as err:
            text = f"{move} is listed by legal_moves but apply refuses it ({err.rule_id})"
            return Difference(text, snap_record(state.config, (), state, start=state, rejects=move, label=text[:300]))
        tally.successors += 1
        tally.endings += after.phase is Phase.OVER
        if _agrees(values, after, layout.cards, self.capacity) and after.phase is not Phase.OVER:
            differs = model_outcome(after) is not None  # the encoded position names no outcome under way
        else:  # read in full: where the game ends (its outcome), or to say how the two differ
            encoded = _read(values, self.n, self.capacity)
            differs = encoded is None or not same_position(encoded, _named(after, layout.names)) or (
                encoded_outcome(encoded) != model_outcome(after))
        if differs:
            encoded = _read(values, self.n, self.capacity)
            text = (f"{move} in {position_text(state)}: the model reaches {position_text(after)}, "
                    f"{outcome_text(model.outcome(after))}; the encoding "
                    f"{'nothing' if encoded is None else encoded_text(encoded, state.config)}")
            return Difference(text, snap_record(state.config, (move,), after, start=state, label=text[:300]))
        if not self.wanted(move, after):
            return None
        kind = _witness_kind(state, move, after)
        if kind not in self.witnesses:
            self.witnesses[kind] = snap_record(state.config, (move,), after, start=state,
                                               label=f"{kind}: {move} in {position_text(state)}"[:300])
        return None

    def wanted(self, move: Move, after: SnapState) -> bool:
        """Whether a move may be of a kind that has no witness record yet (cheap to ask)."""
        end = " ending the game" if after.phase is Phase.OVER else ""
        if isinstance(move, Call):
            return any(f"{right} {move.kind.value} call{end}" not in self.witnesses for right in ("correct", "wrong"))
        return True

    def legality_difference(self, state: SnapState, move: Move, encoding_says: bool) -> Difference:
        where = f"{move} in {position_text(state)}"
        if encoding_says:
            text = f"the encoding allows {where}; legal_moves does not list it"
            return Difference(text, snap_record(state.config, (), state, start=state, rejects=move, label=text[:300]))
        text = f"legal_moves lists {where}; the encoding does not allow it"
        try:
            after = model.apply(state, move)
        except IllegalMoveError:
            return Difference(text, snap_record(state.config, (), state, start=state, rejects=move, label=text[:300]))
        return Difference(text, snap_record(state.config, (move,), after, start=state, label=text[:300]))


def _agrees(values: tuple[Any, ...], after: SnapState, cards: Mapping[int, Card], capacity: int) -> bool:
    """Whether a compiled step's successor is the model's ``after`` as :func:`same_position` has
    it (the piles, the phase and, under way, the turn), read without building either position:
    each pile's length, then its names as the layout's cards. False may be a difference in form
    only (the caller then reads both positions in full)."""
    zones = (*after.down, *after.up, after.pot)
    count = len(zones)
    for z, pile in enumerate(zones):
        start = count + z * capacity
        if values[z] != len(pile) or tuple(map(cards.get, values[start:start + len(pile)])) != pile:
            return False
    phase = PHASES.get(values[-1])
    return phase is after.phase and (phase is Phase.OVER or values[-2] == (-1 if after.turn is None else after.turn.index))


def _named(state: SnapState, names: Mapping[Card, int]) -> Position:
    """A model position with its cards as names (as :func:`~cardcanon.proofs.snap.encoding.position_of`
    gives it, with the layout's names kept from one position to the next)."""
    def pile(cards: Sequence[Card]) -> tuple[int, ...]:
        return tuple(names[c] for c in cards)

    return Position(tuple(map(pile, state.down)), tuple(map(pile, state.up)), pile(state.pot),
                    -1 if state.turn is None else state.turn.index, state.phase)


def _witness_kind(state: SnapState, move: Move, after: SnapState) -> str:
    """Which kind of transition a compared move is (one witness record per kind)."""
    end = " ending the game" if after.phase is Phase.OVER else ""
    if isinstance(move, Flip):
        return "flip turning the face-up pile over" if not state.down[move.player.index] else "flip"
    if isinstance(move, NoCall):
        return "no call" + end
    if isinstance(move, Tie):
        return f"tie on {move.kind.value}" + end
    assert isinstance(move, Call)
    right = move.kind in model.correct_kinds(state)
    return f"{'correct' if right else 'wrong'} {move.kind.value} call" + end


def positions(n: int, k: int, ranks: int, variant: Mapping[str, str], tally: Tally,
              ) -> Iterator[tuple[SnapState, Layout]]:
    """Every game position under way with ``k`` cards at an ``n``-seat table (module docstring)."""
    zones = 2 * n + 1
    for pattern in rank_patterns(k, ranks):
        deck = deck_of(pattern)
        config = snap_config(variant, players=n, deck=deck)
        names, cards = {card: i for i, card in enumerate(deck)}, dict(enumerate(deck))
        for lengths in pile_lengths(k, zones):
            edges = list(itertools.accumulate(lengths, initial=0))
            piles = tuple(deck[edges[z]:edges[z + 1]] for z in range(zones))
            down, up, pot = piles[:n], piles[n:2 * n], piles[2 * n]
            phases = list(game_phases(n, down, up))
            tally.skipped += 2 * n + 1 - len(phases)
            for phase, seat in phases:
                yield (SnapState(config, phase, Seat(0), down, up, pot, Seat(seat), 1),
                       Layout(lengths, pattern, names, cards))


# ---- the check ---------------------------------------------------------------------------------
def check(run: Run) -> CheckResult:
    """``bounds``: ``players`` (table sizes), ``cards`` (the card bound of each), ``ranks`` (the
    most distinct ranks on the table), ``text_players`` (the tables whose derived terms are
    compared with the text); stats per table size: the :class:`Tally`, and ``text_patterns``."""
    if run.dropped is not None:
        raise ValueError(f"drop:{run.dropped}: this check has no drop probes, only {', '.join(PROBES)}")
    probe = run.encoding_probe(PROBES)
    variant, bounds = run.variant, run.bounds
    players, cards, ranks = list(bounds["players"]), list(bounds["cards"]), int(bounds["ranks"])
    if len(players) != len(cards):
        raise ValueError("bounds: players and cards must have the same length")
    text_tally, underivable = TextTally(), list[str]()

    def text_differs(tables: Sequence[int]) -> CheckResult | None:
        """The derived terms against the text at these tables (None: they agree, or cannot be derived)."""
        for n in tables if not underivable else ():
            try:
                said = compare(snap_config(variant, players=n), text_tally)
            except Unsupported as err:
                underivable.append(f"a term cannot be derived from the model at {n} players: {err}")
                return None
            if said is not None:
                return _differs(f"{n} players, {variant_name(variant)}: {said.text}", said.records)
        return None

    small = [n for n in bounds["text_players"] if n <= 3]  # cheap: a difference is found early
    found_text = text_differs(small)
    if found_text is not None:
        return found_text
    tallies = {n: Tally() for n in players}
    comparisons = {n: Comparison(n, k, variant, probe) for n, k in zip(players, cards)}
    underivable += [c.underivable for c in comparisons.values() if c.underivable is not None]
    for k in range(1, max(cards) + 1):  # small positions first: a counterexample is found early
        for n in (n for n, most in zip(players, cards) if k <= most):
            tally, comparison = tallies[n], comparisons[n]
            for state, layout in positions(n, k, ranks, variant, tally):
                run.budget.tick()
                tally.positions += 1
                found = comparison.position(state, layout, tally)
                if isinstance(found, TextDifference):
                    return _differs(f"{n} players, {variant_name(variant)}: {found.text}", found.records)
                if found is not None:
                    return _differs(f"{n} players, {variant_name(variant)}: {found.text}", (found.record,))
    found_text = text_differs([n for n in bounds["text_players"] if n not in small])
    if found_text is not None:
        return found_text
    if underivable:  # no difference from the text found, and the encoding's side not compared
        raise Unsupported(underivable[0])
    stats = {f"{name}_{n}p": getattr(tallies[n], name) for n in players
             for name in ("positions", "skipped", "moves", "successors", "endings", "windows")}
    stats["text_patterns"] = text_tally.patterns
    records = [record for n in players for record in comparisons[n].witnesses.values()]
    total = sum(v for key, v in stats.items() if key.startswith("positions_"))
    text_tables = ", ".join(map(str, bounds["text_players"]))
    detail = (f"{total} positions ({', '.join(f'{n} players up to {k} cards' for n, k in zip(players, cards))}, "
              f"at most {ranks} ranks): legality and successor agree for every move, the matches and correct "
              f"calls with the rulebook's text; the derived terms agree with the text on {text_tally.patterns} "
              f"patterns ({text_tables} players)")
    return CheckResult(Verdict.PROVED, detail, witness=f"{len(records)} kinds of transition compared",
                       stats=stats, records=tuple(records))


def _differs(text: str, records: Sequence[Record]) -> CheckResult:
    return CheckResult(Verdict.COUNTEREXAMPLE, text, witness=text, records=tuple(records))
