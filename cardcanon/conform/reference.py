"""The reference models behind the conformance protocol.

Run ``cardcanon conform -- python -m cardcanon.conform.reference``: it must pass every vector.
It is also the example to follow when writing an adapter for another implementation.
"""

from __future__ import annotations

import sys
from typing import Any

from cardcanon import __version__
from cardcanon.conform import adapter
from cardcanon.conform.protocol import PROTOCOL, VERSION, serve
from cardcanon.model.errors import IllegalMoveError


class Session:
    """One protocol session: the game and variant named by ``hello``, and the current position."""

    def __init__(self) -> None:
        self.game = ""
        self.config: Any = None
        self.position: adapter.Position | None = None

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request["op"]
        if op == "hello":
            return self.hello(request)
        if op == "bye":
            return {"ok": True}
        if self.position is None:
            raise ValueError("say hello first")
        if op == "shuffle":
            return {"order": adapter.shuffle(self.game, self.config, request["seed"])}
        if op == "deal":
            return adapter.deal(self.game, self.config, request["seed"])
        if op == "position":
            return self.set_position(request["moves"])
        if op == "legal":
            if self.position.is_chance():
                return {"chance": True}
            return {"moves": self.position.legal_moves()}
        if op == "apply":
            return self.apply(request["move"])
        if op == "show":
            return {"position": self.position.canonical()}
        if op == "outcome":
            return {"outcome": self.position.outcome()}
        if op == "perft":
            return {"nodes": self.position.perft(request["depth"])}
        raise ValueError(f"unknown op {op!r}")

    def hello(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("protocol") != PROTOCOL or request.get("version") != VERSION:
            return {"unsupported": f"this implementation speaks {PROTOCOL} version {VERSION}"}
        try:
            start = adapter.Position.start(request["game"], request["config"])
        except ValueError as exc:
            return {"unsupported": str(exc)}
        self.game, self.config, self.position = request["game"], request["config"], start
        return {"protocol": PROTOCOL, "version": VERSION, "implementation": f"cardcanon {__version__} reference model",
                "games": list(adapter.GAMES), "show": True}

    def set_position(self, moves: list[Any]) -> dict[str, Any]:
        position = adapter.Position.start(self.game, self.config)
        for number, move in enumerate(moves, start=1):
            try:
                position = position.apply(move)
            except IllegalMoveError as exc:
                return {"illegal": exc.rule_id, "at": number}
            except adapter.NotAMove as exc:
                return {"invalid": str(exc), "at": number}
        self.position = position
        return {"ok": True}

    def apply(self, move: Any) -> dict[str, Any]:
        if self.position is None:
            raise ValueError("say hello first")
        try:
            self.position = self.position.apply(move)
        except IllegalMoveError as exc:
            return {"illegal": exc.rule_id}
        except adapter.NotAMove as exc:
            return {"invalid": str(exc)}
        return {"ok": True}


def main() -> int:
    return serve(Session().handle)


if __name__ == "__main__":
    sys.exit(main())
