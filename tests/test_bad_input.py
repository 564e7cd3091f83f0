"""Bad input as a new user tries it: every case gives one clear line and exit status 2.

Each case is one command line (some on a damaged game record). Before these checks existed the
cases split into tracebacks, invalid input accepted and a hang; ``python tests/test_bad_input.py``
prints that tally for the current code (expected now: all 0). Cases refused only after the work
("late") or with a misleading line ("unclear") now give their one line before any work starts.
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
from reprs import REPR  # noqa: E402

HANG_SECONDS = 20.0


@dataclass(frozen=True)
class Case:
    id: str
    was: str  # before: "traceback", "accepted", "hang", "late" (refused after the work) or "unclear" (a misleading line)
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
    Case("verify-timeout-inf", "traceback", _cli("verify", "--check", "HEARTS-P2", "--timeout", "inf")),
    Case("verify-timeout-1e12", "traceback", _cli("verify", "--check", "HEARTS-P2", "--timeout", "1e12")),
    Case("verify-timeout-1e20", "traceback", _cli("verify", "--check", "HEARTS-P2", "--timeout", "1e20")),
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
    # one rule for options: conflicts, repeats, options that need another, every number in range
    Case("play-snap-index-card-and-variant", "accepted",
         _cli("play", "snap", "--seed", "1", "-q", "--index-card", "--variant", "index_card=off")),
    Case("play-snap-next-turn-and-variant", "accepted",
         _cli("play", "snap", "--seed", "1", "-q", "--next-turn", "winner", "--variant", "next_turn=clockwise")),
    Case("play-snap-variant-twice", "accepted",
         _cli("play", "snap", "--seed", "1", "-q", "--variant", "next_turn=winner", "--variant", "next_turn=clockwise")),
    Case("play-hearts-variant-twice", "accepted",
         _cli("play", "hearts", "--seed", "1", "--variant", "target=30", "--variant", "target=40")),
    Case("analyze-record-max-flips-minus-1", "accepted", _cli(*_ANALYZE, "--record-max-flips", "-1")),
    Case("analyze-snap-seeds-above-2^64", "accepted",
         _cli(*_ANALYZE, "--first-seed", "18446744073709551566", "--deals", "100")),
    Case("analyze-hearts-seeds-above-2^64", "accepted",
         _cli("analyze", "hearts", "--matches", "5", "-q", "--out", "{tmp}/a", "--first-seed", str(2**64 - 1))),
    Case("analyze-ranks-without-exact", "accepted", _cli(*_ANALYZE, "--ranks", "3")),
    Case("analyze-exact-with-deals", "accepted",
         _cli("analyze", "snap", "--exact", "--ranks", "2", "--suits", "2", "--deals", "5", "--out", "{tmp}/a")),
    Case("analyze-exact-time-limit-nan", "traceback",
         _cli("analyze", "snap", "--exact", "--ranks", "2", "--suits", "2", "--time-limit", "nan", "--out", "{tmp}/a")),
    Case("analyze-exact-time-limit-inf", "traceback",
         _cli("analyze", "snap", "--exact", "--ranks", "2", "--suits", "2", "--time-limit", "inf", "--out", "{tmp}/a")),
    Case("analyze-exact-time-limit-1e12", "accepted",
         _cli("analyze", "snap", "--exact", "--ranks", "2", "--suits", "2", "--time-limit", "1e12", "--out", "{tmp}/a")),
    Case("analyze-hearts-bad-pairing", "late",
         _cli("analyze", "hearts", "--matches", "5", "-q", "--out", "{tmp}/a", "--pairings", "random-random", "x-y")),
    Case("play-snap-policy-arabic-indic-digits", "accepted", _cli("play", "snap", "--seed", "1", "-q",
                                                                  "--policy", "ties:\u0660.\u0665")),
    Case("analyze-policies-arabic-indic-digits", "accepted", _cli(*_ANALYZE, "--policies", "ties:\u0660.\u0665")),
    Case("play-snap-players-arabic-indic-digit", "accepted", _cli("play", "snap", "-q", "--players", "\u0663")),
    Case("play-snap-seed-full-width-digit", "accepted", _cli("play", "snap", "-q", "--seed", "\uff17")),
    Case("verify-timeout-arabic-indic", "accepted", _cli("verify", "--timeout", "\u0661\u0660")),
    Case("replay-snap-policy-arabic-indic-digits", "accepted", _replay("snap", _set(policy="ties:\u0660.\u0665"))),
    # empty or unwritable output paths, refused before any work starts
    Case("play-snap-record-empty", "accepted", _cli("play", "snap", "--seed", "1", "-q", "--record", "")),
    Case("play-hearts-record-empty", "accepted", _cli("play", "hearts", "--seed", "1", "--record", "")),
    Case("play-snap-record-no-folder", "late",
         _cli("play", "snap", "--seed", "1", "-q", "--record", "{tmp}/no/such/folder/game.json")),
    Case("play-hearts-record-is-a-folder", "late", _cli("play", "hearts", "--seed", "1", "--record", "{tmp}")),
    Case("verify-json-empty", "accepted", _cli("verify", "--check", "HEARTS-P2", "--json", "")),
    Case("verify-json-is-a-folder", "late", _cli("verify", "--check", "HEARTS-P2", "--json", "{tmp}")),
    Case("analyze-out-empty", "accepted", _cli("analyze", "hearts", "--matches", "5", "-q", "--out", "")),
    Case("analyze-out-under-a-file", "late", lambda tmp: _under_a_file(tmp)),
    # messages that showed code
    Case("verify-jobs-abc", "unclear", _cli("verify", "--jobs", "abc")),
    Case("top-level-unknown-option", "unclear", _cli("--bogus")),
    Case("rules-id-100-kB", "unclear", _cli("rules", "--id", "x" * 100_000)),
]


def _under_a_file(tmp: Path) -> Run:
    (tmp / "plain-file").write_text("x", encoding="utf-8")
    return run_inprocess(["analyze", "hearts", "--matches", "5", "-q", "--out", str(tmp / "plain-file" / "out")])


MESSAGES = {  # what the one line must say (the case's point), beyond being one line
    "play-snap-index-card-and-variant": ("--index-card", "--variant index_card=off"),
    "play-snap-next-turn-and-variant": ("--next-turn winner", "--variant next_turn=clockwise"),
    "play-snap-variant-twice": ("next_turn=winner", "next_turn=clockwise", "twice"),
    "play-hearts-variant-twice": ("target=30", "target=40", "twice"),
    "analyze-snap-seeds-above-2^64": ("18446744073709551665", "2^64 - 1"),
    "analyze-ranks-without-exact": ("--ranks", "--exact"),
    "analyze-time-limit-without-exact": ("--time-limit", "--exact"),
    "analyze-exact-with-deals": ("--deals", "--exact"),
    "analyze-exact-time-limit-1e12": ("a day",),
    "verify-jobs-abc": ("--jobs", "whole number"),
    "top-level-unknown-option": ("unknown option --bogus",),
    "rules-id-100-kB": ("characters)", "no such rule"),
}


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
    for words in MESSAGES.get(case.id, ()):
        assert words in lines[0], lines[0]
    assert "_positive_int" not in lines[0] and "Seat(" not in lines[0]
    assert got.stdout == "", got.stdout[-500:]  # refused before any work (and any output)


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
    for kind in ("traceback", "accepted", "hang", "late", "unclear"):
        print(f"{kind}: {sum(counts.get(kind, {}).values())} cases, still {kind}: {counts.get(kind, {}).get(kind, 0)}")


# ---- what works as documented ----------------------------------------------------------------
def test_play_hearts_on_an_ascii_terminal_uses_the_fallback_card_notation(tmp_path: Path):
    import os
    import subprocess

    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = subprocess.run([sys.executable, "-m", "cardcanon", "play", "hearts", "--seed", "7", "--hands"],
                          capture_output=True, timeout=120, env=env, cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == b"", done.stderr[-2000:]
    out = done.stdout.decode("ascii")  # every byte ASCII
    assert "player 0 holds 2c 4c Qc Ac" in out and "Dead cards: 6c 8s" in out


def test_both_games_say_where_the_record_went_in_the_same_words(tmp_path: Path):
    for game, extra in (("snap", ["-q", "--max-flips", "20"]), ("hearts", ["--variant", "target=10"])):
        path = tmp_path / f"{game}.json"
        got = run_inprocess(["play", game, "--seed", "2", "--record", str(path), *extra])
        assert got.status == 0 and got.stdout.rstrip().endswith(f"\nRecord written to {path}.") and path.is_file()


def _no_code(text: str) -> None:
    assert not (found := REPR.search(text)), (found.group(0), text[:3000])


def test_seeded_play_and_replay_print_no_code(tmp_path: Path):
    for seed in (1, 2, 3):
        for argv in (["play", "snap", "--players", str(seed + 2), "--seed", str(seed), "--policy", "ties:0.3",
                      "--index-card"],
                     ["play", "snap", "--seed", str(seed), "--policy", "errors:0.2", "--next-turn", "winner"],
                     ["play", "hearts", "--seed", str(seed), "--hands", "--variant", "target=40"]):
            path = tmp_path / "game.json"
            got = run_inprocess([*argv, "--record", str(path)])
            assert got.status == 0
            _no_code(got.stdout)
            again = run_inprocess(["replay", str(path)])
            assert again.status == 0 and again.stderr == ""
            _no_code(again.stdout)
    header = run_inprocess(["play", "hearts", "--seed", "1"]).stdout.splitlines()[0]
    assert "rules dealer=alternate" in header and "target=100" in header


def _call_by(record: dict, seat: int) -> dict:
    """The first call window's 'no call' replaced by a call of ``seat``."""
    move = next(m for m in record["moves"] if m["move"] == "no-call")
    move.clear()
    move.update({"move": "call", "caller": seat, "kind": "snap"})
    return record


