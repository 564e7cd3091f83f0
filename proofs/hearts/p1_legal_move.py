"""HEARTS-P1: in every reachable position the player to move has a legal move, and each move removes
one card from his hand, so a hand ends after exactly 13 tricks; and no legal move is one the rulebook's text
refuses (HEARTS-FOLLOW-1, BREAK-1, LEAD-1/3).

Z3 asks the claim of the model's own legality: the terms of ``play_problem`` derived by running it on a
symbolic position (:func:`.play_terms.legality`; the hand, the dead cards, the number of tricks played
and "hearts broken" symbolic), for a lead and for a follow to each card, over every position HEARTS-DEAL-2
allows (two dead cards, 13 cards less one per trick played, the first leader the one ``first_leader``
names). Two hands are then replayed, the terms' legal sets compared with the model's at all 26 plays."""

from __future__ import annotations

from collections.abc import Callable

import z3

from cardcanon.model import hearts as model
from cardcanon.model.cards import Suit, format_cards
from cardcanon.model.hearts_types import DECK, HAND_SIZE, TRICKS_PER_HAND, HeartsConfig
from cardcanon.proofs.base import CheckResult, Run, Verdict, Z3
from cardcanon.proofs.drops import Drop
from cardcanon.proofs.hearts.encoding import Rules
from cardcanon.proofs.hearts.play_terms import (
    DEAD, HELD, INDEX, TRICKS, BROKEN, LegalCards, Legality, derivation_probe, first_lead, instantiate, legality,
)
from cardcanon.proofs.hearts.replay import Mismatch, Reached, ReplayMismatch, difference_record, hands_of, replay_single
from cardcanon.proofs.z3_eval import value_in

P1_PROBES = ("no-heart-lead-exception", "follow-any-card", "hearts-led-anytime", "first-lead-any-card", "only-two-forced")
N = len(DECK)


def p1_states(config: HeartsConfig) -> tuple[str, ...]:
    """The rules P1 can drop: those its legality decides, and HEARTS-DEAL-2 (its positions)."""
    first_trick = config.first_trick_points is model.FirstTrickPoints.NO_HEARTS
    return (("HEARTS-LEAD-1", "HEARTS-LEAD-3", "HEARTS-BREAK-1", "HEARTS-FOLLOW-1")
            + (("HEARTS-FIRST-1",) if first_trick else ()) + ("HEARTS-DEAL-2",))


def positions(drop: Drop, config: HeartsConfig, probe: str | None, terms: Legality) -> tuple[list[Z3], Z3, list[Z3]]:
    """(every position, a lead, a follow to each card): HEARTS-DEAL-2 says which positions a hand reaches."""
    def deal(fact: Z3) -> Z3:
        return drop.constraint("HEARTS-DEAL-2", fact)

    held = z3.Sum([z3.If(h, 1, 0) for h in HELD])
    common = [deal(z3.PbEq([(d, 1) for d in DEAD], 2)), TRICKS >= 0, TRICKS < TRICKS_PER_HAND,
              deal(held == HAND_SIZE - TRICKS)] + [z3.Not(z3.And(HELD[c], DEAD[c])) for c in range(N)]
    # the first trick: every live card is in a hand, hearts unbroken (HEARTS-BREAK-3), and the model's
    # first_leader names seat 0 to lead, or seat 1, whose lead was one the model allows him
    other = [z3.And(z3.Not(h), z3.Not(d)) for h, d in zip(HELD, DEAD)]
    leader = instantiate(first_lead(config, probe).leader, other=other)
    lead = z3.Implies(TRICKS == 0, z3.And(deal(leader == 0), z3.Not(BROKEN)))
    follows = [z3.And(z3.Not(HELD[c]), z3.Not(DEAD[c]),
                      z3.Implies(TRICKS == 0, z3.And(deal(leader == 1), z3.Not(BROKEN),
                                                     instantiate(terms.lead[c], held=other, tricks=0, broken=False))))
               for c in range(N)]
    return common, lead, follows


