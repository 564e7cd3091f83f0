"""How the Snap environment turns the agents' calls in one call window into one call event.

In the call window of a flip (SNAP-CALL-3) every agent still in the game (SNAP-CALL-2) decides,
one step each, whether to call and what; the steps come in seat order clockwise from the flipper,
the flipper first, and no agent sees another's choice. The choices are simultaneous: the order
of the steps decides nothing. The race between the callers is then decided by the calling
policy, as the rulebook defines it (SNAP-POLICY-1 to SNAP-POLICY-4, played by
:mod:`cardcanon.model.snap_policies`) for tables where every player makes the correct call,
generalised to any set of callers:

- ``flipper-first`` (SNAP-POLICY-2): the first caller clockwise from the flipper, the flipper
  first, wins.
- ``owner-first`` (SNAP-POLICY-3): the owner of the first matched pile clockwise from the flipper
  wins if he calls "Snap!" (or puts his hand on the index card); otherwise as ``flipper-first``.
- ``ties:RATE`` (SNAP-POLICY-4): as ``flipper-first``; then, when the winning call is correct,
  two or more agents made that call and there is no index card (SNAP-INDEX-1), one number is
  drawn from the game's generator, and if the draw succeeds the event is a tie (SNAP-TIE-1,
  SNAP-POT-2): with m the number of agents who made that call, k = below(m - 1) is drawn, those
  agents in seat order are shuffled, and the first 2 + k of them tie.

When every agent in the game makes the call the policy prefers, the event is the one the policy
chooses, and an environment episode is the model's ``play_game`` for the same seed (tested).
``errors:RATE`` (SNAP-POLICY-5) stands for players' mistakes, which agents make for themselves;
it is refused.
"""

from __future__ import annotations

from collections.abc import Mapping

from cardcanon.model.seats import Seat
from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.snap import Call, CallKind, Move, NoCall, SnapState, Tie, correct_kinds, matched_seats
from cardcanon.model.snap_policies import OwnerFirst, Policy, Ties, draw_chance, parse_policy


def race_policy(name: str) -> Policy:
    """The named calling policy that decides races; ``errors:RATE`` is refused."""
    policy = parse_policy(name)
    if name.startswith("errors:"):
        raise ValueError(f"calling policy {name!r} plays players' mistakes; in the environment the agents "
                         f"make their own calls (use flipper-first, owner-first or ties:RATE)")
    return policy


def callers_in_order(state: SnapState) -> tuple[Seat, ...]:
    """Who decides in this call window, in step order: players in the game clockwise from the flipper."""
    n, flipper = state.config.players, state.turn.index
    return tuple(Seat((flipper + k) % n) for k in range(n) if state.holds(Seat((flipper + k) % n)))


def call_event(state: SnapState, calls: Mapping[Seat, CallKind | None], policy: Policy, rng: SplitMix64) -> Move:
    """The call event of this window: ``calls`` maps each agent in the game to its call or None."""
    order = [seat for seat in callers_in_order(state) if calls.get(seat) is not None]
    if not order:
        return NoCall()  # SNAP-CALL-3: nobody calls
    winner = order[0]
    matched = matched_seats(state)
    if isinstance(policy, OwnerFirst) and matched and calls.get(matched[0]) in (CallKind.SNAP, CallKind.HAND):
        winner = matched[0]
    kind = calls[winner]
    if isinstance(policy, Ties) and kind in correct_kinds(state) and not state.config.index_card:
        same = tuple(seat for seat in sorted(order) if calls[seat] is kind)
        if len(same) >= 2 and draw_chance(rng, policy.rate):
            size = 2 + rng.below(len(same) - 1)
            return Tie(frozenset(rng.shuffled(same)[:size]), kind)
    return Call(winner, kind)
