"""Each rule's history, read from the changelog (``docs/changelog.rst``).

The convention: the changelog has one section per version, titled ``VERSION (DATE)`` or
``Unreleased``, each a bullet list; an entry that adds, changes or withdraws a rule names its
ID, plain or with the ``:rule:`` role that links it (``:rule:`HEARTS-QUEEN-2```). A rule's
page lists every entry that names it, newest first; a rule no entry names is unchanged since
the first release.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

CITE = re.compile(r"\b((?:SNAP|HEARTS)-[A-Z]+-[0-9]+)\b")
VERSION = re.compile(r"^(\d+\.\d+(?:\.\d+)?(?:\S*))\s+\((\d{4}-\d{2}-\d{2})\)$|^(Unreleased)$")


@dataclass
class History:
    first: str = ""
    entries: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # rule -> [(version, text)]

    def of(self, rule_id: str) -> str:
        found = self.entries.get(rule_id, [])
        if not found:
            return f"Unchanged since the first release, {self.first}.\n" if self.first else "No recorded changes.\n"
        lines = [f"- {version}: {text}" for version, text in found]
        return "\n".join(lines) + "\n"


def load(changelog: Path) -> History:
    lines = changelog.read_text(encoding="utf-8").splitlines()
    hist, version, item = History(), None, []

    def flush() -> None:
        if version and item:
            text = " ".join(part.strip() for part in item)
            for rule_id in dict.fromkeys(CITE.findall(text)):
                hist.entries.setdefault(rule_id, []).append((version, text))
        item.clear()

    for i, line in enumerate(lines):
        underline = lines[i + 1] if i + 1 < len(lines) else ""
        m = VERSION.match(line.strip())
        if m and underline.startswith("---") and len(underline.strip()) >= len(line.strip()):
            flush()
            released = m.group(1)
            version = f"Changed in {released}" if released else "Changed in the next release"
            hist.first = released or hist.first  # the last section read is the first release
            continue
        if line.startswith("- "):
            flush()
            item.append(line[2:])
        elif line.startswith("  ") and item:
            item.append(line)
        else:
            flush()
    flush()
    return hist
