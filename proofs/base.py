"""What a check receives (one :class:`Run`) and returns (a :class:`CheckResult`), and the
honest mapping of Z3 answers onto verdicts.

A check is a function ``check(run: Run) -> CheckResult``. The run says everything about it:

- ``run.variant``: the options of the rulebook's variation points it runs under (``{}``: the
  defaults); ``run.snap_config()`` / ``run.hearts_config()`` build the model's config;
- ``run.probe``: ``None`` (the rulebook as written), an :class:`EncodingProbe` (the encoding
  broken as the manifest's ``[[check.probe]]`` says) or a :class:`RuleDrop` (the encoding
  without one cited rule's constraints); under a probe the check must reach a contrary verdict;
- ``run.budget``: the time it may take; ``run.budget.check(solver)`` raises :class:`Undecided`
  on a Z3 ``unknown`` or when the time is up (``unknown`` or ``timeout``, never ``proved``);
- ``run.bounds``: the manifest's bounds for this run;
- ``run.record(record)``: a witness or counterexample as a game record
  (``cardcanon.proofs.records``); the runner, not the check, replays every one;
- ``run.cached(key, compute)``: the per-process cache of results that read no model code; it
  is off while a model mutant is patched. What is derived from a model is kept by
  ``cardcanon.proofs.symbolic.ModelMemo``.

A check that finds the reference model disagreeing with its encoding may raise
:class:`Disagreement` with the verdict that disagreement means (e.g. ``counterexample found``).
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Collection, Hashable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar, cast

if TYPE_CHECKING:
    from cardcanon.model.hearts_types import HeartsConfig
    from cardcanon.model.snap import SnapConfig

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
    # The run cannot check what it claims (the compiled engine is missing or refuses the
    # configuration); its detail says why. Never counted as proved, nor as failed.
    NOT_APPLICABLE = "not-applicable"

    def __str__(self) -> str:
        return self.value


DEFINITE = {Verdict.PROVED, Verdict.COUNTEREXAMPLE, Verdict.WITNESS, Verdict.NO_WITNESS}

# For each expected verdict, the verdicts that kill a probe or a model mutant of that check.
CONTRARY = {
    Verdict.PROVED: {Verdict.COUNTEREXAMPLE},
    Verdict.COUNTEREXAMPLE: {Verdict.PROVED},
    Verdict.WITNESS: {Verdict.NO_WITNESS},
    Verdict.NO_WITNESS: {Verdict.WITNESS},
}


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one run of a check; ``records`` are game records (the runner also takes those
    the check gave ``run.record``)."""

    verdict: Verdict
    detail: str = ""
    witness: str | None = None  # the reachability witness, readably
    stats: Mapping[str, Any] = field(default_factory=dict)
    records: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True)
class EncodingProbe:
    """A probe of the manifest (``[[check.probe]]``): the check's encoding broken on purpose."""

    id: str

    def __str__(self) -> str:
        return self.id


@dataclass(frozen=True)
class RuleDrop:
    """A vacuity probe: the check's encoding without the constraints of one cited ``rule``."""

    rule: str

    @property
    def id(self) -> str:
        return "drop:" + self.rule

    def __str__(self) -> str:
        return self.id


Probe: TypeAlias = EncodingProbe | RuleDrop


def parse_probe(probe_id: str | None) -> Probe | None:
    """The probe a probe ID names: ``drop:<RULE>`` is a :class:`RuleDrop`, any other an :class:`EncodingProbe`."""
    if probe_id is None:
        return None
    return RuleDrop(probe_id[len("drop:"):]) if probe_id.startswith("drop:") else EncodingProbe(probe_id)


class Undecided(Exception):
    """Z3 answered neither sat nor unsat, or the run's time is up: the run ends as ``unknown``
    or ``timeout`` (see :attr:`verdict`), never ``proved``."""

    @property
    def verdict(self) -> Verdict:
        reason = str(self)
        return Verdict.TIMEOUT if "timeout" in reason or "canceled" in reason else Verdict.UNKNOWN


class Disagreement(Exception):
    """The reference model disagrees with the check's encoding; ``verdict`` is what that means
    for the check (e.g. ``counterexample found`` for a proof)."""

    def __init__(self, verdict: Verdict, detail: str) -> None:
        super().__init__(detail)
        self.verdict = verdict


