"""What every check returns, and the honest mapping of Z3 answers onto verdicts.

A check is a function ``check(*, mutant: str | None, timeout: float, bounds: dict) ->
CheckResult``. ``bounds["variant"]`` (when present) names the options of the rulebook's
variation points the run is under (``cardcanon.proofs.variants``). With ``mutant=None`` it
checks the rulebook as written; with a probe ID from the manifest it drops or breaks one rule's
constraints in its own encoding (the vacuity probe), and must then reach a contrary verdict.
Every check also returns game records (``cardcanon.proofs.records``): its reachability
witnesses (the property is not vacuously true) and any counterexample. The check never says
that they replay: the verify runner replays every record through the reference model (and
through a mutant of the model, when the run is against one).

Z3 ``unknown`` and timeouts are verdicts of their own and never count as proved.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias

# A Z3 object (term, sort, model or solver). z3 ships no type information, so this is Any.
Z3: TypeAlias = Any


class Verdict(str, enum.Enum):
    PROVED = "proved"
    COUNTEREXAMPLE = "counterexample found"
    WITNESS = "witness found"
    NO_WITNESS = "no witness"
    UNKNOWN = "unknown"
    TIMEOUT = "timeout"
    ERROR = "error"

    def __str__(self) -> str:
        return self.value


DEFINITE = {Verdict.PROVED, Verdict.COUNTEREXAMPLE, Verdict.WITNESS, Verdict.NO_WITNESS}

# For each expected verdict, the verdicts that kill a mutant of that check.
CONTRARY = {
    Verdict.PROVED: {Verdict.COUNTEREXAMPLE},
    Verdict.COUNTEREXAMPLE: {Verdict.PROVED},
    Verdict.WITNESS: {Verdict.NO_WITNESS},
    Verdict.NO_WITNESS: {Verdict.WITNESS},
}


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one run of a check (the rules as written, or one mutant)."""

    verdict: Verdict
    detail: str = ""
    witness: str | None = None  # the reachability witness, readably
    stats: Mapping[str, Any] = field(default_factory=dict)
    records: tuple[Mapping[str, Any], ...] = ()  # witnesses and counterexamples as game records


class Check(Protocol):
    def __call__(self, *, mutant: str | None, timeout: float, bounds: Mapping[str, Any]) -> CheckResult: ...


def variant_of(bounds: Mapping[str, Any]) -> dict[str, str]:
    """The variant a run is under (``{}``: the rulebook's defaults)."""
    return dict(bounds.get("variant") or {})


def z3_verdict(answer: Z3, *, unsat: Verdict, sat: Verdict, reason: str = "") -> Verdict:
    """Map a Z3 ``check()`` answer to a verdict; ``unknown`` becomes UNKNOWN or TIMEOUT."""
    import z3

    if answer == z3.unsat:
        return unsat
    if answer == z3.sat:
        return sat
    return Verdict.TIMEOUT if "timeout" in reason or "canceled" in reason else Verdict.UNKNOWN


def solve(solver: Z3, *, unsat: Verdict, sat: Verdict) -> Verdict:
    """Run ``solver.check()`` and map the answer honestly (see :func:`z3_verdict`)."""
    from cardcanon.proofs.smt import decide

    answer = decide(solver)
    reason = solver.reason_unknown() if str(answer) == "unknown" else ""
    return z3_verdict(answer, unsat=unsat, sat=sat, reason=reason)
