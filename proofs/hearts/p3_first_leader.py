"""HEARTS-P3: in every deal there is a first leader: the holder of the lowest live club (so the 6♣ leads
exactly when the 2♣ and 4♣ are dead), and the card he must lead is that club, or under
``first_lead = free`` only the 2♣ (HEARTS-LEAD-1/2/3).

Z3 asks these claims, over every pair of dead cards and every deal of the rest, of the terms of the
model's own ``first_lead_club``, ``forced_first_lead`` and ``first_leader``, derived by running them on
symbolic dead cards and hands (:func:`.play_terms.first_lead`); the terms then give the model's answer
on all 378 dead pairs x every split of the live low clubs (evaluated, compared with the concrete model).
The claims are the rulebook's text over the model's cards, the second opinion on the model."""

from __future__ import annotations

import itertools
from collections.abc import Collection, Mapping
from typing import Any

import z3

from cardcanon.model import hearts as model
from cardcanon.model.cards import Suit
from cardcanon.model.hearts_types import DECK, HAND_SIZE, SEATS, HeartsConfig
from cardcanon.proofs.base import CheckResult, Run, Verdict, Z3
from cardcanon.proofs.drops import Drop
from cardcanon.proofs.hearts.encoding import Rules
from cardcanon.proofs.hearts.play_terms import (
    DEAD, HELD, INDEX, NOT_FORCED, OTHER, FirstLead, derivation_probe, first_lead,
)
from cardcanon.proofs.hearts.replay import counterexample, difference_record, hands_of, replay_single
from cardcanon.proofs.records import hearts_record
from cardcanon.proofs.z3_eval import compile_terms, value_in

P3_PROBES = ("no-six-clause",)
N = len(DECK)
CLUBS = [INDEX[c] for c in DECK if c.suit is Suit.CLUBS]  # in rank order
LOW_CLUBS = [INDEX[c] for c in model.FIRST_LEAD_CLUBS]


def p3_states(config: HeartsConfig) -> tuple[str, ...]:
    """The rules P3 can drop (no HEARTS-LEAD-3 under ``first_lead = free``)."""
    lowest = config.first_lead is model.FirstLead.LOWEST_CLUB
    return ("HEARTS-LEAD-1", "HEARTS-LEAD-2") + (("HEARTS-LEAD-3",) if lowest else ()) + ("HEARTS-DEAL-2",)


def deals(drop: Drop) -> list[Z3]:
    """HEARTS-DEAL-2: two dead cards, each other card held by one player."""
    return [drop.constraint("HEARTS-DEAL-2", z3.PbEq([(d, 1) for d in DEAD], 2))] + [
        drop.constraint("HEARTS-DEAL-2", z3.If(DEAD[c], z3.Not(z3.Or(HELD[c], OTHER[c])), z3.Xor(HELD[c], OTHER[c])))
        for c in range(N)]


def claims(terms: FirstLead, config: HeartsConfig) -> list[tuple[str, Z3]]:
    """HEARTS-LEAD-1/2/3 as the rulebook says them, over the derived terms."""
    lowest: Z3 = z3.IntVal(NOT_FORCED)
    for club in reversed(CLUBS):
        lowest = z3.If(z3.Not(DEAD[club]), club, lowest)
    club = terms.club

    def holds(seat: Z3) -> Z3:
        return z3.Or([z3.And(club == c, HELD[c] if seat == 0 else OTHER[c]) for c in range(N)])

    two = LOW_CLUBS[0]
    must = club if config.first_lead is model.FirstLead.LOWEST_CLUB else z3.If(club == two, two, NOT_FORCED)
    return [("a first leader in every deal", z3.Not(terms.raised)),
            ("the first lead club is the lowest live club (HEARTS-LEAD-1/2)", club == lowest),
            ("the first leader holds it", z3.Or(z3.And(terms.leader == 0, holds(0)), z3.And(terms.leader == 1, holds(1)))),
            ("he must lead it" + ("" if config.first_lead is model.FirstLead.LOWEST_CLUB else ", if it is the 2♣")
             + " (HEARTS-LEAD-1/3)", terms.forced == must)]


