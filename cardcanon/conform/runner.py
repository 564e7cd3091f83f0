"""``cardcanon conform -- COMMAND``: check an implementation against the vectors.

Every file is checked against its schema before any work. The runner starts ``COMMAND`` once
per vector file, greets it with the file's game and variant (``hello``), then asks each
vector's questions and compares the answers with the vectors'. When the implementation answers
``show``, it also compares the position after every move of a prefix with the reference
model's. A vector passes when every answer agrees; at the first difference it fails with the
rule IDs, the move, the positions and both answers. A file whose ``hello`` is answered
``unsupported`` is skipped. A request not answered within the timeout, or an implementation
that exits, fails the vector, and the implementation is started again for the next one; if
that happens at the very first ``hello``, the run stops with one error. An answer without one
meaning (:func:`cardcanon.conform.protocol.answer_problem`) stops the run with one error naming
the file, the vector, the request and the field.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardcanon.conform import adapter, files, positions, selfcheck, steps
from cardcanon.conform.process import AnswerError, Implementation, ImplementationError, StartError

__all__ = ["AnswerError", "Difference", "ImplementationError", "Progress", "Result", "StartError", "format_result",
           "load", "run"]
from cardcanon.conform.protocol import CLAUSES, PROTOCOL, VERSION
from cardcanon.model.cards import Card
from cardcanon.model.errors import IllegalMoveError

Json = Any


@dataclass(frozen=True)
class Difference:
    """The first difference in a vector; ``details`` are further labelled lines of the report."""

    rule: str
    position: str
    expected: str
    got: str
    details: tuple[tuple[str, str], ...] = ()
    label: str = "rule"  # what ``rule`` names: rule IDs, or a clause of the protocol ("clause")


@dataclass(frozen=True)
class Result:
    file: str
    vector: str
    difference: Difference | None = None
    skipped: str | None = None  # why the vector was not run (a game or variant not played)

    @property
    def passed(self) -> bool:
        return self.difference is None and self.skipped is None


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


CALLS = {"snap": '"Snap!"', "snap-pot": '"Snap Pot!"', "hand": "a hand on the index card"}


def _card(text: Json) -> str:
    try:
        return Card.parse(text).pretty if isinstance(text, str) else show(text)
    except ValueError:
        return show(text)


def move_words(move: Json) -> str:
    """A move in the rulebook's words, then its JSON: ``seat 0 calls "Snap!" {"move":"call",...}``."""
    kind = move.get("move") if isinstance(move, dict) else None
    try:
        if kind == "play":
            text = f"seat {move['player']} plays {_card(move['card'])}"
        elif kind == "flip":
            text = f"seat {move['player']} flips"
        elif kind == "no-call":
            text = "nobody calls"
        elif kind == "call":
            text = f"seat {move['caller']} calls {CALLS.get(move['kind'], show(move['kind']))}"
        elif kind == "tie":
            names = [str(s) for s in move["callers"]]
            seats = ", ".join(names[:-1]) + " and " + names[-1]
            text = f"seats {seats} call {CALLS.get(move['kind'], show(move['kind']))} at the same instant"
        elif kind == "deal":
            text = "the deal" + (f" by seat {move['dealer']}" if "dealer" in move else "")
        elif kind == "choose-dealer":
            text = f"seat {move['dealer']} is chosen to deal"
        else:
            return show(move)
    except (KeyError, TypeError):
        return show(move)
    return f"{text} {show(move, 160)}"


class Mismatch(Exception):
    def __init__(self, difference: Difference) -> None:
        super().__init__(difference.rule)
        self.difference = difference


def mismatch(rule: str, position: str, expected: Json, got: Json,
             details: tuple[tuple[str, str], ...] = ()) -> Mismatch:
    return Mismatch(Difference(rule, position, expected if isinstance(expected, str) else show(expected),
                               got if isinstance(got, str) else show(got), details))


def at(prefix: int) -> str:
    return "the start of the game" if prefix == 0 else f"after move {prefix}"


def accepted_rules(expected: str, also: Json) -> set[str]:
    """The rule a refusal must cite, and those the vector accepts as equally right."""
    return {expected} | set(also["rules"] if isinstance(also, dict) else ())


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