def test_a_call_from_a_seat_not_at_the_table_is_told_in_the_rulebook_words(tmp_path: Path):
    record = valid_record("snap", tmp_path)
    path = tmp_path / "illegal.json"
    path.write_text(json.dumps(_call_by(record, 9)), encoding="utf-8")
    got = run_inprocess(["replay", "-q", str(path)])
    assert got.status == 2
    _no_code(got.stderr)
    assert "SNAP-CALL-2: player 9, not one of the 2 players at this table" in got.stderr, got.stderr


@pytest.mark.usefixtures("environments_play_the_model_without_a_kernel")
@pytest.mark.parametrize("seed", [-1, 2**64, 2**70, 1.5, True])
def test_environments_refuse_seeds_outside_0_to_2_64_minus_1(seed):
    pytest.importorskip("pettingzoo")
    from cardcanon.envs import hearts_v0, snap_v0

    for module in (snap_v0, hearts_v0):
        env = module.env()
        with pytest.raises(ValueError, match=r"a seed is a whole number from 0 to 18446744073709551615"):
            env.reset(seed=seed)
        env.reset(seed=2**64 - 1)  # the largest seed is a seed


EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "random_agents.py"


@pytest.mark.parametrize("argv,words", [
    (["snap", "--option", "index_card"], "expected NAME=VALUE"),
    (["snap", "--option", "index_card=on", "--option", "index_card=off"], "given twice"),
    (["snap", "--option", "index_card=maybe"], "SNAP-INDEX-1"),
    (["hearts", "--players", "3"], "Snap only"),
    (["snap", "--seed", "-1"], "a seed from 0"),
    (["snap", "--seed", str(2**64 - 1), "--episodes", "2"], "seeds above"),
    (["snap", "--episodes", "x"], "whole number"),
])
def test_the_example_refuses_bad_options_in_one_line(argv, words):
    import runpy

    pytest.importorskip("pettingzoo")
    got = run_inprocess(argv, entry=runpy.run_path(str(EXAMPLE))["main"])
    lines = got.stderr.strip().splitlines()
    assert got.status == 2 and len(lines) == 1 and words in lines[0], got.stderr[-2000:]
    assert not got.traceback and got.stdout == ""


def test_the_example_refuses_a_bad_option_in_one_line_as_a_user_runs_it():
    import subprocess

    pytest.importorskip("pettingzoo")
    done = subprocess.run([sys.executable, str(EXAMPLE), "snap", "--option", "index_card"], capture_output=True,
                          text=True, timeout=120)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "expected NAME=VALUE" in lines[0], done.stderr[-2000:]
    assert "Traceback" not in done.stderr and done.stdout == ""
