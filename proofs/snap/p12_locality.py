"""SNAP-P12-locality: the premises of SNAP-P9's small-model argument, checked on the model.

SNAP-P9 compares the Z3 encoding with the model on a bounded domain (a few cards, 2 and 3
players); what carries that to 52 cards and 12 players is that the rules look at little of a
position:

1. **Reads.** Legality, the successor and the ending read a card's rank only for the face-up
   tops and the Snap Pot's top (SNAP-MATCH-1, SNAP-MATCH-2), every other pile only through
   whether it is empty.
2. **Blocks.** A move takes at most one card on its own, from one end of a pile (a flip or a
   penalty card: the top face-down card, or the face-up pile turned over, SNAP-FLIP-3); every
   other card moves with its block, which stays together and in order (or reversed when turned
   over: SNAP-CALL-5, SNAP-TIE-1).

So a position's behaviour is fixed by its *skeleton* (which piles are empty, the ranks of the
read cards), and a large position's successor is a small one's with each block put back. Both
premises are tested on the model under the run's variant:

- **reads**: for each substitution of the unread cards (all but the face-up tops and the pot's
  top, so that any rank may sit under a top), the legal moves are the same, and every move's
  successor and outcome are the substitution applied to the original's;
- **blocks**: with every card distinct, each pile's inner block (without its top, and for a
  face-up pile without its bottom, which a turn-over takes) lies whole, in order or reversed,
  in one pile of the successor.

Positions: *exhaustively* every layout of at most ``exhaustive_cards`` cards over the piles of
each table in ``exhaustive_players`` (every phase and seat of a game under way), every pattern of
which read cards match the flipped card, and every choice of unread cards that do; and
``samples`` seeded *random* positions of 2 to 12 players and up to 52 distinct cards, each under
random substitutions. A model that reads a card below a top (a "Snap!" that compares the second
card, a pot matched by any of its cards) fails with two records, the same move from the position
and from its substitution, which the runner replays.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace

from cardcanon.model import snap as model
from cardcanon.model.cards import FULL_DECK, Card, Rank
from cardcanon.model.seats import Seat
from cardcanon.model.snap import Phase, SnapConfig, SnapState
from cardcanon.proofs.base import CheckResult, Run, Verdict
from cardcanon.proofs.records import snap_record

SUITS = tuple(dict.fromkeys(c.suit for c in FULL_DECK))  # in the deck's order


def check(run: Run) -> CheckResult:
    run.no_probe()
    bounds = run.bounds
    counts = {"exhaustive_positions": 0, "random_positions": 0, "substitutions": 0, "moves": 0}
    for n in bounds.get("exhaustive_players", [2, 3]):
        config = run.snap_config(players=int(n))
        for state, swaps in _small_positions(config, int(bounds.get("exhaustive_cards", 4))):
            run.budget.tick()
            counts["exhaustive_positions"] += 1
            found = _compare(config, state, swaps, counts)
            if found is not None:
                return found
    rng = random.Random(int(bounds.get("seed", 0)))
    low, high = (int(n) for n in bounds.get("random_players", [2, 12])[:2])
    for _ in range(int(bounds.get("samples", 300))):
        run.budget.tick()
        config = run.snap_config(players=rng.randint(low, high))
        sampled = random_position(config, rng, rng.randint(2, len(FULL_DECK)))
        if sampled is None:
            continue
        counts["random_positions"] += 1
        found = _compare(config, sampled, [random_substitution(sampled, rng) for _ in range(3)], counts)
        if found is not None:
            return found
    detail = (f"{counts['exhaustive_positions']} small positions (every layout of at most "
              f"{bounds.get('exhaustive_cards', 4)} cards, players {list(bounds.get('exhaustive_players', [2, 3]))}) "
              f"and {counts['random_positions']} random positions of 2 to 12 players and up to 52 cards: "
              f"{counts['substitutions']} substitutions of the unread cards change no legal move, successor or "
              f"outcome, and the {counts['moves']} moves keep every inner block whole and in order")
    return CheckResult(Verdict.PROVED, detail=detail, witness=detail, stats=counts, records=_witness(run))


def _witness(run: Run) -> tuple[Mapping[str, object], ...]:
    """A position with a card of the flipped rank under a face-up top: the model plays on by the tops."""
    config = run.snap_config(players=2)
    ace, king, queen = (Card.parse(c) for c in ("Ah", "Kh", "Qh"))
    state = SnapState(config, Phase.CALL, Seat(0), ((Card.parse("2c"),), (Card.parse("3c"),)),
                      ((ace,), (king, Card.parse("As"), queen)), (), Seat(0), 1)
    move = model.NoCall()
    return (snap_record(config, [move], model.apply(state, move), start=state,
                        label="no match: the second face-up card has the flipped rank, the top does not"),)


# ---- the comparison -------------------------------------------------------------------------------
def _compare(config: SnapConfig, state: SnapState, swaps: Sequence[Mapping[Card, Card]],
             counts: dict[str, int]) -> CheckResult | None:
    moves = model.legal_moves(state)
    for move in moves:
        counts["moves"] += 1
        after = model.apply(state, move)
        broken = _broken_block(state, after)
        if broken:
            return _counterexample(config, state, None, move, f"{broken} after {move}")
    for swap in swaps:
        counts["substitutions"] += 1
        other = substitute(state, swap)
        others = model.legal_moves(other)
        if others != moves:
            differ = next((m for m in (*moves, *others) if (m in moves) != (m in others)), None)
            return _counterexample(config, state, other, differ,
                                   "the legal moves change when cards under the tops change")
        for move in moves:
            if substitute(model.apply(state, move), swap) != model.apply(other, move):
                return _counterexample(config, state, other, move,
                                       f"{move} does otherwise when cards under the tops change")
    return None


def _counterexample(config: SnapConfig, state: SnapState, other: SnapState | None, move: model.Move | None,
                    what: str) -> CheckResult:
    records = []
    for start in (state, other):
        if start is None or move is None:
            continue
        if move in model.legal_moves(start):
            records.append(snap_record(config, [move], model.apply(start, move), start=start, label=what))
        else:  # the move the other position allows, refused here
            records.append(snap_record(config, [], start, start=start, rejects=move, label=what))
    return CheckResult(Verdict.COUNTEREXAMPLE, detail=f"{config.players} players: {what}", witness=what,
                       records=tuple(records))


def read_slots(state: SnapState) -> set[tuple[str, int, int]]:
    """The slots whose rank the rules may read: each face-up top and the pot's top."""
    slots = {("up", s, 0) for s, pile in enumerate(state.up) if pile}
    return slots | ({("pot", 0, 0)} if state.pot else set())


