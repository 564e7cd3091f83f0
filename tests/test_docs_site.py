"""The rulebook site as built: a strict Sphinx build from a small recorded verify report, its
HTML and PDFs, checked in a real browser (slow: the build takes about a minute; the quick
suite checks the generated reST in ``tests/test_docs.py``)."""

from __future__ import annotations

import html
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
from conftest import PROFILE

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs"))

import build as docs_build  # noqa: E402

sys.path.insert(0, str(ROOT / "docs" / "_ext"))
from rulebook_pages import section_docname  # noqa: E402
from test_docs import DOWNLOADS, check_downloads  # noqa: E402

pytestmark = pytest.mark.slow

FIXTURE = ROOT / "tests" / "docs_fixture" / "verify-report.json"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site built from a small recorded verify report (``tests/docs_fixture/record.py`` makes it)."""
    out = tmp_path_factory.mktemp("site")
    status = docs_build.build(out, verify_json=FIXTURE)
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
    report = json.loads(FIXTURE.read_text(encoding="utf-8"))
    text = page(site, "verification")
    for check in report["checks"]:
        assert f'<section id="{check["id"]}">' in text and f'class="headerlink" href="#{check["id"]}"' in text
        assert check["verdict"] in text
    # each check's premises: a link to the premise's section, on the verification page and the rule pages
    assert re.search(r'Rests on \(proved only where each passed under the same variant\): '
                     r'<a class="reference internal" href="#HEARTS-P11-encoding"', text)
    rule = rule_page(site, "hearts", "HEARTS-MOON-1").read_text(encoding="utf-8")
    assert re.search(r'rests on <a class="reference internal" href="[^"]*verification.html#HEARTS-P11-encoding"', rule)


def test_verified_by_links_each_test_and_proof_to_its_code(site):
    text = rule_page(site, "hearts", "HEARTS-MOON-1").read_text(encoding="utf-8")
    links = re.findall(r'href="(\.\./source/[^"#]+)#([^"]+)"', text)
    assert any(t.startswith("src-tests-") for _, t in links) and any(t.startswith("src-check-") for _, t in links)
    assert any(t.startswith("src-model-") for _, t in links), "model code citations link to the source listing"
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
    from cardcanon.version import build_info

    build = build_info()
    for p in _pages(site):
        text = p.read_text(encoding="utf-8")
        assert re.search(f'class="build-info">cardcanon {re.escape(build.version)} · built \\d{{4}}-\\d\\d-\\d\\d', text), p
        # the header names the version, and a development build says so at the top of the page
        assert f"cardcanon {build.version}" in text[:text.index('id="furo-main-content"')], p
        assert ("Development build " + build.version in text) == (not build.released), p



def test_downloads(site):
    check_downloads(site / "downloads")
    text = page(site, "downloads")
    for name in DOWNLOADS:
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



def _pdf_fonts(reader) -> set[str]:
    """The families of the fonts a PDF embeds: ``ABCDEF+NotoSans-Bold`` -> ``NotoSans``."""
    fonts = set()
    for pg in reader.pages:
        for font in (pg.get("/Resources", {}).get("/Font", {}) or {}).values():
            name = str(font.get_object().get("/BaseFont", ""))
            fonts.add(name.lstrip("/").split("+")[-1].split("-")[0])
    return fonts


def _link_uris(reader) -> list[str]:
    """The address of every link annotation of a PDF that leaves the document."""
    uris = []
    for pg in reader.pages:
        for annot in pg.get("/Annots", []) or []:
            action = annot.get_object().get("/A")
            if action is not None and action.get_object().get("/URI") is not None:
                uris.append(str(action.get_object()["/URI"]))
    return uris


def _outline_titles(outline) -> list[str]:
    out = []
    for item in outline:
        out += _outline_titles(item) if isinstance(item, list) else [item.title]
    return out


def test_the_pdfs(site):
    """Title, outline, no file:// link, no web footer, the fonts the downloads page names; the
    rulebook with its contents and one "Verified by" line per rule."""
    if _chromium_only() is None:
        pytest.skip("the PDFs are printed by chromium, which is not installed")
    _need_noto_fonts()
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed: .ci/system-deps.sh installs it")
    import pdf
    import pypdf

    from cardcanon.version import build_info

    version = build_info().version
    downloads = site / "downloads"
    stated = page(site, "downloads")
    for name, title in pdf.TITLES.items():
        reader = pypdf.PdfReader(downloads / name)
        uris = _link_uris(reader)
        assert not [u for u in uris if not u.startswith(("https:", "http:"))], f"{name}: a link to the build machine"
        assert reader.metadata.title == f"{title} (cardcanon {version})", name
        outline = _outline_titles(reader.outline)
        assert len(outline) >= 3, (name, outline)
        text = _pdftotext(downloads / name)
        assert "built 20" not in text and "Made with" not in text, f"{name}: the web footer is printed"
        assert f"cardcanon {version}" in text
        fonts = _pdf_fonts(reader)
        assert fonts <= set(pdf.FONTS), f"{name}: fonts the downloads page does not name: {fonts - set(pdf.FONTS)}"
        for family in fonts:
            assert pdf.FONTS[family].split(" for ")[0].split(" and")[0] in stated, family
    rulebook = pypdf.PdfReader(downloads / "rulebook.pdf")
    outline = _outline_titles(rulebook.outline)
    for game in ("snap", "hearts"):
        book = spec.load(game)
        for section, rules in book.sections():
            assert any(t.endswith(section) for t in outline), section
        assert all(any(t.startswith(rule.id + " ") for t in outline) for rule in book.rules), game
    text = _pdftotext(downloads / "rulebook.pdf")
    first = text.split("\f")[0]
    assert first.startswith("The cardcanon rulebook") and "Contents" in first
    assert "Each proof, test and place" not in text
    assert text.count("Verified by:") == len(spec.all_rule_ids()), "not one Verified by line per rule"
    assert b"NotoSansHebrew" in (downloads / "rulebook.pdf").read_bytes()
    assert b"NotoSansArmenian" in (downloads / "rulebook.pdf").read_bytes()


def _pdftotext(path: Path) -> str:
    return subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def _chromium_only() -> str | None:
    import cdp

    return cdp.chromium()


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


def _phone_pages(site: Path) -> list[Path]:
    """Every page; in CI, of the source listings (half the pages, one template), one in eight."""
    pages = _pages(site)
    listings = [p for p in pages if p.parent.name == "source" or "_modules" in p.parts]
    return pages if PROFILE == "thorough" else [p for p in pages if p not in listings] + listings[::8]


def test_no_page_scrolls_sideways_on_a_phone(site, browser):
    _viewport(browser, PHONE)
    try:
        wide = {}
        for p in _phone_pages(site):
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
    assert "snap-exact-curve.svg" in text and (site / "_images" / "snap-exact-curve.svg").is_file()
    for cell in exact["cells"]:
        assert cell["never_ends_exact"] in text
    assert "Pot still winnable" in text and "Pot stuck" in text


CAVEATS_ON_A_PHONE = r"""(() => {
  const view = document.documentElement.clientWidth;
  const inView = (r, box) => r.left >= Math.max(0, box.left) - 0.5 && r.right <= Math.min(view, box.right) + 0.5;
  const out = {view, page: document.documentElement.scrollWidth, problems: []};
  // the exact-fractions table: its key column, head and first row, in view without scrolling
  const table = [...document.querySelectorAll("table")].find(t => /Two players, every deal: exact fraction/.test(t.caption?.textContent));
  const box = table.closest("div.table-wrapper").getBoundingClientRect();
  const col = [...table.querySelectorAll("thead th")].findIndex(th => th.textContent.trim() === "Never end (exact)");
  out.keyColumn = col;
  for (const cell of [table.querySelectorAll("thead th")[col], table.querySelector("tbody tr").children[col]])
    if (!inView(cell.getBoundingClientRect(), box)) out.problems.push("exact table: " + cell.textContent.trim());
  // every box wider than the screen says that it scrolls
  for (const b of document.querySelectorAll("article div.table-wrapper, article div.wide-figure")) {
    if (b.scrollWidth <= b.clientWidth + 1) continue;
    const hint = b.previousElementSibling;
    if (!b.classList.contains("scrolls") || !hint || !hint.classList.contains("scroll-hint") || hint.hidden)
      out.problems.push("scrolls without a hint: " + (b.querySelector("caption, img")?.textContent || b.className));
  }
  // the pictures' titles and key lines are text that wraps in view
  for (const c of document.querySelectorAll("p.figure-caption"))
    if (!inView(c.getBoundingClientRect(), {left: 0, right: view})) out.problems.push("caption: " + c.textContent);
  const img = (name) => { const i = document.querySelector(`img[src$="${name}"]`); const r = i.getBoundingClientRect();
    const b = i.closest("div.wide-figure, article").getBoundingClientRect();
    return {left: r.left, width: r.width, boxLeft: b.left, boxRight: b.right}; };
  out.tiebreak = img("hearts-tiebreak.svg");
  out.charts = [...document.querySelectorAll("img.chart")].map(i => [i.getAttribute("src").split("/").pop(),
                                                                     i.getBoundingClientRect().width]);
  out.captions = [...document.querySelectorAll("p.figure-caption")].map(c => c.textContent);
  return out;
})()"""


def _svg_texts(path: Path) -> list[tuple[float, float, str]]:
    """(x, font size, text) of each text of one of our SVG pictures."""
    return [(float(x), float(size), html.unescape(t)) for x, size, t in
            re.findall(r'<text x="([\d.]+)" y="[\d.]+" font-size="(\d+)"[^>]*>([^<]*)</text>', path.read_text("utf-8"))]


@pytest.fixture(scope="module")
def chromium_pipe():
    """Headless Chromium over the DevTools pipe (``docs/cdp.py``): it needs no driver."""
    import cdp

    if cdp.chromium() is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing: .ci/system-deps.sh installs it")
        pytest.skip("chromium is not installed (.ci/system-deps.sh installs it)")
    with cdp.Browser() as browser:
        yield browser


def test_the_caveats_page_on_a_phone(site, chromium_pipe):
    """At 390 px: no sideways scroll of the page; the key column of the exact-fractions table and
    the tied scores of the tie-break picture in view; every wide box says it scrolls; the charts'
    smallest type at least 9 px."""
    tab = chromium_pipe.open((site / "caveats.html").as_uri(), width=390, height=844, mobile=True)
    seen = tab.evaluate(CAVEATS_ON_A_PHONE)
    assert seen["page"] <= seen["view"] == 390, seen["page"]
    assert seen["keyColumn"] >= 0 and not seen["problems"], seen["problems"]
    assert any("Seed" in c and "recurs" in c for c in seen["captions"]), "the Snap cycle's title and key line"
    # the tied scores, drawn in the picture, fall inside the visible part of its box
    pic = seen["tiebreak"]
    svg = (site / "_images" / "hearts-tiebreak.svg").read_text(encoding="utf-8")
    natural = float(re.search(r'<svg[^>]* width="([\d.]+)"', svg).group(1))
    scale = pic["width"] / natural
    scores = [(x, size, t) for x, size, t in _svg_texts(site / "_images" / "hearts-tiebreak.svg")
              if re.fullmatch(r"\d+ – \d+", t)]
    assert len(scores) == 3 and all(int(a) == int(b) for _, _, t in scores for a, b in [t.split(" – ")])
    for x, size, t in scores:
        left, right = pic["left"] + x * scale, pic["left"] + (x + 0.62 * size * len(t)) * scale
        assert pic["boxLeft"] <= left and right <= min(390, pic["boxRight"]), (t, left, right)
    # charts: the smallest type, scaled to the width drawn, stays legible
    assert len(seen["charts"]) >= 3
    for name, width in seen["charts"]:
        chart = (site / "_images" / name).read_text(encoding="utf-8")
        view_width = float(re.search(r'viewBox="0 0 ([\d.]+)', chart).group(1))
        smallest = min(float(s) for s in re.findall(r"font-size: ([\d.]+)px", chart))
        assert smallest * width / view_width >= 9, (name, smallest * width / view_width)


def _search(tab, site: Path, query: str) -> list[str]:
    """The result links of the site's own search for ``query``, in the order shown."""
    tab.goto((site / "search.html").as_uri() + "?q=" + query.replace(" ", "+"))
    hrefs, still = [], 0
    for _ in range(200):
        now = tab.evaluate("[...document.querySelectorAll('#search-results li a')].map(a => a.getAttribute('href'))")
        still = still + 1 if now and now == hrefs else 0
        hrefs = now
        if still >= 3:
            break
        time.sleep(0.05)
    return hrefs


