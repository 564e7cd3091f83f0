"""The Z3 encoding of two-player Hearts: cards, tricks, legal play, who took each card, whole hands (the
scores are the model's score_hand, derived: :mod:`.score_terms`).

Cards are the integers 0..27 of the 28-card deck in order (HEARTS-DECK-1): suit ``i // 7``, rank
``i % 7``. Every constraint and term is tagged with the rule that states it (a :class:`Drop`
leaves one out); ``*_STATES`` / ``*_states(config)`` list the rules each part states.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace

import z3

from cardcanon.model import hearts as model
from cardcanon.model.cards import Card, Rank, Suit
from cardcanon.model.seats import Seat
from cardcanon.model.hearts import BreakOn, FirstLead, FirstTrickPoints, HeartsConfig, QueenBreaks
from cardcanon.proofs.base import Z3, encoding_memo
from cardcanon.proofs.drops import Drop
from cardcanon.proofs.rulebook import value
from cardcanon.proofs.z3_eval import Compiled, compile_term, value_in


RANKS = (Rank.TWO, Rank.FOUR, Rank.SIX, Rank.EIGHT, Rank.TEN, Rank.QUEEN, Rank.ACE)
SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
CARDS: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in RANKS)  # HEARTS-DECK-1
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
HEARTS_SUIT = 2
assert len(CARDS) == N_CARDS, "HEARTS-DECK-1: the deck the encoding names is the rulebook's deck"
HEARTS = tuple(range(14, 21))
NON_HEARTS = tuple(c for c in range(N_CARDS) if c // 7 != HEARTS_SUIT)
QUEEN_OF_SPADES = INDEX[Card(Rank.QUEEN, Suit.SPADES)]
LOW_CLUBS = (0, 1, 2)  # 2♣, 4♣, 6♣ (HEARTS-LEAD-1/2)
POINT_CARDS = HEARTS + (QUEEN_OF_SPADES,)
LEAD, FOLLOW = 0, 1


def pretty(cards: Iterable[int]) -> str:
    """Card numbers in the rulebook's words, in deck order."""
    return " ".join(CARDS[c].pretty for c in sorted(cards)) or "nothing"


def suit(i: int) -> int:
    return i // 7


def rank(i: int) -> int:
    return i % 7


def beats(follow: int, lead: int, *, hearts_trump: bool = True) -> bool:
    """Whether the follower's card wins the trick (HEARTS-TRICK-1, HEARTS-TRUMP-1)."""
    if hearts_trump and HEARTS_SUIT in (suit(follow), suit(lead)):
        return suit(follow) == HEARTS_SUIT and (suit(lead) != HEARTS_SUIT or rank(follow) > rank(lead))
    return suit(follow) == suit(lead) and rank(follow) > rank(lead)


@dataclass(frozen=True)
class Rules:
    """The rules an encoding follows: a variant, and the probes breaking one rule (``mutations``
    names those without a field of their own), or one rule dropped."""

    config: HeartsConfig = HeartsConfig()  # the variation points (HEARTS-LEAD-3, BREAK-2, FIRST-1, MOON-2)
    heart_lead_exception: bool = True
    hearts_trump: bool = True
    mutations: tuple[str, ...] = ()
    drop: Drop = Drop()  # the rule a vacuity probe leaves out (none: every rule stated)

    @property
    def written(self) -> Rules:  # the same variant, no probe
        return Rules(config=self.config)

    def only(self, *options: str) -> Rules:
        """The rules with only these options of the variant: runs under variants differing elsewhere
        then ask the very same queries."""
        return replace(self, config=HeartsConfig(**{o: getattr(self.config, o) for o in options}))


TRICK_STATES = ("HEARTS-TRICK-1", "HEARTS-TRUMP-1", "HEARTS-RANK-1")  # what z3_trick_winner states


