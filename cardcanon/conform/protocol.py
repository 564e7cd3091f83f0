"""The conformance protocol: JSON lines between ``cardcanon conform`` and an implementation.

The runner starts the implementation once per vector file and writes one JSON object per line
to its standard input; the implementation answers each with one JSON object on one line of its
standard output, in order, and flushes. Every request has an ``id`` (an integer) and an ``op``;
every answer repeats the ``id``. Anything the implementation writes to standard error is shown
only when it fails. The full description, with a worked example, is in the documentation
(``docs/conformance.rst``).

Positions are game-record prefixes: a list of moves written exactly as in a game record's
``moves`` (``{"move": "play", "player": 0, "card": "Qs"}``), counted from the start of the game.
An implementation that answers ``show`` (and says ``show: true`` in its ``hello`` answer) gives
the current position in the canonical form of :mod:`cardcanon.conform.positions`.

Every answer is read within limits (:func:`parse`) and must be one of the forms of its request
(:data:`ANSWERS`, :func:`answer_problem`): one meaning, every field of its type.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from typing import Any, TextIO

PROTOCOL = "cardcanon-conform"
VERSION = 1

# op -> the request fields besides "id" and "op"
REQUESTS: dict[str, tuple[str, ...]] = {
    "hello": ("protocol", "version", "game", "config"),  # answer: protocol, version, implementation
    # (+ games, the games it plays; + show: true if it answers "show") | unsupported (the reason)
    "shuffle": ("seed",),  # answer: order
    "deal": ("seed",),  # answer: moves, hands, to_move (+ dead for Hearts)
    "position": ("moves",),  # answer: ok | illegal (rule ID) + at (1-based) | invalid + at
    "legal": (),  # answer: chance (true) | moves
    "apply": ("move",),  # answer: ok | illegal (rule ID) | invalid
    "outcome": (),  # answer: outcome (null while the game goes on)
    "show": (),  # answer: position, the canonical position (cardcanon.conform.positions)
    "perft": ("depth",),  # answer: nodes
    "bye": (),  # answer: ok; then the implementation exits
}


# The clauses of the protocol a ``protocol`` vector tests, in the words a failure names them.
CLAUSES = {
    "start": "hello, and position with no moves: the position is the start of a game",
    "refused-prefix": "position: a prefix refused at a move leaves the position as it was",
}


# ---- answers: read within limits, then checked for one meaning ------------------------------------
MAX_LINE = 16 << 20  # bytes of one answer
MAX_DEPTH = 32  # arrays and objects nested in an answer (a position nests 3 deep)
MAX_DIGITS = 40  # digits of an integer (a seed has 20)


class BadJson(ValueError):
    """Text that is not a JSON value within the limits; the message says what is wrong, ``place``
    (``line:column``) where, when known."""

    def __init__(self, message: str, place: str = "") -> None:
        super().__init__(message)
        self.place = place


def _integer(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise BadJson(f"an integer of {digits} digits (at most {MAX_DIGITS})")
    return int(text)


def _depth_problem(value: Any, limit: int) -> str | None:
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            if depth > limit:
                return f"arrays and objects nested more than {limit} deep"
            stack += [(v, depth + 1) for v in (item.values() if isinstance(item, dict) else item)]
    return None


def parse(text: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """A JSON value within the limits (depth, digits of an integer); BadJson saying what is wrong."""
    try:
        value = json.loads(text, parse_int=_integer)
    except BadJson:
        raise
    except json.JSONDecodeError as exc:
        raise BadJson(f"not valid JSON: {exc.msg}", f"{exc.lineno}:{exc.colno}") from None
    except RecursionError:
        raise BadJson(f"arrays and objects nested more than {max_depth} deep") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise BadJson(f"not valid JSON: {exc}") from None
    problem = _depth_problem(value, max_depth)
    if problem:
        raise BadJson(problem)
    return value


def _string(value: Any) -> bool:
    return isinstance(value, str)


def _integer_value(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _count(value: Any) -> bool:
    return _integer_value(value) and value >= 0


def _true(value: Any) -> bool:
    return value is True


def _boolean(value: Any) -> bool:
    return isinstance(value, bool)


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _objects(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, dict) for v in value)


def _piles(value: Any) -> bool:
    return isinstance(value, list) and all(_strings(v) for v in value)


def _object(value: Any) -> bool:
    return isinstance(value, dict)


def _seat_or_null(value: Any) -> bool:
    return value is None or _count(value)


def _object_or_null(value: Any) -> bool:
    return value is None or isinstance(value, dict)


Check = Callable[[Any], bool]
WORDS: dict[Check, str] = {
    _string: "a string", _integer_value: "an integer", _count: "a whole number", _true: "true",
    _boolean: "true or false", _strings: "an array of strings", _objects: "an array of objects",
    _piles: "an array of arrays of strings", _object: "an object", _seat_or_null: "a seat or null",
    _object_or_null: "an object or null",
}
# op -> each form its answer may take: field -> its check (a field ending in "?" is optional).
# The first field of a form tells the forms apart; every answer may instead be {"error": message}.
ANSWERS: dict[str, tuple[dict[str, Check], ...]] = {
    "hello": ({"protocol": _string, "version": _integer_value, "implementation": _string, "games?": _strings,
               "show?": _boolean},
              {"unsupported": _string, "games?": _strings}),
    "shuffle": ({"order": _strings},),
    "deal": ({"moves": _objects, "hands": _piles, "to_move": _seat_or_null, "dead?": _strings},),
    "position": ({"ok": _true}, {"illegal": _string, "at": _count}, {"invalid": _string, "at": _count}),
    "legal": ({"chance": _true}, {"moves": _objects}),
    "apply": ({"ok": _true}, {"illegal": _string}, {"invalid": _string}),
    "outcome": ({"outcome": _object_or_null},),
    "show": ({"position": _object},),
    "perft": ({"nodes": _count},),
    "bye": ({"ok": _true},),
}
ERROR: dict[str, Check] = {"error": _string}


def _forms(op: str) -> Iterator[dict[str, Check]]:
    yield from ANSWERS[op]
    yield ERROR


def answer_problem(op: str, answer: dict[str, Any]) -> str | None:
    """What makes ``answer`` (without its ``id``) not one answer to ``op``, naming the field; None if it is one."""
    fields = [key for key in answer if key != "id"]
    forms = list(_forms(op))
    form = next((f for f in forms if next(iter(f)) in answer), None)
    if form is None:
        firsts = " or ".join(f"'{next(iter(f))}'" for f in forms)
        return f"an answer to {op!r} has {firsts}; got the fields {', '.join(map(repr, fields)) or 'none'}"
    named = {key.rstrip("?"): check for key, check in form.items()}
    for key in fields:
        if key not in named:
            return f"field {key!r} has no place beside {next(iter(form))!r} in an answer to {op!r}"
    for key, check in form.items():
        name = key.rstrip("?")
        if name not in answer:
            if not key.endswith("?"):
                return f"field {name!r} is missing"
        elif not check(answer[name]):
            shown = json.dumps(answer[name], ensure_ascii=False)
            return f"field {name!r} must be {WORDS[check]}, not {shown[:60] + '...' if len(shown) > 60 else shown}"
    return None


def request(request_id: int, op: str, **fields: Any) -> dict[str, Any]:
    if op not in REQUESTS or set(fields) != set(REQUESTS[op]):
        raise ValueError(f"not a {op!r} request: {sorted(fields)}")
    return {"id": request_id, "op": op, **fields}


def encode(message: dict[str, Any]) -> str:
    """One message as one line: compact JSON, keys in a fixed order, UTF-8."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n"


Handler = Callable[[dict[str, Any]], dict[str, Any]]


def serve(handle: Handler, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Answer requests line by line with ``handle`` until ``bye`` or the end of input.

    ``handle`` gets a request and returns the answer's fields; an exception it raises becomes
    an ``error`` answer, so one bad request does not end the session.
    """
    for line in stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except json.JSONDecodeError as exc:
            stdout.write(encode({"id": None, "error": f"not JSON: {exc.msg}"}))
            stdout.flush()
            continue
        request_id = message.get("id") if isinstance(message, dict) else None
        try:
            if not isinstance(message, dict) or not isinstance(message.get("op"), str):
                raise ValueError("a request is an object with an 'op'")
            answer = handle(message)
        except Exception as exc:  # the protocol reports every failure as an answer
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        stdout.write(encode({"id": request_id, **answer}))
        stdout.flush()
        if isinstance(message, dict) and message.get("op") == "bye":
            break
    return 0
