"""The rules a move applied: which rules of the rulebook decide the position after it.

One function per game reads the reference model's state before and after a legal move (and
the model's own predicates: ``snap.matched_seats``, ``snap.correct_kinds``,
``hearts.trick_winner`` ...) and names the rules whose transition the move carried out, the
most specific first. A conformance report names them when the implementation's position first
differs from the model's; :mod:`cardcanon.conform.vectors` picks, for each rule, the shortest
prefix whose last move is the first to apply it (a ``rule`` vector).

Snap: a deal applies SNAP-DEAL-2, SNAP-DEAL-3, SNAP-TURN-1; a flip SNAP-FLIP-1 (after
SNAP-FLIP-3 when the face-down pile was empty); no call SNAP-CALL-3; a correct call SNAP-CALL-1
or SNAP-POT-1 or SNAP-INDEX-1, with SNAP-POT-3, SNAP-CALL-4 (several piles) and SNAP-CALL-5; a
wrong call SNAP-PEN-3 (the card goes under the recipient's pile) and SNAP-PEN-1, after
SNAP-PEN-2 (the flipper called); a tie SNAP-TIE-1, after SNAP-POT-2 (a "Snap Pot!" tie) and
SNAP-TIE-2 (a pot already there). Closing a call window passes the turn (SNAP-TURN-2), may put a player out
(SNAP-OUT-1) and may end the game (SNAP-END-1, -2 or -3).

Hearts: the choice of dealer applies HEARTS-DEAL-1; a deal HEARTS-DEAL-2, the first leader
(HEARTS-LEAD-1 or HEARTS-LEAD-2) and HEARTS-BREAK-3; a lead HEARTS-TRICK-4 (the other player
plays second); a second card HEARTS-TRICK-1 with HEARTS-TRUMP-1 and HEARTS-RANK-1, then
HEARTS-TRICK-2; a heart played (or, by variant, a discard or the queen) HEARTS-BREAK-2; the
last trick HEARTS-TRICK-3, the score (HEARTS-SCORE-1, HEARTS-QUEEN-1, HEARTS-MOON-1/2), the
next dealer (HEARTS-DEAL-1) or the end of the match (HEARTS-MATCH-1/2/3).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardcanon.model import hearts, snap
from cardcanon.model.hearts_types import TRICKS_PER_HAND


def snap_step(before: snap.SnapState, move: snap.Move, after: snap.SnapState) -> list[str]:
    if isinstance(move, snap.Deal):
        return ["SNAP-DEAL-2", "SNAP-DEAL-3", "SNAP-TURN-1"]
    if isinstance(move, snap.Flip):
        return (["SNAP-FLIP-3"] if not before.down[move.player.index] else []) + ["SNAP-FLIP-1"]
    matched = snap.matched_seats(before)
    rules: list[str] = []
    if isinstance(move, snap.NoCall):
        rules.append("SNAP-CALL-3")
    elif isinstance(move, snap.Tie):
        rules += ["SNAP-POT-2"] if move.kind is snap.CallKind.SNAP_POT else []
        rules += ["SNAP-TIE-2"] if before.pot else []
        rules += ["SNAP-TIE-1"] + (["SNAP-CALL-4"] if len(matched) > 1 else [])
    elif move.kind in snap.correct_kinds(before):
        first = {snap.CallKind.SNAP: "SNAP-CALL-1", snap.CallKind.SNAP_POT: "SNAP-POT-1",
                 snap.CallKind.HAND: "SNAP-INDEX-1"}[move.kind]
        rules.append(first)
        rules += ["SNAP-POT-3"] if matched and snap.pot_matches(before) else []
        rules += ["SNAP-CALL-4"] if len(matched) > 1 else []
        rules.append("SNAP-CALL-5")
    else:
        rules += ["SNAP-PEN-2"] if move.caller == before.turn else []
        rules += ["SNAP-PEN-3", "SNAP-PEN-1"]
    if len(after.in_game) < len(before.in_game):
        rules.append("SNAP-OUT-1")
    if after.outcome is not None:
        rules.append(snap.END_RULES[after.outcome.termination])
    else:
        rules.append("SNAP-TURN-2")
    return rules


def hearts_step(before: hearts.HeartsState, move: hearts.Move, after: hearts.HeartsState) -> list[str]:
    if isinstance(move, hearts.ChooseDealer):
        return ["HEARTS-DEAL-1"]
    if isinstance(move, hearts.Deal):
        leader = "HEARTS-LEAD-1" if hearts.TWO_OF_CLUBS not in after.dead else "HEARTS-LEAD-2"
        return ["HEARTS-DEAL-2", leader, "HEARTS-BREAK-3"]
    rules: list[str] = []
    if not before.trick:
        rules.append("HEARTS-TRICK-4")
    else:
        rules += ["HEARTS-TRICK-1", "HEARTS-TRUMP-1", "HEARTS-RANK-1", "HEARTS-TRICK-2"]
    if after.hearts_broken and not before.hearts_broken:
        rules.append("HEARTS-BREAK-2")
    if before.trick and before.tricks_played + 1 == TRICKS_PER_HAND:
        rules += ["HEARTS-TRICK-3", "HEARTS-SCORE-1", "HEARTS-QUEEN-1"]
        if 0 in after.hand_scores[-1]:
            rules += ["HEARTS-MOON-1", "HEARTS-MOON-2"]
        if after.outcome is None:
            a, b = after.scores
            rules += ["HEARTS-MATCH-3"] if a == b >= after.config.target else []
            rules.append("HEARTS-DEAL-1")
        else:
            rules.append("HEARTS-MATCH-1" if after.outcome.termination is hearts.Termination.ONE_REACHED_TARGET
                         else "HEARTS-MATCH-2")
    return rules


# The fields of the canonical position (cardcanon.conform.positions) each rule decides; a rule
# not listed moves cards (Snap: down, up, pot; Hearts: hands, trick, taken).
SNAP_FIELDS = {
    "SNAP-TURN-1": {"flipper", "dealer"}, "SNAP-TURN-2": {"flipper"}, "SNAP-OUT-1": {"flipper"},
    "SNAP-CALL-3": {"phase"}, "SNAP-FLIP-1": {"phase", "down", "up", "flips"}, "SNAP-END-1": {"phase", "flipper"},
    "SNAP-END-2": {"phase", "flipper"}, "SNAP-END-3": {"phase", "flipper"},
    "SNAP-DEAL-2": {"phase", "down", "dealer"},
}
HEARTS_FIELDS = {
    "HEARTS-DEAL-1": {"dealer"}, "HEARTS-DEAL-2": {"phase", "hand", "hands", "dead", "taken", "tricks"},
    "HEARTS-LEAD-1": {"to_move"}, "HEARTS-LEAD-2": {"to_move"}, "HEARTS-BREAK-2": {"hearts_broken"},
    "HEARTS-BREAK-3": {"hearts_broken"}, "HEARTS-TRICK-4": {"to_move"}, "HEARTS-TRICK-2": {"to_move"},
    "HEARTS-TRICK-3": {"phase", "to_move", "tricks", "dead"}, "HEARTS-SCORE-1": {"scores", "hand_scores"},
    "HEARTS-QUEEN-1": {"scores", "hand_scores"}, "HEARTS-MOON-1": {"scores", "hand_scores"},
    "HEARTS-MOON-2": {"scores", "hand_scores"},
    "HEARTS-MATCH-1": {"phase"}, "HEARTS-MATCH-2": {"phase"}, "HEARTS-MATCH-3": {"phase"},
}
CARD_FIELDS = {"hearts": {"hands", "trick", "taken", "tricks"}, "snap": {"down", "up", "pot"}}
FIELDS = {"hearts": HEARTS_FIELDS, "snap": SNAP_FIELDS}
STEPS: dict[str, Callable[[Any, Any, Any], list[str]]] = {"hearts": hearts_step, "snap": snap_step}


def step_rules(game: str, before: Any, move: Any, after: Any) -> list[str]:
    """The rules ``move`` applied from ``before`` to ``after`` (states of ``game``'s model)."""
    return STEPS[game](before, move, after)


def snap_holdings(position: Any) -> Any:
    """Who holds which cards, order aside: each seat's two piles together, and the pot."""
    seats = [sorted(down + up) for down, up in zip(position.get("down", []), position.get("up", []))]
    return seats, sorted(position.get("pot", []))


# Snap rules that decide the order of cards, not who holds them; a difference in order only
# (every card with the right holder) names these first. Hearts shows sets, never an order.
ORDER_RULES = {"snap": {"SNAP-FLIP-3", "SNAP-PEN-3", "SNAP-CALL-5", "SNAP-TIE-1", "SNAP-TIE-2", "SNAP-POT-2",
                        "SNAP-DEAL-3"}, "hearts": set()}
HOLDINGS: dict[str, Callable[[Any], Any]] = {"snap": snap_holdings}


def blamed(game: str, rules: list[str], expected: Any, got: Any) -> list[str]:
    """The rules among ``rules`` (a move's) that decide what differs between the ``expected``
    and the ``got`` position, in order: those deciding a field that differs and, when every card
    has its right holder but not its right place, those deciding an order. All of ``rules`` if
    none does."""
    cards, decides = CARD_FIELDS[game], FIELDS[game]
    fields = {key for key in set(expected) | set(got) if expected.get(key) != got.get(key)}
    named = [rule for rule in rules if decides.get(rule, cards) & fields]
    if fields & cards and game in HOLDINGS:
        order_only = HOLDINGS[game](expected) == HOLDINGS[game](got)
        named = [rule for rule in named
                 if (rule in ORDER_RULES[game]) == order_only or not decides.get(rule, cards) & cards] or named
    return named or rules
