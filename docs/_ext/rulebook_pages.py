"""reST for the rule pages and the reconciliation pages, generated from ``cardcanon.spec``."""

from __future__ import annotations

import html
import re
import textwrap

from cardcanon import spec

STATUS_NOTE = {
    "stated": "the sources agree",
    "reconciled": "the sources differ; ruling given",
    "reconstructed": "text lost or garbled in a source; rebuilt from evidence",
    "decided": "no source settles it; our ruling",
    "variant": "optional rule with a default",
    "informative": "no effect on play",
}


def heading(text: str, char: str, over: bool = False) -> str:
    line = char * max(len(text), 3)
    return f"{line}\n{text}\n{line}\n\n" if over else f"{text}\n{line}\n\n"


def indent(text: str, by: int = 3) -> str:
    return textwrap.indent(text, " " * by)


def _esc_plain(text: str) -> str:
    out = text.replace("\\", "\\\\")
    for ch in "*`|_":
        out = out.replace(ch, "\\" + ch)
    return out


_HE, _HY = "\u0590-\u05ff\ufb1d-\ufb4f", "\u0530-\u058f\ufb13-\ufb17"
_GLUE = "\\s\\-'\".,:;()\u05be\u05f3\u05f4"
SCRIPT_RUN = re.compile(f"([{_HE}](?:[{_GLUE}]*[{_HE}])*|[{_HY}](?:[{_GLUE}«»!]*[{_HY}»])*)")


def esc(text: str) -> str:
    """Escape reST inline markup in prose taken from data, and isolate each run of Hebrew or
    Armenian in it (``<bdi>`` with its language and direction) from the English around it."""
    parts = SCRIPT_RUN.split(text)
    out = []
    for i, part in enumerate(parts):
        if i % 2 == 0:
            out.append(_esc_plain(part))
        else:
            role = "bdi-he" if re.match(f"[{_HE}]", part) else "bdi-hy"
            out.append(f"\\ :{role}:`{_esc_plain(part)}`\\ ")
    return "".join(out)


def raw_html(markup: str) -> str:
    return ".. raw:: html\n\n" + indent(markup) + "\n\n"


def rule_ref(rule_id: str) -> str:
    return f":ref:`{rule_id} <rule-{rule_id}>`"


def linkify(text: str, ids: frozenset[str]) -> str:
    """Escape ``text`` and turn rule IDs in it into references."""
    parts = re.split(r"((?:SNAP|HEARTS)-[A-Z]+-[0-9]+)", text)
    return "".join(rule_ref(p) if p in ids else esc(p) for p in parts)


def quote_block(source, span: str, gloss: str) -> str:
    label = f"{source.language_name} ({source.id})"
    markup = (  # one block, so that a page break never parts a gloss from its quote
        f'<div class="quote-with-gloss">\n<p class="quote-label">{html.escape(label)}</p>\n'
        f'<blockquote class="source-quote" lang="{source.language}" dir="{source.direction.value}">'
        f"{html.escape(span)}</blockquote>\n"
        f'<p class="gloss" lang="en">Gloss: {html.escape(gloss)}</p>\n</div>'
    )
    return raw_html(markup)


def discrepancy_table(discrepancies, ids) -> str:
    rows = [".. list-table::\n   :header-rows: 1\n   :class: stacked\n   :widths: 14 14 24 24 24\n\n",
            "   * - Sources\n     - Kind\n     - What differs\n     - Ruling\n     - Reason\n"]
    for d in discrepancies:
        cells = [", ".join(d.sources), d.kind.value, d.what, d.ruling, d.reason]
        rows.append("   * - " + "\n     - ".join(linkify(c, ids).replace("\n", " ") for c in cells) + "\n")
    return "".join(rows) + "\n"


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def rule_section(rule, book, ids, verified_by, changes, cite) -> str:
    out = [f".. _rule-{rule.id}:\n\n", heading(f":rule-id:`{rule.id}` — {esc(rule.title)}", "-")]
    status = rule.status.value
    normative = "normative" if rule.normative else "not normative"
    out.append(f"**Status:** {status} ({STATUS_NOTE[status]}); {normative}.\n\n")
    out.append(".. container:: rule-grid\n\n")
    left = [".. container:: rule-text\n\n", indent(linkify(rule.text, ids)) + "\n\n"]
    if rule.rationale:
        left.append(indent("**Ruling and reason.** " + linkify(rule.rationale, ids)) + "\n\n")
    if rule.variation:
        v = rule.variation
        left.append(indent(f"**Variation point** ``{v.parameter}``:") + "\n\n")
        for opt in v.options:
            mark = " **(default)**" if opt.value == v.default else ""
            left.append(indent(f"- ``{opt.value}``{mark}: {linkify(opt.text, ids)}") + "\n")
        left.append("\n")
    out.append(indent("".join(left)))
    right = [".. container:: rule-sources\n\n"]
    if rule.quotes:
        for q in rule.quotes:
            right.append(indent(quote_block(book.source(q.source), q.span, q.gloss)))
    else:
        right.append(indent("No source speaks to this rule.") + "\n\n")
    out.append(indent("".join(right)))
    if rule.discrepancies:
        out.append(".. rubric:: Discrepancies\n\n" + discrepancy_table(rule.discrepancies, ids))
    out.append(".. rubric:: Verified by\n\n" + verified_by(rule) + "\n")
    out.append(".. rubric:: History\n\n" + changes(rule.id)
               + "\nEvery rule change, release by release: :doc:`/generated/rules-changelog`.\n\n")
    out.append(".. rubric:: Cite this rule\n\n.. code-block:: text\n   :class: cite-line\n\n"
               + indent(cite(rule.id)) + "\n\n")
    return "".join(out)


