"""HEARTS-P11: the derived terms of the Hearts rule functions, and the whole-hand encoding built from them,
equal the model's functions under the variant of the run: the derivation is faithful.

- **Scoring** (derived from ``score_hand``, :mod:`.score_terms`; HEARTS-SCORE-1, QUEEN-1, MOON-1/2): every way
  to give each of the 8 point cards to seat 0, seat 1 or the dead cards, at most 2 dead (3,072 splits), the
  compiled terms against the model's ``score_hand``, and the model against the rulebook's text
  (``rulebook_scores``, the second opinion).
- **Legal moves** (HEARTS-LEAD-1/2/3, FOLLOW-1, BREAK-1, FIRST-1): the terms that the other checks ask
  (HEARTS-P1), derived by running the model's ``play_problem`` on a symbolic position
  (:func:`.play_terms.legality`), are faithful: Z3 finds no position where the model raises, and on
  seeded positions (a lead or a follow, every hand size, only hearts in one in 16) the terms allow
  exactly the model's ``legal_moves``.
- **Whole hands** (:class:`~.encoding.HandEncoding`, the premise of HEARTS-P5 and P8): seeded hands
  the model plays are hands of the encoding with its scores, and hands it finds replay in the model
  (:mod:`.hand_bridge`).
- **The match decision** (derived from ``match_result``, HEARTS-MATCH-1/2, GOAL-1): Z3 over all pairs of
  non-negative scores against the model's ``match_result`` tabulated by band (each score below the target
  or not, and their order); the model itself is compared with its bands, and the derived terms with the
  label and the rulebook's text (``rulebook_outcome``, the second opinion) with the model, on every pair in
  a window around the target after every kind of previous scores.

Counterexamples are function records of ``score_hand``, ``legal_moves`` or ``match_result``, which the
runner replays.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import z3

from cardcanon.model import hearts as model
from cardcanon.model.cards import Card, Suit
from cardcanon.model.hearts_records import config_to_json
from cardcanon.model.hearts_text import decision_text
from cardcanon.model.seats import Seat
from cardcanon.model.shuffle import SplitMix64
from cardcanon.proofs.base import Budget, CheckResult, Run, Verdict
from cardcanon.proofs.hearts.encoding import (
    CARDS, DEAD_CARDS, HAND_SIZE, HEART_POINTS, HEARTS_SUIT, INDEX, MOON_OTHER, MOON_SHOOTER, N_CARDS, POINT_CARDS,
    QUEEN_OF_SPADES, QUEEN_POINTS, TRICKS as TRICKS_PER_HAND, Rules, pretty, suit,
)
from cardcanon.proofs.hearts.hand_bridge import compare_hands
from cardcanon.proofs.hearts.play_terms import (
    BROKEN, DEAD, HELD, MEMO, TRICKS, LegalCards, derivation_probe, legality,
)
from cardcanon.proofs.hearts.replay import Mismatch, rules_for
from cardcanon.proofs.hearts.match import decision, rulebook_outcome
from cardcanon.proofs.hearts.score_terms import TERMINATIONS, hand_scores, match_result_terms
from cardcanon.proofs.hearts.scores import SPARE_DEAD, score_hand_record
from cardcanon.proofs.records import Record, function_record, hearts_position
from cardcanon.proofs.z3_eval import compile_term, value_in


# Encoding probes: a broken encoding the check must catch.
PROBES: dict[str, dict[str, Any]] = {
    "no-heart-lead-exception": dict(),  # patches of the model while deriving: .play_terms
    "queen-12": dict(),  # patches of the model while deriving: .score_terms
    "higher-wins": dict(),
}


GONE = 2  # a point card's owner in a split: seat 0, seat 1, or dead


def check(run: Run) -> CheckResult:
    bounds, budget, config = run.bounds, run.budget, run.hearts_config()
    rules = rules_for(run, PROBES)
    shown: list[Record] = []
    try:
        stats = {"score_splits": compare_scoring(rules, config, shown)}
        stats.update(compare_match(rules, config, int(bounds.get("window", 30)), budget, shown))
        stats.update(compare_legal_moves(derivation_probe(run.probe_id, run.dropped, PROBES), config, budget, shown,
                                         int(bounds.get("positions", 2000))))
        stats.update(compare_hands(run, config, int(bounds.get("hands", 8))))
    except Mismatch as err:
        return err.result()
    detail = (f"scoring: {stats['score_splits']} splits of the point cards agree; legal moves: the model's "
              f"play_problem, run on a symbolic position ({stats['model_paths']} paths), raises on no hand of at most "
              f"{HAND_SIZE} cards, dead pair and trick number (Z3), and its derived terms agree with legal_moves on "
              f"{stats['positions']} seeded positions; whole hands: {stats['hands_played']} hands played by the model "
              f"are hands of the encoding, {stats['hands_found']} hands of the encoding replay in the model; "
              f"match decision: every pair of scores "
              f"(Z3) agrees with the model's {stats['match_bands']} bands, the model agrees with them and with the "
              f"rulebook's label on {stats['match_pairs']} pairs x previous scores")
    return CheckResult(Verdict.PROVED, detail=detail, witness="\n".join(r["label"] for r in shown),
                       stats={**stats, "seconds": budget.elapsed()}, records=tuple(shown))


# ---- scoring: exhaustive -------------------------------------------------------------------------------
def splits() -> Iterator[tuple[int, ...]]:
    """Each way to give the point cards (``POINT_CARDS`` order) to seat 0, seat 1 or the dead cards
    (``GONE``), at most two dead (HEARTS-DEAL-2)."""
    return (o for o in itertools.product((0, 1, GONE), repeat=len(POINT_CARDS)) if o.count(GONE) <= DEAD_CARDS)


def _piles(owners: Sequence[int]) -> tuple[list[frozenset[Card]], list[Card]]:
    """The cards each seat took and the dead pair of a split; spare cards fill the dead pair, the others
    go to the seats in turn."""
    dead = [c for c, o in zip(POINT_CARDS, owners) if o == GONE]
    dead += list(SPARE_DEAD[:DEAD_CARDS - len(dead)])
    owner = dict(zip(POINT_CARDS, owners))
    owner.update({c: i % 2 for i, c in enumerate(c for c in range(N_CARDS) if c not in owner and c not in dead)})
    return [frozenset(CARDS[c] for c, o in owner.items() if o == p) for p in (0, 1)], [CARDS[c] for c in dead]


def compare_scoring(rules: Rules, config: model.HeartsConfig, shown: list[Record]) -> int:
    """Every split: the terms derived from ``score_hand`` (compiled) against the model's ``score_hand``,
    and the model against the rulebook's text (``rulebook_scores``, the second opinion)."""
    compared, differs = _scoring_compared(rules)
    if differs is not None:
        text, piles, dead_pair = differs
        raise Mismatch(text, score_hand_record(piles, dead_pair, config, text))
    ordinary = tuple(0 if c == QUEEN_OF_SPADES else 1 if suit(c) == HEARTS_SUIT and c % 2 else GONE if c == 20 else 0
                     for c in POINT_CARDS)
    for owners, what in (((0,) * len(POINT_CARDS), "a moon"), (ordinary, "an ordinary split")):
        shown.append(score_hand_record(*_piles(owners), config, f"score_hand, {what}: {_split_text(owners)}"))
    return compared