def _slots(state: SnapState) -> Iterator[tuple[tuple[str, int, int], Card]]:
    for name, piles in (("down", state.down), ("up", state.up), ("pot", (state.pot,))):
        for s, pile in enumerate(piles):
            for i, card in enumerate(pile):
                yield (name, s, i), card


def substitute(state: SnapState, swap: Mapping[Card, Card]) -> SnapState:
    """The position with each card replaced by ``swap``'s card (the others kept)."""
    def pile(cards: tuple[Card, ...]) -> tuple[Card, ...]:
        return tuple(swap.get(c, c) for c in cards)

    return replace(state, down=tuple(pile(p) for p in state.down), up=tuple(pile(p) for p in state.up),
                   pot=pile(state.pot))


def _broken_block(before: SnapState, after: SnapState) -> str:
    """"" when every inner block of ``before`` lies whole, in order or reversed, in one pile of
    ``after``; else which block does not."""
    piles = [*after.down, *after.up, after.pot]
    inner = [("face-down", s, p[1:]) for s, p in enumerate(before.down)]
    inner += [("face-up", s, p[1:-1]) for s, p in enumerate(before.up)] + [("pot", 0, before.pot[1:])]
    for where, s, block in inner:
        if len(block) < 2:
            continue
        if not any(_contains(p, block) or _contains(p, block[::-1]) for p in piles):
            return f"the {where} pile of player {s + 1} is broken up"
    return ""


def _contains(pile: tuple[Card, ...], block: tuple[Card, ...]) -> bool:
    return any(pile[i:i + len(block)] == block for i in range(len(pile) - len(block) + 1))


# ---- the positions --------------------------------------------------------------------------------
def _in_game(state: SnapState) -> bool:
    holders = [s for s in range(state.config.players) if state.down[s] or state.up[s]]
    if len(holders) < 2 or state.turn is None:
        return False
    if state.phase is Phase.FLIP:
        return state.turn.index in holders
    return bool(state.up[state.turn.index])


def _layouts(zones: int, cards: int) -> Iterator[tuple[int, ...]]:
    for total in range(2, cards + 1):
        for cut in itertools.combinations(range(total + zones - 1), zones - 1):
            edges = (-1, *cut, total + zones - 1)
            yield tuple(edges[i + 1] - edges[i] - 1 for i in range(zones))


