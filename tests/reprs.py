"""Code where words belong: Python reprs (``Seat(1)``, ``NoCall()``, ``CallKind.SNAP``, ``['2c']``,
``None``), cards as codes (``[Qc Kc]``) and seats as ``P0``. The reader pages and every text of a
verify report are scanned for it (``test_docs_site.py``, ``test_verify.py``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

REPR = re.compile(r"\b[A-Z]\w*\((?:[a-z_]+=|\))|\b(?:frozenset|Seat|Card\.parse)\(|\b[A-Z]\w*\.[A-Z][A-Z_]+\b"
                  r"|[\[({]'|\bNone\b|(?<![\w-])P\d+\b|\[(?:(?:10|[2-9TJQKA])[cdhs] ?)+\]")


def texts(data: Any, where: str = "") -> Iterator[tuple[str, str]]:
    """Every string in a JSON value, with where it lies (``.checks[3].detail``)."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from texts(value, f"{where}.{key}")
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from texts(value, f"{where}[{i}]")
    elif isinstance(data, str):
        yield where, data


def reprs_in(data: Any) -> list[str]:
    """``where: ...excerpt...`` for each string of ``data`` in which :data:`REPR` finds code."""
    return [f"{where}: ...{text[max(0, m.start() - 40):m.end() + 40]}..."
            for where, text in texts(data) for m in [REPR.search(text)] if m]
