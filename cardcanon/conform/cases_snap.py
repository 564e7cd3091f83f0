"""Snap's part of the vectors (:mod:`cardcanon.conform.cases`): the rules each kind of vector
exercises, the plausible mistakes, the named edge positions, the golden games and the lines
built by hand."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from cardcanon.conform.adapter import Json, NotAMove, Position
from cardcanon.conform.reached import Reached, shortest
from cardcanon.model import snap, snap_policies
from cardcanon.model.errors import IllegalMoveError
from cardcanon.model.shuffle import SplitMix64

SHUFFLE_RULES = ["SNAP-DECK-1", "SNAP-DEAL-2"]
# each field of a deal vector's answer, and the rules that decide it (the dealer is drawn before the shuffle)
DEAL_FIELDS = {"moves": ["SNAP-SEED-2", "SNAP-DEAL-1"], "hands": ["SNAP-DEAL-2", "SNAP-DEAL-3"],
               "to_move": ["SNAP-TURN-1"]}
DEAL_RULES = ["SNAP-SEED-2", "SNAP-PLAYERS-1", "SNAP-DEAL-1", "SNAP-DEAL-2", "SNAP-DEAL-3", "SNAP-TURN-1"]
PERFT_RULES = ["SNAP-TURN-1", "SNAP-TURN-2", "SNAP-FLIP-1", "SNAP-MATCH-2", "SNAP-CALL-1", "SNAP-CALL-2",
               "SNAP-CALL-3", "SNAP-PEN-1", "SNAP-TIE-1", "SNAP-INDEX-1"]
VARIANT_PLAYERS = 3  # the table of the variants' files
PERFT_DEPTH = {2: 6, 3: 5, 4: 4, 12: 3}  # the tables with files of their own, and the depth of their perft
TABLES: list[tuple[str, int, dict[str, Any]]] = [
    (f"players-{n}", n, {"shuffles": n == 2, "perft_depth": depth, "games": n <= 4, "ties_in_legal": n <= 4})
    for n, depth in PERFT_DEPTH.items()]


def context_rules(position: Position) -> list[str]:
    """The rules that decide the legal moves at ``position``."""
    state = position.state
    if state.is_chance:
        return ["SNAP-DEAL-1", "SNAP-DEAL-2"]
    if state.phase is snap.Phase.OVER:
        return ["SNAP-END-1"]
    rules = []
    if len(state.in_game) < state.config.players:
        rules.append("SNAP-OUT-1")
    if state.phase is snap.Phase.FLIP:
        rules += ["SNAP-FLIP-1", "SNAP-TURN-1" if state.flips == 0 else "SNAP-TURN-2"]
        if not state.down[state.turn.index]:
            rules.append("SNAP-FLIP-3")
        return rules
    rules += ["SNAP-CALL-2", "SNAP-CALL-3", "SNAP-PEN-1"]
    if state.config.index_card:
        rules.append("SNAP-INDEX-1")
    if snap.matched_seats(state):
        rules += ["SNAP-MATCH-1", "SNAP-MATCH-2", "SNAP-CALL-1"]
    if snap.pot_matches(state):
        rules += ["SNAP-MATCH-1", "SNAP-MATCH-2", "SNAP-POT-1"]
    if snap.matched_seats(state) and snap.pot_matches(state):
        rules.append("SNAP-POT-3")
    if has_ties(position):
        rules.append("SNAP-TIE-1")
    return sorted(set(rules))


def has_ties(position: Position) -> bool:
    """A call window where several players may tie (the legal moves then list every tie)."""
    state = position.state
    return not state.config.index_card and bool(snap.correct_kinds(state))


def candidate_moves(position: Position, ties: bool, chance: bool) -> list[Json]:
    """The legal moves and the plausible mistakes: every seat's flip and call, ties of two."""
    state = position.state
    n = state.config.players
    moves: list[Json] = [{"move": "deal", "dealer": 0, "order": [str(c) for c in state.config.deck]}] if chance else []
    moves += [{"move": "flip", "player": s} for s in range(n)]
    moves.append({"move": "no-call"})
    moves += [{"move": "call", "caller": s, "kind": k.value} for s in range(n) for k in snap.CallKind]
    if ties:
        kinds = state.config.kinds if state.config.index_card else (snap.CallKind.SNAP, snap.CallKind.SNAP_POT)
        moves += [{"move": "tie", "callers": [a, b], "kind": k.value}
                  for a, b in itertools.combinations(range(min(n, 4)), 2) for k in kinds]
    return moves


