"""Build the rulebook site: run ``cardcanon verify --json``, then a strict Sphinx build, then
print the PDFs with headless Chromium.

Usage: ``python docs/build.py [--out DIR] [--verify-json FILE] [--quick] [--tests] [--no-pdf] [--site-url URL]``.
With ``--verify-json`` an existing report is used instead of running the checks; with
``--tests`` the test suite runs first (its JUnit report gives each test's verdict under
"Verified by"; without it the pages say that no tests ran). Warnings are errors and broken
references fail the build. The PDFs are made when Chromium is installed (``.ci/system-deps.sh``):
it is all they need. ``--site-url`` (or ``CARDCANON_SITE_URL``) is the address the site is
published at: the PDFs' links to other pages point there; without it they are plain text.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS))

import pdf  # noqa: E402


def rulebook_pages() -> list[str]:
    """The docnames of the rule pages, both games, in rulebook order."""
    sys.path.insert(0, str(DOCS / "_ext"))
    from rulebook_pages import section_docname

    from cardcanon import spec

    return [f"generated/{section_docname(game, section)}" for game in ("snap", "hearts")
            for section, _ in spec.load(game).sections()]


def build(out: Path, verify_json: Path | None = None, quick: bool = False, junit_xml: Path | None = None,
          pdfs: bool | None = None, site_url: str | None = None) -> int:
    """Build into ``out/html``; ``pdfs`` None makes the PDFs when Chromium is installed."""
    out.mkdir(parents=True, exist_ok=True)
    if verify_json is None:
        verify_json = out / "verify.json"
        cmd = [sys.executable, "-m", "cardcanon", "verify", "--json", str(verify_json)]
        if quick:
            cmd.append("--quick")
        # the report records failures too; the site shows them, so the build goes on
        subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL)
        if not verify_json.is_file():
            print("docs: cardcanon verify wrote no report", file=sys.stderr)
            return 2
    # the downloads page says whether the PDFs are made, and if not, why
    if pdfs is None:
        pdfs = pdf.chromium() is not None
        why = "1" if pdfs else "no-chromium"
    else:
        why = "1" if pdfs else "off"
    site_url = os.environ.get("CARDCANON_SITE_URL", "") if site_url is None else site_url
    env = dict(os.environ, CARDCANON_VERIFY_JSON=str(verify_json), CARDCANON_PDF=why, CARDCANON_SITE_URL=site_url)
    if junit_xml:
        env["CARDCANON_JUNIT_XML"] = str(junit_xml)
    html = out / "html"
    cmd = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "-b", "html", str(DOCS), str(html)]
    status = subprocess.run(cmd, env=env, check=False).returncode
    if status == 0 and pdfs:
        from cardcanon.version import build_info

        try:
            pdf.print_all(html, html / "downloads", build_info().version, rulebook_pages(), site_url)
        except (RuntimeError, OSError) as exc:
            print(f"docs: the PDFs could not be printed: {exc}", file=sys.stderr)
            return 1
    elif status == 0 and why == "no-chromium":
        print("docs: no PDFs: chromium is not installed (.ci/system-deps.sh installs it)", file=sys.stderr)
    return status


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DOCS / "_build")
    parser.add_argument("--verify-json", type=Path)
    parser.add_argument("--junit-xml", type=Path)
    parser.add_argument("--quick", action="store_true", help="run verify with its quick bounds")
    parser.add_argument("--tests", action="store_true", help="run the tests first and show their verdicts")
    parser.add_argument("--no-pdf", action="store_true", help="skip the printable PDFs")
    parser.add_argument("--site-url", help="the address the site is published at (links in the PDFs)")
    args = parser.parse_args()
    started = time.monotonic()
    junit = args.junit_xml
    if args.tests and junit is None:
        args.out.mkdir(parents=True, exist_ok=True)
        junit = args.out / "junit.xml"
        # the docs tests build this site themselves, so they are left out here
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--junitxml", str(junit),
                        "--ignore", str(DOCS.parent / "tests" / "test_docs_site.py")], cwd=DOCS.parent, check=False)
    status = build(args.out, args.verify_json, args.quick, junit, pdfs=False if args.no_pdf else None,
                   site_url=args.site_url)
    seconds = time.monotonic() - started
    index = (args.out / "html" / "index.html").resolve()
    if status == 0:
        print(f"docs: built {index} in {seconds:.0f} s")
    else:
        print(f"docs: the build failed after {seconds:.0f} s (status {status}); see the messages above",
              file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
