"""Exact Snap enumeration by canonical rank sequences (cardcanon.engine.exact, cardcanon.exact).

The reduction (suits, rank relabelling, the dealer's seat) is checked against the brute-force
enumeration of every dealer and every card order published in results/analysis/snap.json; the
kernel's games against the reference model; the Dask driver for independence of the number of
workers and for resuming after an interruption. All but the counts need the enumeration's compiled
library (``exact.c``, marked ``needs_exact``) and the kernel; without them ``test_engine_fallback.py``
checks that the enumeration says so.
"""

import itertools
import json
import math
from collections import Counter
from pathlib import Path

import pytest

from cardcanon.engine import exact
from cardcanon.engine import snap as engine_snap
from cardcanon.engine.stats import ChunkFile
from cardcanon.model.seats import Seat
from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.snap import Deal, SnapConfig
from cardcanon.model.snap_policies import play_deal

ROOT = Path(__file__).resolve().parents[1]
PUBLISHED = json.loads((ROOT / "results" / "analysis" / "snap.json").read_text(encoding="utf-8"))
EXACT = ROOT / "results" / "exact" / "snap-exact.json"


def _all_canonical(ranks, suits):
    """Brute force: the rank sequences in lexicographic order whose ranks first appear in order."""
    out = []
    for seq in sorted(set(itertools.permutations([r for r in range(ranks) for _ in range(suits)]))):
        firsts = [r for i, r in enumerate(seq) if r not in seq[:i]]
        if firsts == sorted(firsts):
            out.append(seq)
    return out


@pytest.mark.needs_kernel
@pytest.mark.needs_exact
@pytest.mark.parametrize("ranks,suits", [(2, 2), (3, 2), (2, 3), (3, 3), (4, 2), (2, 4)])
def test_unranking_lists_the_canonical_sequences_in_order(ranks, suits):
    expected = _all_canonical(ranks, suits)
    assert exact.count(ranks, suits) == len(expected) == exact.kernel().exact_count(ranks, suits)
    assert len(expected) * math.factorial(ranks) * math.factorial(suits) ** ranks == math.factorial(ranks * suits)
    assert [exact.sequence(ranks, suits, i) for i in range(len(expected))] == expected
    with pytest.raises(ValueError):
        exact.sequence(ranks, suits, len(expected))


def test_counts_of_the_issue_decks():
    assert [exact.count(r, 4) for r in (3, 4, 5, 6)] == [5775, 2627625, 2546168625, 4509264634875]


@pytest.mark.needs_kernel
@pytest.mark.needs_exact
@pytest.mark.parametrize("cell", PUBLISHED["enumeration"]["cells"],
                         ids=lambda c: f"{c['players']}p-{c['deck'].replace(' ', '')}-{c['policy']}")
def test_reduction_gives_the_published_brute_force_figures(cell):
    """Every published complete enumeration (each dealer, each card order) is reproduced by the
    canonical sequences times their weight: deals, endless deals, endings and game lengths."""
    ranks, suits = (int(x) for x in cell["deck"].replace(" suits", "").split(" ranks x "))
    players, policy = cell["players"], cell["policy"]
    total, weight = exact.count(ranks, suits), exact.weight(players, ranks, suits)
    got = exact.decide_range(players, ranks, suits, 0, total, (policy,))[policy]
    assert total * weight == cell["deals"]
    assert got["endless"] * weight == cell["endless"]
    assert got["capped"] == cell["capped"] == 0
    assert got["ended"] * weight == sum(cell["terminations"].values()) == cell["terminations"]["all-cards"]
    lengths = cell["game_lengths"]
    assert got["ended_flips"] * weight == pytest.approx(lengths["mean"] * lengths["count"], rel=1e-12)
    values = sorted(int(v) for v in got["lengths"])
    assert (values[0], values[-1]) == (lengths["min"], lengths["max"])


@pytest.mark.needs_kernel
@pytest.mark.needs_exact
@pytest.mark.parametrize("players,ranks,suits", [(2, 3, 2), (3, 2, 3), (2, 2, 4)])
def test_every_deal_a_sequence_stands_for_plays_alike(players, ranks, suits):
    """Relabelled ranks, permuted suits and another dealer give the same status and length
    (the engine, which is bound to the model, plays each deal)."""
    config = SnapConfig(players=players, deck=exact.deck(ranks, suits))
    for index in range(exact.count(ranks, suits)):
        base = exact.deal(ranks, suits, index)
        ranks_perm = list(reversed(range(ranks)))
        deck = exact.deck(ranks, suits)
        by = {(c.rank, c.suit): c for c in deck}
        rank_list = sorted({c.rank for c in deck})
        suit_list = sorted({c.suit for c in deck}, key=lambda s: s.value)
        moved = tuple(by[(rank_list[ranks_perm[rank_list.index(c.rank)]], suit_list[(suit_list.index(c.suit) + 1)
                                                                                   % suits])] for c in base.order)
        runs = [engine_snap.decide_deal(config, Deal(Seat(d), order), policy)
                for d in range(players) for order in (base.order, moved) for policy in exact.POLICIES]
        for k, policy in enumerate(exact.POLICIES):
            mine = runs[k::2]
            assert len({(r.status, r.flips if r.status == "ended" else r.cycle.length) for r in mine}) == 1


