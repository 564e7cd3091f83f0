"""The canonical position: what the protocol's ``show`` request answers, each game's one
position form (``position_to_json`` of :class:`cardcanon.model.game.Game`, which the game records
use too), and the digests and differences of positions.

A position is a JSON object with the game's keys, and nothing else. Cards are written as in a
game record (``"Qs"``), seats as integers, piles top card first, and sets of cards (a Hearts
hand, the cards a player took) in the canonical deck order. ``docs/conformance.rst`` describes
both forms for implementers; the runner compares the implementation's form with the reference
model's after every move, and reports the first difference (:func:`differences`).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from cardcanon.model.game import game_api

Json = Any


def position_json(game: str, state: Any) -> Json:
    """The canonical position of ``state``, a state of ``game``'s reference model: the game's one
    position form (``position_to_json``, :class:`cardcanon.model.game.Game`)."""
    return game_api(game).position_to_json(state)


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
