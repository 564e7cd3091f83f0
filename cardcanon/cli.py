"""The ``cardcanon`` command line.

Every subcommand lives in the module that owns its subject and registers itself through
``add_parser(subparsers)``; the handler it sets returns the exit status. Bad input ends with
one line on standard error and a non-zero status, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import unicodedata
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
    "smt-check": "cardcanon.verify.smt_check",
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not usage + message
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see --help)\n")


def one_line(text: str) -> str:
    """``text`` with line breaks and other control characters escaped, so a message stays one line."""
    return "".join(repr(c)[1:-1] if unicodedata.category(c)[0] in "CZ" and c != " " else c for c in text)


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
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version or a usage error (already printed): its status
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 2
    try:
        return int(args.handler(args) or 0)
    except BrokenPipeError:  # output piped into a program that stopped reading (e.g. head)
        sys.stderr.close()
        return 0
    except (CardcanonError, OSError, ValueError) as exc:
        print(f"cardcanon: error: {one_line(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cardcanon: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
