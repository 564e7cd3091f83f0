"""Snap termination: the statistics helpers on small inputs, the cycle search against the
reference model, and the consistency of the published numbers in results/analysis/snap.json
(written by ``cardcanon analyze snap``, the only producer of termination numbers)."""

import json
from fractions import Fraction
from pathlib import Path

import pytest

from cardcanon.engine import snap as engine_snap
from cardcanon.engine.stats import QUANTILES, histogram, quantile, wilson
from cardcanon.model.snap import Phase, SnapConfig, apply, new_game
from cardcanon.engine.snap import find_cycle
from cardcanon.model.snap_policies import play_game

RESULTS = Path(__file__).resolve().parents[1] / "results" / "analysis" / "snap.json"
POLICIES = ("flipper-first", "owner-first", "ties:0.1", "errors:0.05")


# ---- statistics helpers ------------------------------------------------------------------
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


# ---- the cycle search ----------------------------------------------------------------------
@pytest.mark.needs_kernel
@pytest.mark.rules("SNAP-END-4")
def test_find_cycle_returns_the_reference_models_repeating_game():
    result = find_cycle(players=2, policy="owner-first", seeds=range(40))
    assert result.seed == 10 and result.endless is not None
    assert result == play_game(SnapConfig(players=2), 10, "owner-first", max_flips=engine_snap.SAFETY_CAP)
    state, at_start = new_game(result.config), None
    for move in result.moves:  # every move replays through the reference apply
        state = apply(state, move)
        if state.phase is Phase.FLIP and state.flips == result.endless.start and at_start is None:
            at_start = state.position_key()
    assert at_start == state.position_key() and state.flips == result.endless.start + result.endless.length


@pytest.mark.needs_kernel
@pytest.mark.rules("SNAP-END-4")
def test_find_cycle_finds_none_where_the_model_ends_every_game():
    config = SnapConfig(players=2)
    assert all(play_game(config, seed, "owner-first").outcome for seed in range(10))
    assert find_cycle(players=2, policy="owner-first", seeds=range(10)) is None
    with pytest.raises(ValueError, match="random"):
        find_cycle(policy="ties:0.1", seeds=range(1))


@pytest.mark.needs_kernel
@pytest.mark.rules("SNAP-END-4")
def test_find_cycle_refuses_an_engine_claim_the_model_does_not_confirm(monkeypatch):
    config = SnapConfig(players=2)
    ended = engine_snap.decide(config, 0, "owner-first")
    assert ended.status == "ended"
    lying = lambda *args, **kwargs: engine_snap.SnapRun(0, ended.dealer, "endless", 0)  # noqa: E731
    monkeypatch.setattr(engine_snap, "decide", lying)
    with pytest.raises(RuntimeError, match="disagree on seed 0"):
        find_cycle(players=2, policy="owner-first", seeds=range(1))


# ---- the published numbers ------------------------------------------------------------------
def _counted(dist: dict, total: int) -> None:
    """A distribution of ``total`` values: bins add up, quantiles ordered within min..max."""
    assert dist["count"] == total
    assert sum(b["count"] for b in dist["histogram"]) == total
    if "fine_histogram" in dist:
        assert sum(dist["fine_histogram"]) == total
    q = [dist["quantiles"][f"{level:g}"] for level in QUANTILES]
    assert q == sorted(q) and q[0] == dist["min"] and q[-1] == dist["max"]
    assert dist["min"] <= dist["mean"] <= dist["max"]


def _interval(fraction: dict, successes: int, trials: int) -> None:
    assert fraction["estimate"] == successes / trials
    lo, hi = fraction["wilson95"]
    assert [lo, hi] == pytest.approx(list(wilson(successes, trials)))
    assert lo <= fraction["estimate"] <= hi


@pytest.fixture(scope="module")
def published() -> dict:
    if not RESULTS.exists():
        pytest.skip("results/analysis/snap.json not generated (cardcanon analyze snap)")
    return json.loads(RESULTS.read_text(encoding="utf-8"))


def _key(c: dict) -> tuple:
    return c["players"], c["policy"], c.get("index_card", False), c.get("cards", 52)