Differs = tuple[str, list[frozenset[Card]], list[Card]]  # the words, the cards each seat took, the dead pair


@MEMO.function  # compared once for every variant agreeing on the options it reads
def _scoring_compared(rules: Rules) -> tuple[int, Differs | None]:
    """:func:`compare_scoring`'s comparison: the splits compared, and the first that differs (or None)."""
    config = rules.config
    taken = [{card: z3.Bool(f"taken{p}_{c}") for c, card in enumerate(CARDS)} for p in (0, 1)]
    dead = {card: z3.Bool(f"dead{c}") for c, card in enumerate(CARDS)}
    score0, score1 = (compile_term(s) for s in hand_scores(rules, taken, dead))
    compared = 0
    for compared, owners in enumerate(splits(), 1):
        piles, dead_pair = _piles(owners)
        env = {f"taken{p}_{c}": card in piles[p] for p in (0, 1) for c, card in enumerate(CARDS)}
        env |= {f"dead{c}": card in dead_pair for c, card in enumerate(CARDS)}
        mine, truth = (score0(env), score1(env)), tuple(model.score_hand(piles, dead_pair, config))
        book = rulebook_scores(owners, config)
        if truth != mine or truth != book:
            return compared, (f"scoring {_split_text(owners)}: the derived terms score {mine[0]}-{mine[1]}, the "
                              f"model {truth[0]}-{truth[1]}, the rulebook's text {book[0]}-{book[1]}", piles, dead_pair)
    return compared, None


def rulebook_scores(owners: Sequence[int], config: model.HeartsConfig) -> tuple[int, int]:
    """The second opinion, written from the rulebook's text: a split's scores by HEARTS-SCORE-1, QUEEN-1 and
    MOON-1/2 (``owners``: seat 0, seat 1 or ``GONE`` for each of ``POINT_CARDS``)."""
    worth = [QUEEN_POINTS if c == QUEEN_OF_SPADES else HEART_POINTS for c in POINT_CARDS]
    in_play = sum(w for w, o in zip(worth, owners) if o != GONE)
    for p in (0, 1):
        if all(o == p for o in owners if o != GONE):  # he took every point card in play
            other = in_play if config.moon_score is model.MoonScore.POINTS_IN_PLAY else MOON_OTHER
            return (MOON_SHOOTER, other) if p == 0 else (other, MOON_SHOOTER)
    score0, score1 = (sum(w for w, o in zip(worth, owners) if o == p) for p in (0, 1))
    return score0, score1


