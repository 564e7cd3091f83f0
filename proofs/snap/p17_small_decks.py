"""SNAP-P17-small-decks: Snap need not end (SNAP-END-4), settled exhaustively on small decks.

The question of SNAP-P5-lasso for 2 players and decks of ``r`` ranks in ``s`` suits: every dealer
and every deal. Suits never matter (SNAP-MATCH-1), so deals are enumerated as rank sequences, each
standing for ``(s!)**r`` orders of the cards. Each game is played to its end or to a repeated
position (exact: endless); the counts are golden. A model with a broken rule plays these deals
otherwise: the golden numbers differ, and the records of its games do not replay through the
reference model. In a run with golden numbers (``run.golden``) the first deck whose counts differ
from them ends the enumeration.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from cardcanon.model.cards import Card, Rank, Suit, format_cards
from cardcanon.model.seats import Seat
from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.snap import Deal, Phase
from cardcanon.model.snap_policies import parse_policy
from cardcanon.proofs.base import CheckResult, Run, Verdict
from cardcanon.proofs.records import Record
from cardcanon.proofs.snap.search import Played, play


def deck_of(ranks: int, suits: int) -> tuple[Card, ...]:
    """The lowest ``ranks`` ranks of the first ``suits`` suits."""
    return tuple(Card(r, s) for r in list(Rank)[:ranks] for s in list(Suit)[:suits])


def rank_sequences(ranks: int, suits: int) -> Iterator[tuple[Rank, ...]]:
    """Every distinct sequence of a deck's ranks (a multiset permutation), in a fixed order."""
    left = Counter({r: suits for r in list(Rank)[:ranks]})
    total, prefix = ranks * suits, list[Rank]()

    def rec() -> Iterator[tuple[Rank, ...]]:
        if len(prefix) == total:
            yield tuple(prefix)
            return
        for r in sorted(left):
            if left[r]:
                left[r] -= 1
                prefix.append(r)
                yield from rec()
                prefix.pop()
                left[r] += 1

    yield from rec()


def deal_for(ranks_in_order: Sequence[Rank], dealer: int) -> Deal:
    used: Counter[Rank] = Counter()
    order: list[Card] = []
    for r in ranks_in_order:
        order.append(Card(r, list(Suit)[used[r]]))
        used[r] += 1
    return Deal(Seat(dealer), tuple(order))


def check(run: Run) -> CheckResult:
    run.no_probe()
    bounds = run.bounds
    policy = parse_policy(str(bounds.get("policy", "flipper-first")))
    players = int(bounds.get("players", 2))
    max_flips = int(bounds.get("max_flips", 100))
    started = time.monotonic()
    stats: dict[str, Any] = {}
    first: dict[str, Played] = {}  # kind -> the first game of that kind
    sample: list[Played] = []
    sample_size = int(bounds.get("sample", 24))  # the first games, as records too
    for ranks, suits in bounds.get("decks", [[2, 2], [3, 2], [2, 4]]):
        config = run.snap_config(players=players, deck=deck_of(ranks, suits))
        counts: Counter[str] = Counter()
        for seq in rank_sequences(ranks, suits):
            for dealer in range(players):
                deal = deal_for(seq, dealer)
                played = play(config, deal, policy.choose, SplitMix64(0), max_flips=max_flips,
                              deterministic=policy.deterministic)
                kind = "endless" if played.cycle is not None else "ending" if played.final.phase is Phase.OVER else "capped"
                counts[kind] += 1
                first.setdefault(kind, played)
                if len(sample) < sample_size:
                    sample.append(played)
            run.budget.tick()
        deck = {f"endless_{ranks}x{suits}": counts["endless"], f"ending_{ranks}x{suits}": counts["ending"]}
        if counts["capped"]:
            deck[f"capped_{ranks}x{suits}"] = counts["capped"]
        stats.update(deck)
        if run.golden is not None and any(run.golden.get(key) != count for key, count in deck.items()):
            break  # the counts differ from the golden ones already: the runner reports it
    if "endless" not in first:
        return CheckResult(Verdict.NO_WITNESS, "no deal repeats a position", stats=stats)

    def label(played: Played) -> str:
        deal = played.deal
        return f"{len(played.final.config.deck)} cards, dealer {deal.dealer}, order {format_cards(deal.order)}"

    records: list[Record] = []
    texts: list[str] = []
    for played in (first[kind] for kind in ("endless", "ending") if kind in first):
        if played.cycle is not None:
            how = f"position before flip {played.cycle[0] + 1} recurs before flip {sum(played.cycle) + 1}"
        else:
            assert played.final.outcome is not None
            how = f"ends ({played.final.outcome.termination.value})"
        texts.append(f"{label(played)}: {how}")
        records.append(played.record(texts[-1], policy=policy.name, repeats=played.cycle))
    records += [played.record(label(played), policy=policy.name, repeats=played.cycle) for played in sample]
    stats["seconds"] = round(time.monotonic() - started, 2)
    return CheckResult(Verdict.WITNESS, "exact counts of (dealer, rank sequence) deals; each stands for (s!)**r card orders",
                       witness="\n".join(texts), records=tuple(records), stats=stats)