def prefix_keys(moves: list[Json]) -> list[str]:
    """A key for each prefix of ``moves`` (``moves[:1]``, ``moves[:2]`` ...): a hash chain."""
    keys, key = [], ""
    for move in moves:
        key = hashlib.sha256((key + json.dumps(move, sort_keys=True)).encode("utf-8")).hexdigest()
        keys.append(key)
    return keys


# ---- one file's session --------------------------------------------------------------------------
@dataclass
class Session:
    """The implementation under test, greeted for one file's game and variant."""

    impl: Implementation
    game: str
    config: Json
    shows: bool  # it answers "show": positions are compared after every move
    unshown: int = 0  # vectors whose positions could not be compared
    compared: set[str] = field(default_factory=set)  # prefixes already compared move by move (prefix_keys)

    def ask(self, op: str, **fields: Any) -> dict[str, Any]:
        return self.impl.ask(op, **fields)

    def position(self) -> Json:
        answer = self.ask("show")
        if not isinstance(answer.get("position"), dict):
            raise ImplementationError(f"answer to 'show' has no position object: {show(answer, 200)}")
        return answer["position"]

    def replay(self, moves: list[Json], digests: list[str] | None, rules: str) -> Json:
        """Bring the implementation to the position after ``moves``. With ``show`` and the
        vector's digests, move by move, comparing the position after each; returns the last
        position shown (None without ``show``)."""
        if not (self.shows and digests is not None):
            self.unshown += digests is not None
            answer = self.ask("position", moves=moves)
            if answer.get("ok") is not True:
                number = answer.get("at")
                move = moves[number - 1] if isinstance(number, int) and 0 < number <= len(moves) else None
                where = f"move {number} of the prefix: {move_words(move)}" if move else "the prefix"
                raise mismatch(answer.get("illegal") or rules, where, "every move of the prefix accepted", answer)
            return None
        chain = prefix_keys(moves)
        known = next((k for k in range(len(moves), 0, -1) if chain[k - 1] in self.compared), 0)
        answer = self.ask("position", moves=moves[:known])
        if answer.get("ok") is not True:
            raise mismatch(rules, at(known), "the prefix accepted (it was before)", answer)
        shown = self.position()
        if known and positions.digest(shown) != digests[known - 1]:
            raise self.position_mismatch(moves, known, None, shown, digests[known - 1])
        for number, (move, wanted) in enumerate(zip(moves, digests), start=1):
            if number <= known:
                continue
            answer = self.ask("apply", move=move)
            if answer.get("ok") is not True:
                reference = self.reference(moves[:number - 1])
                rule = answer.get("illegal") or rules
                raise mismatch(rule, f"move {number} of the prefix: {move_words(move)}", "the move is accepted",
                               answer, (("applies", ", ".join(reference.step_rules(move))),))
            got = self.position()
            if positions.digest(got) != wanted:
                raise self.position_mismatch(moves, number, shown, got, wanted)
            self.compared.add(chain[number - 1])
            shown = got
        return shown

    def reference(self, moves: list[Json]) -> adapter.Position:
        return adapter.Position.start(self.game, self.config).apply_all(moves)

    def position_mismatch(self, moves: list[Json], number: int, before: Json | None, got: Json,
                          wanted: str) -> Mismatch:
        """The first position that differs: the move, the position before it, both positions,
        their differences, and the rules the move applies (narrowed to those deciding the
        fields that differ)."""
        move = moves[number - 1]
        previous = self.reference(moves[:number - 1])
        expected = previous.apply(move).canonical()
        applies = previous.step_rules(move)
        named = steps.blamed(self.game, applies, expected, got)
        lines = positions.differences(expected, got)
        details = [("applies", ", ".join(applies))]
        details += [("before", show(before, 2000))] if before is not None else []
        if positions.digest(expected) != wanted:
            details.append(("note", "the reference model's position differs from this vector file's: "
                                    "regenerate the vectors (cardcanon conform --write)"))
        details += [("diff" if i == 0 else "", line) for i, line in enumerate(lines[:12])]
        if len(lines) > 12:
            details.append(("", f"... and {len(lines) - 12} more differences"))
        return mismatch(", ".join(named), f"move {number} of the prefix: {move_words(move)}",
                        show(expected, 2000), show(got, 2000), tuple(details))

    def expect_illegal(self, move: Json, rule: str, also: Json, where: str, before: Json) -> None:
        answer = self.ask("apply", move=move)
        allowed = accepted_rules(rule, also)
        if answer.get("illegal") not in allowed:
            wanted = rule if len(allowed) == 1 else " or ".join(sorted(allowed))
            raise mismatch(rule, where, f"{move_words(move)} is illegal: {wanted}", answer)
        if before is not None:
            after = self.position()
            if after != before:
                lines = positions.differences(before, after)
                raise mismatch(rule, where, "the position unchanged after a refused move", show(after, 2000),
                               tuple(("diff" if i == 0 else "", line) for i, line in enumerate(lines[:12])))


