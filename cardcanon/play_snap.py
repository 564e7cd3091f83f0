"""``cardcanon play snap ...`` and the lines ``cardcanon replay`` prints for a Snap record."""

from __future__ import annotations

import argparse
import secrets
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from cardcanon.cli_args import SEED_MAX, integer_range, output_file, policy_name
from cardcanon.cli_args import integer as integer_arg
from cardcanon.cli_args import seed as seed_arg
from cardcanon.model.records import write_record
from cardcanon.model.seats import Seat
from cardcanon.model.snap import (
    Call, Deal, Flip, Move, NextTurn, NoCall, SnapConfig, SnapState, Termination, Tie, apply, correct_kinds, new_game,
)
from cardcanon.model.records import replay_steps
from cardcanon.model.snap import GAME
from cardcanon.model.snap_policies import POLICY_NAMES, GameResult, game_record, parse_policy, play_game
from cardcanon.model.snap_text import result_text, sentence
from cardcanon.record_file import record_written
from cardcanon.variants import parse_variants, refuse_both

SHOW_FIRST, SHOW_LAST = 30, 10  # flips shown in full at each end of a long game
DEFAULT_MAX_FLIPS = 100_000
MAX_FLIPS = 1_000_000  # the engine's safety cap: deterministic games repeat or end long before


def add_play_parser(games: Any) -> None:
    p = games.add_parser("snap", help="play Snap between built-in callers")
    p.add_argument("--players", type=integer_arg, default=2, metavar="N", help="the number of players, 2 to 12 (default 2)")
    p.add_argument("--seed", type=seed_arg, help=f"the deal's seed, 0 to {SEED_MAX} (default: a fresh one, printed)")
    p.add_argument("--policy", type=policy_name, default="flipper-first", help=f"who wins each race: {', '.join(POLICY_NAMES)}")
    p.add_argument("--index-card", action="store_true", help="the index-card variant (SNAP-INDEX-1); the same as --variant index_card=on")
    p.add_argument("--next-turn", choices=[t.value for t in NextTurn], default=None,
                   help="SNAP-TURN-2 variation (default clockwise); the same as --variant next_turn=...")
    p.add_argument("--variant", action="append", default=[], metavar="PARAM=VALUE",
                   help="a rule variation of the rulebook (see `cardcanon rules snap`); repeatable")
    p.add_argument("--record", metavar="FILE", type=output_file, help="write the game record (JSON) here")
    p.add_argument("--max-flips", type=integer_range(1, MAX_FLIPS, "a number of flips"), default=DEFAULT_MAX_FLIPS,
                   help=f"stop after N flips, 1 to {MAX_FLIPS} (default {DEFAULT_MAX_FLIPS})")
    p.add_argument("-q", "--quiet", action="store_true", help="print only the outcome")
    p.set_defaults(handler=run_play)


def run_play(args: argparse.Namespace) -> int:
    config = _config(args)
    policy = parse_policy(args.policy)
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    result = play_game(config, seed, policy, max_flips=args.max_flips)
    if args.quiet and args.seed is None:
        print(f"Seed {seed}.")
    if not args.quiet:
        print(f"Snap, {config.players} players, seed {seed}, policy {policy.name}, "
              f"index card {'on' if config.index_card else 'off'}, next turn {config.next_turn.value}")
        for line in transcript(_steps(result)):
            print(line)
    print(outcome_line(result))
    if args.record is not None:
        write_record(args.record, game_record(result))
        print(record_written(args.record))
    return 0


def _config(args: argparse.Namespace) -> SnapConfig:
    """The table from ``--players``, ``--index-card``, ``--next-turn`` and ``--variant`` (checked against the rulebook)."""
    variants = parse_variants("snap", args.variant)
    refuse_both("--index-card", args.index_card, "index_card", variants)
    refuse_both(f"--next-turn {args.next_turn}", args.next_turn is not None, "next_turn", variants)
    options = {"index_card": "on" if args.index_card else "off", "next_turn": args.next_turn or "clockwise"}
    return SnapConfig.from_options({**options, **variants}, players=args.players)


