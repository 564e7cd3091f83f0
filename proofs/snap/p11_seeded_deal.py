"""SNAP-P11: the table and the deal from a seed, against the rulebook's text.

- SNAP-PLAYERS-1: a table is accepted exactly for the numbers of players the rulebook names
  (one fewer and one more are refused);
- SNAP-DECK-1: every seeded deal is the 52 cards of a standard deck, each once, and a deal with
  a card twice or missing is refused;
- SNAP-SEED-1, SNAP-SEED-2, SNAP-DEAL-1: for 2 to 12 players and a range of seeds, the dealer,
  the shuffled order, the face-down piles, the first player and the generator's state after the
  deal are those of :mod:`cardcanon.proofs.snap.rulebook_text` (the text, written apart from the model),
  and every seat is drawn as dealer (where there are at least 5 seeds a seat).

Records: the seeded deals (each with its seed, which the runner checks again), and the refused
deals (``rejects``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from cardcanon.model import snap as model
from cardcanon.model.errors import IllegalMoveError
from cardcanon.model.seats import Seat, seats_text
from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.snap import Deal, SnapConfig
from cardcanon.proofs.base import CheckResult, Run, Verdict, snap_config
from cardcanon.proofs.records import Record, snap_record
from cardcanon.proofs.rulebook import value
from cardcanon.proofs.snap import rulebook_text as snap_text


def table_problem(variant: Mapping[str, str], low: int, high: int) -> tuple[str, Record] | None:
    """SNAP-PLAYERS-1: tables of ``low - 1`` and ``high + 1`` players are refused, the rest accepted."""
    for n in range(max(1, low - 1), high + 2):
        try:
            config = snap_config(variant, players=n)
        except ValueError:
            if low <= n <= high:
                return f"a table of {n} players is refused", _deal_record(snap_config(variant), 0, "seed 0")
            continue
        if not low <= n <= high:
            label = f"a table of {n} players is accepted; the rulebook says {low} to {high}"
            return label, _deal_record(config, 0, label)
    return None


def _deal_record(config: SnapConfig, seed: int, label: str) -> Record:
    deal = model.sample_deal(config, SplitMix64(seed))
    return snap_record(config, (deal,), model.apply(model.new_game(config), deal), label=label, seed=seed)


def deal_problem(config: SnapConfig, seed: int) -> str | None:
    """SNAP-DECK-1, SNAP-SEED-1, SNAP-SEED-2, SNAP-DEAL-1: the model's seeded deal is the text's."""
    rng = SplitMix64(seed)
    deal = model.sample_deal(config, rng)
    text, text_rng = snap_text.deal_from_seed(config.players, seed)
    if Counter(deal.order) != Counter(snap_text.canonical_deck()):
        return "the deal is not the 52 cards of a standard deck, each once"
    if deal.dealer.index != text.dealer:
        return f"the dealer is {deal.dealer}, the text draws seat {text.dealer}"
    if deal.order != text.order:
        return "the shuffled order is not the text's"
    if rng.state != text_rng.state:
        return "the deal draws other numbers than the text"
    state = model.apply(model.new_game(config), deal)
    if state.down != text.piles or state.turn != Seat(text.first):
        return "the face-down piles or the first player are not the text's"
    return None


def check(run: Run) -> CheckResult:
    run.no_probe()
    variant, bounds = run.variant, run.bounds
    low, high = value("snap", "SNAP-PLAYERS-1", "min_players"), value("snap", "SNAP-PLAYERS-1", "max_players")
    found = table_problem(variant, low, high)
    if found is not None:
        return CheckResult(Verdict.COUNTEREXAMPLE, found[0], witness=found[0], records=(found[1],))
    seeds = int(bounds.get("seeds", 60))
    records: list[Record] = []
    stats: dict[str, Any] = {"deals": 0, "tables": high - low + 1}
    for n in range(low, high + 1):
        config = snap_config(variant, players=n)
        dealers: set[int] = set()
        for seed in range(seeds):
            problem = deal_problem(config, seed)
            label = f"{n} players, seed {seed}" + (f": {problem}" if problem else "")
            record = _deal_record(config, seed, label)
            stats["deals"] += 1
            if problem:
                return CheckResult(Verdict.COUNTEREXAMPLE, label, witness=label, records=(record,), stats=stats)
            dealers.add(record["moves"][0]["dealer"])
            if seed == 0:
                records.append(record)
        if len(dealers) != n and seeds >= 5 * n:  # every seat drawn, given 5 seeds a seat
            never = seats_text([Seat(i) for i in set(range(n)) - dealers])
            return CheckResult(Verdict.COUNTEREXAMPLE, f"{n} players: in {seeds} seeds no deal by {never}", stats=stats)
    config = snap_config(variant, players=low)
    start = model.new_game(config)
    order = snap_text.canonical_deck()  # SNAP-DECK-1: deals that are not the whole deck each card once
    for what, cards in (("a card twice, another missing", order[:-1] + order[:1]), ("one card short", order[:-1])):
        deal = Deal(Seat(0), tuple(cards))
        try:
            after = model.apply(start, deal)
        except IllegalMoveError:
            records.append(snap_record(config, (), start, label=f"a deal with {what} is refused", rejects=deal))
            continue
        label = f"a deal with {what} is accepted"
        return CheckResult(Verdict.COUNTEREXAMPLE, label, witness=label,
                           records=(snap_record(config, (deal,), after, label=label),), stats=stats)
    return CheckResult(Verdict.PROVED, f"tables of {low} to {high} players; {stats['deals']} seeded deals are the "
                                       "text's; deals of other cards refused",
                       witness=f"{len(records)} records", records=tuple(records), stats=stats)

