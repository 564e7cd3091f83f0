"""The calling policies, the seeded deal and the ending labels as the rulebook's text states
them (SNAP-SEED-1, SNAP-SEED-2, SNAP-POLICY-1 to SNAP-POLICY-5, SNAP-END-5), written apart from
the reference model: the checks compare the model (and the engine) with these answers.

Nothing here imports the model's rule functions: a position is read from its piles, a random
number from this module's own generator. Cards, seats and moves are the model's types only so
that answers can be compared with the model's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from cardcanon.model.cards import Card, Rank, Suit
from cardcanon.model.seats import Seat
from cardcanon.model.snap import Call, CallKind, Move, NoCall, SnapState, Tie

T = TypeVar("T")
_MASK = (1 << 64) - 1


class Generator:
    """SNAP-SEED-1, step by step as the text says."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def draw(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        t = (1 << 64) % n
        while True:
            x = self.draw()
            if x >= t:
                return x % n

    def shuffle(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def succeeds(self, rate: float) -> bool:
        """SNAP-POLICY-1: the number drawn is less than RATE times 2^64 (a double, truncated)."""
        return self.draw() < int(rate * float(1 << 64))


def canonical_deck() -> list[Card]:
    """SNAP-DECK-1 in SNAP-SEED-2's order: clubs, diamonds, hearts, spades, each from 2 to ace."""
    suits = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
    return [Card(rank, suit) for suit in suits for rank in sorted(Rank, key=lambda r: r.value)]


@dataclass(frozen=True)
class SeededDeal:
    dealer: int
    order: tuple[Card, ...]  # position 0: the top of the deck
    piles: tuple[tuple[Card, ...], ...]  # face-down piles, top first
    first: int  # who flips first


def deal_from_seed(players: int, seed: int) -> tuple[SeededDeal, Generator]:
    """SNAP-SEED-2 steps 1 to 5; the generator is returned for the policy to go on drawing."""
    rng = Generator(seed)
    dealer = rng.below(players)
    order = tuple(rng.shuffle(canonical_deck()))
    dealt: list[list[Card]] = [[] for _ in range(players)]
    for i, card in enumerate(order):
        dealt[(dealer + 1 + i) % players].append(card)
    piles = tuple(tuple(reversed(p)) for p in dealt)  # the card dealt last on top
    return SeededDeal(dealer, order, piles, (dealer + 1) % players), rng


# ---- a call window, read from the piles ---------------------------------------------------------
@dataclass(frozen=True)
class Window:
    """What the text needs of a call window: who flipped, who holds cards, what is matched."""

    flipper: int
    holders: tuple[int, ...]  # seat order
    matched: tuple[int, ...]  # other players' matched piles, clockwise from the flipper
    pot_matched: bool
    index_card: bool

    @property
    def correct(self) -> tuple[CallKind, ...]:
        if self.index_card:
            return (CallKind.HAND,) if self.matched or self.pot_matched else ()
        return tuple(k for k, ok in ((CallKind.SNAP, bool(self.matched)), (CallKind.SNAP_POT, self.pot_matched)) if ok)

    @property
    def wrong(self) -> tuple[CallKind, ...]:
        table = (CallKind.HAND,) if self.index_card else (CallKind.SNAP, CallKind.SNAP_POT)
        return tuple(k for k in table if k not in self.correct)


def window(state: SnapState) -> Window:
    """The call window of a position in the call phase (SNAP-TERM-5: two cards match by rank)."""
    n, f = state.config.players, state.player.index
    card = state.up[f][0]
    holders = tuple(i for i in range(n) if state.down[i] or state.up[i])
    matched = tuple((f + k) % n for k in range(1, n) if state.up[(f + k) % n]
                    and state.up[(f + k) % n][0].rank == card.rank)
    pot = bool(state.pot) and state.pot[0].rank == card.rank
    return Window(f, holders, matched, pot, state.config.index_card)


def _flipper_call(w: Window) -> Move:
    """SNAP-POLICY-2 (SNAP-POLICY-1: "Snap Pot!" when both are correct)."""
    if not w.correct:
        return NoCall()
    kind = CallKind.SNAP_POT if CallKind.SNAP_POT in w.correct else w.correct[0]
    return Call(Seat(w.flipper), kind)


def choose(policy: str, w: Window, rng: Generator) -> Move:
    """The event the named policy chooses in this window, drawing from ``rng`` as the text says."""
    if policy == "flipper-first":
        return _flipper_call(w)
    if policy == "owner-first":  # SNAP-POLICY-3
        if not w.correct:
            return NoCall()
        if CallKind.SNAP_POT in w.correct:
            return Call(Seat(w.flipper), CallKind.SNAP_POT)
        if w.matched:
            return Call(Seat(w.matched[0]), w.correct[0])
        return Call(Seat(w.flipper), w.correct[0])
    head, _, rate_text = policy.partition(":")
    rate = float(rate_text)
    if head == "ties":  # SNAP-POLICY-4
        call = _flipper_call(w)
        if not isinstance(call, Call) or w.index_card or not rng.succeeds(rate):
            return call
        k = rng.below(len(w.holders) - 1)
        tied = rng.shuffle(w.holders)[:2 + k]
        return Tie(frozenset(Seat(s) for s in tied), call.kind)
    if head == "errors":  # SNAP-POLICY-5
        if w.wrong and rng.succeeds(rate):
            caller = w.holders[rng.below(len(w.holders))]
            return Call(Seat(caller), w.wrong[rng.below(len(w.wrong))])
        return _flipper_call(w)
    raise ValueError(f"no such policy in the rulebook: {policy!r}")


# ---- SNAP-END-5: how the analysis labels an ending ------------------------------------------------
def ending_label(state: SnapState) -> str:
    """``no-cards``, ``all-cards``, or for a pot left over ``stuck-pot`` / ``winnable-pot``:
    whether a card of the pot's top rank is among every card the holder holds, face down or up."""
    held = [c for i in range(state.config.players) for c in state.down[i] + state.up[i]]
    if not held:
        return "no-cards"
    if not state.pot:
        return "all-cards"
    return "winnable-pot" if any(c.rank == state.pot[0].rank for c in held) else "stuck-pot"
