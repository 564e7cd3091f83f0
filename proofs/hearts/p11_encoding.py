"""HEARTS-P11: the Z3 encodings of three Hearts rule functions equal the model's functions on
their whole domains, under the variant of the run.

- **Scoring** (``Scoring`` of ``hearts_encoding``, HEARTS-SCORE-1, QUEEN-1, MOON-1/2):
  exhaustive. Every way to give each of the 8 point cards to seat 0, to seat 1 or to the dead
  cards, at most 2 dead (3,072 splits): the compiled terms (``compile_term``, the very terms
  the solver sees) against the model's ``score_hand`` (its piles also hold the other live
  cards, split between the seats; the dead pair is filled with cards worth nothing).
- **Legal moves** (``z3_legal_lead`` / ``z3_legal_follow``, HEARTS-LEAD-1/3, FOLLOW-1, BREAK-1,
  FIRST-1): a Z3 equivalence query against the model's tabulated function. A *position* is
  a lead (hearts broken or not; to the first trick with each forced club 2, 4 or 6 of clubs,
  or to a later trick) or a follow (to each of the 28 cards led, first trick or not, hearts
  broken or not): 120 positions. For every position, every card and every hand of at most 13
  cards that the position leaves possible (no dead low club, not the card led; up to
  114,050,564 hands), Z3 proves that the encoding allows the card exactly when the model's
  table does. The table is the model's ``legal_moves`` on one small hand per *feature
  vector*: (the card, it is in the hand, the hand holds the suit led, the hand holds a card
  that is not a heart). The forced club is the one HEARTS-LEAD-2 names from the dead cards.
  *Assumption*: the model's legality depends on the hand only through that vector, on the
  card led only through its suit, and on the rest of the position only through the
  position's parts above (not on the other dead cards, the trick number past the first,
  the other player's cards, the seat to move: seat 0 here). It is tested, not assumed
  blindly: the model is run on every hand of an 8-card deck (two cards of each suit, with
  the 2 and 6 of clubs and the queen of spades) in every kind of position, with other cards
  led, other dead cards and another trick number than the table's (5,632 hands), and must
  give the table's answer on every one.
- **The match decision** (``match_terms`` of ``hearts_match``, HEARTS-MATCH-1/2, GOAL-1): a Z3
  equivalence query over all pairs of non-negative integer scores against the model's
  ``match_result`` tabulated by band (each score below the target or not, and their order),
  the model itself compared on every pair in a window around the target, with every kind of
  previous scores (none, tied below, at or past the target, unequal below). The encoding
  states no "tie broken" label; the model's label is compared there with the rulebook's
  statement of HEARTS-P9 (``rulebook_outcome``) on the same pairs.

Every value of the three functions on these domains is compared, Z3 serving to enumerate the
hands and the scores, so the manifest calls the check an enumeration; the encodings it reads
are ``hearts_encoding``'s and ``hearts_match``'s, unchanged. What it adds to HEARTS-P4/P5
(scores as a sum and as a set of pairs), P7 (the decision on a window, without the label)
and P9 (one sample per score band) is the comparison value by value on the whole domain.

Counterexamples are function records (``cardcanon.proofs.records``) of the model's
``score_hand``, ``legal_moves`` (of the position found) or ``match_result``, which the runner
replays. The trick winner (HEARTS-P2, all 756 pairs) and the first leader (HEARTS-P3) are
compared exhaustively there. The option ``queen_breaks`` changes which play breaks hearts,
not the legal moves of a position (they take "hearts broken" as given), so it changes no
function compared here; the check runs under it all the same.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from cardcanon.model import hearts as model
from cardcanon.model.cards import Card
from cardcanon.model.hearts_records import config_to_json
from cardcanon.proofs.base import Budget, CheckResult, Run, Verdict, Z3
from cardcanon.proofs.hearts.encoding import (
    CARDS, DEAD_CARDS, HAND_SIZE, HEARTS_SUIT, INDEX, LOW_CLUBS, N_CARDS, POINT_CARDS, QUEEN_OF_SPADES, Rules,
    Scoring, suit, z3_legal_follow, z3_legal_lead,
)
from cardcanon.proofs.hearts.match import match_terms, rulebook_outcome
from cardcanon.proofs.records import Record, function_record, hearts_position
from cardcanon.proofs.z3_eval import compile_term


# Encoding probes: a broken encoding the check must catch.
PROBES: dict[str, dict[str, Any]] = {
    "no-heart-lead-exception": dict(heart_lead_exception=False),
    "queen-12": dict(queen_points=12),
    "higher-wins": dict(),
}


DEAD = 2  # a point card's owner in a split: seat 0, seat 1, or dead
SPARE_DEAD = (INDEX[Card.parse("AD")], INDEX[Card.parse("AS")])  # dead cards that are not point cards


class Mismatch(Exception):
    """The encoding and the model differ somewhere: (text, record of the model's value there)."""


def check(run: Run) -> CheckResult:
    """HEARTS-P11 (see the module docstring): scoring, legal moves and the match decision, each
    encoding against the model's function on its whole domain, under the run's variant."""
    bounds, budget, config = run.bounds, run.budget, run.hearts_config()
    name = run.encoding_probe(PROBES)
    rules = Rules.from_config(config) if name is None else Rules.from_config(config).mutate(name, **PROBES[name])
    shown: list[Record] = []
    try:
        stats = {"score_splits": compare_scoring(rules, config, shown)}
        stats.update(compare_match(config, rules.mutations, int(bounds.get("window", 30)), budget, shown))
        stats.update(compare_legal_moves(rules, config, budget, shown))
    except Mismatch as err:
        text, record = err.args
        return CheckResult(Verdict.COUNTEREXAMPLE, detail=text, witness=text, records=(record,))
    detail = (f"scoring: {stats['score_splits']} splits of the point cards agree; legal moves: "
              f"{stats['positions']} positions x 28 cards x every hand of at most {HAND_SIZE} cards agree with "
              f"the model's table of {stats['feature_cells']} feature cells (Z3), and the model agrees with its "
              f"table on {stats['small_deck_hands']} small-deck hands; match decision: every pair of scores "
              f"(Z3) agrees with the model's {stats['match_bands']} bands, the model agrees with them and with the "
              f"rulebook's label on {stats['match_pairs']} pairs x previous scores")
    return CheckResult(Verdict.PROVED, detail=detail, witness="\n".join(r["label"] for r in shown),
                       stats={**stats, "seconds": budget.elapsed()}, records=tuple(shown))


# ---- scoring: exhaustive -------------------------------------------------------------------------------
def splits() -> Iterator[tuple[int, ...]]:
    """Each way to give the point cards (in ``POINT_CARDS`` order) to seat 0, seat 1 or the
    dead cards, with at most two dead (HEARTS-DEAL-2)."""
    for owners in itertools.product((0, 1, DEAD), repeat=len(POINT_CARDS)):
        if owners.count(DEAD) <= DEAD_CARDS:
            yield owners


def _piles(owners: Sequence[int]) -> tuple[tuple[frozenset[Card], frozenset[Card]], list[Card]]:
    """The cards each seat took and the dead pair, for a split of the point cards: spare cards
    fill the dead pair, the other cards go to the seats in turn."""
    dead = [c for c, o in zip(POINT_CARDS, owners) if o == DEAD]
    dead += list(SPARE_DEAD[:DEAD_CARDS - len(dead)])
    owner = dict(zip(POINT_CARDS, owners))
    rest = [c for c in range(N_CARDS) if c not in owner and c not in dead]
    owner.update({c: i % 2 for i, c in enumerate(rest)})
    taken = tuple(frozenset(CARDS[c] for c, o in owner.items() if o == p) for p in (0, 1))
    return (taken[0], taken[1]), [CARDS[c] for c in dead]


def _score_args(owners: Sequence[int], config: model.HeartsConfig) -> list[Any]:
    """``score_hand``'s arguments (record form) for a split."""
    taken, dead = _piles(owners)
    return [[sorted(str(c) for c in pile) for pile in taken], [str(c) for c in dead], config_to_json(config)]


def compare_scoring(rules: Rules, config: model.HeartsConfig, shown: list[Record]) -> int:
    """Every split: the compiled ``Scoring`` terms against the model's ``score_hand``."""
    scoring = Scoring(rules, [z3.Bool(f"live{c}") for c in range(N_CARDS)],
                      {c: z3.Bool(f"took{c}") for c in POINT_CARDS})
    score0, score1 = (compile_term(s) for s in scoring.score)
    compared = 0
    for owners in splits():
        env = {f"live{c}": o != DEAD for c, o in zip(POINT_CARDS, owners)}
        env.update({f"took{c}": o == 1 for c, o in zip(POINT_CARDS, owners)})
        mine = (score0(env), score1(env))
        taken, dead = _piles(owners)
        truth = model.score_hand(taken, dead, config)
        compared += 1
        if tuple(truth) != mine:
            text = f"scoring {_split_text(owners)}: the encoding scores {mine[0]}-{mine[1]}, the model {truth[0]}-{truth[1]}"
            raise Mismatch(text, function_record("hearts", "score_hand", _score_args(owners, config), label=text))
    moon = (0,) * len(POINT_CARDS)
    ordinary = tuple(0 if c == QUEEN_OF_SPADES else 1 if suit(c) == HEARTS_SUIT and c % 2 else DEAD if c == 20 else 0
                     for c in POINT_CARDS)
    for owners, what in ((moon, "a moon"), (ordinary, "an ordinary split")):
        shown.append(function_record("hearts", "score_hand", _score_args(owners, config),
                                     label=f"score_hand, {what}: {_split_text(owners)}"))
    return compared


def _split_text(owners: Sequence[int]) -> str:
    parts = [f"{who} {' '.join(CARDS[c].pretty for c, o in zip(POINT_CARDS, owners) if o == p) or '-'}"
             for p, who in ((0, "P0"), (1, "P1"), (DEAD, "dead"))]
    return "; ".join(parts)


# ---- legal moves: Z3 against the model's table ----------------------------------------------------------
@dataclass(frozen=True)
class Position:
    """What the legal plays depend on besides the hand: a lead (``lead`` None; ``forced`` the
    club that made the leader on the first trick) or a follow to ``lead``."""

    first: bool
    broken: bool
    forced: int | None = None
    lead: int | None = None

    @property
    def out(self) -> tuple[int, ...]:
        """Cards the mover cannot hold: the card led, or the dead low clubs below the forced one."""
        if self.lead is not None:
            return (self.lead,)
        return LOW_CLUBS[:LOW_CLUBS.index(self.forced)] if self.forced is not None else ()

    @property
    def led_suit(self) -> int | None:
        return None if self.lead is None else suit(self.lead)

    @property
    def kind(self) -> tuple[bool, bool, int | None, int | None]:
        """The table's key: the card led matters only through its suit (the assumption)."""
        return self.first, self.broken, self.forced, self.led_suit

    def text(self) -> str:
        trick = "the first trick" if self.first else "a later trick"
        what = (f"lead to {trick}" + (f" (forced {CARDS[self.forced].pretty})" if self.forced is not None else "")
                if self.lead is None else f"follow to {CARDS[self.lead].pretty} on {trick}")
        return f"{what}, hearts {'broken' if self.broken else 'unbroken'}"


def positions() -> list[Position]:
    """Every position the legal-move encodings take: 2 x (3 first leads + 1 later lead + 2 x 28 follows)."""
    out = []
    for broken in (False, True):
        out += [Position(True, broken, forced=f) for f in LOW_CLUBS] + [Position(False, broken)]
        out += [Position(first, broken, lead=c) for first in (False, True) for c in range(N_CARDS)]
    return out


Features = tuple[bool, bool, bool]  # (the card is in the hand, the hand holds the suit led, it holds a non-heart)
VECTORS: tuple[Features, ...] = tuple((a, b, c) for a in (False, True) for b in (False, True) for c in (False, True))


def features(hand: frozenset[int], card: int, led_suit: int | None) -> Features:
    return (card in hand, led_suit is not None and any(suit(c) == led_suit for c in hand),
            any(suit(c) != HEARTS_SUIT for c in hand))


def representative(pos: Position, card: int, want: Features) -> frozenset[int] | None:
    """A smallest hand with the features ``want`` in ``pos`` (high cards first), or None."""
    held, has_led, has_other = want
    if held and card in pos.out:
        return None
    free = [c for c in reversed(range(N_CARDS)) if c not in pos.out and c != card]
    hand = {card} if held else set()
    if has_led and not features(frozenset(hand), card, pos.led_suit)[1]:
        hand.update(next(([c] for c in free if suit(c) == pos.led_suit), []))
    if has_other and not features(frozenset(hand), card, pos.led_suit)[2]:
        hand.update(next(([c] for c in free if suit(c) != HEARTS_SUIT and (has_led or suit(c) != pos.led_suit)), []))
    found = frozenset(hand)
    return found if features(found, card, pos.led_suit) == want else None


@dataclass(frozen=True)
class Spot:
    """A hand in a position, with the dead cards and trick number that make it a model state."""

    pos: Position
    hand: frozenset[int]
    dead: tuple[int, ...]
    tricks_played: int

    @classmethod
    def of(cls, pos: Position, hand: Iterable[int], *, later: int = 1, spare: Sequence[int] = ()) -> Spot:
        """The dead cards are the low clubs below the forced one, then cards from ``spare``
        (default: the highest cards that are no low club) that the hand does not hold."""
        held = frozenset(hand)
        dead = list(pos.out if pos.lead is None else ())
        pool = spare or [c for c in reversed(range(N_CARDS)) if c not in LOW_CLUBS]
        dead += [c for c in pool if c not in held and c != pos.lead and c not in dead][:DEAD_CARDS - len(dead)]
        return cls(pos, held, tuple(dead), 0 if pos.first else later)

    def legal(self, config: model.HeartsConfig) -> frozenset[int]:
        """The cards the loaded model's ``legal_moves`` allows here."""
        state = hearts_position(config, hand=[CARDS[c] for c in self.hand], dead=[CARDS[c] for c in self.dead],
                                lead=None if self.pos.lead is None else CARDS[self.pos.lead],
                                tricks_played=self.tricks_played, hearts_broken=self.pos.broken)
        return frozenset(INDEX[play.card] for play in model.legal_moves(state))

    def record(self, config: model.HeartsConfig, label: str) -> Record:
        args = {"hand": [str(CARDS[c]) for c in sorted(self.hand)], "dead": [str(CARDS[c]) for c in self.dead],
                "lead": None if self.pos.lead is None else str(CARDS[self.pos.lead]),
                "tricks_played": self.tricks_played, "hearts_broken": self.pos.broken}
        return function_record("hearts", "legal_moves", [config_to_json(config), args], label=label)


Table = dict[tuple[tuple[bool, bool, int | None, int | None], int, Features], bool]


def model_table(config: model.HeartsConfig) -> tuple[Table, dict[Any, Spot]]:
    """The model's legality of each card for each feature vector in each kind of position,
    from one representative hand each (the card led: the highest other card of its suit)."""
    table: Table = {}
    where: dict[Any, Spot] = {}
    for pos in positions():
        if pos.lead is not None and pos.lead % 7 != 6:
            continue  # one follow per suit led: to its ace
        for card in range(N_CARDS):
            rep = pos if pos.lead != card else Position(pos.first, pos.broken, lead=pos.lead - 1)
            for want in VECTORS if pos.lead is not None else tuple(v for v in VECTORS if not v[1]):
                hand = representative(rep, card, want)
                if hand is not None:
                    spot = Spot.of(rep, hand)
                    table[pos.kind, card, want] = card in spot.legal(config)
                    where[pos.kind, card, want] = spot
    return table, where


def encoded_terms(rules: Rules, pos: Position, hand: Sequence[Z3], broken: Z3 | None = None) -> list[Z3]:
    """The encoding's legality of each card in ``pos`` (``broken``: hearts broken, default the position's)."""
    if pos.lead is None:
        broken = z3.BoolVal(pos.broken) if broken is None else broken
        return [z3_legal_lead(hand, c, broken=broken, first_trick=pos.first, forced=pos.forced, rules=rules)
                for c in range(N_CARDS)]
    return [z3_legal_follow(hand, c, pos.lead, first_trick=z3.BoolVal(pos.first), rules=rules) for c in range(N_CARDS)]


def compare_legal_moves(rules: Rules, config: model.HeartsConfig, budget: Budget,
                        shown: list[Record]) -> dict[str, int]:
    """Z3: in every position, for every card and every possible hand of at most 13 cards, the
    encoding allows the card exactly when the model's table does; then the model against its
    own table on every hand of a small deck (the assumption)."""
    table, where = model_table(config)
    hand = [z3.Bool(f"hand{c}") for c in range(N_CARDS)]
    broken = z3.Bool("broken")
    other = z3.Or([hand[c] for c in range(N_CARDS) if suit(c) != HEARTS_SUIT])
    led_by_suit = [z3.Or([hand[c] for c in range(N_CARDS) if suit(c) == u]) for u in range(4)]
    cells: dict[Any, Z3] = {}

    def allowed(pos: Position, card: int) -> Z3:
        """The table's answer as a term of the hand's features (both values of "hearts broken")."""
        key = (pos.first, pos.forced, pos.led_suit, card)
        if key not in cells:
            led = z3.BoolVal(False) if pos.led_suit is None else led_by_suit[pos.led_suit]
            by_broken = []
            for b in (False, True):
                kind = Position(pos.first, b, pos.forced, pos.lead).kind
                by_broken.append(z3.Or([z3.And(_literal(hand[card], want[0]), _literal(led, want[1]),
                                                _literal(other, want[2]))
                                         for want in VECTORS if table.get((kind, card, want))]))
            cells[key] = z3.If(broken, by_broken[1], by_broken[0])
        return cells[key]

    solver = z3.Solver()
    solver.add(z3.PbLe([(h, 1) for h in hand], HAND_SIZE))
    for pos in positions():
        if pos.broken:
            continue  # "hearts broken" is the variable ``broken`` of each query
        mine = encoded_terms(rules, pos, hand, broken)
        differs = z3.Or([mine[card] != allowed(pos, card) for card in range(N_CARDS)])
        if budget.check(solver, differs, *[z3.Not(hand[c]) for c in pos.out]) == z3.sat:
            m = solver.model()
            found = frozenset(c for c in range(N_CARDS) if z3.is_true(m.eval(hand[c], model_completion=True)))
            at = Position(pos.first, z3.is_true(m.eval(broken, model_completion=True)), pos.forced, pos.lead)
            _legal_disagreement(rules, config, at, found, table, where)
    tested = _small_deck(rules, config, table)
    for pos, hand_cards in ((Position(True, False, forced=LOW_CLUBS[1]), (1, 9, 16, 26)),
                            (Position(False, False, lead=INDEX[Card.parse("QD")]), (3, 17, 26))):
        shown.append(Spot.of(pos, hand_cards).record(config, f"legal_moves, {pos.text()}, hand {_cards(hand_cards)}"))
    return {"positions": len(positions()), "feature_cells": len(table), "small_deck_hands": tested}


def _literal(term: Z3, value: bool) -> Z3:
    return term if value else z3.Not(term)


def _encoded_set(rules: Rules, pos: Position, hand: frozenset[int]) -> frozenset[int]:
    env = {f"hand{c}": c in hand for c in range(N_CARDS)}
    terms = encoded_terms(rules, pos, [z3.Bool(f"hand{c}") for c in range(N_CARDS)])
    return frozenset(c for c, t in enumerate(terms) if compile_term(t)(env))


def _legal_disagreement(rules: Rules, config: model.HeartsConfig, pos: Position, hand: frozenset[int],
                        table: Table, where: Mapping[Any, Spot]) -> None:
    """Raise :class:`Mismatch` at ``hand`` in ``pos`` or, failing that, at the model's
    representative hand of a table cell the encoding contradicts."""
    candidates = [Spot.of(pos, hand)]
    candidates += [where[key] for key in ((pos.kind, card, features(hand, card, pos.led_suit))
                                          for card in range(N_CARDS)) if key in where]
    for spot in candidates:
        mine, truth = _encoded_set(rules, spot.pos, spot.hand), spot.legal(config)
        if mine != truth:
            text = (f"{spot.pos.text()}, hand {_cards(spot.hand)}: the encoding allows {_cards(mine)}, "
                    f"the model {_cards(truth)}")
            raise Mismatch(text, spot.record(config, text))
    raise RuntimeError(f"{pos.text()}: the encoding contradicts the model's table, yet agrees with the model at the "
                       f"hands tried: a feature the table lacks")


def _cards(cards: Iterable[int]) -> str:
    return " ".join(CARDS[c].pretty for c in sorted(cards)) or "nothing"


# The small deck of the assumption test: two cards of each suit, with the 2 and 6 of clubs
# (forced first leads) and the queen of spades; the cards led there are none of the table's.
SMALL_DECK = tuple(INDEX[Card.parse(c)] for c in ("2C", "6C", "8D", "AD", "TH", "AH", "4S", "QS"))
SMALL_LEADS = tuple(INDEX[Card.parse(c)] for c in ("TC", "2D", "2H", "2S"))
SMALL_SPARE = tuple(INDEX[Card.parse(c)] for c in ("QC", "QD", "8S"))


def _small_deck(rules: Rules, config: model.HeartsConfig, table: Table) -> int:
    """Every hand of the small deck in every kind of position (other cards led, other dead cards,
    trick 8 for a later trick): the model must give its table's answer, the encoding's."""
    kinds = [p for p in positions() if p.lead is None] + [
        Position(first, broken, lead=lead) for broken in (False, True) for first in (False, True) for lead in SMALL_LEADS]
    tested = 0
    for pos in kinds:
        deck = [c for c in SMALL_DECK if c not in pos.out]
        for n in range(len(deck) + 1):
            for cards in itertools.combinations(deck, n):
                hand = frozenset(cards)
                spot = Spot.of(pos, hand, later=7, spare=SMALL_SPARE)
                truth = spot.legal(config)
                want = frozenset(c for c in hand if table[pos.kind, c, features(hand, c, pos.led_suit)])
                tested += 1
                if truth != want:
                    mine = _encoded_set(rules, pos, hand)
                    text = (f"{pos.text()}, hand {_cards(hand)}: the encoding allows {_cards(mine)}, the model "
                            f"{_cards(truth)} (its table: {_cards(want)})")
                    raise Mismatch(text, spot.record(config, text))
    return tested


# ---- the match decision: Z3 against the model's bands --------------------------------------------------
def _decision(outcome: model.Outcome | None) -> tuple[bool, bool, bool]:
    """(the match ends, seat 0 wins, seat 1 wins)."""
    return outcome is not None, outcome is not None and outcome.winner.index == 0, \
        outcome is not None and outcome.winner.index == 1


def compare_match(config: model.HeartsConfig, mutations: tuple[str, ...], window: int, budget: Budget,
                  shown: list[Record]) -> dict[str, int]:
    """Z3: for all non-negative integer scores, ``match_terms`` gives the model's decision for
    the band of the scores; the model gives one decision per band and the rulebook's label on
    every pair of the window x previous scores."""
    t = config.target
    low = max(0, t - window)
    grid = [(a, b) for a in range(low, t + window + 1) for b in range(low, t + window + 1)]

    def band(a: Any, b: Any) -> tuple[Any, Any, Any, Any]:
        return a >= t, b >= t, a < b, a == b

    bands: dict[tuple[bool, ...], tuple[int, int]] = {}
    for a, b in grid:
        bands.setdefault(band(a, b), (a, b))
    decided = {key: _decision(model.match_result(pair, config)) for key, pair in bands.items()}
    q0, q1 = z3.Ints("q0 q1")
    terms = match_terms(q0, q1, t, mutations)
    q_band = band(q0, q1)
    expected = [z3.Or([z3.And([x == v for x, v in zip(q_band, key)]) for key, d in decided.items() if d[i]])
                for i in range(3)]
    solver = z3.Solver()
    solver.add(q0 >= 0, q1 >= 0, z3.Or([term != want for term, want in zip(terms, expected)]))

    def args(a: int, b: int, before: list[int] | None) -> list[Any]:
        return [[a, b], config_to_json(config), before]

    if budget.check(solver) == z3.sat:
        m = solver.model()
        a, b = (m.eval(q, model_completion=True).as_long() for q in (q0, q1))
        mine = tuple(compile_term(term)({"q0": a, "q1": b}) for term in terms)
        at: tuple[int, int] = (a, b) if mine != _decision(model.match_result((a, b), config)) else bands[band(a, b)]
        text = f"at {at[0]}-{at[1]} the encoding decides (ends, P0 wins, P1 wins) = {mine}"
        raise Mismatch(text, function_record("hearts", "match_result", args(at[0], at[1], None), label=text))
    previous = [None, (t - 6, t - 6), (t, t), (t + 7, t + 7), (t - 20, t - 10)]
    for a, b in grid:
        for before in previous:
            outcome = model.match_result((a, b), config, previous=before)
            label = None if outcome is None else (outcome.termination.value, outcome.winner.index)
            want = label if before is None else rulebook_outcome((a, b), before, t)
            if _decision(outcome) != decided[band(a, b)] or label != want:
                text = (f"at {a}-{b} after {before}: the model says {label}, its band {decided[band(a, b)]}, "
                        f"the rulebook {want}")
                raise Mismatch(text, function_record("hearts", "match_result",
                                                         args(a, b, None if before is None else list(before)),
                                                         label=text))
    shown.append(function_record("hearts", "match_result", args(t + 9, t + 10, [t + 7, t + 7]),
                                 label="match_result: equal past the target, then unequal: the tie is broken"))
    return {"match_bands": len(bands), "match_pairs": len(grid) * len(previous)}