@pytest.mark.rules("SNAP-END-1", "SNAP-END-2", "SNAP-END-3", "SNAP-END-4")
def test_published_cells_add_up(published):
    cells = {_key(c): c for c in published["cells"]}
    assert len(cells) == len(published["cells"])  # one cell per table and policy
    assert set(cells) >= {(p, q, False, 52) for p in range(2, 13) for q in POLICIES}
    assert cells[(2, "flipper-first", False, 52)]["deals"] >= 1_000_000
    for c in cells.values():
        n = c["deals"]
        assert n > 0 and c["seeds"][1] - c["seeds"][0] + 1 == n
        if "deals_planned" in c:  # a cell still being computed says so
            assert c["complete"] == (n == c["deals_planned"]) and n <= c["deals_planned"]
            assert 0 <= c["cpu_seconds"]["timed_deals"] <= n and c["cpu_seconds"]["seconds"] >= 0
        assert sum(c["terminations"].values()) == c["ended"]
        if c["ended"]:
            _counted(c["game_lengths"], c["ended"])
        if c["deterministic"]:  # a repeat proves the game endless; counted exactly
            assert isinstance(c["endless"], int) and "not_ended_fraction" not in c
            assert c["ended"] + c["endless"] + c["capped"] == n
            _interval(c["never_ends"], c["endless"], n)
            if c["endless"]:
                _counted(c["cycle_lengths"], c["endless"])
                assert sum(c["cycle_lengths"]["counts"].values()) == c["endless"]
                _counted(c["cycle_starts"], c["endless"])
        else:  # a random policy: only "not ended within the cap", never "endless"
            assert c["endless"] is None and "never_ends" not in c and "cycle_lengths" not in c
            assert c["ended"] + c["not_ended_within_cap"] == n
            _interval(c["not_ended_fraction"], c["not_ended_within_cap"], n)


@pytest.mark.rules("SNAP-END-4")
def test_published_enumeration_is_exact(published):
    cells = published["enumeration"]["cells"]
    assert cells
    for c in cells:
        assert c["endless"] + c["capped"] + sum(c["terminations"].values()) == c["deals"]
        assert Fraction(c["never_ends_exact"]) == Fraction(c["endless"], c["deals"])
        assert c["never_ends"] == pytest.approx(float(Fraction(c["never_ends_exact"])))
        if c["game_lengths"]:
            _counted(c["game_lengths"], sum(c["terminations"].values()))


@pytest.mark.needs_kernel
@pytest.mark.rules("SNAP-END-4")
def test_published_extreme_seeds_replay_in_the_engine(published):
    main = next(c for c in published["cells"] if (c["players"], c["policy"]) == (2, "flipper-first"))
    config = SnapConfig(players=2)
    longest, seed = main["extremes"]["longest_ended"]
    assert engine_snap.decide(config, seed, "flipper-first").flips == longest
    for key in ("shortest_cycle", "longest_cycle"):
        length, seed = main["extremes"][key]
        run = engine_snap.decide(config, seed, "flipper-first")
        assert run.status == "endless" and run.cycle.length == length


def _half_width(fraction: dict) -> float:
    lo, hi = fraction["wilson95"]
    return max(fraction["estimate"] - lo, hi - fraction["estimate"])


@pytest.mark.rules("SNAP-END-4", "SNAP-INDEX-1")
def test_published_deterministic_cells_of_a_million_deals_are_within_a_tenth_of_a_point(published):
    deterministic = [c for c in published["cells"] if c["deterministic"]]
    full = [c for c in deterministic if c["deals"] >= 1_000_000]
    assert full  # at least the two-player flipper-first cell
    for c in full:
        assert _half_width(c["never_ends"]) <= 0.001, _key(c)
    for c in deterministic:  # a cell of fewer deals never claims to be complete at a million
        if c.get("deals_planned", 0) >= 1_000_000 and c["deals"] < 1_000_000:
            assert c["complete"] is False


@pytest.mark.rules("SNAP-END-4", "SNAP-DECK-1")
def test_published_curve_covers_every_four_suit_deck_from_24_to_48_cards(published):
    curve = {(c["cards"], c["policy"]): c for c in published["cells"]
             if c.get("cards", 52) != 52 and c["players"] == 2 and not c.get("index_card")}
    assert set(curve) == {(cards, p) for cards in range(24, 49, 4) for p in ("flipper-first", "owner-first")}
    for c in curve.values():
        assert c["deals"] == c["deals_planned"] == 1_000_000 and c["complete"]
        assert c["cpu_seconds"]["timed_deals"] == c["deals"] and c["cpu_seconds"]["seconds"] > 0
        assert _half_width(c["never_ends"]) <= 0.001


@pytest.mark.rules("SNAP-INDEX-1")
def test_published_index_card_cells_agree_with_calling_under_deterministic_policies(published):
    """Flipper-first and owner-first never tie and never call wrongly, so the pot stays empty and a
    hand on the index card wins exactly what the call would have: each deal has the same verdict."""
    cells = {_key(c): c for c in published["cells"] if c["deterministic"]}
    pairs = [(c, cells[(p, q, False, n)]) for (p, q, on, n), c in cells.items() if on and (p, q, False, n) in cells]
    same = [(on, off) for on, off in pairs if on["deals"] == off["deals"]]
    assert same  # at least the two-player cells are computed both ways
    for on, off in same:
        assert (on["endless"], on["ended"], on["game_lengths"]) == (off["endless"], off["ended"], off["game_lengths"])
