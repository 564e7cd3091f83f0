"""How to play, generated from the rules' one-sentence summaries (FORMAT.md, "Summaries").

The parts of the text and the sections each draws on are the rulebook's ``[[howto]]`` tables;
within a part the sentences follow rulebook order, each carrying its rule's ID. The command
``cardcanon rules GAME --summary`` prints :func:`text`; the site's how-to-play pages are built
from :func:`parts` too, so the two cannot differ.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from cardcanon.spec.schema import Rulebook


@dataclass(frozen=True)
class Sentence:
    """One summary sentence and the rule it summarises."""

    rule_id: str
    text: str

    def plain(self) -> str:
        """The sentence as printed: the text, then the rule ID in brackets."""
        return f"{self.text} [{self.rule_id}]"


@dataclass(frozen=True)
class Part:
    """A part of the how-to text: "What you need", "The deal", ..."""

    title: str
    sentences: tuple[Sentence, ...]


def title(book: Rulebook) -> str:
    return f"How to play {book.title}"


def parts(book: Rulebook) -> tuple[Part, ...]:
    """The how-to parts of ``book``, each with the summaries of its sections' rules in order."""
    out = []
    for part in book.howto:
        wanted = set(part.sections)
        sentences = tuple(Sentence(rule.id, rule.summary) for rule in book.rules
                          if rule.section in wanted and rule.summary)
        out.append(Part(part.title, sentences))
    return tuple(out)


def text(book: Rulebook, width: int = 80) -> str:
    """The how-to text as printed by ``cardcanon rules GAME --summary``."""
    heading = title(book)
    lines = [heading, "=" * len(heading)]
    for part in parts(book):
        lines += ["", part.title, "-" * len(part.title)]
        for sentence in part.sentences:
            lines += textwrap.wrap(sentence.plain(), width, initial_indent="- ", subsequent_indent="  ",
                                   break_on_hyphens=False)
    return "\n".join(lines)
