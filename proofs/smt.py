"""A second solver: every deciding Z3 query is exported as SMT-LIB 2 and decided again by cvc5.

A run of a ``z3-proof`` check as written (no probe, no model mutant) opens a :class:`SolverPair`.
Every query the check decides through :func:`decide` is then written as SMT-LIB 2 text (the
assertions Z3 saw, and the assumptions of that call as further assertions; see :func:`smtlib`).
When Z3 answers ``unsat`` (what a proof rests on, with no certificate), cvc5 parses and decides
that text in the same process. A ``sat`` comes with a model, which the check turns into a
witness the runner replays (or into numbers compared with the golden stats), so it is counted,
not decided twice. A disagreement, or a cvc5 answer that is neither ``sat`` nor ``unsat``, is a
*solver problem*: the runner fails the check and the query is saved for a bug report. Probes
and model mutants run with Z3 alone.

An :class:`AnswerStore` keeps, per verify run, the ``unsat`` answers (a ``sat`` is needed with
its model) by the SHA-256 of a query's text, so that neither solver decides again a query both
found ``unsat`` in another run of the same verify run (another variant or worker, or earlier in
the same run); the pair records from which run each such answer came. Writing a query as text
costs more than Z3's answer to many ``sat`` ones, so the store also keeps each such query's
*structural key* (Z3's structural hashes of its formulas, the same in every process): a query
is written before Z3 is asked only when its structural key is known, and its text, not that
key, decides whether the answer is taken.

``cardcanon smt-check DIR`` re-decides exported queries with cvc5's SMT-LIB parser alone.
"""

from __future__ import annotations

import contextvars
import hashlib
import os
import re
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
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
    """One query decided by both solvers (``reused``: the run whose cvc5 answer was taken)."""

    number: int
    z3: str
    cvc5: str
    seconds: float  # cvc5's time, export and parse included
    file: str | None = None  # where the query was written (export, or a saved solver problem)
    reused: str | None = None

    @property
    def agrees(self) -> bool:
        return self.z3 == self.cvc5 and self.cvc5 in ANSWERS


class AnswerStore:
    """The ``unsat`` answers of one verify run by the SHA-256 of a query's SMT-LIB text, with the
    label of the run that decided it: files in a folder the runner creates for the verify run
    (shared by its worker processes, each file written whole by a rename), or in memory."""

    def __init__(self, folder: str | Path | None = None) -> None:
        self.folder = None if folder is None else Path(folder)
        self.memory: dict[str, str] = {}

    def decided(self, key: str) -> str | None:
        """The label of the run whose two solvers both answered ``unsat`` to the query ``key``, if any."""
        if self.folder is None:
            return self.memory.get(key)
        try:
            return (self.folder / key).read_text(encoding="utf-8")
        except FileNotFoundError:
            return None

    def keep(self, key: str, label: str) -> None:
        if self.folder is None:
            self.memory.setdefault(key, label)
            return
        part = self.folder / f".{key}.{os.getpid()}"
        part.write_text(label, encoding="utf-8")
        os.replace(part, self.folder / key)


_MEMORY = AnswerStore()  # a run without the runner's folder (tests, in-process runs)


