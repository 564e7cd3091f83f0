"""``cardcanon verify``: run every check of the manifests, and every mutant of each.

A check passes only when its verdict is the expected one, its golden stats (if any) match
exactly, its witness was replayed through the reference model and every one of its mutants is
killed. ``unknown``, ``timeout`` and ``error`` are failures. Exit status: 0 all passed,
1 some failed, 2 bad input (a bad manifest, an unknown ``--check``).

Each run (a check or one mutant) runs in a worker process with a deadline enforced here, so
a hung solver call ends as ``timeout``; see :mod:`cardcanon.verify_runner`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from collections.abc import Iterable, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TextIO

from cardcanon.manifest import GAMES, CheckSpec, ManifestError, load_manifests
from cardcanon.verify_report import CheckOutcome, MutantOutcome, Report
from cardcanon.verify_runner import RunResult, Task, run_tasks

DEFAULT_TIMEOUT = 120.0  # per run; generous, so that a busy machine does not turn into "timeout"

__all__ = ["DEFAULT_TIMEOUT", "Progress", "Report", "add_parser", "default_jobs", "load_checks", "run"]


def default_jobs() -> int:
    """The CPUs this process may use: checks are independent, CPU-bound and single-threaded."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def known_rule_ids() -> set[str]:
    from cardcanon.spec import all_rule_ids

    return set(all_rule_ids())


def load_checks(
    *, games: Iterable[str] | None = None, ids: Sequence[str] = (), manifest_dir: str | Path | None = None
) -> list[CheckSpec]:
    """The validated checks of the manifests, optionally narrowed to games and check IDs.

    A check ID selects a check by its full ID or by its ID without slug (``HEARTS-P4``).
    """
    checks = load_manifests(manifest_dir, games=games, rule_ids=known_rule_ids())
    if not ids:
        return checks
    chosen: list[CheckSpec] = []
    for wanted in ids:
        found = [c for c in checks if wanted in (c.id, c.short_id)]
        if not found:
            known = ", ".join(c.id for c in checks) or "none"
            raise ManifestError(f"unknown check {wanted!r} (checks: {known})")
        chosen.extend(c for c in found if all(c is not d for d in chosen))
    return chosen


def run(
    checks: Sequence[CheckSpec] | None = None,
    *,
    jobs: int | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    quick: bool = False,
    progress: Progress | None = None,
) -> Report:
    """Run ``checks`` (default: every check of the package's manifests) and their mutants."""
    if checks is None:
        checks = load_checks()
    if timeout <= 0:
        raise ValueError(f"timeout must be positive, not {timeout}")
    tasks: list[Task] = []
    for check in checks:
        bounds = check.bounds_for(quick)
        for mutant in (None, *(m.id for m in check.mutants)):
            tasks.append(Task(len(tasks), check.id, check.entry, mutant, timeout, bounds))
    jobs = max(1, min(jobs or default_jobs(), len(tasks) or 1))
    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    clock = time.perf_counter()
    if progress is not None:
        progress.begin(len(tasks), jobs)

    def finished(task: Task, result: RunResult) -> None:
        if progress is not None:
            progress.finished(task, result, _note(checks, task, result, quick))

    results = run_tasks(
        tasks,
        jobs=jobs,
        on_finish=finished if progress else None,
        on_tick=progress.tick if progress and progress.live else None,
    )
    if progress is not None:
        progress.end()
    outcomes = []
    index = 0
    for check in checks:
        main = results[index]
        mutants = tuple(
            MutantOutcome(m.id, m.description, results[index + 1 + n], check.expected)
            for n, m in enumerate(check.mutants)
        )
        outcomes.append(CheckOutcome(check, main, mutants, quick))
        index += 1 + len(check.mutants)
    return Report(tuple(outcomes), started, time.perf_counter() - clock, jobs, timeout, quick)


