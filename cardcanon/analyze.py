"""``cardcanon analyze snap|hearts``: termination and score statistics at scale.

Games are played by the fast engine (:mod:`cardcanon.engine`), which plays exactly the
reference models' games (``tests/test_engine_equivalence.py``). Without the compiled kernel the
command ends with status 2 and one line saying why, unless ``--reference-model`` asks for the
reference models instead (one line on standard error says so); every chunk records the engine that
played it, and each cell and each summary says it in words (``engine``). Work is split into chunks of
consecutive seeds; each finished chunk is appended to a ``.jsonl`` file under
``OUT/chunks/``, and a rerun skips the chunks already there, so an interrupted run resumes.
The summaries ``OUT/snap.json`` and ``OUT/hearts.json`` are rebuilt from all chunks at the end.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

from cardcanon.analysis_output import add_output_arguments, hearts_figures, output_folder, snap_figures
from cardcanon.cli_args import (
    SEED_MAX, integer, integer_range, nonempty, policy_name, positive_int, quoted, seconds, seconds_or_zero, seed,
)
from cardcanon.engine import build
from cardcanon.engine.exact import deck as exact_deck
from cardcanon.engine import hearts as engine_hearts
from cardcanon.engine import snap as engine_snap
from cardcanon.engine.stats import ChunkFile, Progress, counter_json, distribution, wilson_json
from cardcanon.model.cards import Card, Rank, Suit
from cardcanon.model.hearts import HeartsConfig
from cardcanon.model.hearts_players import PLAYER_KINDS
from cardcanon.model.snap import SnapConfig
from cardcanon.model.snap_policies import Policy, parse_policy
from cardcanon.record_file import record_text, write_record
from cardcanon.variants import parse_variants

SNAP_POLICIES = ("flipper-first", "owner-first", "ties:0.1", "errors:0.05")
RANDOM_POLICY_CAP = 20_000  # flips; a random policy's game still going then is "not ended", never "endless"
MAIN_CELL = (2, "flipper-first", False, 52)  # players, policy, index card, cards
DECK_CARDS = 52
SUITS = 4  # the sampled decks of --cards: 4 suits of the lowest ranks (cardcanon.engine.exact.deck)
DETERMINISTIC_CHUNK = 50_000
RECORD_MAX_FLIPS = 25_000  # about 1 MB of JSON
HAND_EDGES = (0, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 20, 25, 30)
HEARTS_PAIRINGS = ("random-random", "greedy-greedy", "greedy-random")
# Small decks enumerated completely: (players, ranks, suits).
ENUMERATED = ((2, 2, 2), (2, 2, 3), (2, 3, 2), (2, 2, 4), (2, 4, 2), (2, 3, 3), (2, 5, 2), (3, 2, 3), (3, 3, 2),
              (3, 3, 3), (4, 2, 4))


def add_parser(sub: Any) -> None:
    parser = sub.add_parser("analyze", help="termination and score statistics from many seeded games")
    games = parser.add_subparsers(dest="game", metavar="GAME", parser_class=type(parser))
    games.required = True

    snap = games.add_parser("snap", help="how often Snap never ends, game lengths, cycles")
    snap.add_argument("--players", type=integer, nargs="+", default=list(range(2, 13)), help="default 2..12")
    snap.add_argument("--policies", type=policy_name, nargs="+", default=list(SNAP_POLICIES),
                      help=f"default {' '.join(SNAP_POLICIES)}")
    sampled = snap.add_argument_group("sampled deals (not with --exact)")
    sampled.add_argument("--deals", type=positive_int, help=f"deals per cell (default {SAMPLED['deals']})")
    sampled.add_argument("--main-deals", type=positive_int,
                         help=f"deals for 2 players, flipper-first (default {SAMPLED['main_deals']})")
    sampled.add_argument("--seconds-per-cell", type=seconds,
                         help=f"stop starting new chunks of a cell after this long, at most a day "
                              f"(default {SAMPLED['seconds_per_cell']:g}; the main cell is exempt)")
    sampled.add_argument("--random-cap", type=integer_range(1, engine_snap.SAFETY_CAP, "a number of flips"),
                         help=f"flip cap for random policies, 1 to {engine_snap.SAFETY_CAP} "
                              f"(default {RANDOM_POLICY_CAP})")
    sampled.add_argument("--no-enumerate", action="store_true", help="skip the complete enumeration of small decks")
    sampled.add_argument("--record-max-flips", type=positive_int,
                         help=f"write records of games up to this many flips; longer ones get the command that "
                              f"writes them (default {RECORD_MAX_FLIPS})")
    sampled.add_argument("--first-seed", type=seed, help="the first seed (default 0); the last seed used, "
                                                         f"first + deals - 1, is at most {SEED_MAX}")
    sampled.add_argument("--deterministic-deals", type=positive_int, metavar="N",
                         help="deals per flipper-first or owner-first cell (default: --deals)")
    sampled.add_argument("--index-card", nargs="+", default=["off"], metavar="OPTION",
                         help="options of SNAP-INDEX-1 to play, each a cell of its own (default off; e.g. off on)")
    sampled.add_argument("--cards", type=positive_int, nargs="+", default=[DECK_CARDS], metavar="N",
                         help="sampled deals of a deck of 4 suits with N/4 ranks, the lowest "
                              "(default 52; e.g. 24 28 .. 48)")
    snap.add_argument("--no-records", action="store_true", help="do not write the extreme games as records")
    exact = snap.add_argument_group("exact enumeration (cardcanon.exact, on Dask; only with --exact)")
    exact.add_argument("--exact", action="store_true",
                       help="every deal of a small deck, exactly (default players 2, policies flipper-first owner-first)")
    exact.add_argument("--ranks", type=positive_int, help="with --exact: ranks in the deck")
    exact.add_argument("--suits", type=positive_int, help="with --exact: suits in the deck")
    exact.add_argument("--scheduler", metavar="ADDRESS", type=nonempty,
                       help="with --exact: a dask.distributed scheduler (default: a local cluster on all cores)")
    exact.add_argument("--workers", type=positive_int, help="with --exact: local worker processes (default: all cores)")
    exact.add_argument("--time-limit", type=seconds_or_zero, metavar="SECONDS",
                       help="stop starting chunks after this long, at most a day, keeping finished ones "
                            "(0: only summarise them)")
    _common(snap)
    snap.set_defaults(handler=run_snap)

    hearts = games.add_parser("hearts", help="match lengths, tie-breaks, moons and hand-score pairs")
    hearts.add_argument("--matches", type=positive_int, default=1_000_000, help="matches per pairing (default 1000000)")
    hearts.add_argument("--pairings", nargs="+", type=_pairing, default=list(HEARTS_PAIRINGS),
                        help=f"the kinds of player 0 and player 1, KIND-KIND (default {' '.join(HEARTS_PAIRINGS)})")
    hearts.add_argument("--first-seed", type=seed, default=0,
                        help=f"the first seed (default 0); the last, first + matches - 1, is at most {SEED_MAX}")
    _common(hearts)
    hearts.set_defaults(handler=run_hearts)


SAMPLED: dict[str, Any] = {  # the sampled run's defaults; with --exact these options are refused
    "deals": 20_000, "main_deals": 1_000_000, "seconds_per_cell": 60.0, "random_cap": RANDOM_POLICY_CAP,
    "record_max_flips": RECORD_MAX_FLIPS, "first_seed": 0, "no_enumerate": False, "reference_model": False,
}
EXACT_ONLY = ("ranks", "suits", "scheduler", "workers")


def _option(name: str) -> str:
    return "--" + name.replace("_", "-")


def _check_snap_options(args: argparse.Namespace) -> None:
    """Options of the other mode are refused, naming both; then the sampled defaults are filled in
    and the last seed checked (all before any work starts)."""
    if args.exact:
        given = [name for name in SAMPLED if getattr(args, name) not in (None, False)]
        if given:
            raise ValueError(f"{_option(given[0])} applies to sampled deals, not with --exact")
        return
    given = [name for name in EXACT_ONLY if getattr(args, name) is not None]
    if given:
        raise ValueError(f"{_option(given[0])} applies only with --exact")
    for name, default in SAMPLED.items():
        if getattr(args, name) is None:
            setattr(args, name, default)
    main = 2 in args.players and MAIN_CELL[1] in args.policies and args.main_deals > args.deals
    _last_seed_ok(args.first_seed, args.main_deals if main else args.deals, "--main-deals" if main else "--deals")


def _written(folder: Path, summary: str, records: bool) -> str:
    """Where a run's files went."""
    also = f", the games' records in {folder / 'records'}" if records else ""
    return f"The finished chunks are in {folder / 'chunks'}{also}. Written to {folder / summary}."