def z3_trick_winner(lead: Z3, follow: Z3, *, rules: Rules = Rules()) -> tuple[Z3, Z3]:
    """``(leader_wins, follower_wins)`` for integer card terms, the rule text applied to each side's card
    on its own (HEARTS-TRICK-1: "if a heart is played, the higher heart wins; otherwise the higher card
    of the suit led")."""
    drop = rules.drop

    def s(x: Z3) -> Z3:
        return x / 7

    def higher(me: Z3, other: Z3, name: str) -> Z3:  # HEARTS-RANK-1: rank order within a suit
        return drop.term("HEARTS-RANK-1", me % 7 > other % 7, f"higher_{name}")

    trump = z3.Or(s(lead) == HEARTS_SUIT, s(follow) == HEARTS_SUIT) if rules.hearts_trump else z3.BoolVal(False)
    any_heart = drop.term("HEARTS-TRUMP-1", trump, "heart_played")

    def wins(me: Z3, other: Z3, name: str) -> Z3:
        heart_case = z3.And(s(me) == HEARTS_SUIT, z3.Or(s(other) != HEARTS_SUIT, higher(me, other, name)))
        led = s(lead)
        suit_case = z3.And(s(me) == led, z3.Or(s(other) != led, higher(me, other, name)))
        if "higher-rank-any-suit" in rules.mutations:
            suit_case = higher(me, other, name)
        return drop.term("HEARTS-TRICK-1", z3.If(any_heart, heart_case, suit_case), f"{name}_wins")

    return wins(lead, follow, "leader"), wins(follow, lead, "follower")


# ---- legal moves of one position --------------------------------------------------------------------
def legal_states(config: HeartsConfig) -> tuple[str, ...]:
    """The rules :func:`z3_legal_lead` and :func:`z3_legal_follow` state under ``config``."""
    return (("HEARTS-LEAD-1",) + (("HEARTS-LEAD-3",) if config.first_lead is FirstLead.LOWEST_CLUB else ())
            + ("HEARTS-BREAK-1", "HEARTS-FOLLOW-1")
            + (("HEARTS-FIRST-1",) if config.first_trick_points is FirstTrickPoints.NO_HEARTS else ()))


def z3_legal_lead(hand: Sequence[Z3], card: int, *, broken: Z3, first_trick: bool, forced: int | None,
                  rules: Rules) -> Z3:
    """Whether the leader may lead ``card`` (``hand``: 28 Boolean terms; ``forced``: the club that
    made him leader): HEARTS-LEAD-1/3, BREAK-1, FIRST-1."""
    lowest_club = rules.config.first_lead is FirstLead.LOWEST_CLUB
    if first_trick and forced is not None and (lowest_club or forced == LOW_CLUBS[0]):
        rule = "HEARTS-LEAD-1" if forced == LOW_CLUBS[0] else "HEARTS-LEAD-3"
        if rules.drop.keeps(rule):
            return z3.And(hand[card], z3.BoolVal(card == forced))
    if suit(card) != HEARTS_SUIT:
        return hand[card]
    only_hearts = z3.And([z3.Not(hand[c]) for c in NON_HEARTS])
    exception = only_hearts if rules.heart_lead_exception else z3.BoolVal(False)
    allowed = rules.drop.constraint("HEARTS-BREAK-1", z3.Or(broken, exception))
    if rules.config.first_trick_points is FirstTrickPoints.NO_HEARTS and first_trick:
        allowed = z3.And(allowed, rules.drop.constraint("HEARTS-FIRST-1", only_hearts))
    return z3.And(hand[card], allowed)


def z3_legal_follow(hand: Sequence[Z3], card: int, lead: int, *, first_trick: Z3, rules: Rules) -> Z3:
    """Whether the follower may play ``card`` to ``lead`` (HEARTS-FOLLOW-1, HEARTS-FIRST-1)."""
    has_suit = z3.Or([hand[c] for c in range(N_CARDS) if suit(c) == suit(lead)])
    follows = rules.drop.constraint("HEARTS-FOLLOW-1", z3.Or(suit(card) == suit(lead), z3.Not(has_suit)))
    ok = z3.And(hand[card], follows)
    if rules.config.first_trick_points is FirstTrickPoints.NO_HEARTS and suit(card) == HEARTS_SUIT:
        only_hearts = z3.And([z3.Not(hand[c]) for c in NON_HEARTS])
        ok = z3.And(ok, rules.drop.constraint("HEARTS-FIRST-1", z3.Or(z3.Not(first_trick), only_hearts)))
    return ok


