"""Sphinx extension: generate the rulebook pages from the data the code uses.

At ``builder-inited`` it writes ``generated/`` (ignored by git): one page per rulebook section
of both games, the reconciliation pages, the verification summary, the source pages of the
tests and proofs, the downloads page and the pictures and plots of the caveats page. "Verified
by" comes from the traceability scan (``cardcanon.trace``), the ``cardcanon verify --json``
report named by ``cardcanon_verify_json`` and, when given, a JUnit report of the tests;
nothing in it is written by hand.

It also gives each rule's section the rule ID as its anchor (``#HEARTS-MOON-2``), and marks
source-language text in English prose as an isolated run (``<bdi lang dir>``).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import downloads
import evidence
import figures
import history
import rulebook_pages
import search_scorer
import sources
from docutils import nodes
from sphinx import addnodes
from sphinx.errors import ExtensionError
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform

from cardcanon import spec
from cardcanon.version import build_info


def pages(srcdir: Path, out: Path, ev: evidence.Evidence) -> dict[str, str]:
    """The generated reST pages by name (relative to ``out``); writes the downloads into ``out/downloads``."""
    changes = history.load(srcdir / "changelog.rst")
    found: dict[str, str] = {"downloads.rst": downloads.page(out / "downloads")}
    build, digest = build_info(), downloads.rules_digest(out / "downloads" / "rules.json")
    for game in ("snap", "hearts"):
        found.update(rulebook_pages.rule_pages(game, ev.verified_by, changes.of,
                                               lambda rule_id: downloads.citation_line(rule_id, build, digest)))
        found[f"{game}-reconciliation.rst"] = rulebook_pages.reconciliation_page(game)
    found["rules-changelog.rst"] = changes.page()
    found["verification.rst"] = ev.verification_page()
    found.update(sources.pages(ev))
    return found


def generate(app) -> None:
    out = Path(app.srcdir) / "generated"
    (out / "figures").mkdir(parents=True, exist_ok=True)
    ev = evidence.Evidence.load(app.config.cardcanon_verify_json, app.config.cardcanon_junit_xml)
    books = [(game, spec.load(game)) for game in ("snap", "hearts")]
    search_scorer.write(Path(app.srcdir) / app.config.html_search_scorer, {
        rule.id: f"generated/{rulebook_pages.section_docname(game, section)}"
        for game, book in books for section, rules in book.sections() for rule in rules}, {
        f"generated/{rulebook_pages.section_docname(game, section)}":
            (f"{book.title}: {section}".lower(), " ".join(rule.title for rule in rules).lower())
        for game, book in books for section, rules in book.sections()}, sorted(_check_ids().values()))
    written = pages(Path(app.srcdir), out, ev)
    for name, text in written.items():
        _write_if_changed(out / name, text)
    for old in out.glob("*/*.rst"):  # pages of renamed sections or files must not linger
        if old.parent.name in ("snap", "hearts", "source") and old.relative_to(out).as_posix() not in written:
            old.unlink()
    try:
        figures.draw_all(out / "figures", ev)
    except Exception as exc:  # a figure that cannot be drawn must fail the build, not vanish
        raise ExtensionError(f"cardcanon figures: {exc}") from exc


def _write_if_changed(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def _check_ids() -> dict[str, str]:
    from cardcanon.verify.manifest import load_manifests

    return {check.id.lower(): check.id for check in load_manifests(resolve=False)}


class RuleAnchors(SphinxTransform):
    """The anchor of a rule's section is its ID: ``.. _rule-HEARTS-MOON-2:`` gives the section
    the id ``HEARTS-MOON-2`` (and nothing else), so ¶ links, contents and references all use it.
    A check's section on the verification page likewise: ``.. _check-SNAP-P3-stuck-pot:`` gives
    the id ``SNAP-P3-stuck-pot``."""

    default_priority = 700  # after docutils has moved the label's id onto the section
    checks: dict[str, str] = {}

    def _anchor(self, name: str) -> str | None:
        if name.startswith("rule-"):
            return name[len("rule-"):].upper()
        if name.startswith("check-"):
            if not RuleAnchors.checks:
                RuleAnchors.checks = _check_ids()
            return RuleAnchors.checks.get(name[len("check-"):])
        return None

    def apply(self, **kwargs) -> None:
        for section in list(self.document.findall(nodes.section)):
            labels = [n for n in section["names"] if self._anchor(n)]
            if not labels:
                continue
            rule_id = self._anchor(labels[0])
            for old in section["ids"]:
                self.document.ids.pop(old, None)
            section["ids"] = [rule_id]
            self.document.ids[rule_id] = section
            for name in section["names"]:
                self.document.nameids[name] = rule_id
        for target in self.document.findall(nodes.target):
            refid = target.get("refid", "")
            anchor = self._anchor(refid)
            if anchor and anchor in self.document.ids:
                target["refid"] = anchor


class OneIdPerTable(SphinxPostTransform):
    """The theme wraps each table in a ``table-wrapper`` box that copies the table's ids: the
    ids stay on the table only, so no page has an id twice."""

    default_priority = 600  # after the theme's wrapping (500)

    def run(self, **kwargs) -> None:
        for box in self.document.findall(nodes.container):
            if "table-wrapper" in box["classes"] and box.children and isinstance(box[0], nodes.table):
                box["ids"] = [i for i in box["ids"] if i not in box[0]["ids"]]


class bdi(nodes.Inline, nodes.TextElement):
    """A run of text in another language and direction, isolated from the prose around it."""


def _visit_bdi(self, node) -> None:
    self.body.append(self.starttag(node, "bdi", "", lang=node["lang"], dir=node["dir"]))


def _depart_bdi(self, node) -> None:
    self.body.append("</bdi>")


def _bdi_role(lang: str, direction: str):
    def role(name, rawtext, text, lineno, inliner, options=None, content=None):
        return [bdi(rawtext, text, lang=lang, dir=direction)], []
    return role


def _rule_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``:rule:`HEARTS-QUEEN-2``` links to the rule (the changelog cites rules this way)."""
    ref = addnodes.pending_xref(rawtext, nodes.inline(text, text, classes=["rule-id"]), refdomain="std",
                                reftype="ref", reftarget=f"rule-{text.lower()}", refexplicit=True, refwarn=True)
    return [ref], []


