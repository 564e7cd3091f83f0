"""Perft-style golden counts: the number of legal play sequences from fixed seeded deals.

Each start position is the first hand of ``play_match(seed, ...)``: ``SplitMix64(seed)`` draws
the dealer, then the deal. ``perft(state, d)`` counts the sequences of ``d`` legal plays.

How the golden numbers were computed: once, with this file's ``perft`` over the reference
model, and independently with ``naive_perft`` below, a separate from-scratch implementation
of the rules that matter in the first four tricks (HEARTS-DEAL-2, LEAD-1/2/3, FOLLOW-1,
BREAK-1/2, TRICK-1/2) on plain card strings; the two agreed at every depth. The test checks
the model against the hard-coded numbers, and the naive counter against the model up to
depth 4 (depth 8 under ``-m slow``).
"""

from __future__ import annotations

import pytest

from cardcanon.model.hearts import (
    DECK, FirstLead, HeartsConfig, apply, legal_moves, new_game, sample_chance,
)
from cardcanon.model.shuffle import SplitMix64

RULES = ("HEARTS-DEAL-2", "HEARTS-LEAD-1", "HEARTS-LEAD-2", "HEARTS-LEAD-3", "HEARTS-FOLLOW-1", "HEARTS-BREAK-1",
         "HEARTS-BREAK-2", "HEARTS-TRICK-1", "HEARTS-TRICK-2")

# (seed, first_lead) -> counts for depths 1..8. Seed 1 has the 2 of clubs dead (HEARTS-LEAD-2),
# and its ``free`` row shows HEARTS-LEAD-3's variation.
GOLDEN = {
    (1, "lowest-club"): (1, 3, 27, 72, 547, 1356, 8946, 19656),
    (1, "free"): (9, 29, 251, 684, 5235, 12840, 85612, 195912),
    (2, "lowest-club"): (1, 3, 27, 90, 770, 2196, 16588, 42496),
    (3, "lowest-club"): (1, 3, 27, 72, 576, 1356, 9492, 22020),
}


def start(seed: int, config: HeartsConfig):
    rng = SplitMix64(seed)
    state = new_game(config)
    state = apply(state, sample_chance(state, rng))
    return apply(state, sample_chance(state, rng))


def perft(state, depth: int) -> int:
    moves = legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(perft(apply(state, move), depth - 1) for move in moves)


# --- an independent implementation, on card strings such as "Qs" ---------------------------
RANKS = "2468TQA"


def naive_start(seed: int):
    rng = SplitMix64(seed)
    dealer = rng.below(2)
    order = [str(card) for card in rng.shuffled(DECK)]
    hands = {0: [], 1: []}
    for k, card in enumerate(order[1:27]):
        hands[(1 - dealer) if k % 2 == 0 else dealer].append(card)
    dead = [order[0], order[27]]
    club = next(card for card in ("2c", "4c", "6c") if card not in dead)
    leader = 0 if club in hands[0] else 1
    return {"hands": hands, "trick": [], "to_move": leader, "broken": False, "first": club}


def naive_legal(s, free: bool) -> list[str]:
    hand = s["hands"][s["to_move"]]
    if s["trick"]:
        suited = [card for card in hand if card[1] == s["trick"][0][1][1]]
        return suited or list(hand)
    if s["first"] is not None and (not free or s["first"] == "2c"):
        return [s["first"]]
    non_hearts = [card for card in hand if card[1] != "h"]
    return list(hand) if s["broken"] or not non_hearts else non_hearts


def naive_apply(s, card: str):
    player = s["to_move"]
    hands = {seat: [c for c in cards if c != card] for seat, cards in s["hands"].items()}
    broken = s["broken"] or card[1] == "h"
    if not s["trick"]:
        return {"hands": hands, "trick": [(player, card)], "to_move": 1 - player, "broken": broken, "first": None}
    (lead_player, lead), follow = s["trick"][0], card
    if follow[1] == lead[1]:
        follower_wins = RANKS.index(follow[0]) > RANKS.index(lead[0])
    else:
        follower_wins = follow[1] == "h"
    winner = player if follower_wins else lead_player
    return {"hands": hands, "trick": [], "to_move": winner, "broken": broken, "first": None}


def naive_perft(s, depth: int, free: bool) -> int:
    moves = naive_legal(s, free)
    if depth == 1:
        return len(moves)
    return sum(naive_perft(naive_apply(s, card), depth - 1, free) for card in moves)


@pytest.mark.rules(*RULES)
@pytest.mark.parametrize("seed, first_lead", sorted(GOLDEN))
def test_perft_golden_counts(seed, first_lead):
    state = start(seed, HeartsConfig(first_lead=FirstLead(first_lead)))
    depths = range(1, 7)  # depths 7 and 8 under -m slow
    assert tuple(perft(state, d) for d in depths) == GOLDEN[seed, first_lead][: len(depths)]


@pytest.mark.rules(*RULES)
@pytest.mark.parametrize("seed, first_lead", sorted(GOLDEN))
def test_perft_agrees_with_naive_implementation(seed, first_lead):
    state = start(seed, HeartsConfig(first_lead=FirstLead(first_lead)))
    naive = naive_start(seed)
    free = first_lead == "free"
    assert [perft(state, d) for d in range(1, 5)] == [naive_perft(naive, d, free) for d in range(1, 5)]


@pytest.mark.slow
@pytest.mark.rules(*RULES)
@pytest.mark.parametrize("seed, first_lead", sorted(GOLDEN))
def test_perft_deep(seed, first_lead):
    state = start(seed, HeartsConfig(first_lead=FirstLead(first_lead)))
    naive = naive_start(seed)
    counts = tuple(perft(state, d) for d in (7, 8))
    assert counts == GOLDEN[seed, first_lead][6:8]
    assert counts[-1] == naive_perft(naive, 8, first_lead == "free")
