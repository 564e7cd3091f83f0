"""Printable PDFs of the built site, printed by headless Chromium (``Page.printToPDF``):
one of each how-to-play page and one of the whole rulebook (every section page of both
games, in rulebook order, as one document). Chromium draws the Armenian and Hebrew quotes
with the same Noto fonts as the site and embeds them."""

from __future__ import annotations

import base64
import re
import shutil
from pathlib import Path

ARTICLE = re.compile(r'(<article role="main" id="furo-main-content">)(.*?)(</article>)', re.S)


def chromium() -> str | None:
    """The Chromium binary, when it and its driver are installed."""
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path and shutil.which("chromedriver"):
            return path
    return None


def _driver(binary: str):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


def _rulebook_html(html: Path, sections: list[Path]) -> Path:
    """One page holding the articles of every section page (all at the same depth, so the
    relative links to styles and pictures stay right)."""
    first = sections[0].read_text(encoding="utf-8")
    body = "".join(ARTICLE.search(p.read_text(encoding="utf-8")).group(2) for p in sections)
    page = sections[0].parent / "_print-rulebook.html"
    page.write_text(ARTICLE.sub(lambda m: m.group(1) + body + m.group(3), first, count=1), encoding="utf-8")
    return page


def print_all(html: Path, out: Path, version: str, section_pages: list[str]) -> list[Path]:
    """Print the PDFs into ``out``; ``section_pages`` are the rulebook's pages in order."""
    binary = chromium()
    if binary is None:
        raise RuntimeError("no chromium/chromedriver to print the PDFs (.ci/system-deps.sh installs them)")
    out.mkdir(parents=True, exist_ok=True)
    rulebook = _rulebook_html(html, [html / f"{p}.html" for p in section_pages])
    jobs = {"play-hearts.pdf": (html / "generated" / "play-hearts.html", "How to play two-player Hearts"),
            "play-snap.pdf": (html / "generated" / "play-snap.html", "How to play Snap"),
            "rulebook.pdf": (rulebook, "The cardcanon rulebook")}
    driver = _driver(binary)
    made = []
    try:
        for name, (page, title) in jobs.items():
            driver.get(page.as_uri())
            # on paper every folded list is shown
            driver.execute_script("document.querySelectorAll('details').forEach(d => { d.open = true; });"
                                  "return document.fonts.ready")
            footer = (f'<div style="font-size:8px;width:100%;text-align:center;color:#555">{title} · '
                      f'cardcanon {version} · page <span class="pageNumber"></span> of '
                      '<span class="totalPages"></span></div>')
            pdf = driver.execute_cdp_cmd("Page.printToPDF", {
                "printBackground": True, "paperWidth": 8.27, "paperHeight": 11.69,  # A4
                "marginTop": 0.5, "marginBottom": 0.6, "marginLeft": 0.5, "marginRight": 0.5,
                "displayHeaderFooter": True, "headerTemplate": "<div></div>", "footerTemplate": footer})
            (out / name).write_bytes(base64.b64decode(pdf["data"]))
            made.append(out / name)
    finally:
        driver.quit()
        rulebook.unlink(missing_ok=True)
    return made
