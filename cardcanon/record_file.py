"""Reading a game record file safely: the one loading boundary in front of ``from_record``/replay.

In order, each step cheap enough to run before the next: the size (at most ``MAX_BYTES``, read
no further; a ``.gz`` file is decompressed up to that size), UTF-8, the nesting depth (at most ``MAX_DEPTH``, scanned before parsing), strict
JSON (no duplicate keys, no NaN or Infinity), the envelope's ``game``, then the game's JSON
Schema (:mod:`cardcanon.schemas`) and the fields a schema cannot check (Snap's ``policy``).
Every failure is a :class:`RecordError` whose one-line message names the file, the move
(counted from 1) and the field.
"""

from __future__ import annotations

import gzip
import json
import re
import zlib
from pathlib import Path
from typing import Any

from cardcanon import schemas
from cardcanon.model.errors import RecordError
from cardcanon.model.game import GAMES
from cardcanon.model.records import MAX_RECORD_BYTES as MAX_BYTES
MAX_DEPTH = 8  # records nest 5 deep: record > moves > move > order > card

_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_EMPTY_PAIR = re.compile(r"\[\]|\{\}")
_OPEN_RUN = re.compile(r"[\[{]+")


class _Duplicate(dict[str, Any]):
    """An object in which a key appeared twice (found by the parser's pairs hook)."""

    key: str


def read_record_file(path: str | Path) -> dict[str, Any]:
    """The record in ``path``, checked against its game's schema; :class:`RecordError` if not."""
    where = str(path)
    text = _read_text(Path(path), where)
    if nesting_depth(text, MAX_DEPTH) > MAX_DEPTH:
        raise RecordError(where, f"nested more than {MAX_DEPTH} levels deep (a record nests 5 levels)")
    data = parse_json(text, where)
    if not isinstance(data, dict):
        raise RecordError(where, f"a record is a JSON object, found {schemas.described(data)}")
    game = data.get("game")
    if game not in GAMES:
        found = "missing" if "game" not in data else f"found {schemas.described(game)}"
        raise RecordError(f"{where}: field 'game'", f"expected \"hearts\" or \"snap\", {found}")
    try:
        schemas.validate(f"{game}-record", data, where)
    except schemas.SchemaError as exc:
        raise RecordError(where, str(exc).removeprefix(f"{where}: ")) from None
    if game == "snap" and "policy" in data:
        _check_policy(data["policy"], where)
    return data


def _read_text(path: Path, where: str) -> str:
    try:
        if path.is_dir():
            raise RecordError(where, "is a folder, not a record file")
        with (gzip.open(path, "rb") if path.suffix == ".gz" else path.open("rb")) as stream:
            raw = stream.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise RecordError(where, "no such file") from None
    except (gzip.BadGzipFile, EOFError, zlib.error):
        raise RecordError(where, "not a complete gzip file, as its name .gz says") from None
    except OSError as exc:
        raise RecordError(where, f"cannot read: {exc.strerror or exc}") from None
    if len(raw) > MAX_BYTES:
        raise RecordError(where, f"larger than {MAX_BYTES // 2**20} MB; records are never that large")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(where, f"not UTF-8 text (byte {exc.start + 1})") from None


def nesting_depth(text: str, limit: int) -> int:
    """How deep ``[`` and ``{`` nest in ``text`` (strings skipped), counted up to ``limit + 1``.

    Each round removes the innermost empty pairs, so the work is ``len(text) * depth`` at C
    speed and never recurses. Unbalanced text adds its longest run of openings (the JSON parser
    then reports what else is wrong)."""
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    depth = 0
    while brackets and depth <= limit:
        shorter = _EMPTY_PAIR.sub("", brackets)
        if len(shorter) == len(brackets):  # unbalanced: count the longest run still open
            return depth + max((len(run) for run in _OPEN_RUN.findall(brackets)), default=0)
        brackets, depth = shorter, depth + 1
    return depth


def parse_json(text: str, where: str) -> Any:
    """Strict JSON: a duplicate key or a NaN/Infinity is an error naming its place."""
    duplicates: list[_Duplicate] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        obj: dict[str, Any] = {}
        for key, value in items:
            if key in obj:
                marked = _Duplicate(items)
                marked.key = key
                duplicates.append(marked)
                return marked
            obj[key] = value
        return obj

    def constant(name: str) -> Any:
        raise RecordError(where, f"{name} is not a JSON number")

    try:
        data = json.loads(text, object_pairs_hook=pairs, parse_constant=constant)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{where}:{exc.lineno}:{exc.colno}", f"not valid JSON: {exc.msg}") from None
    except (ValueError, RecursionError) as exc:  # e.g. an integer of more than 4300 digits
        raise RecordError(where, f"not a usable JSON document: {str(exc).split(';')[0]}") from None
    if duplicates:
        path = _find(data, duplicates[0], []) or []
        place = schemas.place_name([*path, duplicates[0].key])
        raise RecordError(f"{where}: {place}", "given twice in the same object (a reader would silently keep one)")
    return data


def _find(node: Any, target: Any, path: list[Any]) -> list[Any] | None:
    if node is target:
        return path
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in children:
        if isinstance(child, (dict, list)):
            found = _find(child, target, [*path, key])
            if found is not None:
                return found
    return None


def _check_policy(text: str, where: str) -> None:
    from cardcanon.cli_args import decimal_number
    from cardcanon.model.snap_policies import parse_policy

    head, sep, rate = text.partition(":")
    if sep and decimal_number(rate) is None:  # float() would also read other scripts' digits
        raise RecordError(f"{where}: field 'policy'", f"the rate of {text[:40]!r} is not a number in digits 0-9")
    try:
        parse_policy(text)
    except ValueError as exc:
        raise RecordError(f"{where}: field 'policy'", str(exc)) from None


def write_record(path: Path, record: dict[str, Any]) -> None:
    """Write ``record`` as compact JSON; gzip-compressed where ``path`` ends in ``.gz`` (the published
    records: about a hundredth of the size), with no time stamp, so that the same record
    gives the same bytes."""
    data = (json.dumps(record, separators=(",", ":")) + "\n").encode("utf-8")
    path.write_bytes(gzip.compress(data, mtime=0) if path.suffix == ".gz" else data)


def record_text(path: Path) -> str:
    """The JSON text of a record file written by :func:`write_record` (no checks: see
    :func:`read_record_file` for files from elsewhere)."""
    data = path.read_bytes()
    return (gzip.decompress(data) if path.suffix == ".gz" else data).decode("utf-8")


def record_written(path: str | Path) -> str:
    """What ``play ... --record FILE`` says once the record is written, the same for every game."""
    return f"Record written to {path}."
