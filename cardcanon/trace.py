"""``cardcanon trace``: which model code, tests and proofs cite each rule, and what is uncovered.

Sources of citations, found relative to the package:

- model code: every rule ID written in ``model/**/*.py`` (``file:line``);
- tests: the arguments of ``pytest.mark.rules(...)`` on test functions, their classes and
  module-level ``pytestmark`` in ``tests/**/*.py``, read with :mod:`ast` (``file::test``);
- verify (``proofs``): the rules each check is bound to by the necessity matrix of a
  ``cardcanon verify --json`` report (``--report``): a check cites a rule only if breaking that
  rule in the reference model makes the check fail. A check result that was ``not-applicable``
  (the engine could not run it, say) verifies nothing: it is listed apart, with its reason.
  Without a report, the ``rules`` of each check in ``proofs/manifest/*.toml``, which ``cardcanon
  verify`` holds to that same standard (it fails when a cited rule's model mutant does not
  kill the check);
- the rulebook's own cross-references (rule IDs in the text of ``spec/*.toml``).

Test coverage and verify coverage are shown apart. A normative rule is *covered* when at least
one test or check cites it, and *verified* when a check of verify does.
"""

from __future__ import annotations

import argparse
import ast
import enum
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardcanon.verify.manifest import GAMES, RULE_ID, load_manifests

_ID_LINE = re.compile(r"^\s*id\s*=")


class Kind(str, enum.Enum):
    MODEL = "model"
    TEST = "test"
    PROOF = "proof"
    SPEC = "spec"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Citation:
    kind: Kind
    rule_id: str
    where: str  # model/spec: "path:line"; test: "path::test"; proof: the check ID


@dataclass(frozen=True)
class RuleTrace:
    id: str
    game: str
    title: str
    status: str
    normative: bool
    model: tuple[str, ...] = ()
    tests: tuple[str, ...] = ()
    proofs: tuple[str, ...] = ()  # the checks of verify that verify the rule
    not_applicable: tuple[str, ...] = ()  # "CHECK [variant]: reason" of results that could not run

    @property
    def covered(self) -> bool:
        """Verified somewhere: at least one test or one proof cites the rule."""
        return bool(self.tests or self.proofs)

    @property
    def verified(self) -> bool:
        """A check of ``cardcanon verify`` verifies the rule (tests aside)."""
        return bool(self.proofs)

    def gaps(self) -> list[str]:
        """What a normative rule still lacks (informative rules need nothing)."""
        if not self.normative:
            return []
        return [gap for gap, has in (("no model code", self.model), ("no test", self.tests), ("no proof", self.proofs))
                if not has]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.game, "title": self.title, "status": self.status,
                "normative": self.normative, "model": list(self.model), "tests": list(self.tests),
                "proofs": list(self.proofs), "verify": list(self.proofs), "not_applicable": list(self.not_applicable),
                "covered": self.covered, "verified": self.verified, "gaps": self.gaps()}


@dataclass(frozen=True)
class TraceReport:
    root: str
    rules: tuple[RuleTrace, ...]
    known_ids: frozenset[str]
    citations: tuple[Citation, ...] = ()
    missing: tuple[str, ...] = ()  # folders that are not there (e.g. tests/ in an installed package)
    problems: tuple[str, ...] = ()  # citations that could not be read
    by_id: dict[str, RuleTrace] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_id", {rule.id: rule for rule in self.rules})

    def uncovered(self) -> list[RuleTrace]:
        """Normative rules that no test and no proof cites."""
        return [rule for rule in self.rules if rule.normative and not rule.covered]

    def unverified(self) -> list[RuleTrace]:
        """Normative rules no check of verify verifies (whatever the tests do)."""
        return [rule for rule in self.rules if rule.normative and not rule.verified]

    def unknown_citations(self) -> list[Citation]:
        """Citations of rule IDs that are not in the rulebooks."""
        return [c for c in self.citations if c.rule_id not in self.known_ids]

    def to_json(self) -> dict[str, Any]:
        return {
            "root": self.root,
            "missing": list(self.missing),
            "problems": list(self.problems),
            "rules": [rule.to_json() for rule in self.rules],
            "uncovered": [rule.id for rule in self.uncovered()],
            "unverified": [rule.id for rule in self.unverified()],
            "unknown_citations": [{"kind": c.kind.value, "rule": c.rule_id, "where": c.where}
                                  for c in self.unknown_citations()],
        }