def _note(checks: Sequence[CheckSpec], task: Task, result: RunResult, quick: bool) -> str:
    """What is wrong with one finished run, for the progress display ("" when nothing)."""
    check = next(c for c in checks if c.id == task.check_id)
    if task.mutant is not None:
        return "" if MutantOutcome(task.mutant, "", result, check.expected).killed else " -- FAIL: mutant survived"
    if result.verdict != check.expected:
        return f" -- FAIL: expected {check.expected.value}"
    outcome = CheckOutcome(check, result, (), quick)
    problems = ([] if outcome.witness_ok else ["witness not replayed"]) + outcome.stats_problems()
    return f" -- FAIL: {'; '.join(problems)}" if problems else ""


class Progress:
    """Progress on a stream: one plain line per finished run, or (``live``) one rewritten line."""

    def __init__(self, stream: TextIO, live: bool) -> None:
        self.stream, self.live = stream, live
        self.done = self.total = 0
        self.last = ""

    def begin(self, total: int, jobs: int) -> None:
        self.total = total
        if self.live:
            self._show(f"[0/{total}] starting {jobs} worker(s)")

    def finished(self, task: Task, result: RunResult, note: str) -> None:
        self.done += 1
        line = f"[{self.done}/{self.total}] {task.label} {result.verdict.value} ({result.seconds:.1f} s){note}"
        if not self.live:
            print(line, file=self.stream, flush=True)
        elif note:  # keep failures on screen
            self._show(line)
            self.stream.write("\n")
            self.last = ""
        else:
            self.last = line

    def tick(self, running: list[tuple[Task, float]]) -> None:
        now = ", ".join(f"{task.label} {seconds:.0f} s" for task, seconds in running)
        self._show(f"[{self.done}/{self.total}] running: {now}" if now else self.last)

    def end(self) -> None:
        if self.live:
            self._show("")

    def _show(self, text: str) -> None:
        width = max(20, shutil.get_terminal_size().columns - 1)
        self.stream.write("\r\x1b[K" + (text if len(text) < width else text[: width - 3] + "..."))
        self.stream.flush()


def add_parser(sub: Any) -> None:
    parser = sub.add_parser("verify", help="run the Z3 proofs and searches of the manifests, with their mutants")
    parser.add_argument("--game", choices=GAMES, help="only this game's checks")
    parser.add_argument("--check", action="append", default=[], metavar="ID",
                        help="only this check (repeatable; HEARTS-P4 also selects HEARTS-P4-slug)")
    parser.add_argument("--json", metavar="PATH", help="write the full report as JSON to PATH ('-': standard output)")
    parser.add_argument("--jobs", type=_positive_int, default=None, metavar="N",
                        help=f"worker processes (default: the CPUs available, here {default_jobs()})")
    parser.add_argument("--timeout", type=_positive_float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"per run, passed to each check; the run is stopped a little later "
                             f"(default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--quick", action="store_true", help="use each check's ci_bounds where given")
    parser.add_argument("--manifest-dir", metavar="DIR", help="read manifests from DIR instead of the package's")
    parser.set_defaults(handler=_run_verify)


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _positive_float(text: str) -> float:
    from cardcanon.cli_args import seconds  # finite, positive, at most a day

    return seconds(text)


def _run_verify(args: argparse.Namespace) -> int:
    out = sys.stderr if args.json == "-" else sys.stdout
    if args.json not in (None, "-") and not Path(args.json).resolve().parent.is_dir():
        raise ValueError(f"--json {args.json}: no such folder {Path(args.json).resolve().parent}")
    games = [args.game] if args.game else None
    checks = load_checks(games=games, ids=args.check, manifest_dir=args.manifest_dir)
    if not checks:
        where = args.manifest_dir or "the package's manifests"
        raise ManifestError(f"no checks to run in {where}" + (f" for {args.game}" if args.game else ""))
    progress = Progress(out, live=out.isatty())
    report = run(checks, jobs=args.jobs, timeout=args.timeout, quick=args.quick, progress=progress)
    print(report.table(), file=out)
    print(report.summary(), file=out)
    if args.json:
        text = json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n"
        if args.json == "-":
            sys.stdout.write(text)
        else:
            Path(args.json).write_text(text, encoding="utf-8")
    print("OK: every check passed" if report.ok else "FAILED", file=out)
    return 0 if report.ok else 1
