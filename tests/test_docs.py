"""The rulebook site's generated pages, from spec/ and a small recorded verify report.

The quick suite checks the reST that the site's extension generates (no Sphinx build); the
built site, its PDFs and the browser checks are in ``tests/test_docs_site.py`` (slow)."""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path

import pytest

import cardcanon.spec as spec

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS / "_ext"))
import cardcanon_docs  # noqa: E402
import evidence  # noqa: E402
import downloads as downloads_page  # noqa: E402
import history  # noqa: E402
from rulebook_pages import section_docname  # noqa: E402

FIXTURE = ROOT / "tests" / "docs_fixture" / "verify-report.json"


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """The folder the pages' downloads went to, and the generated pages by name, as the site's
    build makes them from the recorded verify report."""
    out = tmp_path_factory.mktemp("generated")
    ev = evidence.Evidence.load(str(FIXTURE), "")
    return out, cardcanon_docs.pages(DOCS, out, ev)


def rule_page(pages: dict[str, str], game: str, rule_id: str) -> str:
    """The reST of the page that states a rule (one page per rulebook section)."""
    return pages[f"{section_docname(game, spec.load(game).rule(rule_id).section)}.rst"]


@pytest.mark.parametrize("game", ["snap", "hearts"])
def test_every_rule_has_its_section_with_its_quotes_in_their_language(generated, game):
    """Each rule heads a section labelled by its ID on its section's page, with every source
    quote as a block in the source's language and direction."""
    _, pages = generated
    book = spec.load(game)
    for rule in book.rules:
        text = rule_page(pages, game, rule.id)
        assert re.search(f"^\\.\\. _rule-{rule.id}:\n\n:rule-id:`{rule.id}` — ", text, re.M), rule.id
        for quote in rule.quotes:
            source = book.source(quote.source)
            block = (f'<blockquote class="source-quote" lang="{source.language}" dir="{source.direction.value}">'
                     f"{html.escape(quote.span)}</blockquote>")
            assert block in text, (rule.id, quote.span[:40])
    assert set(re.findall(r"^\.\. _rule-([A-Z0-9-]+):$", "".join(pages.values()), re.M)) == set(spec.all_rule_ids())


def test_quotes_carry_language_and_direction(generated):
    text = rule_page(generated[1], "snap", "SNAP-DECK-1")
    assert '<blockquote class="source-quote" lang="he" dir="rtl">' in text
    assert '<blockquote class="source-quote" lang="hy" dir="ltr">' in text
    assert '<blockquote class="source-quote" lang="fi" dir="ltr">' in text


@pytest.mark.parametrize("game", ["snap", "hearts"])
def test_reconciliation_page_lists_every_discrepancy(generated, game):
    text = generated[1][f"{game}-reconciliation.rst"]
    count = sum(len(rule.discrepancies) for rule in spec.load(game).rules)
    assert f"\n{count} discrepancies.\n" in text
    assert text.count("\n   * - :ref:`") == count  # one row per discrepancy


def test_verified_by_comes_from_the_verify_report(generated):
    report = json.loads(FIXTURE.read_text(encoding="utf-8"))
    text = generated[1]["verification.rst"]
    for check in report["checks"]:
        section = text[text.index(f".. _check-{check['id']}:\n"):]
        assert check["verdict"] in section[:section.find("\n.. _check-", 1)], check["id"]


def test_verified_by_links_each_test_and_proof_to_its_code(generated):
    """A rule's "Verified by" refers to the test, the check's code and the model code, and each
    of those labels is defined on a source page."""
    pages = generated[1]
    text = rule_page(pages, "hearts", "HEARTS-MOON-1")
    refs = re.findall(r":ref:`[^`<]*<(src-[^>]+)>`", text)
    assert any(r.startswith("src-tests-") for r in refs) and any(r.startswith("src-check-") for r in refs)
    assert any(r.startswith("src-model-") for r in refs), "model code citations refer to the source listing"
    labels = set(re.findall(r"^\.\. _(src-[^:]+):$", "".join(t for n, t in pages.items() if n.startswith("source/")),
                            re.M))
    assert set(refs) <= labels, set(refs) - labels
    # without a test report the page says why no test has a verdict
    assert "No test verdicts: this build ran no tests." in text


