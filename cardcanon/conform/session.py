"""One protocol session: the requests of :mod:`cardcanon.conform.protocol` turned into calls.

:class:`Session` answers ``hello`` (the protocol and its version; the implementation's
:meth:`Session.start` loads the game and variant), ``bye``, and ``shuffle`` and ``deal``, which are
about seeds and answered by the reference models (:mod:`cardcanon.conform.adapter`); every other
op goes to a method of the implementation. :mod:`cardcanon.conform.reference` (the reference
models) and :mod:`cardcanon.openspiel.conform` (the OpenSpiel states) are its two sessions.
"""

from __future__ import annotations

from typing import Any

from cardcanon.conform import adapter
from cardcanon.conform.protocol import PROTOCOL, VERSION

Answer = dict[str, Any]


class Session:
    """A session's game and variant (``game``, ``config``, as ``hello`` named them) and the dispatch."""

    def __init__(self) -> None:
        self.game, self.config, self.started = "", None, False

    def handle(self, request: dict[str, Any]) -> Answer:
        op = request["op"]
        if op == "hello":
            return self.hello(request)
        if op == "bye":
            return {"ok": True}
        if not self.started:
            raise ValueError("say hello first")
        if op == "shuffle":
            return {"order": adapter.shuffle(self.game, self.config, request["seed"])}
        if op == "deal":
            return adapter.deal(self.game, self.config, request["seed"])
        if op == "position":
            return self.set_position(request["moves"])
        if op == "legal":
            return self.legal()
        if op == "apply":
            return self.apply(request["move"])
        if op == "show":
            return {"position": self.show()}
        if op == "outcome":
            return {"outcome": self.outcome()}
        if op == "perft":
            return {"nodes": self.perft(request["depth"])}
        raise ValueError(f"unknown op {op!r}")

    def hello(self, request: dict[str, Any]) -> Answer:
        if request.get("protocol") != PROTOCOL or request.get("version") != VERSION:
            return {"unsupported": f"this implementation speaks {PROTOCOL} version {VERSION}"}
        try:
            implementation = self.start(request["game"], request["config"])
        except ValueError as exc:
            return {"unsupported": str(exc)}
        self.game, self.config, self.started = request["game"], request["config"], True
        return {"protocol": PROTOCOL, "version": VERSION, "implementation": implementation,
                "games": list(adapter.GAMES), "show": True}

    # ---- the implementation's part -------------------------------------------------------------
    def start(self, game: str, config: Any) -> str:
        """Load ``game`` with ``config`` at its start position: the implementation's name, or
        ValueError (answered as unsupported)."""
        raise NotImplementedError

    def set_position(self, moves: list[Any]) -> Answer:
        raise NotImplementedError

    def legal(self) -> Answer:
        raise NotImplementedError

    def apply(self, move: Any) -> Answer:
        raise NotImplementedError

    def show(self) -> Any:
        raise NotImplementedError

    def outcome(self) -> Any:
        raise NotImplementedError

    def perft(self, depth: int) -> int:
        raise NotImplementedError
