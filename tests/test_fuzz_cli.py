"""Fuzzing the command line: generated argument lists and mutated game records, both games.

Whatever the input, ``cardcanon`` exits 0 or 2 (2: bad usage or bad input), never prints a
traceback, and never accepts a record whose moves the reference model rejects: every record that
``cardcanon replay`` accepts is replayed here again, move by move, through the model's ``apply``.
CI runs these with the bounded ``ci`` Hypothesis profile; ``thorough`` runs many more.
"""

from __future__ import annotations

import contextlib
import copy
import importlib
import json
import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cli_harness import Run, run_inprocess  # noqa: E402

from cardcanon.model import snap as snap_model  # noqa: E402
from cardcanon.model.shuffle import SplitMix64  # noqa: E402

pytestmark = pytest.mark.slow
PYTHON_ERROR = re.compile(r"Traceback \(most recent call last\)|^\s*File \"|\b[A-Z]\w*(Error|Exception): ", re.M)
FUZZ = settings(max_examples=settings.default.max_examples, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.filter_too_much])


def assert_well_behaved(got: Run) -> None:
    """Exit 0, or exit 2 with exactly one line on standard error; never a traceback."""
    assert not got.traceback and not PYTHON_ERROR.search(got.stderr), got.stderr[-3000:]
    assert got.status in (0, 2), (got.status, got.stderr[-2000:])
    if got.status == 2:
        lines = got.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("cardcanon") and len(lines[0]) < 500, got.stderr[-2000:]
        assert "Seat(" not in lines[0] and "_positive_int" not in lines[0], lines[0]


# ---- generated argument lists ------------------------------------------------------------
NUMBERS = st.sampled_from(["0", "1", "2", "3", "12", "13", "-1", "-0", "+5", "1000", "1001", "18446744073709551615",
                           "18446744073709551616", "18446744073709551566", "1e12", "1e3", "inf", "-inf", "nan",
                           "0.5", "1.0", " 7", "", "x", "\u0663", "\uff17", "\u0661\u0660\u0660"])
