"""HEARTS-P1: in every reachable position the player to move has a legal move, and each move removes
one card from his hand, so a hand ends after exactly 13 tricks."""

from __future__ import annotations

from collections.abc import Sequence

import z3

from cardcanon.model import hearts as model
from cardcanon.model.cards import format_cards
from cardcanon.model.hearts_types import HeartsConfig
from cardcanon.proofs.base import CheckResult, Run, Verdict, Z3, encoding_memo
from cardcanon.proofs.z3_eval import value_in
from cardcanon.proofs.hearts.encoding import (
    CARDS, HAND_SIZE, HEARTS, LOW_CLUBS, N_CARDS, NON_HEARTS, Rules, TRICKS, encoded_legal_cards, legal_states,
    suit, z3_legal_follow, z3_legal_lead,
)
from cardcanon.proofs.hearts.replay import (
    Hands, Mismatch, Reached, ReplayMismatch, difference_record, replay_single, rules_for,
)


def p1_states(config: HeartsConfig) -> tuple[str, ...]:
    """The rules P1's encoding states: the legal-move predicates and HEARTS-DEAL-2."""
    return legal_states(config) + ("HEARTS-DEAL-2",)


Group = tuple[str, list[tuple[str, Z3]]]  # a group of position kinds: (name, [(kind, its constraints)])


@encoding_memo(maxsize=8)
def _position_groups(rules: Rules) -> tuple[list[Z3], list[Group], list[Z3], Z3]:
    """(constraints of every position, the groups of position kinds, the hand, hearts broken): each
    group's disjunction of kinds without a legal move must be UNSAT. The positions are described by
    HEARTS-DEAL-2 (two dead cards, 13 cards each, one card played per turn) and the legal-move predicates."""
    me = [z3.Bool(f"me{c}") for c in range(N_CARDS)]
    opp = [z3.Bool(f"opp{c}") for c in range(N_CARDS)]
    dead = [z3.Bool(f"dead{c}") for c in range(N_CARDS)]
    broken, n = z3.Bool("broken"), z3.Int("n")

    def deal(*facts: Z3) -> list[Z3]:  # HEARTS-DEAL-2
        return [rules.drop.constraint("HEARTS-DEAL-2", fact) for fact in facts]

    base = [z3.AtMost(me[c], opp[c], dead[c], 1) for c in range(N_CARDS)] + deal(z3.PbEq([(d, 1) for d in dead], 2))

    def forced_by(f: int) -> list[Z3]:  # HEARTS-LEAD-2: f is the lowest live low club
        return [z3.Not(dead[f])] + [dead[c] for c in LOW_CLUBS if c < f]

    def lead_ok(hand: Sequence[Z3], c: int, first: bool, forced: int | None, hearts_broken: Z3) -> Z3:
        return z3_legal_lead(hand, c, broken=hearts_broken, first_trick=first, forced=forced, rules=rules)

    count_me, count_opp = (z3.Sum([z3.If(b, 1, 0) for b in bits]) for bits in (me, opp))
    later = [n >= 1, n <= TRICKS - 1]
    full = [z3.Or(me[c], opp[c], dead[c]) for c in range(N_CARDS)]
    leads: list[tuple[str, Z3]] = [("lead to a later trick", z3.And(
        later + deal(count_me == n, count_opp == n) + [z3.Not(lead_ok(me, c, False, None, broken)) for c in range(N_CARDS)]))]
    for f in LOW_CLUBS:  # the first lead: the holder of the forced club leads
        no_move = [z3.Not(lead_ok(me, c, True, f, z3.BoolVal(False))) for c in range(N_CARDS)]
        leads.append((f"first lead, forced {CARDS[f].pretty}", z3.And(
            forced_by(f) + deal(*full, count_me == HAND_SIZE, count_opp == HAND_SIZE) + [me[f]] + no_move)))
    no_follow = {(u, first): [z3.Not(z3_legal_follow(me, c, 7 * u, first_trick=z3.BoolVal(first), rules=rules))
                              for c in range(N_CARDS)] for u in range(4) for first in (False, True)}
    follows: list[tuple[str, Z3]] = []
    first_follows: list[tuple[str, Z3]] = []
    for lead in range(N_CARDS):  # a later follow: the leader has played one card more
        gone = [z3.Not(me[lead]), z3.Not(opp[lead]), z3.Not(dead[lead])]
        follows.append((f"follow to {CARDS[lead].pretty}, trick 2-13", z3.And(
            gone + later + deal(count_me == n, count_opp == n - 1) + no_follow[suit(lead), False])))
        for f in LOW_CLUBS:  # the first follow: the lead was a legal first lead
            leader = [z3.Or(opp[c], z3.BoolVal(c == lead)) for c in range(N_CARDS)]
            rest = [full[c] for c in range(N_CARDS) if c != lead]
            first_follows.append((f"first follow to {CARDS[lead].pretty}, forced {CARDS[f].pretty}", z3.And(
                gone + forced_by(f) + deal(*rest, count_me == HAND_SIZE) + [leader[f]]
                + [lead_ok(leader, lead, True, f, z3.BoolVal(False))] + no_follow[suit(lead), True])))
    # every legal card is in the mover's hand: each move removes one card from his hand
    stray = [z3.And(lead_ok(me, c, False, None, broken), z3.Not(me[c])) for c in range(N_CARDS)]
    stray += [z3.And(z3_legal_follow(me, c, 7 * u, first_trick=z3.Bool("first"), rules=rules), z3.Not(me[c]))
              for c in range(N_CARDS) for u in range(4)]
    groups = [("leads", leads), ("follows to a later trick", follows), ("follows to the first trick", first_follows),
              ("moves", [("a legal card outside the hand", z3.Or(stray))])]
    return base, groups, me, broken


