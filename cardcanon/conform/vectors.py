"""The conformance vectors: what they hold, and how ``cardcanon conform --write`` makes them.

One JSON file per game and variant under ``conformance/`` (``hearts/default.json``,
``snap/players-3.json``, ``hearts/break_on-void.json`` ...), listed by ``conformance/index.json``
with the variation options that have no file and why. Every vector has an ``id``, a ``kind``, the
``rules`` it exercises and the answers the reference models give:

- ``shuffle``: a seed and the game's deck in the order the portable shuffle gives;
- ``deal``: a seed, the chance moves a game seeded with it begins with, and the hands dealt;
- ``legal``: a position (a record prefix), its legal moves, and ``forbidden`` moves each with
  the rule that forbids it there;
- ``illegal``: a position, a move, and the rule the move breaks;
- ``perft``: a position and the number of legal move sequences of each length up to a depth;
- ``game``: a complete game (every move, chance included), the legal moves before each move,
  and the outcome;
- ``rule``: for one rule that changes a position, the shortest prefix whose last move is the
  first to apply it (:mod:`cardcanon.conform.steps`), and the position it leads to;
- ``protocol``: a clause of the protocol (``clause``): the start position, a refused prefix.

Every vector with a prefix (``moves``) carries ``positions``: the digest of the canonical
position (:mod:`cardcanon.conform.positions`) after each of its moves, so that the runner can
compare positions move by move.

Generation is deterministic: the same code and rulebook always write the same bytes.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardcanon.conform import adapter, cases, files, overlaps, positions
from cardcanon.conform.adapter import Json, Position
from cardcanon.conform.cases import Reached
from cardcanon.conform.protocol import VERSION as PROTOCOL_VERSION
from cardcanon.model.shuffle import SplitMix64
from cardcanon.spec import load as load_rulebook

FORMAT = "cardcanon-conformance"
VERSION = files.FORMAT_VERSION
INDEX = "index.json"
# Seeds of the shuffle, deal, perft and golden-game vectors (0, 1, 2**64 - 1 test the wrap-around).
SHUFFLE_SEEDS = (0, 1, 42, 2**64 - 1)
DEAL_SEEDS = (0, 1, 7, 12345)
BANK_GAMES = 12  # random games whose positions the legal and illegal vectors are drawn from
ILLEGAL_SAMPLE = 5  # illegal cases are looked for at every 5th position of those games
RANDOM_POSITIONS = 4  # legal vectors at ordinary positions, besides the edge positions
ILLEGAL_PER_RULE = 2
SNAP_GAME_MOVES = 240  # golden Snap games are chosen among those that end within this many moves
AFTER_LINE_MOVES = 600  # a line built by hand is played on to an end within this many moves


def vector_dir() -> Path:
    """Where the vectors are: ``cardcanon/conformance`` in an installed wheel, else the source
    tree's ``conformance/`` (an editable install)."""
    package = Path(__file__).resolve().parents[1]
    for candidate in (package / "conformance", package.parent / "conformance"):
        if (candidate / INDEX).exists():
            return candidate
    return package.parent / "conformance"


# ---- which files ---------------------------------------------------------------------------
@dataclass(frozen=True)
class FileSpec:
    """One vector file: a game, a variant (its config) and which kinds of vectors it holds."""

    game: str
    name: str
    config: Json
    variant: dict[str, Json] = field(default_factory=dict)  # parameter -> its config value, {} for defaults
    shuffles: bool = False
    perft_depth: int = 4
    games: bool = True
    ties_in_legal: bool = True  # False where ties make legal-move lists too long (many players)

    @property
    def path(self) -> str:
        return f"{self.game}/{self.name}.json"


