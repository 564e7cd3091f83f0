"""What each rule status promises, checked against the rule's fields (FORMAT.md, "Statuses").

:func:`status_problems` lists every way a rule's status disagrees with its rationale,
variation, quotes and discrepancies; the rulebook test requires the list to be empty.
"""

from __future__ import annotations

from cardcanon.spec.schema import DiscrepancyKind, Rule, Status

# A word read by its meaning, or page debris around the rule's sentence, or a garbled heading
# above it: the rule's own sentence is still there to be read, so the rule can be "stated".
READABLE_KINDS = frozenset({DiscrepancyKind.MISTRANSLATED_WORD, DiscrepancyKind.WEB_DEBRIS,
                            DiscrepancyKind.GARBLED_HEADING})
# Text lost or garbled: what the sentence says had to be rebuilt, so the rule is "reconstructed"
# (or reconciled, decided, variant, informative when those describe it better).
DAMAGE_KINDS = frozenset({DiscrepancyKind.LOST_SENTENCE, DiscrepancyKind.LOST_WORD, DiscrepancyKind.GARBLED_SENTENCE,
                          DiscrepancyKind.MARKUP, DiscrepancyKind.CHANGED_MEANING})


def status_problems(rule: Rule) -> list[str]:
    """Every disagreement between ``rule.status`` and the rest of the rule (empty if none)."""
    problems: list[str] = []
    status = rule.status
    kinds = {d.kind for d in rule.discrepancies}
    if status is Status.STATED:
        unreadable = sorted(kind.value for kind in kinds - READABLE_KINDS)
        if unreadable:
            problems.append(f"stated, but a discrepancy says the source text is not plain ({', '.join(unreadable)})")
        if rule.rationale:
            problems.append("stated, but it has a rationale: a ruling of ours makes it reconciled, "
                            "reconstructed or decided")
        if rule.variation:
            problems.append("stated, but it has a variation point: people play it differently, so it is decided")
        if not rule.quotes:
            problems.append("stated, but no source is quoted")
    if status is Status.RECONSTRUCTED:
        if not kinds & DAMAGE_KINDS:
            problems.append("reconstructed, but no discrepancy records lost or garbled text "
                            f"({', '.join(sorted(k.value for k in DAMAGE_KINDS))})")
        if not rule.quotes:
            problems.append("reconstructed, but no source is quoted")
    if status is Status.RECONCILED and not rule.quotes:
        problems.append("reconciled, but no source is quoted")
    if status is Status.VARIANT and rule.variation is None:
        problems.append("variant, but it has no variation point")
    if status is Status.INFORMATIVE:
        if rule.normative:
            problems.append("informative, but marked normative")
        if rule.variation:
            problems.append("informative, but it has a variation point")
    elif rule.checks:
        problems.append(f"{status.value}, but it cites checks: only informative rules state proved facts")
    return problems
