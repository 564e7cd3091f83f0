"""Which characters of a source the rulebook quotes (FORMAT.md, "Coverage").

Every letter or digit of every source must lie inside some quoted span of a rule or a
non-rule entry; every occurrence of a span counts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Coverage:
    """The covered character ranges ``[start, end)`` of one source text."""

    source_id: str
    text: str = field(repr=False)
    covered: tuple[tuple[int, int], ...]

    @classmethod
    def compute(cls, source_id: str, text: str, spans: Iterable[str]) -> Coverage:
        ranges: list[tuple[int, int]] = []
        for span in set(spans):
            if not span:
                continue
            start = text.find(span)
            while start >= 0:
                ranges.append((start, start + len(span)))
                start = text.find(span, start + 1)
        merged: list[tuple[int, int]] = []
        for start, end in sorted(ranges):
            if merged and start <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
            else:
                merged.append((start, end))
        return cls(source_id, text, tuple(merged))

    def _gaps(self) -> Iterable[tuple[int, int]]:
        position = 0
        for start, end in self.covered:
            if start > position:
                yield position, start
            position = end
        if position < len(self.text):
            yield position, len(self.text)

    @property
    def uncovered(self) -> list[tuple[int, int, str]]:
        """Uncovered runs that contain a letter or digit, as ``(start, end, text)``: split at line
        ends and trimmed of surrounding whitespace."""
        runs = []
        for gap_start, gap_end in self._gaps():
            start = gap_start
            for line in self.text[gap_start:gap_end].split("\n"):
                end = start + len(line)
                if any(char.isalnum() for char in line):
                    first = start + len(line) - len(line.lstrip())
                    last = end - (len(line) - len(line.rstrip()))
                    runs.append((first, last, self.text[first:last]))
                start = end + 1
        return runs

    @property
    def complete(self) -> bool:
        return not self.uncovered

    @property
    def letters_total(self) -> int:
        return sum(char.isalnum() for char in self.text)

    @property
    def letters_covered(self) -> int:
        return sum(sum(char.isalnum() for char in self.text[start:end]) for start, end in self.covered)

    def line_of(self, offset: int) -> int:
        return self.text.count("\n", 0, offset) + 1

    def report(self) -> str:
        """A readable list of the uncovered runs, one per line with its line number."""
        lines = [f"{self.source_id}: {self.letters_covered}/{self.letters_total} letters and digits quoted; "
                 f"{len(self.uncovered)} uncovered run(s):"]
        for start, end, piece in self.uncovered:
            lines.append(f"  line {self.line_of(start)} [{start}:{end}]: {piece!r}")
        return "\n".join(lines)
