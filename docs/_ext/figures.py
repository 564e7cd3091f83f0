"""The caveats page's pictures, plots and numbers, drawn from the models and the data."""

from __future__ import annotations

from pathlib import Path


def draw_all(out: Path, ev) -> None:
    inc = out.parent
    for name in ("caveat-snap-cycle", "caveat-snap-termination", "caveat-snap-pot", "caveat-hearts-tiebreak"):
        (inc / f"{name}.inc").write_text("(pending)\n", encoding="utf-8")