def out_of_place(config_json: Json, dealt: list[Json]) -> list[tuple[list[Json], Json]]:
    """Illegal chance moves and moves out of place, after ``dealt`` (the deal of a seed)."""
    order = dealt[0]["order"]
    return [([], {"move": "flip", "player": 0}),
            ([], {"move": "deal", "dealer": config_json["players"], "order": order}),
            ([], {"move": "deal", "dealer": 0, "order": order[:-1]}),
            (dealt, dealt[0])]


def choose(position: Position, legal: tuple[Any, ...], rng: SplitMix64) -> Any:
    """Half the time any legal move, else the first correct call or no call: varied but playable."""
    if rng.below(2):
        return legal[rng.below(len(legal))]
    correct = snap.correct_kinds(position.state)
    return next((m for m in legal if isinstance(m, snap.Call) and m.kind in correct), legal[0])


# ---- positions the vectors are about -----------------------------------------------------------
def edge_positions(start: Position, positions: list[Reached]) -> list[tuple[str, str, Reached | None]]:
    """The named edge positions after the start (see :func:`cardcanon.conform.cases.edge_positions`)."""
    found: list[tuple[str, str, Reached | None]] = []
    found.append(("first-flip", "the first flip, after the deal",
                  shortest(positions, lambda s: s.phase is snap.Phase.FLIP and s.flips == 0)))
    pile_and_pot = (lambda s: s.phase is snap.Phase.CALL and bool(snap.matched_seats(s))
                    and snap.pot_matches(s))
    found.append(("pile-and-pot", "the flipped card matches a pile and the Snap Pot at once",
                  _pile_and_pot(start, pile_and_pot) or shortest(positions, pile_and_pot)))
    found.append(("pot-only", "the flipped card matches the Snap Pot only",
                  shortest(positions, lambda s: s.phase is snap.Phase.CALL and not snap.matched_seats(s)
                           and snap.pot_matches(s))))
    two_piles = (lambda s: s.phase is snap.Phase.CALL and len(snap.matched_seats(s)) > 1)
    found.append(("two-piles", "the flipped card matches two piles",
                  shortest(positions, two_piles) or _two_piles(start, two_piles)))
    found.append(("player-out-call", "a call window with a player who is out",
                  shortest(positions, lambda s: s.phase is snap.Phase.CALL
                           and len(s.in_game) < s.config.players)))
    found.append(("player-out-flip", "a flip with a player who is out",
                  shortest(positions, lambda s: s.phase is snap.Phase.FLIP and s.flips > 0
                           and len(s.in_game) < s.config.players)))
    found.append(("empty-face-down", "a flip from an empty face-down pile (the face-up pile is turned over)",
                  shortest(positions, lambda s: s.phase is snap.Phase.FLIP and s.turn is not None
                           and not s.down[s.turn.index])))
    return found


