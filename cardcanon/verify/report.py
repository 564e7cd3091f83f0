"""What ``cardcanon verify`` found: per-check outcomes, the summary table and the JSON report."""

from __future__ import annotations

import importlib
import platform
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cardcanon.version import build_info
from cardcanon.verify.manifest import CheckSpec
from cardcanon.verify.variants import variant_name
from cardcanon.proofs.base import CONTRARY, DEFINITE, Verdict
from cardcanon.verify.runner import RunResult, plain


@dataclass(frozen=True)
class ProbeOutcome:
    """A probe: the check's encoding with one rule's constraints dropped or broken."""

    id: str
    description: str
    result: RunResult
    expected: Verdict  # the check's expected verdict

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
    model_mutant: str  # key of the model mutant ("" when the rule has none)
    description: str
    result: RunResult | None
    expected: Verdict
    stats_differ: bool = False  # the golden numbers of the claim came out otherwise
    variant: Mapping[str, str] = field(default_factory=dict)  # the variant the run was under

    @property
    def killed(self) -> bool:
        """The check failed against the mutant (a contrary verdict, or a definite one with other
        golden numbers), and one of its records is a game of the mutant that the reference
        model does not play alike (a real disagreement)."""
        if self.result is None or not self.result.disagreement:
            return False
        verdict = self.result.verdict
        return verdict in CONTRARY[self.expected] or (verdict in DEFINITE and self.stats_differ)

    @property
    def not_applicable(self) -> bool:
        """The run could not check what it claims under this mutant (see ``Verdict.NOT_APPLICABLE``)."""
        return self.result is not None and self.result.verdict is Verdict.NOT_APPLICABLE

    def to_json(self) -> dict[str, Any]:
        result = self.result
        return {"rule": self.rule, "model_mutant": self.model_mutant, "variant": variant_name(self.variant),
                "description": self.description, "killed": self.killed,
                "not_applicable": self.not_applicable,
                "verdict": None if result is None else result.verdict.value,
                "disagreement": None if result is None else result.disagreement,
                "detail": "" if result is None else result.detail[:300],
                "seconds": 0.0 if result is None else round(result.seconds, 3)}


@dataclass(frozen=True)
class Binding:
    """One (variant, cited rule) result of a check and the model mutants that fail it there."""

    variant: str
    rule: str
    killed_by: tuple[str, ...]  # model mutants that make the check fail under this variant
    tried: tuple[str, ...]  # model mutants run under this variant
    counts: bool  # the result passed and a model mutant fails it: it counts toward the rule

    def to_json(self) -> dict[str, Any]:
        return {"variant": self.variant, "rule": self.rule, "killed_by": list(self.killed_by),
                "tried": list(self.tried), "bound": bool(self.killed_by), "counts": self.counts}


