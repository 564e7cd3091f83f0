"""The canonical position: what the protocol's ``show`` request answers, one function per game.

A position is a JSON object with the keys below, and nothing else. Cards are written as in a
game record (``"Qs"``), seats as integers, piles top card first, and sets of cards (a Hearts
hand, the cards a player took) in the canonical deck order. ``docs/conformance.rst`` describes
both forms for implementers; the runner compares the implementation's form with the reference
model's after every move, and reports the first difference (:func:`differences`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from typing import Any

from cardcanon.model import hearts, snap
from cardcanon.model.cards import Card
from cardcanon.model.seats import Seat

Json = Any


def _seat(seat: Seat | None) -> int | None:
    return None if seat is None else seat.index


_TEXT: dict[Card, str] = {}  # a card's record name, computed once per card


def _pile(cards: Iterable[Card]) -> list[str]:
    out = []
    for card in cards:
        text = _TEXT.get(card)
        if text is None:
            text = _TEXT[card] = str(card)
        out.append(text)
    return out


def hearts_position(state: hearts.HeartsState) -> Json:
    """Hearts: ``phase``; ``hand`` (hands dealt so far); ``dealer``; ``to_move`` (null at chance
    nodes and at the end); ``hands`` and ``taken`` (per seat, deck order); ``dead``: null while
    the hand is played (the dead cards lie face down, HEARTS-DEAL-2), the two dead cards in deck
    order once it is over; ``trick`` (the plays of the trick under way); ``hearts_broken``;
    ``tricks`` (tricks played in this hand); ``scores`` (the match scores)."""
    order = {card: i for i, card in enumerate(hearts.DECK)}

    def sorted_cards(cards: Iterable[Card]) -> list[str]:
        return _pile(sorted(cards, key=order.__getitem__))

    hidden = state.phase is hearts.Phase.PLAY
    return {
        "phase": state.phase.value, "hand": state.hand_number, "dealer": _seat(state.dealer),
        "to_move": _seat(state.to_move), "hands": [sorted_cards(hand) for hand in state.hands],
        "dead": None if hidden or not state.dead else sorted_cards(state.dead),
        "trick": [{"player": play.player.index, "card": str(play.card)} for play in state.trick],
        "hearts_broken": state.hearts_broken, "tricks": state.tricks_played,
        "taken": [sorted_cards(taken) for taken in state.taken], "scores": list(state.scores),
    }


def snap_position(state: snap.SnapState) -> Json:
    """Snap: ``phase``; ``dealer``; ``flipper``: who must flip (``flip``) or who just flipped
    (``call``), null at the deal and at the end; ``down`` and ``up``: each seat's face-down and
    face-up pile, top card first; ``pot``: the Snap Pot, top card first."""
    return {
        "phase": state.phase.value, "dealer": _seat(state.dealer), "flipper": _seat(state.turn),
        "down": [_pile(pile) for pile in state.down], "up": [_pile(pile) for pile in state.up],
        "pot": _pile(state.pot),
    }


FORMS: dict[str, Callable[[Any], Json]] = {"hearts": hearts_position, "snap": snap_position}


def position_json(game: str, state: Any) -> Json:
    """The canonical position of ``state``, a state of ``game``'s reference model."""
    return FORMS[game](state)


def digest(position: Json) -> str:
    """A short fingerprint of a position: the first 16 hex digits of the SHA-256 of its JSON with
    sorted keys, no spaces, UTF-8. Vectors store these; reports show the full positions."""
    text = json.dumps(position, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def differences(expected: Json, got: Json, path: str = "") -> list[str]:
    """Where two positions differ, one line per place: ``down[1]: expected [...], got [...]``."""
    if isinstance(expected, dict) and isinstance(got, dict):
        out = []
        for key in list(expected) + [k for k in got if k not in expected]:
            where = f"{path}.{key}" if path else str(key)
            if key not in got:
                out.append(f"{where}: missing (expected {_short(expected[key])})")
            elif key not in expected:
                out.append(f"{where}: not a position field (got {_short(got[key])})")
            else:
                out += differences(expected[key], got[key], where)
        return out
    if (isinstance(expected, list) and isinstance(got, list) and len(expected) == len(got)
            and any(isinstance(item, (list, dict)) for item in expected)):
        return [line for i, (a, b) in enumerate(zip(expected, got)) for line in differences(a, b, f"{path}[{i}]")]
    if expected == got:
        return []
    return [f"{path or 'position'}: expected {_short(expected)}, got {_short(got)}"]


def _short(value: Json, limit: int = 300) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= limit else text[:limit] + "..."
