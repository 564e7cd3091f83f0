"""The implementation under test: a subprocess that answers one JSON line per request.

Its standard error goes to a file (a chatty implementation never blocks); its standard output is
read by a thread that splits it into lines (threads and a queue work on every system, where
waiting on a pipe with ``selectors`` does not on Windows). An answer that does not come within
the timeout, or an implementation that exits, is an ImplementationError.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import tempfile
import threading
from typing import IO, Any

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
        self.stdin = stdin
        self.lines: queue.Queue[bytes | None] = queue.Queue()  # None: the output ended
        threading.Thread(target=_read_lines, args=(stdout, self.lines), daemon=True).start()
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
        try:
            line = self.lines.get(timeout=self.timeout)
        except queue.Empty:
            self.close()
            raise ImplementationError(f"no answer to {op!r} within {self.timeout:g} s", timed_out=True) from None
        if line is TOO_LONG:
            self.close()
            raise AnswerError(f"{where}: a line longer than {MAX_LINE} bytes")
        if line is None:
            self.lines.put(None)  # the output stays ended for any later question
            raise ImplementationError(f"the implementation exited{self._exit_note()}")
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
        self.stderr.close()  # the reader thread closes standard output when it ends


TOO_LONG = b"<a line longer than MAX_LINE>"  # put in place of a line past the limit (compared by identity)


def _read_lines(stdout: IO[bytes], lines: queue.Queue[bytes | None]) -> None:
    """Put each line of ``stdout`` (without its newline) on ``lines``, then None when it ends; a line
    longer than ``MAX_LINE`` bytes is :data:`TOO_LONG`, and reading stops there."""
    buffer = b""
    try:
        while chunk := os.read(stdout.fileno(), 1 << 16):
            *complete, buffer = (buffer + chunk).split(b"\n")
            for line in complete + [buffer]:
                if len(line) > MAX_LINE:
                    lines.put(TOO_LONG)
                    return
            for line in complete:
                lines.put(line)
    except OSError:
        pass
    finally:
        lines.put(None)
        stdout.close()
