"""The caveats page's pictures, plots and numbers, drawn from the models and the data files.

Each ``caveat-*.inc`` file is reST included by ``caveats.rst``; pictures are SVG drawn by
:mod:`pictures`, plots PNG drawn by matplotlib.
"""

from __future__ import annotations

import json
from pathlib import Path

import exact_curve
import policies
import witnesses
from rulebook_pages import esc, linkify

from cardcanon import spec

ROOT = Path(__file__).resolve().parents[2]
ANALYSIS = ROOT / "results" / "analysis"


def draw_all(out: Path, ev) -> None:
    inc = out.parent
    snap = json.loads((ANALYSIS / "snap.json").read_text(encoding="utf-8"))
    hearts = json.loads((ANALYSIS / "hearts.json").read_text(encoding="utf-8"))
    used = list(dict.fromkeys(c["policy"] for c in snap["cells"]))
    exact = json.loads(exact_curve.EXACT.read_text(encoding="utf-8"))
    pieces = {
        "caveat-policies": policies.section(used),
        "caveat-snap-termination": made_by("results/analysis/snap.json", snap) + snap_termination(out, snap),
        "caveat-snap-exact": made_by("results/exact/snap-exact.json", exact) + exact_curve.snap_exact(out, snap),
        "caveat-snap-pot-endings": exact_curve.snap_pot_endings(snap),
        "caveat-snap-cycle": witnesses.snap_cycle(out, ev),
        "caveat-snap-pot": witnesses.snap_pot(out, ev),
        "caveat-hearts-tiebreak": witnesses.hearts_tiebreak(out, ev),
        "caveat-hearts-numbers": made_by("results/analysis/hearts.json", hearts) + hearts_numbers(out, hearts),
    }
    for name, text in pieces.items():
        (inc / f"{name}.inc").write_text(text, encoding="utf-8")


def made_by(name: str, data: dict) -> str:
    """Where the figures of a data file come from: its version, commit and command; a file that
    cannot be reproduced from a clean commit says that its figures are historical, and why."""
    made = data.get("provenance") or {}
    where = (f"``{name}``, made by cardcanon {esc(str(made.get('version')))} at commit "
             f"``{str(made.get('commit', ''))[:12]}``")
    if made.get("historical"):
        return (f".. admonition:: Historical figures\n   :class: historical\n\n   The figures below are from {where}, "
                f"and are historical: {esc(made.get('note', ''))}\n\n")
    return f"The figures below are from {where} by ``{made.get('command', '')}``.\n\n"


def prose(text: str) -> str:
    """Prose from a data file: ```...``` spans (commands, names) become literals, copyable as
    written; rule IDs become links; the rest is escaped."""
    ids = spec.all_rule_ids()
    parts = text.split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick: no spans
        return linkify(text, ids)
    return "".join(linkify(p, ids) if i % 2 == 0 else f"``{p}``" for i, p in enumerate(parts))


# What the analysis data mean, in the rulebook's words (the data files' own descriptions are
# written for programmers: they name functions).
SNAP_READER = ("Snap with the rulebook's default rules and 52 cards, under the calling policies above. Deal *k* is "
               "the deal that seed *k* makes (:ref:`SNAP-SEED-1 <rule-SNAP-SEED-1>`), as "
               "``cardcanon play snap --seed k`` deals it. Under a deterministic policy a deal never ends when a "
               "position comes back, since the game then repeats forever (:ref:`SNAP-END-4 <rule-SNAP-END-4>`); "
               "under a random policy a game still going at the flip cap is counted as not ended, never as "
               "endless. Played by the compiled engine, proved equal to the reference model by differential tests.")
HEARTS_READER = ("Two-player Hearts with the rulebook's default rules, whole matches to 100. Match *k* is played "
                 "from seed *k*, as ``cardcanon play hearts --seed k`` plays it. The *random* player plays any "
                 "legal card with equal chance; the *greedy* player avoids points trick by trick. Played by the "
                 "compiled engine.")


def _pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def _interval(f: dict) -> str:
    return f"{_pct(f['estimate'])} ({_pct(f['wilson95'][0])} to {_pct(f['wilson95'][1])})"


def _record(cell: dict, key: str) -> str:
    rec = (cell.get("records") or {}).get(key)
    if not rec:
        return ""
    if rec.get("file"):
        return f" :download:`record </../{rec['file']}>`"
    return ""


def _table(title: str, header: list[str], rows: list[list[str]], widths: str | None = None) -> str:
    """A numeric table: it stays a table on a phone, its key columns first; when wider than the
    screen it scrolls in its own box, its first column pinned, with a hint (cardcanon.js)."""
    out = [f".. list-table:: {title}\n   :header-rows: 1\n   :class: numeric\n"]
    if widths:
        out.append(f"   :widths: {widths}\n")
    out.append("\n")
    for row in [header, *rows]:
        out.append("   * - " + "\n     - ".join(row) + "\n")
    return "".join(out) + "\n"


