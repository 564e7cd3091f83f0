"""The implementation under test: a subprocess that answers one JSON line per request.

Its standard error goes to a file (a chatty implementation never blocks); an answer that does
not come within the timeout, or an implementation that exits, is an ImplementationError.
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import tempfile
import time
from typing import Any

from cardcanon.conform.protocol import MAX_LINE, BadJson, answer_problem, encode, parse, request


class AnswerError(Exception):
    """An answer that is not one answer to its request: not JSON within the limits, or fields
    that give it no single meaning. The message names the request and the field."""


class ImplementationError(Exception):
    """The implementation broke the protocol: no answer in time, exited, or answered nonsense."""

    def __init__(self, message: str, timed_out: bool = False) -> None:
        super().__init__(message)
        self.timed_out = timed_out


class StartError(Exception):
    """The command cannot be started at all."""


class Implementation:
    """The implementation under test, as a subprocess speaking the protocol."""

    def __init__(self, command: list[str], timeout: float) -> None:
        self.command, self.timeout = command, timeout
        self.stderr = tempfile.TemporaryFile()  # a file, not a pipe: a chatty implementation never blocks
        try:
            self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=self.stderr, bufsize=0)
        except OSError as exc:
            self.stderr.close()
            raise StartError(f"cannot start {command[0]!r}: {exc.strerror or exc}") from None
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None  # both are pipes
        self.stdin, self.stdout = stdin, stdout
        self.selector = selectors.DefaultSelector()
        self.selector.register(stdout, selectors.EVENT_READ)
        self.buffer = b""
        self.next_id = 1
        self.sent = 0  # requests sent

    def ask(self, op: str, **fields: Any) -> dict[str, Any]:
        """Send one request and wait for its answer; ImplementationError if none comes."""
        message = request(self.next_id, op, **fields)
        self.next_id += 1
        self.sent += 1
        if self.stdin.closed:
            raise ImplementationError("the implementation was stopped")
        try:
            self.stdin.write(encode(message).encode("utf-8"))
            self.stdin.flush()
        except OSError:
            raise ImplementationError(f"the implementation exited{self._exit_note()}") from None
        where = f"answer to request {message['id']} ({op!r})"
        line = self._read_line(op, where)
        try:
            answer = parse(line)
        except BadJson as exc:
            raise AnswerError(f"{where}: {exc}{' at ' + exc.place if exc.place else ''}") from None
        if not isinstance(answer, dict):
            raise AnswerError(f"{where}: not a JSON object")
        if answer.get("id") != message["id"]:
            shown = json.dumps(answer.get("id"))
            raise AnswerError(f"{where}: field 'id' is {shown[:40]}, not {message['id']}")
        problem = answer_problem(op, answer)
        if problem:
            raise AnswerError(f"{where}: {problem}")
        if "error" in answer:
            raise ImplementationError(f"error answering {op!r}: {answer['error']}")
        return answer

    def _read_line(self, op: str, where: str) -> bytes:
        deadline = time.monotonic() + self.timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not self.selector.select(left):
                self.close()
                raise ImplementationError(f"no answer to {op!r} within {self.timeout:g} s", timed_out=True)
            chunk = os.read(self.stdout.fileno(), 1 << 16)
            if not chunk:
                raise ImplementationError(f"the implementation exited{self._exit_note()}")
            self.buffer += chunk
            if len(self.buffer) > MAX_LINE and b"\n" not in self.buffer:
                self.close()
                raise AnswerError(f"{where}: a line longer than {MAX_LINE} bytes")
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line

    def _exit_note(self) -> str:
        try:
            status = self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return ""
        self.stderr.seek(0)
        err = self.stderr.read().decode("utf-8", "replace").strip().splitlines()
        return f" (status {status}{': ' + err[-1] if err else ''})"

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self.stdin.close()
                self.process.wait(timeout=1)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        self.selector.close()
        self.stdout.close()
        self.stderr.close()