TEXT = st.text(alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00"), max_size=12)
PATHS = st.sampled_from(["", " ", "{tmp}", "{tmp}/out.json", "{tmp}/no/such/folder/x.json", "-", "/"])
VALUES = st.one_of(NUMBERS, TEXT, PATHS, st.sampled_from([
    "random", "greedy", "random-greedy", "greedy-x", "flipper-first", "owner-first", "ties:0.1", "ties:\u0660.\u0665",
    "errors:2", "winner", "clockwise", "SNAP-FLIP-3", "HEARTS-P2", "hearts", "snap", "target=1000000000", "target=30",
    "break_on=void", "moon_score=x", "index_card=on", "index_card=off", "next_turn=winner", "stated", "x" * 5000]))
OPTIONS = {  # every option of every command (conform's COMMAND and --write are left out: they run programs)
    ("play", "snap"): ["--players", "--seed", "--policy", "--next-turn", "--max-flips", "--index-card", "-q",
                       "--variant", "--record", "--bogus"],
    ("play", "hearts"): ["--players", "--seed", "--strategies", "--variant", "--hands", "--record", "--kinds"],
    ("replay",): ["-q", "--quiet", "{tmp}/none.json", "--bogus"],
    ("rules",): ["--id", "--status", "--sources", "--json", "--summary", "hearts", "snap", "poker"],
    ("verify",): ["--timeout", "--jobs", "--check", "--game", "--json", "--quick", "--manifest-dir",
                  "--default-variant-only", "--no-necessity"],
    ("trace",): ["--game", "--json", "--report", "--uncovered"],
    ("conform",): ["--vectors", "--only", "--timeout", "-q"],
    ("analyze", "snap"): ["--players", "--policies", "--deals", "--main-deals", "--seconds-per-cell", "--first-seed",
                          "--chunk", "--random-cap", "--record-max-flips", "--no-enumerate", "--no-records",
                          "--ranks", "--suits", "--scheduler", "--workers", "--time-limit", "--update-results",
                          "--out"],
    ("analyze", "hearts"): ["--matches", "--pairings", "--first-seed", "--chunk", "--out", "--update-results"],
    (): ["--bogus", "--version", "-x", "play", "bogus"],
}
BOUNDS = {  # appended last, so that every run stays small (the fuzzed values are still parsed first)
    ("play", "snap"): ["--max-flips", "300", "-q"],
    ("play", "hearts"): [],
    ("rules",): ["--json"],
    ("analyze", "snap"): ["--deals", "5", "--main-deals", "5", "--no-enumerate", "--no-records", "-q"],
    ("analyze", "hearts"): ["--matches", "5", "-q"],
}
PARSE_ONLY = {("verify",), ("trace",), ("conform",)}  # running these is other tests' job
SAMPLED_ONLY = {"--deals", "--main-deals", "--seconds-per-cell", "--random-cap", "--record-max-flips",
                "--no-enumerate", "--first-seed"}


@st.composite
def argument_lists(draw):
    command = draw(st.sampled_from(sorted(OPTIONS)))
    words = draw(st.lists(st.tuples(st.sampled_from(OPTIONS[command]), st.lists(VALUES, max_size=2)), max_size=4))
    return command, [w for option, values in words for w in (option, *values)]


@FUZZ
@given(argument_lists())
def test_generated_command_lines_exit_0_or_2_with_one_line(tmp_path_factory, case):
    command, words = case
    tmp = tmp_path_factory.mktemp("fuzz")
    words = [w.replace("{tmp}", str(tmp)) for w in words]
    argv = [*command, *words]
    with contextlib.chdir(tmp):  # a fuzzed relative path lands in the test's folder
        got = _run(command, words, argv, tmp)
    assert_well_behaved(got)


def _run(command: tuple[str, ...], words: list[str], argv: list[str], tmp: Path) -> Run:
    if command in PARSE_ONLY or not command:
        got = _parse_only(argv) if words else run_inprocess(argv + ["--help"])
    elif command[0] == "analyze":
        if "--update-results" in words:  # never rewrite the published figures: only the parsing is fuzzed
            got = _parse_only(argv)
        else:
            bounds = [] if any(w in SAMPLED_ONLY for w in words) else BOUNDS[command]
            got = run_inprocess([*argv, *bounds, "--out", str(tmp / "analysis")])
    else:
        got = run_inprocess([*argv, *BOUNDS.get(command, [])])
    return got


def _parse_only(argv) -> Run:
    """The command line parsed, and (for verify) its checks selected: no proofs run, no program started."""
    import io

    from cardcanon.cli import build_parser, one_line
    from cardcanon.model.errors import CardcanonError
    from cardcanon.verify import load_checks

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as exc:
            return Run(exc.code, "", err.getvalue())
    if args.command == "verify":
        try:
            load_checks(games=[args.game] if args.game else None, ids=args.check, manifest_dir=args.manifest_dir)
        except (CardcanonError, ValueError, OSError) as exc:  # the CLI turns these into one line
            return Run(2, "", f"cardcanon: error: {one_line(str(exc))}\n")
    return Run(0, "", err.getvalue())


# ---- mutated records ---------------------------------------------------------------------
_VALID: dict[tuple[str, int], dict] = {}


def valid_record(game: str, seed: int, folder: Path) -> dict:
    if (game, seed) not in _VALID:
        path = folder / f"{game}-{seed}.json"
        extra = ["--variant", "target=15"] if game == "hearts" else ["--players", str(2 + seed % 3), "--max-flips",
                                                                      "80", "-q"]
        got = run_inprocess(["play", game, "--seed", str(seed), "--record", str(path), *extra])
        assert got.status == 0, got.stderr
        _VALID[game, seed] = json.loads(path.read_text(encoding="utf-8"))
    return copy.deepcopy(_VALID[game, seed])


ODD_VALUES = st.sampled_from([-1, 0, 1, 2, 3, 12, 99, 2**64, True, False, None, 1.0, "", "Qs", "2c", "Th", "Kx",
                              "snap", "flip", "play", [], [0, 1], {}, {"move": "flip"}, "x" * 300])


def _paths(node, prefix=()):
    """Every (path, value) in a JSON tree, the moves sampled so the list stays short."""
    yield prefix, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node[:40] if len(node) > 40 else node):
            yield from _paths(value, (*prefix, i))


def _set(data, path, value):
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


@st.composite
def mutated_records(draw):
    game = draw(st.sampled_from(["hearts", "snap"]))
    seed = draw(st.integers(0, 3))
    mutations = draw(st.lists(st.integers(0, 7), min_size=1, max_size=3))
    return game, seed, mutations, draw(st.data())


