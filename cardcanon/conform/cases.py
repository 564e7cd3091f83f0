"""What the vectors are about, read from the reference models' states: the rules each vector
exercises, the moves that are illegal at a position (with the rule each breaks), the named edge
positions, and the golden games. Used by :mod:`cardcanon.conform.vectors` only.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardcanon.conform import overlaps
from cardcanon.conform.adapter import Json, NotAMove, Position, config_from_json, deal, illegal_rule
from cardcanon.model import hearts, hearts_records, snap, snap_policies, snap_records
from cardcanon.model.cards import Suit
from cardcanon.model.errors import IllegalMoveError
from cardcanon.model.shuffle import SplitMix64


# ---- rules each kind of vector exercises -----------------------------------------------------
SHUFFLE_RULES = {"hearts": ["HEARTS-DECK-1", "HEARTS-DEAL-2"], "snap": ["SNAP-DECK-1", "SNAP-DEAL-2"]}
DEAL_RULES = {"hearts": ["HEARTS-DEAL-1", "HEARTS-DEAL-2", "HEARTS-LEAD-1", "HEARTS-LEAD-2"],
              "snap": ["SNAP-PLAYERS-1", "SNAP-DEAL-1", "SNAP-DEAL-2", "SNAP-DEAL-3", "SNAP-TURN-1"]}
PERFT_RULES = {"hearts": ["HEARTS-LEAD-1", "HEARTS-LEAD-3", "HEARTS-FOLLOW-1", "HEARTS-BREAK-1", "HEARTS-BREAK-2",
                          "HEARTS-FIRST-1", "HEARTS-TRICK-1", "HEARTS-TRICK-2"],
               "snap": ["SNAP-TURN-1", "SNAP-TURN-2", "SNAP-FLIP-1", "SNAP-MATCH-2", "SNAP-CALL-1", "SNAP-CALL-2",
                        "SNAP-CALL-3", "SNAP-PEN-1", "SNAP-TIE-1", "SNAP-INDEX-1"]}


def context_rules(position: Position) -> list[str]:
    """The rules that decide the legal moves at ``position``."""
    state = position.state
    if position.game == "hearts":
        if state.is_chance:
            return ["HEARTS-DEAL-1" if state.phase is hearts.Phase.CHOOSE_DEALER else "HEARTS-DEAL-2"]
        if state.to_move is None:
            return ["HEARTS-MATCH-1"]
        rules = ["HEARTS-FOLLOW-1"] if state.trick else ["HEARTS-TRICK-2", "HEARTS-BREAK-1"]
        if state.tricks_played == 0 and not state.trick:
            rules += ["HEARTS-LEAD-1", "HEARTS-LEAD-2", "HEARTS-LEAD-3"]
        if state.tricks_played == 0:
            rules.append("HEARTS-FIRST-1")
        if state.hearts_broken:
            rules.append("HEARTS-BREAK-2")
        if not state.trick and any(hearts.QUEEN_OF_SPADES in taken for taken in state.taken):
            rules.append("HEARTS-QUEEN-2")
        return rules
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


def correct_kinds(position: Position) -> list[str]:
    """Snap: the calls that are correct now."""
    return sorted(kind.value for kind in snap.correct_kinds(position.state))


def has_ties(position: Position) -> bool:
    """Snap: a call window where several players may tie (the legal moves then list every tie)."""
    state = position.state
    return position.game == "snap" and not state.config.index_card and bool(snap.correct_kinds(state))


# ---- forbidden moves ---------------------------------------------------------------------------
def candidate_moves(position: Position, ties: bool = True, chance: bool = True) -> list[Json]:
    """Moves worth trying at ``position``: the legal ones and the plausible mistakes (with
    ``chance``, chance moves too even where players move)."""
    state = position.state
    chance = chance or state.is_chance
    if position.game == "hearts":
        deck_order = [str(c) for c in hearts.DECK]
        moves: list[Json] = [{"move": "choose-dealer", "dealer": 0}, {"move": "deal", "order": deck_order}] if chance else []
        if state.phase is not hearts.Phase.CHOOSE_DEALER and state.hands[0] | state.hands[1]:
            for seat, hand in enumerate(state.hands):
                moves += [{"move": "play", "player": seat, "card": str(c)} for c in sorted(hand)]
            if state.to_move is not None:
                moves += [{"move": "play", "player": state.to_move.index, "card": str(c)} for c in state.dead]
        else:
            moves.append({"move": "play", "player": 0, "card": "2c"})
        return moves
    n = state.config.players
    moves = [{"move": "deal", "dealer": 0, "order": [str(c) for c in state.config.deck]}] if chance else []
    moves += [{"move": "flip", "player": s} for s in range(n)]
    moves.append({"move": "no-call"})
    moves += [{"move": "call", "caller": s, "kind": k.value} for s in range(n) for k in snap.CallKind]
    if ties:
        kinds = state.config.kinds if state.config.index_card else (snap.CallKind.SNAP, snap.CallKind.SNAP_POT)
        moves += [{"move": "tie", "callers": [a, b], "kind": k.value}
                  for a, b in itertools.combinations(range(min(n, 4)), 2) for k in kinds]
    return moves


def forbidden_moves(position: Position, ties: bool = True, chance: bool = False) -> list[Json]:
    """The candidate moves that are illegal here, each with the rule it breaks."""
    out = []
    for move in candidate_moves(position, ties, chance):
        rule = illegal_rule(position, move)
        if rule is not None:
            also = overlaps.equally_right(position, move, rule)
            out.append({"move": move, "rule": rule, **({"also": also} if also else {})})
    return out


def extra_illegal_cases(game: str, config_json: Json) -> list[tuple[list[Json], Json, str]]:
    """Illegal chance moves and moves out of place: (prefix, move, rule)."""
    start = Position.start(game, config_json)
    cases: list[tuple[list[Json], Json, str]] = []

    def add(prefix: list[Json], move: Json) -> None:
        rule = illegal_rule(start.apply_all(prefix), move)
        if rule is None:
            raise ValueError(f"expected {move} to be illegal after {len(prefix)} moves")
        cases.append((prefix, move, rule))

    dealt = deal(game, config_json, 1)["moves"]
    if game == "hearts":
        order = dealt[1]["order"]
        add([], {"move": "play", "player": 0, "card": "2c"})
        add([], dealt[1])
        add(dealt[:1], {"move": "deal", "order": order[:-1]})
        add(dealt[:1], {"move": "deal", "order": order[:-1] + ["3c"]})
        add(dealt, {"move": "choose-dealer", "dealer": 1})
        add(dealt, {"move": "deal", "order": [str(c) for c in hearts.DECK]})
    else:
        order = dealt[0]["order"]
        players = config_json["players"]
        add([], {"move": "flip", "player": 0})
        add([], {"move": "deal", "dealer": players, "order": order})
        add([], {"move": "deal", "dealer": 0, "order": order[:-1]})
        add(dealt, dealt[0])
    return cases


# ---- positions the vectors are about -----------------------------------------------------------
@dataclass(frozen=True)
class Reached:
    """A position and the record prefix that reaches it."""

    moves: tuple[Json, ...]
    position: Position


def _shortest(positions: list[Reached], predicate: Callable[[Any], bool]) -> Reached | None:
    hits = [r for r in positions if predicate(r.position.state)]
    return min(hits, key=lambda r: len(r.moves)) if hits else None


def _hearts_deal(top: str, last: str, seed: int) -> list[Json]:
    """A dealer choice and a deal (from ``seed``'s shuffle) with ``top`` and ``last`` as the dead cards."""
    order = [str(c) for c in SplitMix64(seed).shuffled(hearts.DECK)]
    for place, card in ((0, top), (27, last)):
        i = order.index(card)
        order[place], order[i] = order[i], order[place]
    return [{"move": "choose-dealer", "dealer": 0}, {"move": "deal", "order": order}]


def _hearts_only_hearts_leader(config_json: Json) -> Reached | None:
    """A leader who holds only hearts before hearts are broken: found by random play from a deal
    that gives one player every heart."""
    order = [str(c) for c in hearts.DECK]
    hearts_cards = [c for c in order if c.endswith("h")]
    others = [c for c in order if not c.endswith("h")]
    # dealer 0: seat 1 gets the odd places 1, 3, ..., 25; the dead cards are places 0 and 27
    deck = [others.pop()] + [None] * 26 + [others.pop()]
    for k in range(13):
        deck[1 + 2 * k] = hearts_cards.pop() if hearts_cards else others.pop()
        deck[2 + 2 * k] = others.pop()
    prefix = [{"move": "choose-dealer", "dealer": 0}, {"move": "deal", "order": deck}]
    start = Position.start("hearts", config_json).apply_all(prefix)
    for seed in range(200):
        rng, position, moves = SplitMix64(seed), start, list(prefix)
        while position.state.phase is hearts.Phase.PLAY:
            state = position.state
            if (not state.trick and not state.hearts_broken
                    and all(c.suit is Suit.HEARTS for c in state.hands[state.to_move.index])):
                return Reached(tuple(moves), position)
            legal = position.legal_moves()
            move = legal[rng.below(len(legal))]
            position, moves = position.apply(move), moves + [move]
    return None


def edge_positions(game: str, config_json: Json, positions: list[Reached]) -> list[tuple[str, str, Reached]]:
    """The named edge positions of a game: (name, what it shows, position); most are the ones with
    the shortest prefix among ``positions``, a few are built on purpose."""
    start = Position.start(game, config_json)

    found: list[tuple[str, str, Reached | None]] = [("start", "the start of the game: a chance node", Reached((), start))]
    if game == "hearts":
        for name, about, top, last in (
                ("two-of-clubs-dead", "the first lead when the 2 of clubs is dead", "2c", "Qd"),
                ("two-and-four-of-clubs-dead", "the first lead when the 2 and the 4 of clubs are dead", "2c", "4c")):
            prefix = _hearts_deal(top, last, 3)
            found.append((name, about, Reached(tuple(prefix), start.apply_all(prefix))))
        prefix = _hearts_deal("Qd", "Ad", 3)
        found.append(("first-lead", "the first lead, the 2 of clubs live", Reached(tuple(prefix), start.apply_all(prefix))))
        found.append(("leader-only-hearts", "the leader holds only hearts, hearts not broken",
                      _hearts_only_hearts_leader(config_json)))
        found.append(("first-trick-void", "the first trick: the follower cannot follow and holds hearts and other cards",
                      _shortest(positions, lambda s: s.phase is hearts.Phase.PLAY and s.tricks_played == 0
                                and s.trick and _void_mixed(s))))
        found.append(("follow-void", "a later trick: the follower cannot follow",
                      _shortest(positions, lambda s: s.phase is hearts.Phase.PLAY and s.tricks_played > 0
                                and s.trick and _void_mixed(s))))
        found.append(("lead-unbroken", "a lead before hearts are broken, holding hearts and other cards",
                      _shortest(positions, lambda s: s.phase is hearts.Phase.PLAY and s.tricks_played > 0
                                and not s.trick and not s.hearts_broken and _mixed(s.hands[s.to_move.index]))))
        found.append(("lead-broken-without-heart", "a lead after hearts were broken by a failure to follow, no heart played",
                      _shortest(positions, lambda s: s.phase is hearts.Phase.PLAY and not s.trick and s.hearts_broken
                                and not any(c.suit is Suit.HEARTS for t in s.taken for c in t))))
        found.append(("lead-after-queen", "a lead after the queen of spades was played, no heart played yet",
                      _shortest(positions, lambda s: s.phase is hearts.Phase.PLAY and not s.trick
                                and any(hearts.QUEEN_OF_SPADES in t for t in s.taken)
                                and not any(c.suit is Suit.HEARTS for t in s.taken for c in t)
                                and _mixed(s.hands[s.to_move.index]))))
        found.append(("second-hand", "the first lead of the second hand",
                      _shortest(positions, lambda s: s.phase is hearts.Phase.PLAY and s.hand_number == 2
                                and s.tricks_played == 0 and not s.trick)))
    else:
        found.append(("first-flip", "the first flip, after the deal",
                      _shortest(positions, lambda s: s.phase is snap.Phase.FLIP and s.flips == 0)))
        pile_and_pot = (lambda s: s.phase is snap.Phase.CALL and bool(snap.matched_seats(s))
                        and snap.pot_matches(s))
        found.append(("pile-and-pot", "the flipped card matches a pile and the Snap Pot at once",
                      _snap_pile_and_pot(start, pile_and_pot) or _shortest(positions, pile_and_pot)))
        found.append(("pot-only", "the flipped card matches the Snap Pot only",
                      _shortest(positions, lambda s: s.phase is snap.Phase.CALL and not snap.matched_seats(s)
                                and snap.pot_matches(s))))
        two_piles = (lambda s: s.phase is snap.Phase.CALL and len(snap.matched_seats(s)) > 1)
        found.append(("two-piles", "the flipped card matches two piles",
                      _shortest(positions, two_piles) or _snap_two_piles(start, two_piles)))
        found.append(("player-out-call", "a call window with a player who is out",
                      _shortest(positions, lambda s: s.phase is snap.Phase.CALL
                                and len(s.in_game) < s.config.players)))
        found.append(("player-out-flip", "a flip with a player who is out",
                      _shortest(positions, lambda s: s.phase is snap.Phase.FLIP and s.flips > 0
                                and len(s.in_game) < s.config.players)))
        found.append(("empty-face-down", "a flip from an empty face-down pile (the face-up pile is turned over)",
                      _shortest(positions, lambda s: s.phase is snap.Phase.FLIP and s.turn is not None
                                and not s.down[s.turn.index])))
    return [(name, about, reached) for name, about, reached in found if reached is not None]


def _snap_pile_and_pot(start: Position, wanted: Callable[[Any], bool]) -> Reached | None:
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


def _snap_two_piles(start: Position, wanted: Callable[[Any], bool]) -> Reached | None:
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


def _mixed(hand: frozenset[Any]) -> bool:
    return any(c.suit is Suit.HEARTS for c in hand) and any(c.suit is not Suit.HEARTS for c in hand)


def _void_mixed(state: Any) -> bool:
    hand = state.hands[state.to_move.index]
    return not any(c.suit is state.trick[0].card.suit for c in hand) and _mixed(hand)


# ---- golden games ------------------------------------------------------------------------------
def golden_games(game: str, config_json: Json, max_snap_moves: int, few: bool = False) -> list[tuple[str, str, list[Json]]]:
    """Complete games: (id, what it shows, every move). With ``few``, only the most eventful one
    (Hearts: a shot at the moon; Snap: wrong calls and their penalties)."""
    config = config_from_json(game, config_json)
    if game == "hearts":
        plans: list[tuple[int, str, Callable[[hearts.HeartsState], bool]]] = [] if few else [
            (0, "a match of random legal plays", lambda state: True),
            (HEARTS_BOTH_REACH_SEED, "a match where both players reach the target",
             lambda state: state.outcome is not None
             and state.outcome.termination is not hearts.Termination.ONE_REACHED_TARGET)]
        plans.append((1, "a match with a shot at the moon",
                      lambda state: any(0 in scores for scores in state.hand_scores)))
        games = []
        for start, about, wanted in plans:
            seed, moves = next((s, m) for s in range(start, start + 400)
                               for m in [_hearts_random_match(config, s)] if wanted(_hearts_final(config, m)))
            games.append((f"game-seed-{seed}", f"{about} (chance and plays from seed {seed})",
                          [hearts_records.move_to_json(m) for m in moves]))
        return games
    games = []
    for policy in ("errors:0.2",) if few else ("ties:0.3", "errors:0.2"):
        for seed in range(300):
            result = snap_policies.play_game(config, seed, policy, max_flips=max_snap_moves // 2)
            if result.outcome is not None and len(result.moves) <= max_snap_moves:
                games.append((f"game-{policy.split(':')[0]}-seed-{seed}",
                              f"calling policy {policy}, deal from seed {seed}",
                              [snap_records.move_to_json(m) for m in result.moves]))
                break
    return games


def _hearts_random_match(config: hearts.HeartsConfig, seed: int) -> list[hearts.Move]:
    rng = SplitMix64(seed)
    state = hearts.new_game(config)
    moves: list[hearts.Move] = []
    while state.phase is not hearts.Phase.OVER:
        if state.is_chance:
            move = hearts.sample_chance(state, rng)
        else:
            legal = hearts.legal_moves(state)
            move = legal[rng.below(len(legal))]
        state = hearts.apply(state, move)
        moves.append(move)
    return moves


def _hearts_final(config: hearts.HeartsConfig, moves: list[hearts.Move]) -> hearts.HeartsState:
    state = hearts.new_game(config)
    for move in moves:
        state = hearts.apply(state, move)
    return state


# The first seed from which random play makes both players reach the target in the same hand
# (the search for such a match starts here, so that it is found at once).
HEARTS_BOTH_REACH_SEED = 57


def game_rules(game: str, moves: list[Json], config_json: Json) -> list[str]:
    """The rules a complete game exercises: the ones every game needs and those its events show."""
    position = Position.start(game, config_json)
    states = [position.state]
    for move in moves:
        position = position.apply(move)
        states.append(position.state)
    if game == "hearts":
        rules = {"HEARTS-DEAL-1", "HEARTS-DEAL-2", "HEARTS-LEAD-1", "HEARTS-FOLLOW-1", "HEARTS-BREAK-1",
                 "HEARTS-BREAK-2", "HEARTS-TRICK-1", "HEARTS-TRICK-2", "HEARTS-TRICK-3", "HEARTS-RANK-1",
                 "HEARTS-TRUMP-1", "HEARTS-SCORE-1", "HEARTS-QUEEN-1", "HEARTS-MATCH-1", "HEARTS-GOAL-1"}
        final = states[-1]
        if any(0 in scores for scores in final.hand_scores):
            rules |= {"HEARTS-MOON-1", "HEARTS-MOON-2"}
        if any(hearts.TWO_OF_CLUBS in s.dead for s in states):
            rules |= {"HEARTS-LEAD-2", "HEARTS-LEAD-3"}
        if final.outcome.termination is not hearts.Termination.ONE_REACHED_TARGET:
            rules |= {"HEARTS-MATCH-2", "HEARTS-MATCH-3"} if any(
                s.scores[0] == s.scores[1] >= s.config.target for s in states) else {"HEARTS-MATCH-2"}
        return sorted(rules)
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
    rules.add({snap.Termination.ALL_CARDS: "SNAP-END-1", snap.Termination.STUCK_POT: "SNAP-END-2",
               snap.Termination.NO_CARDS: "SNAP-END-3"}[termination])
    return sorted(rules)


# ---- lines no calling policy plays -------------------------------------------------------------
def hand_built_lines(game: str, config_json: Json, positions: list[Reached]) -> list[tuple[str, list[Json]]]:
    """Move sequences built from the rulebook where the random games do not go: (what it shows,
    moves). Snap: a correct call and a tie at every named call window (the tied piles' order
    with three or more piles, a tie onto a non-empty pot, a "Snap Pot!" tie, both calls correct
    at once) and the SNAP-END-3 draw."""
    return HAND_BUILT.get(game, _none_built)(game, config_json, positions)


def _none_built(game: str, config_json: Json, positions: list[Reached]) -> list[tuple[str, list[Json]]]:
    return []


def _snap_hand_built(game: str, config_json: Json, positions: list[Reached]) -> list[tuple[str, list[Json]]]:
    if config_from_json(game, config_json).index_card:  # no ties with the index card
        return []
    lines = []
    for name, about, reached in edge_positions(game, config_json, positions):
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
    draw = _snap_draw(config_json)
    if draw is not None:
        lines.append(("every player's last card flipped, all of one rank, and a tie of all: a draw", draw))
    return lines


def _snap_draw(config_json: Json) -> list[Json] | None:
    """SNAP-END-3: a deal whose first cards dealt (each player's bottom card) are of one rank,
    flips with no call until every face-down pile is empty, then a tie of every player sends
    every card into the pot. Only for tables of 2 to 4 (four cards of a rank)."""
    start = Position.start("snap", config_json)
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


HAND_BUILT: dict[str, Callable[[str, Json, list[Reached]], list[tuple[str, list[Json]]]]] = {
    "snap": _snap_hand_built}