def _last_seed_ok(first: int, count: int, option: str) -> None:
    """Seeds run from ``first`` to ``first + count - 1``, which must stay a seed (at most 2^64 - 1)."""
    if first + count - 1 > SEED_MAX:
        raise ValueError(f"--first-seed {first} with {option} {count} would use seeds up to {first + count - 1}, "
                         f"above {SEED_MAX} (2^64 - 1); the largest first seed for {count} is {SEED_MAX - count + 1}")


def _pairing(text: str) -> str:
    """``KIND-KIND``, e.g. ``random-greedy`` (an argparse type)."""
    kinds = text.split("-")
    if len(kinds) != 2 or not all(kind in PLAYER_KINDS for kind in kinds):
        raise argparse.ArgumentTypeError(f"expected KIND-KIND with KIND one of {', '.join(PLAYER_KINDS)}, "
                                         f"e.g. random-greedy, not {quoted(text)}")
    return text


def _common(parser: argparse.ArgumentParser) -> None:
    add_output_arguments(parser)
    parser.add_argument("--chunk", type=positive_int, default=None,
                        help="seeds per chunk (default: Snap 50000 for 2 players or a deterministic policy, else "
                             "2000; Hearts 50000)")
    parser.add_argument("--reference-model", action="store_true",
                        help="where the compiled kernel is unavailable, play the reference model instead (the same "
                             "games, thousands of times slower; one line on standard error and the output files "
                             "say so). Without it, no kernel ends the command with status 2")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress output")