@dataclass
class SolverPair:
    """The second solver of one run: its answers, and where queries are written."""

    label: str
    export_dir: Path | None = None
    problem_dir: Path | None = None
    query_seconds: float = 60.0  # cvc5's limit per query; running out is a solver problem
    store: AnswerStore = field(default_factory=lambda: _MEMORY, repr=False, compare=False)
    answers: list[PairAnswer] = field(default_factory=list)
    models: int = 0  # sat answers: their models become witnesses the runner replays
    linear: _Linear = field(default_factory=lambda: _Linear(), repr=False, compare=False)  # shared by the queries

    def decide(self, solver: Z3, extra: tuple[Z3, ...]) -> Z3:
        """Z3's answer to ``solver``'s query (with ``extra`` asserted), an ``unsat`` confirmed by cvc5;
        or ``unsat`` taken from the store when both solvers gave it to the same text in another run."""
        cheap_key, text = structural_key(solver, extra), None
        if self.store.decided(cheap_key) is not None:
            started = time.perf_counter()
            text = smtlib(solver, extra, self.linear)
            reused = self.store.decided(hashlib.sha256(text.encode()).hexdigest())
            if reused is not None:
                self._note(text, "unsat", "unsat", started, reused)
                return z3.unsat
        answer = solver.check(*extra)
        if answer == z3.unsat:
            started = time.perf_counter()
            text = text or smtlib(solver, extra, self.linear)
            if self._second(text, str(answer), started).agrees:
                self.store.keep(cheap_key, self.label)
        elif answer == z3.sat:
            self.models += 1
        return answer

    def confirm(self, solver: Z3, extra: tuple[Z3, ...], answer: str) -> PairAnswer:
        """Decide ``solver``'s query (with ``extra`` asserted), to which Z3 gave ``answer``, again with cvc5."""
        return self._second(smtlib(solver, extra, self.linear), answer, time.perf_counter())

    def _second(self, text: str, answer: str, started: float) -> PairAnswer:
        try:
            second = cvc5_decide(text, self.query_seconds)
        except RuntimeError as exc:  # cvc5 refused the text: a problem to report, never a pass
            second = f"error ({' '.join(str(exc).split())[:200]})"
        if answer == second == "unsat":
            self.store.keep(hashlib.sha256(text.encode()).hexdigest(), self.label)
        return self._note(text, answer, second, started)

    def _note(self, text: str, answer: str, second: str, started: float, reused: str | None = None) -> PairAnswer:
        number = len(self.answers) + 1
        stem = f"{self.label}-q{number:04d}"
        file = None if self.export_dir is None else write_query(self.export_dir, stem, text, answer)
        if answer != second or second not in ANSWERS:
            folder = self.problem_dir or Path(tempfile.gettempdir()) / "cardcanon-solver-problems"
            file = write_query(folder, stem, text, answer)
        pair = PairAnswer(number, answer, second, time.perf_counter() - started, file, reused)
        self.answers.append(pair)
        return pair

    def problems(self) -> list[str]:
        return [f"query {a.number}: Z3 {a.z3}, cvc5 {a.cvc5} (saved as {a.file})"
                for a in self.answers if not a.agrees]

    def summary(self) -> dict[str, Any]:
        """The record of this run's second solver (JSON-ready)."""
        counts = Counter(f"z3 {a.z3}, cvc5 {a.cvc5}" for a in self.answers)
        reused = Counter(a.reused for a in self.answers if a.reused is not None)
        return {"solvers": ["z3", "cvc5"], "queries": len(self.answers), "answers": dict(counts),
                "z3_sat_models": self.models, "reused": sum(reused.values()), "reused_from": dict(reused),
                "agree": all(a.agrees for a in self.answers),
                "cvc5_seconds": round(sum(a.seconds for a in self.answers), 3), "problems": self.problems()}


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
    pair = _ACTIVE.get()
    return solver.check(*extra) if pair is None else pair.decide(solver, extra)


def structural_key(solver: Z3, extra: tuple[Z3, ...] = ()) -> str:
    """A cheap key of the query: Z3's structural hashes of its formulas, which are the same for
    the same formulas in every process. Equal queries have equal keys (not conversely).
    The solver's assertions are read through Z3's C API: a query may hold thousands."""
    ref = solver.ctx.ref()
    held = z3.Z3_solver_get_assertions(ref, solver.solver)
    z3.Z3_ast_vector_inc_ref(ref, held)
    try:
        hashes = [z3.Z3_get_ast_hash(ref, z3.Z3_ast_vector_get(ref, held, i))
                  for i in range(z3.Z3_ast_vector_size(ref, held))]
    finally:
        z3.Z3_ast_vector_dec_ref(ref, held)
    hashes += [z3.Z3_get_ast_hash(ref, formula.as_ast()) for formula in extra]
    return "structural-" + hashlib.sha256(",".join(map(str, hashes)).encode()).hexdigest()


# Z3 names the shared subterms of its SMT-LIB output ``$x<id>`` / ``?x<id>`` after its internal
# term IDs, which differ between runs that build the same query; they are renamed in order.
_LET_NAME = re.compile(r"(?<=[\s(])([$?]x)\d+(?=[\s)])")


