"""``cardcanon play GAME ...`` and ``cardcanon replay FILE``."""

from __future__ import annotations

import argparse
import importlib
from types import ModuleType
from typing import Any

from cardcanon.model.errors import RecordError
from cardcanon.model.game import game_api
from cardcanon.record_file import read_record_file

_GAME_MODULES = {"hearts": "cardcanon.play_hearts", "snap": "cardcanon.play_snap"}


def _game_module(game: str) -> ModuleType:
    return importlib.import_module(_GAME_MODULES[game])




def add_parser(sub: Any) -> None:
    play = sub.add_parser("play", help="play a game between built-in players and print it")
    games = play.add_subparsers(dest="game", metavar="GAME", parser_class=type(play))
    games.required = True
    for game in _GAME_MODULES:
        _game_module(game).add_play_parser(games)

    replay = sub.add_parser("replay", help="re-check every move of a game record")
    replay.add_argument("file", help="a JSON game record")
    replay.add_argument("-q", "--quiet", action="store_true", help="print only the verdict line")
    replay.set_defaults(handler=_run_replay)


def _run_replay(args: argparse.Namespace) -> int:
    """Exit 0 when every move is legal and the result right; an illegal record is bad input (2)."""
    data = read_record_file(args.file)  # the loading boundary: size, depth, strict JSON, schema
    report = game_api(data["game"]).replay(data, args.file)
    if not args.quiet:
        for line in _game_module(data["game"]).replay_lines(data, args.file, report.moves_checked):
            print(line)
    if report.ok:
        print(f"{args.file}: ok: {report.moves_checked} moves replayed. {report.summary}".rstrip())
        return 0
    raise RecordError(f"{args.file}: move {report.position}", _short(report.error or "illegal"))


def _short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