def coverage_failures(report: TraceReport) -> list[str]:
    """One line per normative rule that no test or proof covers."""
    return [f"{rule.id} ({rule.status}): {rule.title}: cited by no test and no proof" for rule in report.uncovered()]


def repo_root() -> Path:
    import cardcanon

    return Path(cardcanon.__file__).resolve().parent.parent


def _package_dir(module_name: str) -> Path:
    import importlib

    return Path(str(importlib.import_module(module_name).__file__)).resolve().parent


def _folders(root: str | Path | None) -> tuple[Path, dict[str, Path | None]]:
    """The folder paths are shown relative to, and the folders to scan (None: not there)."""
    if root is not None:
        base = Path(root).resolve()
        return base, {name: base / name for name in ("model", "spec", "proofs/manifest", "tests")}
    base = repo_root()
    # tests/ exists only in a checkout; in site-packages a "tests" folder may be another project's
    tests = base / "tests" if (base / "pyproject.toml").is_file() else None
    return base, {"model": _package_dir("cardcanon.model"), "spec": _package_dir("cardcanon.spec"),
                  "proofs/manifest": _package_dir("cardcanon.proofs") / "manifest", "tests": tests}


def necessity_citations(report: dict[str, Any]) -> list[Citation]:
    """The cells of a verify report's necessity matrix (per check, rule and, in newer reports,
    variant) that a model mutant killed and that count: a result that was not applicable, or
    did not pass, verifies nothing even where a model mutant failed it."""
    matrix = report.get("necessity", {}).get("matrix")
    if not isinstance(matrix, list):
        raise ValueError("the verify report has no necessity matrix (run `cardcanon verify --json PATH`)")
    return [Citation(Kind.PROOF, cell["rule"], cell["check"]) for cell in matrix
            if cell.get("killed") and cell.get("counts", True) and not cell.get("not_applicable")]


def not_applicable_results(report: dict[str, Any]) -> dict[str, list[str]]:
    """Rule ID -> "CHECK [variant]: reason" for every result of a check citing it that was
    ``not-applicable``: the check's runs under a variant, or a necessity cell."""
    found: dict[str, list[str]] = {}
    for check in report.get("checks", []):
        if not isinstance(check, dict):
            continue
        runs = [run for run in check.get("results") or check.get("variants") or [] if isinstance(run, dict)]
        reasons = [f"[{run.get('variant', 'default')}]: {run.get('detail', '')}".strip()
                   for run in runs if run.get("verdict") == "not-applicable"]
        reasons += [f"[{run.get('variant', 'default')}]: the engine could not replay {len(run['engine_not_applicable'])} "
                    "record(s)" for run in runs if run.get("engine_not_applicable")]
        if not reasons and check.get("verdict") == "not-applicable":
            reasons = [f"[default]: {check.get('detail', '')}"]
        for rule in check.get("rules", []):
            found.setdefault(rule, []).extend(f"{check.get('id')} {reason}" for reason in reasons)
    for cell in report.get("necessity", {}).get("matrix", []):
        if isinstance(cell, dict) and cell.get("not_applicable"):
            where = f" [{cell['variant']}]" if cell.get("variant") else ""
            found.setdefault(cell["rule"], []).append(f"{cell['check']}{where}: its model mutants could not be run")
    return found


