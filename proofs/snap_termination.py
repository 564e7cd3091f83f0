"""SNAP-P5: Snap need not end (SNAP-END-4).

``check_lasso``: a full 52-card, 2-player deal that never ends under the rulebook's defaults
with the ``flipper-first`` policy: the position before one flip recurs a fixed number of flips
later, and since the policy is deterministic, play repeats from there forever (a lasso). The
deal is stored as a seed; :func:`find_lasso` is the search that found it.

``check_small_decks``: the same question settled exhaustively for 2 players and small decks of
``r`` ranks in ``s`` suits: every dealer and every deal. Suits never matter (SNAP-MATCH-1), so
deals are enumerated as rank sequences; each stands for ``(s!)**r`` orders of the cards. Each
game is played to its end or to a repeated position (exact: endless); the counts are golden.

Mutant ``turnover-shuffle`` (SNAP-FLIP-3 broken: the face-up pile is shuffled before it is
turned over): play is then no longer determined by the position and no lasso exists.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping
from typing import Any

from cardcanon.model.cards import Card, Rank, Suit
from cardcanon.model.seats import Seat
from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.snap import Deal, Phase, SnapConfig, sample_deal
from cardcanon.model.snap_policies import parse_policy
from cardcanon.proofs.base import CheckResult, Verdict
from cardcanon.proofs.snap_encoding import require_mutant
from cardcanon.proofs.snap_search import MUTANT_SHUFFLE, Played, play, replay_moves

RULES = ("SNAP-END-4", "SNAP-FLIP-3", "SNAP-TURN-2", "SNAP-CALL-5")


def play_seed(config: SnapConfig, seed: int, policy: str, max_flips: int, mutant: str | None = None) -> Played:
    """Deal from ``seed`` (as ``play_game`` does) and play with a named policy."""
    chosen = parse_policy(policy)
    rng = SplitMix64(seed)
    deal = sample_deal(config, rng)
    return play(config, deal, chosen.choose, rng, max_flips=max_flips, deterministic=chosen.deterministic,
                mutant=mutant)


def find_lasso(config: SnapConfig, seeds: range, policy: str = "flipper-first", max_flips: int = 20_000):
    """The first seed whose game repeats a position, with the play; None if none does."""
    for seed in seeds:
        played = play_seed(config, seed, policy, max_flips)
        if played.cycle is not None:
            return seed, played
    return None


def check_lasso(*, mutant: str | None = None, timeout: float = 60.0, bounds: Mapping[str, Any]) -> CheckResult:
    require_mutant(mutant, (MUTANT_SHUFFLE,))
    config = SnapConfig(players=int(bounds.get("players", 2)))
    seed, policy = int(bounds.get("seed", 61)), str(bounds.get("policy", "flipper-first"))
    max_flips = int(bounds.get("max_flips", 5000))
    played = play_seed(config, seed, policy, max_flips, mutant)
    if played.cycle is None:
        how = played.final.outcome.termination.value if played.final.outcome else f"still going after {max_flips} flips"
        return CheckResult(Verdict.NO_WITNESS, f"seed {seed}: no repeated position ({how})",
                           witness=f"seed {seed}, {len(played.moves)} moves", witness_replayed=True,
                           stats={"flips": played.final.flips})
    assert played.cycle is not None
    start, length = played.cycle
    # replay the recorded moves once more and find the two equal positions before flips
    states = replay_moves(config, played.moves)
    before_flip = {s.flips: s for s in states if s.phase is Phase.FLIP}
    first, again = before_flip.get(start), before_flip.get(start + length)
    ok = first is not None and again is not None and first.position_key() == again.position_key() and length > 0
    deal = played.moves[0]
    assert isinstance(deal, Deal)
    witness = (f"seed {seed} ({policy}): dealer {deal.dealer}, order {' '.join(map(str, deal.order))}; the position "
               f"before flip {start + 1} recurs before flip {start + length + 1}")
    return CheckResult(Verdict.WITNESS if ok else Verdict.ERROR, f"lasso: {start} flips, then a cycle of {length} flips",
                       witness=witness, witness_replayed=ok,
                       stats={"cycle_start": start, "cycle_length": length, "moves": len(played.moves)})


def small_deck(ranks: int, suits: int) -> tuple[Card, ...]:
    return tuple(Card(r, s) for r in list(Rank)[:ranks] for s in list(Suit)[:suits])


def rank_sequences(ranks: int, suits: int):
    """Every distinct sequence of a deck's ranks (a multiset permutation), in a fixed order."""
    left = Counter({r: suits for r in list(Rank)[:ranks]})
    total, prefix = ranks * suits, list[Rank]()

    def rec():
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