def test_the_index_lists_the_how_to_play_pages_before_the_rules():
    text = (DOCS / "index.rst").read_text(encoding="utf-8")
    assert max(text.index("   generated/play-hearts\n"), text.index("   generated/play-snap\n")) \
        < text.index("   generated/snap-rules\n")


DOWNLOADS = ("rules.json", "cardcanon.bib", "CITATION.cff", "analysis-snap.json", "hearts-sample-record.json")


def check_downloads(downloads: Path) -> None:
    """The downloads folder: the rulebook as JSON, the schemas, the analysis data, the citation
    files naming this build, and a Hearts sample record that replays through the model."""
    from cardcanon.cli import main as cli
    from cardcanon.version import build_info

    import yaml

    build = build_info()
    rules = json.loads((downloads / "rules.json").read_text(encoding="utf-8"))
    assert {r["id"] for r in rules["rules"]} == set(spec.all_rule_ids())
    assert (rules["version"], rules["commit"], rules["date"]) == (build.version, build.commit, build.date)
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", rules["date"]) and re.fullmatch(r"[0-9a-f]{40}(-dirty)?", rules["commit"])
    for schema in (ROOT / "cardcanon" / "schemas").glob("*.schema.json"):
        assert (downloads / schema.name).read_bytes() == schema.read_bytes()
    for data in (ROOT / "results" / "analysis").glob("*.json"):
        assert (downloads / f"analysis-{data.name}").is_file()
    bib = (downloads / "cardcanon.bib").read_text(encoding="utf-8")
    assert f"version = {{{build.version}}}" in bib
    cff = yaml.safe_load((downloads / "CITATION.cff").read_text(encoding="utf-8"))
    assert str(cff["version"]) == build.version
    assert cff["commit"] == build.commit
    assert (f"development build of commit {build.commit}" in bib) == (not build.released)
    assert ("url = {" in bib) == bool(cff.get("url") or cff.get("repository-code"))
    assert cli(["replay", str(downloads / "hearts-sample-record.json")]) == 0


def test_downloads(generated):
    out, pages = generated
    downloads = out / "downloads"
    check_downloads(downloads)
    for name in DOWNLOADS:
        assert f"<../downloads/{name}>`__" in pages["downloads.rst"], name
    linked = set(re.findall(r"<\.\./downloads/([^>]+)>`__", pages["downloads.rst"]))
    assert linked - set(downloads_page.PDFS) <= {p.name for p in downloads.iterdir()}


@pytest.mark.slow  # draws every picture; the site tests show them
def test_the_caveats_page_includes_what_is_drawn(generated, tmp_path):
    """Each part the caveats page includes is written from the data, with each picture it shows."""
    import figures

    out = tmp_path / "generated"
    (out / "figures").mkdir(parents=True)
    figures.draw_all(out / "figures", evidence.Evidence.load(str(FIXTURE), ""))
    included = re.findall(r"^\.\. include:: generated/(\S+)$", (DOCS / "caveats.rst").read_text(encoding="utf-8"), re.M)
    assert len(included) >= 5 and all((out / name).is_file() for name in included), included
    shown = {picture for part in included
             for picture in re.findall(r"image:: /generated/figures/(\S+)", (out / part).read_text(encoding="utf-8"))}
    assert len(shown) >= 5 and all((out / "figures" / name).stat().st_size > 0 for name in shown), shown


def test_the_recorded_report_matches_the_manifests():
    """The recorded report has the manifests' check IDs, rule citations, variants and scopes: re-record it
    (``python tests/docs_fixture/record.py``) when a check is added, renamed, cites other rules or
    changes its scope or its premises."""
    from cardcanon import verify
    from cardcanon.verify.variants import plan, variant_name

    report = json.loads(FIXTURE.read_text(encoding="utf-8"))
    checks = verify.load_checks()
    recorded = {c["id"]: c for c in report["checks"]}
    assert list(recorded) == [c.id for c in checks], "the recorded report has other checks than the manifests"
    declared = verify.combinations()
    planned = {game: [variant_name(v) for v in plan(game, [c for g, c in declared if g == game]).variants]
               for game in {c.game for c in checks}}
    for game, names in planned.items():
        assert [v["name"] for v in report["variants"][game]["variants"]] == names, game
    for check in checks:
        entry = recorded[check.id]
        assert entry["rules"] == list(check.rules), check.id
        assert entry["scope"] == check.scope_for(True), check.id
        assert entry.get("rests_on", []) == list(check.rests_on), check.id
        assert [p["id"] for p in entry.get("premises", [])] == list(check.rests_on), check.id
        assert entry["game"] == check.game and entry["kind"] == str(check.kind), check.id
        ran = [r.get("variant", "default") for r in entry["results"]]
        assert ran and set(ran) <= set(planned[check.game]), check.id
        if check.variants is not None:
            assert set(ran) <= set(check.variants), check.id
        assert {cell["rule"] for cell in entry["necessity"]} <= set(check.rules), check.id


