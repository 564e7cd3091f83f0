"""A second solver: every deciding Z3 query is exported as SMT-LIB 2 and decided again by cvc5.

A run of a ``z3-proof`` check as written (no probe, no model mutant) opens a :class:`SolverPair`.
Every query the check decides through :func:`decide` that Z3 answers ``unsat`` is then written
as SMT-LIB 2 text (the assertions Z3 saw, and the assumptions of that call as further
assertions) and parsed and decided by cvc5 from that text, in the same process. An ``unsat``
is what a proof rests on and comes with no certificate; a ``sat`` comes with a model, which the
check turns into a witness or counterexample that the runner replays through the reference
model (or into numbers compared with the manifest's golden stats), so it is counted, not
decided twice (the large witness queries would cost cvc5 seconds each). Each answer pair is kept; a disagreement,
or a cvc5 answer that is neither ``sat`` nor ``unsat``, is a *solver problem*: the runner fails
the check and the query is saved as a file for a bug report. Probes and model mutants run with
Z3 alone (no pair is open).

``cardcanon smt-check DIR`` re-decides exported queries with cvc5's SMT-LIB parser alone.
"""

from __future__ import annotations

import contextvars
import hashlib
import re
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import z3

from cardcanon.proofs.base import Z3

ANSWERS = ("sat", "unsat")
EXPECTED_HEADER = "; expected: "  # the answer both solvers gave, first line of an exported file


@dataclass(frozen=True)
class PairAnswer:
    """One query decided by both solvers."""

    number: int
    z3: str
    cvc5: str
    seconds: float  # cvc5's time, export and parse included
    file: str | None = None  # where the query was written (export, or a saved solver problem)

    @property
    def agrees(self) -> bool:
        return self.z3 == self.cvc5 and self.cvc5 in ANSWERS


@dataclass
class SolverPair:
    """The second solver of one run: its answers, and where queries are written."""

    label: str
    export_dir: Path | None = None
    problem_dir: Path | None = None
    query_seconds: float = 60.0  # cvc5's limit per query; running out is a solver problem
    answers: list[PairAnswer] = field(default_factory=list)
    models: int = 0  # sat answers: their models become witnesses the runner replays
    repeated: int = 0  # queries whose very text cvc5 already decided in this process
    linear: _Linear = field(default_factory=lambda: _Linear(), repr=False, compare=False)  # shared by the queries

    def confirm(self, solver: Z3, extra: tuple[Z3, ...], answer: str) -> PairAnswer:
        """Decide ``solver``'s query (with ``extra`` asserted) again with cvc5, from SMT-LIB text."""
        started = time.perf_counter()
        text = smtlib(solver, extra, self.linear)
        key = hashlib.sha256(text.encode()).hexdigest()
        second = _DECIDED.get(key)
        if second is None:
            try:
                second = cvc5_decide(text, self.query_seconds)
            except RuntimeError as exc:  # cvc5 refused the text: a problem to report, never a pass
                second = f"error ({' '.join(str(exc).split())[:200]})"
            if second in ANSWERS:
                _DECIDED[key] = second
        else:
            self.repeated += 1
        number = len(self.answers) + 1
        file = None
        pair = PairAnswer(number, answer, second, time.perf_counter() - started)
        if self.export_dir is not None:
            file = write_query(self.export_dir, f"{self.label}-q{number:04d}", text, answer)
        if not pair.agrees:
            folder = self.problem_dir or Path(tempfile.gettempdir()) / "cardcanon-solver-problems"
            file = write_query(folder, f"{self.label}-q{number:04d}", text, answer)
        pair = PairAnswer(number, answer, second, pair.seconds, file)
        self.answers.append(pair)
        return pair

    def problems(self) -> list[str]:
        return [f"query {a.number}: Z3 {a.z3}, cvc5 {a.cvc5} (saved as {a.file})"
                for a in self.answers if not a.agrees]

    def summary(self) -> dict[str, Any]:
        """The record of this run's second solver (JSON-ready)."""
        counts: dict[str, int] = {}
        for a in self.answers:
            counts[f"z3 {a.z3}, cvc5 {a.cvc5}"] = counts.get(f"z3 {a.z3}, cvc5 {a.cvc5}", 0) + 1
        return {"solvers": ["z3", "cvc5"], "queries": len(self.answers), "answers": counts,
                "z3_sat_models": self.models, "cvc5_repeated": self.repeated,
                "agree": all(a.agrees for a in self.answers),
                "cvc5_seconds": round(sum(a.seconds for a in self.answers), 3), "problems": self.problems()}


# cvc5's answers by the SHA-256 of the query's SMT-LIB text: the same text is the same query, so
# its answer holds wherever it comes again (the variants of a check often ask identical queries)
_DECIDED: dict[str, str] = {}

_ACTIVE: contextvars.ContextVar[SolverPair | None] = contextvars.ContextVar("solver_pair", default=None)


@contextmanager
def paired(pair: SolverPair | None) -> Iterator[SolverPair | None]:
    """Within this block, :func:`decide` confirms every answer with ``pair`` (None: Z3 alone)."""
    token = _ACTIVE.set(pair)
    try:
        yield pair
    finally:
        _ACTIVE.reset(token)


def active() -> SolverPair | None:
    return _ACTIVE.get()