def smtlib(solver: Z3, extra: tuple[Z3, ...] = (), linear: _Linear | None = None) -> str:
    """The query as an SMT-LIB 2 script: its logic, the solver's assertions, ``extra``, check-sat.
    ``linear`` (one per run) remembers the rewritten terms that many queries share. The same
    query built twice gives the same text (shared subterms are named in order)."""
    linear = linear or _Linear()
    terms: list[Any] = []
    features: set[str] = set()
    for formula in (*solver.assertions(), *extra):
        term, used = linear(formula)
        terms.append(term.as_ast())
        features |= used
    # what z3.Solver.to_smt2 writes for a solver holding ``terms``, without building that solver
    last = terms.pop() if terms else z3.BoolVal(True, solver.ctx).as_ast()
    text = z3.Z3_benchmark_to_smtlib_string(solver.ctx.ref(), "benchmark generated from python API", "", "unknown",
                                            "", len(terms), (z3.Ast * len(terms))(*terms), last)
    names: dict[str, str] = {}
    body = _LET_NAME.sub(lambda m: names.setdefault(m.group(0), f"{m.group(1)}{len(names)}"), text)
    return f"(set-logic {_logic(features)})\n{body}"


def _logic(features: set[str]) -> str:
    """The SMT-LIB logic of a query with these features: quantifier-free integer arithmetic with
    arrays (A) and uninterpreted functions (UF) as used, else ``ALL``. Queries with arrays are
    declared nonlinear (``QF_ANIA`` contains ``QF_ALIA``): cvc5 1.4 decides SNAP-P6's queries
    about three times faster so than as ``QF_ALIA`` or ``ALL``."""
    if "other" in features:
        return "ALL"
    arith = "NIA" if features & {"nonlinear", "arrays"} else "LIA"
    return "QF_" + ("A" if "arrays" in features else "") + ("UF" if "functions" in features else "") + arith


_PSEUDO_BOOLEAN = {z3.Z3_OP_PB_EQ: "==", z3.Z3_OP_PB_LE: "<=", z3.Z3_OP_PB_GE: ">=",
                   z3.Z3_OP_PB_AT_MOST: "<=", z3.Z3_OP_PB_AT_LEAST: ">="}
_EMPTY = {z3.Z3_OP_OR: False, z3.Z3_OP_AND: True}  # Z3 prints Or() as a bare "or", which is not SMT-LIB
_PLAIN_SORTS = (z3.Z3_BOOL_SORT, z3.Z3_INT_SORT)
_DIVISIONS = (z3.Z3_OP_IDIV, z3.Z3_OP_MOD, z3.Z3_OP_REM)
_APPS = (z3.Z3_NUMERAL_AST, z3.Z3_APP_AST)  # the others: quantifiers and bound variables
_expr = z3.z3._to_expr_ref  # a Python term for a term of the C API


class _Linear:
    """A formula in standard SMT-LIB: Z3's pseudo-Boolean constraints (``(_ pbeq ...)``,
    ``(_ at-most ...)``, which only Z3 reads) become the same sums of 0/1 terms in integer
    arithmetic, and an empty ``or``/``and`` its value; a ``+`` of one term, that term. With each
    formula come the features its logic needs (see :func:`_logic`). The walk reads Z3's terms
    through its C API, making a Python term only for what it rewrites (most terms are kept)."""

    def __init__(self) -> None:
        self.done: dict[int, tuple[Any, frozenset[str]]] = {}  # by term ID: rewritten (None: kept), features
        # each term walked is held (so that no ID is reused) as a Python term would hold it: Z3 names
        # in a let the subterms held more than once, so this keeps the text of a query the same
        self.held: Z3 = None  # a z3.AstVector

    def __call__(self, term: Z3) -> tuple[Z3, frozenset[str]]:
        self.held = z3.AstVector(ctx=term.ctx) if self.held is None else self.held
        result, features = self._walk(term.ctx, term.as_ast())
        return (term if result is None else result), features

    def _walk(self, ctx: Any, ast: Any) -> tuple[Any, frozenset[str]]:
        ref = ctx.ref()
        key = z3.Z3_get_ast_id(ref, ast)
        if key in self.done:
            return self.done[key]
        z3.Z3_ast_vector_push(ref, self.held.vector, ast)
        features, result = {"other"}, None
        if z3.Z3_get_ast_kind(ref, ast) in _APPS:
            kind = z3.Z3_get_decl_kind(ref, z3.Z3_get_app_decl(ref, ast))
            args = [z3.Z3_get_app_arg(ref, ast, i) for i in range(z3.Z3_get_app_num_args(ref, ast))]
            features = set(_own(ref, ast, kind, args))
            if not args and kind in _EMPTY:
                result = z3.BoolVal(_EMPTY[kind], ctx)
            elif len(args) == 1 and kind in (z3.Z3_OP_ADD, z3.Z3_OP_MUL):
                result, used = self._walk(ctx, args[0])
                result, features = _expr(args[0], ctx) if result is None else result, features | used
            elif args:
                done = [self._walk(ctx, arg) for arg in args]
                features.update(*(used for _, used in done))
                if kind in _PSEUDO_BOOLEAN or any(new is not None for new, _ in done):
                    terms = [_expr(arg, ctx) if new is None else new for arg, (new, _) in zip(args, done)]
                    result = _rebuilt(_expr(ast, ctx), kind, terms)
        self.done[key] = (result, frozenset(features))
        return self.done[key]


