"""Refusals that the rulebook's text makes equally right, and the lint that finds them.

The reference model cites one rule for an illegal move: the first of its checks that fails
(the order is in ``docs/conformance.rst``). The text can forbid the same move by two rules, and
an implementation that checks in another order cites the other one, rightly. For each refused
move this module names every rule whose own statement forbids it, each asked alone:

- Hearts: a play by the player to move of a card he holds, asked of each of the model's rule
  blocks for the card (``first_lead_problem``, ``follow_problem``, ``lead_hearts_problem``,
  ``first_trick_problem``). A card he does not hold is refused by HEARTS-DEAL-2 alone, a play
  out of turn by the turn rules alone: the card rules speak of the cards of the player to move.
- Snap: a flip, call or tie by a player who is out is also refused by SNAP-OUT-1 ("he takes no
  turns, may not call"), and a call by him by SNAP-CALL-2.

The vectors accept every such rule, with the reason (``also``), and the conformance tests fail
when a refusal with two right rules lacks it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardcanon.conform.adapter import Json, NotAMove, Position
from cardcanon.model import hearts, snap

# Why each rule forbids a move it shares with another: one clause per rule, from its text.
WHY = {
    "SNAP-OUT-1": "a player who is out takes no turns and may not call (SNAP-OUT-1)",
    "SNAP-CALL-2": "only a player who holds cards may call (SNAP-CALL-2)",
    "SNAP-TURN-1": "the first turn is the dealer's left neighbour's (SNAP-TURN-1)",
    "SNAP-TURN-2": "the turn is another player's (SNAP-TURN-2)",
    "SNAP-CALL-3": "a call window follows each flip, and no flip comes before it closes (SNAP-CALL-3)",
    "SNAP-INDEX-1": "the call is not one of this table's calls (SNAP-INDEX-1)",
    "HEARTS-LEAD-1": "the first lead is the 2 of clubs (HEARTS-LEAD-1)",
    "HEARTS-LEAD-3": "the first leader leads the club that made him leader (HEARTS-LEAD-3)",
    "HEARTS-BREAK-1": "no heart is led before hearts are broken (HEARTS-BREAK-1)",
    "HEARTS-FOLLOW-1": "the second player follows suit if he can (HEARTS-FOLLOW-1)",
    "HEARTS-FIRST-1": "with no-hearts, no heart goes to the first trick from a player holding other cards "
                      "(HEARTS-FIRST-1)",
}


def hearts_refusals(state: hearts.HeartsState, move: Any) -> set[str]:
    if not isinstance(move, hearts.Play) or state.phase is not hearts.Phase.PLAY or move.player != state.to_move:
        return set()
    hand = state.hands[move.player.index]
    if move.card not in hand:
        return set()
    blocks = (hearts.first_lead_problem(state, move.card), hearts.follow_problem(state, hand, move.card),
              hearts.lead_hearts_problem(state, hand, move.card), hearts.first_trick_problem(state, hand, move.card))
    return {refusal[0] for refusal in blocks if refusal}


def snap_refusals(state: snap.SnapState, move: Any) -> set[str]:
    if state.phase not in (snap.Phase.FLIP, snap.Phase.CALL):
        return set()
    if isinstance(move, snap.Flip):
        movers = [move.player]
    elif isinstance(move, snap.Call):
        movers = [move.caller]
    elif isinstance(move, snap.Tie):
        movers = sorted(move.callers)
    else:
        return set()
    out = [seat for seat in movers if seat.index < state.config.players and not state.holds(seat)]
    if not out:
        return set()
    return {"SNAP-OUT-1"} | ({"SNAP-CALL-2"} if not isinstance(move, snap.Flip) else set())


REFUSALS: dict[str, Callable[[Any, Any], set[str]]] = {"hearts": hearts_refusals, "snap": snap_refusals}


def equally_right(position: Position, move: Json, cited: str) -> Json | None:
    """``also`` for a vector: the other rules that forbid ``move`` here, and why; None if none."""
    try:
        parsed = position.move_from_json(move)
    except NotAMove:
        return None
    others = sorted(REFUSALS[position.game](position.state, parsed) - {cited})
    if not others:
        return None
    missing = [rule for rule in [cited, *others] if rule not in WHY]
    if missing:
        raise ValueError(f"{', '.join(missing)} forbids a move another rule forbids too: "
                         "say why in cardcanon.conform.overlaps.WHY, or change the rulebook so that one decides")
    return {"rules": others, "why": "equally right by the rulebook's text: " + "; ".join(WHY[r] for r in [cited, *others])}


def lint(game: str, config: Json, vectors: list[Json]) -> list[str]:
    """Every refusal in ``vectors`` that the text makes equally right by several rules while the
    vector accepts only some of them: one line each."""
    start = Position.start(game, config)
    problems = []
    for vector in vectors:
        refusals = [(f["move"], f["rule"], f.get("also")) for f in vector.get("forbidden", [])]
        if vector["kind"] == "illegal":
            refusals.append((vector["move"], vector["expect"]["illegal"], vector["expect"].get("also")))
        if not refusals:
            continue
        position = start.apply_all(vector["moves"])
        for move, cited, also in refusals:
            parsed = position.move_from_json(move)
            right = REFUSALS[game](position.state, parsed) | {cited}
            accepted = {cited} | set(also["rules"] if also else [])
            if right - accepted:
                problems.append(f"{vector['id']}: {move} is refused by {', '.join(sorted(right))}, "
                                f"but the vector accepts only {', '.join(sorted(accepted))}")
    return problems
