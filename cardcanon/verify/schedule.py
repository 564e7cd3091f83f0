"""The order in which verify starts its runs: the longest first, so that the workers end
together. The times are measured: :func:`measured` reads them from a ``verify --json`` report
of a full run, and :data:`SECONDS` holds them; a check not listed counts one second a run."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from cardcanon.verify.runner import Task

# check ID -> seconds of one run (as written, with a probe, with a model mutant), and cvc5's
# seconds in the first run of the check as written (its other variants reuse most answers);
# measured in a full run with --jobs 2 on an idle 2-core machine; only their order matters
SECONDS: dict[str, tuple[float, float, float, float]] = {
    'HEARTS-P1-legal-move': (0.47, 1.65, 2.46, 0.24),
    'HEARTS-P2-trick-winner': (0.48, 0.89, 1.5, 0.2),
    'HEARTS-P3-first-leader': (0.21, 0.16, 1.31, 0.05),
    'HEARTS-P4-score-sum': (0.26, 0.03, 0.08, 0.85),
    'HEARTS-P5-score-pairs': (1.46, 0.74, 1.95, 0.26),
    'HEARTS-P6-match-bound': (0.4, 1.27, 0.49, 0.02),
    'HEARTS-P7-match-decision': (0.38, 0.28, 0.28, 0.01),
    'HEARTS-P8-endless-tie': (1.32, 1.14, 0.92, 0.0),
    'HEARTS-P9-match-play': (0.66, 0.0, 0.21, 0.0),
    'HEARTS-P10-engine': (0.35, 0.0, 0.02, 0.0),
    'HEARTS-P11-encoding': (0.78, 0.2, 0.14, 0.0),
    'HEARTS-P12-hand-text': (0.1, 0.0, 0.0, 0.0),
    'HEARTS-P13-environments': (0.19, 0.0, 0.08, 0.0),
    'SNAP-P1-conservation': (3.33, 0.06, 1.02, 8.0),
    'SNAP-P2-deal': (0.73, 0.11, 0.0, 1.15),
    'SNAP-P3-stuck-pot': (0.51, 0.0, 0.04, 0.0),
    'SNAP-P15-end2-winner': (1.62, 0.1, 0.05, 1.75),
    'SNAP-P16-no-cards': (0.69, 0.0, 0.43, 0.0),
    'SNAP-P4-index-no-pot': (0.75, 0.05, 1.38, 0.24),
    'SNAP-P5-lasso': (0.03, 0.0, 0.02, 0.0),
    'SNAP-P17-small-decks': (1.51, 0.0, 0.09, 0.0),
    'SNAP-P6-penalty': (1.02, 0.03, 1.0, 3.7),
    'SNAP-P7-players-out': (1.76, 0.0, 0.0, 0.0),
    'SNAP-P8-engine': (4.29, 0.0, 0.2, 0.0),
    'SNAP-P9-encoding': (13.96, 2.6, 0.7, 0.0),
    'SNAP-P10-policies': (0.56, 0.0, 0.01, 0.0),
    'SNAP-P11-seeded-deal': (0.26, 0.0, 0.04, 0.0),
    'SNAP-P13-endings': (2.03, 0.0, 0.03, 0.0),
    'SNAP-P14-engine-text': (0.8, 0.0, 0.63, 0.0),
    'SNAP-P12-locality': (1.04, 0.0, 0.01, 0.0),
    'SNAP-P18-environments': (4.36, 0.0, 1.9, 0.0),
}


def order(tasks: Sequence[Task]) -> list[Task]:
    """``tasks``, the longest expected first (a stable sort: ties keep the plan's order)."""
    first: dict[str, int] = {}
    for task in tasks:
        if task.second_solver:
            first.setdefault(task.check_id, task.key)

    def seconds(task: Task) -> float:
        main, probe, mutant, cvc5 = SECONDS.get(task.check_id, (1.0, 1.0, 1.0, 0.0))
        if task.model_mutant is not None:
            return mutant
        if task.probe is not None:
            return probe
        return main + (cvc5 if first.get(task.check_id) == task.key else 0.0)

    return sorted(tasks, key=seconds, reverse=True)


def measured(report: dict[str, Any]) -> dict[str, tuple[float, float, float, float]]:
    """The mean seconds of each kind of run of each check in a ``verify --json`` report."""

    def mean(values: list[float]) -> float:
        return round(sum(values) / len(values), 2) if values else 0.0

    table: dict[str, tuple[float, float, float, float]] = {}
    for check in report["checks"]:
        pairs = [r["second_solver"] for r in check["results"] if r.get("second_solver")]
        cvc5 = [p["cvc5_seconds"] for p in pairs]
        table[check["id"]] = (round(mean([r["seconds"] for r in check["results"]]) - mean(cvc5), 2),
                              mean([p["seconds"] for p in check["probes"]]),
                              mean([n["seconds"] for n in check["necessity"] if n.get("seconds")]),
                              round(max(cvc5, default=0.0), 2))
    return table


if __name__ == "__main__":  # python -m cardcanon.verify.schedule REPORT.json: the table's lines
    for check_id, row in measured(json.load(open(sys.argv[1], encoding="utf-8"))).items():
        print(f"    {check_id!r}: {row!r},")