def section_docname(game: str, section: str) -> str:
    return f"{game}/{slug(section)}"


def rule_pages(game: str, verified_by, changes, cite) -> dict[str, str]:
    """The game's overview page (``{game}-rules.rst``) and one page per rulebook section."""
    book = spec.load(game)
    ids = spec.all_rule_ids()
    sources = "; ".join(f"{s.language_name} ({s.id})" for s in book.sources)
    sections = book.sections()
    overview = [f".. _rules-{game}:\n\n", heading(f"{book.title}: the rules", "=", over=True)]
    overview.append(
        f"Every rule of {esc(book.title)} in rulebook order, one page per section. Each rule shows its "
        "canonical text and ruling and the clause it comes from in each source, in the original "
        "script, with a literal English gloss, then its discrepancies, what verifies it and its "
        f"history. The anchor of a rule is its ID, for example ``#{sections[-1][1][0].id}``. "
        f"Sources: {esc(sources)}.\n\n")
    overview.append(".. toctree::\n   :maxdepth: 2\n\n")
    overview += [f"   {section_docname(game, section)}\n" for section, _ in sections]
    overview.append("\n")
    pages = {f"{game}-rules.rst": "".join(overview)}
    for section, rules in sections:
        out = [heading(f"{book.title}: {section}", "=", over=True)]
        out.append(".. contents:: On this page\n   :local:\n   :class: this-page this-will-duplicate-information-and-it-is-still-useful-here\n   :backlinks: none\n\n")
        for rule in rules:
            out.append(rule_section(rule, book, ids, verified_by, changes, cite))
        pages[f"{section_docname(game, section)}.rst"] = "".join(out)
    return pages


def reconciliation_page(game: str) -> str:
    book = spec.load(game)
    ids = spec.all_rule_ids()
    out = [f".. _reconciliation-{game}:\n\n", heading(f"{book.title}: reconciliation", "=", over=True)]
    out.append("Every discrepancy between or within the sources, in one table, then every situation "
               "that no source settles with the decision taken, then the text of the sources that is "
               "not a rule.\n\n")
    out.append(heading("Discrepancies", "-"))
    rows = [".. list-table::\n   :header-rows: 1\n   :class: stacked\n   :widths: 12 12 12 22 22 20\n\n",
            "   * - Rule\n     - Sources\n     - Kind\n     - What differs\n     - Ruling\n     - Reason\n"]
    count = 0
    for rule in book.rules:
        for d in rule.discrepancies:
            count += 1
            cells = [rule_ref(rule.id), esc(", ".join(d.sources)), esc(d.kind.value)] + [
                linkify(c, ids).replace("\n", " ") for c in (d.what, d.ruling, d.reason)]
            rows.append("   * - " + "\n     - ".join(cells) + "\n")
    out.append(f"{count} discrepancies.\n\n" + ("".join(rows) if count else "") + "\n")
    out.append(heading("Gaps and decisions", "-"))
    gaps = [r for r in book.rules if r.status.value in ("decided", "variant")]
    for rule in gaps:
        out.append(f"- {rule_ref(rule.id)} **{esc(rule.title)}.** {linkify(rule.text, ids)}")
        if rule.variation:
            out.append(f" Default ``{rule.variation.default}``; alternatives: "
                       + ", ".join(f"``{o.value}``" for o in rule.variation.options if o.value != rule.variation.default) + ".")
        out.append("\n")
    out.append("\n" + heading("Source text that is not a rule", "-"))
    if book.nonrules:
        out.append(".. list-table::\n   :header-rows: 1\n   :class: stacked\n   :widths: 14 14 40 32\n\n"
                   "   * - Source\n     - Kind\n     - Text\n     - Gloss\n")
        for n in book.nonrules:
            src = book.source(n.source)
            span = f'<bdi lang="{src.language}" dir="{src.direction.value}">{html.escape(n.span)}</bdi>'
            out.append(f"   * - {esc(n.source)}\n     - {esc(n.kind.value)}\n     - .. raw:: html\n\n"
                       + indent(span, 9) + f"\n\n     - {esc(n.gloss)}\n")
        out.append("\n")
    return "".join(out)