def collect(*, games: Iterable[str] | None = None, root: str | Path | None = None,
            rulebooks: Sequence[Any] | None = None, verify_report: dict[str, Any] | None = None) -> TraceReport:
    """Scan model code, tests, manifests and the rulebooks; one :class:`RuleTrace` per rule.

    ``root``: a checkout to scan (``model/``, ``tests/``, ``spec/``, ``proofs/manifest/``);
    by default the folders of the installed package. ``rulebooks``: objects with ``game`` and
    ``rules`` (default: :func:`cardcanon.spec.load` for each game).
    """
    base, folders = _folders(root)
    if rulebooks is None:
        import cardcanon.spec

        rulebooks = [cardcanon.spec.load(game) for game in GAMES]
    missing = tuple(name for name, folder in folders.items() if folder is None or not folder.is_dir())
    citations: list[Citation] = []
    problems: list[str] = []
    if "model" not in missing:
        citations += scan_text(_folder(folders, "model"), "*.py", Kind.MODEL, base)
    if "spec" not in missing:
        citations += scan_text(_folder(folders, "spec"), "*.toml", Kind.SPEC, base, skip=_ID_LINE)
    if "tests" not in missing:
        found, trouble = scan_tests(_folder(folders, "tests"), base)
        citations += found
        problems += trouble
    not_applicable: dict[str, list[str]] = {}
    if verify_report is not None:
        citations += necessity_citations(verify_report)
        not_applicable = not_applicable_results(verify_report)
    elif "proofs/manifest" not in missing:
        citations += [Citation(Kind.PROOF, rule, check.id)
                      for check in load_manifests(folders["proofs/manifest"], resolve=False) for rule in check.rules]
    wanted = set(games) if games is not None else set(GAMES)
    rules = tuple(
        RuleTrace(
            id=rule.id, game=book.game, title=rule.title, status=str(getattr(rule.status, "value", rule.status)),
            normative=bool(rule.normative),
            **{kind: tuple(dict.fromkeys(c.where for c in citations if c.kind is k and c.rule_id == rule.id))
               for kind, k in (("model", Kind.MODEL), ("tests", Kind.TEST), ("proofs", Kind.PROOF))},
            not_applicable=tuple(dict.fromkeys(not_applicable.get(rule.id, ()))),
        )
        for book in rulebooks if book.game in wanted for rule in book.rules
    )
    known = frozenset(rule.id for book in rulebooks for rule in book.rules)
    return TraceReport(str(base), rules, known, tuple(citations), missing, tuple(problems))


def _relative(path: Path, base: Path) -> str:
    try:
        return path.resolve().relative_to(base).as_posix()
    except ValueError:
        return path.as_posix()


def _folder(folders: Mapping[str, Path | None], name: str) -> Path:
    folder = folders[name]
    assert folder is not None
    return folder


def scan_text(folder: Path, pattern: str, kind: Kind, base: Path, skip: re.Pattern[str] | None = None) -> list[Citation]:
    """Every rule ID in the files of ``folder`` matching ``pattern``, as ``path:line``."""
    found = []
    for path in sorted(folder.rglob(pattern)):
        where = _relative(path, base)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if skip is None or not skip.match(line):
                found += [Citation(kind, rule, f"{where}:{number}") for rule in dict.fromkeys(RULE_ID.findall(line))]
    return found


def scan_tests(folder: Path, base: Path) -> tuple[list[Citation], list[str]]:
    """The ``pytest.mark.rules`` citations of every test, and the marks that cannot be read."""
    found: list[Citation] = []
    problems: list[str] = []
    for path in sorted(folder.rglob("*.py")):
        where = _relative(path, base)
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        except (SyntaxError, UnicodeDecodeError) as exc:
            problems.append(f"{where}: cannot parse: {exc}")
            continue
        reader = _MarkReader(where, tree, problems)
        module_ids = reader.ids(_pytestmark(tree.body))
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found += reader.cite(node, f"{where}::{node.name}", module_ids)
            elif isinstance(node, ast.ClassDef):
                class_ids = module_ids + reader.ids(node.decorator_list + _pytestmark(node.body))
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        found += reader.cite(item, f"{where}::{node.name}::{item.name}", class_ids)
    return found, problems


def _pytestmark(body: list[ast.stmt]) -> list[ast.expr]:
    return [stmt.value for stmt in body if isinstance(stmt, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in stmt.targets)]


class _MarkReader:
    """Reads the rule IDs of ``*.mark.rules(...)`` calls; module-level string constants resolve."""

    def __init__(self, where: str, tree: ast.Module, problems: list[str]) -> None:
        self.where, self.problems = where, problems
        self.constants: dict[str, list[str]] = {}
        for stmt in tree.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                strings = _strings(stmt.value)
                if strings is not None:
                    self.constants[stmt.targets[0].id] = strings

    def cite(self, node: ast.FunctionDef | ast.AsyncFunctionDef, name: str, inherited: list[str]) -> list[Citation]:
        own = self.ids(node.decorator_list)
        ids = own + inherited if own or node.name.startswith("test") else []
        return [Citation(Kind.TEST, rule, name) for rule in dict.fromkeys(ids)]

    def ids(self, expressions: list[ast.expr]) -> list[str]:
        found: list[str] = []
        for expression in expressions:
            for call in ast.walk(expression):
                if isinstance(call, ast.Call) and _is_rules_mark(call.func):
                    found += self._arguments(call)
        return found

    def _arguments(self, call: ast.Call) -> list[str]:
        found: list[str] = []
        for arg in call.args:
            target = arg.value if isinstance(arg, ast.Starred) else arg
            strings = _strings(target)
            if strings is None and isinstance(target, ast.Name):
                strings = self.constants.get(target.id)
            if strings is None:
                self.problems.append(f"{self.where}:{arg.lineno}: pytest.mark.rules argument "
                                     f"{ast.unparse(arg)!r} is not a literal rule ID")
            else:
                found += strings
        if call.keywords:
            self.problems.append(f"{self.where}:{call.lineno}: pytest.mark.rules takes no keyword arguments")
        return found


