"""What ``cardcanon verify`` found: per-check outcomes, the summary table and the JSON report."""

from __future__ import annotations

import platform
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardcanon import __version__
from cardcanon.manifest import CheckSpec
from cardcanon.proofs.base import CONTRARY, DEFINITE, Verdict
from cardcanon.verify_runner import RunResult


@dataclass(frozen=True)
class MutantOutcome:
    """An encoding probe: the check's encoding with one rule's constraints dropped or broken."""

    id: str
    description: str
    result: RunResult
    expected: Any  # the check's expected Verdict

    @property
    def killed(self) -> bool:
        """Killed when the broken encoding reaches a contrary verdict whose records (if any)
        are real games of the reference model."""
        replayed = not self.result.records or self.result.witness_replayed
        return self.result.verdict in CONTRARY[self.expected] and replayed

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "description": self.description,
            "verdict": self.result.verdict.value,
            "killed": self.killed,
            "detail": self.result.detail,
            "seconds": round(self.result.seconds, 3),
        }


@dataclass(frozen=True)
class NecessityCell:
    """One (check, cited rule, model mutant) run of the necessity matrix."""

    rule: str
    mutant: str  # key of the model mutant ("" when the rule has none)
    description: str
    result: RunResult | None
    expected: Any
    stats_differ: bool = False  # the golden numbers of the claim came out otherwise

    @property
    def killed(self) -> bool:
        """The check failed against the mutant (a contrary verdict, or a definite one with other
        golden numbers), and one of its records is a game of the mutant that the reference
        model does not play alike (a real disagreement)."""
        if self.result is None or not self.result.disagreement:
            return False
        verdict = self.result.verdict
        return verdict in CONTRARY[self.expected] or (verdict in DEFINITE and self.stats_differ)

    def to_json(self) -> dict[str, Any]:
        result = self.result
        return {"rule": self.rule, "mutant": self.mutant, "description": self.description, "killed": self.killed,
                "verdict": None if result is None else result.verdict.value,
                "disagreement": None if result is None else result.disagreement,
                "detail": "" if result is None else result.detail[:300],
                "seconds": 0.0 if result is None else round(result.seconds, 3)}