# ---- one check per kind of vector ---------------------------------------------------------------
def check_shuffle(session: Session, vector: Json, rules: str) -> None:
    answer = session.ask("shuffle", seed=vector["seed"])
    expected = vector["expect"]["order"]
    got = answer.get("order")
    if got != expected:
        i = next((i for i, (a, b) in enumerate(zip(expected, got or [])) if a != b), min(len(expected), len(got or [])))
        raise mismatch(rules, f"seed {vector['seed']}, card {i + 1} of the shuffled deck", expected, got)


def check_deal(session: Session, vector: Json, rules: str) -> None:
    """Each field of the answer; a difference names the rules that decide that field (``fields``)."""
    answer = session.ask("deal", seed=vector["seed"])
    for name, value in vector["expect"].items():
        if answer.get(name) != value:
            named = ", ".join(vector.get("fields", {}).get(name, [])) or rules
            raise mismatch(named, f"seed {vector['seed']}: {name}", value, answer.get(name))


def clause_mismatch(vector: Json, where: str, expected: Json, got: Json,
                    details: tuple[tuple[str, str], ...] = ()) -> Mismatch:
    difference = mismatch(CLAUSES[vector["clause"]], where, expected, got, details).difference
    return Mismatch(Difference(difference.rule, difference.position, difference.expected, difference.got,
                               difference.details, label="clause"))


def check_protocol(session: Session, vector: Json, rules: str) -> None:
    """A clause of the protocol: the start position (``start``), or a ``position`` request refused
    at a move, which leaves the position as it was (``refused-prefix``)."""
    before = session.replay(vector["moves"], vector["positions"], rules)
    expect, where = vector["expect"], at(len(vector["moves"]))
    if vector["clause"] == "refused-prefix":
        refused = vector["refused"]
        answer = session.ask("position", moves=refused)
        allowed = accepted_rules(expect["illegal"], expect.get("also"))
        if answer.get("illegal") not in allowed or answer.get("at") != expect["at"]:
            wanted = " or ".join(sorted(allowed))
            raise clause_mismatch(vector, f"{where}, then a prefix of {len(refused)} moves whose move {expect['at']} "
                                          f"is illegal: {move_words(refused[expect['at'] - 1])}",
                                  f"illegal: {wanted}, at: {expect['at']}", answer)
        where = f"{where}, after the refused prefix"
    if before is not None:
        shown = session.position()
        expected = expect.get("position", before)
        if shown != expected:
            lines = positions.differences(expected, shown)
            raise clause_mismatch(vector, where, show(expected, 2000), show(shown, 2000),
                                  tuple(("diff" if i == 0 else "", line) for i, line in enumerate(lines[:12])))
    try:
        compare_legal(expect["legal"], session.ask("legal"), [], rules, where)
    except Mismatch as exc:
        d = exc.difference
        raise clause_mismatch(vector, d.position, d.expected, d.got) from None


def check_legal(session: Session, vector: Json, rules: str) -> None:
    before = session.replay(vector["moves"], vector.get("positions"), rules)
    where = f"{at(len(vector['moves']))}: {vector['about']}"
    compare_legal(vector["expect"], session.ask("legal"), vector["forbidden"], rules, where)
    for item in vector["forbidden"]:
        session.expect_illegal(item["move"], item["rule"], item.get("also"), where, before)


def check_illegal(session: Session, vector: Json, rules: str) -> None:
    before = session.replay(vector["moves"], vector.get("positions"), rules)
    expect = vector["expect"]
    session.expect_illegal(vector["move"], expect["illegal"], expect.get("also"), at(len(vector["moves"])), before)


def check_perft(session: Session, vector: Json, rules: str) -> None:
    session.replay(vector["moves"], vector.get("positions"), rules)
    for depth, nodes in enumerate(vector["expect"]["nodes"], start=1):
        answer = session.ask("perft", depth=depth)
        if answer.get("nodes") != nodes:
            raise mismatch(rules, f"{at(len(vector['moves']))}, depth {depth}", {"nodes": nodes}, answer)