def _is_rules_mark(func: ast.expr) -> bool:
    if not (isinstance(func, ast.Attribute) and func.attr == "rules"):
        return False
    owner = func.value
    return ((isinstance(owner, ast.Attribute) and owner.attr == "mark")
            or (isinstance(owner, ast.Name) and owner.id == "mark"))


def _strings(node: ast.expr) -> list[str] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List)) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
        return [str(e.value) for e in node.elts if isinstance(e, ast.Constant)]
    return None


def render(report: TraceReport, *, only_uncovered: bool = False) -> str:
    lines = []
    for name in report.missing:
        note = " (an installed package has no tests)" if name == "tests" else ""
        lines.append(f"note: no {name}/ folder found next to the package: its citations are not shown{note}")
    rules = report.uncovered() if only_uncovered else list(report.rules)
    for rule in rules:
        kind = "normative" if rule.normative else "not normative"
        lines.append(f"{rule.id}  [{rule.status}, {kind}]  {rule.title}")
        for label, items in (("model", rule.model), ("tests", rule.tests), ("verify", rule.proofs)):
            lines.append(f"  {label + ':':8}{', '.join(items) if items else '-'}")
        for item in rule.not_applicable:
            lines.append(f"  {'n/a:':8}{item} (not applicable: verifies nothing)")
        lines.append(f"  {'gaps:':8}{', '.join(rule.gaps()) or 'none'}")
    lines.append(summary(report))
    return "\n".join(lines)


def summary(report: TraceReport) -> str:
    normative = [rule for rule in report.rules if rule.normative]
    uncovered = report.uncovered()
    unknown = sorted({f"{c.rule_id} ({c.where})" for c in report.unknown_citations()})
    unverified = report.unverified()
    tested = [r for r in normative if r.tests]
    parts = [
        f"{len(report.rules)} rules, {len(normative)} normative: {len(normative) - len(uncovered)} covered by a test "
        f"or proof, {len(uncovered)} uncovered" + _examples([r.id for r in uncovered]),
        f"verify: {len(normative) - len(unverified)} of {len(normative)} normative rules verified by a check"
        + _examples([r.id for r in unverified]),
        f"tests: {len(tested)} of {len(normative)} normative rules cited by a test",
        f"verify results not applicable: {sum(len(r.not_applicable) for r in report.rules)}",
        f"{sum(not r.model for r in normative)} normative rules cited by no model code",
        f"unknown rule IDs cited: {', '.join(unknown) if unknown else 'none'}",
    ]
    parts += [f"problem: {problem}" for problem in report.problems]
    return "\n".join(parts)


def _examples(ids: list[str], limit: int = 8) -> str:
    if not ids:
        return ""
    more = f" and {len(ids) - limit} more; see --uncovered" if len(ids) > limit else ""
    return f" ({', '.join(ids[:limit])}{more})"


def add_parser(sub: Any) -> None:
    parser = sub.add_parser("trace", help="show the model code, tests and proofs that cite each rule")
    parser.add_argument("--game", choices=GAMES, help="only this game's rules")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--report", metavar="PATH",
                        help="take the proofs' citations from the necessity matrix of a `cardcanon verify --json` report")
    parser.add_argument("--uncovered", action="store_true",
                        help="only normative rules no test or proof covers (exit status 1 if there are any)")
    parser.set_defaults(handler=_run_trace)


def _run_trace(args: argparse.Namespace) -> int:
    verify_report = None
    if args.report:
        try:
            verify_report = json.loads(Path(args.report).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ValueError(f"--report {args.report}: cannot read a verify report: {exc}") from None
    report = collect(games=[args.game] if args.game else None, verify_report=verify_report)
    if args.json:
        data = report.to_json()
        if args.uncovered:
            data["rules"] = [rule.to_json() for rule in report.uncovered()]
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print(render(report, only_uncovered=args.uncovered))
    return 1 if args.uncovered and report.uncovered() else 0
