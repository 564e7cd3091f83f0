"""Build the rulebook site: run ``cardcanon verify --json``, then a strict Sphinx build.

Usage: ``python docs/build.py [--out DIR] [--verify-json FILE] [--quick] [--tests]``. With
``--verify-json`` an existing report is used instead of running the checks; with ``--tests``
the test suite runs first (its JUnit report gives each test's verdict under "Verified by").
Warnings are errors and broken references fail the build.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent


def build(out: Path, verify_json: Path | None = None, quick: bool = False, junit_xml: Path | None = None) -> int:
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
    env = dict(os.environ, CARDCANON_VERIFY_JSON=str(verify_json))
    if junit_xml:
        env["CARDCANON_JUNIT_XML"] = str(junit_xml)
    cmd = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "-b", "html",
           str(DOCS), str(out / "html")]
    return subprocess.run(cmd, env=env, check=False).returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DOCS / "_build")
    parser.add_argument("--verify-json", type=Path)
    parser.add_argument("--junit-xml", type=Path)
    parser.add_argument("--quick", action="store_true", help="run verify with its quick bounds")
    parser.add_argument("--tests", action="store_true", help="run the tests first and show their verdicts")
    args = parser.parse_args()
    junit = args.junit_xml
    if args.tests and junit is None:
        args.out.mkdir(parents=True, exist_ok=True)
        junit = args.out / "junit.xml"
        # the docs tests build this site themselves, so they are left out here
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--junitxml", str(junit),
                        "--ignore", str(DOCS.parent / "tests" / "test_docs.py")], cwd=DOCS.parent, check=False)
    return build(args.out, args.verify_json, args.quick, junit)


if __name__ == "__main__":
    sys.exit(main())
