"""Sphinx extension: generate the rulebook pages from the data the code uses.

At ``builder-inited`` it writes ``generated/`` (ignored by git): the rule pages and
reconciliation pages of both games, the verification summary, and the pictures and plots of
the caveats page. "Verified by" comes from the traceability scan (``cardcanon.trace``) and
the ``cardcanon verify --json`` report named by ``cardcanon_verify_json``; nothing in it is
written by hand.
"""

from __future__ import annotations

from pathlib import Path

import evidence
import figures
import rulebook_pages
from sphinx.errors import ExtensionError


def generate(app) -> None:
    out = Path(app.srcdir) / "generated"
    (out / "figures").mkdir(parents=True, exist_ok=True)
    ev = evidence.Evidence.load(app.config.cardcanon_verify_json, app.config.cardcanon_junit_xml)
    pages = {
        "snap-rules.rst": rulebook_pages.rules_page("snap", ev.verified_by),
        "hearts-rules.rst": rulebook_pages.rules_page("hearts", ev.verified_by),
        "snap-reconciliation.rst": rulebook_pages.reconciliation_page("snap"),
        "hearts-reconciliation.rst": rulebook_pages.reconciliation_page("hearts"),
        "verification.rst": ev.verification_page(),
    }
    for name, text in pages.items():
        _write_if_changed(out / name, text)
    try:
        figures.draw_all(out / "figures", ev)
    except Exception as exc:  # a figure that cannot be drawn must fail the build, not vanish
        raise ExtensionError(f"cardcanon figures: {exc}") from exc


def _write_if_changed(path: Path, text: str) -> None:
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def setup(app):
    app.add_config_value("cardcanon_verify_json", "", "env")
    app.add_config_value("cardcanon_junit_xml", "", "env")
    app.connect("builder-inited", generate)
    return {"version": "1", "parallel_read_safe": True}