def _deals(c: dict) -> str:
    """The deals of a cell; a cell still being computed says how many of how many."""
    return f"{c['deals']:,}" if c.get("complete", True) else f"{c['deals']:,} of {c['deals_planned']:,}"


def _same_with_index_card(cells: list[dict]) -> str:
    """What the index card changed, read off the cells computed both ways with as many deals."""
    off = {(c["players"], c["policy"]): c for c in cells if c["deterministic"] and not c.get("index_card")}
    pairs = [(c, off[(c["players"], c["policy"])]) for c in cells
             if c.get("index_card") and (c["players"], c["policy"]) in off]
    same = [(a, b) for a, b in pairs if a["deals"] == b["deals"]]
    if not same:
        return ""
    equal = all((a["endless"], a["ended"], a["game_lengths"]) == (b["endless"], b["ended"], b["game_lengths"])
                for a, b in same)
    verdict = ("the counts and game lengths are the same as when the players call, as they must be: under these "
               "policies nobody ties and nobody calls wrongly, so the pot stays empty and a hand on the card "
               "wins exactly what the call would have won" if equal else
               "the counts differ from those without the card")
    cells_text = "cell" if len(same) == 1 else f"{len(same)} cells"
    return (f"With the index card (:ref:`SNAP-INDEX-1 <rule-SNAP-INDEX-1>`), in the deterministic {cells_text} "
            f"computed both ways from as many deals, {verdict}. ")


def _cpu_time(cells: list[dict]) -> str:
    timed = [c["cpu_seconds"] for c in cells if c.get("cpu_seconds", {}).get("timed_deals")]
    if not timed:
        return ""
    seconds, deals = sum(t["seconds"] for t in timed), sum(t["timed_deals"] for t in timed)
    return (f"Over all cells, including the smaller decks below, the engine took {seconds / 3600:.2f} CPU hours "
            f"for the {deals:,} deals that were timed (each cell's time is in the data file). ")


def snap_termination(out: Path, data: dict) -> str:
    cells = [c for c in data["cells"] if c.get("cards", 52) == 52]
    rows = []
    for c in cells:
        if c["deterministic"]:
            never = _interval(c["never_ends"]) + " endless"
        else:
            never = _interval(c["not_ended_fraction"]) + f" not ended within {c['flip_cap']} flips"
        g = c["game_lengths"]
        ext = c.get("extremes") or {}
        longest = f"{ext['longest_ended'][0]}{_record(c, 'longest_ended')}" if ext.get("longest_ended") else "—"
        cycles = "—"
        if ext.get("shortest_cycle"):
            cycles = (f"{ext['shortest_cycle'][0]}{_record(c, 'shortest_cycle')} / "
                      f"{ext['longest_cycle'][0]}{_record(c, 'longest_cycle')}")
        rows.append([str(c["players"]), esc(never), f"``{c['policy']}``", "on" if c.get("index_card") else "off",
                     _deals(c),
                     f"{g['quantiles']['0.5']:.0f}" if g else "—", f"{g['quantiles']['0.99']:.0f}" if g else "—",
                     longest, cycles])
    table = _table("Snap, 52 cards: deals that never end and the length of those that do (flips)",
                   ["Players", "Never end (95% interval)", "Policy", "Index card", "Deals", "Median", "99th pct.",
                    "Longest that ends", "Shortest / longest cycle"], rows, "6 24 12 6 10 7 7 12 16")
    enum_rows = [[str(e["players"]), prose(e["deck"]), f"``{e['policy']}``",
                  f"{e['never_ends_exact']} ({_pct(e['never_ends'])})", str(e["deals"])]
                 for e in data["enumeration"]["cells"]]
    enum = _table("Small decks, every deal enumerated: exact fraction that never ends",
                  ["Players", "Deck", "Policy", "Never end", "Deals"], enum_rows)
    calling = [c for c in cells if not c.get("index_card")]
    _plot_termination(calling, out / "snap-termination.svg")
    _plot_lengths(calling, out / "snap-lengths.svg")
    return (SNAP_READER + " Records can be replayed with ``cardcanon replay``. A cell whose deals read "
            "\"N of M\" was still being computed: its figures are from the first N deals.\n\n" + table
            + _same_with_index_card(cells) + _cpu_time(data["cells"]) + "\n\n" + enum
            + chart("snap-termination", "Fraction of Snap deals that never end, by players and policy, with 95% "
                    "intervals (players calling, no index card)") + chart("snap-lengths", "Distribution of the number of flips in two-player Snap "
                                         "games that end"))


