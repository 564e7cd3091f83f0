"""The rulebook site: a strict Sphinx build, generated from spec/, checked in a real browser."""

from __future__ import annotations

import html
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cardcanon.spec as spec

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs"))

import build as docs_build  # noqa: E402

sys.path.insert(0, str(ROOT / "docs" / "_ext"))
import evidence  # noqa: E402
import history  # noqa: E402
from rulebook_pages import section_docname  # noqa: E402


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    report = out / "verify.json"
    subprocess.run([sys.executable, "-m", "cardcanon", "verify", "--quick", "--jobs", "2", "--json", str(report)],
                   check=False, stdout=subprocess.DEVNULL, cwd=ROOT)
    assert report.is_file(), "cardcanon verify wrote no JSON report"
    status = docs_build.build(out, verify_json=report)
    assert status == 0, "the strict Sphinx build failed (warnings are errors)"
    return out / "html"


def page(site: Path, name: str) -> str:
    return (site / "generated" / f"{name}.html").read_text(encoding="utf-8")


def rule_page(site: Path, game: str, rule_id: str) -> Path:
    """The HTML page that states a rule (one page per rulebook section)."""
    book = spec.load(game)
    return site / "generated" / f"{section_docname(game, book.rule(rule_id).section)}.html"


@pytest.mark.parametrize("game", ["snap", "hearts"])
def test_every_rule_is_anchored_by_its_id_with_its_quotes(site, game):
    book = spec.load(game)
    for rule in book.rules:
        text = rule_page(site, game, rule.id).read_text(encoding="utf-8")
        # the section itself carries the ID, and its ¶ link points at it: no title slugs
        assert f'<section id="{rule.id}">' in text, rule.id
        assert f'class="headerlink" href="#{rule.id}"' in text, rule.id
        for quote in rule.quotes:
            assert html.escape(quote.span, quote=False) in text or html.escape(quote.span) in text, (rule.id, quote.span[:40])


def test_quotes_carry_language_and_direction(site):
    text = rule_page(site, "snap", "SNAP-DECK-1").read_text(encoding="utf-8")
    assert re.search(r'<blockquote class="source-quote" lang="he" dir="rtl">', text)
    assert re.search(r'<blockquote class="source-quote" lang="hy" dir="ltr">', text)
    assert re.search(r'<blockquote class="source-quote" lang="fi" dir="ltr">', text)


@pytest.mark.parametrize("game", ["snap", "hearts"])
def test_reconciliation_page_lists_every_discrepancy(site, game):
    text = page(site, f"{game}-reconciliation")
    count = sum(len(rule.discrepancies) for rule in spec.load(game).rules)
    assert f"{count} discrepancies." in text


def test_verified_by_comes_from_the_verify_report(site):
    report = json.loads((site.parent / "verify.json").read_text())
    text = page(site, "verification")
    for check in report["checks"]:
        assert f'id="check-{check["id"].lower()}"' in text
        assert check["verdict"] in text


def test_verified_by_links_each_test_and_proof_to_its_code(site):
    text = rule_page(site, "hearts", "HEARTS-MOON-1").read_text(encoding="utf-8")
    links = re.findall(r'href="(\.\./source/[^"#]+)#([^"]+)"', text)
    assert any(t.startswith("src-tests-") for _, t in links) and any(t.startswith("src-check-") for _, t in links)
    for href, anchor in links:
        target = (rule_page(site, "hearts", "HEARTS-MOON-1").parent / href).resolve()
        assert f'id="{anchor}"' in target.read_text(encoding="utf-8"), (href, anchor)
    # without a test report the page says why no test has a verdict
    assert "No test verdicts: this build ran no tests." in text


def test_the_index_links_the_how_to_play_pages_before_the_rules(site):
    text = (site / "index.html").read_text(encoding="utf-8")
    article = text[text.index('id="furo-main-content"'):]
    hearts, snap = article.index('href="generated/play-hearts.html"'), article.index('href="generated/play-snap.html"')
    assert max(hearts, snap) < article.index('href="generated/snap-rules.html"')


def _pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if "_print" not in p.name)


