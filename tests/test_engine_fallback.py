"""Without the compiled kernel nothing falls back silently: the engine functions of both games raise
``EngineUnavailable`` with the reason, play the reference model only when asked (``fallback=True``)
and then say so in their results; ``cardcanon analyze`` ends with one line and status 2, or with
``--reference-model`` says on standard error and in its files that the reference model played.

The kernel is disabled as a user disables it (``CARDCANON_ENGINE=python``), so these tests need no
compiler."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from cardcanon import analyze
from cardcanon.engine import build, hearts as engine_hearts, snap as engine_snap
from cardcanon.model.cards import FULL_DECK
from cardcanon.model.hearts import HeartsConfig
from cardcanon.model.snap import SnapConfig, all_deals
from cardcanon.model.snap_policies import play_game
from cli_harness import run_inprocess

DISABLED = "the compiled kernel is disabled by CARDCANON_ENGINE=python"
SNAP = SnapConfig(players=2)
SMALL = SnapConfig(players=2, deck=tuple(FULL_DECK[:3]) + tuple(FULL_DECK[13:15]))
CAP = 1500


@pytest.fixture(autouse=True)
def no_kernel(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("CARDCANON_ENGINE", "python")
    build.forget()
    yield
    build.forget()


REFUSED = {
    "snap.decide": lambda: engine_snap.decide(SNAP, 0),
    "snap.decide_deal": lambda: engine_snap.decide_deal(SMALL, next(iter(all_deals(SMALL)))),
    "snap.moves": lambda: engine_snap.moves(SNAP, 0),
    "snap.batch": lambda: engine_snap.batch(SNAP, "flipper-first", 0, 3),
    "snap.enumerate_deals": lambda: engine_snap.enumerate_deals(SMALL),
    "snap.find_cycle": lambda: engine_snap.find_cycle(seeds=range(3)),
    "hearts.match": lambda: engine_hearts.match(0),
    "hearts.match with moves": lambda: engine_hearts.match(0, with_moves=True),
    "hearts.batch": lambda: engine_hearts.batch(0, 3),
    "hearts.bench": lambda: engine_hearts.bench(0, 3),
}


@pytest.mark.parametrize("name", REFUSED)
def test_without_the_kernel_every_engine_function_raises_with_the_reason(name):
    with pytest.raises(build.EngineUnavailable) as refused:
        REFUSED[name]()
    assert str(refused.value) == DISABLED


def test_a_config_the_kernel_cannot_play_is_refused_with_its_reason(monkeypatch):
    monkeypatch.delenv("CARDCANON_ENGINE")  # the kernel itself is not needed: the config is refused first
    monkeypatch.setattr(engine_snap, "kernel_mismatch", lambda config: "the kernel does not play this table")
    monkeypatch.setattr(engine_hearts, "kernel_mismatch", lambda config: "the kernel does not play this hand")
    with pytest.raises(build.EngineUnavailable, match="^the kernel does not play this table$"):
        engine_snap.decide(SNAP, 0)
    with pytest.raises(build.EngineUnavailable, match="^the kernel does not play this hand$"):
        engine_hearts.batch(0, 2)
    run = engine_hearts.match(0, fallback=True)
    assert str(run.played_by) == "reference model (the kernel does not play this hand)"


def test_snap_with_fallback_is_the_reference_model_and_says_so():
    runs = [engine_snap.decide(SNAP, seed, "owner-first", CAP, fallback=True) for seed in range(4)]
    games = [play_game(SNAP, seed, "owner-first", max_flips=CAP) for seed in range(4)]
    assert [(r.flips, r.status, r.cycle) for r in runs] == [(g.flips, g.status, g.endless) for g in games]
    assert all(str(r.played_by) == f"reference model ({DISABLED})" for r in runs)
    run, moves = engine_snap.moves(SNAP, 1, "owner-first", CAP, fallback=True)
    assert moves == games[1].moves and not run.played_by.kernel
    batch = engine_snap.batch(SNAP, "owner-first", 0, 4, CAP, fallback=True)
    assert [batch.run(SNAP, k) for k in range(4)] == runs and str(batch.played_by) == str(runs[0].played_by)
    counted = engine_snap.enumerate_deals(SMALL, "owner-first", fallback=True)
    assert counted["deals"] == len(list(all_deals(SMALL))) and not counted["played_by"].kernel
    assert engine_snap.reference_play_deal(SMALL, next(iter(all_deals(SMALL)))).played_by.reason == "asked for by name"


def test_hearts_with_fallback_is_the_reference_model_and_says_so():
    kinds = ("greedy", "random")
    run, moves = engine_hearts.match(2, kinds, HeartsConfig(), with_moves=True, fallback=True)
    final, reference = engine_hearts.reference_match(2, kinds)
    assert moves == reference and run.scores == final.scores and run.hand_scores == final.hand_scores
    assert str(run.played_by) == f"reference model ({DISABLED})"
    summary = engine_hearts.batch(0, 4, kinds, fallback=True)
    finals = [engine_hearts.reference_match(seed, kinds)[0] for seed in range(4)]
    assert summary.pairs == Counter(p for f in finals for p in f.hand_scores)
    assert summary.hands == Counter(len(f.hand_scores) for f in finals)
    assert str(summary.played_by) == f"reference model ({DISABLED})"


def test_analyze_without_the_kernel_ends_with_one_line_and_status_2(tmp_path):
    for game, extra in (("hearts", ["--matches", "2"]), ("snap", ["--players", "2", "--main-deals", "2"])):
        result = run_inprocess(["analyze", game, "--out", str(tmp_path), "-q", *extra])
        assert result.status == 2 and not result.traceback and result.stdout == ""
        assert result.stderr.splitlines() == [f"cardcanon: error: {DISABLED}; --reference-model plays the "
                                              "reference model instead (the same games, much slower)"]
    assert not (tmp_path / "hearts.json").exists() and not (tmp_path / "chunks").exists()


def test_analyze_with_reference_model_says_so_on_stderr_and_in_its_files(tmp_path):
    result = run_inprocess(["analyze", "hearts", "--out", str(tmp_path), "-q", "--matches", "3",
                            "--pairings", "greedy-random", "--reference-model"])
    assert result.status == 0 and not result.traceback
    assert result.stderr.splitlines() == [f"cardcanon: the reference model plays, as --reference-model asks "
                                          f"({DISABLED}); the same games, much slower"]
    words = f"reference model ({DISABLED})"
    assert f"Played by: {words}." in result.stdout.splitlines()
    summary = json.loads((tmp_path / "hearts.json").read_text())
    assert summary["engine"] == summary["cells"][0]["engine"] == words
    chunk = json.loads((tmp_path / "chunks" / "hearts-greedy-random.jsonl").read_text().splitlines()[1])
    assert chunk["engine"] == words


def test_analyze_snap_with_reference_model_records_it_in_every_chunk(tmp_path):
    result = run_inprocess(["analyze", "snap", "--out", str(tmp_path), "-q", "--players", "2", "--policies",
                            "flipper-first", "--main-deals", "3", "--deals", "3", "--no-enumerate", "--no-records",
                            "--reference-model"])
    assert result.status == 0 and not result.traceback and len(result.stderr.splitlines()) == 1
    words = f"reference model ({DISABLED})"
    summary = json.loads((tmp_path / "snap.json").read_text())
    assert summary["engine"] == summary["cells"][0]["engine"] == words
    assert f"Played by: {words}." in result.stdout.splitlines()


def test_analyze_names_every_engine_of_the_cells_it_keeps(tmp_path, monkeypatch):
    argv = ["analyze", "hearts", "--out", str(tmp_path), "-q", "--matches", "2", "--reference-model", "--pairings"]
    assert run_inprocess([*argv, "greedy-random"]).status == 0
    chunks = tmp_path / "chunks" / "hearts-greedy-random.jsonl"
    header, line = chunks.read_text().splitlines()
    old = json.loads(line)
    del old["engine"]  # a chunk written before chunks recorded their engine
    chunks.write_text(f"{header}\n{json.dumps(old)}\n")
    assert run_inprocess([*argv, "greedy-random"]).status == 0
    assert run_inprocess([*argv, "random-random"]).status == 0  # the greedy-random cell is kept
    summary = json.loads((tmp_path / "hearts.json").read_text())
    words = f"reference model ({DISABLED})"
    assert [c["engine"] for c in summary["cells"]] == [words, analyze.NOT_RECORDED]
    assert summary["engine"] == "; ".join(sorted([words, analyze.NOT_RECORDED]))


def test_the_exact_enumeration_refuses_the_reference_model_option(tmp_path):
    result = run_inprocess(["analyze", "snap", "--exact", "--reference-model", "--out", str(tmp_path)])
    assert result.status == 2 and not result.traceback
    assert result.stderr.splitlines() == ["cardcanon: error: --reference-model applies to sampled deals, not with "
                                          "--exact"]


@pytest.mark.parametrize("game", ["hearts_v0", "snap_v0"])
def test_the_environments_play_the_model_only_when_asked(game):
    pytest.importorskip("pettingzoo")
    import importlib

    module = importlib.import_module(f"cardcanon.envs.{game}")
    for engine in (None, "kernel"):
        with pytest.raises(build.EngineUnavailable) as refused:
            module.raw_env(engine=engine)
        assert str(refused.value) == (f"{DISABLED}; engine='kernel-or-model' or engine='model' plays the "
                                      "reference model instead")
    env = module.raw_env(engine="kernel-or-model")
    assert env.metadata["engine"] == "model" and DISABLED in env.metadata["engine_note"]
    env.reset(seed=1)
    assert env.agent_selection in env.agents
    with pytest.raises(build.EngineUnavailable, match=DISABLED):
        module.vector_env(2)


def test_the_exact_enumeration_without_the_kernel_ends_with_one_line_and_status_2(tmp_path):
    result = run_inprocess(["analyze", "snap", "--exact", "--ranks", "2", "--suits", "3", "--workers", "1",
                            "--out", str(tmp_path), "-q"])
    assert result.status == 2 and not result.traceback and result.stdout == ""
    assert result.stderr.splitlines() == [f"cardcanon: error: {DISABLED}"]
    assert not (tmp_path / "snap-exact.json").exists()


def test_the_exact_tests_skip_with_the_reason_where_only_their_library_cannot_be_built(tmp_path):
    """With no C compiler on the path and an empty cache, ``exact.c`` cannot be built (the kernel
    may still load, prebuilt): the exact enumeration's tests are skipped with that reason, and
    its pure counts still run."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    bare = tmp_path / "bin"
    bare.mkdir()
    (bare / "python").symlink_to(sys.executable)
    env = {key: value for key, value in os.environ.items() if key not in ("CC", "CARDCANON_ENGINE")}
    env.update(PATH=str(bare), CARDCANON_CACHE=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", "-rs",
                           "tests/test_exact.py", "-k", "unranking or counts_of"],
                          cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:]
    assert "the exact enumeration's library is not built: no C compiler found" in done.stdout
    assert " failed" not in done.stdout
    assert "1 passed, 6 skipped" in done.stdout, done.stdout[-2000:]


