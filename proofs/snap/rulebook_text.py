"""The calling policies, the seeded deal, the ending labels and what a call window decides as
the rulebook's text states them (SNAP-SEED-1, SNAP-SEED-2, SNAP-POLICY-1 to SNAP-POLICY-5,
SNAP-END-5; SNAP-MATCH-1, SNAP-MATCH-2, SNAP-CALL-2, SNAP-PEN-1, SNAP-PEN-2, SNAP-TURN-2),
written apart from the reference model: the checks compare the model (and the engine, and the
terms derived from the model) with these answers.

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


# ---- what a call window decides, read from the piles ---------------------------------------------
# The second opinion on the terms derived from the model (proofs/snap/derived.py): SNAP-P9 compares them.
Piles = Sequence[Sequence[Card]]


def holds(down: Piles, up: Piles, seat: int) -> bool:
    """SNAP-TERM-4: a card in his face-down pile or his face-up pile."""
    return bool(down[seat]) or bool(up[seat])


def matched_piles(up: Piles, flipper: int) -> tuple[int, ...]:
    """SNAP-MATCH-1, SNAP-MATCH-2: the other players whose face-up top has the flipped card's
    rank (suits ignored), clockwise from the flipper."""
    n, card = len(up), up[flipper][0]
    return tuple((flipper + k) % n for k in range(1, n) if up[(flipper + k) % n]
                 and up[(flipper + k) % n][0].rank == card.rank)


def pot_matched(up: Piles, pot: Sequence[Card], flipper: int) -> bool:
    """SNAP-MATCH-2: the flipped card has the rank of the Snap Pot's top card."""
    return bool(pot) and pot[0].rank == up[flipper][0].rank


def correct_calls(piles: bool, pot: bool, index_card: bool) -> tuple[CallKind, ...]:
    """SNAP-PEN-1 read the other way (SNAP-TERM-6): "Snap!" when a pile is matched, "Snap Pot!"
    when the pot is, a hand on the index card (SNAP-INDEX-1) when either is."""
    if index_card:
        return (CallKind.HAND,) if piles or pot else ()
    return tuple(k for k, ok in ((CallKind.SNAP, piles), (CallKind.SNAP_POT, pot)) if ok)


def may_call(down: Piles, up: Piles, seat: int) -> bool:
    """SNAP-CALL-2, SNAP-OUT-1: any player who holds cards, and nobody else."""
    return holds(down, up, seat)


def penalty_recipient(down: Piles, up: Piles, flipper: int, offender: int) -> int:
    """SNAP-PEN-1: a wrong caller pays the flipper; SNAP-PEN-2: the flipper pays the nearest
    player to his right (counter-clockwise) who holds cards."""
    if offender != flipper:
        return flipper
    n = len(down)
    return next((flipper - k) % n for k in range(1, n) if holds(down, up, (flipper - k) % n))


def next_flipper(down: Piles, up: Piles, flipper: int, winner: int | None, winner_flips: bool) -> int:
    """SNAP-TURN-2 with SNAP-OUT-1: the next player clockwise from the flipper who holds cards
    (the flipper himself if nobody else does); with ``next_turn = winner`` the winner of a
    correct call."""
    if winner is not None and winner_flips:
        return winner
    n = len(down)
    return next((flipper + k) % n for k in range(1, n + 1) if holds(down, up, (flipper + k) % n))


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
        return correct_calls(bool(self.matched), self.pot_matched, self.index_card)

    @property
    def wrong(self) -> tuple[CallKind, ...]:
        table = (CallKind.HAND,) if self.index_card else (CallKind.SNAP, CallKind.SNAP_POT)
        return tuple(k for k in table if k not in self.correct)


def window(state: SnapState) -> Window:
    """The call window of a position in the call phase (SNAP-TERM-5: two cards match by rank)."""
    n, f = state.config.players, state.player.index
    holders = tuple(i for i in range(n) if holds(state.down, state.up, i))
    return Window(f, holders, matched_piles(state.up, f), pot_matched(state.up, state.pot, f), state.config.index_card)


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
