"""Helpers of ``cardcanon analyze``: resumable chunk files, progress output, and the statistics
(Wilson intervals, type-7 quantiles, histograms) of every published number."""

from __future__ import annotations

import json
import math
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

QUANTILES = (0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99, 1.0)
BIN_EDGES = (0, 50, 100, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 10000, 20000)
Z95 = 1.959963984540054  # the standard normal's 97.5% point


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default)."""
    if trials <= 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials and trials > 0, got {successes}/{trials}")
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """Linear-interpolation quantile (the usual "type 7") of already sorted values."""
    if not sorted_values:
        raise ValueError("quantile of no values")
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"quantile level {q} outside 0..1")
    pos = q * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def _bins(counted: Iterable[tuple[int, int]], edges: Sequence[int]) -> list[dict[str, Any]]:
    """Counts of (value, count) pairs in bins ``[edges[i], edges[i+1])`` and a last open bin."""
    totals = [0] * len(edges)
    for value, count in counted:
        if value < edges[0]:
            raise ValueError(f"value {value} below the first bin edge {edges[0]}")
        totals[next((k for k in range(len(edges) - 1) if value < edges[k + 1]), len(edges) - 1)] += count
    return [{"from": start, "to": edges[i + 1] if i + 1 < len(edges) else None, "count": totals[i]}
            for i, start in enumerate(edges)]


def histogram(values: Iterable[int], edges: Sequence[int] = BIN_EDGES) -> list[dict[str, Any]]:
    """Counts in bins ``[edges[i], edges[i+1])``; a last open bin ``[edges[-1], inf)``."""
    return _bins(Counter(values).items(), edges)


class ChunkFile:
    """A ``.jsonl`` file: a header line (the run's parameters), then one line per finished chunk.

    Reopening with a different header is refused (the chunks would not fit together). A last line
    cut short by an interruption is dropped, and that chunk is computed again.
    """

    def __init__(self, path: Path, header: dict[str, Any]) -> None:
        self.path, self.header = path, {"kind": "header", **header}
        self.chunks: dict[int, dict[str, Any]] = {}
        if path.exists():
            self._read()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._write_lines([self.header])

    def _read(self) -> None:
        lines = self.path.read_text(encoding="utf-8").splitlines()
        good = []
        for number, line in enumerate(lines, 1):
            try:
                item = json.loads(line)
            except json.JSONDecodeError:
                if number == len(lines):
                    break  # an interrupted append: redo that chunk
                raise ValueError(f"{self.path}:{number}: not valid JSON; "
                                 "delete the file to start this cell again") from None
            good.append(item)
        if not good or good[0] != self.header:
            found = good[0] if good else None
            raise ValueError(f"{self.path}: made with other parameters ({found}); expected {self.header}. "
                             "Use the same options, another --out, or delete the file to start again")
        for item in good[1:]:
            self.chunks[item["index"]] = item
        if len(good) != len(lines):
            self._write_lines(good)

    def _write_lines(self, items: list[dict[str, Any]]) -> None:
        self.path.write_text("".join(json.dumps(i, separators=(",", ":")) + "\n" for i in items), encoding="utf-8")

    def has(self, index: int, count: int) -> bool:
        """Chunk ``index`` is finished with ``count`` seeds (a shorter last chunk of an earlier,
        smaller run is computed again, and the new line wins)."""
        return index in self.chunks and self.chunks[index]["count"] == count

    def finished(self, n_chunks: int, count_of: Callable[[int], int]) -> list[dict[str, Any]]:
        """The finished chunks among the first ``n_chunks``, in order, up to the first missing one."""
        out = []
        for index in range(n_chunks):
            if not self.has(index, count_of(index)):
                break
            out.append(self.chunks[index])
        return out

    def append(self, index: int, data: dict[str, Any]) -> None:
        item = {"kind": "chunk", "index": index, **data}
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(item, separators=(",", ":")) + "\n")
            f.flush()
            os.fsync(f.fileno())
        self.chunks[index] = item


class Progress:
    """A one-line progress display on a terminal; plain lines otherwise (logs, CI)."""

    def __init__(self, quiet: bool = False, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.quiet = quiet
        self.tty = self.stream.isatty()
        self.steps = 0

    def advance(self, what: str, done: int = 0, total: int = 0) -> None:
        """One more chunk finished: ``what``, the ``done``-th of ``total`` of its cell."""
        self.steps += 1
        if self.quiet:
            return
        if self.tty:
            filled = 30 * done // total if total else 0
            self.stream.write(f"\r[{'#' * filled}{'-' * (30 - filled)}] {done}/{total} {what}\x1b[K")
        else:
            self.stream.write(f"done: {what} chunk {done}/{total}\n" if total else f"done: {what}\n")
        self.stream.flush()

    def note(self, text: str) -> None:
        if not self.quiet:
            self.stream.write(("\n" if self.tty else "") + text + "\n")

    def done(self, text: str) -> None:
        self.note(text)


def counter_json(counts: Mapping[Any, int]) -> dict[str, int]:
    return {str(k): int(v) for k, v in sorted(counts.items())}


def _quantile(values: list[tuple[int, int]], total: int, q: float) -> float:
    """Type-7 quantile of a multiset given as sorted (value, count) pairs."""
    pos = q * (total - 1)
    lo = int(pos)

    def at(i: int) -> int:
        seen = 0
        for value, count in values:
            seen += count
            if i < seen:
                return value
        return values[-1][0]

    a, b = at(lo), at(min(lo + 1, total - 1))
    return a + (b - a) * (pos - lo)


def distribution(counts: Mapping[int, int], edges: Sequence[int] = BIN_EDGES,
                 fine: int | None = None) -> dict[str, Any] | None:
    """Count, mean, min/max, quantiles and a histogram of a multiset of non-negative integers;
    with ``fine``, also counts in bins of that width (``fine_histogram[i]``: values
    ``i * fine`` to ``(i + 1) * fine - 1``), for plots."""
    counts = Counter({k: v for k, v in counts.items() if v})
    total = sum(counts.values())
    if not total:
        return None
    values = sorted(counts.items())
    out = {"count": total, "mean": sum(v * c for v, c in values) / total, "min": values[0][0], "max": values[-1][0],
           "quantiles": {f"{q:g}": _quantile(values, total, q) for q in QUANTILES}, "histogram": _bins(values, edges)}
    if fine:
        fine_bins = [0] * (values[-1][0] // fine + 1)
        for v, c in values:
            fine_bins[v // fine] += c
        out.update(fine_bin_width=fine, fine_histogram=fine_bins)
    return out


def wilson_json(successes: int, trials: int) -> dict[str, Any]:
    if trials == 0:
        return {"estimate": None, "wilson95": None}
    lo, hi = wilson(successes, trials)
    return {"estimate": successes / trials, "wilson95": [lo, hi]}
