"""The traceability gate: every cited rule exists, every normative rule is verified somewhere.

The first tests check the real repository (model code, test marks, manifests, the rulebook's
cross-references); the last ones check the coverage computation itself on a made-up report,
so that the gate is known to be able to fail.
"""

from __future__ import annotations

import pytest

import cardcanon.spec
from cardcanon.trace import RuleTrace, TraceReport, collect, coverage_failures


@pytest.fixture(scope="module")
def report() -> TraceReport:
    return collect()


def test_rule_sources_were_scanned(report):
    assert len(report.rules) == len(cardcanon.spec.all_rule_ids())
    assert "tests" not in report.missing and "model" not in report.missing
    assert any(c.kind.value == "model" for c in report.citations)


def test_every_cited_rule_exists(report):
    unknown = sorted(f"{c.kind.value} {c.where}: {c.rule_id}" for c in report.unknown_citations())
    assert not unknown, "rule IDs cited but not in the rulebook:\n" + "\n".join(unknown)


def test_every_rule_mark_is_readable(report):
    assert not report.problems, "\n".join(report.problems)


def test_every_normative_rule_is_covered_by_a_test_or_proof(report):
    failures = coverage_failures(report)
    assert not failures, f"{len(failures)} normative rules uncovered:\n" + "\n".join(failures)


def _fake(*rules: RuleTrace) -> TraceReport:
    return TraceReport(root="/fake", rules=rules, known_ids=frozenset(r.id for r in rules))


def test_coverage_computation_on_a_fake_report():
    report = _fake(
        RuleTrace("SNAP-A-1", "snap", "tested", "stated", True, tests=("tests/t.py::test_a",)),
        RuleTrace("SNAP-A-2", "snap", "proved", "decided", True, proofs=("SNAP-P1",)),
        RuleTrace("SNAP-A-3", "snap", "only in the model", "stated", True, model=("model/snap.py:3",)),
        RuleTrace("SNAP-A-4", "snap", "etiquette", "informative", False),
        RuleTrace("SNAP-A-5", "snap", "nothing", "reconciled", True),
    )
    assert [rule.id for rule in report.uncovered()] == ["SNAP-A-3", "SNAP-A-5"]
    assert coverage_failures(report) == [
        "SNAP-A-3 (stated): only in the model: cited by no test and no proof",
        "SNAP-A-5 (reconciled): nothing: cited by no test and no proof",
    ]
    assert coverage_failures(_fake(*report.rules[:2], report.rules[3])) == []
