"""HEARTS-P2: every trick of two distinct cards has exactly one winner, the one HEARTS-TRICK-1 names.

A winner for every pair (the model's function returns 0 or 1, never raises) is exactly one; Z3 asks
that and the rule's claims over all 28 x 27 pairs of the term of the model's own ``trick_winner``, derived by
running it on two symbolic cards (:func:`.play_terms.trick_winner`); the term's value is then the
model's on each pair (Z3 against the concrete function's table). The claims are the rulebook's
text over the model's cards, the second opinion on the model."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import z3

from cardcanon.model import hearts as model
from cardcanon.model.cards import Card, Suit
from cardcanon.model.hearts_types import DECK
from cardcanon.proofs.base import Budget, CheckResult, Run, Verdict, Z3
from cardcanon.proofs.hearts.encoding import TRICKS, Rules
from cardcanon.proofs.hearts.play_terms import FOLLOW, INDEX, LEAD, derivation_probe, trick_winner
from cardcanon.proofs.hearts.replay import hands_of, replay_single
from cardcanon.proofs.z3_eval import value_in

P2_PROBES = ("higher-rank-any-suit", "hearts-not-trump")
P2_RULES = ("HEARTS-TRICK-1", "HEARTS-TRUMP-1", "HEARTS-RANK-1")


def _pairs(keep: Callable[[Card, Card], bool]) -> Z3:
    """The pairs (lead, follow) of the model's deck that ``keep`` holds of."""
    return z3.Or([z3.And(LEAD == INDEX[a], FOLLOW == INDEX[b]) for a, b in itertools.product(DECK, DECK) if keep(a, b)])


def claims(winner: Z3) -> list[tuple[str, Z3]]:
    """HEARTS-TRICK-1, TRUMP-1 and RANK-1 as the rulebook says them, over ``winner`` (1: the follower)."""
    same = _pairs(lambda a, b: a.suit is b.suit)
    higher = _pairs(lambda a, b: a.suit is b.suit and b.rank > a.rank)
    trump = _pairs(lambda a, b: b.suit is Suit.HEARTS and a.suit is not Suit.HEARTS)
    off = _pairs(lambda a, b: b.suit is not a.suit and b.suit is not Suit.HEARTS)
    return [("of two cards of the suit led the higher wins (HEARTS-RANK-1)", z3.Implies(same, winner == z3.If(higher, 1, 0))),
            ("a heart on another suit wins (HEARTS-TRUMP-1)", z3.Implies(trump, winner == 1)),
            ("a card of neither the suit led nor hearts loses (HEARTS-TRICK-1)", z3.Implies(off, winner == 0))]


def check(run: Run) -> CheckResult:
    budget = run.budget
    probe = derivation_probe(run.probe_id, run.dropped, P2_PROBES)
    if run.dropped is not None and probe is None:
        raise ValueError(f"{run.probe_id}: the derived trick winner decides nothing of {run.dropped}")
    derived = trick_winner(probe)
    domain = [0 <= LEAD, LEAD < len(DECK), 0 <= FOLLOW, FOLLOW < len(DECK), LEAD != FOLLOW]
    s = z3.Solver()
    s.add(domain)
    if budget.check(s, derived.raised) == z3.sat:
        return _counterexample(run, s, derived.raised, derived.term,
                               lambda won: "no winner: the model's trick_winner raises")
    for name, claim in claims(derived.term):
        if budget.check(s, z3.Not(claim)) == z3.sat:
            return _counterexample(run, s, z3.Not(claim), derived.term,
                                   lambda won: f"not {name}: the {'follower' if won == 1 else 'leader'} wins")
    pairs = list(itertools.permutations(range(len(DECK)), 2))
    table = z3.Or([z3.And(LEAD == a, FOLLOW == b, derived.term != model.trick_winner(DECK[a], DECK[b])) for a, b in pairs])
    if budget.check(s, table) == z3.sat:  # the term against the concrete model, every pair
        return _counterexample(run, s, table, derived.term,
                               lambda won: "the derived term is not the model's trick_winner")
    compared = len(pairs)
    witness = _trump_witness(run)
    return CheckResult(Verdict.PROVED,
                       detail=f"exactly one winner, as HEARTS-TRICK-1 says, for all pairs (Z3 over the term of the "
                              f"model's trick_winner, {derived.paths} paths); {compared} pairs agree with the model",
                       witness=witness, stats={"pairs": compared})


def _violations(budget: Budget, s: Z3, condition: Z3, winner: Z3) -> dict[tuple[int, int], int]:
    """Every pair (lead, follow) of ``s`` meeting ``condition``, with the value of ``winner`` at it."""
    found: dict[tuple[int, int], int] = {}
    s.push()
    s.add(condition)
    while budget.check(s) == z3.sat:
        m = s.model()
        a, b = value_in(m, LEAD), value_in(m, FOLLOW)
        found[(a, b)] = value_in(m, winner)
        s.add(z3.Or(LEAD != a, FOLLOW != b))
    s.pop()
    return found


def _counterexample(run: Run, s: Z3, condition: Z3, winner: Z3, what: Callable[[int], str]) -> CheckResult:
    """The pairs meeting ``condition`` shown by a legal hand that plays one of them before the last trick,
    so that the winner leads the next one: a model that gives the trick to the other player refuses that
    lead, and the record shows the disagreement whatever cards were taken. Any such pair will do, so the
    result does not depend on the pair Z3 happens to find first; ``what`` describes one by ``winner`` there."""
    found = _violations(run.budget, s, condition, winner)
    hands = hands_of(Rules(config=run.hearts_config()))
    pos = hands.enc.pos
    w = hands.find(run.budget, z3.Or([z3.And(pos[a][k][0], pos[b][k][1]) for a, b in found for k in range(TRICKS - 1)]))
    a, b = min(found) if w is None else next((a, b) for _, a, b in w.tricks[:-1] if (a, b) in found)
    truth = model.trick_winner(DECK[a], DECK[b])
    detail = f"{DECK[a].pretty} led, {DECK[b].pretty} followed: {what(found[(a, b)])}; the model gives it to the " \
             f"{'follower' if truth else 'leader'}"
    if w is None:
        return CheckResult(Verdict.COUNTEREXAMPLE,
                           detail=detail + f" (no legal hand contains such a trick, of {len(found)}, before the last)")
    replay_single(run, w, run.hearts_config())  # the model accepts the hand, trick winners included
    return CheckResult(Verdict.COUNTEREXAMPLE, detail=detail, witness=w.describe())


def _trump_witness(run: Run) -> str | None:
    """A legal hand in which a heart discarded on another suit wins (HEARTS-TRUMP-1)."""
    hands = hands_of(Rules(config=run.hearts_config()))
    pos = hands.enc.pos
    hearts = [INDEX[c] for c in DECK if c.suit is Suit.HEARTS]
    others = [INDEX[c] for c in DECK if c.suit is not Suit.HEARTS]
    w = hands.find(run.budget, z3.Or([z3.And(z3.Or([pos[c][k][0] for c in others]), z3.Or([pos[h][k][1] for h in hearts]))
                                      for k in range(TRICKS)]))
    if w is None:
        return None
    replay_single(run, w, run.hearts_config())
    return w.describe()
