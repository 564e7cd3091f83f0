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
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
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
