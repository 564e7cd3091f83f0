"""Build the rulebook site: run ``cardcanon verify --json``, then a strict Sphinx build.

Usage: ``python docs/build.py [--out DIR] [--verify-json FILE] [--quick]``. With
``--verify-json`` an existing report is used instead of running the checks. Warnings are
errors and broken references fail the build.
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
    args = parser.parse_args()
    return build(args.out, args.verify_json, args.quick, args.junit_xml)


if __name__ == "__main__":
    sys.exit(main())