def test_the_random_agents_example_without_the_kernel_says_why_in_one_line():
    import runpy
    from pathlib import Path

    pytest.importorskip("pettingzoo")
    main = runpy.run_path(str(Path(__file__).resolve().parents[1] / "examples" / "random_agents.py"))["main"]
    got = run_inprocess(["hearts", "--episodes", "1"], entry=main)
    assert got.status == 2 and not got.traceback and got.stdout == ""
    assert got.stderr.splitlines() == [f"random_agents: error: {DISABLED}; --engine model plays the reference "
                                       "model instead"]
    played = run_inprocess(["snap", "--episodes", "1", "--engine", "model"], entry=main)
    assert played.status == 0 and played.stdout.startswith("seed 0: ") and played.stderr == ""


def test_verify_reports_an_engine_check_not_applicable_and_compares_none_of_its_figures():
    """SNAP-P14 has golden figures; where the engine cannot play, its run counted nothing, so
    they are not compared: the check is not applicable (status 3), not failed."""
    result = run_inprocess(["verify", "--check", "SNAP-P14", "--default-variant-only", "--jobs", "1"])
    assert result.status == 3 and not result.traceback, result.stdout[-2000:]
    assert "stat " not in result.stdout and "FAIL" not in result.stdout
    assert f"NOT APPLICABLE SNAP-P14-engine-text: [default] not applicable: the compiled engine cannot play this " \
           f"table: {DISABLED}" in result.stdout.splitlines()
