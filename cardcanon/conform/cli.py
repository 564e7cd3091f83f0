"""``cardcanon conform``: write the conformance vectors, or check an implementation against them.

    cardcanon conform --write [--vectors DIR]
    cardcanon conform --list [--vectors DIR] [--only GAME]
    cardcanon conform --check-vectors [--vectors DIR] [--only GAME]
    cardcanon conform [--vectors DIR] [--only hearts/default] [--timeout S] [--limit S]
                      [--max-failures N] [-q] -- COMMAND [ARGS...]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from cardcanon.cli_args import integer_range, seconds
from cardcanon.conform import runner, selfcheck, vectors
from cardcanon.conform.adapter import GAMES
from cardcanon.spec import load as load_rulebook

MAX_FAILURES = 5  # failures shown in full per file; the rest are summarised


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "conform", help="check an implementation against the conformance vectors",
        description="Run COMMAND (an implementation speaking the conformance protocol) against the vectors, "
                    "or write the vectors with --write. Exits 0 when no vector fails and at least one passes.")
    parser.add_argument("--write", action="store_true", help="write the vectors (from the reference models)")
    parser.add_argument("--list", action="store_true", help="list the normative rules and the vectors about each")
    parser.add_argument("--check-vectors", action="store_true",
                        help="check each vector file against itself, the rulebook and the reference model; run nothing")
    parser.add_argument("--vectors", type=Path, default=None, metavar="DIR",
                        help="the vector directory (default: the vectors shipped with cardcanon)")
    parser.add_argument("--only", action="append", metavar="FILE",
                        help="run only this game or file, e.g. 'hearts' or 'snap/players-3' (repeatable)")
    parser.add_argument("--timeout", type=seconds, default=30.0, metavar="S",
                        help="seconds to wait for each answer (default 30, at most a day)")
    parser.add_argument("--limit", type=seconds, default=None, metavar="S",
                        help="seconds for the whole run (default: no limit, at most a day)")
    parser.add_argument("--max-failures", type=integer_range(1, 100_000, "a number of failures"),
                        default=MAX_FAILURES, metavar="N",
                        help=f"failures shown in full per file; the rest are summarised (default {MAX_FAILURES})")
    parser.add_argument("-q", "--quiet", action="store_true", help="print failures and the summary only")
    parser.add_argument("command", nargs=argparse.REMAINDER, metavar="-- COMMAND [ARGS]",
                        help="the implementation to run")
    parser.set_defaults(handler=main)


def main(args: argparse.Namespace) -> int:
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    directory = args.vectors or vectors.vector_dir()
    if args.write:
        if command or args.list or args.check_vectors:
            raise ValueError("--write takes no command, no --list and no --check-vectors")
        written = vectors.write(directory)
        print(f"wrote {len(written)} files to {directory}")
        return 0
    if (args.list or args.check_vectors) and command:
        raise ValueError(f"{'--list' if args.list else '--check-vectors'} takes no command")
    if args.list and args.check_vectors:
        raise ValueError("--list and --check-vectors go one at a time")
    if not (args.list or args.check_vectors) and not command:
        raise ValueError("no implementation to run: give it after '--', e.g. cardcanon conform -- ./my-adapter")
    if not (directory / vectors.INDEX).exists():
        raise ValueError(f"no conformance vectors in {directory} (missing {vectors.INDEX})")
    files = runner.load(directory, args.only)  # every file validated before any work
    if not files:
        raise ValueError(f"no vectors selected by --only {' '.join(args.only or [])}")
    if args.list:
        print("\n".join(list_rules(files)))
        return 0
    if args.check_vectors:
        for name, document in files:
            problem = selfcheck.model_problem(document)
            if problem:
                raise ValueError(f"{directory / name}.json: {problem}")
        count = sum(len(document["vectors"]) for _, document in files)
        print(f"{len(files)} files, {count} vectors: each file agrees with itself, the rulebook and the reference "
              "model (perft counts aside)")
        return 0
    return check(command, files, args)


def check(command: list[str], files: list[tuple[str, Any]], args: argparse.Namespace) -> int:
    progress = runner.Progress(deadline=time.monotonic() + (args.limit or float("inf")))
    passed = failed = 0
    skipped: dict[str, tuple[int, str]] = {}  # file -> (vectors, reason)
    hidden: dict[str, list[str]] = {}  # file -> the failures not shown
    shown: dict[str, int] = {}
    try:
        for result in runner.run(command, files, args.timeout, progress):
            if result.skipped is not None:
                count, _ = skipped.get(result.file, (0, ""))
                skipped[result.file] = (count + 1, result.skipped)
                continue
            if result.passed:
                passed += 1
                if not args.quiet:
                    print(runner.format_result(result), flush=True)
                continue
            failed += 1
            if shown.get(result.file, 0) < args.max_failures:
                shown[result.file] = shown.get(result.file, 0) + 1
                print(runner.format_result(result), flush=True)
            else:
                hidden.setdefault(result.file, []).append(result.vector)
    except (runner.StartError, runner.AnswerError) as exc:
        print(f"cardcanon: error: {exc}", file=sys.stderr)
        return 2
    for name, ids in hidden.items():
        more = ", ".join(ids[:8]) + (", ..." if len(ids) > 8 else "")
        print(f"{name}: {len(ids)} more failures not shown (--max-failures {args.max_failures}): {more}")
    for name, (count, reason) in skipped.items():
        print(f"skipped {name} ({count} vectors): {reason}")
    if progress.games:
        print(f"the implementation plays: {', '.join(sorted(progress.games))}")
    if progress.unshown:
        print(f"positions not compared in {progress.unshown} vectors: the implementation does not answer 'show' "
              "(a wrong position is then found only when legal moves differ; see docs/conformance.rst)")
    if progress.out_of_time:
        print(f"stopped: the whole run took longer than --limit {args.limit:g} s; the other vectors were not run")
    total = passed + failed + sum(count for count, _ in skipped.values())
    note = f", {total - passed - failed} skipped" if skipped else ""
    print(f"{total} vectors: {passed} passed, {failed} failed{note} ({progress.requests} requests)")
    if passed == 0 and failed == 0:
        print("no vector was run")
    return 0 if failed == 0 and passed > 0 and not progress.out_of_time else 1


def list_rules(files: list[tuple[str, Any]]) -> list[str]:
    """Each normative rule of the selected games: the files with a ``rule`` vector for it, and
    how many vectors cite it."""
    games = sorted({document["game"] for _, document in files}, key=GAMES.index)
    lines = []
    for game in games:
        own = [(name, document) for name, document in files if document["game"] == game]
        applied = {r for _, document in own for v in document["vectors"] for r in v.get("applies", [])}
        for rule in load_rulebook(game).rules:
            if not rule.normative:
                continue
            with_vector = [name for name, document in own
                           if any(v["kind"] == "rule" and v["rules"][0] == rule.id for v in document["vectors"])]
            cited = sum(rule.id in v["rules"] for _, document in own for v in document["vectors"])
            if with_vector:
                where = f"rule vector in {', '.join(with_vector)}"
            elif rule.id in applied:
                where = "no rule vector (no line of these files applies it first alone)"
            else:
                where = "no rule vector (no move applies it: it decides legality, an ending or a number)"
            lines.append(f"{rule.id:<16} {where}; cited by {cited} vectors")
    return lines
