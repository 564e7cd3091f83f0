"""The canonical rulebook of Snap and two-player Hearts, and the source documents it reconciles.

>>> import cardcanon.spec as spec
>>> spec.load("snap").rule("SNAP-FLIP-1").title
'Flipping a card'

Data: ``snap.toml`` and ``hearts.toml`` (format in ``FORMAT.md``), ``sources/`` (the documents,
byte for byte as received, and ``sources.toml``). Every problem raises :class:`SpecError`.
"""

from __future__ import annotations

from cardcanon.spec.coverage import Coverage
from cardcanon.spec.loader import SOURCES_FILE, check_unique_ids, load_file, load_sources, rulebook_path, source_by_id
from cardcanon.spec.schema import (
    GAMES, Direction, Discrepancy, DiscrepancyKind, HowtoPart, NonRule, NonRuleKind, Option, Quote, Rule, Rulebook,
    Source, SpecError, Status, Variation,
)

__all__ = [
    "GAMES", "Coverage", "Direction", "Discrepancy", "DiscrepancyKind", "HowtoPart", "NonRule", "NonRuleKind",
    "Option", "Quote", "Rule", "Rulebook", "Source", "SpecError", "Status", "Variation", "all_rule_ids", "clear_cache",
    "coverage", "load", "load_file", "load_sources", "sources",
]

_rulebooks: dict[str, Rulebook] = {}
_sources: tuple[Source, ...] | None = None


def sources() -> tuple[Source, ...]:
    """The source documents listed in ``sources/sources.toml`` (cached)."""
    global _sources
    if _sources is None:
        _sources = load_sources(SOURCES_FILE)
    return _sources


def load(game: str) -> Rulebook:
    """The validated rulebook of ``game`` (``"snap"`` or ``"hearts"``), cached."""
    if game not in _rulebooks:
        book = load_file(rulebook_path(game), sources())
        if book.game != game:
            raise SpecError(book.file, f"expected {game!r}, found {book.game!r}", field="game")
        _rulebooks[game] = book
    return _rulebooks[game]


def all_rule_ids() -> frozenset[str]:
    """Every rule ID of both games; :class:`SpecError` if an ID appears in both."""
    return check_unique_ids(load(game) for game in GAMES)


def coverage(source: str | Source, rulebook: Rulebook | None = None) -> Coverage:
    """How much of a source the quotes and non-rule spans of ``rulebook`` cover (by default
    the rulebook of the source's game)."""
    if isinstance(source, str):
        source = source_by_id(source, rulebook.sources if rulebook is not None else sources())
    if rulebook is None:
        rulebook = load(source.game)
    spans = [quote.span for rule in rulebook.rules for quote in rule.quotes if quote.source == source.id]
    spans += [entry.span for entry in rulebook.nonrules if entry.source == source.id]
    return Coverage.compute(source.id, source.text, spans)


def clear_cache() -> None:
    """Forget loaded rulebooks and sources (for long-lived processes whose files changed)."""
    global _sources
    _rulebooks.clear()
    _sources = None