def _plot_termination(cells, path: Path) -> None:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=CHART)
    policies = list(dict.fromkeys(c["policy"] for c in cells))
    for policy in policies:
        pts = [c for c in cells if c["policy"] == policy]
        frac = [c["never_ends"] if c["deterministic"] else c["not_ended_fraction"] for c in pts]
        ys = [f["estimate"] for f in frac]
        err = [[y - f["wilson95"][0] for y, f in zip(ys, frac)], [f["wilson95"][1] - y for y, f in zip(ys, frac)]]
        label = policy if pts[0]["deterministic"] else f"{policy} (not ended within {pts[0]['flip_cap']} flips)"
        ax.errorbar([c["players"] for c in pts], ys, yerr=err, fmt="o-", capsize=3, label=label)
    ax.set_xlabel("players")
    ax.set_ylabel("fraction of deals")
    ax.set_title("Snap deals that never end\n(95% Wilson intervals)")
    ax.set_xticks(sorted({c["players"] for c in cells}))
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=1, frameon=False)
    ax.grid(alpha=0.3)
    _save(fig, path)


def _plot_lengths(cells, path: Path) -> None:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=CHART)
    for c in cells:
        g = c["game_lengths"]
        if c["players"] != 2 or not g or not g.get("fine_histogram"):
            continue
        width = g["fine_bin_width"]
        counts = g["fine_histogram"]
        total = sum(counts)
        ax.plot([i * width for i in range(len(counts))], [n / total for n in counts], label=c["policy"])
    ax.set_xlabel(f"flips until a two-player game ends\n(bins of {width})")
    ax.set_ylabel("share of games that end")
    ax.set_xlim(left=0)
    ax.legend()
    ax.grid(alpha=0.3)
    _save(fig, path)


def hearts_numbers(out: Path, data: dict) -> str:
    rows = []
    for c in data["cells"]:
        m = c["match_length_hands"]
        rows.append([esc(c["pairing"]), _interval(c["tie_break"]), _interval(c["moon_per_hand"]),
                     f"{m['mean']:.2f} ({m['min']} to {m['max']})", str(c["matches"]),
                     f"{c['pairs_seen']} of {c['pairs_possible']}"
                     + (f"; {len(c['pairs_seen_not_possible'])} outside the proved set" if c["pairs_seen_not_possible"] else "")])
    table = _table("Two-player Hearts: whole matches to 100",
                   ["Players", "Tie-break reached", "Moon shot, per hand", "Hands per match: mean (range)",
                    "Matches", "Hand-score pairs seen"], rows)
    _plot_pairs(data, out / "hearts-pairs.svg")
    return (HEARTS_READER + "\n\n" + table +
            "The set of possible hand-score pairs is the one check :ref:`HEARTS-P5 <check-HEARTS-P5-score-pairs>` "
            "proves: each pair possible (with a replayed hand) or impossible. The plot shows how often each "
            "possible pair occurred.\n\n"
            ".. container:: wide-figure\n\n   .. image:: /generated/figures/hearts-pairs.svg\n"
            "      :alt: Empirical frequency of each possible hand-score pair\n\n")


def _plot_pairs(data: dict, path: Path) -> None:
    plt = _pyplot()
    possible = [tuple(p) for p in data["possible_pairs"]]
    fig, ax = plt.subplots(figsize=(11, 5))
    width = 0.8 / len(data["cells"])
    for i, c in enumerate(data["cells"]):
        freq = {tuple(p["scores"]): p["fraction"] for p in c["hand_score_pairs"]}
        ax.bar([k + i * width for k in range(len(possible))], [freq.get(p, 0.0) for p in possible],
               width=width, label=c["pairing"])
    ax.set_xticks(range(len(possible)), [f"{a}-{b}" for a, b in possible], rotation=90, fontsize=9)
    ax.set_yscale("log")
    ax.set_ylabel("share of hands")
    ax.set_title("Hand scores (player 1 - player 2): every pair the proofs allow, and how often it occurs")
    ax.legend()
    _save(fig, path)


CHART = (6.2, 5.2)  # inches: drawn 595 px wide, so at 358 px on a phone 15-pt type stays at least 9 px


def chart(name: str, alt: str) -> str:
    return f".. image:: /generated/figures/{name}.svg\n   :alt: {alt}\n   :class: chart\n\n"


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # text stays text in the SVG (legible, searchable), at sizes readable when the chart shrinks
    plt.rcParams.update({"svg.fonttype": "none", "font.size": 15, "legend.fontsize": 14,
                         "axes.titlesize": 15, "font.family": "DejaVu Sans", "svg.hashsalt": "cardcanon"})
    return plt


def _save(fig, path: Path) -> None:
    fig.tight_layout()
    fig.savefig(path, metadata={"Creator": None, "Date": None}, bbox_inches="tight")
    _pyplot().close(fig)
