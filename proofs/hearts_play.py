"""HEARTS-P1 (a legal move always exists; 13 tricks), P2 (trick winner), P3 (first leader)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

import functools
import itertools
from dataclasses import replace

import z3

from cardcanon.model import hearts as model
from cardcanon.model.cards import Card
from cardcanon.model.hearts_types import SEATS, HeartsConfig
from cardcanon.proofs.base import Z3, Budget, CheckResult, Run, Verdict
from cardcanon.proofs.hearts_encoding import (
    CARDS, HAND_SIZE, INDEX, LOW_CLUBS, N_CARDS, TRICK_STATES, TRICKS, HandEncoding, HandWitness, Rules,
    beats, legal_states, suit, z3_legal_follow, z3_legal_lead, z3_trick_winner,
)
from cardcanon.proofs.z3_eval import Compiled, compile_term
from cardcanon.proofs.hearts_replay import (
    ReplayMismatch, difference_record, hand_encoding, positions, replay_single, rules_for, sat,
)
from cardcanon.proofs.records import hearts_record


def forced_club(dead: Collection[int]) -> int:
    """HEARTS-LEAD-2: the lowest live club of 2, 4, 6 (card index)."""
    return next(c for c in LOW_CLUBS if c not in dead)


def encoded_legal_cards(state: model.HeartsState, rules: Rules | None = None) -> frozenset[Card]:
    """The cards the Z3 legal-move predicates allow in a concrete model state (by default under
    the state's own variant, as written)."""
    rules = rules or Rules(config=state.config)
    assert state.to_move is not None  # a position with plays to compare has a player to move
    seat = state.to_move.index
    first = state.tricks_played == 0
    if state.trick:
        table = _legal_table(rules, "follow", suit(INDEX[state.trick[0].card]), first)
    else:
        table = _legal_table(rules, "lead", forced_club({INDEX[c] for c in state.dead}) if first else None, first)
    env = {f"hand{c}": CARDS[c] in state.hands[seat] for c in range(N_CARDS)} | {"broken": state.hearts_broken}
    return frozenset(CARDS[c] for c, allowed in enumerate(table) if allowed(env))


@functools.lru_cache(maxsize=64)
def _legal_table(rules: Rules, kind: str, detail: int | None, first: bool) -> tuple[Compiled, ...]:
    """The legal-move predicate of each card, compiled (see :func:`compile_term`), for one
    kind of position: a lead (``detail`` = the forced club) or a follow (``detail`` = suit led)."""
    hand = [z3.Bool(f"hand{c}") for c in range(N_CARDS)]
    broken = z3.Bool("broken")
    if kind == "follow":
        assert detail is not None  # a follow names the suit led
        terms = [z3_legal_follow(hand, c, 7 * detail, first_trick=z3.BoolVal(first), rules=rules)
                 for c in range(N_CARDS)]
    else:
        terms = [z3_legal_lead(hand, c, broken=broken, first_trick=first, forced=detail, rules=rules)
                 for c in range(N_CARDS)]
    return tuple(compile_term(t) for t in terms)


def _count(bits: Sequence[Z3]) -> Z3:
    return z3.Sum([z3.If(b, 1, 0) for b in bits])


def p1_states(config: HeartsConfig) -> tuple[str, ...]:
    """The rules P1's encoding states: the legal-move predicates and the positions' HEARTS-DEAL-2."""
    return legal_states(config) + ("HEARTS-DEAL-2",)


@functools.lru_cache(maxsize=8)  # pure Z3 terms: the same for every run under the same rules
def _position_queries(rules: Rules) -> tuple[list[tuple[str, list[Z3]]], list[Z3], Z3]:
    """(name, constraints) for every kind of position; each must have a legal move (UNSAT).

    The positions are described by HEARTS-DEAL-2 (two dead cards, 13 cards to each player,
    one card played per turn, so the hands shrink together) and the legal-move predicates."""
    me = [z3.Bool(f"me{c}") for c in range(N_CARDS)]
    opp = [z3.Bool(f"opp{c}") for c in range(N_CARDS)]
    dead = [z3.Bool(f"dead{c}") for c in range(N_CARDS)]
    broken, n = z3.Bool("broken"), z3.Int("n")

    def deal(*facts: Z3) -> list[Z3]:  # HEARTS-DEAL-2
        return [rules.drop.constraint("HEARTS-DEAL-2", fact) for fact in facts]

    base = [z3.AtMost(me[c], opp[c], dead[c], 1) for c in range(N_CARDS)] + deal(z3.PbEq([(d, 1) for d in dead], 2))

    def forced_by(f: int) -> list[Z3]:  # HEARTS-LEAD-2: f is the lowest live low club
        return [z3.Not(dead[f])] + [dead[c] for c in LOW_CLUBS if c < f]

    out: list[tuple[str, list[Z3]]] = []
    # a later lead: both hands hold n cards, hearts broken or not (an over-approximation)
    later_lead = [z3.Not(z3_legal_lead(me, c, broken=broken, first_trick=False, forced=None, rules=rules))
                  for c in range(N_CARDS)]
    count_me, count_opp = _count(me), _count(opp)
    out.append(("lead to a later trick", base + [n >= 1, n <= TRICKS - 1] + deal(count_me == n, count_opp == n)
                + later_lead))
    for f in LOW_CLUBS:  # the first lead: the holder of the forced club leads
        full = [z3.Or(me[c], opp[c], dead[c]) for c in range(N_CARDS)]
        no_move = [z3.Not(z3_legal_lead(me, c, broken=z3.BoolVal(False), first_trick=True, forced=f, rules=rules))
                   for c in range(N_CARDS)]
        out.append((f"first lead, forced {CARDS[f].pretty}",
                    base + forced_by(f) + deal(*full, count_me == HAND_SIZE, count_opp == HAND_SIZE) + [me[f]]
                    + no_move))
    no_follow: dict[tuple[int, bool], list[Z3]] = {}  # the follow predicates depend on the lead only through its suit
    for u in range(4):
        for first in (False, True):
            no_follow[u, first] = [z3.Not(z3_legal_follow(me, c, 7 * u, first_trick=z3.BoolVal(first), rules=rules))
                                   for c in range(N_CARDS)]
    for lead in range(N_CARDS):  # a later follow: the leader has played one card more
        gone = [z3.Not(me[lead]), z3.Not(opp[lead]), z3.Not(dead[lead])]
        out.append((f"follow to {CARDS[lead].pretty}, trick 2-13", base + gone + [n >= 1, n <= TRICKS - 1]
                    + deal(count_me == n, count_opp == n - 1) + no_follow[suit(lead), False]))
        for f in LOW_CLUBS:  # the first follow: the lead was a legal first lead
            leader = [z3.Or(opp[c], z3.BoolVal(c == lead)) for c in range(N_CARDS)]
            full = [z3.Or(me[c], opp[c], dead[c]) for c in range(N_CARDS) if c != lead]
            lead_ok = z3_legal_lead(leader, lead, broken=z3.BoolVal(False), first_trick=True, forced=f, rules=rules)
            out.append((f"first follow to {CARDS[lead].pretty}, forced {CARDS[f].pretty}",
                        base + gone + forced_by(f) + deal(*full, count_me == HAND_SIZE) + [leader[f], lead_ok]
                        + no_follow[suit(lead), True]))
    # every legal card is in the mover's hand: each move removes one card from his hand
    stray = [z3.And(z3_legal_lead(me, c, broken=broken, first_trick=False, forced=None, rules=rules), z3.Not(me[c]))
             for c in range(N_CARDS)]
    stray += [z3.And(z3_legal_follow(me, c, 7 * u, first_trick=z3.Bool("first"), rules=rules), z3.Not(me[c]))
              for c in range(N_CARDS) for u in range(4)]
    out.append(("a legal card outside the hand", base + [z3.Or(stray)]))
    return out, me, broken


def _reachable_stuck_leader(rules: Rules, budget: Budget) -> tuple[HandWitness, int] | None:
    """A hand played by the rules as written reaching a lead at which ``rules`` allow no card."""
    enc = hand_encoding(rules.written)
    s = z3.Solver()
    s.add(enc.constraints)
    options = []
    for k in range(1, TRICKS):
        rem = [z3.And(enc.hold[c] == enc.lead1[k], z3.Or(enc.played[c][k], enc.after[c][k])) for c in range(N_CARDS)]
        options.append(z3.And([z3.Not(z3_legal_lead(rem, c, broken=enc.broken_before[k], first_trick=False,
                                                     forced=None, rules=rules)) for c in range(N_CARDS)]))
    s.add(z3.Or(options))
    if not sat(budget.check(s)):
        return None
    witness = enc.decode(s.model())
    for k in range(1, TRICKS):
        if z3.is_true(s.model().eval(options[k - 1], model_completion=True)):
            return witness, k
    raise AssertionError("no option holds in the model")  # pragma: no cover


def check_legal_move_exists(run: Run) -> CheckResult:
    """HEARTS-P1: in every reachable position the player to move has a legal move, and each
    move removes one card from his hand, so a hand ends after exactly 13 tricks."""
    rules, budget = rules_for(run, P1_PROBES, p1_states), run.budget
    queries, me, broken = _position_queries(rules)
    solver = z3.Solver()
    for name, constraints in queries:
        solver.push()
        solver.add(constraints)
        answer = budget.check(solver)
        if answer == z3.sat:
            m = solver.model()
            hand = " ".join(CARDS[c].pretty for c in range(N_CARDS) if z3.is_true(m.eval(me[c], model_completion=True)))
            detail = f"{name}: no legal move with hand {hand} (hearts broken: {m.eval(broken, model_completion=True)})"
            return _stuck_counterexample(run, rules, detail)
        solver.pop()
    try:
        witness, note = _witness_with_legal_sets(run, rules)
    except LegalSetMismatch as err:
        return CheckResult(Verdict.COUNTEREXAMPLE, detail=str(err.args[0]), witness=str(err.args[0]),
                           records=(err.args[1],))
    return CheckResult(Verdict.PROVED, detail=f"{len(queries)} position kinds have a legal move; {note}",
                       witness=witness, stats={"position_kinds": len(queries),
                                                                          "seconds": budget.elapsed()})


def _stuck_counterexample(run: Run, rules: Rules, detail: str) -> CheckResult:
    found = _reachable_stuck_leader(rules, run.budget)
    if found is None:
        return CheckResult(Verdict.COUNTEREXAMPLE, detail=detail + "; no reachable instance found")
    witness, k = found
    state = replay_single(run, witness, rules.config, stop_after=2 * k).state
    legal = model.legal_moves(state)
    return CheckResult(Verdict.COUNTEREXAMPLE, witness=witness.describe(),
                       detail=f"{detail}; reachable at trick {k + 1} of the hand shown, where the model allows "
                              f"{' '.join(m.card.pretty for m in legal)}")


def _witness_with_legal_sets(run: Run, rules: Rules) -> tuple[str | None, str]:
    """Two full hands of the check's encoding replayed through the model, comparing the legal
    sets at all 26 plays of each. The hands are chosen so that every restriction acts in them:
    in one the 2 of clubs is live (HEARTS-LEAD-1), in the other it is dead (the 4 or 6 is led,
    HEARTS-LEAD-2/3), and in both a later leader holds hearts and other cards before hearts are
    broken (HEARTS-BREAK-1)."""
    enc = hand_encoding(rules)
    s = z3.Solver()
    s.add(enc.constraints)
    hearts = [c for c in range(N_CARDS) if suit(c) == 2]
    others = [c for c in range(N_CARDS) if suit(c) != 2]
    restricted = []
    for k in range(1, TRICKS):
        rem = [z3.And(enc.hold[c] == enc.lead1[k], z3.Or(enc.played[c][k], enc.after[c][k])) for c in range(N_CARDS)]
        restricted.append(z3.And(z3.Not(enc.broken_before[k]), z3.Or([rem[c] for c in hearts]),
                                 z3.Or([rem[c] for c in others])))
    s.add(z3.Or(restricted))
    shown = []
    for two_dead in (False, True):
        if not sat(run.budget.check(s, enc.dead[LOW_CLUBS[0]] == two_dead)):
            return None, "no witness hand found"
        witness = enc.decode(s.model())
        for i, (at, move) in enumerate(positions(run, witness, rules.config)):
            expected = frozenset(m.card for m in model.legal_moves(at.state))
            mine = encoded_legal_cards(at.state, rules)
            if not expected or mine != expected or move.card not in expected:
                text = f"play {i + 1}: the model allows {sorted(expected)}, the encoding {sorted(mine)}"
                raise LegalSetMismatch(text, difference_record(at, mine, text))
        final = replay_single(run, witness, rules.config).state
        if final.tricks_played != TRICKS or any(final.hands):
            raise ReplayMismatch("the replayed hand did not end after 13 tricks with empty hands")
        shown.append(witness.describe())
    return "\n".join(shown), "two witness hands replayed: legal sets agree at all 26 plays of each, 13 tricks"


class LegalSetMismatch(Exception):
    """The model's legal plays differ from the encoding's: (text, record)."""


P1_PROBES = {"no-heart-lead-exception": dict(heart_lead_exception=False)}


# ---- HEARTS-P2 ---------------------------------------------------------------------------

P2_PROBES = {"higher-rank-any-suit": dict(), "hearts-not-trump": dict(hearts_trump=False)}


def check_trick_winner(run: Run) -> CheckResult:
    """HEARTS-P2: every trick of two distinct cards has exactly one winner (Z3 over all
    28 x 27 pairs), and it is the model's ``trick_winner`` for each pair."""
    rules, budget = rules_for(run, P2_PROBES, lambda config: TRICK_STATES), run.budget
    lead, follow = z3.Ints("lead follow")
    w0, w1 = z3_trick_winner(lead, follow, rules=rules)
    s = z3.Solver()
    s.add(0 <= lead, lead < N_CARDS, 0 <= follow, follow < N_CARDS, lead != follow, w0 == w1)
    answer = budget.check(s)
    if answer == z3.sat:
        a, b = s.model()[lead].as_long(), s.model()[follow].as_long()
        what = "no winner" if not z3.is_true(s.model().eval(w0, model_completion=True)) else "two winners"
        return _pair_counterexample(run, rules, a, b, what)
    compared, winner = 0, compile_term(w1)
    for a, b in itertools.permutations(range(N_CARDS), 2):
        mine = winner({"lead": a, "follow": b})
        compared += 1
        if int(mine) != model.trick_winner(CARDS[a], CARDS[b]):
            return _pair_counterexample(run, rules, a, b, f"the encoding gives the trick to the "
                                        f"{'follower' if mine else 'leader'}")
    witness = _trump_witness(run, rules)
    return CheckResult(Verdict.PROVED,
                       detail=f"exactly one winner for all pairs; {compared} pairs agree with the model",
                       witness=witness, stats={"pairs": compared})


def _hand_with(rules: Rules, constraint_of: Callable[[HandEncoding], Z3], budget: Budget) -> HandWitness | None:
    """A hand played by the rules as written (under the run's variant) meeting a constraint."""
    enc = hand_encoding(rules.written)
    s = z3.Solver()
    s.add(enc.constraints)
    s.add(constraint_of(enc))
    return enc.decode(s.model()) if sat(budget.check(s)) else None


def _pair_counterexample(run: Run, rules: Rules, a: int, b: int, what: str) -> CheckResult:
    w = _hand_with(rules, lambda e: z3.Or([z3.And(e.pos[a][k][0], e.pos[b][k][1]) for k in range(TRICKS)]), run.budget)
    truth = model.trick_winner(CARDS[a], CARDS[b])
    detail = f"{CARDS[a].pretty} led, {CARDS[b].pretty} followed: {what}; the model gives it to the " \
             f"{'follower' if truth else 'leader'}"
    if w is None:
        return CheckResult(Verdict.COUNTEREXAMPLE, detail=detail + " (no legal hand contains this trick)")
    replay_single(run, w, rules.config)  # the model accepts the hand, trick winners included
    return CheckResult(Verdict.COUNTEREXAMPLE, detail=detail, witness=w.describe())


def _trump_witness(run: Run, rules: Rules) -> str | None:
    """A legal hand in which a heart discarded on another suit wins (HEARTS-TRUMP-1)."""
    hearts = [c for c in range(N_CARDS) if suit(c) == 2]
    others = [c for c in range(N_CARDS) if suit(c) != 2]
    w = _hand_with(rules, lambda e: z3.Or([z3.And(z3.Or([e.pos[c][k][0] for c in others]),
                                                  z3.Or([e.pos[h][k][1] for h in hearts])) for k in range(TRICKS)]),
                   run.budget)
    if w is None:
        return None
    replay_single(run, w, rules.config)
    assert any(beats(b, a) and suit(b) == 2 != suit(a) for _, a, b in w.tricks)
    return w.describe()


# ---- HEARTS-P3 ---------------------------------------------------------------------------

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

    def holds(c: int, p: int) -> Z3:
        return z3.And(z3.Not(dead[c]), hold[c] == bool(p))

    def leads(p: int) -> Z3:
        clauses = [drop.term("HEARTS-LEAD-1", holds(two, p), f"two_leads{p}"),
                   drop.term("HEARTS-LEAD-2", z3.And(dead[two], holds(four, p)), f"four_leads{p}")]
        if "no-six-clause" not in rules.mutations:
            clauses.append(drop.term("HEARTS-LEAD-2", z3.And(dead[two], dead[four], holds(six, p)), f"six_leads{p}"))
        return z3.Or(clauses)

    six_case = z3.And(dead[two], dead[four], z3.Or(holds(six, 0), holds(six, 1)))
    if "no-six-clause" not in rules.mutations:
        six_case = drop.term("HEARTS-LEAD-2", six_case, "six_case")
    else:
        six_case = z3.BoolVal(False)
    club = drop.term("HEARTS-LEAD-3", z3.If(dead[four], six, four), "forced_club")
    if rules.config.first_lead is not model.FirstLead.LOWEST_CLUB:
        club = z3.IntVal(NOT_FORCED)
    forced = z3.If(dead[two], club, drop.term("HEARTS-LEAD-1", z3.IntVal(two), "forced_two"))
    return leads(0), leads(1), six_case, forced


def check_first_leader(run: Run) -> CheckResult:
    """HEARTS-P3: exactly one first leader for every pair of dead cards and every deal; the
    6♣ case arises exactly when 2♣ and 4♣ are dead; the card he must lead (HEARTS-LEAD-1/3)
    is the model's ``forced_first_lead`` for all 378 dead pairs (one Z3 query against the
    model's table); the model's ``first_leader`` agrees on all 378 dead pairs x every split of
    the live low clubs."""
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
            gone = tuple(c for c in range(N_CARDS) if z3.is_true(m.eval(dead[c], model_completion=True)))
            return _dead_pair_result(run, rules, gone, m.eval(forced, model_completion=True).as_long(),
                                     Verdict.COUNTEREXAMPLE, f"{name} fails with dead "
                                     f"{' '.join(CARDS[c].pretty for c in gone)}")
    compared, leads1 = 0, compile_term(lead1)
    for gone in itertools.combinations(range(N_CARDS), 2):
        live_low = [c for c in LOW_CLUBS if c not in gone]
        for split in itertools.product((0, 1), repeat=len(live_low)):
            seat_of = dict(zip(live_low, split))
            rest = [c for c in range(N_CARDS) if c not in gone and c not in seat_of]
            hands: list[set[int]] = [{c for c, p in seat_of.items() if p == 0}, {c for c, p in seat_of.items() if p == 1}]
            for c in rest:
                hands[0 if len(hands[0]) < HAND_SIZE else 1].add(c)
            leader, _ = model.first_leader(tuple(frozenset(CARDS[c] for c in h) for h in hands),
                                           tuple(CARDS[c] for c in gone), rules.config)
            env = {f"dead{c}": c in gone for c in range(N_CARDS)} | {f"hold{c}": c in hands[1] for c in range(N_CARDS)}
            mine = leads1(env)
            compared += 1
            if int(mine) != leader.index:
                return _dead_pair_result(run, rules, gone, _forced_when(s, dead, forced, gone),
                                         Verdict.COUNTEREXAMPLE, f"dead {gone}: model names {leader}")
    gone = (LOW_CLUBS[0], LOW_CLUBS[1])
    return _dead_pair_result(run, rules, gone, _forced_when(s, dead, forced, gone), Verdict.PROVED,
                             f"one leader in every deal; the forced first lead agrees with the model on all 378 "
                             f"dead pairs; {compared} deals agree with the model",
                             stats={"dead_pairs": len(table), "deals_compared": compared})


def _forced_when(s: Z3, dead: Sequence[Z3], forced: Z3, gone: Collection[int]) -> int:
    """The encoding's forced first lead (a card index or ``NOT_FORCED``) when ``gone`` are dead."""
    assert s.check(*[dead[c] == (c in gone) for c in range(N_CARDS)]) == z3.sat
    return int(s.model().eval(forced, model_completion=True).as_long())


def _dead_pair_result(run: Run, rules: Rules, gone: Collection[int], encoded: int, verdict: Verdict, detail: str,
                      stats: Mapping[str, Any] | None = None) -> CheckResult:
    """Replay a deal with the given dead cards and compare the model's first leader and first
    leads with the encoding's: the holder of the lowest live low club leads, and he may lead
    only the card ``encoded``, or (``NOT_FORCED``) that club and more."""
    if len(gone) != 2:
        return CheckResult(verdict, detail=detail + "; not a deal of the rulebook (HEARTS-DEAL-2)", stats=stats or {})
    w = _hand_with(rules, lambda e: z3.And([e.dead[c] for c in gone]), run.budget)
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
                f"encoding makes the holder of {CARDS[club]} (P{holder}) lead "
                f"{'it or another card' if free else CARDS[encoded]}")
        if state.to_move.index != holder:
            record = hearts_record(state.config, at.moves, state, label=text,
                                   rejects=model.Play(SEATS[holder], CARDS[club]))
        elif not free:
            record = difference_record(at, [CARDS[encoded]], text)
        else:  # the model forces a card the encoding leaves free: it refuses another held card
            other = next(c for c in sorted(w.hands()[holder]) if c != club and suit(c) != 2)
            record = hearts_record(state.config, at.moves, state, label=text,
                                   rejects=model.Play(SEATS[holder], CARDS[other]))
        return CheckResult(Verdict.COUNTEREXAMPLE, detail=text, witness=text, records=(record,))
    replay_single(run, w, rules.config)
    must = f"lead any of {len(legal)} cards" if free else "lead it"
    return CheckResult(verdict, detail=f"{detail}; replayed: the model makes the holder of {CARDS[club].pretty} "
                                       f"(P{holder}) {must}", witness=w.describe(),
                       stats=stats or {})
