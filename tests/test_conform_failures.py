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


# ---- answers that are not one answer -----------------------------------------------------------
BAD_ADAPTER = '''
import json, sys
mode = sys.argv[1]
for line in sys.stdin:
    request = json.loads(line)
    op, number = request["op"], request["id"]
    answer = {"protocol": "cardcanon-conform", "version": 1, "implementation": "bad"} if op == "hello" else {}
    text = None
    if op == "hello" and mode in ("show", "games", "anonymous"):
        answer.update({"show": {"show": "yes"}, "games": {"games": "snap"}}.get(mode, {}))
        answer.pop("implementation") if mode == "anonymous" else None
    elif op == "shuffle" and mode == "nested":
        text = '{"id": %d, "order": %s}' % (number, "[" * 100000 + "]" * 100000)
    elif op == "shuffle" and mode == "digits":
        text = '{"id": %d, "order": [%s]}' % (number, "7" * 5000)
    elif op != "hello":
        both = mode == "both" and op in ("position", "apply")
        answer = {"ok": True, "illegal": "SNAP-TURN-2"} if both else {"error": "not written"}
    print(text or json.dumps({"id": number, **answer}), flush=True)
'''


@pytest.mark.parametrize("mode, problem", [
    ("nested", "nested more than"), ("digits", "an integer of 5000 digits"),
    ("show", "field 'show' must be true or false"), ("games", "field 'games' must be an array of strings"),
    ("anonymous", "field 'implementation' is missing"), ("both", "field 'illegal' has no place beside 'ok'"),
])
def test_an_answer_without_one_meaning_stops_the_run_in_one_line(tmp_path, mode, problem):
    adapter = tmp_path / "bad.py"
    adapter.write_text(BAD_ADAPTER)
    only = "snap/players-2"
    result = conform("-q", "--only", only, "--", sys.executable, str(adapter), mode, timeout=60)
    assert result.returncode == 2, result.stdout[-1000:] + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert lines[0].startswith(f"cardcanon: error: {only} ") and "answer to request " in lines[0], lines[0]
    assert problem in lines[0], lines[0]


def test_cat_does_not_pass_the_handshake():
    result = conform("-q", "--only", "snap/players-2", "--", "cat", timeout=60)
    assert result.returncode == 2 and "answer to request 1 ('hello')" in result.stderr, result.stderr


# ---- a vector file checked against itself --------------------------------------------------------
def _first(document, kind):
    return next(v for v in document["vectors"] if v["kind"] == kind and v.get("moves"))


def _id(number):
    return json.loads((VECTORS / "snap" / "players-2.json").read_text(encoding="utf-8"))["vectors"][number - 1]["id"]


def _illegal_prefix(document):
    vector = _first(document, "rule")
    vector["moves"].insert(1, {"move": "flip", "player": 9})
    vector["positions"].insert(1, vector["positions"][0])


@pytest.mark.parametrize("change, message", [
    (lambda d, i: _first(d, "rule")["expect"]["position"].update(dealer=7), "expect.position is not the reference"),
    (lambda d, i: _first(d, "rule")["expect"]["position"].update(extra=1), "expect.position"),
    (lambda d, i: _first(d, "legal")["positions"].pop() and None, "positions for"),
    (lambda d, i: _first(d, "illegal")["rules"].append("SNAP-SPIN-9"), "SNAP-SPIN-9 is not a rule of the snap rulebook"),
    (lambda d, i: d["vectors"][5].update(id=d["vectors"][2]["id"]), f"vector 6 ({_id(3)}): the ID of vector 3 again"),
    (lambda d, i: d["config"].update(players=13), "config"),
    (lambda d, i: _illegal_prefix(d), "move 2 of the prefix, {\"move\":\"flip\",\"player\":9}, is refused"),
])
def test_check_vectors_refuses_a_file_that_contradicts_itself(tmp_path, change, message):
    directory = _copy_with(tmp_path, change)
    result = conform("--check-vectors", "--vectors", directory, "--only", "snap/players-2", timeout=120)
    assert result.returncode == 2 and result.stdout == "", result.stdout[-500:]
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "snap/players-2.json" in lines[0] and message in lines[0], result.stderr


