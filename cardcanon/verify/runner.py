"""Run checks in worker processes, each run under a deadline enforced by the parent.

Every worker slot is its own one-process :class:`~concurrent.futures.ProcessPoolExecutor`, so
a run that hangs (a Z3 call that ignores its timeout, an endless loop) or kills its process
affects only its own slot: the parent stops that process, records the verdict ``timeout`` (or
``error``) and starts a fresh worker for the next run. Workers are started with ``spawn``, so
no state leaks from the parent and the behaviour is the same on every platform.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import multiprocessing
import tempfile
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cardcanon.verify.manifest import resolve_entry
from cardcanon.proofs.base import CheckResult, Verdict, variant_name
from cardcanon.proofs.smt import ANSWERS, AnswerStore, SolverPair, paired


def grace_seconds(timeout: float) -> float:
    """How long past its own timeout a run may take before the parent stops it."""
    return 2.0 + 0.1 * timeout


@dataclass(frozen=True)
class Task:
    """One run: a check under one variant, as written, with a probe (``probe``, a broken
    encoding) or against a model mutant (``model_mutant``, a broken reference model)."""

    key: int
    check_id: str
    entry: str
    probe: str | None
    timeout: float
    bounds: Mapping[str, Any] = field(default_factory=dict)
    variant: Mapping[str, str] = field(default_factory=dict)
    model_mutant: str | None = None
    second_solver: bool = False  # decide every query again with cvc5 (a z3-proof check as written)
    export_smt: str | None = None  # write each such query to this folder as SMT-LIB 2
    golden: Mapping[str, Any] | None = None  # the golden stats its result is compared with (None: none)

    @property
    def label(self) -> str:
        where = "" if not self.variant else f" [{variant_name(self.variant)}]"
        if self.model_mutant is not None:
            return f"{self.check_id}{where} model mutant {self.model_mutant.split(':', 1)[1]}"
        return self.check_id + where if self.probe is None else f"{self.check_id}{where} probe {self.probe}"


@dataclass(frozen=True)
class RunResult:
    """What one run produced, as plain data (it crosses a process boundary)."""

    verdict: Verdict
    detail: str = ""
    witness: str | None = None
    witness_replayed: bool = False  # computed here: every record replays through the loaded model
    stats: Mapping[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    records: tuple[Mapping[str, Any], ...] = ()
    replay_problems: tuple[str, ...] = ()
    disagreement: bool = False  # model mutant: a record replays under the mutant and not under the model
    engine_replayed: int = 0  # records the compiled engine played as the model does
    engine_disagreed: tuple[str, ...] = ()
    second_solver: Mapping[str, Any] | None = None  # both solvers' answers (cardcanon.proofs.smt)
    engine_not_applicable: tuple[str, ...] = ()  # records the engine could not play, with the reason

    @property
    def engine_verdict(self) -> Verdict | None:
        """The verdict of the engine replay of the records: None when no record is one the
        engine plays; never ``proved`` when some record could not be played by it."""
        if self.engine_disagreed:
            return Verdict.COUNTEREXAMPLE
        if self.engine_not_applicable:
            return Verdict.NOT_APPLICABLE
        return Verdict.PROVED if self.engine_replayed else None


def run_check(check: Callable[[Any], Any], *, probe: str | None = None, timeout: float = 60.0,
              bounds: Mapping[str, Any] | None = None, variant: Mapping[str, str] | None = None,
              caching: bool = True, golden: Mapping[str, Any] | None = None) -> CheckResult:
    """Run one check in this process as verify does: an undecided Z3 call becomes ``unknown`` or
    ``timeout``, a disagreement of the model its verdict with its last record; the result carries
    every record (noted with ``run.record`` or returned). Other exceptions pass through."""
    from cardcanon.proofs.base import Budget, Disagreement, Run, Undecided, parse_probe, set_caching
    from cardcanon.verify.records import distinct

    run = Run(dict(variant or {}), parse_probe(probe), Budget(timeout), dict(bounds or {}),
              check=f"{getattr(check, '__module__', '')}:{getattr(check, '__qualname__', '')}", golden=golden)
    set_caching(caching)
    try:
        result = check(run)
    except Undecided as err:
        result, run.records[:] = CheckResult(err.verdict, f"Z3 answered unknown ({err})"), []
    except Disagreement as err:
        result = CheckResult(err.verdict, f"the model disagrees with the encoding: {err}", witness=str(err))
        run.records[:] = run.records[-1:]  # the record of the disagreement
    finally:
        set_caching(True)
    if not isinstance(result, CheckResult):
        raise TypeError(f"{run.check} returned {type(result).__name__}, not a CheckResult")
    return replace(result, records=tuple(distinct([*run.records, *result.records])))


def execute(entry: str, probe: str | None, timeout: float, bounds: Mapping[str, Any],
            variant: Mapping[str, str] | None = None, model_mutant: str | None = None,
            pair: SolverPair | None = None, golden: Mapping[str, Any] | None = None) -> RunResult:
    """Run one check in this process, then replay its records; every failure becomes ``error``.

    The check gets one :class:`~cardcanon.proofs.base.Run`. With ``model_mutant`` the check runs
    against that mutant of the reference model (the per-process cache off), its records are
    replayed under the mutant and then under the reference model: ``disagreement`` says whether
    some record is a game of the mutant that the reference model does not play alike.
    With ``pair`` every query the check decides is decided again by cvc5; a disagreement or a
    cvc5 ``unknown`` turns the verdict into ``error`` or ``unknown``.
    """
    from cardcanon.engine.build import EngineUnavailable
    from cardcanon.verify import records as replays
    from cardcanon.verify.model_mutants import patched
    from cardcanon.verify.engine import engine_replay

    try:
        check = resolve_entry(entry)
    except BaseException as exc:  # noqa: BLE001 - reported, never raised
        return RunResult(Verdict.ERROR, f"cannot import {entry}: {_describe(exc)}")
    start = time.perf_counter()
    output = io.StringIO()  # a check's prints would garble the progress display
    try:
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output), patched(model_mutant), \
                paired(pair):
            result = run_check(check, probe=probe, timeout=timeout, bounds=bounds, variant=variant,
                               caching=model_mutant is None, golden=golden)
            mine = [replays.replay(r) for r in result.records]
    except (Exception, SystemExit) as exc:
        printed = output.getvalue().strip()
        tail = f"; it printed: ...{printed[-400:]}" if printed else ""
        return RunResult(Verdict.ERROR, _describe(exc) + tail, seconds=time.perf_counter() - start)
    seconds = time.perf_counter() - start
    try:
        verdict = Verdict(result.verdict)
        stats = json.loads(json.dumps(dict(result.stats), default=str))
        records: tuple[dict[str, Any], ...] = tuple(json.loads(json.dumps(list(result.records))))
    except (ValueError, TypeError) as exc:
        return RunResult(Verdict.ERROR, f"{entry} returned a malformed CheckResult: {exc}", seconds=seconds)
    problems = tuple(f"record {n} ({r.get('label', '')}): {p.problem}"
                     for n, (r, p) in enumerate(zip(records, mine), 1) if not p.ok)
    disagreement, engine_ok, engine_bad, engine_refused = False, 0, [], []
    if model_mutant is not None:
        reference = [replays.replay(r) for r in records]
        disagreement = any(p.ok and not q.ok for p, q in zip(mine, reference))
    else:
        for n, record in enumerate(records, 1):
            try:
                with contextlib.redirect_stderr(io.StringIO()):  # the engine's one-line warning
                    same = engine_replay(record)
            except EngineUnavailable as exc:
                engine_refused.append(f"record {n}: {exc}")
                continue
            except Exception as exc:  # noqa: BLE001 - the engine may be missing or broken
                engine_bad.append(f"record {n}: the engine failed: {_describe(exc)}")
                continue
            if same is True:
                engine_ok += 1
            elif same is False:
                engine_bad.append(f"record {n} ({record.get('label', '')}): the engine plays it differently")
    detail = str(result.detail or "")
    if pair is not None and pair.problems():
        disagree = any(a.cvc5 in ANSWERS and a.cvc5 != a.z3 for a in pair.answers)
        verdict = Verdict.ERROR if disagree else Verdict.UNKNOWN
        detail = f"second solver: {'; '.join(pair.problems())}; Z3 alone: {result.verdict}: {detail}"
    return RunResult(
        verdict=verdict,
        detail=detail,
        witness=None if result.witness is None else str(result.witness),
        witness_replayed=bool(records) and not problems,
        stats=stats,
        seconds=time.perf_counter() - start,
        records=records,
        replay_problems=problems,
        disagreement=disagreement,
        engine_replayed=engine_ok,
        engine_disagreed=tuple(engine_bad),
        engine_not_applicable=tuple(engine_refused),
        second_solver=None if pair is None else pair.summary(),
    )


def _describe(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" (at {frames[-1].filename}:{frames[-1].lineno})" if frames else ""
    return f"{type(exc).__name__}: {exc}{where}"


class _Slot:
    """One worker process and the run it is busy with."""

    def __init__(self) -> None:
        self.executor: ProcessPoolExecutor | None = None
        self.task: Task | None = None
        self.future: Future[RunResult] | None = None
        self.started = 0.0
        self.deadline = 0.0
        self.warm: set[tuple[str, str, str | None]] = set()  # what this worker's encodings were built for
        self.checks: set[str] = set()  # the checks it has run (their terms are kept for every variant agreeing)
        self.games: set[str] = set()  # the games of those checks

    def take(self, pending: deque[Task], pairing: set[str], window: int = 8,
             elsewhere: frozenset[str] = frozenset()) -> Task:
        """The next run for this worker, of the next ``window`` runs (longest first). A paired run of a
        check another worker is pairing now (``pairing``) waits, when another run is at hand: most of
        its queries are the other's, decided once and then taken from the answer store. Of the rest,
        the first under a variant and probe this worker has run, of a check no other worker has run
        (``elsewhere``: theirs, and the witnesses their runs found, are kept there), so that it reuses
        the encodings it built; else the first of a check it has run (its terms and witnesses are kept
        for the variants that agree on the options they read); else the first of a check no other
        worker has run, of a game it has run if any (the game's terms are kept too); else the first."""
        ahead = list(itertools.islice(pending, window))
        ahead = [task for task in ahead if not (task.second_solver and task.check_id in pairing)] or ahead
        preferences: tuple[Callable[[Task], bool], ...] = (
            lambda task: _warm_key(task) in self.warm and task.check_id not in elsewhere,
            lambda task: task.check_id in self.checks,
            lambda task: task.check_id not in elsewhere and _game(task) in self.games,
            lambda task: task.check_id not in elsewhere,
        )
        chosen = next((task for prefer in preferences for task in ahead if prefer(task)), ahead[0])
        pending.remove(chosen)
        self.warm.add(_warm_key(chosen))
        self.checks.add(chosen.check_id)
        self.games.add(_game(chosen))
        return chosen

    def submit(self, task: Task, answers: AnswerStore) -> None:
        if self.executor is None:
            self.executor = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        self.task = task
        self.started = time.monotonic()
        # a paired run has its timeout for Z3 and as much again for cvc5
        seconds = task.timeout * (2 if task.second_solver else 1)
        self.deadline = self.started + seconds + grace_seconds(seconds)
        pair = None
        if task.second_solver:
            label = task.check_id + ("" if not task.variant else f"-{variant_name(task.variant)}")
            pair = SolverPair(label, None if task.export_smt is None else Path(task.export_smt),
                              query_seconds=task.timeout, store=answers)
        self.future = self.executor.submit(execute, task.entry, task.probe, task.timeout, plain(task.bounds),
                                           plain(task.variant), task.model_mutant, pair,
                                           None if task.golden is None else plain(task.golden))

    def kill(self) -> None:
        """Stop the worker process at once (it may be stuck in native code)."""
        if self.executor is None:
            return
        # The executor has no public way to stop a busy worker; its process table is stable
        # across the supported Python versions.
        processes = list((getattr(self.executor, "_processes", None) or {}).values())
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(2)
            if process.is_alive():
                process.kill()
                process.join(2)
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.executor = None
        self.warm.clear()
        self.checks.clear()

    def close(self) -> None:
        if self.task is not None:
            self.kill()
        elif self.executor is not None:
            self.executor.shutdown(wait=True)
            self.executor = None


def _game(task: Task) -> str:
    """The game of the task's check (its ID's first part)."""
    return task.check_id.split("-", 1)[0]


def _warm_key(task: Task) -> tuple[str, str, str | None]:
    """What a worker's per-process encodings are built for: the game, the variant and the probe."""
    return _game(task), variant_name(task.variant), task.probe


def plain(value: Any) -> Any:
    """``value`` as plain data: every mapping a dict and every tuple a list, all the way down."""
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


def run_tasks(
    tasks: Iterable[Task],
    *,
    jobs: int,
    on_finish: Callable[[Task, RunResult], None] | None = None,
    on_tick: Callable[[list[tuple[Task, float]]], None] | None = None,
    tick_seconds: float = 0.5,
) -> dict[int, RunResult]:
    """Run every task, at most ``jobs`` at once; the result of each, by task key."""
    pending = deque(tasks)
    slots = [_Slot() for _ in range(max(1, min(jobs, len(pending))))]
    results: dict[int, RunResult] = {}
    folder = tempfile.TemporaryDirectory(prefix="cardcanon-answers-")  # this verify run's unsat answers
    answers = AnswerStore(folder.name)

    def finish(slot: _Slot, result: RunResult) -> None:
        task, slot.task, slot.future = slot.task, None, None
        assert task is not None
        results[task.key] = result
        if on_finish:
            on_finish(task, result)

    try:
        while True:
            for slot in slots:
                if slot.task is None and pending:
                    pairing = {other.task.check_id for other in slots
                               if other.task is not None and other.task.second_solver}
                    elsewhere = frozenset(check for other in slots if other is not slot for check in other.checks)
                    slot.submit(slot.take(pending, pairing, elsewhere=elsewhere), answers)
            busy = {slot.future: slot for slot in slots if slot.task is not None and slot.future is not None}
            if not busy:
                break
            now = time.monotonic()
            wait_for = max(0.0, min(slot.deadline for slot in busy.values()) - now)
            if on_tick:
                wait_for = min(wait_for, tick_seconds)
            done, _ = wait(list(busy), timeout=wait_for, return_when=FIRST_COMPLETED)
            for future in done:
                slot = busy[future]
                try:
                    result = future.result()
                except Exception as exc:  # the worker process died
                    slot.kill()
                    result = RunResult(Verdict.ERROR, f"worker process died: {_describe(exc)}",
                                       seconds=time.monotonic() - slot.started)
                finish(slot, result)
            now = time.monotonic()
            for slot in busy.values():
                if slot.task is not None and now >= slot.deadline:
                    limit = slot.deadline - slot.started
                    slot.kill()
                    finish(slot, RunResult(Verdict.TIMEOUT, f"no result within {limit:.1f} s; stopped by verify",
                                           seconds=now - slot.started))
            if on_tick:
                on_tick([(slot.task, now - slot.started) for slot in slots if slot.task is not None])
    finally:
        for slot in slots:
            slot.close()
        folder.cleanup()
    return results
