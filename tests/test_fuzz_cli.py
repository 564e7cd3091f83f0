"""Fuzzing the command line: generated argument lists and mutated game records, both games.

Whatever the input, ``cardcanon`` exits 0 or 2 (2: bad usage or bad input), never prints a
traceback, and never accepts a record whose moves the reference model rejects: every record that
``cardcanon replay`` accepts is replayed here again, move by move, through the model's ``apply``.
CI runs these with the bounded ``ci`` Hypothesis profile; ``thorough`` runs many more.
"""

from __future__ import annotations

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
    assert not got.traceback and not PYTHON_ERROR.search(got.stderr), got.stderr[-3000:]
    assert got.status in (0, 2), (got.status, got.stderr[-2000:])
    if got.status == 2:
        lines = got.stderr.strip().splitlines()
        assert lines and lines[-1].startswith("cardcanon") and len(lines[-1]) < 500, got.stderr[-2000:]


# ---- generated argument lists ------------------------------------------------------------
NUMBERS = st.sampled_from(["0", "1", "2", "3", "12", "13", "-1", "-0", "+5", "1000", "1001", "18446744073709551615",
                           "18446744073709551616", "1e12", "inf", "-inf", "nan", "0.5", "1.0", " 7", "", "x", "٣"])
TEXT = st.text(alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00"), max_size=12)
VALUES = st.one_of(NUMBERS, TEXT, st.sampled_from(["random", "greedy", "flipper-first", "owner-first", "ties:0.1",
                                                    "errors:2", "winner", "clockwise", "SNAP-FLIP-3", "hearts",
                                                    "snap", "target=1000000000", "target=30", "break_on=void",
                                                    "moon_score=x", "stated"]))
OPTIONS = {
    ("play", "snap"): ["--players", "--seed", "--policy", "--next-turn", "--max-flips", "--index-card", "-q",
                       "--variant"],
    ("play", "hearts"): ["--players", "--seed", "--strategies", "--variant", "--hands", "--kinds"],
    ("rules",): ["--id", "--status", "--sources", "--json", "hearts", "snap", "poker"],
    ("verify",): ["--timeout", "--jobs", "--check", "--game"],
    ("analyze", "snap"): ["--players", "--policies", "--deals", "--seconds-per-cell", "--first-seed", "--chunk",
                          "--random-cap", "--update-results"],
    ("analyze", "hearts"): ["--matches", "--pairings", "--first-seed", "--chunk"],
}
BOUNDS = {  # appended last, so that every run stays small (the fuzzed values are still parsed first)
    ("play", "snap"): ["--max-flips", "300", "-q"],
    ("play", "hearts"): [],
    ("rules",): ["--json"],
    ("analyze", "snap"): ["--deals", "5", "--main-deals", "5", "--no-enumerate", "--no-records", "-q"],
    ("analyze", "hearts"): ["--matches", "5", "-q"],
}


@st.composite
def argument_lists(draw):
    command = draw(st.sampled_from(sorted(OPTIONS)))
    words = draw(st.lists(st.tuples(st.sampled_from(OPTIONS[command]), st.lists(VALUES, max_size=2)), max_size=4))
    return command, [w for option, values in words for w in (option, *values)]


@FUZZ
@given(argument_lists())
def test_generated_command_lines_exit_0_or_2_without_a_traceback(tmp_path_factory, case):
    command, words = case
    argv = [*command, *words]
    if command == ("verify",):  # parsing and selection only: running the proofs is another test's job
        from cardcanon.cli import build_parser
        from cardcanon.verify import load_checks

        got = run_inprocess(argv + ["--help"]) if not words else _parse_only(build_parser, load_checks, argv)
    elif command[0] == "analyze":
        out = tmp_path_factory.mktemp("analysis")
        got = run_inprocess([*argv, *BOUNDS[command], "--out", str(out)] if "--update-results" not in words
                            else argv + ["--out", str(out)])
    else:
        got = run_inprocess([*argv, *BOUNDS[command]])
    assert_well_behaved(got)


def _parse_only(build_parser, load_checks, argv) -> Run:
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as exc:
            return Run(exc.code, "", err.getvalue())
    try:
        load_checks(games=[args.game] if args.game else None, ids=args.check)
    except Exception as exc:  # noqa: BLE001 - the CLI turns its own errors into one line
        from cardcanon.model.errors import CardcanonError
        if not isinstance(exc, (CardcanonError, ValueError)):
            raise
        return Run(2, "", f"cardcanon: error: {exc}\n")
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
