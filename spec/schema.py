"""The rulebook's data types: frozen dataclasses and enums, as described in ``FORMAT.md``.

:mod:`cardcanon.spec.loader` builds them from the TOML files and validates them; nothing here
reads files except :attr:`Source.text`, which reads its document on first use and checks its
SHA-256.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from pathlib import Path
from typing import Any

from cardcanon.spec.errors import CardcanonError

GAMES = ("hearts", "snap")  # every game, in the order reports list them
RULE_ID_TEXT = r"(?:HEARTS|SNAP)-[A-Z]+-[0-9]+"  # a rule ID; the JSON Schemas spell it as ID_PATTERN
ID_PATTERN = rf"^{RULE_ID_TEXT}$"
RULE_ID = re.compile(rf"\b{RULE_ID_TEXT}\b")  # a rule ID inside a text
ID_PREFIX = {"snap": "SNAP", "hearts": "HEARTS"}


class SpecError(CardcanonError):
    """A problem in a rulebook or source file.

    The message reads ``<file>: rule <ID>: field '<f>': <problem>``; the rule part names the
    entry (``rule #3``, ``nonrule #2``, ``source hy-snap``) when there is no usable ID, and the
    parts that do not apply are left out.
    """

    def __init__(self, file: str, problem: str, *, entry: str | None = None, field: str | None = None) -> None:
        parts = [str(file)]
        if entry:
            parts.append(entry)
        if field:
            parts.append(f"field '{field}'")
        parts.append(problem)
        super().__init__(": ".join(parts))
        self.file = str(file)
        self.entry = entry
        self.field = field
        self.problem = problem


class Status(StrEnum):
    """How a rule's canonical text relates to the sources (FORMAT.md, "Statuses")."""

    STATED = "stated"
    RECONCILED = "reconciled"
    RECONSTRUCTED = "reconstructed"
    DECIDED = "decided"
    VARIANT = "variant"
    INFORMATIVE = "informative"


# statuses whose text is not a plain statement of the sources, so it needs a rationale
NEEDS_RATIONALE = frozenset({Status.RECONCILED, Status.RECONSTRUCTED, Status.DECIDED, Status.VARIANT})
# statuses whose text the sources speak to, so at least one quote is expected
NEEDS_QUOTE = frozenset({Status.STATED, Status.RECONCILED, Status.RECONSTRUCTED})


class DiscrepancyKind(StrEnum):
    MISTRANSLATED_WORD = "mistranslated-word"
    LOST_SENTENCE = "lost-sentence"
    LOST_WORD = "lost-word"
    CHANGED_NUMBER = "changed-number"
    CHANGED_NAME = "changed-name"
    CHANGED_DIRECTION = "changed-direction"
    CHANGED_RECIPIENT = "changed-recipient"
    CHANGED_PILE = "changed-pile"
    CHANGED_CARD = "changed-card"
    CHANGED_MEANING = "changed-meaning"
    GARBLED_SENTENCE = "garbled-sentence"
    GARBLED_HEADING = "garbled-heading"
    MARKUP = "markup"
    WEB_DEBRIS = "web-debris"


class NonRuleKind(StrEnum):
    TITLE = "title"
    HEADING = "heading"
    WEB_DEBRIS = "web-debris"
    MARKUP = "markup"
    METADATA = "metadata"


class Direction(StrEnum):
    LTR = "ltr"
    RTL = "rtl"


@dataclass(frozen=True)
class Source:
    """One source document and its metadata from ``sources/sources.toml``."""

    id: str
    file: str
    sha256: str
    game: str
    language: str
    language_name: str
    direction: Direction
    provenance: str
    path: Path = field(compare=False)
    metadata_file: str = field(default="sources.toml", compare=False, repr=False)

    @cached_property
    def text(self) -> str:
        """The document's text, read on first use; raises :class:`SpecError` if its SHA-256
        differs from the recorded one or it is not UTF-8."""
        try:
            data = self.path.read_bytes()
        except OSError as exc:
            raise SpecError(self.metadata_file, f"cannot read {self.path}: {exc.strerror or exc}",
                            entry=f"source {self.id}", field="file") from None
        digest = hashlib.sha256(data).hexdigest()
        if digest != self.sha256:
            raise SpecError(self.metadata_file, f"{self.file} has SHA-256 {digest}, expected {self.sha256}",
                            entry=f"source {self.id}", field="sha256")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SpecError(self.metadata_file, f"{self.file} is not UTF-8 (byte {exc.start})",
                            entry=f"source {self.id}", field="file") from None

    def to_json(self) -> dict[str, Any]:
        """The metadata (not the text) as a plain dict."""
        return {
            "id": self.id, "file": self.file, "sha256": self.sha256, "game": self.game,
            "language": self.language, "language_name": self.language_name,
            "direction": self.direction.value, "provenance": self.provenance,
        }


@dataclass(frozen=True)
class Quote:
    """A verbatim ``span`` of a source and its literal English ``gloss``."""

    source: str
    span: str
    gloss: str
    language: str | None = None  # the source's language code, filled in by the loader

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "language": self.language, "span": self.span, "gloss": self.gloss}


