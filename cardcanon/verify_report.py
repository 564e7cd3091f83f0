"""What ``cardcanon verify`` found: per-check outcomes, the summary table and the JSON report."""

from __future__ import annotations

import platform
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardcanon import __version__
from cardcanon.manifest import CheckSpec
from cardcanon.proofs.base import CONTRARY, DEFINITE
from cardcanon.verify_runner import RunResult


@dataclass(frozen=True)
class MutantOutcome:
    id: str
    description: str
    result: RunResult
    expected: Any  # the check's expected Verdict

    @property
    def killed(self) -> bool:
        """Killed when the broken rule makes the check reach a contrary verdict."""
        return self.result.verdict in CONTRARY[self.expected]

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
class CheckOutcome:
    check: CheckSpec
    result: RunResult
    mutants: tuple[MutantOutcome, ...]
    quick: bool = False

    @property
    def stats_compared(self) -> bool:
        """Golden stats hold for the full bounds; a quick run with ``ci_bounds`` cannot match them."""
        return self.check.expected_stats is not None and not (self.quick and self.check.ci_bounds is not None)

    def stats_problems(self) -> list[str]:
        if not self.stats_compared:
            return []
        problems = []
        for key, want in (self.check.expected_stats or {}).items():
            if key not in self.result.stats:
                problems.append(f"stat {key!r} missing (expected {want!r})")
            elif self.result.stats[key] != want:
                problems.append(f"stat {key!r} is {self.result.stats[key]!r}, expected {want!r}")
        return problems

    @property
    def witness_ok(self) -> bool:
        return bool(self.result.witness) and self.result.witness_replayed

    @property
    def mutants_killed(self) -> int:
        return sum(m.killed for m in self.mutants)

    def failures(self) -> list[str]:
        """Every reason this check fails; empty when it passes."""
        reasons = []
        if self.result.verdict != self.check.expected:
            reasons.append(f"verdict {self.result.verdict.value}, expected {self.check.expected.value}"
                           + (f": {self.result.detail}" if self.result.detail else ""))
        if self.result.verdict in DEFINITE and not self.witness_ok:
            reasons.append("no witness" if not self.result.witness else "witness not replayed through the model")
        reasons.extend(self.stats_problems())
        if not self.mutants:
            reasons.append("no mutants: nothing shows that the check can fail")
        for mutant in self.mutants:
            if not mutant.killed:
                reasons.append(f"mutant {mutant.id} survived: verdict {mutant.result.verdict.value}"
                               + (f" ({mutant.result.detail})" if mutant.result.detail else ""))
        return reasons

    @property
    def passed(self) -> bool:
        return not self.failures()

    def to_json(self) -> dict[str, Any]:
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
            "bounds": _plain(check.bounds_for(self.quick)),
            "stats": dict(self.result.stats),
            "expected_stats": _plain(check.expected_stats) if check.expected_stats is not None else None,
            "stats_compared": self.stats_compared,
            "mutants": [m.to_json() for m in self.mutants],
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
        return (f"{len(self.outcomes)} checks: {self.passed} passed, {self.failed} failed; "
                f"mutants killed {self.mutants_killed}/{self.mutants_total}; "
                f"wall time {self.wall_seconds:.1f} s (jobs {self.jobs}{', quick' if self.quick else ''})")

    def to_json(self) -> dict[str, Any]:
        return {
            "cardcanon_version": __version__,
            "z3_version": _z3_version(),
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
            "checks": [o.to_json() for o in self.outcomes],
        }

    def table(self, rules_width: int = 36) -> str:
        header = ("check", "rules", "expected", "verdict", "s", "witness", "mutants", "result")
        rows = [header]
        for o in self.outcomes:
            rows.append((
                o.check.id,
                _shorten(", ".join(o.check.rules), rules_width),
                o.check.expected.value,
                o.result.verdict.value,
                f"{o.result.seconds:.1f}",
                "replayed" if o.witness_ok else "NO",
                f"{o.mutants_killed}/{len(o.mutants)}",
                "ok" if o.passed else "FAIL",
            ))
        widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
        lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]
        lines.insert(1, "  ".join("-" * width for width in widths))
        for o in self.outcomes:
            for reason in o.failures():
                lines.append(f"FAIL {o.check.id}: {reason}")
        return "\n".join(lines)


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