# ---- scoring: derived from the model's score_hand (:mod:`.score_terms`) ---------------------------------
SCORING_STATES = ("HEARTS-SCORE-1", "HEARTS-QUEEN-1", "HEARTS-MOON-1", "HEARTS-MOON-2")


# ---- one whole hand ----------------------------------------------------------------------------------
def hand_states(config: HeartsConfig) -> tuple[str, ...]:
    return (("HEARTS-DEAL-2", "HEARTS-FOLLOW-1", "HEARTS-TRICK-1", "HEARTS-TRICK-2", "HEARTS-BREAK-1",
             "HEARTS-BREAK-2", "HEARTS-LEAD-1", "HEARTS-LEAD-2")
            + (("HEARTS-LEAD-3",) if config.first_lead is FirstLead.LOWEST_CLUB else ())
            + (("HEARTS-FIRST-1",) if config.first_trick_points is FirstTrickPoints.NO_HEARTS else ())
            + (("HEARTS-QUEEN-2",) if config.queen_breaks is QueenBreaks.YES else ()) + SCORING_STATES)


class HandEncoding:
    """A deal and a 13-trick hand played by the rules. ``pos[c][k][r]``: card c is led (r = 0) or
    follows (r = 1) to trick k. Seats are Booleans (``True``: seat 1): ``hold[c]`` holds card c,
    ``lead1[k]`` leads trick k, ``took[c]`` won card c (a dead card: nobody); ``taken[p][card]``: seat p
    took the card and ``dead_cards[card]``, the arguments of the derived scoring (``Hands``)."""

    def __init__(self, rules: Rules = Rules()) -> None:
        self.rules = rules
        B = z3.Bool
        self.pos = [[[B(f"h_p{c}_{k}_{r}") for r in (LEAD, FOLLOW)] for k in range(TRICKS)] for c in range(N_CARDS)]
        self.hold = [B(f"h_hold{c}") for c in range(N_CARDS)]
        self.lead1 = [B(f"h_lead1_{k}") for k in range(TRICKS)]
        self.took = [B(f"h_took{c}") for c in range(N_CARDS)]
        self.constraints: list[Z3] = []
        self._card_at = [[z3.Sum([z3.If(self.pos[c][k][r], c, 0) for c in range(N_CARDS)]) for r in (LEAD, FOLLOW)]
                         for k in range(TRICKS)]  # the card played, read back by decode
        C, pos, hold, lead1, rules = self.constraints, self.pos, self.hold, self.lead1, self.rules
        drop = rules.drop

        def state(rule: str, constraint: Z3) -> None:
            C.append(drop.constraint(rule, constraint))

        played = [[z3.Or(pos[c][k]) for k in range(TRICKS)] for c in range(N_CARDS)]
        self.dead = [z3.Not(z3.Or([played[c][k] for k in range(TRICKS)])) for c in range(N_CARDS)]
        for k in range(TRICKS):
            for r in (LEAD, FOLLOW):
                C.append(z3.PbEq([(pos[c][k][r], 1) for c in range(N_CARDS)], 1))
        for c in range(N_CARDS):
            C.append(z3.AtMost(*[pos[c][k][r] for k in range(TRICKS) for r in (LEAD, FOLLOW)], 1))
            C.append(z3.Implies(self.dead[c], z3.Not(hold[c])))  # canonical value for dead cards
            for k in range(TRICKS):  # HEARTS-DEAL-2: each player plays his own 13 cards
                state("HEARTS-DEAL-2", z3.Implies(pos[c][k][LEAD], hold[c] == lead1[k]))
                state("HEARTS-DEAL-2", z3.Implies(pos[c][k][FOLLOW], hold[c] == z3.Not(lead1[k])))
        # two dead cards: implied by 13 tricks of two cards each played once (no rule of its own
        # is needed for it; stated because it helps the solver count)
        C.append(z3.PbEq([(d, 1) for d in self.dead], 2))
        # HEARTS-DEAL-2 stated directly (it follows from the above; it helps the solver count)
        for seat in (False, True):
            state("HEARTS-DEAL-2", z3.PbEq([(z3.And(z3.Not(self.dead[c]), hold[c] == seat), 1)
                                            for c in range(N_CARDS)], TRICKS))
        # "played after trick k", built backwards
        after: list[list[Z3]] = [[None] * TRICKS for _ in range(N_CARDS)]
        for c in range(N_CARDS):
            acc = z3.BoolVal(False)
            for k in reversed(range(TRICKS)):
                after[c][k] = acc
                acc = z3.Or(played[c][k], acc)
        def of_suit(k: int, u: int, role: int) -> Z3:
            return z3.Or([pos[c][k][role] for c in range(N_CARDS) if suit(c) == u])

        led_suit = [[of_suit(k, u, LEAD) for u in range(4)] for k in range(TRICKS)]
        fol_suit = [[of_suit(k, u, FOLLOW) for u in range(4)] for k in range(TRICKS)]
        void = [z3.Or([z3.And(led_suit[k][u], z3.Not(fol_suit[k][u])) for u in range(4)]) for k in range(TRICKS)]
        heart_played = [z3.Or([played[c][k] for c in HEARTS]) for k in range(TRICKS)]
        # HEARTS-FOLLOW-1: a follower who does not follow holds no card of the suit led
        for k in range(TRICKS):
            for u in range(4):
                for c in range(N_CARDS):
                    if suit(c) == u and k < TRICKS - 1:
                        failed = z3.And(led_suit[k][u], z3.Not(fol_suit[k][u]), after[c][k])
                        state("HEARTS-FOLLOW-1", z3.Implies(failed, hold[c] == lead1[k]))
        # HEARTS-TRICK-1 / TRICK-2: the winner leads the next trick
        self.played, self.after = played, after
        self.follower_wins: list[Z3] = []
        for k in range(TRICKS):
            w = z3.Or([z3.And(pos[d][k][FOLLOW], z3.Or([pos[c][k][LEAD] for c in range(N_CARDS)
                                                         if c != d and beats(d, c, hearts_trump=rules.hearts_trump)]))
                       for d in range(N_CARDS)])
            self.follower_wins.append(drop.term("HEARTS-TRICK-1", w, f"follower_wins{k}"))
        self.winner1 = [z3.Xor(lead1[k], self.follower_wins[k]) for k in range(TRICKS)]
        for k in range(TRICKS - 1):
            state("HEARTS-TRICK-2", lead1[k + 1] == self.winner1[k])
        # HEARTS-BREAK-1: no heart lead before hearts are broken, unless only hearts remain;
        # HEARTS-BREAK-2: broken by a heart played (``void``: or by any failure to follow);
        # HEARTS-QUEEN-2 (``queen_breaks = yes``): or by the queen of spades played
        self.broken_before: list[Z3] = []
        self.only_hearts: list[Z3] = []
        for k in range(TRICKS):
            breaks = [heart_played[j] for j in range(k)]
            if rules.config.break_on is BreakOn.VOID:
                breaks += [void[j] for j in range(k)]
            if rules.config.queen_breaks is QueenBreaks.YES:
                queen = z3.Or([played[QUEEN_OF_SPADES][j] for j in range(k)])
                breaks.append(drop.term("HEARTS-QUEEN-2", queen, f"queen_broke{k}"))
            broken = drop.term("HEARTS-BREAK-2", z3.Or(breaks), f"broken{k}")
            only_hearts = z3.And([z3.Not(z3.And(hold[c] == lead1[k], z3.Or(played[c][k], after[c][k])))
                                  for c in NON_HEARTS])
            exception = only_hearts if rules.heart_lead_exception else z3.BoolVal(False)
            state("HEARTS-BREAK-1", z3.Implies(led_suit[k][HEARTS_SUIT], z3.Or(broken, exception)))
            self.broken_before.append(broken)
            self.only_hearts.append(only_hearts)
        # HEARTS-LEAD-1/2/3: the first leader and the first lead
        live = self.live = [z3.Not(d) for d in self.dead]
        two, four, six = LOW_CLUBS
        by2, by4 = live[two], z3.And(self.dead[two], live[four])
        by6 = z3.And(self.dead[two], self.dead[four])
        state("HEARTS-LEAD-1", z3.Implies(by2, lead1[0] == hold[two]))
        state("HEARTS-LEAD-2", z3.Implies(by4, lead1[0] == hold[four]))
        state("HEARTS-LEAD-2", z3.Implies(by6, lead1[0] == hold[six]))
        state("HEARTS-LEAD-1", z3.Implies(by2, pos[two][0][LEAD]))
        if rules.config.first_lead is FirstLead.LOWEST_CLUB:
            state("HEARTS-LEAD-3", z3.Implies(by4, pos[four][0][LEAD]))
            state("HEARTS-LEAD-3", z3.Implies(by6, pos[six][0][LEAD]))
        if rules.config.first_trick_points is FirstTrickPoints.NO_HEARTS:  # HEARTS-FIRST-1 variant
            for r, seat in ((LEAD, lead1[0]), (FOLLOW, z3.Not(lead1[0]))):
                has_other = z3.Or([z3.And(live[c], hold[c] == seat) for c in NON_HEARTS])
                state("HEARTS-FIRST-1", z3.Implies(z3.Or([pos[h][0][r] for h in HEARTS]), z3.Not(has_other)))
        # who took each card: the winner of its trick (HEARTS-TERM-4), nobody a dead card
        for c in range(N_CARDS):
            for k in range(TRICKS):
                C.append(z3.Implies(played[c][k], self.took[c] == self.winner1[k]))
            C.append(z3.Implies(self.dead[c], z3.Not(self.took[c])))
        self.taken = [{CARDS[c]: z3.And(live[c], self.took[c] == bool(p)) for c in range(N_CARDS)} for p in (0, 1)]
        self.dead_cards = {CARDS[c]: self.dead[c] for c in range(N_CARDS)}

    def leader_holds(self, k: int) -> list[Z3]:
        """Per card: the leader of trick ``k`` holds it before he leads."""
        return [z3.And(self.hold[c] == self.lead1[k], z3.Or(self.played[c][k], self.after[c][k])) for c in range(N_CARDS)]

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


