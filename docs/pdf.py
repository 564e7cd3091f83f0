"""Printable PDFs of the built site, printed by headless Chromium alone (the DevTools protocol's
``Page.printToPDF``, over a pipe: ``docs/cdp.py``): one of each how-to-play page and one of the
whole rulebook (every section page of both games, in rulebook order, as one document, with a
title page and a table of contents).

On paper: the PDF carries the document's title and an outline of its headings; a link within
the document stays a link, a link to another page of the site points at the site's address
(``--site-url``) or, without one, is printed as plain text: never a ``file://`` link into the
build machine. Each rule's "Verified by" is one line; the web footer is left off; the fonts are
those the downloads page names (:data:`FONTS`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import cdp

ARTICLE = re.compile(r'(<article role="main" id="furo-main-content">)(.*?)(</article>)', re.S)
# the fonts the PDFs embed, as the downloads page says (family names as in the PDF)
FONTS = {"NotoSans": "Noto Sans for the text", "NotoSansArmenian": "Noto Sans Armenian and",
         "NotoSansHebrew": "Noto Sans Hebrew for the quotes", "DejaVuSans": "DejaVu Sans for the suit signs",
         "DejaVuSansMono": "DejaVu Sans Mono for code"}
TITLES = {"play-hearts.pdf": "How to play two-player Hearts", "play-snap.pdf": "How to play Snap",
          "rulebook.pdf": "The cardcanon rulebook: Snap and two-player Hearts",
          "quickref-hearts.pdf": "Two-player Hearts: quick reference", "quickref-snap.pdf": "Snap: quick reference"}
# a quick reference is one page that prints unscaled on A4 and on US Letter: A4's width, Letter's height
ONE_PAGE = {"quickref-hearts.pdf", "quickref-snap.pdf"}
A4_LETTER = {"paperWidth": 8.25, "paperHeight": 11.0}

# Run in the page before printing: title, folded "Verified by", links, and the rulebook's contents.
PREPARE = r"""
(() => {
  const args = ARGS;
  document.title = args.title;
  document.documentElement.classList.add("print");
  for (const rubric of document.querySelectorAll("p.rubric")) {
    if (rubric.textContent.trim() !== "Verified by") continue;
    const line = rubric.nextElementSibling, details = line && line.nextElementSibling;
    if (details && details.matches("details.verified-by")) details.remove();  // the list stays on the web
    if (line && line.tagName === "P") {  // "Verified by" and its summary: one line
      rubric.textContent = "Verified by: ";
      rubric.classList.add("verified-line");
      rubric.append(...line.childNodes);
      line.remove();
    }
  }
  document.querySelectorAll("details").forEach(d => { d.open = true; });
  const ids = new Set([...document.querySelectorAll("[id]")].map(e => e.id));
  for (const a of document.querySelectorAll("a[href]")) {
    const url = new URL(a.getAttribute("href"), location.href);
    if (url.protocol !== "file:") continue;
    const id = decodeURIComponent(url.hash.slice(1));
    if (id && ids.has(id) && (args.whole || url.pathname === location.pathname)) {
      a.setAttribute("href", "#" + url.hash.slice(1));
    } else if (args.site && url.href.startsWith(args.root)) {
      a.setAttribute("href", args.site + url.href.slice(args.root.length));
    } else {
      a.removeAttribute("href");
    }
  }
  if (!args.whole) return;
  const article = document.querySelector("article");
  const text = h => { const c = h.cloneNode(true); c.querySelectorAll(".headerlink").forEach(x => x.remove());
                      return c.textContent.trim(); };
  const cover = document.createElement("div");
  cover.className = "print-cover";
  const title = document.createElement("p"); title.className = "print-title"; title.textContent = args.heading;
  const sub = document.createElement("p"); sub.textContent = args.subtitle;
  const nav = document.createElement("nav"); nav.className = "print-toc";
  const head = document.createElement("p"); head.className = "print-toc-title"; head.textContent = "Contents";
  const list = document.createElement("ol");
  for (const section of article.querySelectorAll(":scope > section")) {
    const h1 = section.querySelector("h1");
    const li = document.createElement("li");
    const link = document.createElement("a"); link.href = "#" + section.id; link.textContent = text(h1);
    li.append(link);
    const rules = document.createElement("ul");
    for (const sub of section.querySelectorAll(":scope > section")) {
      const h2 = sub.querySelector("h2");
      if (!h2) continue;
      const r = document.createElement("li"), a = document.createElement("a");
      a.href = "#" + sub.id; a.textContent = text(h2); r.append(a); rules.append(r);
    }
    li.append(rules); list.append(li);
  }
  nav.append(head, list);
  cover.append(title, sub, nav);
  article.prepend(cover);
})()
"""


HEADINGS = r"""[...document.querySelectorAll("article h1, article h2, article h3, article h4")].map(h => {
  const c = h.cloneNode(true); c.querySelectorAll(".headerlink").forEach(x => x.remove()); return c.textContent.trim(); })"""


def fix_outline(path: Path, headings: list[str]) -> None:
    """Chromium's outline drops the space where a heading wraps ("The end of thematch"): give
    each outline entry the text of its heading back."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject, TextStringObject

    by_letters = {h.replace(" ", ""): h for h in headings}
    writer = PdfWriter(clone_from=PdfReader(path))
    root = writer._root_object.get("/Outlines")
    stack = [root.get_object().get("/First")] if root is not None else []
    while stack:
        item = stack.pop()
        if item is None:
            continue
        node = item.get_object()
        title = str(node.get("/Title", ""))
        fixed = by_letters.get(title.replace(" ", ""))
        if fixed and fixed != title:
            node[NameObject("/Title")] = TextStringObject(fixed)
        stack += [node.get("/Next"), node.get("/First")]
    with open(path, "wb") as handle:
        writer.write(handle)