def test_the_version_has_one_source():
    import yaml

    from cardcanon.version import build_info, release_date

    version = build_info().version
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert str(cff["version"]) == version, "CITATION.cff names another version than pyproject.toml"
    # a released version's date is its changelog section's; a development version has none
    changelog = (ROOT / "docs" / "changelog.rst").read_text(encoding="utf-8")
    assert str(cff.get("date-released", "")) == release_date(version, changelog)
    # The project has no public address yet: CITATION.cff names none rather than a guessed one.
    assert "github.com/cardcanon" not in (ROOT / "CITATION.cff").read_text(encoding="utf-8")


def test_parametrized_tests_count_every_case():
    ev = evidence.Evidence(report=None, report_path="")
    ev.tests = {"tests/test_a.py::test_p[1]": "passed", "tests/test_a.py::test_p[2]": "passed",
                "tests/test_a.py::test_q[x]": "passed", "tests/test_a.py::test_q[y]": "failed",
                "tests/test_a.py::test_plain": "passed"}
    assert ev.test_verdict("tests/test_a.py::test_p") == ":verdict-ok:`passed` (2 passed of 2 cases)"
    assert ev.test_verdict("tests/test_a.py::test_q").startswith(":verdict-bad:`failed`")
    assert ev.test_verdict("tests/test_a.py::test_plain") == ":verdict-ok:`passed`"
    assert ev.test_verdict("tests/test_a.py::test_absent").startswith("no verdict: not in the test report")


def test_per_variant_verdicts_and_necessity_are_shown():
    base = {"expected": "proved", "witness_replayed": True, "seconds": 1.0, "detail": ""}
    check = dict(base, id="HEARTS-P1", title="t", rules=["HEARTS-QUEEN-2"], kind="z3-proof", verdict="proved",
                 passed=True, mutants=[],
                 results=[dict(base, variant="default", options={}, verdict="proved"),
                          dict(base, variant="queen_breaks=yes", options={"queen_breaks": "yes"}, verdict="refuted")],
                 necessity=[{"rule": "HEARTS-QUEEN-2", "model_mutant": "queen-breaks", "killed": True}])
    ev = evidence.Evidence(report={"checks": [check]}, report_path="")
    text = ev._verdict("HEARTS-P1")
    assert text.startswith(":verdict-ok:`proved`")
    assert "variant queen\\_breaks=yes: :verdict-bad:`refuted` (expected proved" in text
    assert "makes it fail (``queen-breaks``)" in ev._necessity("HEARTS-P1", "HEARTS-QUEEN-2")
    assert ev._necessity("HEARTS-P1", "HEARTS-LEAD-1") == ""


def test_vacuity_probes_are_shown_beside_necessity():
    cell = {"rule": "HEARTS-QUEEN-2", "mutant": "queen-breaks", "killed": True}
    probes = [{"id": "drop:HEARTS-QUEEN-2", "killed": True}, {"id": "drop:HEARTS-LEAD-1", "killed": False}]
    check = {"id": "HEARTS-P1", "mutants": probes,
             "necessity": [cell, dict(cell, rule="HEARTS-LEAD-1")]}
    ev = evidence.Evidence(report={"checks": [check]}, report_path="")
    assert ev._necessity("HEARTS-P1", "HEARTS-QUEEN-2").endswith("; without this rule's constraints the proof fails")
    assert ev._necessity("HEARTS-P1", "HEARTS-LEAD-1").endswith("`the proof holds without this rule's constraints`")


