"""``cardcanon verify``: run every check of the manifests under every variant, their encoding
probes, and every model mutant of every rule they cite (the necessity matrix).

A check passes only when, under every variant it runs under, its verdict is the expected one
and its records (witnesses, counterexamples) replay through the reference model, as the runner
(not the check) finds; its golden stats (if any) match exactly; every encoding probe is
killed; and every rule it cites is necessary: some mutant of the reference model breaking that
rule makes the check fail with a record that the mutant and the model play differently.
``unknown``, ``timeout`` and ``error`` are failures. A run that cannot check what it claims
(the compiled engine is missing or refuses the configuration) is ``not-applicable``: neither
passed nor failed. Exit status: 0 all passed, 1 some failed, 2 bad input (a bad manifest, an
unknown ``--check``), 3 nothing failed but something was not applicable.

Each run runs in a worker process with a deadline enforced here, so a hung solver call ends as
``timeout``; see :mod:`cardcanon.verify.runner`.
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

from cardcanon.verify.manifest import GAMES, CheckSpec, Kind, ManifestError, load_manifests
from cardcanon.proofs.base import Verdict
from cardcanon.verify.variants import Combination
from cardcanon.verify.report import CheckOutcome, ProbeOutcome, NecessityCell, Report
from cardcanon.verify import schedule
from cardcanon.verify.runner import RunResult, Task, execute, run_tasks

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
    necessity_per_variant: bool = False,
    in_process: bool = False,
    second_solver: bool = True,
    export_smt: str | Path | None = None,
) -> Report:
    """Run ``checks`` (default: every check of the package's manifests) under every variant,
    their encoding probes, and (``necessity``) every model mutant of every rule they cite.

    With ``second_solver`` each run of a ``z3-proof`` check as written (no probe, no model
    mutant) has cvc5 decide every query again (:mod:`cardcanon.proofs.smt`), except in a quick
    run; ``export_smt`` names a folder where those queries are written as SMT-LIB 2 files."""
    from cardcanon.verify import model_mutants
    from cardcanon.verify.variants import plan, variant_name

    if checks is None:
        checks = load_checks()
    if timeout <= 0:
        raise ValueError(f"timeout must be positive, not {timeout}")
    declared = combinations()  # known even when only the defaults run, since manifests name them
    plans = {game: plan(game, [c for g, c in declared if g == game]) for game in sorted({c.game for c in checks})}
    for check in checks:
        known = {variant_name(v) for v in plans[check.game].variants}
        unknown = sorted(check.variant_names() - known)
        if unknown:
            raise ManifestError(f"{check.source}: check {check.id}: names variant(s) {', '.join(unknown)} that "
                                f"verify does not run (it runs {', '.join(sorted(known))})")
    tasks: list[Task] = []
    given: dict[int, RunResult] = {}  # runs decided without running: not-applicable by the manifest
    layout: list[tuple[CheckSpec, list[int], list[int], list[tuple[str, str, int]]]] = []

    def plan_run(check: CheckSpec, variant: Mapping[str, str], *, model_mutant: str | None = None,
                 paired: bool = False) -> int:
        """Add a run of ``check`` under ``variant`` (not-applicable at once where the manifest's engine
        does not cover the variant); its task key."""
        key = len(tasks)
        if check.engine_refuses(variant):
            given[key] = RunResult(Verdict.NOT_APPLICABLE, check.engine_refuses(variant))
        tasks.append(Task(key, check.id, check.entry, None, timeout, check.bounds_under(variant, quick), variant,
                          model_mutant, second_solver=paired,
                          export_smt=str(export_smt) if paired and export_smt is not None else None))
        return key

    for check in checks:
        bounds = check.bounds_for(quick)
        # a quick run: the rulebook's defaults only, and necessity only where the bounds are the full ones
        runs = plans[check.game].variants if variants and not quick else ({},)
        skip_necessity = quick and check.ci_bounds is not None
        if check.variants is not None:
            runs = tuple(v for v in runs if variant_name(v) in check.variants) or ({},)
        # a check cvc5 is too slow for, and a quick run, are Z3 alone unless the queries are asked for (--export-smt)
        paired = second_solver and check.kind is Kind.Z3_PROOF and (
            export_smt is not None or not (quick or check.no_second_solver))
        mains = [plan_run(check, variant, paired=paired) for variant in runs]
        probes = []
        for probe in check.probes if not quick else ():  # a quick run leaves the probes out
            probes.append(len(tasks))
            tasks.append(Task(len(tasks), check.id, check.entry, probe.id, timeout, bounds))
        cells = []
        for rule in check.rules if necessity and not skip_necessity else ():
            for key in model_mutants.for_rule(rule):
                own = dict(model_mutants.MUTANTS[key].variant)
                # the mutant under its own variant; with necessity_per_variant, also under every variant
                # the check runs under that includes it (so each such result can be bound)
                under = [own] + [dict(v) for v in runs if necessity_per_variant and v != own
                                 and all(v.get(k) == o for k, o in own.items())]
                cells += [(rule, key, plan_run(check, variant, model_mutant=key)) for variant in under]
            if not model_mutants.for_rule(rule):
                cells.append((rule, "", -1))
        layout.append((check, mains, probes, cells))
    runnable = schedule.order([task for task in tasks if task.key not in given])
    jobs = max(1, min(jobs or default_jobs(), len(runnable) or 1))
    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    clock = time.perf_counter()
    if progress is not None:
        progress.begin(len(runnable), jobs)

    def finished(task: Task, result: RunResult) -> None:
        if progress is not None:
            progress.finished(task, result, _note(checks, task, result, quick))

    if in_process:  # every run here, one after the other, without deadlines: for tests of the loaded model
        results = dict(given)
        for task in runnable:
            results[task.key] = execute(task.entry, task.probe, task.timeout, task.bounds, task.variant,
                                        task.model_mutant)
            finished(task, results[task.key])
    else:
        results = given | run_tasks(
            runnable,
            jobs=jobs,
            on_finish=finished if progress else None,
            on_tick=progress.tick if progress and progress.live else None,
        )
    if progress is not None:
        progress.end()
    outcomes = []
    for check, mains, probes, cells in layout:
        variant_results = tuple((tasks[i].variant, results[i]) for i in mains)
        probe_outcomes = tuple(ProbeOutcome(m.id, m.description, results[i], check.expected)
                               for m, i in zip(check.probes, probes))
        probes_skipped = quick and bool(check.probes)
        necessity_cells = tuple(
            NecessityCell(rule, key, model_mutants.MUTANTS[key].description if key else "",
                          results[i] if i >= 0 else None, check.expected_for(tasks[i].variant) if i >= 0 else check.expected,
                          i >= 0 and _stats_differ(check, tasks[i].variant, results[i], quick),
                          dict(tasks[i].variant) if i >= 0 else {})
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
    from cardcanon.verify.manifest import load_combinations

    return load_combinations()


def _note(checks: Sequence[CheckSpec], task: Task, result: RunResult, quick: bool) -> str:
    """What is wrong with one finished run, for the progress display ("" when nothing)."""
    check = next(c for c in checks if c.id == task.check_id)
    expected = check.expected_for(task.variant)
    if result.verdict is Verdict.NOT_APPLICABLE:
        return f" -- not applicable: {result.detail}"
    if task.model_mutant is not None:
        return ""  # a model mutant that leaves the check passing is no warning: the rule's other mutants may fail it
    if task.probe is not None:
        return "" if ProbeOutcome(task.probe, "", result, expected).killed else " -- FAIL: probe survived"
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
        """``total`` runs: each check under each variant, each probe, each model mutant of a cited rule."""
        self.total = total
        if not self.live:
            print(f"{total} runs: each check under each variant, its probes, and the model mutants of the rules it "
                  f"cites; {jobs} worker(s)", file=self.stream, flush=True)
        if self.live:
            self._show(f"[0/{total} runs] starting {jobs} worker(s)")

    def finished(self, task: Task, result: RunResult, note: str) -> None:
        self.done += 1
        line = f"[{self.done}/{self.total} runs] {task.label} {result.verdict.value} ({result.seconds:.1f} s){note}"
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
        self._show(f"[{self.done}/{self.total} runs] running: {now}" if now else self.last)

    def end(self) -> None:
        if self.live:
            self._show("")

    def _show(self, text: str) -> None:
        width = max(20, shutil.get_terminal_size().columns - 1)
        self.stream.write("\r\x1b[K" + (text if len(text) < width else text[: width - 3] + "..."))
        self.stream.flush()


def add_parser(sub: Any) -> None:
    parser = sub.add_parser("verify", help="run the Z3 proofs and searches of the manifests, with their probes and model mutants")
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
                             "encoding probes, Z3 alone (no second solver), and"
                             " the necessity matrix only for checks run with their full bounds")
    parser.add_argument("--explain", metavar="CHECK",
                        help="run one check fully and say in words what it states, its scope, which model "
                             "mutant fails it per cited rule and variant, and its witness")
    parser.add_argument("--manifest-dir", metavar="DIR", help="read manifests from DIR instead of the package's")
    parser.add_argument("--default-variant-only", action="store_true",
                        help="run the checks under the rulebook's defaults only (not a full verification)")
    parser.add_argument("--necessity-per-variant", action="store_true",
                        help="run every model mutant under every variant its check runs under, so that each "
                             "(check, variant) result can be bound (slow; by default a mutant runs under its own "
                             "variant only and the other results are reported unbound)")
    parser.add_argument("--no-necessity", action="store_true",
                        help="skip the model mutants of the cited rules (not a full verification)")
    parser.add_argument("--export-smt", metavar="DIR",
                        help="write every query a z3-proof verdict rests on to DIR as an SMT-LIB 2 file "
                             "(re-check them with `cardcanon smt-check DIR` or any SMT-LIB solver)")
    parser.add_argument("--no-second-solver", action="store_true",
                        help="decide the z3-proof queries with Z3 alone, not again with cvc5 (not a full verification)")
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
    checks = load_checks(games=games, ids=[*args.check, *([args.explain] if args.explain else [])],
                         manifest_dir=args.manifest_dir)
    if not checks:
        where = args.manifest_dir or "the package's manifests"
        raise ManifestError(f"no checks to run in {where}" + (f" for {args.game}" if args.game else ""))
    if args.export_smt is not None:
        folder = Path(args.export_smt)
        if folder.exists() and (not folder.is_dir() or any(folder.glob("*.smt2"))):
            raise ValueError(f"--export-smt {args.export_smt}: not an empty folder (it would mix two runs' queries)")
        if args.no_second_solver:
            raise ValueError("--export-smt writes the queries the second solver decides; drop --no-second-solver")
        folder.mkdir(parents=True, exist_ok=True)
    progress = Progress(out, live=out.isatty()) if out.isatty() or not args.explain else None
    report = run(checks, jobs=args.jobs, timeout=args.timeout, quick=args.quick, progress=progress,
                 necessity=not args.no_necessity, variants=not args.default_variant_only,
                 necessity_per_variant=args.necessity_per_variant,
                 second_solver=not args.no_second_solver, export_smt=args.export_smt)
    if args.explain:
        for outcome in report.outcomes:
            if args.explain in (outcome.check.id, outcome.check.short_id):
                print(outcome.explain(), file=out)
                print(f"  Result: {outcome.status}", file=out)
    else:
        print(report.table(), file=out)
    print(report.summary(), file=out)
    if args.json:
        text = json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n"
        if args.json == "-":
            sys.stdout.write(text)
        else:
            Path(args.json).write_text(text, encoding="utf-8")
    print(report.conclusion(), file=out)
    return report.exit_status
