"""What verifies each rule: proofs (with verdicts from a verify report), tests (with verdicts
from a JUnit XML report when one is given) and the model code that cites the rule.

The verify report gives each check its verdict under the default rules and, when the check
runs under variants, a ``results`` entry per variant; and, per check, the ``necessity`` cells:
whether breaking each cited rule in the reference model makes the check fail."""

from __future__ import annotations

import html
import json
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

from sphinx.errors import ConfigError

import sources
from rulebook_pages import esc, heading, indent, raw_html, rule_ref

from cardcanon import trace


NO_TEST_VERDICTS = ("*No test verdicts: this build ran no tests.* ``python docs/build.py --tests`` runs "
                    "the test suite first and shows each test's verdict here.")


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
            lines.append(f"- Proof :ref:`{check_id} <check-{check_id}>` "
                         f"(:ref:`code <{sources.check_label(check_id)}>`): {self._verdict(check_id)}"
                         + self._necessity(check_id, rule.id) + self._scope(check_id) + self._premises(check_id))
        tests = entry.tests if entry else ()
        for test in tests:
            verdict = f": {self.test_verdict(test)}" if self.tests else ""
            lines.append(f"- Test :ref:`{esc(test)} <{sources.test_label(test)}>`{verdict}")
        for ref in (entry.model if entry else ()):
            lines.append(f"- Model code :ref:`{ref} <{sources.model_label(ref)}>`")
        if not lines:
            return ("Not verified: " + ("informative text, no effect on play." if not rule.normative
                                        else "no proof or test cites this rule.")) + "\n"
        if tests and not self.tests:
            lines.append(f"\n{NO_TEST_VERDICTS}")
        return (self._summary(entry) + "\n\n" + raw_html('<details class="verified-by"><summary>Each proof, test and '
                                                         'place in the model code</summary>')
                + ".. container:: verified-by\n\n" + indent("\n".join(lines)) + "\n\n" + raw_html("</details>"))

    def _summary(self, entry) -> str:
        """One line: how many proofs and tests, and their verdicts."""
        parts = []
        if entry.proofs:
            words = [self._word(c) for c in entry.proofs]
            parts.append(_count(len(entry.proofs), "proof") + ": " + _tally(words))
        if entry.tests:
            if self.tests:
                words = [self.test_word(t) for t in entry.tests]
                parts.append(_count(len(entry.tests), "test") + ": " + _tally(words))
            else:
                parts.append(_count(len(entry.tests), "test") + " (no verdicts in this build)")
        if entry.model:
            parts.append("cited in " + _count(len(entry.model), "place") + " of the model code")
        return "; ".join(parts) + "."

    def _scope(self, check_id: str) -> str:
        """What the check covers, in words ("2–3 players of the rulebook's 2–12; ...")."""
        scope = (self.checks.get(check_id) or {}).get("scope")
        if not scope:
            return ""
        return f"; scope: {esc(scope.get('words', ''))}"

    def _premises(self, check_id: str) -> str:
        """The checks it rests on, each a link with its status ("" when none)."""
        premises = (self.checks.get(check_id) or {}).get("premises") or []
        return "; rests on " + ", ".join(_premise(p) for p in premises) if premises else ""

    def _word(self, check_id: str) -> str:
        check = self.checks.get(check_id)
        if check is None:
            return "no verdict"
        if check.get("status") == "not-applicable":
            return "not applicable"
        return check["verdict"] if check.get("passed") else "failed"

    def _necessity(self, check_id: str, rule_id: str) -> str:
        """Whether breaking the rule in the model makes the check fail, when the report says."""
        check = self.checks.get(check_id) or {}
        cells = [c for c in check.get("necessity", []) if c.get("rule") == rule_id]
        if not cells:
            return ""
        killers = [c["model_mutant"] + (f" under {c['variant']}" if c.get("variant", "default") != "default" else "")
                   for c in cells if c.get("killed") and c.get("model_mutant")]
        bindings = [b for b in check.get("bindings", []) if b.get("rule") == rule_id]
        unbound = [b["variant"] for b in bindings if not b.get("bound")]
        if killers:
            text = "; breaking this rule in the model makes it fail (" + ", ".join(f"``{m}``" for m in killers) + ")"
            if unbound:
                text += "; unbound (not counted) under " + ", ".join(esc(v) for v in unbound)
        else:
            text = "; :verdict-bad:`breaking this rule in the model does not make it fail`"
        return text + self._vacuity(check, rule_id)

    @staticmethod
    def _vacuity(check: dict, rule_id: str) -> str:
        """Whether the proof still holds with the rule's constraints dropped (Z3 proofs only)."""
        probe = next((m for m in _probes(check) if m.get("id") == f"drop:{rule_id}"), None)
        if probe is None:
            return ""
        if probe.get("killed"):
            return "; without this rule's constraints the proof fails"
        return "; :verdict-bad:`the proof holds without this rule's constraints`"

    def _cases(self, test: str) -> list[str]:
        """The verdicts of a test's cases in the JUnit report (a parametrized test has several)."""
        return [v for name, v in self.tests.items() if name == test or name.startswith(test + "[")]

    def test_word(self, test: str) -> str:
        cases = self._cases(test)
        if not cases:
            return "no verdict"
        if any(v in ("failed", "error") for v in cases):
            return "failed"
        return "passed" if "passed" in cases else "skipped"

    def test_verdict(self, test: str) -> str:
        """A test's verdict from the JUnit report; a parametrized test counts every case."""
        cases, word = self._cases(test), self.test_word(test)
        if not cases:
            return "no verdict: not in the test report (deselected, or a slow test this run left out)"
        shown = {"failed": ":verdict-bad:`failed`", "passed": ":verdict-ok:`passed`"}.get(word, word)
        if len(cases) == 1:
            return shown
        counts = {v: cases.count(v) for v in dict.fromkeys(cases)}
        return f"{shown} (" + ", ".join(f"{n} {v}" for v, n in counts.items()) + f" of {len(cases)} cases)"

    def _summary_table(self) -> str:
        """Every check in one table: check, verdict, scope and rules, each check linked to its entry."""
        rows = [".. list-table:: Summary: every check\n   :header-rows: 1\n   :class: stacked verify-summary\n"
                "   :widths: 26 14 36 24\n\n", "   * - Check\n     - Verdict\n     - Scope\n     - Rules\n"]
        for check_id, c in self.checks.items():
            word = self._word(check_id)
            verdict = f":verdict-ok:`{word}`" if c.get("passed") else f":verdict-bad:`{word}`"
            scope = "; ".join(str((c.get("scope") or {}).get("words", "")).split("; ")[:2]) or "not stated"
            rules = ", ".join(rule_ref(x) for x in c["rules"])
            rows.append(f"   * - :ref:`{check_id} <check-{check_id}>`\n     - {verdict}\n     - {esc(scope)}\n"
                        f"     - {rules}\n")
        return "".join(rows) + "\n"

    def _verdict(self, check_id: str) -> str:
        """The check's verdict, then its verdict under each variant the report gives."""
        check = self.checks.get(check_id)
        if check is None:
            return ("no verdict: this build had no verify report (``python docs/build.py`` makes one)"
                    if self.report is None else "no verdict: missing from the verify report")
        role = "verdict-ok" if check.get("passed", False) else "verdict-bad"
        if check.get("status") == "not-applicable":
            return (":verdict-bad:`not applicable` (neither passed nor failed: it could not run what it claims); "
                    + "; ".join(f"variant {_variant(r)}: {_variant_verdict(r)}" for r in check.get("results", [])))
        probes = _probes(check)
        replayed = ("" if check["verdict"] == "no witness" else
                    ", witness replayed" if check.get("witness_replayed") else ", witness NOT replayed")
        text = (f":{role}:`{check['verdict']}` (expected {check['expected']}, {check['seconds']:.1f} s{replayed}"
                + (f", probes killed {sum(p['killed'] for p in probes)}/{len(probes)}" if probes else "") + ")")
        variants = [r for r in check.get("results", []) if r.get("variant", "default") != "default"]
        if variants:
            text += "; " + "; ".join(f"variant {_variant(r)}: {_variant_verdict(r)}" for r in variants)
        return text

    def verification_page(self) -> str:
        out = [".. _verification:\n\n", heading("Verification results", "=", over=True)]
        if self.report is None:
            out.append("This build was made without a verify report, so no verdicts are shown. "
                       "``python docs/build.py`` runs ``cardcanon verify --json`` first.\n\n")
        else:
            r = self.report
            t = r["totals"]
            out.append(f"Report of ``cardcanon verify`` started {r['started']}: {t['checks']} checks, "
                       f"{t['passed']} passed, {t['failed']} failed, {t.get('not_applicable', 0)} not applicable "
                       f"(neither passed nor failed: the check could not run what it claims); z3 {r['z3_version']}, Python {r['python']}"
                       + (", quick bounds" if r.get("quick") else "") + ".\n\n")
            made = r.get("provenance")
            if made:
                out.append(f"Made by cardcanon {made['version']} at commit ``{made['commit']}`` with "
                           f"``{_no_paths(made['command'])}``.\n\n")
            out.append(self._summary_table())
        out.append("Test verdicts: " + (f"{len(self.tests)} test cases in the JUnit report of this build.\n\n"
                                         if self.tests else
                                         "none in this build, which ran no tests; ``python docs/build.py --tests`` "
                                         "runs the test suite first and shows each test's verdict on the rule "
                                         "pages.\n\n"))
        for check_id, c in self.checks.items():
            out.append(f".. _check-{check_id}:\n\n" + heading(f"{check_id} — {esc(c['title'])}", "-"))
            rules = ", ".join(rule_ref(x) for x in c["rules"])
            out.append(f"- Rules: {rules}\n- Kind: {c['kind']}; expected: {c['expected']}; "
                       f"code: :ref:`entry point <{sources.check_label(check_id)}>`\n"
                       f"- Verdict: {self._verdict(check_id)}\n")
            if c.get("scope"):
                out.append(f"- Scope: {esc(c['scope'].get('words', ''))}\n")
            if c.get("premises"):
                out.append("- Rests on (proved only where each passed under the same variant): "
                           + "; ".join(_chain(p) for p in c["premises"]) + "\n")
            if c.get("bridge"):
                out.append(f"- Tied to the model by the check itself: {esc(c['bridge'])}\n")
            pair = c.get("second_solver") or {}
            if pair.get("off"):
                out.append(f"- Second solver: off: {esc(pair['off'])}\n")
            elif pair.get("queries") is not None:
                out.append(f"- Second solver: cvc5 decided {pair['queries']} queries again, "
                           + ("all alike\n" if pair.get("agree") else ":verdict-bad:`not all alike`\n"))
            if c.get("no_drop_probes"):
                out.append(f"- No drop probes: {esc(c['no_drop_probes'])}\n")
            if c.get("detail"):
                out.append(f"- Detail: {esc(' '.join(c['detail'].split()))}\n")
            plain = {k: v for k, v in (c.get("stats") or {}).items() if not isinstance(v, (dict, list))}
            if plain:
                out.append("- Counts: " + esc(", ".join(f"{k.replace('_', ' ')} {v}" for k, v in plain.items())) + "\n")
            for m in _probes(c):
                out.append(f"- Probe ``{m['id']}`` ({esc(m['description'])}): {m['verdict']}, "
                           f"{'killed' if m['killed'] else 'SURVIVED'}\n")
            lost = {}
            for cell in c.get("necessity", []):
                lost.setdefault(cell["rule"], []).append(cell)
            for rule_id, cells in lost.items():
                killed = [x["model_mutant"] for x in cells if x.get("killed") and x.get("model_mutant")]
                out.append(f"- Necessity, {rule_ref(rule_id)}: " + (
                    "the check fails when the model breaks this rule (" + ", ".join(f"``{m}``" for m in killed) + ")"
                    if killed else ":verdict-bad:`the check does not fail when the model breaks this rule`")
                    + self._vacuity(c, rule_id) + "\n")
            if c.get("explanation"):  # the text of ``cardcanon verify --explain``
                out.append(_folded("In words (cardcanon verify --explain)", c["explanation"]))
            elif c.get("witness"):
                out.append(_folded("Witness", c["witness"]))
            out.append("\n")
        # checks that rules cite but the report lacks still need an anchor for the rule pages' links
        missing = sorted({p for e in self.coverage.values() for p in e.proofs} - set(self.checks))
        if missing:
            out.append(heading("Checks not in this report", "-"))
            for check_id in missing:
                out.append(f".. _check-{check_id}:\n\n**{check_id}**: {self._verdict(check_id)}.\n\n")
        return "".join(out)