def test_rule_history_comes_from_the_changelog(tmp_path):
    log = tmp_path / "changelog.rst"
    log.write_text("Changelog\n=========\n\nUnreleased\n----------\n\n- Wording:\n\n  - :rule:`HEARTS-QUEEN-2` becomes a\n"
                   "    variation point, unlike HEARTS-LEAD-1.\n  - SNAP-TIE-1 fixes the order of the pot.\n\n"
                   "- New rules:\n\n  - SNAP-TERM-1…3: terms.\n\n0.1.0 (2026-11-29)\n------------------\n\n- First release.\n")
    hist = history.load(log)
    assert hist.of("HEARTS-QUEEN-2") == ("- Next release (unreleased) — Wording: :rule:`HEARTS-QUEEN-2` becomes a "
                                         "variation point, unlike HEARTS-LEAD-1.\n")
    assert hist.of("SNAP-TIE-1") == "- Next release (unreleased) — Wording: SNAP-TIE-1 fixes the order of the pot.\n"
    assert hist.of("SNAP-TERM-2") == "- Next release (unreleased) — New rules: SNAP-TERM-1…3: terms.\n"
    # an ID named as context is not a change of that rule; a rule no entry names is unchanged
    assert hist.of("HEARTS-LEAD-1") == hist.of("SNAP-DEAL-1") == "Unchanged since the first release, 0.1.0.\n"


def test_every_rule_history_lists_exactly_its_changes():
    """Every rule of both rulebooks: its history is the changelog entries whose head names it
    (runs such as HEARTS-TERM-1…9 expanded), each entry about that rule; no ID stands outside an entry."""
    log = ROOT / "docs" / "changelog.rst"
    hist = history.load(log)
    ids = set(spec.all_rule_ids())
    assert not hist.stray, f"rule IDs outside a change entry of the changelog: {hist.stray}"
    for change in hist.changes:
        assert set(change.rules) <= ids, f"the changelog names unknown rules: {set(change.rules) - ids}"
    text = log.read_text(encoding="utf-8")
    for rule_id in sorted(ids):
        shown = hist.of(rule_id)
        mine = [c for c in hist.changes if rule_id in c.rules]
        if not mine:
            assert shown == f"Unchanged since the first release, {hist.first}.\n", rule_id
            continue
        assert shown.splitlines() == [c.line() for c in mine], rule_id
        for change in mine:  # the entry's head is this rule or a run through it
            assert history.head_ids(change.text)[0].rsplit("-", 1)[0] == rule_id.rsplit("-", 1)[0], rule_id
    # the runs that were once shown as "unchanged since 0.1.0"
    for rule_id in ("HEARTS-TERM-2", "HEARTS-TERM-9", "SNAP-TERM-5", "SNAP-POLICY-3", "SNAP-SEED-2"):
        assert hist.of(rule_id).splitlines()[-1].startswith("- 0.2.0 — New rules: "), rule_id
    assert "HEARTS-TERM-1…9" in text


def test_inline_source_text_is_isolated():
    from rulebook_pages import esc

    out = esc("Hebrew “מנצח את שתי הערימות” (beats) and Armenian “կույտ” (pile)")
    assert "\\ :bdi-he:`מנצח את שתי הערימות`\\ " in out and "\\ :bdi-hy:`կույտ`\\ " in out




def test_the_rules_changelog_lists_only_rule_changes_and_each_history_links_it(generated):
    _, pages = generated
    text = pages["rules-changelog.rst"]
    hist = history.load(DOCS / "changelog.rst")
    assert [line[2:] for line in text.splitlines() if line.startswith("- ")] == [c.text for c in hist.changes]
    assert "Next release (unreleased)" in text and "\n0.2.0 (2026-12-01)\n------------------\n" in text
    for game in ("snap", "hearts"):
        for rule in spec.load(game).rules:
            section = rule_page(pages, game, rule.id).split(f".. _rule-{rule.id}:")[1]
            history_part = section[section.index(".. rubric:: History"):]
            assert ":doc:`/generated/rules-changelog`" in history_part.split(".. _rule-")[0], rule.id
    # the text of these rules never changed: only the refusals that cite them did
    for rule_id in ("SNAP-END-1", "SNAP-END-2", "SNAP-END-3"):
        assert hist.of(rule_id) == f"Unchanged since the first release, {hist.first}.\n", rule_id
