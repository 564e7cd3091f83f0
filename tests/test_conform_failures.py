"""``cardcanon conform`` against broken implementations: state bugs found by comparing positions
and named after their rule, one-game implementations, quiet failure, and bad input."""

from __future__ import annotations

import json
import shutil
import sys

import pytest

from cardcanon.conform import overlaps, vectors
from test_conform import MINIMAL, REFERENCE, VECTORS, conform, documents


def first_failure(stdout: str) -> dict[str, str]:
    """The first FAIL block of a report: its header and each labelled line."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("FAIL "))
    block = {"header": lines[start]}
    for line in lines[start + 1:]:
        if not line.startswith("     "):
            break
        label, _, text = line.strip().partition(":")
        if " " not in label:
            block.setdefault(label, text.strip())
    return block


# ---- state bugs ----------------------------------------------------------------------------
@pytest.mark.slow  # seven conform runs; quick: test_a_broken_implementation_fails_naming_the_rule
@pytest.mark.rules("SNAP-PEN-2", "SNAP-FLIP-3", "SNAP-TIE-1", "SNAP-CALL-5", "SNAP-PEN-3", "HEARTS-TRICK-2",
                   "HEARTS-BREAK-2")
@pytest.mark.parametrize("rule, only, move", [
    ("SNAP-PEN-2", "snap/players-3", 'calls "Snap'),  # the penalty to the left
    ("SNAP-FLIP-3", "snap/players-2", "flips"),  # the face-up pile turned over without reversing it
    ("SNAP-TIE-1", "snap/players-3", "at the same instant"),  # the old order of tied piles
    ("SNAP-CALL-5", "snap/players-2", 'calls "Snap!"'),  # won piles on top of the face-down pile
    ("SNAP-PEN-3", "snap/players-2", 'calls "Snap'),  # the penalty card on top of the recipient's pile
    ("HEARTS-TRICK-2", "hearts/default", "plays"),  # the loser of a trick leads the next
    ("HEARTS-BREAK-2", "hearts/default", "plays"),  # a discarded heart does not break hearts
])
def test_a_state_bug_fails_first_at_its_rule_showing_the_move(rule, only, move):
    result = conform("-q", "--only", only, "--", *MINIMAL, "--break", rule)
    assert result.returncode == 1, result.stdout[-2000:]
    failure = first_failure(result.stdout)
    named = failure["rule"].removeprefix("one of ").split(", ")
    assert named[0] == rule, failure
    assert "of the prefix: seat" in failure["position"] and move in failure["position"], failure
    assert {"applies", "before", "expected", "got", "diff"} <= set(failure), failure


@pytest.mark.slow  # a conform run
@pytest.mark.rules("SNAP-TIE-1")
def test_the_old_tied_pile_order_fails_a_vector_about_three_piles():
    """Only a tie of three or more piles tells the orders apart; no calling policy makes one, so
    the vectors built by hand must."""
    result = conform("-q", "--max-failures", "100", "--only", "snap/players-3", "--", *MINIMAL, "--break", "SNAP-TIE-1")
    assert result.returncode == 1
    blocks = result.stdout.split("FAIL ")[1:]
    built = [b for b in blocks if b.startswith("snap/players-3 built-") and "SNAP-TIE-1" in b.split("\n")[1]]
    assert built, result.stdout[-3000:]


@pytest.mark.slow  # a conform run
def test_without_show_the_implementation_is_told_what_it_misses():
    result = conform("-q", "--only", "snap/players-2", "--", *MINIMAL, "--no-show")
    assert result.returncode == 0, result.stdout[-2000:]
    assert "positions not compared in" in result.stdout and "'show'" in result.stdout


# ---- one-game implementations --------------------------------------------------------------
def test_a_snap_only_implementation_passes_with_hearts_skipped():
    result = conform("-q", "--only", "hearts", "--only", "snap/players-2", "--", *MINIMAL, "--games", "snap")
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    assert "FAIL" not in result.stdout
    for entry in vectors.load_index(VECTORS)["files"]:
        if entry["game"] == "hearts":
            assert f"skipped {entry['path'].removesuffix('.json')} ({entry['vectors']} vectors)" in result.stdout
    assert "skipped" in result.stdout.splitlines()[-1]


@pytest.mark.slow  # a conform run
def test_nothing_run_is_not_a_pass():
    result = conform("-q", "--only", "hearts/default", "--", *MINIMAL, "--games", "snap")
    assert result.returncode == 1 and "no vector was run" in result.stdout


# ---- quiet, fast failure ---------------------------------------------------------------------
def test_a_crash_at_start_up_is_one_error_line(tmp_path):
    crash = tmp_path / "crash.py"
    crash.write_text("import sys\nsys.exit('cannot load my engine')\n")
    result = conform("-q", "--only", "snap/players-2", "--", sys.executable, str(crash), timeout=60)
    assert result.returncode == 2
    assert result.stdout == "" and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "start-up" in result.stderr and "cannot load my engine" in result.stderr


@pytest.mark.slow  # a conform run
def test_a_hang_at_start_up_is_one_error_line(tmp_path):
    silent = tmp_path / "silent.py"
    silent.write_text("import sys, time\nsys.stdin.readline()\ntime.sleep(60)\n")
    result = conform("--timeout", "0.5", "--only", "snap/players-2", "--", sys.executable, str(silent), timeout=60)
    assert result.returncode == 2
    assert result.stdout == "" and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "no answer to 'hello' within 0.5 s" in result.stderr


@pytest.mark.slow  # a conform run
def test_after_n_failures_in_a_file_the_rest_are_summarised():
    result = conform("-q", "--max-failures", "2", "--only", "snap/players-2", "--", *MINIMAL, "--break", "SNAP-FLIP-3")
    assert result.returncode == 1
    assert result.stdout.count("FAIL snap/players-2") == 2
    assert "snap/players-2: " in result.stdout and "more failures not shown (--max-failures 2)" in result.stdout


@pytest.mark.slow  # waits for the limit
def test_the_whole_run_has_a_limit_apart_from_the_answer_timeout(tmp_path):
    slow = tmp_path / "slow.py"
    slow.write_text("import subprocess, sys, time\n"
                    f"child = subprocess.Popen({REFERENCE!r}, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)\n"
                    "for line in sys.stdin:\n"
                    "    time.sleep(0.2)\n"
                    "    child.stdin.write(line); child.stdin.flush()\n"
                    "    print(child.stdout.readline(), end='', flush=True)\n")
    result = conform("-q", "--timeout", "5", "--limit", "2", "--", sys.executable, str(slow), timeout=120)
    assert result.returncode == 1, result.stdout[-1000:] + result.stderr
    assert "stopped: the whole run took longer than --limit 2 s" in result.stdout


# ---- bad input -------------------------------------------------------------------------------
@pytest.mark.slow  # eight CLI processes
@pytest.mark.parametrize("option", [["--timeout", "inf"], ["--timeout", "1e12"], ["--timeout", "86401"],
                                    ["--timeout", "nan"], ["--timeout", "0"], ["--limit", "inf"],
                                    ["--max-failures", "0"], ["--max-failures", "x"]])
def test_bad_options_are_one_line_and_exit_2(option):
    result = conform(*option, "--", "X", timeout=60)
    assert result.returncode == 2, result
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr, result.stderr


def _copy_with(tmp_path, change) -> str:
    target = tmp_path / "vectors"
    shutil.copytree(VECTORS, target)
    path = target / "snap" / "players-2.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    index = json.loads((target / "index.json").read_text(encoding="utf-8"))
    text = change(document, index)
    path.write_text(text if isinstance(text, str) else json.dumps(document), encoding="utf-8")
    (target / "index.json").write_text(json.dumps(index), encoding="utf-8")
    return str(target)


@pytest.mark.parametrize("change, message", [
    (lambda d, i: d["vectors"][3].pop("expect"), "vector 4"),
    (lambda d, i: "[" * 100_000 + "]" * 100_000, "snap/players-2.json"),
    (lambda d, i: i.update(version=vectors.VERSION + 1), "format version"),
    (lambda d, i: d["vectors"][0].update(kind="poker"), "'kind' must be one of"),
])
def test_bad_vector_files_are_refused_before_any_work(tmp_path, change, message):
    directory = _copy_with(tmp_path, change)
    result = conform("--vectors", directory, "--", *REFERENCE, timeout=120)
    assert result.returncode == 2 and result.stdout == "", result.stdout[-500:]
    assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr, result.stderr


# ---- listing, and refusals with two right rules ------------------------------------------------------
@pytest.mark.slow  # a conform run
def test_list_shows_which_rules_have_vectors():
    result = conform("--list")
    assert result.returncode == 0, result.stderr
    lines = {line.split()[0]: line for line in result.stdout.splitlines()}
    for rule in ("SNAP-PEN-2", "SNAP-FLIP-3", "SNAP-TIE-1", "SNAP-END-3", "SNAP-POT-2", "HEARTS-TRICK-4",
                 "HEARTS-DEAL-2", "HEARTS-TRICK-1"):
        assert "rule vector in" in lines[rule], lines[rule]
    assert "no rule vector" in lines["SNAP-MATCH-1"]


@pytest.mark.slow  # a conform run
@pytest.mark.rules("SNAP-OUT-1", "SNAP-TURN-2", "HEARTS-LEAD-1", "HEARTS-BREAK-1")
def test_every_refusal_accepts_each_rule_the_text_makes_right():
    found = set()
    for path, document in documents():
        assert not overlaps.lint(document["game"], document["config"], document["vectors"]), path
        for vector in document["vectors"]:
            for item in vector.get("forbidden", []) + ([vector["expect"]] if vector["kind"] == "illegal" else []):
                if "also" in item:
                    found.add((item.get("rule") or item.get("illegal"), *item["also"]["rules"]))
                    assert item["also"]["why"].startswith("equally right")
    assert ("SNAP-TURN-2", "SNAP-OUT-1") in found and ("HEARTS-LEAD-1", "HEARTS-BREAK-1") in found


def test_the_lint_fails_a_vector_that_accepts_one_of_two_right_rules():
    path, document = next((p, d) for p, d in documents() if p == "snap/players-3.json")
    vector = next(v for v in document["vectors"] if v["id"] == "legal-player-out-flip")
    stripped = json.loads(json.dumps(vector))
    for item in stripped["forbidden"]:
        item.pop("also", None)
    problems = overlaps.lint("snap", document["config"], [stripped])
    assert problems and "SNAP-OUT-1" in problems[0]
