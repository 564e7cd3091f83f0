"""The Z3 terms of the play rules of two-player Hearts, derived by running the reference model's own
functions on symbolic values (:mod:`cardcanon.proofs.symbolic`), never written a second time:

- :func:`legality`: whether ``play_problem`` lets seat 0 play each card, leading or following seat
  1's card, in a symbolic position: his hand :data:`HELD`, the dead cards :data:`DEAD` (a Boolean per
  card of the model's ``DECK``), the number of tricks played :data:`TRICKS`, "hearts broken" :data:`BROKEN`;
- :func:`trick_winner`: ``trick_winner`` of two symbolic cards :data:`LEAD`, :data:`FOLLOW` (deck indices);
- :func:`breaks_table`: ``breaks_hearts`` for each lead and follow (concrete cards: a table);
- :func:`first_lead`: ``first_lead_club``, ``forced_first_lead`` and ``first_leader`` over symbolic
  dead cards and hands (:data:`HELD` seat 0's, :data:`OTHER` seat 1's).

A probe breaks a rule only while deriving (:func:`breaking`): an encoding probe replaces a model
function (:data:`PROBES`); ``drop:RULE`` makes what the rule decides a free symbol (:data:`DROPS`).
An encoding instantiates a term by substituting its variables (:func:`instantiate`). The terms read
the model, so they are kept by :data:`MEMO` (:class:`~cardcanon.proofs.symbolic.ModelMemo`) with the
model code they ran: a model mutant that replaces a function they run derives them afresh.

The terms are seat 0's: the model reads the seat only to find the mover's hand and the turn, so an
encoding uses them for either seat; HEARTS-P11 compares them with the model in hands of both seats.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, cast

import z3

from cardcanon.model import hearts as model
from cardcanon.model.cards import Card, Suit
from cardcanon.model.hearts_types import DECK, SEATS
from cardcanon.model.seats import Seat
from cardcanon.proofs.base import Z3
from cardcanon.proofs.records import hearts_position
from cardcanon.proofs.z3_eval import compile_terms
from cardcanon.proofs.symbolic import (
    Branch, SymBool, SymInt, SymSet, aggregating, decide, explore, free, join, patched, pick,
)
from cardcanon.proofs.symbolic.memo import ModelMemo
from cardcanon.proofs.symbolic.terms import any_of, substituted

MEMO = ModelMemo(model, Seat)  # every term below, kept while the model code it ran stands
INDEX = {card: i for i, card in enumerate(DECK)}
HELD = tuple(z3.Bool(f"held{i}") for i in range(len(DECK)))  # seat 0 (the mover) holds the card
OTHER = tuple(z3.Bool(f"other{i}") for i in range(len(DECK)))  # seat 1 holds the card
DEAD = tuple(z3.Bool(f"dead{i}") for i in range(len(DECK)))
TRICKS = z3.Int("tricks_played")
BROKEN = z3.Bool("hearts_broken")
LEAD, FOLLOW = z3.Ints("lead follow")  # the cards of a trick, as deck indices
NOT_FORCED = -1  # ``forced_first_lead`` is None: no card is forced


# ---- breaking a rule while deriving ------------------------------------------------------------------
def _no_heart_lead_exception(state: model.HeartsState, hand: Any, card: Card) -> model.Refusal | None:
    """HEARTS-BREAK-1 without 'unless the leader holds nothing but hearts'."""
    if state.trick or state.hearts_broken or card.suit is not Suit.HEARTS:
        return None
    return "HEARTS-BREAK-1", "hearts are not broken"


def _no_six_clause(dead: Any) -> Card:
    """HEARTS-LEAD-2 without its last sentence: only the 2 and the 4 of clubs can make the leader."""
    return next(club for club in model.FIRST_LEAD_CLUBS[:2] if club not in dead)


def _only_two_forced(dead: Any, config: model.HeartsConfig) -> Card | None:
    """HEARTS-LEAD-3 dropped from the text: only the 2 of clubs is ever a forced first lead."""
    club = model.first_lead_club(dead)
    return club if club == model.TWO_OF_CLUBS else None


PROBES: Mapping[str, Mapping[str, Callable[..., Any]]] = {
    "no-heart-lead-exception": {"lead_hearts_problem": _no_heart_lead_exception},
    "follow-any-card": {"follow_problem": lambda state, hand, card: None},  # HEARTS-FOLLOW-1 gone
    "hearts-led-anytime": {"lead_hearts_problem": lambda state, hand, card: None},  # HEARTS-BREAK-1 gone
    "first-lead-any-card": {"first_lead_problem": lambda state, card: None},  # HEARTS-LEAD-1/3 gone
    "only-two-forced": {"forced_first_lead": _only_two_forced},
    "higher-rank-any-suit": {"beats": lambda card, other: card.rank > other.rank},
    "hearts-not-trump": {"beats": lambda card, other: card.suit is other.suit and card.rank > other.rank},
    "no-six-clause": {"first_lead_club": _no_six_clause},
}


def _free_card(name: str) -> Card:
    """A card of the deck chosen by a free integer (a value naming no card names the last)."""
    choice = free(name, z3.IntSort())
    return next((card for i, card in enumerate(DECK[:-1]) if decide(choice == i)), DECK[-1])


def _free_refusal(rule: str, original: Callable[..., Any]) -> Callable[..., Any]:
    """A ``*_problem`` rule block whose refusals citing ``rule`` are a free decision."""
    def problem(state: model.HeartsState, *args: Any) -> Any:
        refusal = original(state, *args)
        if refusal is None or refusal[0] != rule:
            return refusal
        lead = state.trick[0].card if state.trick else "lead"
        return refusal if decide(free(f"dropped!{rule}!{lead}!{args[-1]}", z3.BoolSort())) else None
    return problem


def _free_club(rule: str, original: Callable[..., Card]) -> Callable[..., Card]:
    """``first_lead_club`` with the club ``rule`` names free (HEARTS-LEAD-1: the 2; LEAD-2: another)."""
    def first_lead_club(dead: Any) -> Card:
        club = original(dead)
        decided_by = "HEARTS-LEAD-1" if club == model.TWO_OF_CLUBS else "HEARTS-LEAD-2"
        return _free_card(f"dropped!{rule}!first_lead_club") if decided_by == rule else club
    return first_lead_club


def _free_forced(rule: str, original: Callable[..., Card | None]) -> Callable[..., Card | None]:
    """``forced_first_lead`` with the card ``rule`` forces free (HEARTS-LEAD-1: the 2; LEAD-3: another)."""
    def forced_first_lead(dead: Any, config: model.HeartsConfig) -> Card | None:
        forced = original(dead, config)
        decided_by = "HEARTS-LEAD-1" if forced == model.TWO_OF_CLUBS else "HEARTS-LEAD-3"
        if decided_by != rule:
            return forced
        if decide(free(f"dropped!{rule}!not_forced", z3.BoolSort())):
            return None
        return _free_card(f"dropped!{rule}!forced")
    return forced_first_lead


def _free_winner(original: Callable[[Card, Card], int]) -> Callable[[Card, Card], int]:
    def trick_winner(lead: Card, follow: Card) -> int:  # HEARTS-TRICK-1: who wins is free
        original(lead, follow)
        return 1 if decide(free(f"dropped!HEARTS-TRICK-1!{lead}-{follow}", z3.BoolSort())) else 0
    return trick_winner


def _free_beats(rule: str, original: Callable[[Card, Card], bool]) -> Callable[[Card, Card], bool]:
    """``beats`` with the comparison ``rule`` makes free: of one suit (RANK-1), of two (TRUMP-1)."""
    def beats(card: Card, other: Card) -> bool:
        decided_by = "HEARTS-RANK-1" if card.suit is other.suit else "HEARTS-TRUMP-1"
        if decided_by != rule:
            return original(card, other)
        return decide(free(f"dropped!{rule}!{card}-{other}", z3.BoolSort()))
    return beats


# For each rule a drop can leave out: the model functions that decide it, each made free.
DROPS: Mapping[str, Mapping[str, Callable[[str, Callable[..., Any]], Callable[..., Any]]]] = {
    "HEARTS-FOLLOW-1": {"follow_problem": _free_refusal},
    "HEARTS-BREAK-1": {"lead_hearts_problem": _free_refusal},
    "HEARTS-FIRST-1": {"first_trick_problem": _free_refusal},
    "HEARTS-LEAD-1": {"first_lead_problem": _free_refusal, "first_lead_club": _free_club,
                      "forced_first_lead": _free_forced},
    "HEARTS-LEAD-2": {"first_lead_club": _free_club},
    "HEARTS-LEAD-3": {"first_lead_problem": _free_refusal, "forced_first_lead": _free_forced},
    "HEARTS-TRICK-1": {"trick_winner": lambda rule, original: _free_winner(original)},
    "HEARTS-RANK-1": {"beats": _free_beats},
    "HEARTS-TRUMP-1": {"beats": _free_beats},
}


@contextlib.contextmanager
def breaking(probe: str | None, deciding: Collection[str]) -> Iterator[None]:
    """The model as a probe breaks it, while the block derives: ``None`` (as written), a name of
    :data:`PROBES`, or ``drop:RULE`` for a rule of :data:`DROPS`, whose decision is made free in
    those of the functions ``deciding`` (the ones whose answers the derived term is made of)."""
    if probe is None:
        replacements: dict[str, Any] = {}
    elif probe.startswith("drop:"):
        rule = probe.removeprefix("drop:")
        replacements = {name: make(rule, getattr(model, name)) for name, make in DROPS[rule].items()
                        if name in deciding}
    else:
        replacements = dict(PROBES[probe])
    with patched(model, **replacements):
        yield


# ---- legality --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Legality:
    """``lead[c]``: seat 0 may lead card c; ``follow[l][c]``: he may play c to seat 1's lead l
    (False for c = l); ``raised``: ``play_problem`` raises; ``paths``: the paths it took."""

    lead: tuple[Z3, ...]
    follow: tuple[tuple[Z3, ...], ...]
    raised: Z3
    paths: int

    def allowed(self, lead: int | None, card: int) -> Z3:
        return self.lead[card] if lead is None else self.follow[lead][card]


def symbolic_position(config: model.HeartsConfig, lead: Card | None) -> model.HeartsState:
    """Seat 0 to move, leading or following seat 1's ``lead``; hand, dead cards, tricks played and
    "hearts broken" symbolic."""
    state = hearts_position(config, hand=(), dead=(), lead=lead, tricks_played=0, hearts_broken=False)
    for name, value in (("hands", (SymSet(DECK, HELD), frozenset())), ("dead", SymSet(DECK, DEAD)),
                        ("tricks_played", SymInt(TRICKS)), ("hearts_broken", SymBool(BROKEN))):
        object.__setattr__(state, name, value)  # symbolic values are no cards: past the state's own checks
    return state


LEGALITY_DECIDED_BY = ("first_lead_problem", "follow_problem", "lead_hearts_problem", "first_trick_problem")


def legality(config: model.HeartsConfig, probe: str | None = None) -> Legality:
    """The legality of every card for a lead and for a follow to each card, derived from ``play_problem``."""
    return _legality(config, probe)


@MEMO.function
def _legality(config: model.HeartsConfig, probe: str | None) -> Legality:
    raised: list[Z3] = []
    paths = 0

    def allowed(lead: Card | None, card: Card) -> Z3:
        nonlocal paths
        if card == lead:
            return z3.BoolVal(False)
        state = positions[lead]
        found = _derive(lambda: model.play_problem(state, model.Play(SEATS[0], card)),
                        lambda refusal: z3.BoolVal(refusal is None))
        paths += found.paths
        raised.append(found.raised)
        return found.term

    positions = {lead: symbolic_position(config, lead) for lead in (None, *DECK)}
    with breaking(probe, LEGALITY_DECIDED_BY):
        lead = tuple(allowed(None, card) for card in DECK)
        follow = tuple(tuple(allowed(led, card) for card in DECK) for led in DECK)
    return Legality(lead, follow, z3.simplify(z3.Or(raised)), paths)


def _derive(fn: Callable[[], Any], to_term: Callable[[Any], Z3]) -> Any:
    """``derive`` without pruning (decisions repeat no term, so no path is infeasible for long), simplified."""
    with aggregating():
        branches = explore(fn, prune=False)
    return _simplified(join(branches, to_term))


def _simplified(found: Any) -> Any:
    return type(found)(z3.simplify(found.term), z3.simplify(found.raised), found.paths)


# ---- the trick winner ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Winner:
    """``term``: ``trick_winner`` of the cards :data:`LEAD` and :data:`FOLLOW` (1: the follower wins);
    ``raised``: it raises; ``paths``: one per pair of cards, and one per index outside the deck;
    ``pairs``: for each pair of deck indices, whether the follower wins (True or False, or a term of
    a dropped rule's free symbols)."""

    term: Z3
    raised: Z3
    paths: int
    pairs: Mapping[tuple[int, int], Z3]

    def follower(self, lead: int, follow: int) -> Z3:
        return self.pairs[lead, follow]


def trick_winner(probe: str | None = None) -> Winner:
    return _trick_winner(probe)


@MEMO.function
def _trick_winner(probe: str | None) -> Winner:
    def play() -> tuple[int, int, int]:
        lead, follow = pick(LEAD, DECK), pick(FOLLOW, DECK)
        return INDEX[lead], INDEX[follow], model.trick_winner(lead, follow)

    with breaking(probe, ("trick_winner", "beats")):
        with aggregating():
            branches = explore(play, prune=False)
    won = [b for b in branches if b.raised is None and b.result is not None and b.result[2] == 1]
    follower = any_of([b.condition for b in won])  # flat: a nested If per path is too deep to walk
    pairs = {(a, b): z3.BoolVal(False) for a in range(len(DECK)) for b in range(len(DECK))}
    for branch in won:
        a, b, _ = branch.result  # type: ignore[misc]
        pairs[a, b] = any_of((pairs[a, b], branch.condition))
    pinned = {key: z3.simplify(substituted(term, ((LEAD, z3.IntVal(key[0])), (FOLLOW, z3.IntVal(key[1])))))
              for key, term in pairs.items()}
    raised = z3.Or([b.condition for b in branches if b.raised is not None])
    return Winner(z3.If(follower, 1, 0), z3.simplify(raised), len(branches), pinned)


@MEMO.function
def breaks_table(config: model.HeartsConfig) -> tuple[tuple[bool, ...], tuple[tuple[bool, ...], ...]]:
    """The model's ``breaks_hearts`` (HEARTS-BREAK-2, QUEEN-2) for seat 0 leading each card, and for
    him following seat 1's lead ``[a]`` with each card ``[b]`` (hearts unbroken before)."""
    def breaks(lead: Card | None, card: Card) -> bool:
        state = hearts_position(config, hand=(card,), dead=(), lead=lead, tricks_played=0, hearts_broken=False)
        return model.breaks_hearts(state, model.Play(SEATS[0], card))

    return (tuple(breaks(None, c) for c in DECK),
            tuple(tuple(a != b and breaks(a, b) for b in DECK) for a in DECK))


# ---- the first lead ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class FirstLead:
    """Over :data:`DEAD`, :data:`HELD` (seat 0's hand) and :data:`OTHER` (seat 1's): ``club``, the
    index of ``first_lead_club``; ``forced``, of ``forced_first_lead`` (or :data:`NOT_FORCED`);
    ``leader``, the seat ``first_leader`` names; ``raised``: any of them raises."""

    club: Z3
    forced: Z3
    leader: Z3
    raised: Z3
    paths: int


def _card_term(card: Card | None) -> Z3:
    return z3.IntVal(NOT_FORCED if card is None else INDEX[card])


def first_lead(config: model.HeartsConfig, probe: str | None = None) -> FirstLead:
    return _first_lead(config, probe)


@MEMO.function
def _first_lead(config: model.HeartsConfig, probe: str | None) -> FirstLead:
    dead = cast(Any, SymSet(DECK, DEAD))
    hands = cast(Any, (SymSet(DECK, HELD), SymSet(DECK, OTHER)))
    found: list[Any] = []
    with breaking(probe, ("first_lead_club", "forced_first_lead")):
        for fn, to_term in ((lambda: model.first_lead_club(dead), _card_term),
                            (lambda: model.forced_first_lead(dead, config), _card_term),
                            (lambda: model.first_leader(hands, dead, config)[0], lambda seat: z3.IntVal(seat.index))):
            with aggregating():
                branches: list[Branch[Any]] = explore(fn, prune=False)
            found.append(join(branches, to_term))
    club, forced, leader = (z3.simplify(f.term) for f in found)
    return FirstLead(club, forced, leader, z3.simplify(z3.Or([f.raised for f in found])), sum(f.paths for f in found))


# ---- instantiating a term ------------------------------------------------------------------------------
def instantiate(term: Z3, *, held: Any = None, other: Any = None, dead: Any = None, tricks: Any = None,
                broken: Any = None) -> Z3:
    """``term`` with its variables replaced (``held``, ``other``, ``dead``: a term per card)."""
    pairs: list[tuple[Z3, Z3]] = []
    for names, values in ((HELD, held), (OTHER, other), (DEAD, dead)):
        if values is not None:
            pairs += list(zip(names, values))
    for name, value in ((TRICKS, tricks), (BROKEN, broken)):
        if value is not None:
            pairs.append((name, z3.IntVal(value) if isinstance(value, int) and not isinstance(value, bool)
                          else z3.BoolVal(value) if isinstance(value, bool) else value))
    return z3.simplify(substituted(term, pairs)) if pairs else term


def derivation_probe(probe: str | None, dropped: str | None, probes: Collection[str]) -> str | None:
    """The probe a check derives its terms under: a probe of :data:`PROBES` (one of the check's
    ``probes``; another of them breaks something else), a drop of a rule the derived functions decide
    (:data:`DROPS`), or None."""
    if dropped is not None:
        return probe if dropped in DROPS else None
    if probe is not None and probe not in probes:
        raise ValueError(f"unknown probe {probe!r}; this check knows {', '.join(sorted(probes)) or 'none'}")
    return probe if probe in PROBES else None


class LegalCards:
    """The derived legality evaluated at concrete positions (compiled once per lead or follow)."""

    def __init__(self, legality: Legality) -> None:
        self.legality = legality
        self.compiled: dict[int | None, Callable[[Mapping[str, Any]], tuple[Any, ...]]] = {}

    def __call__(self, hand: Collection[Card], dead: Collection[Card], lead: Card | None, tricks: int,
                 broken: bool) -> frozenset[Card] | None:
        """The cards the terms allow the player to move holding ``hand``: leading, or following
        ``lead``; None where a dropped rule leaves a card open (its free symbol has no value)."""
        led = None if lead is None else INDEX[lead]
        if led not in self.compiled:
            self.compiled[led] = compile_terms([self.legality.allowed(led, c) for c in range(len(DECK))])
        env = ({f"held{i}": c in hand for i, c in enumerate(DECK)} | {f"dead{i}": c in dead for i, c in enumerate(DECK)}
               | {"tricks_played": tricks, "hearts_broken": broken})
        try:
            allowed = self.compiled[led](env)
        except KeyError:  # a dropped rule's free symbol: each card's term instantiated, a literal or open
            values = [instantiate(self.legality.allowed(led, c), held=[z3.BoolVal(x in hand) for x in DECK],
                                  dead=[z3.BoolVal(x in dead) for x in DECK], tricks=tricks, broken=broken)
                      for c in range(len(DECK))]
            if not all(z3.is_true(v) or z3.is_false(v) for v in values):
                return None
            allowed = tuple(z3.is_true(v) for v in values)
        return frozenset(c for c, ok in zip(DECK, allowed) if ok)

    def at(self, state: model.HeartsState) -> frozenset[Card] | None:
        """At a model state, for the player to move (the terms are seat 0's; the model reads a seat
        only to find its hand)."""
        assert state.to_move is not None  # a position with plays to compare has a player to move
        return self(state.hands[state.to_move.index], state.dead, state.trick[0].card if state.trick else None,
                    state.tricks_played, state.hearts_broken)