def mutate(data: dict, kind: int, draw) -> dict | str:
    moves = data.get("moves") if isinstance(data.get("moves"), list) else []  # an earlier mutation may drop them
    if kind == 0 and len(moves) > 2:  # swap two moves
        i, j = draw(st.integers(0, len(moves) - 1)), draw(st.integers(0, len(moves) - 1))
        moves[i], moves[j] = moves[j], moves[i]
    elif kind == 1 and moves:  # drop or repeat a move
        i = draw(st.integers(0, len(moves) - 1))
        moves.insert(i, copy.deepcopy(moves[i])) if draw(st.booleans()) else moves.pop(i)
    elif kind == 2:  # any place gets an odd value
        paths = [p for p, _ in _paths(data) if p]
        _set(data, draw(st.sampled_from(paths)), draw(ODD_VALUES))
    elif kind == 3:  # an unknown field somewhere
        objects = [v for _, v in _paths(data) if isinstance(v, dict)]
        draw(st.sampled_from(objects))[draw(st.sampled_from(["card", "note", "winner_name", "move2"]))] = draw(ODD_VALUES)
    elif kind == 4:  # a field removed
        objects = [v for _, v in _paths(data) if isinstance(v, dict) and v]
        target = draw(st.sampled_from(objects))
        target.pop(draw(st.sampled_from(sorted(target))))
    elif kind == 5 and any(isinstance(m, dict) for m in moves):  # a plausible move changed: card, player, kind
        move = draw(st.sampled_from([m for m in moves if isinstance(m, dict)]))
        key = draw(st.sampled_from(sorted(k for k in move if k != "move") or ["move"]))
        move[key] = draw(st.sampled_from([0, 1, 2, "Qs", "2c", "Ah", "snap", "snap-pot", "hand", [0, 1]]))
    elif kind == 6:  # text damage: truncated, or a duplicate key
        text = json.dumps(data)
        cut = draw(st.integers(1, len(text)))
        return text[:cut] if draw(st.booleans()) else '{"seed": 1, ' + text[1:]
    elif kind == 7:  # the moves cut short (a result that no longer matches)
        del moves[draw(st.integers(0, len(moves))):]
    return data


@FUZZ
@given(mutated_records())
def test_mutated_records_are_rejected_in_one_line_or_truly_legal(tmp_path_factory, case):
    game, seed, mutations, data_strategy = case
    folder = tmp_path_factory.mktemp("records")
    data: dict | str = valid_record(game, seed, folder)
    for kind in mutations:
        if isinstance(data, str):
            break
        data = mutate(data, kind, data_strategy.draw)
    path = folder / "mutated.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    got = run_inprocess(["replay", "-q", str(path)])
    assert_well_behaved(got)
    event("accepted" if got.status == 0 else "rejected")
    if got.status == 0:
        model_replay(json.loads(path.read_text(encoding="utf-8")))


# ---- the reference model, directly ---------------------------------------------------------
def model_replay(record: dict) -> None:
    """Replay an accepted record through the model's ``apply``: an illegal move raises here."""
    game = importlib.import_module(f"cardcanon.model.{record['game']}").GAME
    read = game.from_record(record, "record")
    state, seen = game.new_game(read.config), {}
    rng = SplitMix64(read.seed) if read.seed is not None else None
    for number, move in enumerate(read.moves, 1):
        if rng is not None and state.is_chance:
            assert move == game.sample_chance(state, rng), f"move {number} is not the seed's"
        state = game.apply(state, move)
        if record["game"] == "snap" and state.phase is snap_model.Phase.FLIP:
            seen.setdefault(state.position_key(), state.flips)
    outcome, result = game.outcome(state), record["result"]
    status = result.get("status", "ended") if result is not None else "unfinished"
    assert (outcome is not None) == (status == "ended"), (outcome, result)
    if outcome is not None:
        winner = None if outcome.winner is None else outcome.winner.index
        assert (outcome.termination.value, winner) == (result["termination"], result["winner"])
        if record["game"] == "hearts":
            assert list(outcome.scores) == result["scores"]
    if record["game"] == "snap":
        assert result["flips"] == state.flips
        if status == "endless":
            assert seen.get(state.position_key()) == result["cycle_start"]
            assert result["cycle_start"] + result["cycle_length"] == state.flips