def forced_club(dead: Collection[int]) -> int:
    """HEARTS-LEAD-2: the lowest live club of 2, 4, 6 (card index)."""
    return next(c for c in LOW_CLUBS if c not in dead)


def encoded_legal_cards(state: model.HeartsState, rules: Rules) -> frozenset[Card]:
    """The cards the Z3 legal-move predicates of ``rules`` allow in a concrete model state."""
    assert state.to_move is not None  # a position with plays to compare has a player to move
    seat = state.to_move.index
    first = state.tricks_played == 0
    if state.trick:
        table = _legal_table(rules, "follow", suit(INDEX[state.trick[0].card]), first)
    else:
        table = _legal_table(rules, "lead", forced_club({INDEX[c] for c in state.dead}) if first else None, first)
    env = {f"hand{c}": CARDS[c] in state.hands[seat] for c in range(N_CARDS)} | {"broken": state.hearts_broken}
    return frozenset(CARDS[c] for c, allowed in enumerate(table) if allowed(env))


@encoding_memo(maxsize=64)
def _legal_table(rules: Rules, kind: str, detail: int | None, first: bool) -> tuple[Compiled, ...]:
    """The compiled legal-move predicate of each card for a lead (``detail``: the forced club) or a
    follow (``detail``: the suit led)."""
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