@pytest.mark.needs_kernel
@pytest.mark.needs_exact
@pytest.mark.parametrize("ranks,suits", [(3, 3), (2, 4), (4, 2)])
def test_kernel_matches_the_reference_model(ranks, suits):
    """Each canonical deal decided by the kernel is the reference model's game."""
    config = SnapConfig(players=2, deck=exact.deck(ranks, suits))
    for policy in exact.POLICIES:
        lengths, cycles = Counter(), Counter()
        for index in range(0, exact.count(ranks, suits), 7):
            result = play_deal(config, exact.deal(ranks, suits, index), policy, SplitMix64(0))
            got = exact.decide_range(2, ranks, suits, index, 1, (policy,))[policy]
            if result.endless:
                assert got["endless"] == 1 and got["cycle_lengths"] == {str(result.endless.length): 1}
                cycles[result.endless.length] += 1
            else:
                assert got["ended"] == 1 and got["lengths"] == {str(result.flips): 1}
                lengths[result.flips] += 1
        assert lengths and (cycles or policy == "flipper-first")


@pytest.mark.needs_kernel
@pytest.mark.needs_exact
@pytest.mark.parametrize("ranks,suits", [(3, 4), (4, 4), (5, 4), (6, 4), (4, 3), (7, 2), (8, 1), (2, 4)])
def test_the_two_player_path_equals_the_general_path(ranks, suits):
    """The kernel's two-player path (from one win to the next) decides every sequence as its
    general loop does (which test_kernel_matches_the_reference_model binds to the model): same
    counts, lengths, cycles and extremes, on ranges spread over the whole order."""
    total = exact.count(ranks, suits)
    for k in range(8):
        first = (total - 300) * k // 7 if total > 300 else 0
        n = min(300, total)
        fast = exact.decide_range(2, ranks, suits, first, n)
        general = exact.decide_range(2, ranks, suits, first, n, general=True)
        assert fast == general


@pytest.mark.needs_kernel
@pytest.mark.needs_exact
def test_kernel_general_path_matches_the_reference_model():
    config = SnapConfig(players=2, deck=exact.deck(3, 3))
    for policy in exact.POLICIES:
        for index in range(0, exact.count(3, 3), 11):
            result = play_deal(config, exact.deal(3, 3, index), policy, SplitMix64(0))
            got = exact.decide_range(2, 3, 3, index, 1, (policy,), cycle_starts=True, general=True)[policy]
            if result.endless:
                assert got["cycle_lengths"] == {str(result.endless.length): 1}
                assert got["cycle_starts"] == {str(result.endless.start): 1}
            else:
                assert got["lengths"] == {str(result.flips): 1}


@pytest.mark.needs_kernel
@pytest.mark.needs_exact
def test_ranges_add_up():
    whole = exact.decide_range(2, 3, 3, 0, exact.count(3, 3))
    parts = [exact.decide_range(2, 3, 3, first, n) for first, n in ((0, 100), (100, 1), (101, 179))]
    for p in exact.POLICIES:
        for key in ("ended", "endless", "ended_flips"):
            assert sum(part[p][key] for part in parts) == whole[p][key]
    with pytest.raises(ValueError):
        exact.decide_range(2, 3, 3, 200, 81)
    with pytest.raises(ValueError):
        exact.decide_range(2, 9, 4, 0, 1)  # 36 cards


# ---- the Dask driver -------------------------------------------------------------------------
dask_distributed = pytest.importorskip("dask.distributed")


@pytest.fixture(scope="module")
def two_worker_client():
    cluster = dask_distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    client = dask_distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


@pytest.fixture(scope="module")
def one_worker_client():
    cluster = dask_distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0")
    client = dask_distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def _figures(out, players=2, ranks=3, suits=4):
    from cardcanon import exact as driver
    cells = []
    for p in exact.POLICIES:
        store = driver.checkpoint(out, players, ranks, suits, p, 500)
        cells.append(driver.summary(players, ranks, suits, p, store))
    return cells


@pytest.mark.needs_kernel
@pytest.mark.needs_exact
@pytest.mark.slow  # three Dask worker processes
def test_one_or_two_workers_give_the_same_figures(tmp_path, one_worker_client, two_worker_client):
    from cardcanon import exact as driver
    for name, client in (("one", one_worker_client), ("two", two_worker_client)):
        driver.run(2, 3, 4, exact.POLICIES, tmp_path / name, chunk=500, quiet=True, client=client)
    one, two = _figures(tmp_path / "one"), _figures(tmp_path / "two")
    assert one == two and all(one)
    assert one[0]["never_ends_exact"] == "412/5775"