NOT_RECORDED = "not recorded (chunks of an earlier version)"


def _choose_engine(args: argparse.Namespace) -> None:
    """The kernel, or (only with ``--reference-model``) the reference model with one line on
    standard error; without either, :class:`EngineUnavailable` (status 2, one line)."""
    try:
        _, played_by = build.kernel_or_model(build.load, args.reference_model)
    except build.EngineUnavailable as exc:
        raise build.EngineUnavailable(f"{exc}; --reference-model plays the reference model instead "
                                      "(the same games, much slower)") from None
    if not played_by.kernel:
        print(f"cardcanon: the reference model plays, as --reference-model asks ({played_by.reason}); "
              "the same games, much slower", file=sys.stderr)


def _engines(items: list[dict[str, Any]]) -> str:
    """The engines that played ``items`` (chunks or cells, each records its own), in words."""
    return "; ".join(sorted({item.get("engine", NOT_RECORDED) for item in items})) or "no games played"


# ---- Snap ----------------------------------------------------------------------------------
def _snap_chunk(config: SnapConfig, policy: str, first: int, count: int, cap: int, fallback: bool) -> dict[str, Any]:
    played = engine_snap.batch(config, policy, first, count, cap, fallback=fallback)
    rows = played.raw[:]
    status: Counter[str] = Counter()
    terms: Counter[str] = Counter()
    lengths: Counter[int] = Counter()
    cycles: Counter[int] = Counter()
    starts: Counter[int] = Counter()
    extremes: dict[str, list[int]] = {}

    def better(key: str, value: int, seed: int, larger: bool = True) -> None:
        old = extremes.get(key)
        if old is None or (value > old[0] if larger else value < old[0]):
            extremes[key] = [value, seed]

    for k in range(count):
        st, term, _, flips, start, length = rows[8 * k: 8 * k + 6]
        status[("ended", "endless", "capped")[st]] += 1
        if st == 0:
            terms[engine_snap.ENDINGS[term]] += 1
            lengths[flips] += 1
            better("longest_ended", flips, first + k)
        elif st == 1:
            cycles[length] += 1
            starts[start] += 1
            better("shortest_cycle", length, first + k, larger=False)
            better("longest_cycle", length, first + k)
    return {"status": dict(status), "terminations": dict(terms), "lengths": counter_json(lengths),
            "cycle_lengths": counter_json(cycles), "cycle_starts": counter_json(starts), "extremes": extremes,
            "engine": str(played.played_by)}