def rule_claims(terms: Legality, config: HeartsConfig, lead_position: Z3) -> list[tuple[str, Z3]]:
    """What the rulebook's text refuses, over the derived legality (the second opinion on the model):
    HEARTS-FOLLOW-1, BREAK-1 and, at the first lead, LEAD-1 and LEAD-3."""
    suits = {c: DECK[c].suit for c in range(N)}
    def holds(keep: Callable[[int], bool]) -> Z3:
        return z3.Or([HELD[c] for c in range(N) if keep(c)])

    follow = z3.And([z3.Not(z3.And(terms.allowed(l, c), holds(lambda x: suits[x] is suits[l])))
                     for l in range(N) for c in range(N) if suits[c] is not suits[l]])
    hearts = [c for c in range(N) if suits[c] is Suit.HEARTS]
    lead_heart = z3.And([z3.Not(z3.And(lead_position, terms.allowed(None, h), z3.Not(BROKEN),
                                       holds(lambda x: suits[x] is not Suit.HEARTS))) for h in hearts])
    two, *others = [INDEX[c] for c in model.FIRST_LEAD_CLUBS]
    lowest: Z3 = z3.IntVal(-1)  # the club that made him leader when the 2 is dead: the lowest live of the others
    for club in reversed(others):
        lowest = z3.If(z3.Not(DEAD[club]), club, lowest)
    forced_club = config.first_lead is model.FirstLead.LOWEST_CLUB
    first = z3.And([z3.Implies(z3.And(lead_position, TRICKS == 0, terms.allowed(None, c)),
                               z3.If(z3.Not(DEAD[two]), z3.BoolVal(c == two), lowest == c if forced_club else z3.BoolVal(True)))
                    for c in range(N)])
    return [("a follower holding the suit led plays it (HEARTS-FOLLOW-1)", follow),
            ("no heart is led before hearts are broken by a leader holding another suit (HEARTS-BREAK-1)", lead_heart),
            ("the first lead is the 2♣" + (", else the club that made the leader (HEARTS-LEAD-1/3)" if forced_club
                                             else " when it is live (HEARTS-LEAD-1)"), first)]


def check(run: Run) -> CheckResult:
    config, budget = run.hearts_config(), run.budget
    drop = Drop.of(run.probe_id, p1_states(config)) if run.dropped else Drop()
    probe = derivation_probe(run.probe_id, run.dropped, P1_PROBES)
    terms = legality(config, probe)
    common, lead_position, follow_position = positions(drop, config, probe, terms)
    solver = z3.Solver()
    solver.add(common)

    def stuck(lead: int | None) -> Z3:
        return z3.Not(z3.Or([terms.allowed(lead, c) for c in range(N)]))

    queries = [("the model raises", terms.raised),
               ("a lead without a legal move", z3.And(lead_position, stuck(None))),
               ("a follow without a legal move", z3.Or([z3.And(follow_position[l], stuck(l)) for l in range(N)])),
               ("a legal card outside the hand", z3.Or([z3.And(terms.allowed(l, c), z3.Not(HELD[c]))
                                                         for l in (None, *range(N)) for c in range(N)]))]
    claims = rule_claims(terms, config, lead_position)
    queries += [(f"not {name}", z3.Not(claim)) for name, claim in claims]
    for i, (name, query) in enumerate(queries):
        if budget.check(solver, query) == z3.sat:
            m = solver.model()
            hand = " ".join(DECK[c].pretty for c in range(N) if value_in(m, HELD[c]))
            detail = (f"{name}: hand {hand or 'empty'}, {value_in(m, TRICKS)} tricks played, hearts "
                      f"{'broken' if value_in(m, BROKEN) else 'unbroken'}")
            if i >= len(queries) - len(claims):  # (under a probe the model's own hands break no rule: none to show)
                if run.probe is not None:
                    return CheckResult(Verdict.COUNTEREXAMPLE, detail=detail + "; under the probe's terms")
                return _refused_play(run, detail, i - (len(queries) - len(claims)))
            if i == 0:  # a hand of the encoding plays only where the terms are defined: none to show
                return CheckResult(Verdict.COUNTEREXAMPLE, detail=detail)
            led = next((l for l in range(N) if value_in(m, z3.And(follow_position[l], stuck(l)))), None)
            return _stuck_counterexample(run, terms, detail, led if name == "a follow without a legal move" else None)
    try:
        witness, note = _witness_with_legal_sets(run, terms)
    except Mismatch as err:
        return err.result()
    return CheckResult(Verdict.PROVED, detail=f"{N + 1} positions (a lead, a follow to each card) x every hand, dead pair, "
                                              f"trick number and 'hearts broken' have a legal move, and none the rules "
                                              f"refuse, in the model's {terms.paths} paths ({len(queries)} queries); {note}",
                       witness=witness, stats={"positions": N + 1, "queries": len(queries), "seconds": budget.elapsed()})


def _stuck_counterexample(run: Run, terms: Legality, detail: str, led: int | None) -> CheckResult:
    """A hand played by the rules as written reaching a lead (or a follow to ``led``) at which the terms
    allow no card, replayed."""
    lead = led is None
    hands = hands_of(Rules(config=run.hearts_config()))
    enc = hands.enc

    def stuck(k: int) -> Z3:
        position = dict(dead=enc.dead, tricks=k, broken=enc.broken_before[k])
        if lead:
            return z3.And([z3.Not(instantiate(terms.lead[c], held=enc.leader_holds(k), **position)) for c in range(N)])
        assert led is not None
        return z3.And(enc.pos[led][k][0], *[z3.Not(instantiate(terms.follow[led][c], held=enc.follower_holds(k), **position))
                                            for c in range(N)])

    options = [stuck(k) for k in range(TRICKS_PER_HAND)]
    witness = hands.find(run.budget, z3.Or(options))
    if witness is None:
        return CheckResult(Verdict.COUNTEREXAMPLE, detail=detail + "; no reachable instance found")
    m = hands.solver.model()
    k = next(k for k in range(TRICKS_PER_HAND) if value_in(m, options[k]))
    state = replay_single(run, witness, run.hearts_config(), stop_after=2 * k + (0 if lead else 1)).state
    legal = model.legal_moves(state)
    return CheckResult(Verdict.COUNTEREXAMPLE, witness=witness.describe(),
                       detail=f"{detail}; reachable at trick {k + 1} of the hand shown, where the model allows "
                              f"{' '.join(m.card.pretty for m in legal)}")