@dataclass(frozen=True)
class CheckOutcome:
    check: CheckSpec
    result: RunResult  # under the default variant
    mutants: tuple[MutantOutcome, ...]  # encoding probes
    quick: bool = False
    variants: tuple[tuple[Mapping[str, str], RunResult], ...] = ()
    necessity: tuple[NecessityCell, ...] = ()
    necessity_skipped: bool = False  # a quick run with smaller bounds: the matrix is the full run's

    @property
    def stats_compared(self) -> bool:
        """Golden stats hold for the full bounds; a quick run with ``ci_bounds`` cannot match them."""
        check = self.check
        return ((check.expected_stats is not None or bool(check.expected_stats_variant))
                and not (self.quick and check.ci_bounds is not None))

    def stats_problems(self) -> list[str]:
        """Every golden number that came out otherwise, under every variant run."""
        from cardcanon.proofs.variants import variant_name

        if not self.stats_compared:
            return []
        problems = []
        for variant, result in self.variants or (({}, self.result),):
            where = "" if not variant else f"[{variant_name(variant)}] "
            for key, want in (self.check.stats_for(variant) or {}).items():
                if key not in result.stats:
                    problems.append(f"{where}stat {key!r} missing (expected {want!r})")
                elif result.stats[key] != want:
                    problems.append(f"{where}stat {key!r} is {result.stats[key]!r}, expected {want!r}")
        return problems

    @property
    def witness_ok(self) -> bool:
        return bool(self.result.witness) and self.result.witness_replayed

    @property
    def mutants_killed(self) -> int:
        return sum(m.killed for m in self.mutants)

    def cited_rules_killed(self) -> dict[str, bool]:
        """Each cited rule: whether some model mutant of it kills the check."""
        killed: dict[str, bool] = {}
        for cell in self.necessity:
            killed[cell.rule] = killed.get(cell.rule, False) or cell.killed
        return killed

    def _run_failures(self, variant: Mapping[str, str], result: RunResult) -> list[str]:
        from cardcanon.proofs.variants import variant_name

        where = "" if not variant else f"[{variant_name(variant)}] "
        expected = self.check.expected_for(variant)
        reasons = []
        if result.verdict != expected:
            reasons.append(f"{where}verdict {result.verdict.value}, expected {expected.value}"
                           + (f": {result.detail}" if result.detail else ""))
        if result.verdict in DEFINITE and (result.verdict is not Verdict.NO_WITNESS or result.records):
            if not result.witness or not result.records:
                reasons.append(f"{where}no witness" if not result.witness else f"{where}no witness record")
            elif not result.witness_replayed:
                reasons.append(f"{where}witness not replayed through the model: "
                               + "; ".join(result.replay_problems)[:300])
        reasons += [f"{where}engine: {problem}" for problem in result.engine_disagreed]
        pair = result.second_solver
        if pair is not None and result.verdict is Verdict.PROVED and not pair.get("queries"):
            reasons.append(f"{where}proved, but no query went to the second solver")
        return reasons

    def second_solver(self) -> dict[str, Any] | None:
        """Both solvers' answers over every variant run (None: Z3 alone)."""
        pairs = [r.second_solver for _, r in self.variants or (({}, self.result),) if r.second_solver is not None]
        if not pairs:
            return None
        return {"solvers": ["z3", "cvc5"], "queries": sum(p["queries"] for p in pairs),
                "agree": all(p["agree"] for p in pairs),
                "cvc5_seconds": round(sum(p["cvc5_seconds"] for p in pairs), 3),
                "problems": [problem for p in pairs for problem in p["problems"]]}

    def failures(self) -> list[str]:
        """Every reason this check fails; empty when it passes."""
        runs = self.variants or (({}, self.result),)
        reasons = []
        for variant, result in runs:
            reasons += self._run_failures(variant, result)
        reasons.extend(self.stats_problems())
        if self.check.scope is None:
            reasons.append("no scope in the manifest: what the check covers is not stated")
        if not self.mutants and not self.necessity and not self.necessity_skipped:
            reasons.append("no mutants: nothing shows that the check can fail")
        for mutant in self.mutants:
            if not mutant.killed:
                reasons.append(f"mutant {mutant.id} survived: verdict {mutant.result.verdict.value}"
                               + (f" ({mutant.result.detail})" if mutant.result.detail else ""))
        for rule, killed in self.cited_rules_killed().items():
            if not killed:
                tried = [c for c in self.necessity if c.rule == rule]
                how = ", ".join(f"{c.mutant.split(':', 1)[-1]} {c.result.verdict.value if c.result else '-'}"
                                f"{'' if not c.result or c.result.disagreement else ' without a disagreement'}"
                                for c in tried if c.mutant) or "no model mutant breaks it"
                reasons.append(f"cites {rule}, but breaking it in the model does not make the check fail ({how})")
        return reasons

    @property
    def passed(self) -> bool:
        return not self.failures()

    def to_json(self) -> dict[str, Any]:
        from cardcanon.proofs.variants import variant_name

        check = self.check
        return {
            "id": check.id,
            "game": check.game,
            "title": check.title,
            "rules": list(check.rules),
            "kind": check.kind.value,
            "expected": check.expected.value,
            "verdict": self.result.verdict.value,
            "passed": self.passed,
            "failures": self.failures(),
            "seconds": round(self.result.seconds, 3),
            "detail": self.result.detail,
            "witness": self.result.witness,
            "witness_replayed": self.result.witness_replayed,
            "second_solver": self.second_solver(),
            "bounds": _plain(check.bounds_for(self.quick)),
            "scope": check.scope_for(self.quick),
            "stats": dict(self.result.stats),
            "expected_stats": _plain(check.expected_stats) if check.expected_stats is not None else None,
            "stats_compared": self.stats_compared,
            "mutants": [m.to_json() for m in self.mutants],
            "results": [{
                "variant": variant_name(variant),
                "options": dict(variant),
                "expected": check.expected_for(variant).value,
                "verdict": result.verdict.value,
                "witness_replayed": result.witness_replayed,
                "replay_problems": list(result.replay_problems),
                "engine_replayed": result.engine_replayed,
                "engine_disagreed": list(result.engine_disagreed),
                "seconds": round(result.seconds, 3),
                "second_solver": None if result.second_solver is None else dict(result.second_solver),
                "detail": result.detail,
                "stats": dict(result.stats),
                "expected_stats": _plain(check.stats_for(variant)),
                "records": list(result.records) if not variant else [],
            } for variant, result in (self.variants or (({}, self.result),))],
            "necessity": [cell.to_json() for cell in self.necessity],
            "necessity_skipped": self.necessity_skipped,
            "verified_rules": [rule for rule, killed in self.cited_rules_killed().items() if killed],
            "manifest": check.source,
        }


