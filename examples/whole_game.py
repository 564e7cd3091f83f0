"""A whole seeded game of either game through the game API alone: ``GAME`` and the protocol's
functions (:mod:`cardcanon.model.game`), never a game's own types. It prints whose turn it is
at every step, then writes the game's record, reads it back and replays it.

Usage::

    python examples/whole_game.py hearts|snap [SEED] [RECORD.json]

SEED is 0 to 2^64 - 1 (default 7); the record goes to RECORD.json (default: a temporary file).
Bad input ends with one line on standard error and exit status 2.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from cardcanon.model import hearts, snap
from cardcanon.model.shuffle import SplitMix64

GAMES = {module.GAME.name: module.GAME for module in (hearts, snap)}


def play(name: str, seed: int, path: Path) -> None:
    game = GAMES[name]
    config = game.Config.from_options({})  # the rulebook's defaults
    chance, choice = SplitMix64(seed), SplitMix64(seed + 1)
    state, moves = game.new_game(config), []
    while game.outcome(state) is None:
        if game.is_chance(state):
            who, move = "chance", game.sample_chance(state, chance)
        else:
            legal = game.legal_moves(state)
            who, move = str(game.to_move(state)), legal[choice.below(len(legal))]
        print(len(moves) + 1, who, game.move_name(move))
        state = game.apply(state, move)
        moves.append(move)
    path.write_text(json.dumps(game.to_record(config, moves, seed)), encoding="utf-8")
    record = json.loads(path.read_text(encoding="utf-8"))
    report = game.replay(record, str(path))
    print(game.from_record(record, str(path)).moves == tuple(moves), report.ok, json.dumps(record["result"]))


def main(argv: list[str]) -> int:
    if not 1 <= len(argv) <= 3 or argv[0] not in GAMES:
        print(f"whole_game: usage: whole_game.py {'|'.join(GAMES)} [SEED] [RECORD.json]", file=sys.stderr)
        return 2
    seed_text = argv[1] if len(argv) > 1 else "7"
    if not (seed_text.isascii() and seed_text.isdigit()) or int(seed_text) >= 2**64:
        print(f"whole_game: the seed is a whole number from 0 to 2^64 - 1, not {seed_text[:30]!r}", file=sys.stderr)
        return 2
    try:
        if len(argv) > 2:
            play(argv[0], int(seed_text), Path(argv[2]))
            return 0
        with tempfile.TemporaryDirectory() as folder:
            play(argv[0], int(seed_text), Path(folder) / "record.json")
    except OSError as exc:
        print(f"whole_game: cannot write or read the record: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