@pytest.mark.parametrize("query, first", [("snap pot", "generated/snap/the-snap-pot.html"),
                                          ("index card", "generated/snap/eliminating-ties.html"),
                                          ("moon", "generated/hearts/scoring.html"),
                                          ("dead card", "generated/hearts/terms-of-play.html")])
def test_search_ranks_rule_pages_above_the_api(site, chromium_pipe, query, first):
    """Players' words find the rules: in the built search index, the page stating the rule comes
    first, and every rule page comes before every API entry and source listing."""
    hrefs = _search(chromium_pipe.open("about:blank"), site, query)
    assert hrefs and hrefs[0].split("#")[0] == first, hrefs[:5]
    rules = [i for i, h in enumerate(hrefs) if re.match(r"generated/(snap|hearts)/", h)]
    code = [i for i, h in enumerate(hrefs) if h.startswith(("api.html", "_modules/", "generated/source/"))]
    assert code and rules and max(rules) < min(code), (query, hrefs)


@pytest.mark.parametrize("name", ["caveats", "generated/verification", "generated/play-snap", "generated/play-hearts"])
def test_reader_pages_use_words_not_code(site, name):
    """No Python reprs, cards as rank and suit sign, seats as "player 0" on the pages people read."""
    from reprs import REPR

    text = html.unescape(re.sub(r"<[^>]+>", "", (site / f"{name}.html").read_text(encoding="utf-8")))
    article = text[text.find("Skip to content"):]
    assert not REPR.search(article), [m.group(0) for m in REPR.finditer(article)][:5]