def deal_for(ranks_in_order, suits: int, dealer: int) -> Deal:
    used: Counter = Counter()
    order = []
    for r in ranks_in_order:
        order.append(Card(r, list(Suit)[used[r]]))
        used[r] += 1
    return Deal(Seat(dealer), tuple(order))


def check_small_decks(*, mutant: str | None = None, timeout: float = 60.0, bounds: Mapping[str, Any]) -> CheckResult:
    require_mutant(mutant, (MUTANT_SHUFFLE,))
    policy = parse_policy(str(bounds.get("policy", "flipper-first")))
    players = int(bounds.get("players", 2))
    max_flips = int(bounds.get("max_flips", 100))
    started, first_endless, capped = time.monotonic(), None, 0
    stats: dict[str, Any] = {}
    for ranks, suits in bounds.get("decks", [[2, 2], [3, 2], [2, 4]]):
        config = SnapConfig(players=players, deck=small_deck(ranks, suits))
        counts: Counter = Counter()
        for seq in rank_sequences(ranks, suits):
            for dealer in range(players):
                deal = deal_for(seq, suits, dealer)
                played = play(config, deal, policy.choose, SplitMix64(0), max_flips=max_flips,
                              deterministic=policy.deterministic, mutant=mutant)
                if played.cycle is not None:
                    counts["endless"] += 1
                    first_endless = first_endless or (config, played)
                elif played.final.phase is Phase.OVER:
                    counts["ending"] += 1
                else:
                    counts["capped"] += 1
            if time.monotonic() - started > timeout:
                return CheckResult(Verdict.TIMEOUT, f"enumeration of {ranks}x{suits} not finished")
        stats[f"endless_{ranks}x{suits}"] = counts["endless"]
        stats[f"ending_{ranks}x{suits}"] = counts["ending"]
        capped += counts["capped"]
    if capped:
        stats["capped"] = capped
    if first_endless is None:
        return CheckResult(Verdict.NO_WITNESS, "no deal repeats a position" + (
            f" ({capped} games still going after {max_flips} flips: not shown endless)" if capped else ""),
            witness="every enumerated deal was played through the model", witness_replayed=True, stats=stats)
    config, played = first_endless
    states = replay_moves(config, played.moves)  # replay the first endless game once more
    assert played.cycle is not None
    start, length = played.cycle
    keys = {s.flips: s.position_key() for s in states if s.phase is Phase.FLIP}
    ok = keys.get(start) is not None and keys.get(start) == keys.get(start + length)
    first_move = played.moves[0]
    assert isinstance(first_move, Deal)
    deal = first_move
    witness = (f"{len(config.deck)} cards, dealer {deal.dealer}, order {' '.join(map(str, deal.order))}: "
               f"position before flip {start + 1} recurs before flip {start + length + 1}")
    stats["seconds"] = round(time.monotonic() - started, 2)
    return CheckResult(Verdict.WITNESS if ok else Verdict.ERROR,
                       "exact counts of (dealer, rank sequence) deals; each stands for (s!)**r card orders",
                       witness=witness, witness_replayed=ok, stats=stats)
