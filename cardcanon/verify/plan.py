"""``cardcanon verify``: run every check of the manifests under every variant, their encoding
probes, and every model mutant of every rule they cite (the necessity matrix).

A check passes only when, under every variant it runs under, its verdict is the expected one
and its records (witnesses, counterexamples) replay through the reference model, as the runner
(not the check) finds; its golden stats (if any) match exactly; every encoding probe is
killed; and every rule it cites is necessary: some mutant of the reference model breaking that
rule makes the check fail with a record that the mutant and the model play differently.
A check that rests on other checks (its premises: ``rests_on`` in the manifest) passes under a
variant only where each premise passed under that variant; selecting a check selects its premises.
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
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TextIO

from cardcanon.cli_args import integer, output_file_or_stdout
from cardcanon.cli_args import seconds as seconds_arg  # finite, positive, at most a day
from cardcanon.verify.manifest import GAMES, CheckSpec, Kind, ManifestError, ProbeSpec, load_manifests, with_premises
from cardcanon.verify.manifest import load_combinations as combinations  # (game, combination) pairs of the manifests
from cardcanon.proofs.base import Verdict
from cardcanon.verify.variants import VariantPlan, plan as variant_plan, variant_name
from cardcanon.verify.report import CheckOutcome, ProbeOutcome, NecessityCell, Report
from cardcanon.verify import schedule
from cardcanon.verify.runner import RunResult, Task, execute, run_tasks

DEFAULT_TIMEOUT = 120.0  # per run; generous, so that a busy machine does not turn into "timeout"
_Layout = tuple[CheckSpec, list[int], list[int], list[tuple[str, str, int]]]  # a check; keys of its runs, probes, cells

__all__ = ["DEFAULT_TIMEOUT", "Progress", "Report", "add_parser", "combinations", "default_jobs", "load_checks", "run"]


def default_jobs() -> int:
    """The CPUs this process may use: checks are independent, CPU-bound and single-threaded."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def load_checks(*, games: Iterable[str] | None = None, ids: Sequence[str] = (),
                manifest_dir: str | Path | None = None) -> list[CheckSpec]:
    """The validated checks of the manifests, optionally narrowed to games and check IDs; a check ID selects a
    check by its full ID or by its ID without slug (``HEARTS-P4``), and with it the checks it rests on."""
    from cardcanon.spec import all_rule_ids
    checks = load_manifests(manifest_dir, games=games, rule_ids=set(all_rule_ids()))
    if not ids:
        return checks
    chosen: list[CheckSpec] = []
    for wanted in ids:
        found = [c for c in checks if wanted in (c.id, c.short_id)]
        if not found:
            known = ", ".join(dict.fromkeys(c.short_id for c in checks)) or "none"
            raise ManifestError(f"unknown check {wanted!r} (checks: {known})")
        chosen.extend(c for c in found if all(c is not d for d in chosen))
    return with_premises(chosen, checks)


