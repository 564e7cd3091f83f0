"""``cardcanon play hearts``: a whole match between built-in players, printed readably; and the
lines ``cardcanon replay`` prints for a Hearts record."""

from __future__ import annotations

import argparse
import secrets
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from cardcanon.cli_args import SEED_MAX
from cardcanon.cli_args import output_file
from cardcanon.cli_args import seed as seed_arg
from cardcanon.model.errors import CardcanonError
from cardcanon.model.cards import Card, format_cards
from cardcanon.model.hearts import (
    HeartsConfig, Move, Phase, Play, apply, from_record, new_game, to_record, trick_winner,
)
from cardcanon.model.hearts_players import PLAYER_KINDS, make_player, play_match
from cardcanon.model.hearts_text import hand_summary, rules_text, scores_text, state_result
from cardcanon.model.records import write_record
from cardcanon.model.seats import Seat
from cardcanon.record_file import record_written
from cardcanon.variants import parse_variants

__all__ = ["add_play_parser", "format_match", "replay_lines", "run_play"]


def add_play_parser(games: Any) -> None:
    low, high = target_range()
    parser = games.add_parser("hearts", help="a match of two-player Hearts to 100")
    parser.add_argument("--players", nargs="+", default=None, metavar="N",
                        help="the number of players: 2, the only count this game has (as for Snap, a count; "
                             "player kinds as in '--players random greedy' are deprecated: use --strategies)")
    parser.add_argument("--seed", type=seed_arg, help=f"seed of the deals, 0 to {SEED_MAX} (default: a fresh one, printed)")
    parser.add_argument("--hands", action="store_true", help="show the dealt hands and every trick")
    parser.add_argument("--record", metavar="FILE", type=output_file, help="write the match as a JSON record")
    parser.add_argument("--strategies", nargs="+", choices=PLAYER_KINDS, default=None, metavar="KIND",
                        help="how player 0 and player 1 play: one or two of random, greedy (default: random random)")
    parser.add_argument("--variant", action="append", default=[], metavar="PARAM=VALUE",
                        help=f"a rule variation of the rulebook (see `cardcanon rules hearts`), or target=N, "
                             f"the score that ends the match, {low} to {high} (default {HeartsConfig().target}); "
                             f"repeatable")
    parser.set_defaults(handler=run_play)


def target_range() -> tuple[int, int]:
    """The match targets accepted, as the Hearts record schema states them."""
    from cardcanon.schemas import load

    target = load("hearts-record")["$defs"]["target"]
    return target["minimum"], target["maximum"]


def _strategies(args: argparse.Namespace) -> list[str]:
    """The strategies, and the number of players checked; ``--players KIND...`` still works, with a warning."""
    kinds = args.strategies
    if args.players is not None:
        if all(word in PLAYER_KINDS for word in args.players):
            if kinds is not None:
                raise ValueError(f"--players {' '.join(args.players)[:30]} and --strategies both set the strategies "
                                 f"(--players KIND is the old name of --strategies); give only --strategies")
            if len(args.players) > 2:
                raise ValueError(f"--players takes one or two kinds, not {len(args.players)}")
            print(f"cardcanon: warning: '--players {' '.join(args.players)}' is deprecated; "
                  f"use '--strategies {' '.join(args.players)}' (--players is the number of players)", file=sys.stderr)
            kinds = args.players
        elif args.players != ["2"]:
            raise ValueError(f"--players {' '.join(args.players)[:30]}: two-player Hearts has 2 players "
                             f"(for the strategies use --strategies {' '.join(PLAYER_KINDS)})")
    kinds = kinds or ["random", "random"]
    if len(kinds) > 2:
        raise ValueError(f"--strategies takes one or two kinds, not {len(kinds)}")
    return kinds if len(kinds) == 2 else kinds * 2


def _config_from_variants(variants: list[str]) -> HeartsConfig:
    options = parse_variants("hearts", variants, extra=("target",))
    settings = {"target": _target(options.pop("target"))} if "target" in options else {}
    return HeartsConfig.from_options(options, **settings)


def _target(text: str) -> int:
    low, high = target_range()
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise ValueError(f"--variant target={text[:30]}: the target is a whole number from {low} to {high} "
                         f"(HEARTS-MATCH-1)")
    return int(text)


def run_play(args: argparse.Namespace) -> int:
    config = _config_from_variants(args.variant)
    kinds = _strategies(args)  # last: it may warn, and a warning is never followed by an error
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    # Each random player has its own stream, derived from the match seed, so the match is reproducible.
    players = (make_player(kinds[0], seed * 2 + 1), make_player(kinds[1], seed * 2 + 2))
    final, moves = play_match(seed, players, config)
    print(f"Two-player Hearts, seed {seed}: {Seat(0)} plays {kinds[0]}, {Seat(1)} {kinds[1]}; "
          f"rules {rules_text(config)}")
    print(format_match(config, moves, show_tricks=args.hands))
    if args.record is not None:
        write_record(args.record, to_record(config, moves, seed))
        print(record_written(args.record))
    return 0


def replay_lines(data: Mapping[str, Any], where: str, count: int) -> list[str]:
    """What ``cardcanon replay`` shows of a Hearts record: each hand's scores, over its first ``count`` moves."""
    try:
        record = from_record(data, where)
    except CardcanonError:
        return []
    lines, state = [], new_game(record.config)
    for move in record.moves[:count]:
        before, state = state, apply(state, move)
        if before.phase is Phase.PLAY and state.phase is not Phase.PLAY:
            lines.append(f"  hand {state.hand_number}: scores {scores_text(state.hand_scores[-1])}; "
                         f"totals {scores_text(state.scores)}")
    return lines


def format_match(config: HeartsConfig, moves: Sequence[Move], show_tricks: bool = False) -> str:
    """The match readably, hand by hand (with ``show_tricks``, the hands and every trick)."""
    lines: list[str] = []
    state = new_game(config)
    for move in moves:
        before, state = state, apply(state, move)
        if before.phase is Phase.CHOOSE_DEALER:
            lines.append(f"{state.dealer} deals the first hand.")
        elif before.phase is Phase.DEAL:
            lines.append(f"Hand {state.hand_number}, dealt by {state.dealer}. Dead cards: {format_cards(state.dead)}")
            if show_tricks:
                for seat in (0, 1):
                    lines.append(f"  {Seat(seat)} holds {format_cards(sorted(state.hands[seat], key=_deck_order))}")
        elif before.trick and show_tricks and isinstance(move, Play):
            lead = before.trick[0]
            winner = move.player if trick_winner(lead.card, move.card) else lead.player
            lines.append(f"  trick {before.tricks_played + 1:2d}: {lead.player} {lead.card.pretty:>3}"
                         f"  {move.player} {move.card.pretty:>3}  won by {winner}")
        if before.phase is Phase.PLAY and state.phase is not Phase.PLAY:
            lines.append(hand_summary(state))
    if state.outcome is not None:
        lines.append(f"Match over: {state_result(state)}.")
    return "\n".join(lines)


def _deck_order(card: Card) -> int:
    return card.index