def file_specs() -> tuple[list[FileSpec], list[dict[str, str]]]:
    """Every vector file, and the variation options left out (each with the reason)."""
    specs = [FileSpec(game, name, adapter.default_config(game, players=players), **options)
             for game in adapter.GAMES for name, players, options in cases.cases_of(game).TABLES]
    skipped = []
    for game in adapter.GAMES:
        base = adapter.default_config(game, players=cases.cases_of(game).VARIANT_PLAYERS)
        for rule in load_rulebook(game).rules:
            variation = rule.variation
            if variation is None:
                continue
            for option in variation.options:
                if option.value == variation.default:
                    continue
                config, reason = adapter.variant_config(game, base, variation.parameter, option.value)
                if config is None:
                    skipped.append({"game": game, "rule": rule.id, "parameter": variation.parameter,
                                    "option": option.value, "reason": reason})
                    continue
                specs.append(FileSpec(game, f"{variation.parameter}-{option.value}", config,
                                      {variation.parameter: config[variation.parameter]}, perft_depth=4))
    return specs, skipped


# ---- positions -----------------------------------------------------------------------------
def playout(start: Position, rng: SplitMix64, choose: Callable[[Position, tuple[Any, ...], SplitMix64], Any],
            max_moves: int) -> Iterator[Reached]:
    """Every position of one game: chance drawn from ``rng``, moves chosen by ``choose``."""
    position = start
    moves: tuple[Json, ...] = ()
    while len(moves) < max_moves:
        yield Reached(moves, position)
        if position.is_chance():
            move = position.sample_chance_move(rng)
        else:
            legal = position.model_moves()
            if not legal:
                return
            move = choose(position, legal, rng)
        position, moves = position.after(move), moves + (position.move_to_json(move),)


