"""``cardcanon conform -- COMMAND``: check an implementation against the vectors.

The runner starts ``COMMAND`` once per vector file, greets it with the file's game and variant
(``hello``), then asks each vector's questions and compares the answers with the vectors'. A
vector passes when every answer agrees; at the first difference it fails with the rule ID, the
position and both answers. A request that is not answered within the timeout, or an
implementation that exits, fails the vector, and the implementation is started again for the
next one.
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardcanon.conform.protocol import PROTOCOL, VERSION, encode, request

Json = Any


class ImplementationError(Exception):
    """The implementation broke the protocol: no answer in time, exited, or answered nonsense."""

    def __init__(self, message: str, timed_out: bool = False) -> None:
        super().__init__(message)
        self.timed_out = timed_out


class StartError(Exception):
    """The command cannot be started at all."""


@dataclass(frozen=True)
class Difference:
    """The first difference in a vector."""

    rule: str
    position: str
    expected: str
    got: str


@dataclass(frozen=True)
class Result:
    file: str
    vector: str
    difference: Difference | None = None

    @property
    def passed(self) -> bool:
        return self.difference is None


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

    def ask(self, op: str, **fields: Any) -> dict[str, Any]:
        """Send one request and wait for its answer; ImplementationError if none comes."""
        message = request(self.next_id, op, **fields)
        self.next_id += 1
        if self.stdin.closed:
            raise ImplementationError("the implementation was stopped")
        try:
            self.stdin.write(encode(message).encode("utf-8"))
            self.stdin.flush()
        except OSError:
            raise ImplementationError(f"the implementation exited{self._exit_note()}") from None
        line = self._read_line(op)
        try:
            answer = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise ImplementationError(f"answer to {op!r} is not JSON: {line[:200]!r}") from None
        if not isinstance(answer, dict) or answer.get("id") != message["id"]:
            raise ImplementationError(f"answer to {op!r} request {message['id']} has id "
                                      f"{answer.get('id') if isinstance(answer, dict) else None!r}")
        if "error" in answer:
            raise ImplementationError(f"error answering {op!r}: {answer['error']}")
        return answer

    def _read_line(self, op: str) -> bytes:
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


# ---- comparing answers -------------------------------------------------------------------------
def move_key(move: Json) -> str:
    """A move's identity: its JSON with sorted keys (a tie's callers in increasing order)."""
    if isinstance(move, dict) and isinstance(move.get("callers"), list):
        move = {**move, "callers": sorted(move["callers"], key=str)}
    return json.dumps(move, sort_keys=True, ensure_ascii=False)


def show(value: Json, limit: int = 600) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


def show_moves(moves: list[Json]) -> str:
    return show(sorted(moves, key=move_key))


class Mismatch(Exception):
    def __init__(self, difference: Difference) -> None:
        super().__init__(difference.rule)
        self.difference = difference


def mismatch(rule: str, position: str, expected: Json, got: Json) -> Mismatch:
    return Mismatch(Difference(rule, position, expected if isinstance(expected, str) else show(expected),
                               got if isinstance(got, str) else show(got)))


def at(prefix: int) -> str:
    return "the start of the game" if prefix == 0 else f"after move {prefix}"


def compare_legal(expected: Json, answer: Json, forbidden: list[Json], rules: str, where: str) -> None:
    """Raise Mismatch at the first difference between two answers to ``legal``."""
    if expected.get("chance"):
        if answer.get("chance") is not True:
            raise mismatch(rules, where, "a chance node (chance: true)", answer)
        return
    moves = answer.get("moves")
    if answer.get("chance") or not isinstance(moves, list):
        raise mismatch(rules, where, {"moves": expected["moves"]}, answer)
    got = {move_key(m): m for m in moves}
    if len(got) != len(moves):
        raise mismatch(rules, where, "each legal move once", "a move listed twice: " + show_moves(moves))
    want = {move_key(m) for m in expected["moves"]}
    extra = [got[k] for k in got if k not in want]
    missing = [m for m in expected["moves"] if move_key(m) not in got]
    if extra:
        rule_of = {move_key(f["move"]): f["rule"] for f in forbidden}
        known = [rule_of[move_key(m)] for m in extra if move_key(m) in rule_of]
        raise mismatch(known[0] if known else rules, where, _legal_text(expected["moves"]),
                       f"also {show_moves(extra)}, which are not legal; {_legal_text(moves)}")
    if missing:
        raise mismatch(rules, where, _legal_text(expected["moves"]),
                       f"not {show_moves(missing)}, which are legal; {_legal_text(moves)}")


def _legal_text(moves: list[Json]) -> str:
    return f"{len(moves)} legal moves {show_moves(moves)}"


def set_position(impl: Implementation, moves: list[Json], rules: str) -> None:
    answer = impl.ask("position", moves=moves)
    if answer.get("ok") is not True:
        where = f"move {answer.get('at', '?')} of the prefix"
        raise mismatch(answer.get("illegal") or rules, where, "every move of the prefix accepted", answer)


def expect_illegal(impl: Implementation, move: Json, rule: str, where: str) -> None:
    answer = impl.ask("apply", move=move)
    if answer.get("illegal") != rule:
        raise mismatch(rule, where, f"{show(move)} is illegal: {rule}", answer)


# ---- one check per kind of vector ---------------------------------------------------------------
def check_shuffle(impl: Implementation, vector: Json, rules: str) -> None:
    answer = impl.ask("shuffle", seed=vector["seed"])
    expected = vector["expect"]["order"]
    got = answer.get("order")
    if got != expected:
        i = next((i for i, (a, b) in enumerate(zip(expected, got or [])) if a != b), min(len(expected), len(got or [])))
        raise mismatch(rules, f"seed {vector['seed']}, card {i + 1} of the shuffled deck", expected, got)


def check_deal(impl: Implementation, vector: Json, rules: str) -> None:
    answer = impl.ask("deal", seed=vector["seed"])
    for name, value in vector["expect"].items():
        if answer.get(name) != value:
            raise mismatch(rules, f"seed {vector['seed']}: {name}", value, answer.get(name))


def check_legal(impl: Implementation, vector: Json, rules: str) -> None:
    set_position(impl, vector["moves"], rules)
    where = f"{at(len(vector['moves']))}: {vector['about']}"
    compare_legal(vector["expect"], impl.ask("legal"), vector["forbidden"], rules, where)
    for item in vector["forbidden"]:
        expect_illegal(impl, item["move"], item["rule"], where)


def check_illegal(impl: Implementation, vector: Json, rules: str) -> None:
    set_position(impl, vector["moves"], rules)
    expect_illegal(impl, vector["move"], vector["expect"]["illegal"], at(len(vector["moves"])))


def check_perft(impl: Implementation, vector: Json, rules: str) -> None:
    set_position(impl, vector["moves"], rules)
    for depth, nodes in enumerate(vector["expect"]["nodes"], start=1):
        answer = impl.ask("perft", depth=depth)
        if answer.get("nodes") != nodes:
            raise mismatch(rules, f"{at(len(vector['moves']))}, depth {depth}", {"nodes": nodes}, answer)


def check_game(impl: Implementation, vector: Json, rules: str) -> None:
    set_position(impl, [], rules)
    for number, (move, legal) in enumerate(zip(vector["moves"], vector["legal"]), start=1):
        where = f"move {number}, {show(move)}"
        compare_legal(legal, impl.ask("legal"), [], rules, where)
        answer = impl.ask("apply", move=move)
        if answer.get("ok") is not True:
            raise mismatch(answer.get("illegal") or rules, where, "the move is accepted", answer)
    answer = impl.ask("outcome")
    if answer.get("outcome") != vector["expect"]["outcome"]:
        raise mismatch(rules, f"the end, after move {len(vector['moves'])}", vector["expect"]["outcome"],
                       answer.get("outcome"))


CHECKS: dict[str, Callable[[Implementation, Json, str], None]] = {
    "shuffle": check_shuffle, "deal": check_deal, "legal": check_legal, "illegal": check_illegal,
    "perft": check_perft, "game": check_game,
}


# ---- running -----------------------------------------------------------------------------------
def greet(impl: Implementation, document: Json) -> str | None:
    """Send ``hello``; the reason the implementation refused, or None."""
    answer = impl.ask("hello", protocol=PROTOCOL, version=VERSION, game=document["game"], config=document["config"])
    if "unsupported" in answer:
        return f"the implementation does not support this variant: {answer['unsupported']}"
    if answer.get("protocol") != PROTOCOL or answer.get("version") != VERSION:
        return f"the implementation answered hello with {show(answer)}"
    return None


def run_file(command: list[str], path: Path, name: str, timeout: float) -> Iterator[Result]:
    """The results of one file's vectors. After a crash the implementation is started again for
    the next vector; after a timeout, or a refused hello, the file's other vectors fail unrun."""
    document = read_json(path)
    if not isinstance(document.get("vectors"), list) or not all(
            isinstance(v, dict) and v.get("kind") in CHECKS and isinstance(v.get("rules"), list)
            for v in document["vectors"]):
        raise ValueError(f"{path}: not a conformance vector file (see conformance-vectors.schema.json)")
    impl: Implementation | None = None
    given_up: str | None = None
    try:
        for vector in document["vectors"]:
            rules = ", ".join(vector["rules"])
            if given_up:
                yield Result(name, vector["id"], Difference("-", "-", "an answer", given_up))
                continue
            if impl is None:
                impl = Implementation(command, timeout)
                try:
                    refused = greet(impl, document)
                except ImplementationError as exc:
                    refused = str(exc)
                if refused:
                    given_up = f"not run: hello failed ({refused})"
                    yield Result(name, vector["id"], Difference("-", "hello", "hello accepted", refused))
                    continue
            try:
                CHECKS[vector["kind"]](impl, vector, rules)
                yield Result(name, vector["id"])
            except Mismatch as exc:
                yield Result(name, vector["id"], exc.difference)
            except ImplementationError as exc:
                yield Result(name, vector["id"], Difference("-", "-", "an answer", str(exc)))
                if exc.timed_out:
                    given_up = f"not run: the implementation stopped answering ({exc})"
                impl.close()
                impl = None
    finally:
        if impl is not None:
            try:
                impl.ask("bye")
            except ImplementationError:
                pass
            impl.close()


def run(command: list[str], directory: Path, timeout: float, only: list[str] | None = None) -> Iterator[Result]:
    """Every vector's result, file by file, in the index's order."""
    index = read_json(directory / "index.json")
    if not isinstance(index.get("files"), list):
        raise ValueError(f"{directory / 'index.json'}: not a conformance index (no 'files' list)")
    for entry in index["files"]:
        name = entry["path"].removesuffix(".json")
        if only and not any(name == o or name.startswith(o.rstrip("/") + "/") for o in only):
            continue
        yield from run_file(command, directory / entry["path"], name, timeout)


def read_json(path: Path) -> dict[str, Any]:
    """A JSON object from a file; ValueError naming the file and the place when it is not one."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a JSON object")
    return data


def format_result(result: Result) -> str:
    if result.passed:
        return f"PASS {result.file} {result.vector}"
    d = result.difference
    assert d is not None
    rule = f"one of {d.rule}" if "," in d.rule else d.rule
    return (f"FAIL {result.file} {result.vector}\n"
            f"     rule:     {rule}\n"
            f"     position: {d.position}\n"
            f"     expected: {d.expected}\n"
            f"     got:      {d.got}")
