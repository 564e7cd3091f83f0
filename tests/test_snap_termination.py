"""The termination statistics: the formulas on small inputs, a small measured cell, the
cycle search, and the consistency of the published numbers in results/snap_termination.json."""

import json
from pathlib import Path

import pytest

from cardcanon.model.snap import NextTurn, Phase, SnapConfig, apply, new_game
from cardcanon.model.snap_fast import fast_game
from cardcanon.model.snap_policies import play_game
from cardcanon.model.snap_termination import find_cycle, histogram, measure, merge, quantile, wilson

RESULTS = Path(__file__).resolve().parents[1] / "results" / "snap_termination.json"


def test_wilson_interval():
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(3.8414588 / 13.8414588)  # z^2 / (n + z^2)
    lo, hi = wilson(5, 10)
    assert (lo, hi) == (pytest.approx(0.236593, abs=1e-6), pytest.approx(0.763407, abs=1e-6))
    lo, hi = wilson(10, 10)
    assert lo == pytest.approx(10 / 13.8414588) and hi == pytest.approx(1.0)
    assert wilson(120, 2000)[0] < 0.06 < wilson(120, 2000)[1]
    for bad in ((1, 0), (-1, 5), (6, 5)):
        with pytest.raises(ValueError):
            wilson(*bad)


def test_quantile():
    values = [1, 2, 3, 4]
    assert [quantile(values, q) for q in (0, 0.25, 0.5, 1)] == [1, 1.75, 2.5, 4]
    assert quantile([7], 0.9) == 7
    with pytest.raises(ValueError):
        quantile([], 0.5)
    with pytest.raises(ValueError):
        quantile(values, 1.5)


def test_histogram():
    bins = histogram([0, 49, 50, 99, 100, 250], edges=(0, 50, 100))
    assert [(b["from"], b["to"], b["count"]) for b in bins] == [(0, 50, 2), (50, 100, 2), (100, None, 2)]
    with pytest.raises(ValueError):
        histogram([-1], edges=(0, 10))


POLICIES = ("flipper-first", "owner-first", "ties:0.1", "errors:0.05", "ties:0.6", "errors:0.4")
VARIANTS = ({}, {"index_card": True}, {"next_turn": NextTurn.WINNER})


def same_game(config, seed, policy, cap):
    ref, fast = play_game(config, seed, policy, cap), fast_game(config, seed, policy, cap)
    assert (fast.status, fast.flips, fast.outcome, fast.endless) == (ref.status, ref.flips, ref.outcome, ref.endless)
    return ref.status


@pytest.mark.rules("SNAP-END-4")
@pytest.mark.parametrize("players", [2, 3, 4, 6, 12])
def test_fast_simulator_plays_the_reference_games(players):
    statuses = {same_game(SnapConfig(players=players, **variant), seed, policy, 800)
                for policy in POLICIES for variant in VARIANTS for seed in range(2)}
    assert "ended" in statuses


@pytest.mark.rules("SNAP-END-4")
def test_fast_simulator_finds_the_same_cycles():
    assert [same_game(SnapConfig(players=2), seed, "owner-first", None) for seed in (10, 11, 12)] == [
        "endless", "endless", "ended"]


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 6, 12])
def test_fast_simulator_plays_the_reference_games_thorough(players):
    for policy in POLICIES:
        for variant in VARIANTS:
            for seed in range(2, 12):
                same_game(SnapConfig(players=players, **variant), seed, policy, 5_000)


@pytest.mark.rules("SNAP-END-4")
def test_measure_small_cells():
    cell = measure(2, "owner-first", 40)
    assert cell["ended"] + cell["endless"] + cell["not_ended_within_cap"] == 40
    assert cell["endless"] == 5  # seeds 10, 11, 17, 31, 32 (see test_find_cycle)
    assert cell["endless_fraction"]["wilson95"] == list(wilson(5, 40))
    assert cell["flips_of_ended_games"]["count"] == 35
    assert sum(b["count"] for b in cell["flips_of_ended_games"]["histogram"]) == 35
    random_cell = measure(3, "ties:0.1", 10)
    assert random_cell["endless"] is None and "endless_fraction" not in random_cell
    assert random_cell["ended"] + random_cell["not_ended_within_cap"] == 10


@pytest.mark.rules("SNAP-END-4")
def test_find_cycle():
    result = find_cycle(players=2, policy="owner-first", seeds=range(40))
    assert result.seed == 10 and result.endless is not None
    state, at_start = new_game(result.config), None
    for move in result.moves:
        state = apply(state, move)
        if state.phase is Phase.FLIP and state.flips == result.endless.start and at_start is None:
            at_start = state.position_key()
    assert at_start == state.position_key() and state.flips == result.endless.start + result.endless.length
    assert find_cycle(players=2, policy="owner-first", seeds=range(10)) is None
    with pytest.raises(ValueError, match="random"):
        find_cycle(policy="ties:0.1", seeds=range(1))


def test_merge_orders_cells_and_refuses_overlaps():
    def run(*cells):
        return {"deals_per_cell": 5, "cells": [{"players": p, "policy": q} for p, q in cells]}

    merged = merge([run((6, "ties:0.1"), (2, "owner-first")), run((2, "flipper-first"))])
    assert [(c["players"], c["policy"]) for c in merged["cells"]] == [
        (2, "flipper-first"), (2, "owner-first"), (6, "ties:0.1")]
    with pytest.raises(ValueError, match="overlap"):
        merge([run((2, "owner-first")), run((2, "owner-first"))])
    with pytest.raises(ValueError, match="deals"):
        merge([run(), {"deals_per_cell": 6, "cells": []}])


@pytest.mark.skipif(not RESULTS.exists(), reason="results/snap_termination.json not generated")
def test_published_numbers_are_consistent():
    data = json.loads(RESULTS.read_text(encoding="utf-8"))
    cells = data["cells"]
    assert {(c["players"], c["policy"]) for c in cells} >= {(p, q) for p in (2, 3, 4, 6) for q in (
        "flipper-first", "owner-first", "ties:0.1", "errors:0.05")}
    for c in cells:
        n = c["deals"]
        assert n == data["deals_per_cell"]
        if c["endless"] is None:  # random policy: only "not ended within the cap"
            assert c["ended"] + c["not_ended_within_cap"] == n
            assert c["not_ended_fraction"]["wilson95"] == list(wilson(c["not_ended_within_cap"], n))
        else:
            assert c["ended"] + c["endless"] + c["not_ended_within_cap"] == n
            assert c["endless_fraction"]["wilson95"] == list(wilson(c["endless"], n))
        assert sum(c["terminations"].values()) == c["ended"]
        lengths = c["flips_of_ended_games"]
        assert sum(b["count"] for b in lengths["histogram"]) == lengths["count"] == c["ended"]
        q = lengths["quantiles"]
        assert q["0"] <= q["0.5"] <= q["1"]
