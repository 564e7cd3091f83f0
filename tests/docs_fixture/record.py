"""Record the small verify report the docs tests render (``verify-report.json`` beside this file).

Usage: ``python tests/docs_fixture/record.py [REPORT]``. Without REPORT it runs
``cardcanon verify --quick --json`` (about half a minute); with REPORT it trims that report.
The trimmed report keeps what the site shows (verdicts, variants, probes, necessity cells,
the first lines of witnesses and details) and drops the game records. ``tests/test_docs.py``
fails when its check IDs, rule citations or variants differ from the manifests'.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "verify-report.json"
TOP = ("provenance", "cardcanon_version", "z3_version", "cvc5_version", "python", "started", "wall_seconds", "jobs", "quick",
       "totals", "ok", "variants", "necessity")
CHECK = ("id", "game", "title", "rules", "kind", "expected", "verdict", "passed", "status", "not_applicable",
         "engine_covers", "seconds", "detail", "witness", "witness_replayed", "second_solver", "bounds", "scope",
         "no_drop_probes", "stats", "verified_rules", "bindings", "unbound_results", "explanation", "rests_on",
         "premises", "bridge")
RESULT = ("variant", "options", "expected", "verdict", "witness_replayed", "replay_problems", "engine_disagreed",
          "engine_not_applicable", "second_solver", "seconds")
PROBE = ("id", "rule", "description", "verdict", "killed")
CELL = ("rule", "variant", "model_mutant", "description", "killed", "verdict")


def _short(text: Any, lines: int = 8, width: int = 300) -> Any:
    if not isinstance(text, str):
        return text
    kept = [line[:width] for line in text.splitlines()[:lines]]
    return "\n".join(kept) + ("\n…" if len(text.splitlines()) > lines else "")


def _pick(entry: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {k: entry[k] for k in keys if k in entry}


def trim(report: dict[str, Any]) -> dict[str, Any]:
    """The parts of a verify report that the site renders; unknown keys of a newer format are dropped."""
    out = _pick(report, TOP)
    out["checks"] = []
    for check in report["checks"]:
        c = _pick(check, CHECK)
        c["detail"] = _short(c.get("detail", ""), 3)
        c["witness"] = _short(c.get("witness", ""))
        for key in ("probes", "mutants"):  # the encoding probes, under either name
            if key in check:
                c[key] = [_pick(m, PROBE) for m in check[key]]
        c["results"] = [_pick(r, RESULT) for r in check.get("results", [])]
        c["necessity"] = [_pick(cell, CELL) for cell in check.get("necessity", [])]
        out["checks"].append(c)
    return out


def main() -> int:
    if len(sys.argv) > 1:
        report = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    else:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "verify.json"
            subprocess.run([sys.executable, "-m", "cardcanon", "verify", "--quick", "--json", str(path)],
                           check=False, stdout=subprocess.DEVNULL)
            report = json.loads(path.read_text(encoding="utf-8"))
    FIXTURE.write_text(json.dumps(trim(report), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {FIXTURE} ({FIXTURE.stat().st_size // 1024} kB, {len(report['checks'])} checks)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