def check(run: Run) -> CheckResult:
    rules, budget = rules_for(run, P1_PROBES, p1_states), run.budget
    base, groups, me, broken = _position_groups(rules.only("first_lead", "first_trick_points"))
    solver = z3.Solver()
    solver.add(base)
    for _, kinds in groups:
        if budget.check(solver, z3.Or([kind for _, kind in kinds])) == z3.sat:
            m = solver.model()
            name = next(name for name, kind in kinds if value_in(m, kind))
            hand = " ".join(CARDS[c].pretty for c in range(N_CARDS) if value_in(m, me[c]))
            hearts = "broken" if value_in(m, broken) else "unbroken"
            detail = f"{name}: no legal move with {'hand ' + hand if hand else 'an empty hand'}, hearts {hearts}"
            return _stuck_counterexample(run, rules, detail)
    count = sum(len(k) for _, k in groups)
    try:
        witness, note = _witness_with_legal_sets(run, rules)
    except Mismatch as err:
        return err.result()
    return CheckResult(Verdict.PROVED, detail=f"{count} position kinds have a legal move ({len(groups)} queries); {note}",
                       witness=witness, stats={"position_kinds": count, "queries": len(groups), "seconds": budget.elapsed()})


def _stuck_counterexample(run: Run, rules: Rules, detail: str) -> CheckResult:
    """A hand played by the rules as written reaching a lead at which ``rules`` allow no card, replayed."""
    hands = Hands(rules.written)
    enc = hands.enc
    options = [z3.And([z3.Not(z3_legal_lead(held, c, broken=enc.broken_before[k], first_trick=False, forced=None,
                                            rules=rules)) for c in range(N_CARDS)])
               for k, held in ((k, enc.leader_holds(k)) for k in range(1, TRICKS))]
    witness = hands.find(run.budget, z3.Or(options))
    if witness is None:
        return CheckResult(Verdict.COUNTEREXAMPLE, detail=detail + "; no reachable instance found")
    m = hands.solver.model()
    k = next(k for k in range(1, TRICKS) if value_in(m, options[k - 1]))
    state = replay_single(run, witness, rules.config, stop_after=2 * k).state
    legal = model.legal_moves(state)
    return CheckResult(Verdict.COUNTEREXAMPLE, witness=witness.describe(),
                       detail=f"{detail}; reachable at trick {k + 1} of the hand shown, where the model allows "
                              f"{' '.join(m.card.pretty for m in legal)}")


def _witness_with_legal_sets(run: Run, rules: Rules) -> tuple[str | None, str]:
    """Two hands of the check's encoding replayed, the legal sets compared at all 26 plays of each;
    every restriction acts in them: the 2 of clubs live in one (HEARTS-LEAD-1), dead in the other
    (HEARTS-LEAD-2/3), and in both a later leader holds hearts and other cards before hearts are
    broken (HEARTS-BREAK-1)."""
    hands = Hands(rules)
    enc = hands.enc
    restricted = []
    for k in range(1, TRICKS):
        held = enc.leader_holds(k)
        restricted.append(z3.And(z3.Not(enc.broken_before[k]), z3.Or([held[c] for c in HEARTS]),
                                 z3.Or([held[c] for c in NON_HEARTS])))

    def compare(at: Reached, move: model.Play) -> None:
        expected = frozenset(m.card for m in model.legal_moves(at.state))
        mine = encoded_legal_cards(at.state, rules)
        if not expected or mine != expected:  # (the witness's own card, if refused, is recorded by the replay)
            text = (f"play {len(at.moves) - 1}: the model allows [{format_cards(sorted(expected))}], "
                    f"the encoding [{format_cards(sorted(mine))}]")
            raise Mismatch(text, difference_record(at, mine, text))

    shown = []
    for two_dead in (False, True):
        witness = hands.find(run.budget, z3.Or(restricted), enc.dead[LOW_CLUBS[0]] == two_dead)
        if witness is None:
            return None, "no witness hand found"
        final = replay_single(run, witness, rules.config, visit=compare).state
        if final.tricks_played != TRICKS or any(final.hands):
            raise ReplayMismatch("the replayed hand did not end after 13 tricks with empty hands")
        shown.append(witness.describe())
    return "\n".join(shown), "two witness hands replayed: legal sets agree at all 26 plays of each, 13 tricks"


P1_PROBES = {"no-heart-lead-exception": dict(heart_lead_exception=False)}