def _small_positions(config: SnapConfig, cards: int) -> Iterator[tuple[SnapState, list[dict[Card, Card]]]]:
    """Every layout of at most ``cards`` cards, phase and seat, and every pattern of matching read
    cards; the unread cards are of other ranks, and each substitution gives some of them the
    flipped card's rank."""
    n = config.players
    flipped_rank, other_ranks = Rank.ACE, [r for r in Rank if r is not Rank.ACE]
    for lengths in _layouts(2 * n + 1, cards):
        for phase, turn in itertools.product((Phase.FLIP, Phase.CALL), range(n)):
            slots = [(name, s, i) for name, s, count in
                     [("down", s, lengths[s]) for s in range(n)] + [("up", s, lengths[n + s]) for s in range(n)]
                     + [("pot", 0, lengths[2 * n])] for i in range(count)]
            probe_state = _fill(config, phase, turn, lengths, {slot: FULL_DECK[k] for k, slot in enumerate(slots)})
            if not _in_game(probe_state):
                continue
            flipped_slot = {("up", turn, 0)} if phase is Phase.CALL else set()
            read = read_slots(probe_state)
            reads = sorted(read - flipped_slot)
            unread = [slot for slot in slots if slot not in read]
            for pattern in itertools.product((True, False), repeat=len(reads)):
                ace = iter(Card(flipped_rank, suit) for suit in SUITS)
                fresh = iter(Card(rank, suit) for rank in other_ranks for suit in SUITS)
                chosen: dict[tuple[str, int, int], Card] = {}
                if phase is Phase.CALL:
                    chosen[("up", turn, 0)] = next(ace)
                for slot, match in zip(reads, pattern):
                    chosen[slot] = next(ace) if match and phase is Phase.CALL else next(fresh)
                if phase is Phase.FLIP and not all(pattern):
                    continue  # nothing is matched in the flip phase: one pattern is enough
                spare = list(ace)  # the aces left: the substitutes of the unread cards
                for slot in unread:
                    chosen[slot] = next(fresh)
                state = _fill(config, phase, turn, lengths, chosen)
                swaps = [dict(zip((chosen[u] for u in subset), spare))
                         for size in range(1, min(len(unread), len(spare)) + 1)
                         for subset in itertools.combinations(unread, size)]
                yield state, swaps


def _fill(config: SnapConfig, phase: Phase, turn: int, lengths: Sequence[int],
          cards: Mapping[tuple[str, int, int], Card]) -> SnapState:
    n = config.players
    down = tuple(tuple(cards[("down", s, i)] for i in range(lengths[s])) for s in range(n))
    up = tuple(tuple(cards[("up", s, i)] for i in range(lengths[n + s])) for s in range(n))
    pot = tuple(cards[("pot", 0, i)] for i in range(lengths[2 * n]))
    return SnapState(config, phase, Seat(0), down, up, pot, Seat(turn), 1)


def random_position(config: SnapConfig, rng: random.Random, cards: int) -> SnapState | None:
    """A random position of a game under way: ``cards`` distinct cards over the piles."""
    n = config.players
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    zones: list[list[Card]] = [[] for _ in range(2 * n + 1)]
    for card in deck[:cards]:
        zones[rng.randrange(2 * n + 1)].append(card)
    phase = rng.choice((Phase.FLIP, Phase.CALL))
    turn = rng.randrange(n)
    if phase is Phase.CALL and zones[n + turn] and rng.random() < 0.5:  # often a match, to call on
        rank = zones[n + turn][0].rank
        same = [c for c in FULL_DECK if c.rank == rank and c not in deck[:cards]]
        target = rng.choice([z for z in range(n, 2 * n + 1) if z != n + turn])
        if same and zones[target]:
            zones[target][0] = same[0]
    state = SnapState(config, phase, Seat(0), tuple(tuple(z) for z in zones[:n]),
                      tuple(tuple(z) for z in zones[n:2 * n]), tuple(zones[2 * n]), Seat(turn), 1)
    return state if _in_game(state) else None


def random_substitution(state: SnapState, rng: random.Random) -> dict[Card, Card]:
    """Replace the unread cards by a random choice of the unread and unused cards (often of the
    flipped card's rank, where a misreading rule would notice)."""
    reads = read_slots(state)
    unread = [card for slot, card in _slots(state) if slot not in reads]
    used = {card for _, card in _slots(state)}
    pool = [c for c in FULL_DECK if c not in used] + unread
    flipped = state.up[state.player.index][0] if state.phase is Phase.CALL and state.up[state.player.index] else None
    if flipped is not None:
        pool.sort(key=lambda c: (c.rank != flipped.rank, rng.random()))
    else:
        rng.shuffle(pool)
    return dict(zip(unread, pool))
