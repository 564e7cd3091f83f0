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
MAX_RECORD_BYTES = 16 * 2**20  # readers refuse larger files; a Snap game of 100,000 flips is about 5 MB


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


def record_text(data: dict[str, Any]) -> str:
    """A record as JSON text: one field per line, one move per line."""
    def value(key: str, item: Any) -> str:
        if key == "moves" and item:
            return "[\n  " + ",\n  ".join(json.dumps(m, ensure_ascii=False) for m in item) + "\n ]"
        return json.dumps(item, ensure_ascii=False)
    return "{\n" + ",\n".join(f" {json.dumps(k)}: {value(k, v)}" for k, v in data.items()) + "\n}\n"


def write_record(path: str | Path, data: dict[str, Any]) -> None:
    text = record_text(data)
    size = len(text.encode("utf-8"))
    if size > MAX_RECORD_BYTES:
        raise RecordError(str(path), f"not written: the record would take {size / 2**20:.1f} MB, more than the "
                                     f"{MAX_RECORD_BYTES // 2**20} MB a record may have (play fewer flips)")
    Path(path).write_text(text, encoding="utf-8")


def field(data: Mapping[str, Any], name: str, kind: type | tuple[type, ...], where: str) -> Any:
    """Fetch a required field of a given JSON type, or raise a RecordError naming it."""
    if name not in data:
        raise RecordError(f"{where}: field {name!r}", "missing")
    value = data[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        names = " or ".join(JSON_WORDS.get(k, k.__name__) for k in kinds)
        raise RecordError(f"{where}: field {name!r}", f"expected {names}, found {json_words(value)}")
    return value


JSON_WORDS = {int: "an integer", str: "a string", bool: "true or false", list: "an array", dict: "an object",
              float: "a number", type(None): "null"}


def json_words(value: Any) -> str:
    """What kind of JSON value ``value`` is, in words (never a Python type name)."""
    kind = next((k for k in (bool, type(None), int, float, str, list, dict) if isinstance(value, k)), None)
    return JSON_WORDS[kind] if kind else "something else"
