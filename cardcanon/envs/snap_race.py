"""How the Snap environment turns the agents' calls in one call window into one call event.

In the call window of a flip (SNAP-CALL-3) every agent still in the game (SNAP-CALL-2) decides,
one step each, whether to call and what; the steps come in seat order clockwise from the flipper,
the flipper first, and no agent sees another's choice. The order of the steps decides nothing:
the calls are settled as SNAP-CALL-3 settles calls made at the same instant, with the calling
policy saying who is fastest among the correct callers:

- If nobody calls, nobody calls (``NoCall``).
- If every call is wrong, the event is the wrong call of the caller nearest the flipper
  clockwise, the flipper first; the other wrong calls have no effect.
- Otherwise a correct call is the event and the wrong calls have no effect. Who makes it is
  decided by the policy as the rulebook defines it (SNAP-POLICY-1 to SNAP-POLICY-4, played by
  :mod:`cardcanon.model.snap_policies`) for tables where every player calls correctly,
  applied to the agents who did:

  - ``flipper-first`` (SNAP-POLICY-2): the correct caller nearest the flipper clockwise, the
    flipper first.
  - ``owner-first`` (SNAP-POLICY-3): the owner of the first matched pile clockwise from the
    flipper if he calls "Snap!" (or puts his hand on the index card); otherwise as
    ``flipper-first``.
  - ``ties:RATE`` (SNAP-POLICY-4): as ``flipper-first``; then, when two or more agents made a
    correct call and the index card is not in use (SNAP-INDEX-1), one number is drawn from the
    game's generator, and if the draw succeeds the event is a tie (SNAP-TIE-1, SNAP-POT-2): with
    m the number of correct callers, k = below(m - 1) is drawn, the correct callers in seat
    order are shuffled, and the first 2 + k of them tie. A tie may join "Snap!" and "Snap Pot!"
    callers (SNAP-CALL-3); it is recorded with the kind of the call that would have won.

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
    if state.turn is None:
        return ()
    n, flipper = state.config.players, state.turn.index
    return tuple(Seat((flipper + k) % n) for k in range(n) if state.holds(Seat((flipper + k) % n)))


def call_event(state: SnapState, calls: Mapping[Seat, CallKind | None], policy: Policy, rng: SplitMix64) -> Move:
    """The call event of this window: ``calls`` maps each agent in the game to its call or None."""
    made = {seat: kind for seat, kind in calls.items() if kind is not None}
    callers = [seat for seat in callers_in_order(state) if seat in made]
    if not callers:
        return NoCall()  # SNAP-CALL-3: nobody calls
    correct = correct_kinds(state)
    right = [seat for seat in callers if made[seat] in correct]
    if not right:  # SNAP-CALL-3: wrong calls only: the one nearest the flipper
        return Call(callers[0], made[callers[0]])
    winner = right[0]  # SNAP-POLICY-2
    matched = matched_seats(state)
    if isinstance(policy, OwnerFirst) and matched and made.get(matched[0]) in (CallKind.SNAP, CallKind.HAND):
        winner = matched[0]  # SNAP-POLICY-3
    kind = made[winner]
    if isinstance(policy, Ties) and len(right) >= 2 and not state.config.index_card:  # SNAP-POLICY-4
        if draw_chance(rng, policy.rate):
            size = 2 + rng.below(len(right) - 1)
            return Tie(frozenset(rng.shuffled(sorted(right))[:size]), kind)
    return Call(winner, kind)