@dataclass(frozen=True)
class Coverage:
    """What a verify run includes, decided here alone (a quick run, ``--quick``, is a smoke run)."""

    quick: bool
    variants: bool  # every variant of the game, not the rulebook's defaults alone
    necessity: bool  # the model mutants of the cited rules
    necessity_per_variant: bool  # a model mutant also under each variant of the check that includes its own
    second_solver: bool  # cvc5 decides again each query of a z3-proof run as written (cardcanon.proofs.smt)
    export_smt: str | Path | None  # a folder where those queries are written as SMT-LIB 2 files

    def bounds(self, check: CheckSpec, variant: Mapping[str, str] | None) -> Mapping[str, Any]:
        """The bounds of a run of ``check`` under ``variant`` (None: a probe's run); quick: its ci_bounds if given."""
        return check.bounds_for(self.quick) if variant is None else check.bounds_under(variant, self.quick)

    def full_bounds(self, check: CheckSpec) -> bool:
        """``check`` runs with the bounds its golden stats and necessity matrix hold for."""
        return not (self.quick and check.ci_bounds is not None)

    def variants_of(self, check: CheckSpec, declared: tuple[Mapping[str, str], ...]) -> tuple[Mapping[str, str], ...]:
        """The variants ``check`` runs under, of those ``declared`` for its game; quick: the defaults alone."""
        runs = declared if self.variants and not self.quick else ({},)
        return tuple(v for v in runs if check.variants is None or variant_name(v) in check.variants) or ({},)

    def probes_of(self, check: CheckSpec) -> tuple[ProbeSpec, ...]:
        """The encoding probes of ``check`` that run; quick: none."""
        return () if self.quick else check.probes

    def necessity_rules(self, check: CheckSpec) -> tuple[str, ...]:
        """The rules cited by ``check`` whose model mutants run; none where it runs with smaller bounds."""
        return check.rules if self.necessity and self.full_bounds(check) else ()

    def mutant_variants(self, own: Mapping[str, str], runs: Iterable[Mapping[str, str]]) -> list[dict[str, str]]:
        """A model mutant runs under its ``own`` variant and (necessity_per_variant) each of ``runs`` including it."""
        return [dict(own)] + [dict(v) for v in runs if self.necessity_per_variant and own.items() < v.items()]

    def paired(self, check: CheckSpec) -> bool:
        """cvc5 decides a z3-proof's queries again (runs as written): always to export them, else not quick nor slow."""
        return self.second_solver and check.kind is Kind.Z3_PROOF and (
            self.export_smt is not None or not (self.quick or check.no_second_solver))

    def necessity_skipped(self, check: CheckSpec) -> bool:
        """Part of ``check``'s claim is left out: its probes, or its necessity matrix (smaller bounds)."""
        return (self.necessity and not self.full_bounds(check)) or len(self.probes_of(check)) < len(check.probes)


def run(checks: Sequence[CheckSpec] | None = None, *, jobs: int | None = None, timeout: float = DEFAULT_TIMEOUT,
        quick: bool = False, progress: Progress | None = None, necessity: bool = True, variants: bool = True,
        necessity_per_variant: bool = False, in_process: bool = False, second_solver: bool = True,
        export_smt: str | Path | None = None) -> Report:
    """Run ``checks`` (default: every check of the package's manifests) under every variant, their encoding
    probes, and (``necessity``) every model mutant of every rule they cite, each as :class:`Coverage` decides."""
    checks = load_checks() if checks is None else checks
    ids = {check.id for check in checks}
    for check in checks:
        if missing := [premise for premise in check.rests_on if premise not in ids]:
            raise ManifestError(f"{check.source}: check {check.id}: rests on {', '.join(missing)}, "
                                "which is not among the checks to run")
    if timeout <= 0:
        raise ValueError(f"timeout must be positive, not {timeout}")
    declared = combinations()  # known even when only the defaults run, since manifests name them
    plans = {game: variant_plan(game, [c for g, c in declared if g == game])
             for game in sorted({c.game for c in checks})}
    coverage = Coverage(quick, variants, necessity, necessity_per_variant, second_solver, export_smt)
    tasks, given, layout = _plan_tasks(checks, plans, coverage, timeout)
    runnable = schedule.order([task for task in tasks if task.key not in given])
    jobs = max(1, min(jobs or default_jobs(), len(runnable) or 1))
    started, clock = datetime.now(timezone.utc).isoformat(timespec="seconds"), time.perf_counter()
    results = given | _run_all(runnable, jobs, checks, progress, in_process)
    outcomes: dict[str, CheckOutcome] = {}
    for entry in _premises_first(layout):
        outcomes[entry[0].id] = _outcome(entry, tasks, results, coverage,
                                         tuple(outcomes[premise] for premise in entry[0].rests_on))
    outcomes_in_order = tuple(outcomes[entry[0].id] for entry in layout)
    return Report(outcomes_in_order, started, time.perf_counter() - clock, jobs, timeout, quick,
                  {game: p.to_json() for game, p in plans.items()})