def _split_text(owners: Sequence[int]) -> str:
    return "; ".join(f"{who}: {' '.join(CARDS[c].pretty for c, o in zip(POINT_CARDS, owners) if o == p) or '-'}"
                     for p, who in ((0, str(Seat(0))), (1, str(Seat(1))), (GONE, "dead")))


# ---- legal moves: the terms derived from play_problem against the concrete model -------------------------
def positions(count: int) -> Iterator[tuple[list[Card], list[Card], Card | None, int, bool]]:
    """``count`` seeded positions of seat 0 (hand, dead pair, lead or None, tricks played, hearts broken):
    a hand of some suits (one in 16 only hearts), as many tricks played as cards gone; one in four at
    the first trick with a full hand."""
    rng = SplitMix64(0)
    for i in range(count):
        order = rng.shuffled(CARDS)
        dead, rest = list(order[:DEAD_CARDS]), order[DEAD_CARDS:]
        lead = rest[0] if rng.below(2) else None
        pool = rest[1:] if lead else rest
        if i % 4 == 0:
            hand = list(pool[:HAND_SIZE])
        else:
            suits = [u for u in Suit if rng.below(2)] or [Suit.HEARTS]
            hand = [c for c in pool if c.suit in suits][:1 + rng.below(HAND_SIZE)]
        tricks = HAND_SIZE - len(hand)
        yield hand, dead, lead, tricks, tricks > 0 and bool(rng.below(2))


def compare_legal_moves(probe: str | None, config: model.HeartsConfig, budget: Budget, shown: list[Record],
                        count: int) -> dict[str, int]:
    """Z3: the model's play_problem raises on no position (every hand of at most 13 cards, dead pair, trick
    number, hearts broken or not); then the derived legality against the model's legal_moves on ``count``
    seeded positions, a lead or a follow each."""
    terms = legality(config, probe)
    solver = z3.Solver()
    solver.add(z3.PbLe([(h, 1) for h in HELD], HAND_SIZE), z3.PbEq([(d, 1) for d in DEAD], DEAD_CARDS), TRICKS >= 0,
               TRICKS < TRICKS_PER_HAND, *[z3.Not(z3.And(h, d)) for h, d in zip(HELD, DEAD)])
    if budget.check(solver, terms.raised) == z3.sat:
        m = solver.model()
        held, gone = [c for c in range(N_CARDS) if value_in(m, HELD[c])], [c for c in range(N_CARDS) if value_in(m, DEAD[c])]
        text = f"the model's play_problem raises with hand {pretty(held)}, dead {pretty(gone)}"
        raise Mismatch(text, _position_record(config, held, gone, None, value_in(m, TRICKS), value_in(m, BROKEN), text))
    legal_cards = LegalCards(terms)
    for compared, (hand, dead, lead, tricks, broken) in enumerate(positions(count), 1):
        state = hearts_position(config, hand=hand, dead=dead, lead=lead, tricks_played=tricks, hearts_broken=broken)
        expected = frozenset(m.card for m in model.legal_moves(state))
        mine = legal_cards.at(state)
        if mine != expected:
            where = (f"{'a lead' if lead is None else 'a follow to ' + lead.pretty}, hand {pretty(INDEX[c] for c in hand)}, "
                     f"dead {pretty(INDEX[c] for c in dead)}, {tricks} tricks played, hearts "
                     f"{'broken' if broken else 'unbroken'}")
            terms_allow = "cards left open by a dropped rule" if mine is None else pretty(INDEX[c] for c in mine)
            text = f"{where}: the derived terms allow {terms_allow}, the model {pretty(INDEX[c] for c in expected)}"
            raise Mismatch(text, _position_record(config, [INDEX[c] for c in hand], [INDEX[c] for c in dead],
                                                  None if lead is None else INDEX[lead], tricks, broken, text))
        budget.tick()
    shown.append(_position_record(config, [1, 9, 16, 26], [0, 27], None, 0, False, "a first lead, 2♣ dead"))
    shown.append(_position_record(config, [3, 17, 26], [13, 27], INDEX[Card.parse("QD")], 5, False,
                                  "a follow to Q♦, void in diamonds"))
    return {"positions": count, "model_paths": terms.paths}


def _position_record(config: model.HeartsConfig, hand: Iterable[int], dead: Iterable[int], lead: int | None,
                     tricks: int, broken: bool, label: str) -> Record:
    args = {"hand": [str(CARDS[c]) for c in sorted(hand)], "dead": [str(CARDS[c]) for c in dead],
            "lead": None if lead is None else str(CARDS[lead]), "tricks_played": tricks, "hearts_broken": broken}
    return function_record("hearts", "legal_moves", [config_to_json(config), args], label=f"legal_moves, {label}")


