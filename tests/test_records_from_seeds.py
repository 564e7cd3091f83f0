"""Every committed seeded Snap record is dealt from its seed by the text of SNAP-SEED-1 and
SNAP-SEED-2 alone: the generator, the deck's listing, the shuffle and the dealer are written
here from the rulebook's words, not taken from the model."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RECORDS = sorted((ROOT / "results" / "analysis" / "records").glob("snap-*.json.gz"))
MASK = 2**64 - 1
SUITS = "cdhs"  # clubs, diamonds, hearts, spades
RANKS = "23456789TJQKA"  # from the 2 up to the ace

pytestmark = pytest.mark.rules("SNAP-SEED-1", "SNAP-SEED-2")


class Generator:
    """SNAP-SEED-1: SplitMix64 on unsigned 64-bit integers, its state starting as the seed."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK

    def draw(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = ((self.state ^ (self.state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        t = 2**64 % n
        while True:
            x = self.draw()
            if x >= t:
                return x % n

    def shuffle(self, items: list[str]) -> list[str]:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items


def listed_deck(cards: int) -> list[str]:
    """SNAP-SEED-2, step 2: the rulebook's 52 cards suit by suit; a smaller deck, the lowest
    ranks of every suit, rank by rank."""
    if cards == 52:
        return [rank + suit for suit in SUITS for rank in RANKS]
    return [rank + suit for rank in RANKS[:cards // 4] for suit in SUITS]


def read(path: Path) -> dict:
    """A committed record (gzip-compressed JSON)."""
    return json.loads(gzip.decompress(path.read_bytes()).decode("utf-8"))


def dealt(seed: int, players: int, cards: int) -> tuple[int, list[str]]:
    """SNAP-SEED-2, steps 1 and 2: the dealer, drawn first, then the shuffled deck."""
    generator = Generator(seed)
    dealer = generator.below(players)
    return dealer, generator.shuffle(listed_deck(cards))


def test_there_are_records_of_every_deck_size():
    sizes = {len(read(p)["config"].get("deck", "x" * 52)) for p in RECORDS}
    assert sizes >= {24, 28, 32, 36, 40, 44, 48, 52}, sizes


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name.removesuffix(".json.gz"))
def test_the_record_is_dealt_from_its_seed_by_the_text(path):
    record = read(path)
    assert isinstance(record.get("seed"), int), f"{path.name}: no seed"
    config, deal = record["config"], record["moves"][0]
    cards = len(deal["order"])
    if "deck" in config:  # a smaller deck is recorded in the order SNAP-SEED-2 lists it
        assert config["deck"] == listed_deck(cards), f"{path.name}: the deck is not listed as SNAP-SEED-2 says"
    assert deal["move"] == "deal"
    assert (deal["dealer"], deal["order"]) == dealt(record["seed"], config["players"], cards), path.name


def test_the_text_matches_the_published_golden_shuffle():
    """The text's procedure reproduces the model's golden values (tests/test_shuffle.py)."""
    assert Generator(0).draw() == 0xE220A8397B1DCDAF
    assert " ".join(Generator(0).shuffle(listed_deck(52))[:10]) == "9s Qh Tc 3s 3d Kd 7s Jc 4d 2c"