def test_check_vectors_passes_the_committed_vectors():
    result = conform("--check-vectors", timeout=300)
    assert result.returncode == 0, result.stderr
    assert "each file agrees with itself, the rulebook and the reference model" in result.stdout


@pytest.mark.parametrize("where", ["file", "no/such/dir"])
def test_write_refuses_a_bad_target_before_any_work(tmp_path, where):
    target = tmp_path / where
    if where == "file":
        target.write_text("x")
    result = conform("--write", "--vectors", str(target), timeout=60)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert str(target) in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "no").exists()


def test_a_prefix_the_reference_model_refuses_fails_its_vector_only(tmp_path):
    directory = _copy_with(tmp_path, lambda d, i: _illegal_prefix(d))
    result = conform("-q", "--vectors", directory, "--only", "snap/players-2", "--", *MINIMAL, timeout=300)
    assert result.returncode == 1, result.stdout[-2000:] + result.stderr
    failure = first_failure(result.stdout)
    assert failure["header"].startswith("FAIL snap/players-2 rule-"), failure
    assert 'move 2 of the prefix, {"move":"flip","player":9}, is refused by the reference model' in failure["got"]
    assert " 1 failed" in result.stdout.splitlines()[-1], result.stdout[-300:]


# ---- the protocol's clauses, and dealing ----------------------------------------------------------
@pytest.mark.parametrize("broken, vector, clause, show", [
    ("refused-prefix", "protocol-refused-prefix", "a prefix refused at a move leaves the position as it was", True),
    ("refused-prefix", "protocol-refused-prefix", "a prefix refused at a move leaves the position as it was", False),
    ("start", "protocol-start", "the position is the start of a game", True),
])
def test_a_breach_of_the_protocol_fails_a_vector_naming_the_clause(broken, vector, clause, show):
    result = conform("-q", "--only", "snap/players-2", "--only", "hearts/default", "--", *MINIMAL, "--break", broken,
                     *([] if show else ["--no-show"]))
    assert result.returncode == 1, result.stdout[-2000:]
    failure = first_failure(result.stdout)
    assert failure["header"].endswith(f" {vector}") and clause in failure["clause"], failure
    assert result.stdout.count("FAIL ") == 2, result.stdout[-2000:]  # that vector in each file, no other


def test_a_dealer_drawn_after_the_shuffle_is_first_reported_as_snap_seed_2():
    result = conform("-q", "--only", "snap/players-3", "--", *MINIMAL, "--break", "SNAP-SEED-2")
    assert result.returncode == 1, result.stdout[-2000:]
    failure = first_failure(result.stdout)
    assert failure["header"] == "FAIL snap/players-3 deal-seed-0", failure
    assert failure["rule"].removeprefix("one of ").split(", ")[0] == "SNAP-SEED-2", failure
    assert failure["position"] == "seed 0: moves", failure


@pytest.mark.rules("SNAP-TIE-1")
def test_without_show_the_wrong_order_of_tied_piles_fails_a_game_naming_snap_tie_1():
    """Tied piles of one card each are all of one rank, so their order shows only in ``show``;
    piles of two cards show it in the ranks flipped again once the pot is won."""
    result = conform("-q", "--only", "snap/players-3", "--", *MINIMAL, "--break", "SNAP-TIE-1", "--no-show")
    assert result.returncode == 1, result.stdout[-2000:]
    failure = first_failure(result.stdout)
    assert failure["header"] == "FAIL snap/players-3 game-after-tie-of-tall-piles", failure
    assert failure["rule"].removeprefix("one of ").split(", ")[0] == "SNAP-TIE-1", failure
