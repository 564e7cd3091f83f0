"""The rulebook site: a strict Sphinx build, generated from spec/, checked in a real browser."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import cardcanon.spec as spec

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs"))

import build as docs_build  # noqa: E402


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


@pytest.mark.parametrize("game", ["snap", "hearts"])
def test_every_rule_has_a_stable_anchor_and_its_quotes(site, game):
    text = page(site, f"{game}-rules")
    book = spec.load(game)
    for rule in book.rules:
        assert f'id="{rule.id}"' in text, rule.id
        for quote in rule.quotes:
            assert html.escape(quote.span, quote=False) in text or html.escape(quote.span) in text, (rule.id, quote.span[:40])


def test_quotes_carry_language_and_direction(site):
    text = page(site, "snap-rules")
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

    browser.get((site / "generated" / "snap-rules.html").as_uri())
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
    browser.get((site / "generated" / "snap-rules.html").as_uri())
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


def test_caveats_page_shows_the_exact_curve_and_the_pot_endings(site):
    text = (site / "caveats.html").read_text(encoding="utf-8")
    exact = json.loads((ROOT / "results" / "exact" / "snap-exact.json").read_text(encoding="utf-8"))
    assert "snap-exact-curve.png" in text and (site / "_images" / "snap-exact-curve.png").is_file()
    for cell in exact["cells"]:
        assert cell["never_ends_exact"] in text
    assert "Pot still winnable" in text and "Pot stuck" in text
