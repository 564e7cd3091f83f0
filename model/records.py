"""Game records: the JSON envelope shared by both games.

A record is a JSON object::

    {"format": "cardcanon-record", "version": 1, "game": "hearts" | "snap", ...}

The game's own module defines the rest (the seed or the deal, every move) and its replay.
Loading never raises anything but :class:`RecordError`, whose message names the file, the
place in it and what is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cardcanon.model.errors import RecordError
from cardcanon.model.game import ReplayReport

FORMAT = "cardcanon-record"
VERSION = 1
GAMES = ("hearts", "snap")


__all__ = ["FORMAT", "GAMES", "VERSION", "ReplayReport", "check_envelope", "field", "read_record", "write_record"]


def read_record(path: str | Path) -> dict[str, Any]:
    """Read and check the envelope of a record file."""
    where = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(where, "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(where, f"cannot read: {exc}") from None
    try:
        data: dict[str, Any] = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{where}:{exc.lineno}:{exc.colno}", f"not valid JSON: {exc.msg}") from None
    check_envelope(data, where)
    return data


def check_envelope(data: Any, where: str) -> None:
    if not isinstance(data, dict):
        raise RecordError(where, "a record must be a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"{where}: field 'format'", f"expected {FORMAT!r}, found {data.get('format')!r}")
    if data.get("version") != VERSION:
        raise RecordError(f"{where}: field 'version'", f"expected {VERSION}, found {data.get('version')!r}")
    if data.get("game") not in GAMES:
        raise RecordError(f"{where}: field 'game'", f"expected one of {', '.join(GAMES)}, found {data.get('game')!r}")


def write_record(path: str | Path, data: dict[str, Any]) -> None:
    Path(path).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def field(data: Mapping[str, Any], name: str, kind: type | tuple[type, ...], where: str) -> Any:
    """Fetch a required field of a given JSON type, or raise a RecordError naming it."""
    if name not in data:
        raise RecordError(f"{where}: field {name!r}", "missing")
    value = data[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,))):
        names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise RecordError(f"{where}: field {name!r}", f"expected {names}, found {type(value).__name__}")
    return value