@pytest.mark.needs_kernel
@pytest.mark.needs_exact
@pytest.mark.slow  # a Dask cluster of two worker processes
def test_an_interrupted_run_resumes_to_the_same_figures(tmp_path, two_worker_client):
    from cardcanon import exact as driver
    driver.run(2, 3, 4, exact.POLICIES, tmp_path / "whole", chunk=500, quiet=True, client=two_worker_client)
    part = tmp_path / "part"
    driver.run(2, 3, 4, exact.POLICIES, part, chunk=500, quiet=True, client=two_worker_client, stop_after=5)
    assert _figures(part) == [None, None]  # unfinished: no figure is given
    path = part / "chunks" / "snap-exact-2p-3x4-owner-first.jsonl"
    with path.open("a", encoding="utf-8") as f:
        f.write('{"kind":"chunk","index":3,"fir')  # a line cut short by the interruption
    done_before = sum(len(driver.checkpoint(part, 2, 3, 4, p, 500).chunks) for p in exact.POLICIES)
    assert 5 <= done_before < 24
    driver.run(2, 3, 4, exact.POLICIES, part, chunk=500, quiet=True, client=two_worker_client, time_limit=0)
    assert sum(len(driver.checkpoint(part, 2, 3, 4, p, 500).chunks) for p in exact.POLICIES) == done_before
    driver.run(2, 3, 4, exact.POLICIES, part, chunk=500, quiet=True, client=two_worker_client)
    assert _figures(part) == _figures(tmp_path / "whole")
    with pytest.raises(ValueError, match="other parameters"):
        ChunkFile(path, {"kind": "header", "game": "snap", "exact": 0})


@pytest.mark.needs_kernel
@pytest.mark.needs_exact
def test_cli_exact_writes_figures_and_records(tmp_path, capsys):
    from cardcanon.cli import main
    assert main(["analyze", "snap", "--exact", "--ranks", "2", "--suits", "3", "--workers", "1", "--chunk", "3",
                 "--out", str(tmp_path), "-q"]) == 0
    data = json.loads((tmp_path / "snap-exact.json").read_text(encoding="utf-8"))
    cells = {c["policy"]: c for c in data["cells"]}
    assert cells["flipper-first"]["never_ends_exact"] == "1/10" and cells["owner-first"]["never_ends_exact"] == "3/5"
    for record in cells["owner-first"]["records"].values():
        assert main(["replay", record["file"], "-q"]) == 0
    assert main(["analyze", "snap", "--exact", "--ranks", "2", "--out", str(tmp_path)]) != 0
    assert "--suits" in capsys.readouterr().err


@pytest.mark.needs_kernel
@pytest.mark.needs_exact
@pytest.mark.slow  # a Dask cluster of two worker processes
def test_cli_reports_an_unfinished_deck_without_a_figure(tmp_path, two_worker_client):
    from cardcanon import exact as driver
    from cardcanon.cli import main
    driver.run(2, 3, 4, ("owner-first",), tmp_path, chunk=500, quiet=True, client=two_worker_client, stop_after=2)
    assert main(["analyze", "snap", "--exact", "--ranks", "3", "--suits", "4", "--policies", "owner-first",
                 "--chunk", "500", "--time-limit", "0", "--out", str(tmp_path), "-q"]) == 0
    data = json.loads((tmp_path / "snap-exact.json").read_text(encoding="utf-8"))
    assert data["cells"] == []
    (unfinished,) = data["unfinished"]
    assert unfinished["policy"] == "owner-first" and 1000 <= unfinished["decided"] < 5775


@pytest.mark.slow  # recounts every published deck
def test_published_exact_figures_add_up():
    """results/exact/snap-exact.json: each finished deck's counts and fraction are consistent."""
    data = json.loads(EXACT.read_text(encoding="utf-8"))
    assert data["cells"]
    for c in data["cells"]:
        total = exact.count(c["ranks"], c["suits"])
        assert c["canonical_sequences"] == total and c["weight"] == exact.weight(c["players"], c["ranks"], c["suits"])
        assert c["deals"] == math.factorial(c["cards"]) * c["players"]
        assert c["endless_sequences"] + c["ended_sequences"] + c["capped"] == total
        num, den = (int(x) for x in c["never_ends_exact"].split("/"))
        assert num * total == c["endless_sequences"] * den
        assert c["game_lengths"]["count"] == c["ended_sequences"]
        assert sum(c["cycle_lengths"]["counts"].values()) == c["endless_sequences"]
        assert c["extremes"]["longest_ended"][0] == c["game_lengths"]["max"]
        assert c["extremes"]["shortest_cycle"][0] == c["cycle_lengths"]["min"]


def test_a_scheduler_address_where_nothing_listens_is_refused_within_seconds(tmp_path):
    import time

    from cli_harness import run_inprocess

    started = time.monotonic()
    got = run_inprocess(["analyze", "snap", "--exact", "--players", "2", "--ranks", "3", "--suits", "2", "-q",
                         "--scheduler", "tcp://127.0.0.1:9", "--out", str(tmp_path)])
    assert time.monotonic() - started < 5
    assert got.status == 2 and not got.traceback and got.stdout == ""
    assert got.stderr.splitlines() == ["cardcanon: error: --scheduler tcp://127.0.0.1:9: cannot connect (Connection "
                                       "refused); is a Dask scheduler running there?"]
