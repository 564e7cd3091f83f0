"""HEARTS-P3: exactly one first leader for every pair of dead cards and every deal; the 6♣ case arises
exactly when 2♣ and 4♣ are dead; the card he must lead (HEARTS-LEAD-1/3) is the model's
``forced_first_lead`` for all 378 dead pairs (one Z3 query against the model's table); the model's
``first_leader`` agrees on all 378 dead pairs x every split of the live low clubs."""

from __future__ import annotations

import itertools
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import z3

from cardcanon.model import hearts as model
from cardcanon.model.hearts_types import HeartsConfig, SEATS
from cardcanon.proofs.base import CheckResult, Run, Verdict, Z3
from cardcanon.proofs.hearts.encoding import (
    CARDS, HAND_SIZE, HEARTS_SUIT, INDEX, LOW_CLUBS, N_CARDS, Rules, forced_club, suit,
)
from cardcanon.proofs.hearts.replay import Hands, counterexample, difference_record, replay_single, rules_for
from cardcanon.proofs.records import hearts_record
from cardcanon.proofs.z3_eval import compile_term, value_in


P3_PROBES: dict[str, dict[str, Any]] = {"no-six-clause": dict()}


def p3_states(config: HeartsConfig) -> tuple[str, ...]:
    """The rules P3's encoding states (no HEARTS-LEAD-3 under ``first_lead = free``)."""
    lowest = config.first_lead is model.FirstLead.LOWEST_CLUB
    return ("HEARTS-LEAD-1", "HEARTS-LEAD-2") + (("HEARTS-LEAD-3",) if lowest else ()) + ("HEARTS-DEAL-2",)


NOT_FORCED = -1  # the first leader may lead any card his other rules allow (``first_lead = free``)


def _leader_terms(dead: Sequence[Z3], hold: Sequence[Z3], rules: Rules) -> tuple[Z3, Z3, Z3, Z3]:
    """HEARTS-LEAD-1/2/3 as written: (seat 0 leads, seat 1 leads, the 6♣ clause fires, the
    card the first leader must lead or ``NOT_FORCED``)."""
    two, four, six = LOW_CLUBS
    drop = rules.drop
    six_clause = "no-six-clause" not in rules.mutations

    def holds(c: int, p: int) -> Z3:
        return z3.And(z3.Not(dead[c]), hold[c] == bool(p))

    def leads(p: int) -> Z3:
        clauses = [drop.term("HEARTS-LEAD-1", holds(two, p), f"two_leads{p}"),
                   drop.term("HEARTS-LEAD-2", z3.And(dead[two], holds(four, p)), f"four_leads{p}")]
        if six_clause:
            clauses.append(drop.term("HEARTS-LEAD-2", z3.And(dead[two], dead[four], holds(six, p)), f"six_leads{p}"))
        return z3.Or(clauses)

    six_case = z3.And(dead[two], dead[four], z3.Or(holds(six, 0), holds(six, 1)))
    six_case = drop.term("HEARTS-LEAD-2", six_case, "six_case") if six_clause else z3.BoolVal(False)
    club = drop.term("HEARTS-LEAD-3", z3.If(dead[four], six, four), "forced_club")
    if rules.config.first_lead is not model.FirstLead.LOWEST_CLUB:
        club = z3.IntVal(NOT_FORCED)
    forced = z3.If(dead[two], club, drop.term("HEARTS-LEAD-1", z3.IntVal(two), "forced_two"))
    return leads(0), leads(1), six_case, forced