def _rebuilt(term: Z3, kind: int, args: list[Z3]) -> Z3:
    """``term`` with the arguments ``args``; a pseudo-Boolean constraint as a sum of 0/1 terms."""
    if kind not in _PSEUDO_BOOLEAN:
        return term.decl()(*args)
    params = term.decl().params()
    bound, weights = params[0], params[1:] or [1] * len(args)
    parts = [z3.If(arg, weight, 0) for arg, weight in zip(args, weights)]
    total = parts[0] if len(parts) == 1 else z3.Sum(parts)  # SMT-LIB's + takes two or more
    op = _PSEUDO_BOOLEAN[kind]
    return total == bound if op == "==" else total <= bound if op == "<=" else total >= bound


def _own(ref: Any, ast: Any, kind: int, args: list[Any]) -> Iterator[str]:
    """The features of an application's own symbol and sort (not its arguments')."""
    def int_value(term: Any) -> bool:
        return bool(z3.Z3_get_sort_kind(ref, z3.Z3_get_sort(ref, term)) == z3.Z3_INT_SORT
                    and z3.Z3_is_numeral_ast(ref, term))

    sort = z3.Z3_get_sort(ref, ast)
    if z3.Z3_get_sort_kind(ref, sort) == z3.Z3_ARRAY_SORT:
        yield "arrays"
        ends = (z3.Z3_get_array_sort_domain(ref, sort), z3.Z3_get_array_sort_range(ref, sort))
        if any(z3.Z3_get_sort_kind(ref, end) not in _PLAIN_SORTS for end in ends):
            yield "other"
    elif z3.Z3_get_sort_kind(ref, sort) not in _PLAIN_SORTS:
        yield "other"
    if kind == z3.Z3_OP_UNINTERPRETED and args:
        yield "functions"
    if (kind == z3.Z3_OP_MUL and len(args) - sum(map(int_value, args)) > 1) \
            or (kind in _DIVISIONS and not int_value(args[1])) or kind == z3.Z3_OP_POWER:
        yield "nonlinear"


def write_query(folder: Path, stem: str, text: str, expected: str) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / (re.sub(r"[^A-Za-z0-9_.=-]+", "_", stem) + ".smt2")
    path.write_text(f"{EXPECTED_HEADER}{expected}\n{text}", encoding="utf-8")
    return str(path)


def cvc5_decide(text: str, seconds: float | None = None, name: str = "query") -> str:
    """cvc5's answer to an SMT-LIB 2 script (the last check-sat): ``sat``, ``unsat``, or what it said.
    cvc5 simplifies if-then-else terms before it solves (``ite-simp``, an equivalence-preserving
    preprocessing step): the Snap encoding's queries nest them deeply, and cvc5 decides SNAP-P6's
    and SNAP-P15's about a third faster so."""
    import cvc5  # type: ignore[import-untyped]  # cvc5 ships no type information

    manager = cvc5.TermManager()
    solver = cvc5.Solver(manager)
    solver.setOption("ite-simp", "true")
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
        try:
            reason = solver.getInfo("reason-unknown")
        except Exception:  # noqa: BLE001 - cvc5 raises when there is no reason to give
            reason = ""
        reason = reason.decode() if isinstance(reason, bytes) else str(reason)
        return f"unknown ({reason})" if reason else "unknown"
    return said


def expected_of(text: str) -> str | None:
    """The answer an exported file records on its first line (None: not an exported file)."""
    first = text.split("\n", 1)[0]
    return first[len(EXPECTED_HEADER):].strip() if first.startswith(EXPECTED_HEADER) else None
