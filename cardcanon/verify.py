"""``cardcanon verify``: run every check of the manifests under every variant, their encoding
probes, and every model mutant of every rule they cite (the necessity matrix).

A check passes only when, under every variant it runs under, its verdict is the expected one
and its records (witnesses, counterexamples) replay through the reference model, as the runner
(not the check) finds; its golden stats (if any) match exactly; every encoding probe is
killed; and every rule it cites is necessary: some mutant of the reference model breaking that
rule makes the check fail with a record that the mutant and the model play differently.
``unknown``, ``timeout`` and ``error`` are failures. Exit status: 0 all passed, 1 some failed,
2 bad input (a bad manifest, an unknown ``--check``).

Each run runs in a worker process with a deadline enforced here, so a hung solver call ends as
``timeout``; see :mod:`cardcanon.verify_runner`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TextIO

from cardcanon.manifest import GAMES, CheckSpec, ManifestError, load_manifests
from cardcanon.proofs.variants import Combination
from cardcanon.verify_report import CheckOutcome, MutantOutcome, NecessityCell, Report
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
            known = ", ".join(dict.fromkeys(c.short_id for c in checks)) or "none"
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
    necessity: bool = True,
    variants: bool = True,
) -> Report:
    """Run ``checks`` (default: every check of the package's manifests) under every variant,
    their encoding probes, and (``necessity``) every model mutant of every rule they cite."""
    from cardcanon.proofs import mutants as model_mutants
    from cardcanon.proofs.variants import plan, variant_name

    if checks is None:
        checks = load_checks()
    if timeout <= 0:
        raise ValueError(f"timeout must be positive, not {timeout}")
    declared = combinations() if variants else []
    plans = {game: plan(game, [c for g, c in declared if g == game]) for game in sorted({c.game for c in checks})}
    for check in checks:
        known = {variant_name(v) for v in plans[check.game].variants}
        unknown = sorted(check.variant_names() - known)
        if unknown:
            raise ManifestError(f"{check.source}: check {check.id}: names variant(s) {', '.join(unknown)} that "
                                f"verify does not run (it runs {', '.join(sorted(known))})")
    tasks: list[Task] = []
    layout: list[tuple[CheckSpec, list[int], list[int], list[tuple[str, str, int]]]] = []
    for check in checks:
        bounds = check.bounds_for(quick)
        # a quick run: the rulebook's defaults only, and necessity only where the bounds are the full ones
        runs = plans[check.game].variants if variants and not quick else ({},)
        skip_necessity = quick and check.ci_bounds is not None
        if check.variants is not None:
            runs = tuple(v for v in runs if variant_name(v) in check.variants) or ({},)
        mains = []
        for variant in runs:
            mains.append(len(tasks))
            tasks.append(Task(len(tasks), check.id, check.entry, None, timeout, check.bounds_under(variant, quick),
                              variant))
        probes = []
        for mutant in check.probes if not quick else ():  # a quick run leaves the encoding probes out
            probes.append(len(tasks))
            tasks.append(Task(len(tasks), check.id, check.entry, mutant.id, timeout, bounds))
        cells = []
        for rule in check.rules if necessity and not skip_necessity else ():
            for key in model_mutants.for_rule(rule):
                cells.append((rule, key, len(tasks)))
                variant = dict(model_mutants.MUTANTS[key].variant)
                tasks.append(Task(len(tasks), check.id, check.entry, None, timeout, check.bounds_under(variant, quick),
                                  variant, key))
            if not model_mutants.for_rule(rule):
                cells.append((rule, "", -1))
        layout.append((check, mains, probes, cells))
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
    for check, mains, probes, cells in layout:
        variant_results = tuple((tasks[i].variant, results[i]) for i in mains)
        probe_outcomes = tuple(MutantOutcome(m.id, m.description, results[i], check.expected)
                               for m, i in zip(check.probes, probes))
        probes_skipped = quick and bool(check.probes)
        necessity_cells = tuple(
            NecessityCell(rule, key, model_mutants.MUTANTS[key].description if key else "",
                          results[i] if i >= 0 else None, check.expected_for(tasks[i].variant) if i >= 0 else check.expected,
                          i >= 0 and _stats_differ(check, tasks[i].variant, results[i], quick))
            for rule, key, i in cells)
        outcomes.append(CheckOutcome(check, variant_results[0][1], probe_outcomes, quick, variant_results,
                                     necessity_cells, (necessity and quick and check.ci_bounds is not None)
                                     or probes_skipped))
    return Report(tuple(outcomes), started, time.perf_counter() - clock, jobs, timeout, quick,
                  {game: p.to_json() for game, p in plans.items()})


def _stats_differ(check: CheckSpec, variant: Mapping[str, str], result: RunResult, quick: bool) -> bool:
    """The run's golden numbers (part of the check's claim) differ from the manifest's."""
    expected = check.stats_for(variant)
    if expected is None or (quick and check.ci_bounds is not None):
        return False
    return any(result.stats.get(key) != value for key, value in expected.items())


def combinations() -> list[tuple[str, Combination]]:
    """The interacting option combinations declared by the manifests, as (game, combination)."""
    from cardcanon.manifest import load_combinations

    return load_combinations()


def _note(checks: Sequence[CheckSpec], task: Task, result: RunResult, quick: bool) -> str:
    """What is wrong with one finished run, for the progress display ("" when nothing)."""
    check = next(c for c in checks if c.id == task.check_id)
    expected = check.expected_for(task.variant)
    if task.model_mutant is not None:
        cell = NecessityCell("", task.model_mutant, "", result, expected)
        return "" if cell.killed else " -- survived"
    if task.mutant is not None:
        return "" if MutantOutcome(task.mutant, "", result, expected).killed else " -- FAIL: probe survived"
    if result.verdict != expected:
        return f" -- FAIL: expected {expected.value}"
    problems = [] if result.witness_replayed else ["witness not replayed"]
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
    parser.add_argument("--json", metavar="PATH", type=_json_path, help="write the full report as JSON to PATH ('-': standard output)")
    parser.add_argument("--jobs", type=_positive_int, default=None, metavar="N",
                        help=f"worker processes (default: the CPUs available, here {default_jobs()})")
    parser.add_argument("--timeout", type=_positive_float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"per run, passed to each check; the run is stopped a little later "
                             f"(default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: each check's ci_bounds where given, the rulebook's defaults only, no "
                             "encoding probes, and the necessity matrix only for checks run with their full bounds")
    parser.add_argument("--manifest-dir", metavar="DIR", help="read manifests from DIR instead of the package's")
    parser.add_argument("--default-variant-only", action="store_true",
                        help="run the checks under the rulebook's defaults only (not a full verification)")
    parser.add_argument("--no-necessity", action="store_true",
                        help="skip the model mutants of the cited rules (not a full verification)")
    parser.set_defaults(handler=_run_verify)


def _positive_int(text: str) -> int:
    from cardcanon.cli_args import integer  # digits 0-9

    value = integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _json_path(text: str) -> str:
    from cardcanon.cli_args import output_file_or_stdout  # not empty, in a folder that may be written

    return output_file_or_stdout(text)


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
    report = run(checks, jobs=args.jobs, timeout=args.timeout, quick=args.quick, progress=progress,
                 necessity=not args.no_necessity, variants=not args.default_variant_only)
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
