"""``cardcanon analyze snap --exact``: exact Snap termination figures, enumerated on Dask.

The canonical rank sequences of a deck (:mod:`cardcanon.engine.exact`) are split into chunks of
consecutive indices; each chunk is one ``dask.distributed`` task that the compiled kernel
decides. A ``LocalCluster`` with one single-threaded worker process per core runs them, or an
existing cluster named by ``--scheduler ADDRESS``. The client appends each finished chunk to a
checkpoint file (``OUT/chunks/snap-exact-...jsonl``), so a stopped run resumes with the missing
chunks only; the totals are sums over chunks, so they do not depend on the number of workers or
the order in which chunks finish. The summary goes to ``OUT/snap-exact.json``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import os
import socket
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any, TextIO

from cardcanon.engine import exact as kernel
from cardcanon.engine.stats import ChunkFile, counter_json, distribution
from cardcanon.provenance import provenance

FORMAT = 1  # of checkpoint lines; a change makes old checkpoints unusable (the header differs)
DEFAULT_CHUNK = 2_000_000


def checkpoint(out: Path, players: int, ranks: int, suits: int, policy: str, chunk: int) -> ChunkFile:
    name = f"snap-exact-{players}p-{ranks}x{suits}-{policy}.jsonl"
    return ChunkFile(out / "chunks" / name, {"game": "snap", "exact": FORMAT, "players": players, "ranks": ranks,
                                             "suits": suits, "policy": policy, "chunk": chunk})


def chunk_task(players: int, ranks: int, suits: int, policy: str, first: int, count: int) -> dict[str, Any]:
    """One task: decide canonical sequences ``first .. first + count - 1``."""
    return kernel.decide_range(players, ranks, suits, first, count, (policy,))[policy]


class EtaBar:
    """A progress bar with the rate and the time left, on one line of a terminal (else a line
    at most every ``every`` seconds)."""

    def __init__(self, what: str, total: int, done: int, quiet: bool = False, stream: TextIO | None = None,
                 every: float = 30.0) -> None:
        self.what, self.total, self.done, self.quiet = what, total, done, quiet
        self.stream = stream or sys.stderr
        self.tty, self.every = self.stream.isatty(), every
        self.start_done, self.started, self.last = done, time.monotonic(), 0.0

    def advance(self, amount: int) -> None:
        self.done += amount
        now = time.monotonic()
        if self.quiet or (not self.tty and now - self.last < self.every and self.done < self.total):
            return
        self.last = now
        rate = (self.done - self.start_done) / max(now - self.started, 1e-9)
        eta = (self.total - self.done) / rate if rate else float("inf")
        eta_text = time.strftime("%H:%M:%S", time.gmtime(eta)) if eta < 8.64e6 else "?"
        filled = 30 * self.done // self.total if self.total else 30
        line = (f"[{'#' * filled}{'-' * (30 - filled)}] {self.what}: {self.done:,}/{self.total:,} sequences, "
                f"{rate:,.0f}/s, ETA {eta_text}")
        self.stream.write(("\r" + line + "\x1b[K") if self.tty else line + "\n")
        if self.tty and self.done >= self.total:
            self.stream.write("\n")
        self.stream.flush()


def _distributed() -> Any:
    """``dask.distributed`` (untyped, so held as Any)."""
    try:
        return importlib.import_module("dask.distributed")
    except ImportError:
        raise ValueError("--exact runs on Dask: pip install 'cardcanon[dask]'") from None


CONNECT_TIMEOUT = 3.0  # seconds to reach a --scheduler


def _reachable(scheduler: str) -> None:
    """ValueError at once where nothing listens at a ``tcp://HOST:PORT`` scheduler address (Dask
    itself would retry for its whole connect timeout)."""
    scheme, sep, rest = scheduler.partition("://")
    host, colon, port = rest.rpartition(":")
    if scheme != "tcp" or not sep or not colon or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT).close()
    except OSError as exc:
        raise ValueError(f"--scheduler {scheduler}: cannot connect ({exc.strerror or exc}); is a Dask "
                         "scheduler running there?") from None


def _client(scheduler: str | None, workers: int | None) -> tuple[Any, Any]:
    if scheduler:
        _reachable(scheduler)
    dd = _distributed()
    if scheduler:
        try:
            return dd.Client(scheduler, timeout=CONNECT_TIMEOUT), None
        except (OSError, TimeoutError) as exc:
            raise ValueError(f"--scheduler {scheduler}: no Dask scheduler answered within "
                             f"{CONNECT_TIMEOUT:g} s ({str(exc).splitlines()[0][:120]})") from None
    cluster = dd.LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                           dashboard_address=":0", silence_logs=logging.CRITICAL)
    return dd.Client(cluster), cluster


def run(players: int, ranks: int, suits: int, policies: tuple[str, ...], out: Path, *, chunk: int = DEFAULT_CHUNK,
        scheduler: str | None = None, workers: int | None = None, quiet: bool = False,
        stop_after: int | None = None, time_limit: float | None = None, client: Any = None) -> dict[str, ChunkFile]:
    """Decide every canonical sequence under each policy, checkpointing each chunk. Returns the
    checkpoint files. ``stop_after``: stop after that many chunks of this run (for tests of
    resuming); ``time_limit``: stop waiting after that many seconds (0: compute nothing, only
    read the checkpoints); ``client``: an existing ``dask.distributed.Client`` to use. Chunks
    still running when the run stops are lost; finished ones are kept."""
    kernel.check_deck(players, ranks, suits)
    kernel.check_policies(policies)
    if chunk < 1:
        raise ValueError(f"--chunk must be at least 1, not {chunk}")
    total = kernel.count(ranks, suits)
    n_chunks = -(-total // chunk)

    def size(i: int) -> int:
        return min(chunk, total - i * chunk)

    stores = {p: checkpoint(out, players, ranks, suits, p, chunk) for p in policies}
    todo = [(p, i) for p in policies for i in range(n_chunks) if not stores[p].has(i, size(i))]
    if not todo or time_limit == 0:
        return stores
    started = time.monotonic()
    own: Any = None
    if client is None:
        client, own = _client(scheduler, workers)
    try:
        bar = EtaBar(f"{players}p {ranks}x{suits} {'+'.join(policies)}", total * len(policies),
                     total * len(policies) - sum(size(i) for _, i in todo), quiet)
        futures = {client.submit(chunk_task, players, ranks, suits, p, i * chunk, size(i), pure=False): (p, i)
                   for p, i in todo}
        finished = 0
        pending = _distributed().as_completed(futures, timeout=time_limit)
        try:
            for future in pending:
                p, i = futures.pop(future)
                stores[p].append(i, {"first": i * chunk, "count": size(i), **future.result()})
                bar.advance(size(i))
                finished += 1
                out_of_time = time_limit is not None and time.monotonic() - started > time_limit
                if (stop_after is not None and finished >= stop_after) or out_of_time:
                    break
        except TimeoutError:
            pass  # the time limit: what is finished is kept
        finally:
            client.cancel(list(futures))
    finally:
        if own is not None:
            client.close()
            own.close()
    return stores


def merge(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    """The sum of chunk tallies (order-independent; among equal extremes the lowest index wins)."""
    total = {"count": 0, "ended": 0, "endless": 0, "capped": 0, "ended_flips": 0}
    hists: dict[str, Counter[int]] = {k: Counter() for k in ("lengths", "cycle_lengths", "cycle_starts")}
    extremes: dict[str, list[int]] = {}
    for c in chunks:
        for k in total:
            total[k] += c[k]
        for k, h in hists.items():
            h.update({int(v): n for v, n in c[k].items()})
        for key, (value, index) in c["extremes"].items():
            old = extremes.get(key)
            if old is None or (value < old[0] if key.startswith("shortest") else value > old[0]) or (
                    value == old[0] and index < old[1]):
                extremes[key] = [value, index]
    return {**total, **hists, "extremes": extremes}


def summary(players: int, ranks: int, suits: int, policy: str, store: ChunkFile) -> dict[str, Any] | None:
    """The exact figures of one finished enumeration, or None while chunks are missing."""
    total = kernel.count(ranks, suits)
    chunk = store.header["chunk"]
    n_chunks = -(-total // chunk)
    chunks = store.finished(n_chunks, lambda i: min(chunk, total - i * chunk))
    if len(chunks) < n_chunks:
        return None
    m = merge(chunks)
    if m["count"] != total or m["ended"] + m["endless"] + m["capped"] != total:
        raise ValueError(f"{store.path}: the chunks do not add up to {total} sequences")
    weight = kernel.weight(players, ranks, suits)
    endless = Fraction(m["endless"], total)
    return {
        "players": players, "ranks": ranks, "suits": suits, "cards": ranks * suits, "policy": policy,
        "canonical_sequences": total, "weight": weight, "deals": total * weight,
        "endless_sequences": m["endless"], "endless_deals": m["endless"] * weight,
        "never_ends_exact": f"{endless.numerator}/{endless.denominator}", "never_ends": float(endless),
        "capped": m["capped"], "ended_sequences": m["ended"],
        "mean_ended_flips": m["ended_flips"] / m["ended"] if m["ended"] else None,
        "game_lengths": _dist(m["lengths"]), "cycle_lengths": _dist(m["cycle_lengths"]),
        "extremes": m["extremes"],
        "histogram_top": kernel.HIST_LEN - 1,  # a count at this value stands for it or more
    }


def _dist(counts: Counter[int]) -> dict[str, Any] | None:
    d = distribution(counts)
    return None if d is None else {**d, "counts": counter_json(counts)}


def progress_of(players: int, ranks: int, suits: int, policy: str, store: ChunkFile) -> dict[str, Any]:
    """How far an unfinished enumeration is: checkpointed chunks and sequences."""
    total = kernel.count(ranks, suits)
    done = sum(c["count"] for c in store.chunks.values())
    return {"players": players, "ranks": ranks, "suits": suits, "policy": policy, "canonical_sequences": total,
            "decided": done, "chunks_done": len(store.chunks), "chunks": -(-total // store.header["chunk"]),
            "checkpoint": str(store.path)}


def records(cell: dict[str, Any], folder: Path) -> dict[str, Any]:
    """The extreme games as replayable records: each canonical sequence is dealt by seat 0 and
    played by the reference model, which must find the same length as the kernel."""
    from cardcanon.model.shuffle import SplitMix64
    from cardcanon.model.snap import SnapConfig
    from cardcanon.model.snap_policies import play_deal
    from cardcanon.model.snap_policies import game_record
    from cardcanon.record_file import write_record

    players, ranks, suits, policy = cell["players"], cell["ranks"], cell["suits"], cell["policy"]
    config = SnapConfig(players=players, deck=kernel.deck(ranks, suits))
    written = {}
    for key, (value, index) in sorted(cell["extremes"].items()):
        result = play_deal(config, kernel.deal(ranks, suits, index), policy, SplitMix64(0))
        found = result.flips if key == "longest_ended" else result.endless.length if result.endless else None
        if found != value:
            raise RuntimeError(f"{ranks}x{suits} {policy}: sequence {index}: the kernel found {key} = {value}, "
                               f"the reference model {found}")
        path = folder / f"snap-exact-{players}p-{ranks}x{suits}-{policy}-{key.replace('_', '-')}.json.gz"
        folder.mkdir(parents=True, exist_ok=True)
        write_record(path, game_record(result))
        written[key] = {"sequence": index, "flips": result.flips, "file": path.as_posix()}
    return written


def write_results(path: Path, cells: list[dict[str, Any]], unfinished: list[dict[str, Any]], command: str) -> None:
    """Merge these cells into ``path`` (cells of other decks are kept)."""
    old: dict[str, Any] = {}
    if path.exists():
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            old = {}

    def key(c: dict[str, Any]) -> tuple[int, int, int, str]:
        return (c["players"], c["ranks"], c["suits"], c["policy"])

    mine = {key(c) for c in cells} | {key(c) for c in unfinished}
    kept = [c for c in old.get("cells", []) if key(c) not in mine]
    kept_unfinished = [c for c in old.get("unfinished", []) if key(c) not in mine]
    commands = [c for c in old.get("commands", []) if c != command] + [command]
    data = {
        "description": "Exact Snap termination figures: every deal (dealer and card order, all equally likely) "
                       "of a small deck, default rules, deterministic calling policies. Deals are enumerated as "
                       "canonical rank sequences (ranks numbered in order of first appearance, dealer seat 0), "
                       "each standing for `weight` = players * ranks! * (suits!)^ranks deals. A repeated position "
                       "(SNAP-END-4, Brent's cycle detection) proves a deal endless. Extremes are [value, "
                       "sequence index]; `cardcanon.engine.exact.deal(ranks, suits, index)` is that deal.",
        "commands": commands,
        "cells": sorted(kept + cells, key=key),
        "unfinished": sorted(kept_unfinished + unfinished, key=key),
        "provenance": provenance(),  # the run that wrote the file (cardcanon/provenance.py)
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)


def exact_folder(args: argparse.Namespace) -> Path:
    """``--out DIR``; else with ``--update-results`` the checkout's ``results/exact/``; else the
    user cache (as ``cardcanon analyze`` does for its other figures)."""
    from cardcanon.analysis_output import results_folder
    from cardcanon.engine.cache import user_cache_dir

    if args.out is not None:
        return Path(args.out)
    if args.update_results:
        return results_folder().parent / "exact"
    return user_cache_dir() / "exact"


def run_cli(args: argparse.Namespace, default_players: int | None = None, default_policies: bool = False) -> int:
    """The ``--exact`` branch of ``cardcanon analyze snap`` (``default_players``,
    ``default_policies``: the options were not given)."""
    players = default_players or (args.players[0] if len(args.players) == 1 else None)
    if players is None:
        raise ValueError("--exact takes one player count, e.g. --players 2")
    policies = kernel.POLICIES if default_policies else tuple(args.policies)
    if args.workers is not None and args.workers < 1:
        raise ValueError(f"--workers must be at least 1, not {args.workers}")
    if args.ranks is None or args.suits is None:
        raise ValueError("--exact needs --ranks R and --suits S")
    out = exact_folder(args)
    if args.time_limit is not None and args.time_limit < 0:
        raise ValueError(f"--time-limit must be at least 0, not {args.time_limit}")
    chunk = DEFAULT_CHUNK if args.chunk is None else args.chunk
    stores = run(players, args.ranks, args.suits, policies, out, chunk=chunk,
                 scheduler=args.scheduler, workers=args.workers, quiet=args.quiet, time_limit=args.time_limit)
    cells, unfinished = [], []
    for p in policies:
        cell = summary(players, args.ranks, args.suits, p, stores[p])
        if cell is None:
            unfinished.append(progress_of(players, args.ranks, args.suits, p, stores[p]))
            continue
        if not args.no_records:
            cell["records"] = records(cell, out / "records")
        cells.append(cell)
    command = (f"cardcanon analyze snap --exact --players {players} --ranks {args.ranks} --suits {args.suits} "
               f"--policies {' '.join(policies)} --chunk {chunk} --out {out.as_posix()}")
    write_results(out / "snap-exact.json", cells, unfinished, command)
    if not args.quiet:
        for c in cells:
            print(f"{c['players']}p {c['ranks']}x{c['suits']} {c['policy']}: never ends {c['never_ends_exact']} "
                  f"= {c['never_ends']:.6f} of {c['deals']:,} deals ({c['canonical_sequences']:,} sequences)")
        for u in unfinished:
            print(f"{u['players']}p {u['ranks']}x{u['suits']} {u['policy']}: unfinished, {u['decided']:,} of "
                  f"{u['canonical_sequences']:,} sequences decided; rerun to resume")
    return 0