def test_the_cli_names_the_site_version(site):
    from cardcanon.version import build_info

    cli = subprocess.run([sys.executable, "-m", "cardcanon", "--version"], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout.strip()
    assert cli == f"cardcanon {build_info().version}"
    assert f'class="build-info">{cli} · built' in (site / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("game", ["snap", "hearts"])
def test_each_rule_shows_the_line_that_cites_it(site, game):
    import hashlib

    from cardcanon.version import build_info

    digest = "sha256:" + hashlib.sha256((site / "downloads" / "rules.json").read_bytes()).hexdigest()
    for rule in spec.load(game).rules:
        text = html.unescape(re.sub(r"<[^>]+>", "", rule_page(site, game, rule.id).read_text(encoding="utf-8")))
        assert f"cardcanon {build_info().version}, rule {rule.id}, rulebook {digest}" in text, rule.id


def test_no_page_shows_a_path_of_the_build_machine(site):
    shown = {}
    for p in _pages(site):
        text = html.unescape(re.sub(r"<[^>]+>", "", p.read_text(encoding="utf-8")))
        found = re.findall(r"(?<![\w.])/(?:tmp|work|home|root|Users)/\S+", text)
        if found:
            shown[str(p.relative_to(site))] = found[:3]
    assert not shown, shown


def test_no_duplicate_ids_and_no_broken_anchors(site):
    from urllib.parse import unquote

    pages = _pages(site)
    ids, twice = {}, {}
    for p in pages:
        found = re.findall(r'\sid="([^"]+)"', p.read_text(encoding="utf-8"))
        ids[p.resolve()] = set(found)
        seen = [i for n, i in enumerate(found) if i in found[:n]]
        if seen:
            twice[str(p.relative_to(site))] = seen
    assert not twice, twice
    broken = set()
    for p in pages:
        for target, fragment in re.findall(r'href="([^"#:]*)#([^"]+)"', p.read_text(encoding="utf-8")):
            page_ = (p.parent / target).resolve() if target else p.resolve()
            if page_ in ids and html.unescape(unquote(fragment)) not in ids[page_]:
                broken.add((str(p.relative_to(site)), target, fragment))
    assert not broken, sorted(broken)[:10]


def test_the_caveats_page_says_which_figures_are_historical(site):
    text = html.unescape(re.sub(r"<[^>]+>", "", (site / "caveats.html").read_text(encoding="utf-8")))
    for name in ("results/analysis/snap.json", "results/exact/snap-exact.json", "results/analysis/hearts.json"):
        made = json.loads((ROOT / name).read_text(encoding="utf-8"))["provenance"]
        assert name in text
        if made.get("historical"):
            assert f"The figures below are from {name}" in text and "Historical figures" in text


def test_the_quick_references(site):
    """One page per game, linked from its how-to page and the downloads page; its PDF is one page."""
    downloads = page(site, "downloads")
    for game in ("snap", "hearts"):
        assert 'href="quickref-%s.html' % game in page(site, f"play-{game}")
        assert f'href="quickref-{game}.html' in downloads and f'href="../downloads/quickref-{game}.pdf"' in downloads
        text = html.unescape(re.sub(r"<[^>]+>", "", page(site, f"quickref-{game}")))
        for part in ("The deal", "The end"):
            assert part in text
        for rule in spec.load(game).rules:
            if rule.normative and rule.section not in ("Terms of play",):
                assert rule.id in text or rule.variation is not None, rule.id
    if _chromium_only() is None or shutil.which("pdfinfo") is None:
        pytest.skip("the PDFs need chromium and pdfinfo (poppler-utils): .ci/system-deps.sh installs them")
    for game in ("snap", "hearts"):
        info = subprocess.run(["pdfinfo", str(site / "downloads" / f"quickref-{game}.pdf")], capture_output=True,
                              text=True, check=True).stdout
        assert re.search(r"^Pages:\s+1$", info, re.M), info
        width, height = map(float, re.search(r"^Page size:\s+([\d.]+) x ([\d.]+) pts", info, re.M).groups())
        assert width <= 595.3 and height <= 792.0, "the page does not fit both A4 and Letter"


def test_the_first_screen_on_a_phone(site, chromium_pipe):
    """At 390 x 844: the whole banner, wrapped, and the verification page's summary table start
    in the first screen."""
    tab = chromium_pipe.open((site / "generated" / "verification.html").as_uri(), width=390, height=844, mobile=True)
    seen = tab.evaluate("""(() => {
      const banner = document.querySelector(".announcement"), inner = document.querySelector(".announcement-content");
      const table = document.querySelector("table.verify-summary");
      return {banner: banner ? banner.getBoundingClientRect().bottom : 0,
              cut: inner ? inner.scrollWidth > inner.clientWidth + 1 : false,
              table: table ? table.getBoundingClientRect().top : 9999,
              heads: table ? [...table.querySelectorAll("thead th")].map(th => th.textContent.trim()) : []};
    })()""")
    from cardcanon.version import build_info

    if not build_info().released:
        assert 0 < seen["banner"] <= 844 and not seen["cut"], seen
    assert seen["table"] < 844, seen
    assert seen["heads"] == ["Check", "Verdict", "Scope", "Rules"]


@pytest.mark.parametrize("query, first", [("100", "generated/hearts/the-end-of-the-match.html"),
                                          ("SNAP-P6", "generated/verification.html#SNAP-P6-")])
def test_search_finds_numbers_and_check_ids(site, chromium_pipe, query, first):
    hrefs = _search(chromium_pipe.open("about:blank"), site, query)
    assert hrefs and hrefs[0].startswith(first), hrefs[:5]


def test_a_gloss_stays_on_the_page_of_its_quote(site):
    if _chromium_only() is None or shutil.which("pdftotext") is None:
        pytest.skip("the PDFs need chromium and pdftotext (poppler-utils): .ci/system-deps.sh installs them")
    import pypdf

    path = site / "downloads" / "rulebook.pdf"
    split = []
    for number in range(1, len(pypdf.PdfReader(path).pages) + 1):
        text = subprocess.run(["pdftotext", "-f", str(number), "-l", str(number), "-layout", str(path), "-"],
                              capture_output=True, text=True, check=True).stdout
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if lines and lines[0].startswith("Gloss:"):
            split.append(number)
    assert not split, f"pages that begin with a gloss parted from its quote: {split}"


def test_the_key_columns_come_first(site):
    """On a phone only the first columns show beside the pinned one: the figure a table is about
    comes right after the column that names its row."""
    text = (site / "caveats.html").read_text(encoding="utf-8")
    heads = [[html.unescape(re.sub(r"<[^>]+>", "", th)).strip() for th in re.findall(r"<th[^>]*>(.*?)</th>", t, re.S)]
             for t in re.findall(r"<table[^>]*>.*?</table>", text, re.S)]
    seconds = [h[1] for h in heads if len(h) > 1]
    assert "Never end (95% interval)" in seconds and "Tie-break reached" in seconds, heads