def check_rule(session: Session, vector: Json, rules: str) -> None:
    session.replay(vector["moves"], vector["positions"], rules)


def check_game(session: Session, vector: Json, rules: str) -> None:
    moves, digests = vector["moves"], vector.get("positions")
    compare = session.shows and digests is not None
    session.unshown += digests is not None and not compare
    answer = session.ask("position", moves=[])
    if answer.get("ok") is not True:
        raise mismatch(rules, "the start of the game", "an empty prefix accepted", answer)
    shown = session.position() if compare else None
    for number, (move, legal) in enumerate(zip(moves, vector["legal"]), start=1):
        where = f"move {number}: {move_words(move)}"
        compare_legal(legal, session.ask("legal"), [], rules, where)
        answer = session.ask("apply", move=move)
        if answer.get("ok") is not True:
            raise mismatch(answer.get("illegal") or rules, where, "the move is accepted", answer)
        if compare:
            got = session.position()
            if positions.digest(got) != digests[number - 1]:
                raise session.position_mismatch(moves, number, shown, got, digests[number - 1])
            shown = got
    answer = session.ask("outcome")
    if answer.get("outcome") != vector["expect"]["outcome"]:
        raise mismatch(rules, f"the end, after move {len(moves)}", vector["expect"]["outcome"], answer.get("outcome"))


CHECKS: dict[str, Callable[[Session, Json, str], None]] = {
    "shuffle": check_shuffle, "deal": check_deal, "legal": check_legal, "illegal": check_illegal,
    "perft": check_perft, "game": check_game, "rule": check_rule, "protocol": check_protocol,
}


# ---- running -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Greeting:
    """The answer to ``hello``: accepted (with the games it plays and whether it shows positions),
    or refused (``unsupported``: the file is skipped) or broken (the file fails)."""

    shows: bool = False
    games: tuple[str, ...] = ()
    unsupported: str | None = None
    broken: str | None = None


def greet(impl: Implementation, document: Json) -> Greeting:
    answer = impl.ask("hello", protocol=PROTOCOL, version=VERSION, game=document["game"], config=document["config"])
    games = answer.get("games")
    games = tuple(g for g in games if isinstance(g, str)) if isinstance(games, list) else ()
    if "unsupported" in answer:
        return Greeting(games=games, unsupported=str(answer["unsupported"]))
    if answer.get("protocol") != PROTOCOL or answer.get("version") != VERSION:
        return Greeting(broken=f"the implementation answered hello with {show(answer)}")
    return Greeting(shows=answer.get("show") is True, games=games)


@dataclass
class Progress:
    """What the whole run saw besides the results: the games the implementation declares, the
    vectors whose positions it could not show, and the deadline of the whole run."""

    deadline: float = float("inf")
    games: set[str] = field(default_factory=set)
    unshown: int = 0
    started: bool = False  # a hello was answered at least once
    out_of_time: bool = False
    requests: int = 0  # requests sent to the implementation

    def closed(self, impl: Implementation) -> None:
        """Stop ``impl``, counting the requests it was sent."""
        self.requests += impl.sent
        impl.close()