class Budget:
    """The wall-clock time of one run, shared by all its solver calls and searches."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.started = time.monotonic()
        self.deadline = self.started + seconds

    def check(self, solver: Z3, *extra: Z3) -> Z3:
        """``solver.check(*extra)`` within the remaining time: ``sat`` or ``unsat``; raises
        :class:`Undecided` on anything else (Z3 gave up, or the time ran out)."""
        self.tick()
        from cardcanon.proofs.smt import decide  # cvc5 decides an unsat again in a paired run

        solver.set("timeout", max(1, int((self.deadline - time.monotonic()) * 1000)))
        answer = decide(solver, *extra)
        if str(answer) not in ("sat", "unsat"):
            raise Undecided(solver.reason_unknown())
        return answer

    def tick(self) -> None:
        """Raise :class:`Undecided` (a timeout) when the time is up; searches call it as they go."""
        if time.monotonic() > self.deadline:
            raise Undecided(f"timeout: the run's {self.seconds:g} s are up")

    def elapsed(self) -> float:
        return round(time.monotonic() - self.started, 3)


# The one per-process cache (see Run.cached): the key names the check, variant and probe.
_CACHE: dict[tuple[object, ...], Any] = {}
_caching = True


def set_caching(on: bool) -> None:
    """Turn the per-process cache on or off (the runner turns it off while a model mutant is patched)."""
    global _caching
    _caching = on


# Witnesses found by earlier runs in this process, by kind (under any variant; none kept while a model
# mutant is patched). A later run may replay one under its own variant instead of searching again;
# only a witness that run replays counts, so what is kept never decides a verdict by itself.
_FOUND: dict[str, list[Any]] = {}


def keep_witness(kind: str, witness: Any) -> None:
    """Keep ``witness`` (hashable) for :func:`witnesses_found` of later runs (not while a model mutant is patched)."""
    if _caching:
        kept = _FOUND.setdefault(kind, [])
        if witness not in kept:
            kept.append(witness)


def witnesses_found(kind: str) -> list[Any]:
    """The witnesses of ``kind`` earlier runs kept, in the order found (none while a model mutant is patched)."""
    return list(_FOUND.get(kind, ())) if _caching else []


T = TypeVar("T")


@dataclass
class Run:
    """One run of one check: under a variant, with or without a probe, within a budget."""

    variant: Mapping[str, str] = field(default_factory=dict)
    probe: Probe | None = None
    budget: Budget = field(default_factory=lambda: Budget(60.0))
    bounds: Mapping[str, Any] = field(default_factory=dict)
    records: list[Mapping[str, Any]] = field(default_factory=list)  # the recorder: see record()
    check: str = ""  # the check's entry point, part of every cache key
    golden: Mapping[str, Any] | None = None  # the golden stats the runner compares this run's stats with, if any

    def record(self, record: Mapping[str, Any]) -> None:
        """Hand a witness or counterexample (a game record) to the runner, which replays it."""
        self.records.append(record)

    def keep_last(self, count: int) -> None:
        """Keep only the last ``count`` records noted (a check that replays many hands)."""
        del self.records[:-count]

    def cached(self, key: Hashable, compute: Callable[[], T]) -> T:
        """``compute()``, kept for later runs in this process of the same check, variant and probe;
        never kept (nor read) while a model mutant is patched or a second solver is open. Only for
        results that read no model code, such as a Z3 proof over the encoding."""
        from cardcanon.proofs.smt import active

        if not _caching or active() is not None:  # a paired run asks every query of its own
            return compute()
        full = (self.check, tuple(sorted(self.variant.items())), self.probe_id, key)
        if full not in _CACHE:
            _CACHE[full] = compute()
        return cast(T, _CACHE[full])

    @property
    def probe_id(self) -> str | None:
        return None if self.probe is None else self.probe.id

    @property
    def dropped(self) -> str | None:
        """The rule a :class:`RuleDrop` leaves out, else None."""
        return self.probe.rule if isinstance(self.probe, RuleDrop) else None

    def encoding_probe(self, known: Collection[str]) -> str | None:
        """The ID of an :class:`EncodingProbe` (one of ``known``), else None; raises on an unknown one."""
        if not isinstance(self.probe, EncodingProbe):
            return None
        if self.probe.id not in known:
            raise ValueError(f"unknown probe {self.probe.id!r}; this check knows {', '.join(sorted(known)) or 'none'}")
        return self.probe.id

    def no_probe(self) -> None:
        """Refuse any probe (a check without an encoding)."""
        if self.probe is not None:
            raise ValueError(f"unknown probe {self.probe.id!r}: this check has no encoding")

    def snap_config(self, **fields: Any) -> SnapConfig:
        return snap_config(self.variant, **fields)

    def hearts_config(self, **fields: Any) -> HeartsConfig:
        return hearts_config(self.variant, **fields)


Check: TypeAlias = Callable[[Run], CheckResult]


# ---- variants: the options of the rulebook's variation points a run is under -------------------
def variant_name(variant: Mapping[str, str]) -> str:
    """``default``, or ``param=value`` pairs joined by commas in parameter order."""
    return ",".join(f"{k}={variant[k]}" for k in sorted(variant)) or "default"


def _config_type(game: str) -> Any:
    """The model's table type of ``game`` (``Config.from_options`` reads the rulebook's options)."""
    import importlib

    return importlib.import_module(f"cardcanon.model.{game}").GAME.Config


def config_for(game: str, variant: Mapping[str, str] | None = None, **fields: Any) -> Any:
    """The model's table for ``variant`` (the rulebook's option words) and other config ``fields``."""
    chosen = {name: option for name, option in (variant or {}).items() if name not in fields}
    return _config_type(game).from_options(chosen, **fields)


def modelled(game: str) -> dict[str, dict[str, str]]:
    """parameter -> the options the model implements (each option as its own value)."""
    import cardcanon.spec
    from cardcanon.model.errors import NotModelledError

    table: dict[str, dict[str, str]] = {}
    for rule in cardcanon.spec.load(game).rules:
        if rule.variation is None:
            continue
        parameter = rule.variation.parameter
        table[parameter] = {}
        for option in (o.value for o in rule.variation.options):
            try:
                _config_type(game).from_options({parameter: option})
            except NotModelledError:
                continue
            table[parameter][option] = option
    return table


def snap_config(variant: Mapping[str, str] | None = None, **fields: Any) -> SnapConfig:
    return cast("SnapConfig", config_for("snap", variant, **fields))


def hearts_config(variant: Mapping[str, str] | None = None, **fields: Any) -> HeartsConfig:
    return cast("HeartsConfig", config_for("hearts", variant, **fields))


def solve(solver: Z3, budget: Budget, *, unsat: Verdict, sat: Verdict) -> Verdict:
    """``unsat`` or ``sat`` by the solver's answer within the budget; raises :class:`Undecided` otherwise."""
    answer = budget.check(solver)
    return unsat if str(answer) == "unsat" else sat