@dataclass(frozen=True)
class CheckOutcome:
    check: CheckSpec
    variants: tuple[tuple[Mapping[str, str], RunResult], ...]  # (variant, result) of every run as written
    probes: tuple[ProbeOutcome, ...]
    quick: bool = False
    necessity: tuple[NecessityCell, ...] = ()
    necessity_skipped: bool = False  # a quick run with smaller bounds: the matrix is the full run's
    premises: tuple[CheckOutcome, ...] = ()  # the outcomes of the checks it rests on (manifest: rests_on)

    @property
    def result(self) -> RunResult:
        """The first run as written: under the default variant where the check runs under it."""
        return self.variants[0][1]

    @property
    def stats_compared(self) -> bool:
        """Golden stats hold for the full bounds; a quick run with ``ci_bounds`` cannot match them."""
        check = self.check
        return ((check.expected_stats is not None or bool(check.expected_stats_variant))
                and not (self.quick and check.ci_bounds is not None))

    def stats_problems(self) -> list[str]:
        """Every golden number that came out otherwise, under every variant run that was applicable
        (a not-applicable run counted nothing)."""
        return [problem for variant, result in self.variants for problem in self._stats_problems(variant, result)]

    def _stats_problems(self, variant: Mapping[str, str], result: RunResult) -> list[str]:
        if not self.stats_compared or result.verdict is Verdict.NOT_APPLICABLE:
            return []
        where, problems = "" if not variant else f"[{variant_name(variant)}] ", []
        for key, want in (self.check.stats_for(variant) or {}).items():
            if key not in result.stats:
                problems.append(f"{where}stat {key!r} missing (expected {want!r})")
            elif result.stats[key] != want:
                problems.append(f"{where}stat {key!r} is {result.stats[key]!r}, expected {want!r}")
        return problems

    def state_under(self, name: str) -> str:
        """The run under the variant ``name``, premises included: ``passed``, ``failed``, ``not-applicable``
        (neither), or ``not run`` (the check does not run under it)."""
        run = next(((v, r) for v, r in self.variants if variant_name(v) == name), None)
        if run is None:
            return "not run"
        if self._run_failures(*run) or self._stats_problems(*run):
            return "failed"
        if run[1].verdict is Verdict.NOT_APPLICABLE or any(p.state_under(name) == "not-applicable"
                                                           for p in self.premises):
            return "not-applicable"
        return "passed"

    def _premise_failures(self, variant: Mapping[str, str]) -> list[str]:
        """Why the run under ``variant`` is not proved by its premises: one that failed or did not run there."""
        name = variant_name(variant)
        where = "" if not variant else f"[{name}] "
        return [f"{where}rests on {p.check.id}, which {'failed' if state == 'failed' else 'did not run'} under {name}"
                for p in self.premises if (state := p.state_under(name)) in ("failed", "not run")]

    def chain(self, names: list[str], depth: int = 2) -> list[str]:
        """The premises, however far down, each with its state under each of the variants ``names``."""
        lines = []
        for p in self.premises:
            states = ", ".join(f"{name} {p.state_under(name)}" for name in names)
            lines.append(" " * depth + f"{p.check.id}: {states}")
            lines += p.chain(names, depth + 2)
        return lines

    def _premises_json(self, names: list[str]) -> list[dict[str, Any]]:
        return [{"id": p.check.id, "title": p.check.title, "status": p.status,
                 "results": {name: p.state_under(name) for name in names},
                 "premises": p._premises_json(names)} for p in self.premises]

    @property
    def witness_ok(self) -> bool:
        return bool(self.result.witness) and self.result.witness_replayed

    @property
    def probes_killed(self) -> int:
        return sum(m.killed for m in self.probes)

    def cited_rules_killed(self) -> dict[str, bool]:
        """Each cited rule: whether some model mutant of it kills the check."""
        return {rule: any(c.killed for c in self.necessity if c.rule == rule)
                for rule in dict.fromkeys(c.rule for c in self.necessity)}

    def _mutant_cells(self, rule: str) -> list[NecessityCell]:
        """The runs of the model mutants of ``rule`` (none when no model mutant breaks it)."""
        return [c for c in self.necessity if c.rule == rule and c.model_mutant]

    def bindings(self) -> list[Binding]:
        """Each (variant run, cited rule): the model mutants that make the check fail under that
        same variant. A result no mutant fails is unbound: it does not count toward the rule."""
        out: list[Binding] = []
        if not self.necessity:  # the model mutants were not run (--no-necessity, or a quick run)
            return out
        for variant, result in self.variants:
            name = variant_name(variant)
            for rule in self.check.rules:
                cells = [c for c in self._mutant_cells(rule) if variant_name(c.variant) == name]
                killers = tuple(c.model_mutant for c in cells if c.killed)
                tried = tuple(c.model_mutant for c in cells)
                out.append(Binding(name, rule, killers, tried, self._run_passed(variant, result) and bool(killers)))
        return out

    def rules_not_applicable(self) -> list[str]:
        """Cited rules no mutant kills because every run against their mutants was not applicable."""
        return [rule for rule, killed in self.cited_rules_killed().items()
                if not killed and (cells := self._mutant_cells(rule)) and all(c.not_applicable for c in cells)]

    def not_applicable(self) -> list[str]:
        """Every reason this check could not be run as it claims (none when it could)."""
        return ([f"[{variant_name(variant)}] not applicable: {result.detail}"
                 for variant, result in self.variants if result.verdict is Verdict.NOT_APPLICABLE]
                + [f"[{name}] rests on {p.check.id}, which is not applicable under {name}"
                   for name in (variant_name(v) for v, _ in self.variants)
                   for p in self.premises if p.state_under(name) == "not-applicable"]
                + [f"necessity of {rule} not applicable: every run against its model mutants was not applicable"
                   for rule in self.rules_not_applicable()])

    def engine_not_applicable(self) -> list[str]:
        """The records the compiled engine could not replay, with the reason."""
        return [f"[{variant_name(variant)}] engine replay of {len(result.engine_not_applicable)} record(s): "
                + result.engine_not_applicable[0].split(": ", 1)[-1]
                for variant, result in self.variants if result.engine_not_applicable]

    def explain(self) -> str:
        """In plain words: what the check states, its scope, per cited rule and variant the model
        mutant that makes it fail, and its witness (``cardcanon verify --explain``)."""
        from cardcanon.verify.model_mutants import MUTANTS

        check = self.check
        lines = [f"{check.id}: {check.title}",
                 f"  Kind: {check.kind.value}; expected: {check.expected.value}"
                 + "".join(f"; under {name}: {v.value}" for name, v in check.expected_variant.items()),
                 f"  Scope: {check.scope_for(self.quick)['words']}"]
        ran = [variant_name(v) for v, _ in self.variants]
        lines.append("  Variants: " + ", ".join(ran) + (f" (only these: {check.variants_reason})"
                                                          if check.variants is not None else ""))
        if check.bridge:
            lines.append(f"  Tied to the model by the check itself: {check.bridge}")
        if self.premises:
            lines.append("  Rests on (proved only where each passed under the same variant):")
            lines += self.chain(ran, 4)
        lines.append("  Cited rules, and per variant the model mutant that makes the check fail there:")
        for rule in check.rules:
            lines.append(f"    {rule}:")
            unbound: dict[str, list[str]] = {}  # why unbound -> the variants, listed on one line
            for b in (b for b in self.bindings() if b.rule == rule):
                if b.killed_by:
                    how = "; ".join(f"{k.split(':', 1)[-1]} ({MUTANTS[k].description})" for k in b.killed_by)
                    lines.append(f"      {b.variant}: {how}")
                else:
                    why = ("no model mutant run under {} fails it" if not b.tried else
                           f"{', '.join(t.split(':', 1)[-1] for t in b.tried)} leave it passing")
                    unbound.setdefault(why, []).append(b.variant)
            lines += [f"      {', '.join(variants)}: unbound: "
                      + why.format("this variant" if len(variants) == 1 else "these variants") + " (does not count)"
                      for why, variants in unbound.items()]
        if self.probes:
            lines.append("  Probes: " + ", ".join(f"{p.id} {'killed' if p.killed else 'SURVIVED'}" for p in self.probes))
        witness = (self.result.witness or "").strip()
        lines.append("  Witness (replayed by the runner): " + ("none" if not witness else ""))
        lines += [f"    {line}" for line in witness.splitlines()[:12]]
        return "\n".join(lines)

    @property
    def status(self) -> str:
        """``passed``, ``failed``, or ``not-applicable`` (nothing failed, something could not run)."""
        if self.failures():
            return "failed"
        return "not-applicable" if self.not_applicable() else "passed"

    def _run_passed(self, variant: Mapping[str, str], result: RunResult) -> bool:
        """The run under ``variant`` passed: it and its premises were applicable and nothing about them failed."""
        return self.state_under(variant_name(variant)) == "passed"

    def _run_failures(self, variant: Mapping[str, str], result: RunResult) -> list[str]:
        where = "" if not variant else f"[{variant_name(variant)}] "
        expected = self.check.expected_for(variant)
        reasons = self._premise_failures(variant)
        if result.verdict is Verdict.NOT_APPLICABLE:
            return reasons  # neither passed nor failed: see not_applicable()
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
        pairs = [r.second_solver for _, r in self.variants if r.second_solver is not None]
        if not pairs:
            return None
        return {"solvers": ["z3", "cvc5"], "queries": sum(p["queries"] for p in pairs),
                "agree": all(p["agree"] for p in pairs),
                "cvc5_seconds": round(sum(p["cvc5_seconds"] for p in pairs), 3),
                "problems": [problem for p in pairs for problem in p["problems"]]}

    def failures(self) -> list[str]:
        """Every reason this check fails; empty when it passes."""
        reasons = [reason for variant, result in self.variants for reason in self._run_failures(variant, result)]
        reasons.extend(self.stats_problems())
        if self.check.scope is None:
            reasons.append("no scope in the manifest: what the check covers is not stated")
        if not self.probes and not self.necessity and not self.necessity_skipped:
            reasons.append("no probe and no model mutant: nothing shows that the check can fail")
        reasons += [f"probe {probe.id} survived: verdict {probe.result.verdict.value}"
                    + (f" ({probe.result.detail})" if probe.result.detail else "")
                    for probe in self.probes if not probe.killed]
        not_applicable = self.rules_not_applicable()
        for rule, killed in self.cited_rules_killed().items():
            if not killed and rule not in not_applicable:
                how = ", ".join(f"{c.model_mutant.split(':', 1)[-1]} {c.result.verdict.value if c.result else '-'}"
                                f"{'' if not c.result or c.result.disagreement else ' without a disagreement'}"
                                for c in self._mutant_cells(rule)) or "no model mutant breaks it"
                reasons.append(f"cites {rule}, but breaking it in the model does not make the check fail ({how})")
        return reasons

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    def to_json(self) -> dict[str, Any]:
        check, bindings = self.check, self.bindings()
        return {
            "id": check.id,
            "game": check.game,
            "title": check.title,
            "rules": list(check.rules),
            "kind": check.kind.value,
            "expected": check.expected.value,
            "verdict": self.result.verdict.value,
            "passed": self.passed,
            "status": self.status,
            "failures": self.failures(),
            "not_applicable": self.not_applicable(),
            "engine_covers": None if check.engine_covers is None else list(check.engine_covers),
            "seconds": round(self.result.seconds, 3),
            "detail": self.result.detail,
            "witness": self.result.witness,
            "witness_replayed": self.result.witness_replayed,
            "second_solver": self.second_solver() or (
                {"solvers": ["z3"], "off": check.no_second_solver} if check.no_second_solver else None),
            "bounds": plain(check.bounds_for(self.quick)),
            "scope": check.scope_for(self.quick),
            "rests_on": list(check.rests_on),
            "premises": self._premises_json([variant_name(v) for v, _ in self.variants]),
            "bridge": check.bridge or None,
            "no_drop_probes": check.no_drop_probes or None,
            "stats": dict(self.result.stats),
            "expected_stats": plain(check.expected_stats) if check.expected_stats is not None else None,
            "stats_compared": self.stats_compared,
            "probes": [m.to_json() for m in self.probes],
            "results": [{
                "variant": variant_name(variant),
                "options": dict(variant),
                "expected": check.expected_for(variant).value,
                "verdict": result.verdict.value,
                "witness_replayed": result.witness_replayed,
                "replay_problems": list(result.replay_problems),
                "engine_replayed": result.engine_replayed,
                "engine_disagreed": list(result.engine_disagreed),
                "engine_not_applicable": list(result.engine_not_applicable),
                "engine_replay": None if result.engine_verdict is None else result.engine_verdict.value,
                "seconds": round(result.seconds, 3),
                "second_solver": None if result.second_solver is None else dict(result.second_solver),
                "detail": result.detail,
                "stats": dict(result.stats),
                "expected_stats": plain(check.stats_for(variant)),
                "premises": {p.check.id: p.state_under(variant_name(variant)) for p in self.premises},
                "records": list(result.records) if not variant else [],
            } for variant, result in self.variants],
            "necessity": [cell.to_json() for cell in self.necessity],
            "necessity_skipped": self.necessity_skipped,
            "verified_rules": [rule for rule, killed in self.cited_rules_killed().items() if killed],
            "bindings": [b.to_json() for b in bindings],
            "unbound_results": sum(not b.killed_by for b in bindings),
            "explanation": self.explain(),
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
        return sum(o.status == "failed" for o in self.outcomes)

    @property
    def not_applicable(self) -> int:
        return sum(o.status == "not-applicable" for o in self.outcomes)

    @property
    def engine_not_applicable(self) -> int:
        """Records, over every check, that the compiled engine could not replay."""
        return sum(len(result.engine_not_applicable) for o in self.outcomes for _, result in o.variants)

    @property
    def exit_status(self) -> int:
        """0 every check passed and ran as it claims; 1 something failed; 3 nothing failed but
        something (a check, a necessity run, an engine replay) was not applicable."""
        if not self.outcomes or self.failed:
            return 1
        return 3 if self.not_applicable or self.engine_not_applicable else 0

    def conclusion(self) -> str:
        if self.exit_status == 1:
            return "FAILED"
        if self.exit_status == 3:
            return (f"NOT A FULL VERIFICATION: nothing failed, but {self.not_applicable} check(s) and "
                    f"{self.engine_not_applicable} engine replay(s) were not applicable (see above)")
        return "OK: every check passed"

    @property
    def probes_killed(self) -> int:
        return sum(o.probes_killed for o in self.outcomes)

    @property
    def probes_total(self) -> int:
        return sum(len(o.probes) for o in self.outcomes)

    @property
    def ok(self) -> bool:
        """True only when there was something to check, every check passed and all of it ran."""
        return self.exit_status == 0

    def summary(self) -> str:
        matrix = self.necessity_json()
        return (f"{len(self.outcomes)} checks: {self.passed} passed, {self.failed} failed, "
                f"{self.not_applicable} not applicable; "
                f"engine replays not applicable: {self.engine_not_applicable}; "
                f"necessity: {self.necessity_words(matrix)}; "
                f"probes killed {self.probes_killed}/{self.probes_total}; "
                f"wall time {self.wall_seconds:.1f} s (jobs {self.jobs}{', quick' if self.quick else ''})")

    @staticmethod
    def necessity_words(matrix: Mapping[str, Any]) -> str:
        """What the necessity matrix counts: the (check, rule, variant) results a model mutant of the
        rule fails (each binds the check to that rule), and the others, which count toward nothing."""
        if not matrix["cells"]:
            return "no model mutants run"
        return (f"{matrix['killed']} (check, rule, variant) results count, each failed by a model mutant of "
                f"its rule under its variant; unbound, so counting toward no rule (no model mutant of the rule "
                f"fails the check under that variant): {matrix['unbound']}")

    def to_json(self) -> dict[str, Any]:
        matrix = self.necessity_json()
        from cardcanon.provenance import provenance

        return {
            "provenance": provenance(),  # the version, commit and command that made the report
            "cardcanon_version": build_info().version,
            "z3_version": _version("z3"),
            "cvc5_version": _version("cvc5"),
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
                "not_applicable": self.not_applicable,
                "engine_replays_not_applicable": self.engine_not_applicable,
                "probes_killed": self.probes_killed,
                "probes_total": self.probes_total,
                "necessity_results": matrix["cells"],
                "necessity_bound": matrix["killed"],
                "necessity_unbound": matrix["unbound"],
                "model_mutant_runs": sum(1 for o in self.outcomes for c in o.necessity if c.model_mutant),
            },
            "ok": self.ok,
            "variants": dict(self.variants or {}),
            "necessity": matrix,
            "checks": [o.to_json() for o in self.outcomes],
        }

    def necessity_json(self) -> dict[str, Any]:
        """The check x rule x variant matrix: a cell per (check, cited rule, variant run), bound
        (``killed``) when a model mutant makes the check fail under that variant. ``counts``: the
        result passed and is bound, so it counts toward the rule's "verified by"."""
        cells = [{"check": o.check.id, "rule": b.rule, "variant": b.variant, "killed": bool(b.killed_by),
                  "counts": b.counts, "model_mutants": list(b.killed_by)} for o in self.outcomes for b in o.bindings()]
        return {"checks": len({c["check"] for c in cells}), "rules": len({c["rule"] for c in cells}),
                "cells": len(cells), "killed": sum(c["killed"] for c in cells),
                "unbound": sum(not c["killed"] for c in cells), "matrix": cells}

    def table(self, rules_width: int = 36) -> str:
        header = ("check", "rules", "expected", "verdict", "players", "s", "witness", "variants", "necessity", "cvc5", "probes",
                  "result")
        rows = [header]
        for o in self.outcomes:
            killed, pair = o.cited_rules_killed(), o.second_solver()
            rows.append((
                o.check.id,
                ", ".join(o.check.rules),
                o.check.expected.value,
                o.result.verdict.value,
                _players_cell(o.check.scope_for(self.quick)),
                f"{o.result.seconds:.1f}",
                "replayed" if o.witness_ok else "NO",
                f"{sum(o._run_passed(v, r) for v, r in o.variants)}/{len(o.variants)}",
                f"{sum(killed.values())}/{len(killed)}",
                _pair_cell(pair) if pair or not o.check.no_second_solver else "off",
                f"{o.probes_killed}/{len(o.probes)}",
                {"passed": "ok", "failed": "FAIL"}.get(o.status, "n/a"),
            ))
        wrapped = [[textwrap.wrap(cell, rules_width, break_on_hyphens=False, break_long_words=False) or [""]
                    if i == 1 else [cell] for i, cell in enumerate(row)]
                   for row in rows]
        widths = [max(len(part) for row in wrapped for part in row[i]) for i in range(len(header))]
        lines = []
        for row in wrapped:  # the rules column wraps onto more lines
            for k in range(max(len(cell) for cell in row)):
                lines.append("  ".join((cell[k] if k < len(cell) else "").ljust(width)
                                       for cell, width in zip(row, widths)).rstrip())
        lines.insert(1, "  ".join("-" * width for width in widths))
        lines += [f"scope {o.check.id}: {o.check.scope_for(self.quick)['words']}" for o in self.outcomes]
        lines += [f"premises of {o.check.id}: " + ", ".join(f"{p.check.id} ({p.status})" for p in o.premises)
                  for o in self.outcomes if o.premises]
        lines += [f"second solver off for {o.check.id}: {o.check.no_second_solver}" for o in self.outcomes
                  if o.check.no_second_solver and not o.second_solver()]
        for o in self.outcomes:
            for reason in o.failures():
                lines.append(f"FAIL {o.check.id}: {reason}")
            for reason in o.not_applicable() + o.engine_not_applicable():
                lines.append(f"NOT APPLICABLE {o.check.id}: {reason}")
        return "\n".join(lines)


def _players_cell(scope: Mapping[str, Any]) -> str:
    """The player counts a check covers, and the rulebook's when it covers fewer."""
    from cardcanon.verify.scope import span

    if not scope["stated"]:
        return "NOT STATED"
    mine = span(scope["players"])
    return mine if scope["covers_rulebook_players"] else f"{mine} of {span(scope['rulebook_players'])}"


def _pair_cell(pair: Mapping[str, Any] | None) -> str:
    """The second solver's column: how many queries cvc5 decided alike ("-": Z3 alone)."""
    if pair is None:
        return "-"
    return f"{pair['queries']} agree" if pair["agree"] else "DISAGREE"


def _version(solver: str) -> str:
    """The installed version of ``z3`` or ``cvc5``, or "not installed"."""
    try:
        module = importlib.import_module(solver)
    except ImportError:
        return "not installed"
    return str(module.get_version_string()) if solver == "z3" else str(getattr(module, "__version__", "unknown"))
