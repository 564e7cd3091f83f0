"""A vector file checked against itself, the rulebook and the reference model.

:func:`structure_problem` is quick and runs on every file before any work: unique vector IDs,
a config the reference model plays, rule IDs of the file's game, and lists of equal lengths
(``positions`` and ``moves``, a game's ``legal`` and ``moves``, a perft's ``nodes`` and ``depth``).
:func:`model_problem` (``cardcanon conform --check-vectors``) replays every vector through the
reference model: every move of a prefix accepted, the digest after each, a ``rule`` vector's
``expect.position``, and every other expected answer but the perft counts (a perft to the file's
depth takes minutes). Each returns one line naming the vector and the place, or None.
"""

from __future__ import annotations

import json

from cardcanon.conform import adapter, positions
from cardcanon.conform.adapter import Json, NotAMove, Position
from cardcanon.model.errors import IllegalMoveError, RecordError
from cardcanon.spec import load as load_rulebook


def _name(number: int, vector: Json) -> str:
    return f"vector {number} ({vector['id']})"


def _cited(vector: Json) -> list[str]:
    """Every rule ID a vector names."""
    found = list(vector["rules"]) + list(vector.get("applies", []))
    for item in vector.get("forbidden", []) + [vector.get("expect", {})]:
        found += [item["rule"]] if "rule" in item else []
        found += [item["illegal"]] if "illegal" in item else []
        found += list(item.get("also", {}).get("rules", []))
    return found


def structure_problem(document: Json) -> str | None:
    """What makes a (schema-valid) vector file contradict itself or the rulebook, or None."""
    game = document["game"]
    try:
        adapter.MODELS[game].config_from_json(document["config"], "config")
    except RecordError as exc:
        return f"{exc} (the reference model does not play this config)"
    known = {rule.id for rule in load_rulebook(game).rules}
    seen: dict[str, int] = {}
    for number, vector in enumerate(document["vectors"], start=1):
        name = _name(number, vector)
        if vector["id"] in seen:
            return f"{name}: the ID of vector {seen[vector['id']]} again"
        seen[vector["id"]] = number
        unknown = [rule for rule in _cited(vector) if rule not in known]
        if unknown:
            return f"{name}: {unknown[0]} is not a rule of the {game} rulebook"
        moves = vector.get("moves", [])
        if "positions" in vector and len(vector["positions"]) != len(moves):
            return f"{name}: {len(vector['positions'])} positions for {len(moves)} moves"
        if vector["kind"] == "game" and len(vector["legal"]) != len(moves):
            return f"{name}: {len(vector['legal'])} lists of legal moves for {len(moves)} moves"
        if vector["kind"] == "perft" and len(vector["expect"]["nodes"]) != vector["depth"]:
            return f"{name}: {len(vector['expect']['nodes'])} node counts for depth {vector['depth']}"
    return None


def _prefix(start: Position, moves: list[Json], digests: list[str] | None, name: str,
            cache: dict[str, Position]) -> tuple[Position | None, str | None]:
    """The position after ``moves`` and None, or None and what is wrong: a move the model refuses,
    or a digest that is not the model's position's."""
    position, key = start, ""
    for number, move in enumerate(moves, start=1):
        key += json.dumps(move, sort_keys=True) + "\n"
        known = cache.get(key)
        if known is None:
            try:
                known = cache[key] = position.apply(move)
            except (IllegalMoveError, NotAMove) as exc:
                cause = exc.rule_id if isinstance(exc, IllegalMoveError) else "not a move of the game"
                shown = json.dumps(move, separators=(",", ":"))
                return None, f"{name}: move {number} of the prefix, {shown}, is refused by the reference model ({cause})"
        position = known
        if digests is not None and positions.digest(position.canonical()) != digests[number - 1]:
            return None, f"{name}: positions[{number - 1}] is not the digest of the reference model's position " \
                         f"after move {number}"
    return position, None


def model_problem(document: Json) -> str | None:
    """The first expected answer of a file that is not the reference model's, or None."""
    game, config = document["game"], document["config"]
    start = Position.start(game, config)
    cache: dict[str, Position] = {}
    for number, vector in enumerate(document["vectors"], start=1):
        name = _name(number, vector)
        kind, expect = vector["kind"], vector["expect"]
        if kind == "shuffle":
            if expect["order"] != adapter.shuffle(game, config, vector["seed"]):
                return f"{name}: expect.order is not the shuffle of seed {vector['seed']}"
            continue
        if kind == "deal":
            dealt = adapter.deal(game, config, vector["seed"])
            wrong = [key for key in sorted(set(dealt) | set(expect)) if dealt.get(key) != expect.get(key)]
            if wrong:
                return f"{name}: expect.{wrong[0]} is not the deal of seed {vector['seed']}"
            continue
        position, problem = _prefix(start, vector["moves"], vector.get("positions"), name, cache)
        if problem or position is None:
            return problem
        problem = _answer_problem(start, position, vector, name)
        if problem:
            return problem
    return None


def _legal(position: Position) -> Json:
    return {"chance": True} if position.is_chance() else {"moves": position.legal_moves()}


def _refusal_problem(position: Position, move: Json, rule: str, where: str) -> str | None:
    try:
        got = adapter.illegal_rule(position, move)
    except NotAMove:
        got = "not a move of the game"
    return None if got == rule else f"{where}: the reference model refuses it with {got or 'nothing (legal)'}, not {rule}"


def _answer_problem(start: Position, position: Position, vector: Json, name: str) -> str | None:
    kind, expect = vector["kind"], vector["expect"]
    if kind == "rule" and expect["position"] != position.canonical():
        return f"{name}: expect.position is not the reference model's position after the prefix"
    if kind == "legal":
        if expect != _legal(position):
            return f"{name}: expect is not the reference model's legal moves"
        for k, item in enumerate(vector["forbidden"]):
            problem = _refusal_problem(position, item["move"], item["rule"], f"{name}: forbidden[{k}]")
            if problem:
                return problem
    if kind == "illegal":
        return _refusal_problem(position, vector["move"], expect["illegal"], f"{name}: move")
    if kind == "game":
        replayed = start
        for number, (move, legal) in enumerate(zip(vector["moves"], vector["legal"]), start=1):
            if legal != _legal(replayed):
                return f"{name}: legal[{number - 1}] is not the reference model's legal moves before move {number}"
            replayed = replayed.apply(move)
        if expect["outcome"] != position.outcome():
            return f"{name}: expect.outcome is not the reference model's outcome"
    return None