def check(run: Run) -> CheckResult:
    rules, budget = rules_for(run, P3_PROBES, p3_states), run.budget
    dead = [z3.Bool(f"dead{c}") for c in range(N_CARDS)]
    hold = [z3.Bool(f"hold{c}") for c in range(N_CARDS)]
    lead0, lead1, six_case, forced = _leader_terms(dead, hold, rules)
    table = []  # the model's forced first lead, for every pair of dead cards
    for pair in itertools.combinations(range(N_CARDS), 2):
        card = model.forced_first_lead(tuple(CARDS[c] for c in pair), rules.config)
        value = NOT_FORCED if card is None else INDEX[card]
        table.append(z3.And(dead[pair[0]], dead[pair[1]], forced != value))
    s = z3.Solver()
    s.add(rules.drop.constraint("HEARTS-DEAL-2", z3.PbEq([(d, 1) for d in dead], 2)))
    for claim, name in ((lead0 != lead1, "exactly one leader"),
                        (six_case == z3.And(dead[LOW_CLUBS[0]], dead[LOW_CLUBS[1]]),
                         "6♣ case iff 2♣ and 4♣ dead"),
                        (z3.Not(z3.Or(table)), "the forced first lead is the model's")):
        answer = budget.check(s, z3.Not(claim))
        if answer == z3.sat:
            m = s.model()
            gone = tuple(c for c in range(N_CARDS) if value_in(m, dead[c]))
            return _dead_pair_result(run, rules, gone, value_in(m, forced),
                                     Verdict.COUNTEREXAMPLE, f"{name} fails with dead "
                                     f"{' '.join(CARDS[c].pretty for c in gone)}")
    compared, leads1 = 0, compile_term(lead1)
    for gone in itertools.combinations(range(N_CARDS), 2):
        live_low = [c for c in LOW_CLUBS if c not in gone]
        for split in itertools.product((0, 1), repeat=len(live_low)):
            seat_of = dict(zip(live_low, split))
            rest = [c for c in range(N_CARDS) if c not in gone and c not in seat_of]
            hands = [{c for c, p in seat_of.items() if p == seat} for seat in (0, 1)]
            for c in rest:
                hands[0 if len(hands[0]) < HAND_SIZE else 1].add(c)
            leader, _ = model.first_leader(tuple(frozenset(CARDS[c] for c in h) for h in hands),
                                           tuple(CARDS[c] for c in gone), rules.config)
            env = {f"dead{c}": c in gone for c in range(N_CARDS)} | {f"hold{c}": c in hands[1] for c in range(N_CARDS)}
            mine = leads1(env)
            compared += 1
            if int(mine) != leader.index:
                return _dead_pair_result(run, rules, gone, _forced_when(s, dead, forced, gone),
                                         Verdict.COUNTEREXAMPLE, f"dead {' '.join(CARDS[c].pretty for c in gone)}: model names {leader}")
    gone = (LOW_CLUBS[0], LOW_CLUBS[1])
    return _dead_pair_result(run, rules, gone, _forced_when(s, dead, forced, gone), Verdict.PROVED,
                             f"one leader in every deal; the forced first lead agrees with the model on all 378 "
                             f"dead pairs; {compared} deals agree with the model",
                             stats={"dead_pairs": len(table), "deals_compared": compared})


def _forced_when(s: Z3, dead: Sequence[Z3], forced: Z3, gone: Collection[int]) -> int:
    """The encoding's forced first lead (a card index or ``NOT_FORCED``) when ``gone`` are dead."""
    assert s.check(*[dead[c] == (c in gone) for c in range(N_CARDS)]) == z3.sat
    return int(value_in(s.model(), forced))


def _dead_pair_result(run: Run, rules: Rules, gone: Collection[int], encoded: int, verdict: Verdict, detail: str,
                      stats: Mapping[str, Any] | None = None) -> CheckResult:
    """Replay a deal with these dead cards, comparing the model's first leader and first leads with the
    encoding's: the holder of the lowest live low club leads ``encoded`` only, or (``NOT_FORCED``) that
    club and more."""
    if len(gone) != 2:
        return CheckResult(verdict, detail=detail + "; not a deal of the rulebook (HEARTS-DEAL-2)", stats=stats or {})
    hands = Hands(rules.written)
    w = hands.find(run.budget, *[hands.enc.dead[c] for c in gone])
    if w is None:
        return CheckResult(verdict, detail=detail + "; no legal hand with these dead cards", stats=stats or {})
    at = replay_single(run, w, rules.config, stop_after=0)
    state = at.state
    club = forced_club(set(w.dead))
    holder = 0 if club in w.hands()[0] else 1
    assert state.to_move is not None  # the first lead waits for its leader
    legal = [m.card for m in model.legal_moves(state)]
    free = encoded == NOT_FORCED
    ok = state.to_move.index == holder and (CARDS[club] in legal and len(legal) > 1 if free
                                            else legal == [CARDS[encoded]])
    if not ok:
        text = (f"the model names {state.to_move} to lead and allows {' '.join(c.pretty for c in legal)}; the "
                f"encoding makes the holder of {CARDS[club].pretty} ({SEATS[holder]}) lead "
                f"{'it or another card' if free else CARDS[encoded].pretty}")
        if state.to_move.index != holder:
            record = hearts_record(state.config, at.moves, state, label=text,
                                   rejects=model.Play(SEATS[holder], CARDS[club]))
        elif not free:
            record = difference_record(at, [CARDS[encoded]], text)
        else:  # the model forces a card the encoding leaves free: it refuses another held card
            other = next(c for c in sorted(w.hands()[holder]) if c != club and suit(c) != HEARTS_SUIT)
            record = hearts_record(state.config, at.moves, state, label=text,
                                   rejects=model.Play(SEATS[holder], CARDS[other]))
        return counterexample(record)
    replay_single(run, w, rules.config)
    must = f"lead any of {len(legal)} cards" if free else "lead it"
    return CheckResult(verdict, detail=f"{detail}; replayed: the model makes the holder of {CARDS[club].pretty} "
                                       f"({SEATS[holder]}) {must}", witness=w.describe(),
                       stats=stats or {})
