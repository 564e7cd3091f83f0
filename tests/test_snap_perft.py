"""perft: the number of legal move sequences from fixed positions, to small depths.

The golden counts pin the move generator. Each one is also checked node by node against the
count the rules give independently of ``legal_moves``: in a call window with ``m`` players in
the game, 1 no-call + ``m`` callers x the table's kinds + for each correct kind (no index card)
the ``2**m - m - 1`` ties of two or more players.
"""

import pytest

from cardcanon.model.seats import Seat
from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.snap import Flip, Phase, SnapConfig, apply, legal_moves, new_game, sample_deal
from cardcanon.model.snap_text import make_state


def expected_count(state) -> int:
    """The rules' count of call events, reading the table directly."""
    if state.phase is Phase.OVER:
        return 0
    if state.phase is Phase.FLIP:
        return 1
    n = state.config.players
    holders = [s for s in range(n) if state.down[s] or state.up[s]]
    rank = state.up[state.turn.index][0].rank
    piles = any(state.up[s] and state.up[s][0].rank == rank for s in range(n) if s != state.turn.index)
    pot = bool(state.pot) and state.pot[0].rank == rank
    m = len(holders)
    if state.config.index_card:
        return 1 + m
    return 1 + 2 * m + (int(piles) + int(pot)) * (2**m - m - 1)


def perft(state, depth: int) -> int:
    if depth == 0:
        return 1
    moves = legal_moves(state)
    assert len(moves) == expected_count(state) == len(set(moves))
    return sum(perft(apply(state, m), depth - 1) for m in moves)


def dealt(players: int, seed: int, index_card: bool = False):
    config = SnapConfig(players=players, index_card=index_card)
    return apply(new_game(config), sample_deal(config, SplitMix64(seed)))


GOLDEN = [
    ("2 players, seed 1", lambda: dealt(2, 1), [1, 1, 5, 5, 25, 25, 125, 125, 625]),
    ("2 players, seed 9", lambda: dealt(2, 9), [1, 1, 5, 5, 28, 28, 140, 140, 700, 700, 3674]),
    ("3 players, seed 2", lambda: dealt(3, 2), [1, 1, 7, 7, 49, 49, 443]),
    ("4 players, seed 3", lambda: dealt(4, 3), [1, 1, 9, 9, 81, 81, 1268]),
    ("3 players, index card, seed 4", lambda: dealt(3, 4, True), [1, 1, 4, 4, 16, 16, 64, 64, 256]),
    ("pot and pile matches", lambda: make_state(["7c 2c 9c", "7d 2d", "9h 7s"], ["", "2h", "9s"], "7h 3h"),
     [1, 1, 11, 11, 117, 117, 943, 943, 7037]),
    ("index card, players run out", lambda: make_state(["7c 2c 9c", "7d 2d", "9h 7s"], ["", "2h", "9s"],
                                                       index_card=True), [1, 1, 4, 4, 16, 16, 64, 64, 243]),
]


@pytest.mark.rules("SNAP-TURN-1", "SNAP-FLIP-1", "SNAP-CALL-2", "SNAP-CALL-3", "SNAP-TIE-1", "SNAP-POT-2",
                   "SNAP-POT-3", "SNAP-INDEX-1", "SNAP-OUT-1")
@pytest.mark.parametrize("name, start, counts", GOLDEN, ids=[g[0] for g in GOLDEN])
def test_perft(name, start, counts):
    state = start()
    assert [perft(state, d) for d in range(len(counts))] == counts


@pytest.mark.rules("SNAP-TURN-1")
def test_first_flip_is_forced():
    state = dealt(5, 11)
    assert legal_moves(state) == (Flip(Seat((state.dealer.index + 1) % 5)),)
