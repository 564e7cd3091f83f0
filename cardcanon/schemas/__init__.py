"""JSON Schemas (draft 2020-12) of cardcanon's files, shipped as package data.

``load(name)`` returns a schema by name (``"hearts-record"`` reads
``hearts-record.schema.json``); ``validate(name, data, where)`` checks a parsed document
and raises :class:`SchemaError` with one plain-words message naming the file, the move (counted
from 1) and the field, e.g. ``game.json: move 17, field 'card': expected a card name ...``.

Integers are strict: ``true`` and ``1.0`` are not integers here (standard JSON Schema would
take ``1.0`` for ``1``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from functools import cache
from importlib import resources
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError

from cardcanon.spec.errors import CardcanonError

MAX_SHOWN = 40  # characters of a bad value quoted in a message


class SchemaError(CardcanonError):
    """A document that does not match its schema."""


def names() -> list[str]:
    """The schemas shipped, by name."""
    return sorted(p.name.removesuffix(".schema.json") for p in resources.files(__name__).iterdir()
                  if p.name.endswith(".schema.json"))


@cache
def _text(name: str) -> str:
    path = resources.files(__name__) / f"{name}.schema.json"
    if not path.is_file():
        raise KeyError(f"no schema named {name!r} (schemas: {', '.join(names())})")
    return path.read_text(encoding="utf-8")


def load(name: str) -> dict[str, Any]:
    """The schema ``name`` as a fresh JSON object."""
    schema: dict[str, Any] = json.loads(_text(name))
    return schema


def _strict_integer(checker: Any, instance: Any) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


_Validator: Any = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _strict_integer),
)


def validator_of(schema: dict[str, Any]) -> Any:
    """A validator of ``schema`` (strict integers, as every validator here)."""
    return _Validator(schema)


@cache
def validator(name: str) -> Any:
    schema = load(name)
    _Validator.check_schema(schema)
    return _Validator(schema)


@cache
def _move_validator(name: str) -> Any:  # a Draft 2020-12 validator (typed loosely by its stubs)
    schema = load(name)
    return _Validator({**schema["properties"]["moves"]["items"], "$defs": schema["$defs"]})


def first_error(name: str, data: Any) -> ValidationError | None:
    """The first error of ``data`` against schema ``name``, or None.

    A record's moves are checked one distinct move at a time: most moves repeat (a flip by P1,
    a play of the 7 of hearts), and checking each of 500,000 moves anew takes minutes."""
    whole = validator(name)
    moves = data.get("moves") if isinstance(data, dict) else None
    if not isinstance(moves, list) or "moves" not in whole.schema.get("properties", {}):
        found: ValidationError | None = next(iter(whole.iter_errors(data)), None)
        return found
    error: ValidationError | None = next(iter(whole.iter_errors({**data, "moves": []})), None)
    if error is not None:
        return error
    limit = whole.schema["properties"]["moves"].get("maxItems")
    if limit is not None and len(moves) > limit:
        return ValidationError(f"too many moves: {len(moves)}", validator="maxItems", validator_value=limit,
                               instance=moves, schema=whole.schema["properties"]["moves"], path=["moves"])
    items, valid = _move_validator(name), set()
    for index, move in enumerate(moves):
        key = _key(move)
        if key in valid:
            continue
        bad: ValidationError | None = next(iter(items.iter_errors(move)), None)
        if bad is not None:
            bad.path.extendleft([index, "moves"])
            return bad
        valid.add(key)
    return None


def _key(move: Any) -> Any:
    """A key equal for equal JSON values only (true is not 1, 1.0 is not 1)."""
    if isinstance(move, dict):
        key = (tuple(move), tuple(map(type, move.values())), tuple(move.values()))
        try:
            hash(key)
            return key
        except TypeError:  # a list inside (a deal's order)
            pass
    return json.dumps(move)


def validate(name: str, data: Any, where: str) -> None:
    """Raise :class:`SchemaError` for the first place where ``data`` breaks schema ``name``."""
    error = first_error(name, data)
    if error is not None:
        place, problem = explain(error)
        raise SchemaError(f"{where}: {place}: {problem}" if place else f"{where}: {problem}")


# ---- plain words -------------------------------------------------------------------------
def place_name(path: Iterable[Any]) -> str:
    """``['moves', 16, 'order', 3]`` -> ``move 17, field 'order', item 4``."""
    parts = list(path)
    words = []
    if len(parts) >= 2 and parts[0] == "moves" and isinstance(parts[1], int):
        words.append(f"move {parts[1] + 1}")
        parts = parts[2:]
    dotted = ""
    for part in parts:
        if isinstance(part, int):
            if dotted:
                words.append(f"field {dotted!r}")
                dotted = ""
            words.append(f"item {part + 1}")
        else:
            dotted = f"{dotted}.{part}" if dotted else str(part)
    if dotted:
        words.append(f"field {dotted!r}")
    return ", ".join(words)


def shown(value: Any) -> str:
    """A JSON value as the user wrote it, cut short."""
    text = json.dumps(value, ensure_ascii=False) if _is_json(value) else repr(value)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."


def _is_json(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float, str, list, dict))


def described(value: Any) -> str:
    """``"Qs"`` -> ``the string "Qs"``; ``true`` -> ``true``; ``[...]`` -> ``an array``."""
    if value is None or isinstance(value, bool):
        return shown(value)
    if isinstance(value, int):
        return f"the integer {shown(value)}"
    if isinstance(value, float):
        return f"the number {shown(value)}"
    if isinstance(value, str):
        return f"the string {shown(value)}"
    if isinstance(value, list):
        return f"an array of {len(value)} items"
    return "an object"


_TYPE_WORDS = {"integer": "an integer", "string": "a string", "boolean": "true or false", "array": "an array",
               "object": "an object", "null": "null", "number": "a number"}


def _expected_type(kind: Any) -> str:
    kinds = kind if isinstance(kind, list) else [kind]
    return " or ".join(_TYPE_WORDS.get(k, str(k)) for k in kinds)


def _number_range(schema: dict[str, Any]) -> str:
    low, high = schema.get("minimum"), schema.get("maximum")
    if high is None:
        return f"an integer of at least {low}"
    return f"an integer from {low} to {high}" if low is not None else f"an integer of at most {high}"


def explain(error: ValidationError) -> tuple[str, str]:
    """(place, problem) in plain words for one validation error."""
    path: list[Any] = list(error.absolute_path)
    value: Any = error.instance
    rule: Any = error.validator
    arg: Any = error.validator_value
    schema: Any = error.schema
    if rule == "oneOf" and error.context:
        branches = [e for e in error.context if not (e.validator == "type" and e.validator_value == "null")]
        if branches:
            place, problem = explain(branches[0])
            if list(branches[0].absolute_path) == path:  # the value itself, which may also be null
                problem = problem.replace(", found", " or null, found", 1)
            return place, problem
    if rule == "additionalProperties":
        allowed = sorted(schema.get("properties", {}))
        extra = sorted(set(value) - set(allowed))
        return place_name(path + [extra[0]]), f"unknown field (fields here: {', '.join(allowed)})"
    if rule == "required":
        missing = [name for name in arg if name not in value]
        return place_name(path + missing[:1]), "missing"
    found = f"found {described(value)}"
    problems: dict[str, Callable[[], str]] = {
        "type": lambda: f"expected {_expected_type(arg)}, {found}",
        "const": lambda: f"expected {shown(arg)}, {found}",
        "enum": lambda: f"expected one of {', '.join(shown(v) for v in arg)}, {found}",
        "minimum": lambda: f"expected {_number_range(schema)}, {found}",
        "maximum": lambda: f"expected {_number_range(schema)}, {found}",
        "pattern": lambda: f"expected {schema.get('description', 'a value of the documented form')}, {found}",
        "maxItems": lambda: f"expected at most {arg} items, found {len(value)}",
        "minItems": lambda: f"expected at least {arg} item{'s' * (arg != 1)}, found {len(value)}",
        "minProperties": lambda: f"expected at least {arg} fields, found {len(value)}",
        "uniqueItems": lambda: "an item is listed twice",
        "maxLength": lambda: f"expected at most {arg} characters, found {len(value)}",
    }
    return place_name(path), problems.get(rule, _other)()


def _other() -> str:
    return "does not match the record format"
