"""Reading vector files: JSON within limits, the format version, and the JSON Schema, before any
work (each file against itself: :mod:`cardcanon.conform.selfcheck`).

A vector file holds tens of thousands of moves, most of them repeated (a flip by seat 1, a
play of the 2 of clubs). Validating it against ``conformance-vectors.schema.json`` as a whole
takes minutes, so each vector is checked against the branch of the schema for its ``kind``
with moves taken as plain objects, and each distinct move once against the move schema. The
result is the same as validating against the whole schema (the branches differ by ``kind``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from cardcanon import schemas
from cardcanon.conform.protocol import BadJson, parse

Json = Any
FORMAT_VERSION = 3  # the version of the vector format this cardcanon reads and writes
MAX_DEPTH = 16  # arrays and objects nested in a vector file (a vector nests 6 deep)


def read_json(path: Path) -> dict[str, Any]:
    """A JSON object from a file; ValueError naming the file and the place when it is not one."""
    try:
        data = parse(path.read_bytes(), max_depth=MAX_DEPTH)
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ValueError(f"{path}: a directory, not a file") from None
    except OSError as exc:
        raise ValueError(f"{path}: cannot read it: {exc.strerror or exc}") from None
    except BadJson as exc:
        raise ValueError(f"{path}{':' + exc.place if exc.place else ''}: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a JSON object")
    return data


def check_version(document: Json, path: Path) -> None:
    version = document.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version != FORMAT_VERSION:
        raise ValueError(f"{path}: format version {version}, but this cardcanon reads version {FORMAT_VERSION}: "
                         "use the vectors shipped with it")


def validate_index(index: Json, path: Path) -> None:
    check_version(index, path)
    _raise(path, "index", schemas.first_error("conformance-index", index))


@cache
def _validators() -> tuple[Any, dict[str, Any], Any]:
    """(the file without its vectors, each kind's vector, one move)."""
    schema = schemas.load("conformance-vectors")
    defs = {**schema["$defs"], "move": {"type": "object"}}
    head = {**schema, "properties": {**schema["properties"], "vectors": {"type": "array", "minItems": 1}}}
    kinds = {branch["properties"]["kind"]["const"]: schemas.validator_of(
        {"allOf": [{"$ref": "#/$defs/common"}, branch], "$defs": defs})
        for branch in schema["$defs"]["vector"]["oneOf"]}
    move = schemas.validator_of({**schema["$defs"]["move"], "$defs": schema["$defs"]})
    return schemas.validator_of({**head, "$defs": defs}), kinds, move


def validate_vectors(document: Json, path: Path) -> None:
    """ValueError naming the file, the vector and the place of the first error."""
    check_version(document, path)
    head, kinds, move_validator = _validators()
    _raise(path, "vector", next(iter(head.iter_errors(document)), None))
    checked: set[str] = set()
    for number, vector in enumerate(document["vectors"], start=1):
        name = f"vector {number}" + (f" ({vector['id']})" if isinstance(vector, dict)
                                     and isinstance(vector.get("id"), str) else "")
        kind = vector.get("kind") if isinstance(vector, dict) else None
        if kind not in kinds:
            raise ValueError(f"{path}: not a conformance vector file: {name}: 'kind' must be one of "
                             f"{', '.join(sorted(kinds))}, not {schemas.shown(kind)}")
        _raise(path, "vector", next(iter(kinds[kind].iter_errors(vector)), None), name)
        for move in _moves(vector):
            key = json.dumps(move, sort_keys=True)
            if key not in checked:
                _raise(path, "vector", next(iter(move_validator.iter_errors(move)), None),
                       f"{name}, move {schemas.shown(move)}")
                checked.add(key)


def _moves(value: Json) -> Iterator[Json]:
    """Every move object inside a vector: an object whose ``move`` is a string."""
    if isinstance(value, dict):
        if isinstance(value.get("move"), str):
            yield value
            return
        for item in value.values():
            yield from _moves(item)
    elif isinstance(value, list):
        for item in value:
            yield from _moves(item)


def _raise(path: Path, what: str, error: Any, where: str = "") -> None:
    if error is None:
        return
    place, problem = schemas.explain(error)
    inside = ", ".join(x for x in (where, place) if x)
    raise ValueError(f"{path}: not a conformance {what} file: {inside + ': ' if inside else ''}{problem}")