def _merge_snap(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    status: Counter[str] = Counter()
    terms: Counter[str] = Counter()
    lengths: Counter[int] = Counter()
    cycles: Counter[int] = Counter()
    starts: Counter[int] = Counter()
    extremes: dict[str, list[int]] = {}
    for c in chunks:
        status.update(c["status"])
        terms.update(c["terminations"])
        for total, part in ((lengths, "lengths"), (cycles, "cycle_lengths"), (starts, "cycle_starts")):
            total.update({int(k): v for k, v in c[part].items()})
        for key, (value, seed) in c["extremes"].items():
            old = extremes.get(key)
            shorter = key.startswith("shortest")
            if old is None or (value < old[0] if shorter else value > old[0]) or (value == old[0] and seed < old[1]):
                extremes[key] = [value, seed]
    return {"status": status, "terminations": terms, "lengths": lengths, "cycles": cycles, "starts": starts,
            "extremes": extremes}


def _snap_cell(args: argparse.Namespace, players: int, policy_text: str, index_card: bool, cards: int,
               progress: Progress) -> dict[str, Any] | None:
    """One cell; None when not one of its chunks is finished yet (an earlier summary is kept)."""
    policy = parse_policy(policy_text)
    config = SnapConfig(players=players, index_card=index_card)  # 52 cards: the rulebook's deck, in its order
    if cards != DECK_CARDS:
        config = replace(config, deck=exact_deck(cards // SUITS, SUITS))
    main = (players, policy.name, index_card, cards) == MAIN_CELL
    deals = (args.deterministic_deals or args.deals) if policy.deterministic else args.deals
    deals = max(deals, args.main_deals) if main else deals
    cap = engine_snap.SAFETY_CAP if policy.deterministic else args.random_cap
    chunk = args.chunk or (DETERMINISTIC_CHUNK if players == 2 or policy.deterministic else 2_000)
    name = _cell_name(players, policy.name, index_card, cards)
    variant = {**({"index_card": True} if index_card else {}), **({"cards": cards} if cards != DECK_CARDS else {})}
    store = ChunkFile(args.out / "chunks" / f"{name}.jsonl",
                      {"game": "snap", "players": players, "policy": policy.name, "chunk": chunk,
                       "first_seed": args.first_seed, "max_flips": cap, **variant})
    n_chunks = -(-deals // chunk)
    for index in range(n_chunks):
        count = min(chunk, deals - index * chunk)
        if store.has(index, count):
            continue
        if args.time_limit is not None and time.perf_counter() - args.started > args.time_limit:
            progress.note(f"{name}: --time-limit reached after {index} of {n_chunks} chunks (rerun to continue)")
            break
        if not main and time.perf_counter() - args.cell_started > args.seconds_per_cell:
            progress.note(f"{name}: time budget spent after {index} of {n_chunks} chunks (rerun to continue)")
            break
        first = args.first_seed + index * chunk
        cpu = time.process_time()
        tally = _snap_chunk(config, policy.name, first, count, cap, args.reference_model)
        store.append(index, {"first_seed": first, "count": count, **tally,
                             "cpu_seconds": round(time.process_time() - cpu, 3)})
        progress.advance(name, index + 1, n_chunks)
    chunks = store.finished(n_chunks, lambda i: min(chunk, deals - i * chunk))
    total = sum(c["count"] for c in chunks)
    if not total:
        progress.note(f"{name}: no chunk finished yet; the cell is left as it was")
        return None
    merged = _merge_snap(chunks)
    status = merged["status"]
    timed = [c for c in chunks if "cpu_seconds" in c]
    cell = {"players": players, "policy": policy.name, "index_card": index_card, "cards": cards,
            "deterministic": policy.deterministic, "deals": total, "deals_planned": deals, "complete": total == deals,
            "seeds": [args.first_seed, args.first_seed + total - 1],  # chunks are finished in order
            "cpu_seconds": {"seconds": round(sum(c["cpu_seconds"] for c in timed), 1),  # of the chunks timed
                            "timed_deals": sum(c["count"] for c in timed)},
            "flip_cap": cap, "ended": status["ended"], "terminations": dict(merged["terminations"]),
            "game_lengths": distribution(merged["lengths"], fine=50), "extremes": merged["extremes"],
            "engine": _engines(chunks)}
    if policy.deterministic:
        cell.update(endless=status["endless"], never_ends=wilson_json(status["endless"], total),
                    cycle_lengths={**(distribution(merged["cycles"]) or {}), "counts": counter_json(merged["cycles"])},
                    cycle_starts=distribution(merged["starts"], fine=50))
        cell["capped"] = status["capped"]  # only if a game outlasts the safety cap: reported, never hidden
    else:
        cell.update(endless=None, not_ended_within_cap=status["capped"],
                    not_ended_fraction=wilson_json(status["capped"], total))
    if not args.no_records:
        cell["records"] = _snap_records(args.out / "records", name, config, policy, cap, merged["extremes"],
                                        args.record_max_flips, args.reference_model)
    return cell


def _cell_name(players: int, policy: str, index_card: bool, cards: int) -> str:
    return (f"snap-{players}p-{policy.replace(':', '-')}" + ("-index-card" if index_card else "")
            + (f"-{cards}-cards" if cards != DECK_CARDS else ""))


def _index_card_options(options: list[str]) -> list[bool]:
    """``--index-card`` options, checked against the variation point SNAP-INDEX-1 of the rulebook."""
    values = [parse_variants("snap", [f"index_card={option}"])["index_card"] for option in options]
    return list(dict.fromkeys(value == "on" for value in values))


def _card_counts(counts: list[int]) -> list[int]:
    for cards in counts:
        if cards % SUITS or not 2 <= cards // SUITS <= len(Rank):
            raise ValueError(f"--cards {cards}: expected a multiple of {SUITS} from {2 * SUITS} to {SUITS * len(Rank)}")
    return list(dict.fromkeys(counts))


def _snap_records(folder: Path, name: str, config: SnapConfig, policy: Policy, cap: int, extremes: dict[str, Any],
                  max_flips: int, fallback: bool) -> dict[str, Any]:
    """The extreme games as replayable records, played again by the reference model (which must
    agree with the engine) and written in the format of ``cardcanon play snap --record``.
    A game longer than ``max_flips`` flips gets the command that writes its record instead."""
    from cardcanon.model.snap_policies import play_game
    from cardcanon.model.snap_policies import game_record

    written = {}
    for key, (value, seed) in sorted(extremes.items()):
        path = folder / f"{name}-{key.replace('_', '-')}.json.gz"
        flips = engine_snap.decide(config, seed, policy, cap, fallback=fallback).flips
        if flips > max_flips:
            path.unlink(missing_ok=True)  # a record from a run with a higher limit
            written[key] = {"seed": seed, "flips": flips, "file": None, "command":
                            f"cardcanon play snap --players {config.players} --seed {seed} --policy {policy.name} "
                            f"--max-flips {cap} -q --record {path.stem}"}
            continue
        if path.exists():
            try:
                data = json.loads(record_text(path))
            except (OSError, ValueError, EOFError):  # ValueError: bad JSON, UTF-8 or gzip data
                data = {}  # a damaged record is written again
            if data.get("seed") == seed:
                written[key] = {"seed": seed, "flips": flips, "file": str(path)}
                continue
        result = play_game(config, seed, policy, max_flips=cap)
        run = engine_snap.decide(config, seed, policy, cap, fallback=fallback)
        found = result.flips if key == "longest_ended" else result.endless.length if result.endless else None
        if found != value or run.flips != result.flips:
            raise RuntimeError(f"{name}: seed {seed}: the engine found {key} = {value}, the model {found}")
        folder.mkdir(parents=True, exist_ok=True)
        write_record(path, game_record(result))
        written[key] = {"seed": seed, "flips": flips, "file": str(path)}
    return written


def _deck(ranks: int, suits: int) -> tuple[Card, ...]:
    return tuple(Card(Rank(r), s) for s in tuple(Suit)[:suits] for r in range(2, 2 + ranks))


def _enumeration(args: argparse.Namespace, progress: Progress) -> list[dict[str, Any]]:
    store = ChunkFile(args.out / "chunks" / "snap-enumeration.jsonl", {"game": "snap", "enumeration": 1})
    cells = []
    for index, (players, ranks, suits) in enumerate(ENUMERATED):
        for p, policy in enumerate(("flipper-first", "owner-first")):
            key = index * 2 + p
            config = SnapConfig(players=players, deck=_deck(ranks, suits))
            if key not in store.chunks:
                got = engine_snap.enumerate_deals(config, policy, fallback=args.reference_model)
                store.append(key, {"players": players, "ranks": ranks, "suits": suits, "policy": policy,
                                   "deals": got["deals"], "endless": got["endless"], "capped": got["capped"],
                                   "ended": got["ended"], "lengths": counter_json(got["lengths"]),
                                   "engine": str(got["played_by"])})
                progress.advance(f"enumeration {players}p {ranks}x{suits} {policy}", key + 1, 2 * len(ENUMERATED))
            c = store.chunks[key]
            exact = Fraction(c["endless"], c["deals"])
            cells.append({"players": players, "deck": f"{ranks} ranks x {suits} suits", "cards": ranks * suits,
                          "policy": policy, "deals": c["deals"], "endless": c["endless"], "capped": c["capped"],
                          "never_ends_exact": f"{exact.numerator}/{exact.denominator}",
                          "never_ends": float(exact), "terminations": c["ended"],
                          "game_lengths": distribution(Counter({int(k): v for k, v in c["lengths"].items()})),
                          "engine": _engines([c])})
    return cells


def run_snap(args: argparse.Namespace) -> int:
    _check_snap_options(args)
    index_cards, card_counts = _index_card_options(args.index_card), _card_counts(args.cards)
    for p in args.players:
        SnapConfig(players=p)  # SNAP-PLAYERS-1: a clear error for 1 or 13
    if args.exact:
        from cardcanon.exact import exact_folder, run_cli
        status = run_cli(args, default_players=2 if args.players == list(range(2, 13)) else None,
                         default_policies=args.policies == list(SNAP_POLICIES))
        print(_written(exact_folder(args), "snap-exact.json", records=not args.no_records))
        return status
    _choose_engine(args)
    args.out = output_folder(args)
    policies = [parse_policy(p).name for p in args.policies]
    progress = Progress(quiet=args.quiet)
    started = args.started = time.perf_counter()
    cells = []
    for cards in card_counts:
        for p in args.players:
            for pol in policies:
                for index_card in index_cards:
                    args.cell_started = time.perf_counter()
                    cell = _snap_cell(args, p, pol, index_card, cards, progress)
                    if cell is not None:
                        cells.append(cell)
    cells.sort(key=_cell_order)
    enumeration = [] if args.no_enumerate else _enumeration(args, progress)
    data = {
        "description": "Snap under the named calling policies, default rules (index card as each cell says), "
                       "52 cards unless a cell says fewer (4 suits of the lowest ranks); seed k deals "
                       "sample_deal(config, SplitMix64(k)). Deterministic policies: a repeated position proves "
                       "the deal never ends (SNAP-END-4), found by Brent's cycle detection; random policies are "
                       "played to a flip cap and unfinished games are 'not ended', never 'endless'.",
        "engine": _engines([*cells, *enumeration]), "confidence": "95% Wilson score interval",
        "quantile_method": "linear interpolation (type 7)", "cells": cells,
        "enumeration": {"description": "every dealer and every order of a small deck (each deal equally likely), "
                                       "so the fractions are exact", "cells": enumeration},
        "seconds_this_run": round(time.perf_counter() - started, 1),
    }
    _write(args.out / "snap.json", _keep_other_cells(args.out / "snap.json", data, _snap_key))
    asked = [cell for cell in enumeration if cell["players"] in args.players]  # printed: the tables asked for
    print("\n".join([*snap_figures(cells, asked), f"Played by: {data['engine']}.",
                     _written(args.out, "snap.json", records=not args.no_records)]))
    return 0


# ---- Hearts --------------------------------------------------------------------------------
def _possible_pairs(config: HeartsConfig) -> tuple[set[tuple[int, int]], str]:
    """The hand-score pairs the proofs predict: every split of the live point cards for every
    pair of dead cards, scored by the model (``cardcanon.proofs.hearts.scores.predicted_pairs``)."""
    try:
        from cardcanon.proofs.hearts.scores import predicted_pairs
    except ImportError:
        return set(), "unavailable (cardcanon.proofs.hearts.scores not importable)"
    return set(predicted_pairs(config)), "cardcanon.proofs.hearts.scores.predicted_pairs (HEARTS-P5)"


def _hearts_cell(args: argparse.Namespace, pairing: str, progress: Progress,
                 possible: set[tuple[int, int]]) -> dict[str, Any]:
    first, second = pairing.split("-")  # checked by the argument type
    kinds = (first, second)
    chunk = args.chunk or 50_000
    store = ChunkFile(args.out / "chunks" / f"hearts-{pairing}.jsonl",
                      {"game": "hearts", "pairing": pairing, "chunk": chunk, "first_seed": args.first_seed})
    n_chunks = -(-args.matches // chunk)
    for index in range(n_chunks):
        count = min(chunk, args.matches - index * chunk)
        if store.has(index, count):
            continue
        first = args.first_seed + index * chunk
        s = engine_hearts.batch(first, count, kinds, fallback=args.reference_model)
        store.append(index, {"first_seed": first, "count": count, "hands": counter_json(s.hands),
                             "terminations": dict(s.terminations), "winners": counter_json(s.winners),
                             "moons": s.moons, "total_hands": s.total_hands,
                             "pairs": {f"{a}-{b}": v for (a, b), v in sorted(s.pairs.items())},
                             "engine": str(s.played_by)})
        progress.advance(f"hearts-{pairing}", index + 1, n_chunks)
    chunks = store.finished(n_chunks, lambda i: min(chunk, args.matches - i * chunk))
    matches = sum(c["count"] for c in chunks)
    hands: Counter[int] = Counter()
    terms: Counter[str] = Counter()
    winners: Counter[str] = Counter()
    pairs: Counter[tuple[int, ...]] = Counter()
    for c in chunks:
        hands.update({int(k): v for k, v in c["hands"].items()})
        terms.update(c["terminations"])
        winners.update(c["winners"])
        pairs.update({tuple(int(x) for x in k.split("-")): v for k, v in c["pairs"].items()})
    total_hands = sum(c["total_hands"] for c in chunks)
    moons = sum(c["moons"] for c in chunks)
    seen = set(pairs)
    return {
        "pairing": pairing, "players": list(kinds), "matches": matches, "hands": total_hands,
        "engine": _engines(chunks),
        "match_length_hands": {**(distribution(hands, HAND_EDGES) or {}), "counts": counter_json(hands)},
        "terminations": dict(terms), "winners": {f"P{k}": v for k, v in sorted(winners.items())},
        "tie_break": {"matches": terms.get("tie-broken", 0), **wilson_json(terms.get("tie-broken", 0), matches)},
        "both_reached_target": terms.get("tie-broken", 0) + terms.get("both-reached-lower-wins", 0),
        "moon_per_hand": {"hands": moons, **wilson_json(moons, total_hands)},
        "hand_score_pairs": [{"scores": list(p), "hands": pairs[p], "fraction": pairs[p] / total_hands}
                             for p in sorted(pairs)],
        "pairs_seen": len(seen), "pairs_possible": len(possible),
        "pairs_seen_not_possible": [list(p) for p in sorted(seen - possible)] if possible else None,
        "pairs_possible_not_seen": [list(p) for p in sorted(possible - seen)],
    }


def run_hearts(args: argparse.Namespace) -> int:
    _last_seed_ok(args.first_seed, args.matches, "--matches")
    _choose_engine(args)
    args.out = output_folder(args)
    progress = Progress(quiet=args.quiet)
    started = time.perf_counter()
    config = HeartsConfig()
    possible, source = _possible_pairs(config)
    cells = [_hearts_cell(args, pairing, progress, possible) for pairing in args.pairings]
    data = {
        "description": "Two-player Hearts, default rules, whole matches to 100. Match k: chance from "
                       "SplitMix64(k); players make_player(kind, 2k + 1) and make_player(kind, 2k + 2) "
                       "(as `cardcanon play hearts --seed k`). 'random' plays uniformly among the legal "
                       "cards; 'greedy' avoids points trick by trick (cardcanon.model.hearts_players).",
        "engine": _engines(cells), "confidence": "95% Wilson score interval",
        "possible_pairs_source": source, "possible_pairs": [list(p) for p in sorted(possible)],
        "cells": cells, "seconds_this_run": round(time.perf_counter() - started, 1),
    }
    unexplained = [c["pairing"] for c in cells if c["pairs_seen_not_possible"]]
    _write(args.out / "hearts.json", _keep_other_cells(args.out / "hearts.json", data, lambda c: c.get("pairing")))
    print("\n".join([*hearts_figures(cells), f"Played by: {data['engine']}.",
                     _written(args.out, "hearts.json", records=False)]))
    if unexplained:
        print(f"cardcanon: warning: hand-score pairs outside the predicted set in {', '.join(unexplained)}",
              file=sys.stderr)
        return 1
    return 0


def _snap_key(cell: dict[str, Any]) -> tuple[Any, ...]:
    """A Snap cell's identity; a cell of an older file without the fields is 52 cards, no index card."""
    return (cell.get("players"), cell.get("policy"), cell.get("index_card", False), cell.get("cards", DECK_CARDS))


def _cell_order(cell: dict[str, Any]) -> tuple[Any, ...]:
    """Snap cells by cards (52 first), players, policy, index card; Hearts cells by pairing; default orders first."""
    name, known = (cell["policy"], SNAP_POLICIES) if "policy" in cell else (cell["pairing"], HEARTS_PAIRINGS)
    rank = known.index(name) if name in known else len(known)
    if "policy" not in cell:
        return (0, 0, rank, name, False)
    return (-cell.get("cards", DECK_CARDS), cell["players"], rank, name, cell.get("index_card", False))


def _keep_other_cells(path: Path, data: dict[str, Any], key: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    """Cells of an earlier run in ``path`` that this run did not touch are kept (a run over
    some player counts does not drop the others); this run's cells come first."""
    if not path.exists():
        return data
    try:
        old = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return data
    mine = {key(c) for c in data["cells"]}
    kept = [c for c in old.get("cells", []) if key(c) not in mine]
    cells = sorted(data["cells"] + kept, key=_cell_order)
    merged = {**data, "cells": cells}
    if "enumeration" in data and not data["enumeration"]["cells"] and old.get("enumeration"):
        merged["enumeration"] = old["enumeration"]
    merged["engine"] = _engines([*cells, *merged.get("enumeration", {}).get("cells", [])])  # the kept cells' too
    return merged


def _write(path: Path, data: dict[str, Any]) -> None:
    from cardcanon.provenance import provenance

    data = {**data, "provenance": provenance()}  # the run that wrote the file (cardcanon/provenance.py)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)
