"""A fast whole-game Snap simulator for the termination statistics.

It plays exactly what :func:`cardcanon.model.snap_policies.play_game` plays (same deal, same
policy choices, same random draws, same repetition test) on plain lists of card numbers,
about five times faster. It is not a second rulebook: ``tests/test_snap_termination.py`` checks that
it gives the reference model's result (status, flips, outcome, cycle) game for game.

Piles here keep their top at the END of a list (the face-down pile at the left of a deque), so
flips and "put under" are O(1). The rule blocks mirror :mod:`cardcanon.model.snap`.
"""

from __future__ import annotations

from collections import deque

from cardcanon.model.seats import Seat
from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.snap import NextTurn, Outcome, SnapConfig, Termination, sample_deal
from cardcanon.model.snap_policies import (
    Cycle, Errors, FlipperFirst, OwnerFirst, Policy, Ties, draw_chance, parse_policy,
)


class FastResult:
    """The parts of a GameResult the statistics use."""

    __slots__ = ("seed", "status", "flips", "outcome", "endless")

    def __init__(self, seed: int, status: str, flips: int, outcome: Outcome | None, endless: Cycle | None) -> None:
        self.seed, self.status, self.flips, self.outcome, self.endless = seed, status, flips, outcome, endless

    def __repr__(self) -> str:
        return f"FastResult({self.seed}, {self.status!r}, {self.flips}, {self.outcome!r}, {self.endless!r})"


def fast_game(config: SnapConfig, seed: int, policy: Policy | str, max_flips: int | None = None) -> FastResult:
    """The result of ``play_game(config, seed, policy, max_flips)``, without the moves."""
    if isinstance(policy, str):
        policy = parse_policy(policy)
    if not isinstance(policy, (FlipperFirst, OwnerFirst, Ties, Errors)):
        raise ValueError(f"fast_game knows only the named policies, not {policy!r}")
    n, index_card = config.players, config.index_card
    winner_turns = config.next_turn is NextTurn.WINNER
    rng = SplitMix64(seed)
    deal = sample_deal(config, rng)
    code = {card: i for i, card in enumerate(config.deck)}
    rank = [int(card.rank) for card in config.deck]
    down = [deque() for _ in range(n)]
    for i, card in enumerate(deal.order):  # SNAP-DEAL-2, SNAP-DEAL-3: first dealt ends at the bottom
        down[(deal.dealer.index + 1 + i) % n].appendleft(code[card])
    up: list[list[int]] = [[] for _ in range(n)]
    pot: list[int] = []
    seen: dict | None = {} if policy.deterministic else None
    flips = 0

    def holds(s: int) -> bool:
        return bool(down[s]) or bool(up[s])

    def clockwise_holder(after: int) -> int:
        s = after
        while True:
            s = s + 1 if s + 1 < n else 0
            if down[s] or up[s]:
                return s

    turn = clockwise_holder(deal.dealer.index)  # SNAP-TURN-1
    while True:
        holders = [s for s in range(n) if down[s] or up[s]]
        if len(holders) <= 1:  # SNAP-END-1, SNAP-END-2, SNAP-END-3
            if not holders:
                outcome = Outcome(Termination.NO_CARDS, None)
            else:
                outcome = Outcome(Termination.STUCK_POT if pot else Termination.ALL_CARDS, Seat(holders[0]))
            return FastResult(seed, "ended", flips, outcome, None)
        if seen is not None:
            buf = bytearray((turn,))  # card numbers are below 52: 254 and 255 separate the piles
            for pile in down:
                buf.extend(pile)
                buf.append(255)
            for pile in up:
                buf.extend(pile)
                buf.append(254)
            buf.extend(pot)
            key = bytes(buf)
            if key in seen:
                return FastResult(seed, "endless", flips, None, Cycle(seen[key], flips - seen[key]))
            seen[key] = flips
        if max_flips is not None and flips >= max_flips:
            return FastResult(seed, "capped", flips, None, None)
        f = turn  # SNAP-FLIP-1, SNAP-FLIP-3
        if not down[f]:
            down[f], up[f] = deque(up[f]), []
        card = down[f].popleft()
        up[f].append(card)
        flips += 1
        r = rank[card]
        matched = [s for s in ((f + k) % n for k in range(1, n)) if up[s] and rank[up[s][-1]] == r]
        pot_match = bool(pot) and rank[pot[-1]] == r
        # the policy's event: ("none",) | ("win", caller, won_pot) | ("tie",) | ("wrong", caller)
        correct = bool(matched) or pot_match
        kinds_correct = int(correct) if index_card else int(bool(matched)) + int(pot_match)
        kinds_total = 1 if index_card else 2
        event: tuple = ("none",)
        if isinstance(policy, Errors) and kinds_correct < kinds_total and draw_chance(rng, policy.rate):
            callers = holders
            caller = callers[rng.below(len(callers))]
            rng.below(kinds_total - kinds_correct)
            event = ("wrong", caller)
        elif correct:
            # "Snap Pot!" is called when correct, and wins the pot; so does a hand on the index card
            snap_pot = pot_match and not index_card
            if isinstance(policy, Ties) and not index_card and draw_chance(rng, policy.rate):
                rng.below(len(holders) - 1)  # the tie's size and callers: same draws, same outcome
                rng.shuffled(holders)
                event = ("tie",)
            elif isinstance(policy, OwnerFirst) and matched and not snap_pot:
                event = ("win", matched[0], pot_match)
            else:
                event = ("win", f, pot_match)
        if event[0] == "win":  # SNAP-CALL-1, SNAP-CALL-4, SNAP-CALL-5, SNAP-POT-1, SNAP-INDEX-1
            w = event[1]
            for s in [f] + matched:
                down[w].extend(up[s])
                up[s] = []
            if event[2]:
                down[w].extend(pot)
                pot = []
        elif event[0] == "tie":  # SNAP-TIE-1, SNAP-TIE-2, SNAP-POT-2: flipper's pile uppermost
            for s in reversed([f] + matched):
                pot.extend(up[s])
                up[s] = []
        elif event[0] == "wrong":  # SNAP-PEN-1, SNAP-PEN-2, SNAP-PEN-3
            o = event[1]
            to = f if o != f else next(s for s in ((f - k) % n for k in range(1, n)) if holds(s))
            if not down[o]:
                down[o], up[o] = deque(up[o]), []
            down[to].append(down[o].popleft())
        if sum(1 for s in range(n) if down[s] or up[s]) > 1:  # SNAP-TURN-2, SNAP-OUT-1
            turn = event[1] if event[0] == "win" and winner_turns else clockwise_holder(f)
