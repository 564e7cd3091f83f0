"""``cardcanon analyze``: small runs checked against the reference models, resuming, bad input."""

from __future__ import annotations

import io
import json
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardcanon import analyze
from cardcanon.cli import main
from cardcanon.engine import exact
from cardcanon.engine.snap import reference_play_deal
from cardcanon.engine.stats import Progress, distribution, quantile
from cardcanon.model import snap
from cardcanon.model.hearts import HeartsConfig
from cardcanon.model.snap_policies import play_game

pytestmark = pytest.mark.needs_kernel


def _snap(tmp_path, *extra) -> dict:
    argv = ["analyze", "snap", "--out", str(tmp_path), "--players", "2", "--policies", "flipper-first",
            "ties:0.2", "--deals", "60", "--main-deals", "100", "--chunk", "40", "--random-cap", "1500",
            "--no-enumerate", *extra]
    assert main(argv) == 0
    return json.loads((tmp_path / "snap.json").read_text())


@pytest.mark.rules("SNAP-END-1", "SNAP-END-4")
def test_snap_counts_are_the_reference_models_counts(tmp_path, capsys):
    data = _snap(tmp_path)
    main_cell, random_cell = data["cells"]
    assert (main_cell["deals"], random_cell["deals"]) == (100, 60)
    config = snap.SnapConfig(players=2)
    reference = [play_game(config, seed, "flipper-first", max_flips=100_000) for seed in range(100)]
    assert main_cell["endless"] == sum(1 for r in reference if r.endless)
    assert main_cell["ended"] == sum(1 for r in reference if r.outcome)
    assert main_cell["game_lengths"]["max"] == max(r.flips for r in reference if r.outcome)
    assert main_cell["cycle_lengths"]["min"] == min(r.endless.length for r in reference if r.endless)
    lo, hi = main_cell["never_ends"]["wilson95"]
    assert lo <= main_cell["never_ends"]["estimate"] <= hi
    capped = sum(1 for seed in range(60) if play_game(config, seed, "ties:0.2", max_flips=1500).status == "capped")
    assert random_cell["endless"] is None and random_cell["not_ended_within_cap"] == capped
    assert "done: snap-2p-flipper-first chunk 1/3" in capsys.readouterr().err  # plain lines off a terminal


@pytest.mark.rules("SNAP-END-4")
def test_snap_extreme_games_are_replayable_records(tmp_path, capsys):
    data = _snap(tmp_path)
    records = data["cells"][0]["records"]
    assert set(records) == {"longest_ended", "shortest_cycle", "longest_cycle"}
    for item in records.values():
        assert main(["replay", "-q", item["file"]]) == 0
    assert "ok:" in capsys.readouterr().out


@pytest.mark.rules("SNAP-END-4")
def test_snap_games_too_long_for_a_record_get_the_command_that_writes_it(tmp_path, monkeypatch, capsys):
    data = _snap(tmp_path, "--record-max-flips", "150")
    records = data["cells"][0]["records"]
    long_ones = [item for item in records.values() if item["flips"] > 150]
    assert long_ones and all(item["file"] is None for item in long_ones)
    assert all(item["file"] for item in records.values() if item["flips"] <= 150)
    monkeypatch.chdir(tmp_path)
    item = long_ones[0]
    assert main(item["command"].split()[1:]) == 0
    record = item["command"].split()[-1]
    assert main(["replay", "-q", record]) == 0
    assert json.loads((tmp_path / record).read_text())["result"]["flips"] == item["flips"]


def test_snap_resumes_from_finished_chunks(tmp_path):
    first = _snap(tmp_path)
    chunk_file = tmp_path / "chunks" / "snap-2p-flipper-first.jsonl"
    lines = chunk_file.read_text().splitlines()
    assert len(lines) == 1 + 3  # 100 deals in chunks of 40
    chunk_file.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:20])  # an interrupted last append
    again = _snap(tmp_path)
    assert again["cells"] == first["cells"]
    assert chunk_file.read_text().splitlines()[:3] == lines[:3]
    more = _snap(tmp_path, "--main-deals", "160")  # the short last chunk (80..99) grows to 80..119
    assert more["cells"][0]["deals"] == 160
    after = chunk_file.read_text().splitlines()
    assert after[:3] == lines[:3] and sorted({json.loads(x)["index"] for x in after[1:]}) == [0, 1, 2, 3]
    fresh = _snap(tmp_path / "fresh", "--main-deals", "160")
    assert more["cells"][0] == {**fresh["cells"][0], "records": more["cells"][0]["records"]}


