"""The reference models behind the conformance protocol.

Run ``cardcanon conform -- python -m cardcanon.conform.reference``: it must pass every vector.
It is also the example to follow when writing an adapter for another implementation.
"""

from __future__ import annotations

import sys
from typing import Any

from cardcanon import __version__
from cardcanon.conform import adapter, session
from cardcanon.conform.protocol import serve
from cardcanon.model.errors import IllegalMoveError


class Session(session.Session):
    """One protocol session over the reference models: the current position."""

    def __init__(self) -> None:
        super().__init__()
        self.position: adapter.Position | None = None

    def start(self, game: str, config: Any) -> str:
        self.position = adapter.Position.start(game, config)
        return f"cardcanon {__version__} reference model"

    @property
    def here(self) -> adapter.Position:
        """The current position (``hello`` sets the first)."""
        if self.position is None:
            raise ValueError("say hello first")
        return self.position

    def legal(self) -> dict[str, Any]:
        return {"chance": True} if self.here.is_chance() else {"moves": self.here.legal_moves()}

    def show(self) -> Any:
        return self.here.canonical()

    def outcome(self) -> Any:
        return self.here.outcome()

    def perft(self, depth: int) -> int:
        return self.here.perft(depth)

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
        try:
            self.position = self.here.apply(move)
        except IllegalMoveError as exc:
            return {"illegal": exc.rule_id}
        except adapter.NotAMove as exc:
            return {"invalid": str(exc)}
        return {"ok": True}


def main() -> int:
    return serve(Session().handle)


if __name__ == "__main__":
    sys.exit(main())