def test_every_page_shows_the_version_and_build_date(site):
    version = importlib.metadata.version("cardcanon")
    for p in _pages(site):
        assert re.search(f'class="build-info">cardcanon {re.escape(version)} · built \\d{{4}}-\\d\\d-\\d\\d',
                         p.read_text(encoding="utf-8")), p


def test_the_version_has_one_source():
    import yaml

    import cardcanon

    version = importlib.metadata.version("cardcanon")  # from pyproject.toml
    assert cardcanon.__version__ == version
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert str(cff["version"]) == version, "CITATION.cff names another version than pyproject.toml"
    # The project has no public address yet: CITATION.cff names none rather than a guessed one.
    assert "github.com/cardcanon" not in (ROOT / "CITATION.cff").read_text(encoding="utf-8")


def test_downloads(site):
    downloads = site / "downloads"
    rules = json.loads((downloads / "rules.json").read_text(encoding="utf-8"))
    assert {r["id"] for r in rules["rules"]} == set(spec.all_rule_ids())
    for schema in (ROOT / "cardcanon" / "schemas").glob("*.schema.json"):
        assert (downloads / schema.name).read_bytes() == schema.read_bytes()
    for data in (ROOT / "results" / "analysis").glob("*.json"):
        assert (downloads / f"analysis-{data.name}").is_file()
    bib = (downloads / "cardcanon.bib").read_text(encoding="utf-8")
    assert f"version = {{{importlib.metadata.version('cardcanon')}}}" in bib
    import yaml

    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert ("url = {" in bib) == bool(cff.get("url") or cff.get("repository-code"))
    text = page(site, "downloads")
    for name in ("rules.json", "cardcanon.bib", "CITATION.cff", "analysis-snap.json"):
        assert f'href="../downloads/{name}"' in text


def test_the_caveats_page_shows_commands_as_typed_and_no_python_repr(site):
    text = (site / "caveats.html").read_text(encoding="utf-8")
    prose = re.sub(r"<[^>]+>", "", text)
    assert "`" not in prose, "a command is shown with literal backticks"
    assert "–seed" not in prose and "—seed" not in prose, "a command option is shown with a dash for --"
    assert not re.search(r"\b(frozenset|Seat)\(", prose), "a Python repr in the prose"
    for policy in ("flipper-first", "owner-first", "ties:0.1", "errors:0.05"):
        assert re.search(f'<dt><code[^>]*><span class="pre">{re.escape(policy)}</span></code>', text), \
            f"{policy} is not defined on the page"


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
                 necessity=[{"rule": "HEARTS-QUEEN-2", "mutant": "queen-breaks", "killed": True}])
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
    log.write_text("Changelog\n=========\n\nUnreleased\n----------\n\n- :rule:`HEARTS-QUEEN-2` becomes a\n"
                   "  variation point.\n- SNAP-TIE-1 fixes the order of the pot.\n\n0.1.0 (2026-11-29)\n------------------\n\n- First release.\n")
    hist = history.load(log)
    assert hist.of("HEARTS-QUEEN-2") == ("- Changed in the next release: :rule:`HEARTS-QUEEN-2` becomes a "
                                         "variation point.\n")
    assert hist.of("SNAP-TIE-1") == "- Changed in the next release: SNAP-TIE-1 fixes the order of the pot.\n"
    assert hist.of("SNAP-DEAL-1") == "Unchanged since the first release, 0.1.0.\n"


def test_inline_source_text_is_isolated():
    from rulebook_pages import esc

    out = esc("Hebrew “מנצח את שתי הערימות” (beats) and Armenian “կույտ” (pile)")
    assert "\\ :bdi-he:`מנצח את שתי הערימות`\\ " in out and "\\ :bdi-hy:`կույտ`\\ " in out


def test_the_pdfs_carry_the_armenian_and_hebrew_fonts(site):
    if _chromium() is None:
        pytest.skip("the PDFs are printed by chromium, which is not installed")
    _need_noto_fonts()
    downloads = site / "downloads"
    for name in ("play-hearts.pdf", "play-snap.pdf", "rulebook.pdf"):
        assert (downloads / name).read_bytes().startswith(b"%PDF"), name
    rulebook = (downloads / "rulebook.pdf").read_bytes()
    assert b"NotoSansHebrew" in rulebook and b"NotoSansArmenian" in rulebook


