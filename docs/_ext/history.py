"""Each rule's history, read from the changelog (``docs/changelog.rst``).

The convention: the changelog has one section per version, titled ``VERSION (DATE)`` or
``Unreleased``, each a bullet list. A change to a rule is a bullet nested under a lead-in
bullet ("New rules:", "Wording:"), and starts with the rule's ID, plain or with the ``:rule:``
role that links it (``:rule:`HEARTS-QUEEN-2```), or with a run of IDs written
``HEARTS-TERM-1…9`` (or ``HEARTS-TERM-1 to 9``). That bullet is the change of those rules
only: other IDs in its text are context. A rule's page lists every such bullet, newest first;
a rule no bullet names is unchanged since the first release.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

ID = r"(?:SNAP|HEARTS)-[A-Z]+-[0-9]+"
CITE = re.compile(rf"\b({ID})\b")
# the head of a change: ":rule:`X`", "X", or a run "X…9" / "X to 9" / "X…HEARTS-TERM-9"
HEAD = re.compile(rf"^(?::rule:`)?((?:SNAP|HEARTS)-[A-Z]+-)([0-9]+)`?"
                  rf"(?:\s*(?:…|\.\.\.|to)\s*(?:(?:SNAP|HEARTS)-[A-Z]+-)?([0-9]+))?")
VERSION = re.compile(r"^(\d+\.\d+(?:\.\d+)?(?:\S*))\s+\((\d{4}-\d{2}-\d{2})\)$|^(Unreleased)$")
BULLET = re.compile(r"^( *)- (.*)$")


def head_ids(text: str) -> list[str]:
    """The rules a change bullet is about: its leading ID, or every ID of its leading run."""
    m = HEAD.match(text)
    if m is None:
        return []
    prefix, first, last = m.group(1), int(m.group(2)), int(m.group(3) or m.group(2))
    return [f"{prefix}{n}" for n in range(first, last + 1)]


@dataclass(frozen=True)
class Change:
    version: str  # "0.2.0", or "" for the unreleased section
    lead: str  # the lead-in bullet it is nested under, without its colon ("New rules")
    text: str  # the bullet's text, joined onto one line
    rules: tuple[str, ...]  # the rules it changes (its head, a run expanded)

    def line(self) -> str:
        when = f"{self.version}" if self.version else "Next release (unreleased)"
        return f"- {when} — {self.lead}: {self.text}" if self.lead else f"- {when}: {self.text}"


@dataclass
class History:
    first: str = ""
    changes: list[Change] = field(default_factory=list)
    stray: list[str] = field(default_factory=list)  # IDs cited outside a change bullet (not literals)
    dates: dict[str, str] = field(default_factory=dict)  # release -> its date

    def of_rule(self, rule_id: str) -> list[Change]:
        return [c for c in self.changes if rule_id in c.rules]

    def of(self, rule_id: str) -> str:
        found = self.of_rule(rule_id)
        if not found:
            return f"Unchanged since the first release, {self.first}.\n" if self.first else "No recorded changes.\n"
        return "\n".join(c.line() for c in found) + "\n"

    def page(self) -> str:
        """The rules changelog: per release, newest first, only the changes to rules, with their IDs."""
        out = [".. _rules-changelog:\n\n", "=" * 15 + "\nRules changelog\n" + "=" * 15 + "\n\n",
               "What changed in the rules of each release, newest first: new rules, changed rules and "
               "rules reworded, each with its ID. The :doc:`/changelog` lists every change to the "
               "project. A rule's page lists its own changes under \"History\".\n\n"]
        versions = list(dict.fromkeys(c.version for c in self.changes))
        for version in versions:
            title = f"{version} ({self.dates[version]})" if version else "Next release (unreleased)"
            out.append(f"{title}\n{'-' * len(title)}\n\n")
            for lead in dict.fromkeys(c.lead for c in self.changes if c.version == version):
                out.append(f"{lead or 'Other'}:\n\n")
                out += [f"- {c.text}\n" for c in self.changes if c.version == version and c.lead == lead]
                out.append("\n")
        if self.first and self.first not in versions:
            title = f"{self.first} ({self.dates[self.first]})"
            out.append(f"{title}\n{'-' * len(title)}\n\nThe first release: every rule is new.\n")
        return "".join(out)


def _bullets(lines: list[str]) -> list[tuple[int, str]]:
    """(indent, text) of every bullet, continuation lines joined on."""
    out: list[tuple[int, list[str]]] = []
    for line in lines:
        m = BULLET.match(line)
        if m:
            out.append((len(m.group(1)), [m.group(2)]))
        elif out and line.strip() and line.startswith(" " * (out[-1][0] + 2)):
            out[-1][1].append(line.strip())
        elif line.strip():
            out.append((-1, []))  # a paragraph between bullets ends the list
    return [(indent, " ".join(parts)) for indent, parts in out if indent >= 0]


def load(changelog: Path) -> History:
    lines = changelog.read_text(encoding="utf-8").splitlines()
    hist = History()
    sections: list[tuple[str, list[str]]] = []
    comment = False
    for i, line in enumerate(lines):
        underline = lines[i + 1] if i + 1 < len(lines) else ""
        m = VERSION.match(line.strip())
        comment = line.startswith("..") or (comment and (not line.strip() or line.startswith(" ")))
        if m and underline.startswith("---") and len(underline.strip()) >= len(line.strip()):
            sections.append((m.group(1) or "", []))
            if m.group(1):
                hist.dates[m.group(1)] = m.group(2)
            hist.first = m.group(1) or hist.first  # the last section read is the first release
        elif sections and not comment:
            sections[-1][1].append(line)
    for version, body in sections:
        lead = ""
        for indent, text in _bullets(body):
            rules = head_ids(text)
            if indent == 0:
                # the lead-in is the bullet's last sentence, when it ends in a colon
                lead = re.split(r"(?<=\.) ", text)[-1].rstrip(":") if text.endswith(":") else ""
            if indent > 0 and rules:
                hist.changes.append(Change(version, lead, text, tuple(rules)))
            elif not text.endswith(":"):
                hist.stray += CITE.findall(re.sub(r"``.*?``", "", text))
    return hist
