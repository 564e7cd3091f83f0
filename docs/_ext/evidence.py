"""What verifies each rule: proofs (with verdicts from a verify report), tests (with verdicts
from a JUnit XML report when one is given) and the model code that cites the rule."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

from sphinx.errors import ConfigError

from cardcanon import trace
from rulebook_pages import esc, heading, rule_ref


@dataclass
class Evidence:
    report: dict | None
    report_path: str
    tests: dict[str, str] = field(default_factory=dict)  # "file::name" -> passed/failed/skipped
    coverage: dict = field(default_factory=dict)  # rule id -> trace entry

    @classmethod
    def load(cls, verify_json: str, junit_xml: str) -> Evidence:
        report = None
        if verify_json:
            path = Path(verify_json)
            if not path.is_file():
                raise ConfigError(f"cardcanon_verify_json: no such file: {verify_json}")
            try:
                report = json.loads(path.read_text(encoding="utf-8"))
            except json.JSONDecodeError as exc:
                raise ConfigError(f"{verify_json}: not a verify report: {exc}") from None
        ev = cls(report=report, report_path=verify_json)
        if junit_xml:
            ev.tests = _junit_verdicts(Path(junit_xml))
        ev.coverage = {entry.id: entry for entry in trace.collect().rules}
        return ev

    @property
    def checks(self) -> dict[str, dict]:
        return {c["id"]: c for c in (self.report or {}).get("checks", [])}

    def verified_by(self, rule) -> str:
        entry = self.coverage.get(rule.id)
        lines = []
        for check_id in (entry.proofs if entry else ()):
            lines.append(f"- Proof :ref:`{check_id} <check-{check_id}>`: {self._verdict(check_id)}")
        for test in (entry.tests if entry else ()):
            verdict = self.tests.get(test)
            lines.append(f"- Test ``{test}``" + (f": {verdict}" if verdict else ""))
        for ref in (entry.model if entry else ()):
            lines.append(f"- Model code ``{ref}``")
        if not lines:
            return ("Not verified: " + ("informative text, no effect on play." if not rule.normative
                                        else "no proof or test cites this rule.")) + "\n"
        return "\n".join(lines) + "\n"

    def _verdict(self, check_id: str) -> str:
        check = self.checks.get(check_id)
        if check is None:
            return "not run in this build" if self.report is None else "missing from the verify report"
        role = "verdict-ok" if check.get("passed", False) else "verdict-bad"
        return (f":{role}:`{check['verdict']}` (expected {check['expected']}, "
                f"{check['seconds']:.1f} s, witness {'replayed' if check['witness_replayed'] else 'NOT replayed'}, "
                f"mutants killed {sum(m['killed'] for m in check['mutants'])}/{len(check['mutants'])})")

    def verification_page(self) -> str:
        out = [".. _verification:\n\n", heading("Verification results", "=", over=True)]
        if self.report is None:
            out.append("This build was made without a verify report, so no verdicts are shown. "
                       "``python docs/build.py`` runs ``cardcanon verify --json`` first.\n\n")
            checks = []
        else:
            r = self.report
            t = r["totals"]
            out.append(f"Report of ``cardcanon verify`` started {r['started']}: {t['checks']} checks, "
                       f"{t['passed']} passed, {t['failed']} failed; mutants killed {t['mutants_killed']}/"
                       f"{t['mutants_total']}; z3 {r['z3_version']}, Python {r['python']}"
                       + (", quick bounds" if r.get("quick") else "") + ".\n\n")
            checks = r["checks"]
        for c in checks:
            out.append(f".. _check-{c['id']}:\n\n" + heading(f"{c['id']} — {c['title']}", "-"))
            rules = ", ".join(rule_ref(x) for x in c["rules"])
            out.append(f"- Rules: {rules}\n- Kind: {c['kind']}; expected: {c['expected']}; "
                       f"verdict: {self._verdict(c['id'])}\n")
            if c.get("detail"):
                out.append(f"- Detail: {esc(' '.join(c['detail'].split()))}\n")
            plain = {k: v for k, v in (c.get("stats") or {}).items() if not isinstance(v, (dict, list))}
            if plain:
                out.append("- Stats: " + esc(", ".join(f"{k} = {v}" for k, v in plain.items())) + "\n")
            for m in c["mutants"]:
                out.append(f"- Mutant ``{m['id']}`` ({esc(m['description'])}): {m['verdict']}, "
                           f"{'killed' if m['killed'] else 'SURVIVED'}\n")
            if c.get("witness"):
                out.append("\nWitness::\n\n" + "".join(f"   {line}\n" for line in c["witness"].splitlines()))
            out.append("\n")
        # checks that rules cite but the report lacks still need an anchor for the rule pages' links
        missing = sorted({p for e in self.coverage.values() for p in e.proofs} - {c["id"] for c in checks})
        if missing:
            out.append(heading("Checks not in this report", "-"))
            for check_id in missing:
                out.append(f".. _check-{check_id}:\n\n**{check_id}**: not run in this build.\n\n")
        return "".join(out)


def _junit_verdicts(path: Path) -> dict[str, str]:
    if not path.is_file():
        raise ConfigError(f"cardcanon_junit_xml: no such file: {path}")
    verdicts = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        # classname: "tests.test_x" or "tests.test_x.TestClass" (trace: "tests/test_x.py::TestClass::name")
        parts = case.get("classname", "").split(".")
        if parts and parts[0] == "tests":
            parts = parts[1:]
        file, classes = f"tests/{parts[0]}.py", parts[1:]
        name = "::".join([file, *classes, case.get("name", "")])
        state = "passed"
        for tag, word in (("failure", "failed"), ("error", "error"), ("skipped", "skipped")):
            if case.find(tag) is not None:
                state = word
        verdicts[name] = state
    return verdicts