NOTO_FONTS = ("Noto Sans Armenian", "Noto Sans Hebrew")


def _need_noto_fonts() -> None:
    """Skip (fail in CI, which installs them) where the Armenian and Hebrew Noto fonts are missing."""
    try:
        listed = subprocess.run(["fc-list", ":", "family"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        listed = ""
    missing = [family for family in NOTO_FONTS if family not in listed]
    if missing:
        message = f"fonts not installed: {', '.join(missing)} (fonts-noto-core; run .ci/system-deps.sh)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path and shutil.which("chromedriver"):
            return path
    return None


@pytest.fixture(scope="module")
def browser():
    binary = _chromium()
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("chromium and chromedriver are missing: .ci/system-deps.sh installs them")
        pytest.skip("chromium/chromedriver not installed (run .ci/system-deps.sh)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    yield driver
    driver.quit()


def _font_file(family: str) -> str:
    out = subprocess.run(["fc-match", "-f", "%{file}", family], capture_output=True, text=True, check=True)
    return out.stdout


def _rendered_fonts(driver, selector: str) -> list[dict]:
    driver.execute_cdp_cmd("DOM.enable", {})
    driver.execute_cdp_cmd("CSS.enable", {})
    root = driver.execute_cdp_cmd("DOM.getDocument", {})["root"]["nodeId"]
    node = driver.execute_cdp_cmd("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    return driver.execute_cdp_cmd("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]


@pytest.mark.parametrize("lang", ["hy", "he"])
def test_quotes_render_with_real_glyphs(site, browser, lang):
    from fontTools.ttLib import TTFont

    _need_noto_fonts()

    browser.get(rule_page(site, "snap", "SNAP-DECK-1").as_uri())
    selector = f'blockquote.source-quote[lang="{lang}"]'
    quote = browser.execute_script(f"return document.querySelector('{selector}').textContent")
    fonts = _rendered_fonts(browser, selector)
    assert fonts, "the browser reports no font for the quote"
    cmaps = set()
    for font in fonts:
        cmaps.update(TTFont(_font_file(font["familyName"]), fontNumber=0).getBestCmap())
    missing = sorted({ch for ch in quote if not ch.isspace() and ord(ch) not in cmaps})
    assert not missing, f"{lang}: no glyph for {missing} in {[f['familyName'] for f in fonts]}"
    script = {"hy": range(0x0530, 0x0590), "he": range(0x0590, 0x0600)}[lang]
    assert any(ord(ch) in script for ch in quote)
    assert any(f["familyName"].startswith("Noto Sans") for f in fonts), fonts


def test_hebrew_runs_right_to_left(site, browser):
    browser.get(rule_page(site, "snap", "SNAP-DECK-1").as_uri())
    direction = browser.execute_script(
        "return getComputedStyle(document.querySelector('blockquote.source-quote[lang=\"he\"]')).direction")
    assert direction == "rtl"
    # within a Hebrew word, each letter is drawn to the left of the one before it
    xs = browser.execute_script("""
        const q = document.querySelector('blockquote.source-quote[lang="he"]');
        const t = q.firstChild; const s = t.textContent; const r = document.createRange();
        const heb = c => c >= '\\u05d0' && c <= '\\u05ea';
        let i = 0; while (i + 1 < s.length && !(heb(s[i]) && heb(s[i + 1]))) i++;
        r.setStart(t, i); r.setEnd(t, i + 1); const a = r.getBoundingClientRect().left;
        r.setStart(t, i + 1); r.setEnd(t, i + 2); const b = r.getBoundingClientRect().left;
        return [a, b];""")
    assert xs[0] > xs[1], xs


PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
DESKTOP = {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False}


def _viewport(driver, metrics: dict) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)


def _settled_scroll(driver) -> float:
    """The page scrolls smoothly to a fragment: wait until it stops."""
    last, still = None, 0
    for _ in range(100):
        y = driver.execute_script("return window.scrollY")
        still = still + 1 if y == last else 0
        if still >= 3:
            return y
        last = y
        time.sleep(0.05)
    return last


def test_no_page_scrolls_sideways_on_a_phone(site, browser):
    _viewport(browser, PHONE)
    try:
        wide = {}
        for p in _pages(site):
            browser.get(p.as_uri())
            width = browser.execute_script("return document.documentElement.scrollWidth")
            if width > PHONE["width"]:
                wide[str(p.relative_to(site))] = width
        assert not wide, f"pages wider than {PHONE['width']} px: {wide}"
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@pytest.mark.parametrize("metrics", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("game, rule_id", [("hearts", "HEARTS-MOON-2"), ("snap", "SNAP-CALL-3"), ("snap", "SNAP-END-4")])
def test_a_rule_anchor_lands_with_its_heading_in_view(site, browser, metrics, game, rule_id):
    _viewport(browser, metrics)
    try:
        browser.get(rule_page(site, game, rule_id).as_uri() + f"#{rule_id}")
        _settled_scroll(browser)
        top, bottom, header, height, text = browser.execute_script(f"""
            const h = document.getElementById("{rule_id}").querySelector("h1, h2, h3");
            const r = h.getBoundingClientRect();
            const bar = document.querySelector(".mobile-header");
            const covered = bar && getComputedStyle(bar).display !== "none" ? bar.getBoundingClientRect().bottom : 0;
            return [r.top, r.bottom, covered, window.innerHeight, h.textContent];""")
        assert text.startswith(rule_id)
        assert header <= top and bottom <= height, (top, bottom, header, height)
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_rule_ids_never_wrap(site, browser):
    _viewport(browser, PHONE)
    try:
        for p in (rule_page(site, "snap", "SNAP-SCOPE-1"), rule_page(site, "hearts", "HEARTS-FOLLOW-1"),
                  site / "generated" / "hearts-reconciliation.html"):
            browser.get(p.as_uri())
            wrapped = browser.execute_script("""
                return [...document.querySelectorAll(".rule-id")]
                  .filter(e => e.getClientRects().length > 1).map(e => e.textContent);""")
            assert not wrapped, (p.name, wrapped[:5])
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_inline_hebrew_is_isolated_in_the_page(site, browser):
    for p in (site / "generated" / "snap-reconciliation.html", rule_page(site, "snap", "SNAP-CALL-1")):
        browser.get(p.as_uri())
        bare = browser.execute_script("""
            const heb = /[\\u0590-\\u05ff]/, out = [];
            const walk = document.createTreeWalker(document.querySelector("article"), NodeFilter.SHOW_TEXT);
            for (let n = walk.nextNode(); n; n = walk.nextNode()) {
              if (!heb.test(n.data)) continue;
              const el = n.parentElement;
              if (el.closest("blockquote.source-quote")) continue;  // a block of its own
              const iso = el.closest("bdi, [dir]");
              const style = iso && getComputedStyle(iso);
              if (!iso || style.unicodeBidi !== "isolate" || style.direction !== "rtl" || iso.lang !== "he")
                out.push(n.data.slice(0, 40));
            }
            return out;""")
        assert not bare, (p.name, bare[:5])
        count = browser.execute_script("return document.querySelectorAll('article bdi[lang=he]').length")
        assert count > 0, p.name


def test_searching_a_rule_id_lands_on_the_rule(site, browser):
    for rule_id, game in (("HEARTS-MOON-2", "hearts"), ("snap-call-3", "snap")):
        browser.get((site / "search.html").as_uri() + f"?q={rule_id}")
        first = None
        for _ in range(100):
            first = browser.execute_script(
                "const a = document.querySelector('#search-results li a'); return a && a.getAttribute('href');")
            if first:
                break
            time.sleep(0.1)
        expected = rule_page(site, game, rule_id.upper()).relative_to(site).as_posix() + f"#{rule_id.upper()}"
        assert first == expected, (rule_id, first)


def test_caveats_page_shows_the_exact_curve_and_the_pot_endings(site):
    text = (site / "caveats.html").read_text(encoding="utf-8")
    exact = json.loads((ROOT / "results" / "exact" / "snap-exact.json").read_text(encoding="utf-8"))
    assert "snap-exact-curve.png" in text and (site / "_images" / "snap-exact-curve.png").is_file()
    for cell in exact["cells"]:
        assert cell["never_ends_exact"] in text
    assert "Pot still winnable" in text and "Pot stuck" in text