def _pile_and_pot(start: Position, wanted: Callable[[Any], bool]) -> Reached | None:
    """A deal whose first four flips are the four 2s: the second flip ties (its piles go to the
    Snap Pot), the third matches the pot only and the fourth matches a pile and the pot."""
    config = start.config
    n = config.players
    if config.index_card:  # no ties, so the pot stays empty this way
        return None
    order = [str(c) for c in SplitMix64(5).shuffled(config.deck)]
    top = {seat: max(i for i in range(len(order)) if (i + 1) % n == seat) for seat in range(n)}
    flippers = [k % n for k in range(1, 5)]
    for k, card in enumerate(("2c", "2d", "2h", "2s"), start=1):
        place = top[k % n] - ((k - 1) // n) * n
        i = order.index(card)
        order[place], order[i] = order[i], order[place]
    first, second, third, fourth = flippers
    moves = [{"move": "deal", "dealer": 0, "order": order},
             {"move": "flip", "player": first}, {"move": "no-call"},
             {"move": "flip", "player": second}, {"move": "tie", "callers": sorted({first, second}), "kind": "snap"},
             {"move": "flip", "player": third}, {"move": "no-call"},
             {"move": "flip", "player": fourth}]
    try:
        position = start.apply_all(moves)
    except (IllegalMoveError, NotAMove):
        return None
    return Reached(tuple(moves), position) if wanted(position.state) else None


def _two_piles(start: Position, wanted: Callable[[Any], bool]) -> Reached | None:
    """A deal whose first three flips are 2s, with no call between them: the third matches the
    face-up piles of the two players before it (three or more players; none of a rank repeats
    for a table of two)."""
    n = start.config.players
    if n < 3:
        return None
    order = [str(c) for c in SplitMix64(5).shuffled(start.config.deck)]
    top = {seat: max(i for i in range(len(order)) if (i + 1) % n == seat) for seat in range(n)}
    flippers = [k % n for k in range(1, 4)]
    for seat, card in zip(flippers, ("2c", "2d", "2h")):
        i = order.index(card)
        order[top[seat]], order[i] = order[i], order[top[seat]]
    moves: list[Json] = [{"move": "deal", "dealer": 0, "order": order}]
    for k, seat in enumerate(flippers):
        moves += ([{"move": "no-call"}] if k else []) + [{"move": "flip", "player": seat}]
    try:
        position = start.apply_all(moves)
    except (IllegalMoveError, NotAMove):
        return None
    return Reached(tuple(moves), position) if wanted(position.state) else None


def _tall_piles(start: Position) -> Reached | None:
    """A deal whose first six flips are 3c, 4c, 5c, then 2c, 2d, 2h, with no call between them (a
    table of three): the last flip matches the two piles before it, each of two cards, so that the
    order of the tied piles shows in the ranks of the Snap Pot, not only in its suits."""
    config = start.config
    n = config.players
    if n != 3 or config.index_card:  # no ties with the index card
        return None
    order = [str(c) for c in SplitMix64(5).shuffled(config.deck)]
    top = {seat: max(i for i in range(len(order)) if (i + 1) % n == seat) for seat in range(n)}
    cards = ("3c", "4c", "5c", "2c", "2d", "2h")
    for k, card in enumerate(cards, start=1):
        place = top[k % n] - ((k - 1) // n) * n
        i = order.index(card)
        order[place], order[i] = order[i], order[place]
    moves: list[Json] = [{"move": "deal", "dealer": 0, "order": order}]
    for k in range(1, len(cards) + 1):
        moves += ([{"move": "no-call"}] if k > 1 else []) + [{"move": "flip", "player": k % n}]
    try:
        position = start.apply_all(moves)
    except (IllegalMoveError, NotAMove):
        return None
    state = position.state
    matched = snap.matched_seats(state)
    return Reached(tuple(moves), position) if len(matched) == 2 and all(len(state.up[s.index]) == 2 for s in matched) else None


# ---- lines no calling policy plays -------------------------------------------------------------
def hand_built_lines(start: Position, positions: list[Reached]) -> list[tuple[str, list[Json]]]:
    """A correct call and a tie at every named call window (the tied piles' order with three or
    more piles, a tie onto a non-empty pot, a "Snap Pot!" tie, both calls correct at once) and
    the SNAP-END-3 draw."""
    if start.config.index_card:  # no ties with the index card
        return []
    lines = []
    for name, about, reached in edge_positions(start, positions):
        if reached is None:
            continue
        state = reached.position.state
        if state.phase is not snap.Phase.CALL:
            continue
        callers = [seat.index for seat in state.in_game]
        for kind in sorted(snap.correct_kinds(state), key=lambda k: k.value):
            call = {"move": "call", "caller": callers[-1], "kind": kind.value}
            lines.append((f"a correct call at {about}", list(reached.moves) + [call]))
            tie = {"move": "tie", "callers": callers[:2], "kind": kind.value}
            lines.append((f"a tie at {about}", list(reached.moves) + [tie]))
            if len(callers) > 2:
                everyone = {"move": "tie", "callers": callers, "kind": kind.value}
                lines.append((f"a tie of every player at {about}", list(reached.moves) + [everyone]))
    draw = _draw(start)
    if draw is not None:
        lines.append(("every player's last card flipped, all of one rank, and a tie of all: a draw", draw))
    return lines


def _draw(start: Position) -> list[Json] | None:
    """SNAP-END-3: a deal whose first cards dealt (each player's bottom card) are of one rank,
    flips with no call until every face-down pile is empty, then a tie of every player sends
    every card into the pot. Only for tables of 2 to 4 (four cards of a rank)."""
    n = start.config.players
    if n > 4:
        return None
    order = [str(c) for c in start.config.deck]
    twos = ["2c", "2d", "2h", "2s"][:n]
    order = twos + [c for c in order if c not in twos]
    moves: list[Json] = [{"move": "deal", "dealer": 0, "order": order}]
    position = start.apply(moves[0])
    while position.state.phase is snap.Phase.FLIP:
        flip = {"move": "flip", "player": position.state.turn.index}
        position = position.apply(flip)
        moves.append(flip)
        if not any(position.state.down):
            tie = {"move": "tie", "callers": list(range(n)), "kind": "snap"}
            try:
                position = position.apply(tie)
            except IllegalMoveError:
                return None
            moves.append(tie)
            break
        position = position.apply({"move": "no-call"})
        moves.append({"move": "no-call"})
    outcome = position.state.outcome
    return moves if outcome is not None and outcome.termination is snap.Termination.NO_CARDS else None


# ---- games played on from the lines built by hand ----------------------------------------------
def games_after_lines(start: Position, positions: list[Reached],
                      max_moves: int) -> list[tuple[str, str, list[Json], int]]:
    """A tie of three piles of two cards each (:func:`_tall_piles`), played on to the end. The order of the tied piles in the Snap Pot shows
    in no answer but ``show`` until the pot is won and its cards are flipped again, so without
    ``show`` only the legal moves and the outcome of the rest of the game can tell the orders
    apart: a game is chosen where half the tied cards are flipped again."""
    window = _tall_piles(start)
    if window is None:
        return []
    callers = [seat.index for seat in window.position.state.in_game]
    kind = min(snap.correct_kinds(window.position.state), key=lambda k: k.value).value
    line = list(window.moves) + [{"move": "tie", "callers": callers, "kind": kind}]
    tied = set(start.apply_all(line).state.pot)
    for seed in range(200):
        rng, position, moves = SplitMix64(seed), start.apply_all(line), list(line)
        again = 0  # cards of the tied piles flipped again
        while position.outcome() is None and len(moves) < max_moves:
            move = choose(position, position.model_moves(), rng)
            position, moves = position.after(move), moves + [position.move_to_json(move)]
            if isinstance(move, snap.Flip) and position.state.up[move.player.index][0] in tied:
                again += 1
        if position.outcome() is not None and again >= len(tied) // 2:
            return [("game-after-tie-of-tall-piles", f"a tie of every player when the sixth flip matches two "
                     f"piles of two cards each, then played on to the end (calls drawn from seed {seed})", moves,
                     len(line))]
    return []


# ---- golden games ------------------------------------------------------------------------------
def golden_games(config: snap.SnapConfig, max_moves: int, few: bool) -> list[tuple[str, str, list[Json]]]:
    """Games of two calling policies that end within ``max_moves`` moves (with ``few``, only the
    one with wrong calls and their penalties)."""
    games = []
    for policy in ("errors:0.2",) if few else ("ties:0.3", "errors:0.2"):
        for seed in range(300):
            result = snap_policies.play_game(config, seed, policy, max_flips=max_moves // 2)
            if result.outcome is not None and len(result.moves) <= max_moves:
                games.append((f"game-{policy.split(':')[0]}-seed-{seed}",
                              f"calling policy {policy}, deal from seed {seed}",
                              [snap.GAME.move_to_json(m) for m in result.moves]))
                break
    return games


def game_rules(states: list[Any], moves: list[Json]) -> list[str]:
    """The rules a complete game exercises: the ones every game needs and those its events show."""
    rules = {"SNAP-DEAL-1", "SNAP-DEAL-2", "SNAP-DEAL-3", "SNAP-TURN-1", "SNAP-TURN-2", "SNAP-FLIP-1",
             "SNAP-MATCH-2", "SNAP-CALL-3"}
    for before, move, after in zip(states, moves, states[1:]):
        kind = move["move"]
        if kind == "flip" and not before.down[move["player"]]:
            rules.add("SNAP-FLIP-3")
        if kind == "call":
            if move["kind"] in {k.value for k in snap.correct_kinds(before)}:
                rules |= {"SNAP-CALL-1", "SNAP-CALL-4", "SNAP-CALL-5"}
                rules |= {"SNAP-POT-1"} if move["kind"] == "snap-pot" else set()
                rules |= {"SNAP-INDEX-1"} if move["kind"] == "hand" else set()
            else:
                rules |= {"SNAP-PEN-1", "SNAP-PEN-2"} if move["caller"] == before.turn.index else {"SNAP-PEN-1"}
                rules |= {"SNAP-PEN-3"} if not before.down[move["caller"]] else set()
        if kind == "tie":
            rules |= {"SNAP-TIE-1", "SNAP-TIE-2"} | ({"SNAP-POT-2"} if move["kind"] == "snap-pot" else set())
        if len(after.in_game) < len(before.in_game) and after.phase is not snap.Phase.OVER:
            rules.add("SNAP-OUT-1")
    termination = states[-1].outcome.termination
    if termination is snap.Termination.ALL_CARDS:
        rules.add("SNAP-GOAL-1")
    rules.add(snap.END_RULES[termination])
    return sorted(rules)