def _no_paths(command: str) -> str:
    """A command as a reader may retype it: a file path of the machine that ran it shows as its name."""
    return " ".join(Path(word).name if word.startswith("/") else word for word in command.split())


def _folded(title: str, text: str) -> str:
    """A block of code behind a cue: a summary line that says how long it is, opened on demand."""
    lines = text.splitlines()
    cue = f'<details class="long-code"><summary>{html.escape(title)}: {len(lines)} lines, shown on demand</summary>'
    return ("\n" + raw_html(cue) + "::\n\n" + "".join(f"   {line}\n" for line in lines) + "\n"
            + raw_html("</details>"))


def _probes(check: dict) -> list[dict]:
    """The check's encoding probes (``probes`` in newer reports, ``mutants`` in older ones)."""
    return list(check.get("probes", check.get("mutants", [])))


def _premise(premise: dict) -> str:
    """A premise as a link to its section, with its status."""
    status = premise.get("status", "")
    shown = status if status == "passed" else f":verdict-bad:`{status.replace('-', ' ')}`"
    return f":ref:`{premise['id']} <check-{premise['id']}>` ({shown})"


def _chain(premise: dict) -> str:
    """A premise, its state under each variant where it did not pass, and the premises it rests on in turn."""
    bad = [f"{esc(name)} {state}" for name, state in premise.get("results", {}).items() if state != "passed"]
    text = _premise(premise) + (f" (under {', '.join(bad)})" if bad else "")
    below = premise.get("premises") or []
    return text + (", which rests on " + ", ".join(_chain(p) for p in below) if below else "")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _tally(words: list[str]) -> str:
    """``["proved", "proved", "failed"]`` -> "2 proved, 1 failed", a failure marked as such."""
    counts = {w: words.count(w) for w in dict.fromkeys(words)}
    return ", ".join(f":verdict-bad:`{n} {w}`" if w in ("failed", "error", "not applicable") else
                     (f"{n} {w}" if w in ("no verdict", "skipped") else f":verdict-ok:`{n} {w}`")
                     for w, n in counts.items())


def _variant(result: dict) -> str:
    options = result.get("options")
    if isinstance(options, dict) and options:
        return esc(", ".join(f"{k}={v}" for k, v in options.items()))
    return esc(str(result.get("variant", "default")))


def _variant_verdict(result: dict) -> str:
    ok = (result.get("verdict") == result.get("expected") and not result.get("replay_problems")
          and not result.get("engine_disagreed"))
    role = "verdict-ok" if ok else "verdict-bad"
    if result.get("verdict") == "not-applicable":
        return f":verdict-bad:`not applicable` ({esc(' '.join(str(result.get('detail', '')).split()))})"
    engine = result.get("engine_replay")
    return (f":{role}:`{result.get('verdict')}` (expected {result.get('expected')}"
            + (", witness replayed" if result.get("witness_replayed") and result.get("verdict") != "no witness" else "")
            + (f", engine replay {engine}" if engine else "") + ")")


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