def run_file(command: list[str], name: str, document: Json, timeout: float, progress: Progress) -> Iterator[Result]:
    """The results of one file's vectors. After a crash the implementation is started again for
    the next vector; after a timeout the file's other vectors fail unrun; after an ``unsupported``
    hello they are skipped. A crash or hang at the very first hello is a StartError."""
    session: Session | None = None
    given_up: str | None = None
    skipped: str | None = None
    try:
        for vector in document["vectors"]:
            rules = ", ".join(vector["rules"])
            if time.monotonic() > progress.deadline:
                progress.out_of_time = True
                return
            if skipped:
                yield Result(name, vector["id"], skipped=skipped)
                continue
            if given_up:
                yield Result(name, vector["id"], Difference("-", "-", "an answer", given_up))
                continue
            if session is None:
                impl = Implementation(command, timeout)
                try:
                    greeting = greet(impl, document)
                except AnswerError as exc:
                    progress.closed(impl)
                    raise AnswerError(f"{name} {vector['id']}: {exc}") from None
                except ImplementationError as exc:
                    progress.closed(impl)
                    if not progress.started:
                        raise StartError(f"the implementation failed at start-up: {exc}") from None
                    greeting = Greeting(broken=str(exc))
                progress.started = True
                progress.games.update(greeting.games)
                if greeting.unsupported is not None or greeting.broken is not None:
                    progress.closed(impl)
                    if greeting.unsupported is not None:
                        skipped = f"the implementation does not play this: {greeting.unsupported}"
                        yield Result(name, vector["id"], skipped=skipped)
                    else:
                        given_up = f"not run: hello failed ({greeting.broken})"
                        yield Result(name, vector["id"], Difference("-", "hello", "hello accepted", str(greeting.broken)))
                    continue
                session = Session(impl, document["game"], document["config"], greeting.shows)
            try:
                CHECKS[vector["kind"]](session, vector, rules)
                yield Result(name, vector["id"])
            except Mismatch as exc:
                yield Result(name, vector["id"], exc.difference)
            except (IllegalMoveError, adapter.NotAMove):  # the reference model refuses what the vector says
                yield Result(name, vector["id"], vector_problem(document, vector))
            except AnswerError as exc:
                progress.closed(session.impl)
                session = None
                raise AnswerError(f"{name} {vector['id']}: {exc}") from None
            except ImplementationError as exc:
                yield Result(name, vector["id"], Difference("-", "-", "an answer", str(exc)))
                if exc.timed_out:
                    given_up = f"not run: the implementation stopped answering ({exc})"
                progress.unshown += session.unshown
                progress.closed(session.impl)
                session = None
    finally:
        if session is not None:
            progress.unshown += session.unshown
            try:
                session.ask("bye")
            except ImplementationError:
                pass
            except AnswerError as exc:
                raise AnswerError(f"{name}: {exc}") from None
            finally:
                progress.closed(session.impl)


def vector_problem(document: Json, vector: Json) -> Difference:
    """The failure of a vector that the reference model contradicts (a file edited by hand)."""
    problem = selfcheck.model_problem({**document, "vectors": [vector]}) or "the reference model contradicts it"
    return Difference("-", "this vector file", "a vector the reference model agrees with",
                      problem.removeprefix("vector 1 ") + " (cardcanon conform --check-vectors checks every file)")


def run(command: list[str], files: list[tuple[str, Json]], timeout: float, progress: Progress) -> Iterator[Result]:
    """Every vector's result, file by file (``files`` from :func:`load`)."""
    for name, document in files:
        yield from run_file(command, name, document, timeout, progress)
        if progress.out_of_time:
            return


def load(directory: Path, only: list[str] | None = None) -> list[tuple[str, Json]]:
    """The selected vector files, every one checked before any work: the index and each file
    against its JSON Schema, the format version this runner reads, and each file against itself
    (:func:`cardcanon.conform.selfcheck.structure_problem`). ValueError if not."""
    index = files.read_json(directory / "index.json")
    files.validate_index(index, directory / "index.json")
    selected = []
    for entry in index["files"]:
        name = entry["path"].removesuffix(".json")
        if only and not any(name == o or name.startswith(o.rstrip("/") + "/") for o in only):
            continue
        path = directory / entry["path"]
        document = files.read_json(path)
        files.validate_vectors(document, path)
        if document["game"] != entry["game"]:
            raise ValueError(f"{path}: game {document['game']!r}, but the index lists it as {entry['game']!r}")
        problem = selfcheck.structure_problem(document)
        if problem:
            raise ValueError(f"{path}: {problem}")
        selected.append((name, document))
    return selected


def format_result(result: Result) -> str:
    if result.skipped is not None:
        return f"SKIP {result.file} {result.vector}: {result.skipped}"
    if result.passed:
        return f"PASS {result.file} {result.vector}"
    d = result.difference
    assert d is not None
    rule = f"one of {d.rule}" if "," in d.rule and d.label == "rule" else d.rule
    lines = [f"FAIL {result.file} {result.vector}", f"     {d.label + ':':<9} {rule}", f"     position: {d.position}"]
    before = [(label, text) for label, text in d.details if label in ("applies", "before", "note")]
    diff = [(label, text) for label, text in d.details if label not in ("applies", "before", "note")]
    lines += [f"     {label + ':':<9} {text}" for label, text in before]
    lines += [f"     expected: {d.expected}", f"     got:      {d.got}"]
    lines += [f"     {label + ':' if label else '':<9} {text}" for label, text in diff]
    return "\n".join(lines)
