"""``cardcanon conform``: write the conformance vectors, or check an implementation against them.

    cardcanon conform --write [--vectors DIR]
    cardcanon conform [--vectors DIR] [--only hearts/default] [--timeout S] [-q] -- COMMAND [ARGS...]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from cardcanon.conform import runner, vectors


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "conform", help="check an implementation against the conformance vectors",
        description="Run COMMAND (an implementation speaking the conformance protocol) against the vectors, "
                    "or write the vectors with --write. Exits 0 only when every vector passes.")
    parser.add_argument("--write", action="store_true", help="write the vectors (from the reference models)")
    parser.add_argument("--vectors", type=Path, default=None, metavar="DIR",
                        help="the vector directory (default: the vectors shipped with cardcanon)")
    parser.add_argument("--only", action="append", metavar="FILE",
                        help="run only this game or file, e.g. 'hearts' or 'snap/players-3' (repeatable)")
    parser.add_argument("--timeout", type=_positive, default=30.0, metavar="S",
                        help="seconds to wait for each answer (default 30)")
    parser.add_argument("-q", "--quiet", action="store_true", help="print failures and the summary only")
    parser.add_argument("command", nargs=argparse.REMAINDER, metavar="-- COMMAND [ARGS]",
                        help="the implementation to run")
    parser.set_defaults(handler=main)


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, not {text}")
    return value


def main(args: argparse.Namespace) -> int:
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    directory = args.vectors or vectors.vector_dir()
    if args.write:
        if command:
            raise ValueError("--write takes no command")
        written = vectors.write(directory)
        print(f"wrote {len(written)} files to {directory}")
        return 0
    if not command:
        raise ValueError("no implementation to run: give it after '--', e.g. cardcanon conform -- ./my-adapter")
    if not (directory / vectors.INDEX).exists():
        raise ValueError(f"no conformance vectors in {directory} (missing {vectors.INDEX})")
    passed = failed = 0
    try:
        for result in runner.run(command, directory, args.timeout, args.only):
            if result.passed:
                passed += 1
            else:
                failed += 1
            if not (result.passed and args.quiet):
                print(runner.format_result(result), flush=True)
    except runner.StartError as exc:
        print(f"cardcanon: error: {exc}", file=sys.stderr)
        return 2
    total = passed + failed
    if total == 0:
        raise ValueError(f"no vectors selected by --only {' '.join(args.only or [])}")
    print(f"{total} vectors: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1