def _plan_tasks(checks: Sequence[CheckSpec], plans: Mapping[str, VariantPlan], coverage: Coverage,
                timeout: float) -> tuple[list[Task], dict[int, RunResult], list[_Layout]]:
    """Every run in order, the results of those decided without running, and where each check's runs are."""
    from cardcanon.verify import model_mutants
    tasks: list[Task] = []
    given: dict[int, RunResult] = {}  # runs decided without running: not-applicable by the manifest
    layout: list[_Layout] = []

    def add(check: CheckSpec, variant: Mapping[str, str] | None, probe: str | None = None,
            model_mutant: str | None = None, paired: bool = False) -> int:
        """Add a run of ``check`` (not-applicable where the manifest's engine does not cover ``variant``); its key."""
        if variant is not None and check.engine_refuses(variant):
            given[len(tasks)] = RunResult(Verdict.NOT_APPLICABLE, check.engine_refuses(variant))
        export = str(coverage.export_smt) if paired and coverage.export_smt is not None else None
        golden = check.stats_for(variant) if variant is not None and coverage.full_bounds(check) else None
        tasks.append(Task(len(tasks), check.id, check.entry, probe, timeout, coverage.bounds(check, variant),
                          variant or {}, model_mutant, second_solver=paired, export_smt=export, golden=golden))
        return len(tasks) - 1

    for check in checks:
        known = {variant_name(v) for v in plans[check.game].variants}
        if unknown := sorted(check.variant_names() - known):
            raise ManifestError(f"{check.source}: check {check.id}: names variant(s) {', '.join(unknown)} that "
                                f"verify does not run (it runs {', '.join(sorted(known))})")
        runs = coverage.variants_of(check, plans[check.game].variants)
        for premise in (c for c in checks if c.id in check.rests_on):
            theirs = {variant_name(v) for v in coverage.variants_of(premise, plans[premise.game].variants)}
            if lacking := [variant_name(v) for v in runs if variant_name(v) not in theirs]:
                raise ManifestError(f"{check.source}: check {check.id}: runs under {', '.join(lacking)}, "
                                    f"but its premise {premise.id} does not")
        mains = [add(check, variant, paired=coverage.paired(check)) for variant in runs]
        probes = [add(check, None, probe=probe.id) for probe in coverage.probes_of(check)]
        cells = []
        for rule in coverage.necessity_rules(check):
            cells += [(rule, key, add(check, variant, model_mutant=key)) for key in model_mutants.for_rule(rule)
                      for variant in coverage.mutant_variants(model_mutants.MUTANTS[key].variant, runs)]
            if not model_mutants.for_rule(rule):
                cells.append((rule, "", -1))  # no model mutant breaks the rule
        layout.append((check, mains, probes, cells))
    return tasks, given, layout


def _premises_first(layout: Sequence[_Layout]) -> list[_Layout]:
    """``layout`` with every check after the checks it rests on (the manifests refuse a cycle)."""
    done: set[str] = set()
    order: list[_Layout] = []
    rest = list(layout)
    while rest:
        ready = [entry for entry in rest if set(entry[0].rests_on) <= done]
        order += ready
        done |= {entry[0].id for entry in ready}
        rest = [entry for entry in rest if entry[0].id not in done]
    return order


def _run_all(runnable: Sequence[Task], jobs: int, checks: Sequence[CheckSpec], progress: Progress | None,
             in_process: bool) -> dict[int, RunResult]:
    """The result of every task, by key (``in_process``: run here, in turn, without deadlines, to test the model)."""
    def finished(task: Task, result: RunResult) -> None:
        if progress is not None:
            progress.finished(task, result, _note(checks, task, result))

    if progress is not None:
        progress.begin(len(runnable), jobs)
    if in_process:
        results: dict[int, RunResult] = {}
        for task in runnable:
            results[task.key] = execute(task.entry, task.probe, task.timeout, task.bounds, task.variant,
                                        task.model_mutant, golden=task.golden)
            finished(task, results[task.key])
    else:
        results = run_tasks(runnable, jobs=jobs, on_finish=finished if progress else None,
                            on_tick=progress.tick if progress and progress.live else None)
    if progress is not None:
        progress.end()
    return results


