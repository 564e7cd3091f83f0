"""Bad input as a new user tries it: every case gives one clear line and exit status 2.

Each case is one command line (some on a damaged game record). Before these checks existed the
cases split into tracebacks, invalid input accepted and a hang; ``python tests/test_bad_input.py``
prints that tally for the current code (expected now: all 0).
"""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cli_harness import Run, run_child, run_inprocess  # noqa: E402

HANG_SECONDS = 20.0


@dataclass(frozen=True)
class Case:
    id: str
    was: str  # what it did before: "traceback", "accepted" or "hang"
    run: Callable[[Path], Run]


def _cli(*argv: str) -> Callable[[Path], Run]:
    return lambda tmp: run_inprocess([a.replace("{tmp}", str(tmp)) for a in argv])


def _child(*argv: str) -> Callable[[Path], Run]:
    return lambda tmp: run_child(list(argv), timeout=HANG_SECONDS, cwd=tmp)


def valid_record(game: str, tmp: Path) -> dict:
    """A short, valid record of ``game`` written by the CLI itself."""
    path = tmp / f"valid-{game}.json"
    extra = ["--variant", "target=10"] if game == "hearts" else ["--max-flips", "40", "-q"]
    got = run_inprocess(["play", game, "--seed", "3", "--record", str(path), *extra])
    assert got.status == 0, got.stderr
    return json.loads(path.read_text(encoding="utf-8"))


def _replay(game: str, damage: Callable[[dict], dict | str]) -> Callable[[Path], Run]:
    def run(tmp: Path) -> Run:
        data = damage(copy.deepcopy(valid_record(game, tmp)))
        path = tmp / "damaged.json"
        path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
        return run_inprocess(["replay", "-q", str(path)])
    return run


def _set(**fields) -> Callable[[dict], dict]:
    return lambda data: {**data, **fields}


def _nested(data: dict) -> str:
    return json.dumps(data)[:-1] + ', "x": ' + "[" * 1000 + "]" * 1000 + "}"


def _duplicate_key(data: dict) -> str:
    """A first "seed" that a lenient reader silently drops in favour of the second."""
    return '{"seed": 999, "result": null, ' + json.dumps(data)[1:]


def _flip_with_card(data: dict) -> dict:
    for move in data["moves"]:
        if move["move"] == "flip":
            move["card"] = False
            break
    return data


def _snap_seed_minus_one(tmp: Path) -> Run:
    """The record ``play snap --seed -1`` wrote: seed -1 and the deal of seed 2**64 - 1."""
    path = tmp / "minus.json"
    got = run_inprocess(["play", "snap", "--seed", str(2**64 - 1), "--max-flips", "5", "-q", "--record", str(path)])
    assert got.status == 0, got.stderr
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**data, "seed": -1}), encoding="utf-8")
    return run_inprocess(["replay", "-q", str(path)])


_ANALYZE = ("analyze", "snap", "--players", "3", "--policies", "flipper-first", "--deals", "10",
            "--no-enumerate", "--no-records", "-q", "--out", "{tmp}/analysis")

CASES = [
    Case("verify-timeout-inf", "traceback", _child("verify", "--check", "HEARTS-P2", "--timeout", "inf")),
    Case("verify-timeout-1e12", "traceback", _child("verify", "--check", "HEARTS-P2", "--timeout", "1e12")),
    Case("verify-timeout-1e20", "traceback", _child("verify", "--check", "HEARTS-P2", "--timeout", "1e20")),
    Case("replay-hearts-nested-1000", "traceback", _replay("hearts", _nested)),
    Case("replay-snap-nested-1000", "traceback", _replay("snap", _nested)),
    Case("replay-bare-nested-1000", "traceback", _replay("snap", lambda d: "[" * 1000 + "]" * 1000)),
    Case("play-snap-seed-minus-1", "accepted", _cli("play", "snap", "--seed", "-1", "-q", "--max-flips", "5")),
    Case("replay-snap-seed-minus-1", "accepted", _snap_seed_minus_one),
    Case("analyze-seconds-per-cell-minus-1", "accepted", _cli(*_ANALYZE, "--seconds-per-cell", "-1")),
    Case("analyze-seconds-per-cell-nan", "accepted", _cli(*_ANALYZE, "--seconds-per-cell", "nan")),
    Case("rules-empty-id", "accepted", _cli("rules", "--id", "")),
    Case("hearts-version-true", "accepted", _replay("hearts", _set(version=True))),
    Case("hearts-version-1.0", "accepted", _replay("hearts", _set(version=1.0))),
    Case("snap-version-true", "accepted", _replay("snap", _set(version=True))),
    Case("snap-version-1.0", "accepted", _replay("snap", _set(version=1.0))),
    Case("hearts-unknown-top-level-field", "accepted", _replay("hearts", _set(winner_name="the loser"))),
    Case("snap-unknown-top-level-field", "accepted", _replay("snap", _set(winner_name="the loser"))),
    Case("hearts-50-MB-string", "accepted", _replay("hearts", _set(note="x" * 50_000_000))),
    Case("snap-50-MB-string", "accepted", _replay("snap", _set(note="x" * 50_000_000))),
    Case("snap-flip-with-false-card", "accepted", _replay("snap", _flip_with_card)),
    Case("snap-policy-unchecked", "accepted", _replay("snap", _set(policy="no such policy"))),
    Case("hearts-duplicate-keys", "accepted", _replay("hearts", _duplicate_key)),
    Case("snap-duplicate-keys", "accepted", _replay("snap", _duplicate_key)),
    Case("play-hearts-target-1e9", "hang", _child("play", "hearts", "--seed", "1", "--variant", "target=1000000000")),
]


def verdict(got: Run) -> str:
    if got.status is None:
        return "hang"
    if got.traceback:
        return "traceback"
    if got.status == 0:
        return "accepted"
    return "rejected"


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_bad_input_is_rejected_with_one_line(case: Case, tmp_path: Path):
    got = case.run(tmp_path)
    assert verdict(got) == "rejected", (got.status, got.stderr[-2000:])
    assert got.status == 2
    lines = got.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cardcanon"), got.stderr[-2000:]
    assert len(lines[0]) < 400


def tally() -> dict[str, dict[str, int]]:
    """{what it did before: {what it does now: cases}}."""
    import tempfile

    table: dict[str, dict[str, int]] = {}
    for case in CASES:
        with tempfile.TemporaryDirectory() as tmp:
            now = verdict(case.run(Path(tmp)))
        print(f"{case.id:40s} before: {case.was:10s} now: {now}", flush=True)
        table.setdefault(case.was, {}).setdefault(now, 0)
        table[case.was][now] += 1
    return table


if __name__ == "__main__":
    counts = tally()
    for kind in ("traceback", "accepted", "hang"):
        print(f"{kind}: {sum(counts.get(kind, {}).values())} cases, still {kind}: {counts.get(kind, {}).get(kind, 0)}")