@dataclass(frozen=True)
class Report:
    outcomes: tuple[CheckOutcome, ...]
    started: str  # ISO 8601, UTC
    wall_seconds: float
    jobs: int
    timeout: float
    quick: bool
    variants: Mapping[str, Any] | None = None  # game -> the variant plan


    @property
    def passed(self) -> int:
        return sum(o.passed for o in self.outcomes)

    @property
    def failed(self) -> int:
        return len(self.outcomes) - self.passed

    @property
    def mutants_killed(self) -> int:
        return sum(o.mutants_killed for o in self.outcomes)

    @property
    def mutants_total(self) -> int:
        return sum(len(o.mutants) for o in self.outcomes)

    @property
    def ok(self) -> bool:
        """True only when there was something to check and every check passed."""
        return bool(self.outcomes) and self.failed == 0

    def summary(self) -> str:
        matrix = self.necessity_json()
        return (f"{len(self.outcomes)} checks: {self.passed} passed, {self.failed} failed; "
                f"necessity {matrix['killed']}/{matrix['cells']} (check, rule) cells killed by a model mutant; "
                f"probes killed {self.mutants_killed}/{self.mutants_total}; "
                f"wall time {self.wall_seconds:.1f} s (jobs {self.jobs}{', quick' if self.quick else ''})")

    def to_json(self) -> dict[str, Any]:
        return {
            "cardcanon_version": __version__,
            "z3_version": _z3_version(),
            "cvc5_version": _cvc5_version(),
            "python": platform.python_version(),
            "started": self.started,
            "wall_seconds": round(self.wall_seconds, 3),
            "jobs": self.jobs,
            "timeout": self.timeout,
            "quick": self.quick,
            "totals": {
                "checks": len(self.outcomes),
                "passed": self.passed,
                "failed": self.failed,
                "mutants_killed": self.mutants_killed,
                "mutants_total": self.mutants_total,
            },
            "ok": self.ok,
            "variants": dict(self.variants or {}),
            "necessity": self.necessity_json(),
            "checks": [o.to_json() for o in self.outcomes],
        }

    def necessity_json(self) -> dict[str, Any]:
        """The check x rule matrix: a cell per (check, cited rule), killed or not, with its mutants."""
        cells = []
        for o in self.outcomes:
            for rule, killed in o.cited_rules_killed().items():
                cells.append({"check": o.check.id, "rule": rule, "killed": killed,
                              "mutants": [c.mutant for c in o.necessity if c.rule == rule and c.mutant]})
        return {"checks": len({c["check"] for c in cells}), "rules": len({c["rule"] for c in cells}),
                "cells": len(cells), "killed": sum(c["killed"] for c in cells), "matrix": cells}

    def table(self, rules_width: int = 36) -> str:
        header = ("check", "rules", "expected", "verdict", "players", "s", "witness", "variants", "necessity", "probes", "cvc5",
                  "result")
        rows = [header]
        for o in self.outcomes:
            rows.append((
                o.check.id,
                _shorten(", ".join(o.check.rules), rules_width),
                o.check.expected.value,
                o.result.verdict.value,
                _players_cell(o.check.scope_for(self.quick)),
                f"{o.result.seconds:.1f}",
                "replayed" if o.witness_ok else "NO",
                f"{sum(not o._run_failures(v, r) for v, r in o.variants)}/{len(o.variants)}",
                f"{sum(o.cited_rules_killed().values())}/{len(o.cited_rules_killed())}",
                f"{o.mutants_killed}/{len(o.mutants)}",
                _pair_cell(o.second_solver()),
                "ok" if o.passed else "FAIL",
            ))
        widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
        lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]
        lines.insert(1, "  ".join("-" * width for width in widths))
        lines += [f"scope {o.check.id}: {o.check.scope_for(self.quick)['words']}" for o in self.outcomes]
        for o in self.outcomes:
            for reason in o.failures():
                lines.append(f"FAIL {o.check.id}: {reason}")
        return "\n".join(lines)


def _players_cell(scope: Mapping[str, Any]) -> str:
    """The player counts a check covers, and the rulebook's when it covers fewer."""
    from cardcanon.scope import span

    if not scope["stated"]:
        return "NOT STATED"
    mine = span(scope["players"])
    return mine if scope["covers_rulebook_players"] else f"{mine} of {span(scope['rulebook_players'])}"


def _pair_cell(pair: Mapping[str, Any] | None) -> str:
    """The second solver's column: how many queries cvc5 decided alike ("-": Z3 alone)."""
    if pair is None:
        return "-"
    return f"{pair['queries']} agree" if pair["agree"] else "DISAGREE"


def _cvc5_version() -> str:
    try:
        import cvc5
    except ImportError:
        return "not installed"
    return str(getattr(cvc5, "__version__", "unknown"))


def _shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    return value


def _z3_version() -> str:
    try:
        import z3
    except ImportError:
        return "not installed"
    return str(z3.get_version_string())