def _outcome(entry: _Layout, tasks: list[Task], results: Mapping[int, RunResult], coverage: Coverage,
             premises: tuple[CheckOutcome, ...]) -> CheckOutcome:
    """The outcome of one check, from the results of its runs and the outcomes of its premises."""
    from cardcanon.verify.model_mutants import MUTANTS
    check, mains, probes, cells = entry

    def cell(rule: str, key: str, i: int) -> NecessityCell:
        """What run ``i`` of the model mutant ``key`` of ``rule`` shows (-1: ``rule`` has no model mutant)."""
        if i < 0:
            return NecessityCell(rule, "", "", None, check.expected, False, {})
        variant, stats, golden = tasks[i].variant, results[i].stats, check.stats_for(tasks[i].variant) or {}
        stats_differ = coverage.full_bounds(check) and any(stats.get(k) != v for k, v in golden.items())
        return NecessityCell(rule, key, MUTANTS[key].description, results[i], check.expected_for(variant),
                             stats_differ, dict(variant))

    return CheckOutcome(check, tuple((tasks[i].variant, results[i]) for i in mains),
                        tuple(ProbeOutcome(m.id, m.description, results[i], check.expected)
                              for m, i in zip(check.probes, probes)),
                        coverage.quick, tuple(cell(*c) for c in cells), coverage.necessity_skipped(check), premises)


def _note(checks: Sequence[CheckSpec], task: Task, result: RunResult) -> str:
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
    return "" if result.witness_replayed else " -- FAIL: witness not replayed"


class Progress:
    """Progress on a stream: one plain line per finished run, or (``live``) one rewritten line."""

    def __init__(self, stream: TextIO, live: bool) -> None:
        self.stream, self.live = stream, live
        self.done, self.total, self.last = 0, 0, ""

    def begin(self, total: int, jobs: int) -> None:
        """``total`` runs: each check under each variant, each probe, each model mutant of a cited rule."""
        self.total = total
        if not self.live:
            print(f"{total} runs: each check under each variant, its probes, and the model mutants of the rules it "
                  f"cites; {jobs} worker(s)", file=self.stream, flush=True)
        else:
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
                        help="only this check and the checks it rests on (repeatable; HEARTS-P4 also selects "
                             "HEARTS-P4-slug)")
    parser.add_argument("--json", metavar="PATH", type=output_file_or_stdout,
                        help="write the full report as JSON to PATH ('-': standard output)")
    parser.add_argument("--jobs", type=_positive_int, default=None, metavar="N",
                        help=f"worker processes (default: the CPUs available, here {default_jobs()})")
    parser.add_argument("--timeout", type=seconds_arg, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"per run, passed to each check; the run is stopped a little later "
                             f"(default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: each check's ci_bounds where given, the rulebook's defaults only, no "
                             "encoding probes, Z3 alone (no second solver), and"
                             " the necessity matrix only for checks run with their full bounds")
    parser.add_argument("--explain", metavar="CHECK",
                        help="run one check (and its premises) fully and say in words what it states, its "
                             "scope, its premises, which model mutant fails it per cited rule and variant, and "
                             "its witness")
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
    value = integer(text)  # digits 0-9
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _run_verify(args: argparse.Namespace) -> int:
    out = sys.stderr if args.json == "-" else sys.stdout
    if args.json not in (None, "-") and not Path(args.json).resolve().parent.is_dir():
        raise ValueError(f"--json {args.json}: no such folder {Path(args.json).resolve().parent}")
    checks = load_checks(games=[args.game] if args.game else None,
                         ids=[*args.check, *([args.explain] if args.explain else [])], manifest_dir=args.manifest_dir)
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
    # with --explain the runs' progress goes to standard error, the explanation to standard output
    progress = Progress(sys.stderr, live=sys.stderr.isatty()) if args.explain else Progress(out, live=out.isatty())
    report = run(checks, jobs=args.jobs, timeout=args.timeout, quick=args.quick, progress=progress,
                 necessity=not args.no_necessity, variants=not args.default_variant_only, export_smt=args.export_smt,
                 necessity_per_variant=args.necessity_per_variant, second_solver=not args.no_second_solver)
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
