"""The ``cardcanon`` command line.

Every subcommand lives in the module that owns its subject and registers itself through
``add_parser(subparsers)``; the handler it sets returns the exit status. Bad input ends with
one line on standard error and a non-zero status, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import NoReturn

from cardcanon import __version__
from cardcanon.spec.errors import CardcanonError

# subcommand -> module providing add_parser(subparsers)
_SUBCOMMANDS = {
    "rules": "cardcanon.spec.cli",
    "play": "cardcanon.play",
    "replay": "cardcanon.play",
    "verify": "cardcanon.verify",
    "trace": "cardcanon.trace",
    "analyze": "cardcanon.analyze",
    "conform": "cardcanon.conform.cli",
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not usage + message
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="cardcanon", description="The canonical, machine-checked rulebook of Snap and two-player Hearts.")
    parser.add_argument("--version", action="version", version=f"cardcanon {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    seen = set()
    for module_name in _SUBCOMMANDS.values():
        if module_name in seen:
            continue
        seen.add(module_name)
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if not exc.name or not (module_name + ".").startswith(exc.name + "."):
                raise
            continue  # subcommand not built yet
        module.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except BrokenPipeError:  # output piped into a program that stopped reading (e.g. head)
        sys.stderr.close()
        return 0
    except CardcanonError as exc:
        print(f"cardcanon: error: {exc}", file=sys.stderr)
        return 2
    except (OSError, ValueError) as exc:
        print(f"cardcanon: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cardcanon: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