def check(run: Run) -> CheckResult:
    config, budget = run.hearts_config(), run.budget
    drop = Drop.of(run.probe_id, p3_states(config)) if run.dropped else Drop()
    terms = first_lead(config, derivation_probe(run.probe_id, run.dropped, P3_PROBES))
    s = z3.Solver()
    s.add(deals(drop))
    for name, claim in claims(terms, config):
        if budget.check(s, z3.Not(claim)) == z3.sat:
            gone = tuple(c for c in range(N) if value_in(s.model(), DEAD[c]))
            return _dead_pair_result(run, gone, Verdict.COUNTEREXAMPLE,
                                     f"not {name}: with dead {' '.join(DECK[c].pretty for c in gone)}")
    compared, pairs = 0, 0
    values = compile_terms([terms.forced, terms.leader])
    for gone in itertools.combinations(range(N), 2):
        pairs += 1
        live_low = [c for c in LOW_CLUBS if c not in gone]
        for split in itertools.product((0, 1), repeat=len(live_low)):
            seat_of = dict(zip(live_low, split))
            hands: list[set[int]] = [{c for c, p in seat_of.items() if p == seat} for seat in (0, 1)]
            for c in range(N):
                if c not in gone and c not in seat_of:
                    hands[0 if len(hands[0]) < HAND_SIZE else 1].add(c)
            leader, forced = model.first_leader(tuple(frozenset(DECK[c] for c in h) for h in hands),
                                                tuple(DECK[c] for c in gone), config)
            env = ({f"dead{c}": c in gone for c in range(N)} | {f"held{c}": c in hands[0] for c in range(N)}
                   | {f"other{c}": c in hands[1] for c in range(N)})
            compared += 1
            try:
                mine = values(env)
            except KeyError:  # a dropped rule left the term a free symbol: no value of its own
                mine = None
            if mine != (NOT_FORCED if forced is None else INDEX[forced], leader.index):
                return _dead_pair_result(run, gone, Verdict.COUNTEREXAMPLE, f"dead {' '.join(DECK[c].pretty for c in gone)}: "
                                         f"the derived terms are not the model's first_leader ({leader})")
    return _dead_pair_result(run, (LOW_CLUBS[0], LOW_CLUBS[1]), Verdict.PROVED,
                             f"a first leader in every deal, as HEARTS-LEAD-1/2/3 say (Z3 over the terms of the model's "
                             f"first_leader, {terms.paths} paths); the terms agree with the model on all {pairs} dead "
                             f"pairs, {compared} deals", stats={"dead_pairs": pairs, "deals_compared": compared})


def _dead_pair_result(run: Run, gone: Collection[int], verdict: Verdict, detail: str,
                      stats: Mapping[str, Any] | None = None) -> CheckResult:
    """A deal with these dead cards replayed to its first lead, the model's leader and legal first
    leads compared with the claims': the holder of the lowest live club leads it (or, not forced,
    it and more); where they differ, the record shows the model's side."""
    stats = stats or {}
    config = run.hearts_config()
    if len(gone) != 2:
        return CheckResult(verdict, detail=detail + "; not a deal of the rulebook (HEARTS-DEAL-2)", stats=stats)
    hands = hands_of(Rules(config=config))
    w = hands.find(run.budget, *[hands.enc.dead[c] for c in gone])
    if w is None:
        return CheckResult(verdict, detail=detail + "; no legal hand with these dead cards", stats=stats)
    at = replay_single(run, w, config, stop_after=0)
    state = at.state
    club = next(c for c in CLUBS if c not in gone)
    holder = 0 if club in w.hands()[0] else 1
    free = config.first_lead is not model.FirstLead.LOWEST_CLUB and club != LOW_CLUBS[0]
    assert state.to_move is not None  # the first lead waits for its leader
    legal = [m.card for m in model.legal_moves(state)]
    if state.to_move.index != holder or not (DECK[club] in legal and len(legal) > 1 if free else legal == [DECK[club]]):
        text = (f"{detail}; the model names {state.to_move} to lead and allows {' '.join(c.pretty for c in legal)}; "
                f"the holder of {DECK[club].pretty} ({SEATS[holder]}) should lead {'it or another card' if free else 'it'}")
        if state.to_move.index != holder:
            record = hearts_record(config, at.moves, state, label=text, rejects=model.Play(SEATS[holder], DECK[club]))
        elif not free:
            record = difference_record(at, [DECK[club]], text)
        else:  # the model forces a card the rulebook leaves free: it refuses another held card
            other = next(c for c in sorted(w.hands()[holder]) if c != club and DECK[c].suit is not Suit.HEARTS)
            record = hearts_record(config, at.moves, state, label=text, rejects=model.Play(SEATS[holder], DECK[other]))
        return counterexample(record)
    shown = f"{detail}; replayed: the model makes the holder of {DECK[club].pretty} ({SEATS[holder]}) lead " \
            f"{f'any of {len(legal)} cards' if free else 'it'}"
    if verdict is Verdict.PROVED:
        replay_single(run, w, config)
    return CheckResult(verdict, detail=shown, witness=w.describe(), stats=stats)
