"""``cardcanon smt-check DIR``: decide exported SMT-LIB 2 queries again with cvc5's own parser.

``cardcanon verify --export-smt DIR`` writes every query a ``z3-proof`` verdict rests on, each
file starting with the line ``; expected: unsat`` (or ``sat``): the answer both solvers gave.
This command parses each file with cvc5's SMT-LIB parser, prints cvc5's answer for each, and
exits 1 when any answer is not the expected one (2: no such folder, or no ``.smt2`` file).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from cardcanon.proofs.smt import cvc5_decide, expected_of


def add_parser(sub: Any) -> None:
    parser = sub.add_parser("smt-check", help="decide exported SMT-LIB 2 queries again with cvc5")
    parser.add_argument("folder", metavar="DIR", help="a folder written by `cardcanon verify --export-smt DIR`")
    parser.add_argument("--timeout", type=float, default=120.0, metavar="SECONDS", help="per query (default 120)")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    folder = Path(args.folder)
    if not folder.is_dir():
        raise ValueError(f"{args.folder}: no such folder")
    files = sorted(folder.glob("*.smt2"))
    if not files:
        raise ValueError(f"{args.folder}: no .smt2 file")
    wrong = 0
    started = time.perf_counter()
    for path in files:
        text = path.read_text(encoding="utf-8")
        expected = expected_of(text)
        try:
            answer = cvc5_decide(text, args.timeout, path.name)
        except RuntimeError as exc:  # cvc5 refused to parse the file
            answer = f"parse error: {str(exc).splitlines()[0] if str(exc) else exc}"
        ok = expected is not None and answer == expected
        wrong += not ok
        note = "" if ok else f"  (expected {expected or 'no expected answer in the file'})"
        print(f"{path.name}: {answer}{note}")
    print(f"{len(files)} queries, {len(files) - wrong} as expected, {wrong} not; "
          f"{time.perf_counter() - started:.1f} s", file=sys.stderr if wrong else sys.stdout)
    return 1 if wrong else 0
