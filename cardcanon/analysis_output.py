"""Where ``cardcanon analyze`` writes, and the figures it prints.

By default a run writes into the user's cache (``CACHE/analysis``, see :mod:`cardcanon.engine.cache`),
never into the current folder: run inside a checkout it leaves the published
``results/analysis/`` alone. ``--out DIR`` names the folder; ``--update-results`` writes the
checkout's ``results/analysis/`` (the published figures), and only then.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import cardcanon
from cardcanon.cli_args import output_folder as output_folder_arg
from cardcanon.engine.cache import user_cache_dir

RESULTS = Path("results") / "analysis"


def add_output_arguments(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--out", type=output_folder_arg, default=None, metavar="DIR",
                       help="output folder (default: the user cache, e.g. ~/.cache/cardcanon/analysis)")
    where.add_argument("--update-results", action="store_true",
                       help=f"write the published figures in the source checkout's {RESULTS}/")


def output_folder(args: argparse.Namespace) -> Path:
    if args.out is not None:
        return Path(args.out)
    if args.update_results:
        return results_folder()
    return user_cache_dir() / "analysis"


def results_folder() -> Path:
    """``results/analysis`` of the source checkout this package runs from."""
    checkout = Path(cardcanon.__file__).resolve().parents[1]
    if not (checkout / "pyproject.toml").is_file() or not (checkout / RESULTS).is_dir():
        raise ValueError(f"--update-results: {checkout} is not a source checkout with {RESULTS}/ "
                         f"(use --out DIR)")
    return checkout / RESULTS


def _percent(share: dict[str, Any]) -> str:
    if share.get("estimate") is None:
        return "n/a"
    lo, hi = share["wilson95"]
    return f"{100 * share['estimate']:.3f}% (95% {100 * lo:.3f}-{100 * hi:.3f}%)"


def snap_figures(cells: list[dict[str, Any]], enumeration: list[dict[str, Any]]) -> list[str]:
    lines = []
    for c in cells:
        lengths = c.get("game_lengths") or {}
        mean = f", mean {lengths['mean']:.1f} flips" if lengths.get("mean") is not None else ""
        table = (", index card" if c.get("index_card") else "") + (f", {c['cards']} cards" if c.get("cards", 52) != 52 else "")
        planned = f" (of {c['deals_planned']} planned)" if not c.get("complete", True) else ""
        head = f"Snap {c['players']}p {c['policy']}{table}: {c['deals']} deals{planned}, {c['ended']} ended{mean}"
        if c.get("deterministic"):
            lines.append(f"{head}, {c['endless']} endless: never ends {_percent(c['never_ends'])}")
        else:
            lines.append(f"{head}, {c['not_ended_within_cap']} not ended within {c['flip_cap']} flips: "
                         f"{_percent(c['not_ended_fraction'])}")
    for e in enumeration:
        lines.append(f"Snap {e['players']}p, {e['deck']}, {e['policy']}: {e['deals']} deals, never ends "
                     f"{e['never_ends_exact']} (exact)")
    return lines


def hearts_figures(cells: list[dict[str, Any]]) -> list[str]:
    lines = []
    for c in cells:
        hands = c["match_length_hands"]
        mean = f"{hands['mean']:.2f}" if hands.get("mean") is not None else "n/a"
        lines.append(f"Hearts {c['pairing']}: {c['matches']} matches, mean {mean} hands; winners "
                     f"{', '.join(f'{k} {v}' for k, v in c['winners'].items())}; tie-break "
                     f"{_percent(c['tie_break'])}; moon per hand {_percent(c['moon_per_hand'])}")
    return lines
