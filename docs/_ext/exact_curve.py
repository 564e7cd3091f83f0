"""The caveats page's curve of endless fractions against deck size, two players, decks of 4 suits:
exact from every deal up to 20 cards (``results/exact/snap-exact.json`` and the enumeration in
``results/analysis/snap.json``), sampled from 24 to 52 cards (the cells of ``snap.json``)."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXACT = ROOT / "results" / "exact" / "snap-exact.json"
POLICIES = ("flipper-first", "owner-first")


def _points(exact: dict, enumeration: list[dict]) -> dict[str, list[tuple[int, str, float]]]:
    """Per policy: (cards, exact fraction text, value) for two players and four suits."""
    points: dict[str, dict[int, tuple[int, str, float]]] = {p: {} for p in POLICIES}
    for e in enumeration:  # the brute-force small decks (4 suits: 2 ranks x 4 suits)
        if e["players"] == 2 and e["deck"].endswith("x 4 suits") and e["policy"] in points:
            points[e["policy"]][e["cards"]] = (e["cards"], e["never_ends_exact"], e["never_ends"])
    for c in exact["cells"]:
        if c["players"] == 2 and c["suits"] == 4 and c["policy"] in points:
            points[c["policy"]][c["cards"]] = (c["cards"], c["never_ends_exact"], c["never_ends"])
    return {p: [v for _, v in sorted(d.items())] for p, d in points.items()}


def snap_exact(out: Path, analysis: dict) -> str:
    exact = json.loads(EXACT.read_text(encoding="utf-8"))
    points = _points(exact, analysis["enumeration"]["cells"])
    sampled = _sampled(analysis["cells"])
    rows = []
    for c in exact["cells"]:
        rows.append([str(c["cards"]), f"``{c['policy']}``", f"{c['never_ends_exact']} ({100 * c['never_ends']:.4f}%)",
                     f"{c['ranks']} x {c['suits']}", f"{c['canonical_sequences']:,}", f"{c['endless_sequences']:,}",
                     str(c["extremes"]["longest_ended"][0]) + _rec(c, "longest_ended"),
                     f"{c['extremes']['shortest_cycle'][0]}{_rec(c, 'shortest_cycle')} / "
                     f"{c['extremes']['longest_cycle'][0]}{_rec(c, 'longest_cycle')}"])
    for u in exact.get("unfinished", []):
        rows.append([str(u["ranks"] * u["suits"]), f"``{u['policy']}``",
                     f"not finished: {u['decided']:,} sequences decided so far; no figure is given",
                     f"{u['ranks']} x {u['suits']}", f"{u['canonical_sequences']:,}", "—", "—", "—"])
    head = ["Cards", "Policy", "Never end (exact)", "Ranks x suits", "Canonical sequences", "Endless",
            "Longest that ends", "Shortest / longest cycle"]
    table = [".. list-table:: Two players, every deal: exact fraction that never ends\n   :header-rows: 1\n"
             "   :class: numeric\n\n"]
    for row in [head, *rows]:
        table.append("   * - " + "\n     - ".join(row) + "\n")
    _plot(points, sampled, out / "snap-exact-curve.svg")
    commands = "\n".join(f"   {c}" for c in exact["commands"])
    return ("For small decks the fraction is exact: every dealer and every order of the cards is played out. "
            "Only ranks matter, and relabelling the ranks or turning the table gives the same game, so each "
            "canonical rank sequence (ranks numbered in order of first appearance, dealt by one seat) stands "
            "for the same number of deals and is played once. Larger decks are sampled: the deals of seeds "
            "0, 1, 2, ... of a deck of 4 suits of the lowest ranks, from 24 to 52 cards. The curve shows how "
            "the endless fraction changes with the size of a four-suit deck.\n\n" + "".join(table) + "\n"
            + _sampled_table(sampled) + _words(points, sampled) +
            ".. image:: /generated/figures/snap-exact-curve.svg\n"
            "   :alt: Fraction of two-player Snap deals that never end against deck size: exact up to 20 cards, "
            "sampled with 95% intervals from 24 to 52 cards\n   :class: chart\n\n"
            "Made with (see :doc:`usage` to run it on a cluster):\n\n.. code-block:: console\n\n"
            + commands + "\n\n")


def _sampled(cells: list[dict]) -> dict[str, list[dict]]:
    """Per policy: the sampled two-player cells of 4-suit decks (52 cards included), by deck size."""
    out: dict[str, list[dict]] = {p: [] for p in POLICIES}
    for c in cells:
        if c["players"] == 2 and c["policy"] in out and not c.get("index_card"):
            out[c["policy"]].append(c)
    return {p: sorted(v, key=lambda c: c.get("cards", 52)) for p, v in out.items()}


def _pct(f: dict) -> str:
    lo, hi = f["wilson95"]
    return f"{100 * f['estimate']:.2f}% ({100 * lo:.2f} to {100 * hi:.2f}%)"


def _sampled_table(sampled: dict[str, list[dict]]) -> str:
    rows = []
    for policy, cells in sampled.items():
        for c in cells:
            deals = f"{c['deals']:,}" if c.get("complete", True) else f"{c['deals']:,} of {c['deals_planned']:,}"
            cpu = c.get("cpu_seconds") or {}
            rows.append([str(c.get("cards", 52)), f"``{policy}``", _pct(c["never_ends"]), deals,
                         f"{cpu['seconds']:,.0f}" if cpu.get("timed_deals") == c["deals"] else "—"])
    if not rows:
        return ""
    head = ["Cards", "Policy", "Never end (95% interval)", "Deals", "CPU seconds"]
    table = [".. list-table:: Two players, sampled deals of larger four-suit decks\n   :header-rows: 1\n"
             "   :class: numeric\n\n"]
    for row in [head, *rows]:
        table.append("   * - " + "\n     - ".join(row) + "\n")
    return "".join(table) + "\n"


def _words(points: dict, sampled: dict[str, list[dict]]) -> str:
    """What the curve shows, in words read off the data: where each policy's fraction starts and
    ends, the range it keeps from 12 cards on, and its peaks (decks whose fraction is above both
    neighbours'), with whether the sampled peaks stand clear of their neighbours' 95% intervals."""
    out, all_peaks = [], set()
    for policy in POLICIES:
        series = [(cards, value, None) for cards, _, value in points[policy]]
        series += [(c.get("cards", 52), c["never_ends"]["estimate"], c["never_ends"]["wilson95"])
                   for c in sampled[policy]]
        series.sort(key=lambda p: p[0])
        if len(series) < 3:
            continue
        later = [p for p in series if p[0] >= 12]
        low, high = min(later, key=lambda p: p[1]), max(later, key=lambda p: p[1])
        peaks = [b for a, b, c in zip(series, series[1:], series[2:]) if b[1] > a[1] and b[1] > c[1]]
        clear = all((n[2][1] if n[2] else n[1]) < (peak[2][0] if peak[2] else peak[1])  # an exact point: its value
                    for peak in peaks for n in series if abs(n[0] - peak[0]) == 4)
        all_peaks |= {peak[0] for peak in peaks}
        text = (f"Under ``{policy}`` the fraction goes from {100 * series[0][1]:.2f}% at {series[0][0]} cards to "
                f"{100 * series[-1][1]:.2f}% at {series[-1][0]}; from 12 cards on it lies between "
                f"{100 * low[1]:.2f}% ({low[0]} cards) and {100 * high[1]:.2f}% ({high[0]} cards).")
        if peaks:
            text += (f" It peaks at {_and([str(p[0]) for p in peaks])} cards" +
                     (", each sampled peak clear of its neighbours' 95% intervals." if clear else "."))
        out.append(text)
    if all_peaks and all((cards // 4) % 3 == 0 for cards in all_peaks):
        out.append(f"Every peak is a deck whose number of ranks is a multiple of three "
                   f"({_and([str(c) for c in sorted(all_peaks)])} cards).")
    return (" ".join(out) + "\n\n") if out else ""


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _rec(cell: dict, key: str) -> str:
    rec = (cell.get("records") or {}).get(key)
    return f" :download:`record </../{rec['file']}>`" if rec and rec.get("file") else ""


def _plot(points: dict, sampled: dict, path: Path) -> None:
    from figures import CHART, _pyplot, _save

    plt = _pyplot()
    fig, ax = plt.subplots(figsize=CHART)
    for i, policy in enumerate(POLICIES):
        colour = f"C{i}"
        pts = points[policy]
        if pts:
            ax.plot([p[0] for p in pts], [p[2] for p in pts], "o-", color=colour,
                    label=f"{policy}: every deal (exact)")
        cells = sampled.get(policy) or []
        if cells:
            ys = [c["never_ends"]["estimate"] for c in cells]
            err = [[y - c["never_ends"]["wilson95"][0] for y, c in zip(ys, cells)],
                   [c["never_ends"]["wilson95"][1] - y for y, c in zip(ys, cells)]]
            fewest = min(c["deals"] for c in cells)
            ax.errorbar([c.get("cards", 52) for c in cells], ys, yerr=err, fmt="s--", color=colour, capsize=4,
                        label=f"{policy}: sampled, at least {fewest:,} deals (95% interval)")
    ax.set_xlabel("cards in the deck (4 suits)")
    ax.set_ylabel("fraction of deals that never end")
    ax.set_xticks([8, 16, 24, 32, 40, 48, 52])
    ax.set_ylim(bottom=0)
    ax.set_title("Two-player Snap: deals that never end,\nby deck size (4 suits)")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), frameon=False)
    ax.grid(alpha=0.3)
    _save(fig, path)


def snap_pot_endings(analysis: dict) -> str:
    """How the sampled games with ties ended: the two SNAP-END-2 cases apart."""
    cells = [c for c in analysis["cells"] if not c["deterministic"] and c["terminations"].get("stuck-pot") is not None]
    if not cells:
        return ""
    names = ("all-cards", "stuck-pot", "winnable-pot", "no-cards")
    rows = [[str(c["players"]), f"``{c['policy']}``", str(c["deals"])] + [str(c["terminations"].get(n, 0)) for n in names]
            for c in cells]
    head = ["Players", "Policy", "Deals", "One player holds every card", "Pot stuck", "Pot still winnable",
            "Every card in the pot"]
    table = [".. list-table:: How games with ties end (52 cards; games still going at the flip cap are left out)\n"
             "   :header-rows: 1\n   :class: numeric\n\n"]
    for row in [head, *rows]:
        table.append("   * - " + "\n     - ".join(row) + "\n")
    return ("The game ends as soon as one player holds every card outside the pot, whether or not the pot could "
            "still be won. The analysis calls the pot *stuck* only when no card of its top card's rank is outside "
            "it, so no flip could ever win it; when the last holder still has such a card, the ending is "
            "counted as *pot still winnable* (``winnable-pot`` in the data).\n\n" + "".join(table) + "\n")