def _page_count(path: Path) -> int:
    from pypdf import PdfReader

    return len(PdfReader(path).pages)


def chromium() -> str | None:
    """The Chromium binary, when installed: it is all the PDFs need."""
    return cdp.chromium()


def _rulebook_html(html: Path, sections: list[Path]) -> Path:
    """One page holding the articles of every section page (all at the same depth, so the
    relative links to styles and pictures stay right)."""
    first = sections[0].read_text(encoding="utf-8")
    body = "".join(ARTICLE.search(p.read_text(encoding="utf-8")).group(2) for p in sections)
    page = sections[0].parent / "_print-rulebook.html"
    page.write_text(ARTICLE.sub(lambda m: m.group(1) + body + m.group(3), first, count=1), encoding="utf-8")
    return page


def print_all(html: Path, out: Path, version: str, section_pages: list[str], site_url: str = "") -> list[Path]:
    """Print the PDFs into ``out``; ``section_pages`` are the rulebook's pages in order;
    ``site_url`` the address the site is published at (links to other pages point there)."""
    if chromium() is None:
        raise RuntimeError("no chromium to print the PDFs (.ci/system-deps.sh installs it)")
    out.mkdir(parents=True, exist_ok=True)
    rulebook = _rulebook_html(html, [html / f"{p}.html" for p in section_pages])
    pages = {"play-hearts.pdf": html / "generated" / "play-hearts.html",
             "play-snap.pdf": html / "generated" / "play-snap.html", "rulebook.pdf": rulebook,
             "quickref-hearts.pdf": html / "generated" / "quickref-hearts.html",
             "quickref-snap.pdf": html / "generated" / "quickref-snap.html"}
    root = html.resolve().as_uri() + "/"
    site = site_url.rstrip("/") + "/" if site_url else ""
    made = []
    try:
        with cdp.Browser() as browser:
            for name, page in pages.items():
                title = TITLES[name]
                tab = browser.open(page.resolve().as_uri())
                args = {"title": f"{title} (cardcanon {version})", "heading": title, "root": root, "site": site,
                        "whole": name == "rulebook.pdf",
                        "subtitle": f"Version {version}. Every rule of both games with its sources, "
                                    "discrepancies and verification."}
                tab.evaluate(PREPARE.replace("ARGS", json.dumps(args)))
                tab.evaluate("document.fonts.ready.then(() => true)")
                footer = (f'<div style="font-family:Noto Sans,sans-serif;font-size:8px;width:100%;text-align:center;'
                          f'color:#555">{title} · cardcanon {version} · page <span class="pageNumber"></span> of '
                          '<span class="totalPages"></span></div>')
                paper = A4_LETTER if name in ONE_PAGE else {"paperWidth": 8.27, "paperHeight": 11.69}  # A4
                margin = 0.35 if name in ONE_PAGE else 0.5
                data = tab.pdf(printBackground=True, **paper,
                               marginTop=margin, marginBottom=margin + 0.1, marginLeft=margin, marginRight=margin,
                               displayHeaderFooter=True, headerTemplate="<div></div>", footerTemplate=footer,
                               generateTaggedPDF=True, generateDocumentOutline=True)
                (out / name).write_bytes(data)
                if name in ONE_PAGE and (count := _page_count(out / name)) != 1:
                    raise RuntimeError(f"{name}: the quick reference takes {count} pages, not one")
                fix_outline(out / name, tab.evaluate(HEADINGS))
                made.append(out / name)
    finally:
        rulebook.unlink(missing_ok=True)
    return made
