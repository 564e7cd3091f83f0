"""The Z3 encoding of two-player Hearts: cards, who took each card, whole hands (the scores are the
model's score_hand, derived: :mod:`.score_terms`).

Cards are the integers 0..27, the positions of the model's ``DECK`` (HEARTS-DECK-1); suits and ranks
are the model's. The play rules of a whole hand are not written here: :class:`HandEncoding` instantiates,
trick by trick, the terms derived from the model's own functions (:mod:`.play_terms`): legality, the trick
winner, the first leader and what breaks hearts. What it writes itself is the skeleton: who plays which
card when, over 13 tricks. Every constraint it writes is tagged with the rule that states it (a
:class:`Drop` leaves one out); ``*_STATES`` / ``*_states(config)`` list those rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import z3

from cardcanon.model import hearts as model
from cardcanon.model.cards import Card, Suit
from cardcanon.model.seats import Seat
from cardcanon.model.hearts import HeartsConfig
from cardcanon.proofs.base import Z3
from cardcanon.proofs.drops import Drop
from cardcanon.proofs.hearts.play_terms import breaks_table, first_lead, instantiate, legality, trick_winner
from cardcanon.proofs.rulebook import value
from cardcanon.proofs.symbolic.terms import all_of, any_of, implies, negation
from cardcanon.proofs.z3_eval import value_in


CARDS: tuple[Card, ...] = model.DECK  # HEARTS-DECK-1, in the model's order
INDEX = {card: i for i, card in enumerate(CARDS)}
N_CARDS = value("hearts", "HEARTS-DECK-1", "deck_size")
TRICKS = value("hearts", "HEARTS-TRICK-3", "tricks_per_hand")
HAND_SIZE = value("hearts", "HEARTS-DEAL-2", "hand_size")
DEAD_CARDS = value("hearts", "HEARTS-DEAL-2", "dead_cards")
QUEEN_POINTS = value("hearts", "HEARTS-QUEEN-1", "queen_points")
HEART_POINTS = value("hearts", "HEARTS-SCORE-1", "heart_points")
MOON_SHOOTER = value("hearts", "HEARTS-MOON-1", "moon_shooter_points")
MOON_OTHER = value("hearts", "HEARTS-MOON-1", "moon_other_points")
TARGET = value("hearts", "HEARTS-MATCH-1", "target")
SUITS = tuple(dict.fromkeys(card.suit for card in CARDS))  # the model's suit order
HEARTS_SUIT = SUITS.index(Suit.HEARTS)
assert len(CARDS) == N_CARDS, "HEARTS-DECK-1: the deck the encoding names is the rulebook's deck"
HEARTS = tuple(i for i, card in enumerate(CARDS) if card.suit is Suit.HEARTS)
NON_HEARTS = tuple(c for c in range(N_CARDS) if c not in HEARTS)
QUEEN_OF_SPADES = INDEX[model.QUEEN_OF_SPADES]
POINT_CARDS = tuple(i for i, card in enumerate(CARDS) if card in model.POINT_CARDS)  # the hearts, then the queen
LEAD, FOLLOW = 0, 1


def pretty(cards: Iterable[int]) -> str:
    """Card numbers in the rulebook's words, in deck order."""
    return " ".join(CARDS[c].pretty for c in sorted(cards)) or "nothing"


def suit(i: int) -> int:
    return SUITS.index(CARDS[i].suit)


@dataclass(frozen=True)
class Rules:
    """The rules an encoding follows: a variant, and the probes breaking one rule (``mutations``
    names those without a field of their own), or one rule dropped."""

    config: HeartsConfig = HeartsConfig()  # the variation points (HEARTS-LEAD-3, BREAK-2, FIRST-1, MOON-2)
    mutations: tuple[str, ...] = ()
    drop: Drop = Drop()  # the rule a vacuity probe leaves out (none: every rule stated)

    @property
    def written(self) -> Rules:  # the same variant, no probe
        return Rules(config=self.config)

    @property
    def skeleton(self) -> Rules:
        """What :class:`HandEncoding` reads of these rules: the variant, and a rule its skeleton states
        dropped (a probe of the scores, or a drop of another rule, builds the same hand encoding)."""
        return Rules(config=self.config, drop=self.drop if self.drop.rule in SKELETON_STATES else Drop())

    def only(self, *options: str) -> Rules:
        """The rules with only these options of the variant: runs under variants differing elsewhere
        then ask the very same queries."""
        return replace(self, config=HeartsConfig(**{o: getattr(self.config, o) for o in options}))