def bank(spec: FileSpec) -> list[Reached]:
    """The positions of a few seeded random games of this variant."""
    start = Position.start(spec.game, spec.config)
    choose = cases.cases_of(spec.game).choose
    reached: list[Reached] = []
    for seed in range(BANK_GAMES if spec.ties_in_legal else BANK_GAMES // 3):
        reached += playout(start, SplitMix64(seed), choose, 600)
    return reached


# ---- vectors -------------------------------------------------------------------------------
_DIGESTS: dict[tuple[str, str], tuple[Position, str]] = {}  # (file, prefix key) -> position, digest


def digests(spec: FileSpec, moves: list[Json] | tuple[Json, ...]) -> list[str]:
    """The digest of the canonical position after each move (prefixes met before are reused)."""
    position = Position.start(spec.game, spec.config)
    out, key = [], ""
    for move in moves:
        key = hashlib.sha256((key + json.dumps(move, sort_keys=True)).encode("utf-8")).hexdigest()
        known = _DIGESTS.get((spec.path, key))
        if known is None:
            position = position.apply(move)
            known = _DIGESTS[(spec.path, key)] = (position, positions.digest(position.canonical()))
        position = known[0]
        out.append(known[1])
    return out


def shuffle_vectors(spec: FileSpec) -> list[Json]:
    rules = cases.cases_of(spec.game).SHUFFLE_RULES
    return [{"id": f"shuffle-seed-{seed}", "kind": "shuffle", "rules": rules, "seed": seed,
             "expect": {"order": adapter.shuffle(spec.game, spec.config, seed)}} for seed in SHUFFLE_SEEDS]


def deal_vectors(spec: FileSpec) -> list[Json]:
    game = cases.cases_of(spec.game)
    return [{"id": f"deal-seed-{seed}", "kind": "deal", "rules": game.DEAL_RULES, "seed": seed,
             "expect": adapter.deal(spec.game, spec.config, seed), "fields": game.DEAL_FIELDS} for seed in DEAL_SEEDS]


def protocol_vectors(spec: FileSpec) -> list[Json]:
    """The clauses of the protocol that no other vector tests: the start position, and a prefix
    refused at its last move, which leaves the position as it was (here after the deal of seed
    1; had the implementation kept the moves before the refused one, another player would move)."""
    start = Position.start(spec.game, spec.config)
    vectors = [{"id": "protocol-start", "kind": "protocol", "clause": "start", "rules": cases.context_rules(start),
                "about": "the start of a game: no move made, a chance node", "moves": [], "positions": [],
                "expect": {"position": start.canonical(), "legal": {"chance": True}}}]
    dealt = adapter.deal(spec.game, spec.config, 1)["moves"]
    position = start.apply_all(dealt)
    first = position.legal_moves()[0]
    after = position.apply(first)
    refused = cases.forbidden_moves(after)[0]
    if after.legal_moves() == position.legal_moves():
        raise ValueError(f"{spec.path}: the refused prefix must end where other moves are legal")
    also = {"also": refused["also"]} if "also" in refused else {}
    vectors.append({"id": "protocol-refused-prefix", "kind": "protocol", "clause": "refused-prefix",
                    "rules": [refused["rule"]], "about": "a position request refused at its last move, after the deal",
                    "moves": dealt, "positions": digests(spec, dealt), "refused": dealt + [first, refused["move"]],
                    "expect": {"illegal": refused["rule"], "at": len(dealt) + 2, **also,
                               "legal": {"moves": position.legal_moves()}}})
    return vectors


def legal_vector(vector_id: str, about: str, reached: Reached, spec: FileSpec) -> Json:
    position = reached.position
    expect: Json = {"chance": True} if position.is_chance() else {"moves": position.legal_moves()}
    forbidden = cases.forbidden_moves(position, ties=spec.ties_in_legal)
    rules = sorted(set(cases.context_rules(position)) | {f["rule"] for f in forbidden})
    return {"id": vector_id, "kind": "legal", "about": about, "rules": rules, "moves": list(reached.moves),
            "positions": digests(spec, reached.moves), "expect": expect, "forbidden": forbidden}


def legal_vectors(spec: FileSpec, positions: list[Reached]) -> list[Json]:
    vectors = []
    for name, about, reached in cases.edge_positions(spec.game, spec.config, positions):
        if spec.ties_in_legal or not cases.has_ties(reached.position):
            vectors.append(legal_vector(f"legal-{name}", about, reached, spec))
    ordinary = [r for r in positions if not r.position.is_chance() and r.position.outcome() is None
                and (spec.ties_in_legal or not cases.has_ties(r.position))]
    step = max(1, len(ordinary) // RANDOM_POSITIONS)
    for k, reached in enumerate(ordinary[step // 2::step][:RANDOM_POSITIONS]):
        vectors.append(legal_vector(f"legal-random-{k + 1}", "a position of a random game", reached, spec))
    return vectors


def illegal_vectors(spec: FileSpec, positions: list[Reached]) -> list[Json]:
    """Illegal chance moves and moves out of place, then up to ILLEGAL_PER_RULE forbidden moves
    per rule, at the shortest prefixes."""
    found = [(rule, list(moves), move) for moves, move, rule in cases.extra_illegal_cases(spec.game, spec.config)]
    by_rule: dict[str, list[tuple[int, Reached, Json]]] = {}
    ended = [r for r in positions if r.position.outcome() is not None]
    for reached in positions[::ILLEGAL_SAMPLE] + ended:
        for item in cases.forbidden_moves(reached.position, ties=spec.ties_in_legal):
            by_rule.setdefault(item["rule"], []).append((len(reached.moves), reached, item["move"]))
    for rule in sorted(by_rule):
        seen = set()
        for _, reached, move in sorted(by_rule[rule], key=lambda c: c[0]):
            key = json.dumps(move, sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            found.append((rule, list(reached.moves), move))
            if len(seen) == ILLEGAL_PER_RULE:
                break
    start = Position.start(spec.game, spec.config)
    vectors = []
    for k, (rule, moves, move) in enumerate(found, start=1):
        also = overlaps.equally_right(start.apply_all(moves), move, rule)
        vectors.append({"id": f"illegal-{k}-{rule.lower()}", "kind": "illegal", "rules": [rule], "moves": moves,
                        "positions": digests(spec, moves), "move": move,
                        "expect": {"illegal": rule, **({"also": also} if also else {})}})
    return vectors


def perft_vectors(spec: FileSpec) -> list[Json]:
    vectors = []
    for seed in (1, 2):
        start = Position.start(spec.game, spec.config)
        dealt = adapter.deal(spec.game, spec.config, seed)["moves"]
        position = start.apply_all(dealt)
        counts = [position.perft(d) for d in range(1, spec.perft_depth + 1)]
        vectors.append({"id": f"perft-seed-{seed}", "kind": "perft", "rules": cases.cases_of(spec.game).PERFT_RULES,
                        "about": f"after the deal of seed {seed}", "moves": dealt,
                        "positions": digests(spec, dealt), "depth": spec.perft_depth,
                        "expect": {"nodes": counts}})
    return vectors


def game_vector(vector_id: str, about: str, moves: list[Json], spec: FileSpec) -> Json:
    position = Position.start(spec.game, spec.config)
    steps = []
    for move in moves:
        steps.append({"chance": True} if position.is_chance() else {"moves": position.legal_moves()})
        position = position.apply(move)
    outcome = position.outcome()
    if outcome is None:
        raise ValueError(f"{vector_id}: a golden game must end")
    return {"id": vector_id, "kind": "game", "about": about, "rules": cases.game_rules(spec.game, moves, spec.config),
            "moves": moves, "positions": digests(spec, moves), "legal": steps, "expect": {"outcome": outcome}}


def game_vectors(spec: FileSpec, positions: list[Reached]) -> list[Json]:
    """The golden games (a variant's file has only the most eventful one), and the ties of three
    or more piles built by hand, played on to the end."""
    games = cases.golden_games(spec.game, spec.config, SNAP_GAME_MOVES, few=bool(spec.variant))
    vectors = [game_vector(vector_id, about, moves, spec) for vector_id, about, moves in games]
    start = Position.start(spec.game, spec.config)
    for vector_id, about, moves, line in cases.cases_of(spec.game).games_after_lines(start, positions, AFTER_LINE_MOVES):
        vector = game_vector(vector_id, about, moves, spec)
        first = start.apply_all(moves[:line - 1]).step_rules(moves[line - 1])  # the line's last move comes first
        vector["rules"] = list(dict.fromkeys(first + vector["rules"]))
        vectors.append(vector)
    return vectors


def rule_vectors(spec: FileSpec, positions: list[Reached]) -> list[Json]:
    """For each rule a move can apply (:mod:`cardcanon.conform.steps`), the shortest prefix
    whose last move is the first to apply it, so that the first position to differ can only
    come from that rule: among the random games' lines and the lines built by hand."""
    walks: list[tuple[str, list[Reached]]] = []  # (what a line built by hand shows, its positions)
    for reached in positions:  # the random games, each from its start
        if not reached.moves or not walks:
            walks.append(("", []))
        walks[-1][1].append(reached)
    built = cases.hand_built_lines(spec.game, spec.config, positions)
    for about, line in built:
        walk = [Reached((), Position.start(spec.game, spec.config))]
        for number, move in enumerate(line, start=1):
            walk.append(Reached(tuple(line[:number]), walk[-1].position.apply(move)))
        walks.append((about, walk))
    first: dict[str, tuple[list[Json], list[str], str]] = {}
    for about, walk in walks:
        seen: set[str] = set()
        for before, after in zip(walk, walk[1:]):
            applies = before.position.step_rules(after.moves[-1], after.position)
            number = len(after.moves)
            for rule in applies:
                if rule not in seen and (rule not in first or number < len(first[rule][0])):
                    first[rule] = (list(after.moves), applies, about if after is walk[-1] else "")
            seen.update(applies)
    rulebook = load_rulebook(spec.game)
    vectors = []
    chosen = [r for r in rulebook.rules if r.id in first]
    chosen.sort(key=lambda r: len(first[r.id][0]))  # shortest first: the first failure is the plainest
    for entry in chosen:
        moves, applies, about = first[entry.id]
        final = Position.start(spec.game, spec.config).apply_all(moves)
        text = f"{entry.title}: the last move is the first to apply {entry.id}" + (f" ({about}, built by hand)"
                                                                                     if about else "")
        vectors.append({"id": f"rule-{entry.id.lower()}", "kind": "rule", "rules": [entry.id], "about": text,
                        "applies": applies, "moves": moves, "positions": digests(spec, moves),
                        "expect": {"position": final.canonical()}})
    for k, (about, moves) in enumerate(built, start=1):  # each line built by hand, whole
        last = Position.start(spec.game, spec.config).apply_all(moves[:-1])
        applies = last.step_rules(moves[-1])
        vectors.append({"id": f"built-{k}-{applies[0].lower()}", "kind": "rule", "rules": applies,
                        "about": f"built by hand: {about}", "applies": applies, "moves": moves,
                        "positions": digests(spec, moves), "expect": {"position": last.apply(moves[-1]).canonical()}})
    return vectors


def file_vectors(spec: FileSpec) -> list[Json]:
    """A file's vectors, the ``rule`` vectors first (shortest first: the first failure is the
    plainest), then the protocol's clauses, the shuffles and the deals."""
    positions = bank(spec)
    vectors = rule_vectors(spec, positions) + protocol_vectors(spec)
    vectors += shuffle_vectors(spec) if spec.shuffles else []
    if not spec.variant:
        vectors += deal_vectors(spec)
    vectors += legal_vectors(spec, positions)
    vectors += illegal_vectors(spec, positions)
    vectors += perft_vectors(spec)
    if spec.games:
        vectors += game_vectors(spec, positions)
    return vectors


# ---- files ---------------------------------------------------------------------------------
def render(document: Json) -> str:
    """A vector file as text: the header readable, one vector per line (small diffs, small files)."""
    head = {k: v for k, v in document.items() if k != "vectors"}
    lines = [json.dumps(head, ensure_ascii=False, indent=1)[:-2] + ',\n "vectors": [']
    items = [json.dumps(v, ensure_ascii=False, separators=(",", ":")) for v in document["vectors"]]
    lines.append(",\n".join("  " + item for item in items))
    lines.append(" ]\n}\n")
    return "\n".join(lines)


def build() -> dict[str, str]:
    """Every file of the vector directory: relative path -> text."""
    specs, skipped = file_specs()
    files: dict[str, str] = {}
    listing = []
    for spec in specs:
        vectors = file_vectors(spec)
        document = {"format": FORMAT, "version": VERSION, "protocol": PROTOCOL_VERSION, "game": spec.game,
                    "variant": spec.variant, "config": spec.config, "vectors": vectors}
        files[spec.path] = render(document)
        listing.append({"path": spec.path, "game": spec.game, "variant": spec.variant, "vectors": len(vectors)})
    index = {"format": FORMAT + "-index", "version": VERSION, "protocol": PROTOCOL_VERSION, "files": listing,
             "skipped": skipped}
    files[INDEX] = json.dumps(index, ensure_ascii=False, indent=1) + "\n"
    return files


def target_problem(directory: Path) -> str | None:
    """Why the vectors cannot be written into ``directory``: a directory, or a new one in a directory."""
    if directory.exists():
        if not directory.is_dir():
            return f"{directory}: not a directory"
        return None if os.access(directory, os.W_OK) else f"{directory}: not writable"
    if not directory.parent.is_dir():
        return f"{directory}: no such directory, nor {directory.parent} to make it in"
    return None if os.access(directory.parent, os.W_OK) else f"{directory.parent}: not writable"


def write(directory: Path) -> list[Path]:
    """Write the vectors into ``directory`` (replacing its JSON files; made if its parent is a
    directory); returns the paths written. ValueError, before any work, if it cannot."""
    problem = target_problem(directory)
    if problem:
        raise ValueError(problem)
    files = build()
    _DIGESTS.clear()
    for old in directory.glob("**/*.json") if directory.exists() else ():
        if old.relative_to(directory).as_posix() not in files:
            old.unlink()
    written = []
    try:
        directory.mkdir(exist_ok=True)
        for relative, text in files.items():
            path = directory / relative
            path.parent.mkdir(exist_ok=True)
            path.write_text(text, encoding="utf-8")
            written.append(path)
    except OSError as exc:
        raise ValueError(f"{exc.filename or directory}: cannot write it: {exc.strerror or exc}") from None
    return written


def load_index(directory: Path) -> Json:
    return files.read_json(directory / INDEX)
