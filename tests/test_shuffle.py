"""The portable shuffle: golden values another language can reproduce (model/shuffle.py)."""

from collections import Counter

import pytest

from cardcanon.model.cards import FULL_DECK
from cardcanon.model.shuffle import SplitMix64, shuffle

pytestmark = pytest.mark.rules("SNAP-DEAL-2", "HEARTS-DEAL-2")


def test_splitmix64_matches_the_published_reference_sequence():
    # the first outputs of SplitMix64 seeded with 0, as given by its reference implementation
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_golden_shuffles_of_the_canonical_deck():
    assert " ".join(map(str, shuffle(FULL_DECK, 0)[:10])) == "9s Qh Tc 3s 3d Kd 7s Jc 4d 2c"
    assert " ".join(map(str, shuffle(FULL_DECK, 2026)[:10])) == "9h Ah 5d 6s Td 2h 9c 9d 2d Ts"


def test_golden_bounded_draws():
    rng = SplitMix64(1234567)
    assert [rng.below(n) for n in (2, 3, 52, 10**18)] == [1, 1, 3, 593380528125082431]


def test_shuffle_equals_fisher_yates_over_below():
    """The inlined shuffle is exactly the documented algorithm, and leaves the stream where it would."""
    for seed in range(50):
        fast, slow = SplitMix64(seed), SplitMix64(seed)
        items = list(range(52))
        for i in range(len(items) - 1, 0, -1):
            j = slow.below(i + 1)
            items[i], items[j] = items[j], items[i]
        assert fast.shuffled(range(52)) == tuple(items)
        assert fast.next() == slow.next()


def test_rejection_removes_modulo_bias():
    # with bound 3 * 2**62 a plain modulo would give 0 and 1 twice the weight of 2; rejection does not
    bound = 3 * 2**62
    rng = SplitMix64(99)
    thirds = Counter(rng.below(bound) // 2**62 for _ in range(3000))
    assert all(800 < thirds[k] < 1200 for k in range(3)), thirds


def test_shuffle_is_a_permutation_and_depends_on_the_seed():
    a, b = shuffle(FULL_DECK, 1), shuffle(FULL_DECK, 2)
    assert sorted(a) == sorted(FULL_DECK) and a != b
    assert shuffle(FULL_DECK, 1) == a


def test_bad_seed_and_bound_are_refused():
    with pytest.raises(TypeError):
        SplitMix64("7")
    with pytest.raises(ValueError):
        SplitMix64(1).below(0)