def _refused_play(run: Run, detail: str, claim: int) -> CheckResult:
    """A hand of the model (its whole-hand encoding) with a play the rule claim ``claim`` refuses, replayed."""
    config = run.hearts_config()
    hands = hands_of(Rules(config=config))
    enc = hands.enc
    suits = [DECK[c].suit for c in range(N)]
    if claim == 0:  # HEARTS-FOLLOW-1: the follower holds the suit led and plays another
        violation = z3.Or([z3.And(enc.pos[a][k][0], z3.Or([enc.follower_holds(k)[c] for c in range(N) if suits[c] is suits[a]]),
                                  z3.Or([enc.pos[b][k][1] for b in range(N) if suits[b] is not suits[a]]))
                           for k in range(TRICKS_PER_HAND) for a in range(N)])
    elif claim == 1:  # HEARTS-BREAK-1: a heart led unbroken by a leader holding another suit
        violation = z3.Or([z3.And(z3.Or([enc.pos[h][k][0] for h in range(N) if suits[h] is Suit.HEARTS]),
                                  z3.Not(enc.broken_before[k]),
                                  z3.Or([enc.leader_holds(k)[c] for c in range(N) if suits[c] is not Suit.HEARTS]))
                           for k in range(TRICKS_PER_HAND)])
    else:  # HEARTS-LEAD-1/3: the first lead is not the club the rules force
        two, *others = [INDEX[c] for c in model.FIRST_LEAD_CLUBS]
        forced = z3.Or([z3.And(enc.dead[two], *[enc.dead[o] for o in others[:i]], z3.Not(enc.dead[club]),
                               z3.Not(enc.pos[club][0][0])) for i, club in enumerate(others)])
        lowest = config.first_lead is model.FirstLead.LOWEST_CLUB
        violation = z3.Or(z3.And(z3.Not(enc.dead[two]), z3.Not(enc.pos[two][0][0])), forced if lowest else z3.BoolVal(False))
    witness = hands.find(run.budget, violation)
    if witness is None:
        return CheckResult(Verdict.COUNTEREXAMPLE, detail=detail + "; no hand of the model plays so")
    replay_single(run, witness, config)  # the model plays it; the rulebook refuses a play of it
    return CheckResult(Verdict.COUNTEREXAMPLE, detail=detail + "; the model plays such a hand", witness=witness.describe())


def _witness_with_legal_sets(run: Run, terms: Legality) -> tuple[str | None, str]:
    """Two hands replayed, the terms' legal sets compared with the model's at all 26 plays of each;
    every restriction acts in them: the 2 of clubs live in one (HEARTS-LEAD-1), dead in the other
    (HEARTS-LEAD-2/3), and in both a later leader holds hearts and other cards before hearts are
    broken (HEARTS-BREAK-1)."""
    hands = hands_of(Rules(config=run.hearts_config()))
    enc = hands.enc
    hearts = [INDEX[c] for c in DECK if c.suit is Suit.HEARTS]
    others = [INDEX[c] for c in DECK if c.suit is not Suit.HEARTS]
    restricted = []
    for k in range(1, TRICKS_PER_HAND):
        held = enc.leader_holds(k)
        restricted.append(z3.And(z3.Not(enc.broken_before[k]), z3.Or([held[c] for c in hearts]),
                                 z3.Or([held[c] for c in others])))
    legal_cards = LegalCards(terms)

    def compare(at: Reached, move: model.Play) -> None:
        expected = frozenset(m.card for m in model.legal_moves(at.state))
        mine = legal_cards.at(at.state)
        if not expected or mine != expected:  # (the witness's own card, if refused, is recorded by the replay)
            shown = "cards left open by a dropped rule" if mine is None else f"[{format_cards(sorted(mine))}]"
            text = f"play {len(at.moves) - 1}: the model allows [{format_cards(sorted(expected))}], the terms {shown}"
            raise Mismatch(text, difference_record(at, mine or (), text))

    shown = []
    two = INDEX[model.TWO_OF_CLUBS]
    for two_dead in (False, True):
        witness = hands.find(run.budget, z3.Or(restricted), enc.dead[two] == two_dead)
        if witness is None:
            return None, "no witness hand found"
        final = replay_single(run, witness, run.hearts_config(), visit=compare).state
        if final.tricks_played != TRICKS_PER_HAND or any(final.hands):
            raise ReplayMismatch("the replayed hand did not end after 13 tricks with empty hands")
        shown.append(witness.describe())
    return "\n".join(shown), "two witness hands replayed: legal sets agree at all 26 plays of each, 13 tricks"