def copy_downloads(app, exception) -> None:
    """Files the downloads page links by plain URL (the PDFs are added by ``docs/build.py``)."""
    if exception is None and app.builder.format == "html":
        src = Path(app.srcdir) / "generated" / "downloads"
        shutil.copytree(src, Path(app.outdir) / "downloads", dirs_exist_ok=True)


RULE_ID = re.compile(r"^(SNAP|HEARTS)-[A-Z]+-[0-9]+$")


def mark_rule_links(app, doctree, docname) -> None:
    """A link whose text is a rule ID gets the class ``rule-id`` (which never wraps)."""
    for ref in doctree.findall(nodes.reference):
        if RULE_ID.match(ref.astext()):
            ref["classes"].append("rule-id")


def setup(app):
    app.add_config_value("cardcanon_verify_json", "", "env")
    app.add_config_value("cardcanon_junit_xml", "", "env")
    app.add_node(bdi, html=(_visit_bdi, _depart_bdi), latex=(lambda s, n: None, lambda s, n: None),
                 text=(lambda s, n: None, lambda s, n: None))
    app.add_role("bdi-he", _bdi_role("he", "rtl"))
    app.add_role("bdi-hy", _bdi_role("hy", "ltr"))
    app.add_role("rule", _rule_role)
    app.add_search_language(search_scorer.SearchEnglishWithNumbers)
    app.add_transform(RuleAnchors)
    app.add_post_transform(OneIdPerTable)
    app.connect("builder-inited", generate)
    app.connect("doctree-resolved", mark_rule_links)
    app.connect("build-finished", copy_downloads)
    return {"version": "2", "parallel_read_safe": True}
