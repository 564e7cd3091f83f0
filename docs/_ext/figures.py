"""The caveats page's pictures, plots and numbers, drawn from the models and the data files.

Each ``caveat-*.inc`` file is reST included by ``caveats.rst``; pictures are SVG drawn by
:mod:`pictures`, plots PNG drawn by matplotlib.
"""

from __future__ import annotations

import json
from pathlib import Path

import witnesses
from rulebook_pages import esc

ROOT = Path(__file__).resolve().parents[2]
TERMINATION = ROOT / "results" / "snap_termination.json"


def draw_all(out: Path, ev) -> None:
    inc = out.parent
    pieces = {
        "caveat-snap-termination": snap_termination(out),
        "caveat-snap-cycle": witnesses.snap_cycle(out, ev),
        "caveat-snap-pot": witnesses.snap_pot(out, ev),
        "caveat-hearts-tiebreak": witnesses.hearts_tiebreak(out, ev),
    }
    for name, text in pieces.items():
        (inc / f"{name}.inc").write_text(text, encoding="utf-8")


def _pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def snap_termination(out: Path) -> str:
    data = json.loads(TERMINATION.read_text(encoding="utf-8"))
    cells = data["cells"]
    rows = [".. list-table:: Snap deals that never end, by players and calling policy\n"
            "   :header-rows: 1\n\n"
            "   * - Players\n     - Policy\n     - Deals\n     - Never end (95% interval)\n"
            "     - Median flips of games that end\n     - 95th percentile\n"]
    for c in cells:
        if c.get("endless_fraction"):
            f = c["endless_fraction"]
            never = f"{_pct(f['estimate'])} ({_pct(f['wilson95'][0])} to {_pct(f['wilson95'][1])}), endless"
        else:
            f = c["not_ended_fraction"]
            never = (f"{_pct(f['estimate'])} ({_pct(f['wilson95'][0])} to {_pct(f['wilson95'][1])}), "
                     f"not ended within {c['flip_cap']} flips")
        d = c["flips_of_ended_games"]
        med = f"{d['quantiles']['0.5']:.0f}" if d else "none ended"
        p95 = f"{d['quantiles']['0.95']:.0f}" if d else "-"
        rows.append(f"   * - {c['players']}\n     - ``{c['policy']}``\n     - {c['deals']}\n     - {esc(never)}\n"
                    f"     - {med}\n     - {p95}\n")
    _plot_termination(cells, out / "snap-termination.png")
    _plot_lengths(cells, out / "snap-lengths.png")
    return ("".join(rows) + "\n"
            f"Seeds 0 to {data['deals_per_cell'] - 1} for every cell; {esc(data['confidence'])}. A deterministic "
            "policy's game that repeats a position never ends (exact); under a random policy a repeat "
            "proves nothing, so those games are counted only as not ended within the flip cap.\n\n"
            ".. image:: /generated/figures/snap-termination.png\n"
            "   :alt: Fraction of Snap deals that never end, by players and policy, with 95% intervals\n\n"
            ".. image:: /generated/figures/snap-lengths.png\n"
            "   :alt: Distribution of the number of flips in Snap games that end\n\n")


def _plot_termination(cells, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 3.8), dpi=110)
    policies = list(dict.fromkeys(c["policy"] for c in cells))
    for i, policy in enumerate(policies):
        pts = [c for c in cells if c["policy"] == policy]
        xs = [c["players"] + (i - len(policies) / 2) * 0.08 for c in pts]
        frac = [c.get("endless_fraction") or c["not_ended_fraction"] for c in pts]
        ys = [f["estimate"] for f in frac]
        err = [[y - f["wilson95"][0] for y, f in zip(ys, frac)], [f["wilson95"][1] - y for y, f in zip(ys, frac)]]
        label = policy if pts[0].get("endless_fraction") else f"{policy} (not ended within {pts[0]['flip_cap']} flips)"
        ax.errorbar(xs, ys, yerr=err, fmt="o-", capsize=3, label=label)
    ax.set_xlabel("players")
    ax.set_ylabel("fraction of deals")
    ax.set_title("Snap deals that never end (95% Wilson intervals)", fontsize=10)
    ax.set_xticks(sorted({c["players"] for c in cells}))
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)


def _plot_lengths(cells, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 3.8), dpi=110)
    for c in cells:
        d = c["flips_of_ended_games"]
        if not d or c["policy"] != "flipper-first":
            continue
        bins = d["histogram"]
        labels = [f"{b['from']}" for b in bins]
        total = sum(b["count"] for b in bins)
        ax.plot(range(len(bins)), [b["count"] / total for b in bins], "o-", label=f"{c['players']} players")
        ax.set_xticks(range(len(bins)), labels, rotation=60, fontsize=7)
    ax.set_xlabel("flips until the game ends (bin lower edge), flipper-first policy")
    ax.set_ylabel("share of games that end")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)