def test_snap_refuses_chunks_made_with_other_options(tmp_path, capsys):
    _snap(tmp_path)
    capsys.readouterr()
    assert main(["analyze", "snap", "--out", str(tmp_path), "--players", "2", "--policies", "flipper-first",
                 "--main-deals", "100", "--chunk", "60", "--no-enumerate", "--no-records"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "made with other parameters" in err[0]


@pytest.mark.parametrize("argv,problem", [
    (["--deals", "0"], "argument --deals: expected a whole number of at least 1"),
    (["--players", "13"], "SNAP-PLAYERS-1"),
    (["--policies", "loudest"], "unknown policy"),
])
def test_snap_bad_options_give_one_line(tmp_path, capsys, argv, problem):
    assert main(["analyze", "snap", "--out", str(tmp_path), "--no-enumerate", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and problem in err[0]


@pytest.mark.rules("SNAP-END-4")
def test_enumeration_fractions_are_exact_counts_of_the_model(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(analyze, "ENUMERATED", ((2, 2, 2), (3, 2, 2)))
    assert main(["analyze", "snap", "--out", str(tmp_path), "--players", "2", "--policies", "owner-first",
                 "--deals", "10", "--main-deals", "10", "--no-records", "-q"]) == 0
    printed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("Snap ")]
    assert printed and all(line.startswith("Snap 2p") for line in printed)  # the table asked for, not 3p
    cells = json.loads((tmp_path / "snap.json").read_text())["enumeration"]["cells"]
    assert len(cells) == 4
    for cell in cells:
        config = snap.SnapConfig(players=cell["players"], deck=analyze._deck(2, 2))
        runs = [reference_play_deal(config, deal, cell["policy"]) for deal in snap.all_deals(config)]
        assert cell["deals"] == len(runs) == config.players * 24
        assert cell["endless"] == sum(1 for r in runs if r.status == "endless")
        assert Fraction(cell["never_ends_exact"]) == Fraction(cell["endless"], cell["deals"])
        assert cell["terminations"]["all-cards"] == sum(1 for r in runs if r.status == "ended")


@pytest.mark.rules("HEARTS-MATCH-2", "HEARTS-MOON-1", "HEARTS-SCORE-1")
def test_hearts_counts_are_the_reference_models_counts(tmp_path):
    from cardcanon.engine.hearts import reference_match

    assert main(["analyze", "hearts", "--out", str(tmp_path), "--matches", "30", "--chunk", "20",
                 "--pairings", "greedy-random", "-q"]) == 0
    data = json.loads((tmp_path / "hearts.json").read_text())
    cell = data["cells"][0]
    assert data["engine"] == cell["engine"] == "compiled kernel"
    finals = [reference_match(seed, ("greedy", "random"), HeartsConfig())[0] for seed in range(30)]
    hands = Counter(len(f.hand_scores) for f in finals)
    assert cell["match_length_hands"]["counts"] == {str(k): v for k, v in sorted(hands.items())}
    assert cell["terminations"] == dict(Counter(f.outcome.termination.value for f in finals))
    pairs = Counter(p for f in finals for p in f.hand_scores)
    assert {tuple(p["scores"]): p["hands"] for p in cell["hand_score_pairs"]} == dict(pairs)
    assert cell["moon_per_hand"]["hands"] == sum(1 for p in pairs.elements() if 0 in p)
    assert cell["pairs_seen_not_possible"] == []
    assert set(map(tuple, data["possible_pairs"])) >= set(pairs)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 300), min_size=1, max_size=60))
def test_distribution_quantiles_are_the_type_7_quantiles(values):
    got = distribution(Counter(values))
    ordered = sorted(values)
    assert got["count"] == len(values) and got["min"] == ordered[0] and got["max"] == ordered[-1]
    for q, value in got["quantiles"].items():
        assert value == pytest.approx(quantile(ordered, float(q)))
    assert sum(b["count"] for b in got["histogram"]) == len(values)
    for b in got["histogram"]:
        assert b["count"] == sum(1 for v in values if b["from"] <= v and (b["to"] is None or v < b["to"]))


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_a_bar_on_a_terminal_and_lines_elsewhere():
    terminal, log = _Terminal(), io.StringIO()
    for stream in (terminal, log):
        Progress(stream=stream).advance("snap-2p-flipper-first", 3, 4)
    assert terminal.getvalue().startswith("\r[" + "#" * 22 + "-" * 8 + "] 3/4 snap-2p-flipper-first")
    assert log.getvalue() == "done: snap-2p-flipper-first chunk 3/4\n"
    quiet = io.StringIO()
    Progress(quiet=True, stream=quiet).advance("x", 1, 2)
    assert quiet.getvalue() == ""


def test_a_run_over_other_player_counts_keeps_the_earlier_cells(tmp_path):
    common = ["analyze", "snap", "--out", str(tmp_path), "--policies", "owner-first", "flipper-first",
              "--deals", "30", "--main-deals", "30", "--no-enumerate", "--no-records", "-q"]
    assert main([*common, "--players", "3"]) == 0
    assert main([*common, "--players", "2"]) == 0
    cells = json.loads((tmp_path / "snap.json").read_text())["cells"]
    assert [(c["players"], c["policy"]) for c in cells] == [
        (2, "flipper-first"), (2, "owner-first"), (3, "flipper-first"), (3, "owner-first")]


@pytest.mark.slow  # every cell, model and engine
@pytest.mark.rules("SNAP-INDEX-1", "SNAP-DECK-1", "SNAP-END-4")
def test_snap_index_card_and_smaller_decks_are_the_reference_models_counts(tmp_path):
    assert main(["analyze", "snap", "--out", str(tmp_path), "--players", "2", "--policies", "owner-first",
                 "--index-card", "off", "on", "--cards", "24", "52", "--deterministic-deals", "40", "--chunk", "25",
                 "--no-enumerate", "--no-records", "-q"]) == 0
    cells = json.loads((tmp_path / "snap.json").read_text())["cells"]
    assert [(c["cards"], c["index_card"]) for c in cells] == [(52, False), (52, True), (24, False), (24, True)]
    for cell in cells:
        deck = {} if cell["cards"] == 52 else {"deck": exact.deck(cell["cards"] // 4, 4)}
        config = snap.SnapConfig(players=2, index_card=cell["index_card"], **deck)
        assert len(config.deck) == cell["cards"]
        reference = [play_game(config, seed, "owner-first", max_flips=100_000) for seed in range(40)]
        assert (cell["deals"], cell["deals_planned"], cell["complete"]) == (40, 40, True)
        assert cell["endless"] == sum(1 for r in reference if r.endless)
        assert cell["ended"] == sum(1 for r in reference if r.outcome)
        assert cell["cpu_seconds"]["timed_deals"] == 40 and cell["cpu_seconds"]["seconds"] >= 0
    names = sorted(p.name for p in (tmp_path / "chunks").iterdir())
    assert names == ["snap-2p-owner-first-24-cards.jsonl", "snap-2p-owner-first-index-card-24-cards.jsonl",
                     "snap-2p-owner-first-index-card.jsonl", "snap-2p-owner-first.jsonl"]


def test_snap_time_limit_keeps_finished_chunks_and_says_the_cell_is_partial(tmp_path, capsys):
    common = ["analyze", "snap", "--out", str(tmp_path), "--players", "2", "--policies", "flipper-first",
              "--cards", "32", "--deterministic-deals", "90", "--chunk", "30", "--no-enumerate", "--no-records"]
    assert main([*common, "--deterministic-deals", "60", "-q"]) == 0  # chunks 0 and 1 of the 90
    capsys.readouterr()
    assert main([*common, "--time-limit", "0"]) == 0  # only summarise
    out = capsys.readouterr().out
    assert "Snap 2p flipper-first, 32 cards: 60 deals (of 90 planned)" in out
    cell = json.loads((tmp_path / "snap.json").read_text())["cells"][0]
    assert (cell["deals"], cell["deals_planned"], cell["complete"], cell["seeds"]) == (60, 90, False, [0, 59])
    assert main([*common, "-q"]) == 0
    cell = json.loads((tmp_path / "snap.json").read_text())["cells"][0]
    assert (cell["deals"], cell["complete"], cell["cpu_seconds"]["timed_deals"]) == (90, True, 90)


def test_snap_cells_of_another_table_are_kept(tmp_path):
    common = ["analyze", "snap", "--out", str(tmp_path), "--players", "2", "--policies", "owner-first",
              "--deals", "20", "--main-deals", "20", "--no-enumerate", "--no-records", "-q"]
    assert main([*common, "--index-card", "on"]) == 0
    assert main([*common, "--cards", "28"]) == 0
    assert main(common) == 0
    cells = json.loads((tmp_path / "snap.json").read_text())["cells"]
    assert [(c["cards"], c["index_card"]) for c in cells] == [(52, False), (52, True), (28, False)]


@pytest.mark.parametrize("argv,problem", [
    (["--cards", "50"], "--cards 50: expected a multiple of 4 from 8 to 52"),
    (["--cards", "56"], "--cards 56"),
    (["--index-card", "sometimes"], "SNAP-INDEX-1 index_card: unknown value 'sometimes'"),
    (["--deterministic-deals", "0"], "argument --deterministic-deals"),
    (["--time-limit", "-1"], "argument --time-limit"),
])
def test_snap_bad_table_options_give_one_line(tmp_path, capsys, argv, problem):
    assert main(["analyze", "snap", "--out", str(tmp_path), "--players", "2", "--no-enumerate", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and problem in err[0]