# ---- the match decision: Z3 against the model's bands --------------------------------------------------
def _decision(outcome: model.Outcome | None) -> tuple[bool, bool, bool]:
    """(the match ends, seat 0 wins, seat 1 wins)."""
    return outcome is not None, outcome is not None and outcome.winner.index == 0, \
        outcome is not None and outcome.winner.index == 1


def _decision_text(decided: Sequence[bool]) -> str:  # :func:`_decision` in words
    return ", ".join(f"{what}: {'yes' if on else 'no'}"
                     for what, on in zip(("ends", f"{Seat(0)} wins", f"{Seat(1)} wins"), decided))


def compare_match(rules: Rules, config: model.HeartsConfig, window: int, budget: Budget,
                  shown: list[Record]) -> dict[str, int]:
    """Z3: for all non-negative integer scores, the terms derived from ``match_result`` give the model's
    decision for the band of the scores; the model gives one decision per band; on every pair of the
    window x previous scores the derived terms (with the label) give the model's outcome, and the model
    the rulebook's (``rulebook_outcome``, the second opinion)."""
    t = config.target
    low = max(0, t - window)
    grid = [(a, b) for a in range(low, t + window + 1) for b in range(low, t + window + 1)]

    def band(a: Any, b: Any) -> tuple[Any, Any, Any, Any]:
        return a >= t, b >= t, a < b, a == b

    bands: dict[tuple[bool, ...], tuple[int, int]] = {}
    for a, b in grid:
        bands.setdefault(band(a, b), (a, b))
    decided = {key: _decision(model.match_result(pair, config)) for key, pair in bands.items()}
    q0, q1, p0, p1 = z3.Ints("q0 q1 p0 p1")
    derived = match_result_terms(rules, (q0, q1), config=config)
    terms = (derived.ends, *derived.wins)
    q_band = band(q0, q1)
    expected = [z3.Or([z3.And([x == v for x, v in zip(q_band, key)]) for key, d in decided.items() if d[i]])
                for i in range(3)]
    solver = z3.Solver()
    solver.add(q0 >= 0, q1 >= 0, z3.Or([term != want for term, want in zip(terms, expected)]))

    def args(a: int, b: int, before: Sequence[int] | None) -> list[Any]:
        return [[a, b], config_to_json(config), None if before is None else list(before)]

    if budget.check(solver) == z3.sat:
        m = solver.model()
        a, b = (value_in(m, q) for q in (q0, q1))
        derived_there = tuple(compile_term(term)({"q0": a, "q1": b}) for term in terms)
        truth, like = _decision(model.match_result((a, b), config)), bands[band(a, b)]
        text = (f"at {a}-{b} the derived terms decide: {_decision_text(derived_there)}; the model: "
                f"{_decision_text(truth)}" if derived_there != truth else f"at {a}-{b} the model decides {_decision_text(truth)}, unlike at "
                                      f"{like[0]}-{like[1]}, a pair of the same band")
        raise Mismatch(text, function_record("hearts", "match_result", args(a, b, None), label=text))
    after = match_result_terms(rules, (q0, q1), (p0, p1), config=config)
    compiled = {None: [compile_term(x) for x in (derived.ends, derived.wins[0], derived.label)],
                "after": [compile_term(x) for x in (after.ends, after.wins[0], after.label)]}
    previous = [None, (t - 6, t - 6), (t, t), (t + 7, t + 7), (t - 20, t - 10)]
    for a, b in grid:
        for before in previous:
            outcome = model.match_result((a, b), config, previous=before)
            label = decision(outcome)
            env = {"q0": a, "q1": b} | ({} if before is None else {"p0": before[0], "p1": before[1]})
            ends, win0, index = (f(env) for f in compiled[None if before is None else "after"])
            mine: tuple[str, int] | None = None if not ends else (TERMINATIONS[index].value, 0 if win0 else 1)
            want = label if before is None else rulebook_outcome((a, b), before, t)
            if _decision(outcome) != decided[band(a, b)] or label != want or mine != label:
                text = (f"at {a}-{b} after {'nothing' if before is None else '-'.join(map(str, before))}: the model "
                        f"says {decision_text(label)}, its band {_decision_text(decided[band(a, b)])}, the derived "
                        f"terms {decision_text(mine)}, the rulebook {decision_text(want)}")
                raise Mismatch(text, function_record("hearts", "match_result", args(a, b, before), label=text))
    shown.append(function_record("hearts", "match_result", args(t + 9, t + 10, [t + 7, t + 7]),
                                 label="match_result: equal past the target, then unequal: the tie is broken"))
    return {"match_bands": len(bands), "match_pairs": len(grid) * len(previous)}