def _steps(result: GameResult) -> list[tuple[SnapState, Move, SnapState]]:
    state, steps = new_game(result.config), []
    for move in result.moves:
        after = apply(state, move)
        steps.append((state, move, after))
        state = after
    return steps


def transcript(steps: Sequence[tuple[SnapState, Move, SnapState]]) -> list[str]:
    """The game as text; only the first and last flips of a long game in full."""
    total = max((after.flips for _, _, after in steps), default=0)
    hidden = range(SHOW_FIRST + 1, total - SHOW_LAST + 1) if total > SHOW_FIRST + SHOW_LAST + 5 else range(0)
    lines: list[str] = []
    tally: Counter[str] = Counter()
    for before, move, after in steps:
        flip_no = after.flips
        if flip_no in hidden:
            tally[_event(before, move)] += 1
            if flip_no == hidden[-1] and not isinstance(move, Flip):
                lines.append(f"... flips {hidden[0]}-{hidden[-1]} not shown: " + ", ".join(
                    f"{tally[k]} {k}" for k in ("won calls", "ties", "wrong calls") if tally[k]))
            continue
        if isinstance(move, NoCall):
            continue
        lines.append(describe(before, move, after))
    return lines


def _event(before: SnapState, move: Move) -> str:
    if isinstance(move, Tie):
        return "ties"
    if isinstance(move, Call):
        return "won calls" if move.kind in correct_kinds(before) else "wrong calls"
    return "other"


def outcome_line(result: GameResult) -> str:
    if result.outcome:
        o = result.outcome
        line = sentence(result_text(o.termination.value, None if o.winner is None else o.winner.index, result.flips))
        if o.termination in (Termination.STUCK_POT, Termination.WINNABLE_POT):
            line = line.removesuffix(".") + f"; the Snap Pot keeps {len(result.state.pot)}."
        return line
    if result.endless:
        c = result.endless
        return (f"Endless: the position after flip {c.start} recurs after flip {c.start + c.length}, "
                f"and the game repeats every {c.length} flips (SNAP-END-4).")
    return f"Stopped after {result.flips} flips (--max-flips) with {len(result.state.in_game)} players still in."


def replay_lines(data: Mapping[str, Any], where: str, count: int) -> list[str]:
    """What ``cardcanon replay`` shows of a Snap record: the transcript of the moves replayed."""
    _, steps = replay_steps(GAME, data, where)
    return transcript(steps[:count])


def describe(before: SnapState, move: Move, after: SnapState) -> str:
    """One line saying what a move did."""
    if isinstance(move, Deal):
        sizes = ", ".join(f"{s} {len(p)}" for s, p in zip((Seat(i) for i in range(len(after.down))), after.down))
        return f"{move.dealer} deals ({sizes} cards)"
    if isinstance(move, Flip):
        card = after.up[move.player.index][0]
        turned = " (turns his face-up pile over first)" if not before.down[move.player.index] else ""
        return f"flip {after.flips}: {move.player} flips {card.pretty}{turned}"
    if isinstance(move, NoCall):
        return "  nobody calls"
    if isinstance(move, Tie):
        return (f"  tie: {move}; the Snap Pot now holds "
                f"{len(after.pot)} cards (top {after.pot[0].pretty})")
    if move.kind in correct_kinds(before):
        gained = len(after.down[move.caller.index]) - len(before.down[move.caller.index])
        pot = " with the Snap Pot" if before.pot and not after.pot else ""
        return f"  {move} first and wins {gained} cards{pot}"
    n = before.config.players
    got = next(Seat(i) for i in range(n) if len(after.down[i]) > len(before.down[i]) and Seat(i) != move.caller)
    return f"  {move} wrongly and gives a card to {got}"