@dataclass(frozen=True)
class Discrepancy:
    """Where sources differ or one is garbled, and how the rulebook rules on it."""

    sources: tuple[str, ...]
    kind: DiscrepancyKind
    what: str
    ruling: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"sources": list(self.sources), "kind": self.kind.value, "what": self.what,
                "ruling": self.ruling, "reason": self.reason}


@dataclass(frozen=True)
class Option:
    value: str
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "text": self.text}


@dataclass(frozen=True)
class Variation:
    """A model parameter with its default and its options."""

    parameter: str
    default: str
    options: tuple[Option, ...]

    def to_json(self) -> dict[str, Any]:
        return {"parameter": self.parameter, "default": self.default,
                "options": [option.to_json() for option in self.options]}


@dataclass(frozen=True)
class Rule:
    """One rule: stable ID, canonical text (the contract models implement) and its evidence."""

    id: str
    title: str
    section: str
    status: Status
    text: str
    normative: bool
    rationale: str | None
    variation: Variation | None
    quotes: tuple[Quote, ...]
    discrepancies: tuple[Discrepancy, ...]
    values: Mapping[str, int] = field(default_factory=dict, hash=False)  # [rule.values]
    summary: str | None = None  # one sentence for the how-to-play text (FORMAT.md, "Summaries")
    checks: tuple[str, ...] = ()  # for a proved fact: the checks (proofs/manifest) that prove it

    @property
    def game(self) -> str:
        return "hearts" if self.id.startswith("HEARTS-") else "snap"

    def value(self, name: str) -> int:
        """The named number ``name`` this rule's text states; :class:`SpecError` when undeclared."""
        if name not in self.values:
            declared = ", ".join(self.values) or "none"
            raise SpecError(self.game, f"no value {name!r} (declared: {declared})", entry=f"rule {self.id}",
                            field="values")
        return self.values[name]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "game": self.game, "title": self.title, "section": self.section,
            "status": self.status.value, "normative": self.normative, "text": self.text,
            "rationale": self.rationale,
            "values": dict(self.values),
            "variation": self.variation.to_json() if self.variation else None,
            "quotes": [quote.to_json() for quote in self.quotes],
            "discrepancies": [d.to_json() for d in self.discrepancies],
            "summary": self.summary, "checks": list(self.checks),
        }


@dataclass(frozen=True)
class HowtoPart:
    """One part of the how-to-play text: its title and the rulebook sections it draws on."""

    title: str
    sections: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title, "sections": list(self.sections)}


@dataclass(frozen=True)
class NonRule:
    """Source text that is not a rule (a title, a heading, web-page debris, markup)."""

    source: str
    kind: NonRuleKind
    span: str
    gloss: str
    language: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "language": self.language, "kind": self.kind.value,
                "span": self.span, "gloss": self.gloss}


@dataclass(frozen=True)
class Rulebook:
    """A validated rulebook: its rules in rulebook order, non-rules and sources."""

    game: str
    title: str
    sources: tuple[Source, ...]
    rules: tuple[Rule, ...]
    nonrules: tuple[NonRule, ...]
    file: str = field(default="", compare=False)
    howto: tuple[HowtoPart, ...] = ()

    def rule(self, rule_id: str) -> Rule:
        """The rule with this ID; :class:`SpecError` (not ``KeyError``) when there is none."""
        for rule in self.rules:
            if rule.id == rule_id:
                return rule
        import difflib

        close = difflib.get_close_matches(rule_id, [r.id for r in self.rules], n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise SpecError(self.file or self.game, f"no such rule in the {self.game} rulebook{hint}",
                        entry=f"rule {rule_id}")

    def value(self, rule_id: str, name: str) -> int:
        """The named number ``name`` of rule ``rule_id`` (``[rule.values]``)."""
        return self.rule(rule_id).value(name)

    def variation(self, parameter: str) -> tuple[Rule, Variation]:
        """The rule that declares the variation point ``parameter``, and the variation."""
        for rule in self.rules:
            if rule.variation is not None and rule.variation.parameter == parameter:
                return rule, rule.variation
        known = ", ".join(r.variation.parameter for r in self.rules if r.variation)
        raise SpecError(self.file or self.game, f"no variation point {parameter!r} (known: {known})")

    def variations(self) -> tuple[tuple[Rule, Variation], ...]:
        """Every variation point, in rulebook order, with the rule that declares it."""
        return tuple((rule, rule.variation) for rule in self.rules if rule.variation is not None)

    def sections(self) -> list[tuple[str, tuple[Rule, ...]]]:
        """``(section, rules)`` pairs, sections in order of first appearance."""
        grouped: dict[str, list[Rule]] = {}
        for rule in self.rules:
            grouped.setdefault(rule.section, []).append(rule)
        return [(section, tuple(rules)) for section, rules in grouped.items()]

    def source(self, source_id: str) -> Source:
        for source in self.sources:
            if source.id == source_id:
                return source
        raise SpecError(self.file or self.game, f"no source {source_id!r} in the {self.game} rulebook")

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "title": self.title,
            "sources": [source.to_json() for source in self.sources],
            "rules": [rule.to_json() for rule in self.rules],
            "nonrules": [nonrule.to_json() for nonrule in self.nonrules],
            "howto": [part.to_json() for part in self.howto],
        }