# ---- scoring: derived from the model's score_hand (:mod:`.score_terms`) ---------------------------------
SCORING_STATES = ("HEARTS-SCORE-1", "HEARTS-QUEEN-1", "HEARTS-MOON-1", "HEARTS-MOON-2")
SKELETON_STATES = ("HEARTS-DEAL-2", "HEARTS-TRICK-2", "HEARTS-BREAK-2")  # the rules HandEncoding's own constraints state



# ---- one whole hand ----------------------------------------------------------------------------------
def hand_states(config: HeartsConfig) -> tuple[str, ...]:
    """The rules the encoding's own constraints state (the skeleton's): the play rules it instantiates
    from derived terms are the model's, dropped only while deriving."""
    return SKELETON_STATES + SCORING_STATES


class HandEncoding:
    """A deal and a 13-trick hand played by the rules. ``pos[c][k][r]``: card c is led (r = 0) or
    follows (r = 1) to trick k. Seats are Booleans (``True``: seat 1): ``hold[c]`` holds card c,
    ``lead1[k]`` leads trick k, ``took[c]`` won card c (a dead card: nobody); ``taken[p][card]``: seat p
    took the card and ``dead_cards[card]``, the arguments of the derived scoring (``Hands``). The skeleton (one card per turn, each
    player his own 13 cards, the winner leads next) is written here; legality, the trick winner, the
    first leader and what breaks hearts are the model's derived terms, instantiated per trick."""

    def __init__(self, rules: Rules = Rules()) -> None:
        B = z3.Bool
        self.pos = [[[B(f"h_p{c}_{k}_{r}") for r in (LEAD, FOLLOW)] for k in range(TRICKS)] for c in range(N_CARDS)]
        self.hold = [B(f"h_hold{c}") for c in range(N_CARDS)]
        self.lead1 = [B(f"h_lead1_{k}") for k in range(TRICKS)]
        self.took = [B(f"h_took{c}") for c in range(N_CARDS)]
        self.constraints: list[Z3] = []
        self._card_at = [[z3.Sum([z3.If(self.pos[c][k][r], c, 0) for c in range(N_CARDS)]) for r in (LEAD, FOLLOW)]
                         for k in range(TRICKS)]  # the card played, read back by decode
        C, pos, hold, lead1 = self.constraints, self.pos, self.hold, self.lead1
        drop, config = rules.drop, rules.config

        def state(rule: str, constraint: Z3) -> None:
            C.append(drop.constraint(rule, constraint))

        # ---- the skeleton: who plays which card when
        played = [[any_of(pos[c][k]) for k in range(TRICKS)] for c in range(N_CARDS)]
        self.dead = [negation(any_of([played[c][k] for k in range(TRICKS)])) for c in range(N_CARDS)]
        for k in range(TRICKS):
            for r in (LEAD, FOLLOW):
                C.append(z3.PbEq([(pos[c][k][r], 1) for c in range(N_CARDS)], 1))
        for c in range(N_CARDS):
            C.append(z3.AtMost(*[pos[c][k][r] for k in range(TRICKS) for r in (LEAD, FOLLOW)], 1))
            C.append(implies(self.dead[c], negation(hold[c])))  # canonical value for dead cards
            for k in range(TRICKS):  # HEARTS-DEAL-2: each player plays his own 13 cards
                state("HEARTS-DEAL-2", implies(pos[c][k][LEAD], hold[c] == lead1[k]))
                state("HEARTS-DEAL-2", implies(pos[c][k][FOLLOW], hold[c] == negation(lead1[k])))
        # two dead cards: implied by 13 tricks of two cards each played once (no rule of its own
        # is needed for it; stated because it helps the solver count)
        C.append(z3.PbEq([(d, 1) for d in self.dead], 2))
        # HEARTS-DEAL-2 stated directly (it follows from the above; it helps the solver count)
        for seat in (False, True):
            state("HEARTS-DEAL-2", z3.PbEq([(all_of((negation(self.dead[c]), hold[c] == seat)), 1)
                                            for c in range(N_CARDS)], TRICKS))
        # "played after trick k", built backwards
        after: list[list[Z3]] = [[None] * TRICKS for _ in range(N_CARDS)]
        for c in range(N_CARDS):
            acc = z3.BoolVal(False)
            for k in reversed(range(TRICKS)):
                after[c][k] = acc
                acc = any_of((played[c][k], acc))
        self.played, self.after = played, after
        # per trick: the cards its leader and its follower hold before they play (asked by the checks too)
        self._held = [[[all_of((self.owns(seat, c), any_of((played[c][k], after[c][k])))) for c in range(N_CARDS)]
                       for seat in (lead1[k], negation(lead1[k]))] for k in range(TRICKS)]
        live = self.live = [negation(d) for d in self.dead]

        # ---- the model's rules, instantiated: the trick winner (HEARTS-TRICK-1); the winner leads (TRICK-2)
        wins = trick_winner()
        beaten = [[a for a in range(N_CARDS) if a != b and z3.is_true(wins.follower(a, b))] for b in range(N_CARDS)]
        self.follower_wins = [any_of([all_of((pos[b][k][FOLLOW], any_of([pos[a][k][LEAD] for a in beaten[b]])))
                                      for b in range(N_CARDS)]) for k in range(TRICKS)]
        self.winner1 = [z3.Xor(lead1[k], self.follower_wins[k]) for k in range(TRICKS)]
        for k in range(TRICKS - 1):
            state("HEARTS-TRICK-2", lead1[k + 1] == self.winner1[k])
        # what breaks hearts (HEARTS-BREAK-2, QUEEN-2): the model's breaks_hearts on every lead and follow
        lead_breaks, follow_breaks = breaks_table(config)
        breaks = []
        for k in range(TRICKS):
            by_follow = []
            for b in range(N_CARDS):
                leads = [a for a in range(N_CARDS) if a != b and follow_breaks[a][b]]
                if len(leads) == N_CARDS - 1:  # on any lead: the card alone says it
                    by_follow.append(pos[b][k][FOLLOW])
                elif leads:
                    by_follow.append(all_of((pos[b][k][FOLLOW], any_of([pos[a][k][LEAD] for a in leads]))))
            breaks.append(any_of([pos[a][k][LEAD] for a in range(N_CARDS) if lead_breaks[a]] + by_follow))
        self.broken_before = [drop.term("HEARTS-BREAK-2", any_of(breaks[:k]), f"broken{k}") for k in range(TRICKS)]
        # the first leader (HEARTS-LEAD-1/2): the seat the model's first_leader names
        leader = first_lead(config).leader
        self.first_leader1 = instantiate(leader, dead=self.dead, held=[all_of((live[c], negation(hold[c]))) for c in range(N_CARDS)],
                                         other=[all_of((live[c], hold[c])) for c in range(N_CARDS)]) == 1
        C.append(lead1[0] == self.first_leader1)
        # legality (HEARTS-LEAD-1/3, FOLLOW-1, BREAK-1, FIRST-1): the model's play_problem, for the
        # leader and for the follower, in the position before each of their cards
        legal = legality(config)

        def own(holds: list[Z3], c: int) -> list[Z3]:  # HEARTS-DEAL-2 dropped: he may play a card not dealt him
            return holds if drop.keeps("HEARTS-DEAL-2") else [z3.BoolVal(True) if x == c else h for x, h in enumerate(holds)]

        # per card c: its legality's terms as a follower, each with the leads on which it is that term
        by_term: list[dict[int, tuple[Z3, list[int]]]] = [{} for _ in range(N_CARDS)]
        for c in range(N_CARDS):
            for a in range(N_CARDS):
                if a != c:
                    by_term[c].setdefault(legal.follow[a][c].get_id(), (legal.follow[a][c], []))[1].append(a)
        for k in range(TRICKS):
            position = dict(dead=self.dead, tricks=k, broken=self.broken_before[k])
            leader_holds, follower_holds = self.leader_holds(k), self.follower_holds(k)
            for c in range(N_CARDS):
                C.append(implies(pos[c][k][LEAD], instantiate(legal.lead[c], held=own(leader_holds, c), **position)))
                to_lead = any_of([all_of((any_of([pos[a][k][LEAD] for a in leads]), term))
                                  for term, leads in by_term[c].values()])
                C.append(implies(pos[c][k][FOLLOW], instantiate(to_lead, held=own(follower_holds, c), **position)))
        # who took each card: the winner of its trick (HEARTS-TERM-4), nobody a dead card
        for c in range(N_CARDS):
            for k in range(TRICKS):
                C.append(implies(played[c][k], self.took[c] == self.winner1[k]))
            C.append(implies(self.dead[c], negation(self.took[c])))
        self.taken = [{CARDS[c]: all_of((live[c], self.took[c] == bool(p))) for c in range(N_CARDS)} for p in (0, 1)]
        self.dead_cards = {CARDS[c]: self.dead[c] for c in range(N_CARDS)}

    def leader_holds(self, k: int) -> list[Z3]:
        """Per card: the leader of trick ``k`` holds it before he leads."""
        return self._held[k][LEAD]

    def follower_holds(self, k: int) -> list[Z3]:
        """Per card: the follower of trick ``k`` holds it before he follows."""
        return self._held[k][FOLLOW]

    def owns(self, seat: Z3, c: int) -> Z3:
        """HEARTS-DEAL-2: the card was dealt to ``seat``."""
        return self.hold[c] == seat

    def decode(self, model: Z3, score: Sequence[Z3]) -> HandWitness:
        """Read one hand, with the value of the ``score`` terms, from a Z3 model."""
        def card(k: int, r: int) -> int:  # one card per trick and role (the encoding says so)
            return int(value_in(model, self._card_at[k][r]))

        tricks = tuple((int(value_in(model, self.lead1[k])), card(k, LEAD), card(k, FOLLOW)) for k in range(TRICKS))
        played = {c for _, a, b in tricks for c in (a, b)}
        dead = tuple(sorted(set(range(N_CARDS)) - played))
        scores = tuple(value_in(model, s) for s in score)
        return HandWitness(tricks=tricks, dead=dead, scores=scores)

    def fix(self, witness: HandWitness) -> list[Z3]:
        """Constraints pinning this encoding to one concrete hand."""
        out: list[Z3] = []
        for k, (leader, a, b) in enumerate(witness.tricks):
            out += [self.pos[a][k][LEAD], self.pos[b][k][FOLLOW], self.lead1[k] == bool(leader)]
        return out


@dataclass(frozen=True)
class HandWitness:
    """A concrete hand: ``tricks[k] = (leader seat, led card, followed card)``, cards as ints."""

    tricks: tuple[tuple[int, int, int], ...]
    dead: tuple[int, ...]
    scores: tuple[int, ...]

    def hands(self) -> tuple[frozenset[int], frozenset[int]]:
        held: list[set[int]] = [set(), set()]
        for leader, a, b in self.tricks:
            held[leader].add(a)
            held[1 - leader].add(b)
        return frozenset(held[0]), frozenset(held[1])

    def swapped(self) -> HandWitness:
        """The same hand with the seats exchanged."""
        return HandWitness(tuple((1 - s, a, b) for s, a, b in self.tricks), self.dead, tuple(reversed(self.scores)))

    def describe(self) -> str:
        h0, h1 = self.hands()
        tricks = ", ".join(f"{Seat(s)} {CARDS[a].pretty}-{CARDS[b].pretty}" for s, a, b in self.tricks)
        return (f"dead {pretty(self.dead)}; {Seat(0)}: {pretty(h0)}; {Seat(1)}: {pretty(h1)}\ntricks: {tricks}\n"
                f"hand score {self.scores[0]}-{self.scores[1]}")