def decide(solver: Z3, *extra: Z3) -> Z3:
    """``solver.check(*extra)``; inside :func:`paired`, an unsat answer is decided again by cvc5."""
    answer = solver.check(*extra)
    pair = _ACTIVE.get()
    if pair is not None and answer == z3.unsat:
        pair.confirm(solver, extra, str(answer))
    elif pair is not None and answer == z3.sat:
        pair.models += 1
    return answer


def smtlib(solver: Z3, extra: tuple[Z3, ...] = (), linear: _Linear | None = None) -> str:
    """The query as an SMT-LIB 2 script: all theories, the solver's assertions, ``extra``, check-sat.
    ``linear`` (one per run) remembers the rewritten terms that many queries share."""
    linear = linear or _Linear()
    query = z3.Solver(ctx=solver.ctx)
    query.add(*[linear(f) for f in (*solver.assertions(), *extra)])
    return "(set-logic ALL)\n" + str(query.to_smt2())


_PSEUDO_BOOLEAN = {z3.Z3_OP_PB_EQ: "==", z3.Z3_OP_PB_LE: "<=", z3.Z3_OP_PB_GE: ">=",
                   z3.Z3_OP_PB_AT_MOST: "<=", z3.Z3_OP_PB_AT_LEAST: ">="}


_EMPTY = {z3.Z3_OP_OR: False, z3.Z3_OP_AND: True}  # Z3 prints Or() as a bare "or", which is not SMT-LIB


class _Linear:
    """A formula in standard SMT-LIB: Z3's pseudo-Boolean constraints (``(_ pbeq ...)``,
    ``(_ at-most ...)``, which only Z3 reads) become the same sums of 0/1 terms in integer
    arithmetic, and an empty ``or``/``and`` its value; a ``+`` of one term, that term."""

    def __init__(self) -> None:
        self.done: dict[int, tuple[Z3, Z3]] = {}  # the term is kept, so that its id is not reused

    def __call__(self, term: Z3) -> Z3:
        key = term.get_id()
        if key in self.done:
            return self.done[key][1]
        result = term
        if z3.is_app(term) and not term.num_args() and term.decl().kind() in _EMPTY:
            result = z3.BoolVal(_EMPTY[term.decl().kind()], term.ctx)
        elif z3.is_app(term) and term.num_args() == 1 and term.decl().kind() in (z3.Z3_OP_ADD, z3.Z3_OP_MUL):
            result = self(term.arg(0))
        elif z3.is_app(term) and term.num_args():
            args = [self(arg) for arg in term.children()]
            kind = term.decl().kind()
            if kind in _PSEUDO_BOOLEAN:
                params = term.decl().params()
                bound, weights = params[0], params[1:] or [1] * len(args)
                parts = [z3.If(arg, weight, 0) for arg, weight in zip(args, weights)]
                total = parts[0] if len(parts) == 1 else z3.Sum(parts)  # SMT-LIB's + takes two or more
                op = _PSEUDO_BOOLEAN[kind]
                result = total == bound if op == "==" else total <= bound if op == "<=" else total >= bound
            elif any(a.get_id() != b.get_id() for a, b in zip(args, term.children())):
                result = term.decl()(*args)
        self.done[key] = (term, result)
        return result


def write_query(folder: Path, stem: str, text: str, expected: str) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / (re.sub(r"[^A-Za-z0-9_.=-]+", "_", stem) + ".smt2")
    path.write_text(f"{EXPECTED_HEADER}{expected}\n{text}", encoding="utf-8")
    return str(path)


def cvc5_decide(text: str, seconds: float | None = None, name: str = "query") -> str:
    """cvc5's answer to an SMT-LIB 2 script (the last check-sat): ``sat``, ``unsat``, or what it said."""
    import cvc5  # type: ignore[import-untyped]  # cvc5 ships no type information

    manager = cvc5.TermManager()
    solver = cvc5.Solver(manager)
    if seconds is not None:
        solver.setOption("tlimit-per", str(max(1, int(seconds * 1000))))
    symbols = cvc5.SymbolManager(manager)
    parser = cvc5.InputParser(solver, symbols)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, name)
    said = "no check-sat"
    while True:
        command = parser.nextCommand()
        if command.isNull():
            break
        out = command.invoke(solver, symbols).strip()
        if command.getCommandName() == "check-sat":
            said = out or "no answer"
    if said.startswith("unknown"):
        reason = solver.getInfo("reason-unknown") if _has_reason(solver) else ""
        reason = reason.decode() if isinstance(reason, bytes) else str(reason)
        return f"unknown ({reason})" if reason else "unknown"
    return said


def _has_reason(solver: Any) -> bool:
    try:
        solver.getInfo("reason-unknown")
        return True
    except Exception:  # noqa: BLE001 - cvc5 raises when there is no reason to give
        return False


def expected_of(text: str) -> str | None:
    """The answer an exported file records on its first line (None: not an exported file)."""
    first = text.split("\n", 1)[0]
    return first[len(EXPECTED_HEADER):].strip() if first.startswith(EXPECTED_HEADER) else None


def summary_of(answers: Mapping[str, Any]) -> str:
    """A pair record in words: "12 queries, both solvers agree (cvc5 1.3 s)"."""
    if not answers.get("queries"):
        return "no deciding query"
    agree = "both solvers agree" if answers.get("agree") else "the solvers DISAGREE"
    return f"{answers['queries']} queries, {agree} (cvc5 {answers.get('cvc5_seconds', 0):.1f} s)"
