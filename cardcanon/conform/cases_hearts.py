"""Hearts's part of the vectors (:mod:`cardcanon.conform.cases`): the rules each kind of vector
exercises, the plausible mistakes, the named edge positions and the golden games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardcanon.conform.adapter import Json, Position
from cardcanon.conform.reached import Reached, shortest
from cardcanon.model import hearts
from cardcanon.model.cards import Suit
from cardcanon.model.shuffle import SplitMix64

SHUFFLE_RULES = ["HEARTS-DECK-1", "HEARTS-DEAL-2"]
# each field of a deal vector's answer, and the rules that decide it
DEAL_FIELDS = {"moves": ["HEARTS-DEAL-1", "HEARTS-DEAL-2"], "hands": ["HEARTS-DEAL-2"], "dead": ["HEARTS-DEAL-2"],
               "to_move": ["HEARTS-LEAD-1", "HEARTS-LEAD-2"]}
DEAL_RULES = ["HEARTS-DEAL-1", "HEARTS-DEAL-2", "HEARTS-LEAD-1", "HEARTS-LEAD-2"]
PERFT_RULES = ["HEARTS-LEAD-1", "HEARTS-LEAD-3", "HEARTS-FOLLOW-1", "HEARTS-BREAK-1", "HEARTS-BREAK-2",
               "HEARTS-FIRST-1", "HEARTS-TRICK-1", "HEARTS-TRICK-2"]
VARIANT_PLAYERS = 2  # the table of the variants' files (HEARTS-PLAYERS-1)
TABLES: list[tuple[str, int, dict[str, Any]]] = [("default", 2, {"shuffles": True})]


def context_rules(position: Position) -> list[str]:
    """The rules that decide the legal moves at ``position``."""
    state = position.state
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


def has_ties(position: Position) -> bool:
    """Hearts has no ties."""
    return False


def candidate_moves(position: Position, ties: bool, chance: bool) -> list[Json]:
    """The legal moves and the plausible mistakes: every card of either hand, a dead card."""
    state = position.state
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


def out_of_place(config_json: Json, dealt: list[Json]) -> list[tuple[list[Json], Json]]:
    """Illegal chance moves and moves out of place, after ``dealt`` (the chance moves of a seed)."""
    order = dealt[1]["order"]
    return [([], {"move": "play", "player": 0, "card": "2c"}),
            ([], dealt[1]),
            (dealt[:1], {"move": "deal", "order": order[:-1]}),
            (dealt[:1], {"move": "deal", "order": order[:-1] + ["3c"]}),
            (dealt, {"move": "choose-dealer", "dealer": 1}),
            (dealt, {"move": "deal", "order": [str(c) for c in hearts.DECK]})]


def choose(position: Position, legal: tuple[Any, ...], rng: SplitMix64) -> Any:
    """The random games of the vectors play uniformly random legal moves."""
    return legal[rng.below(len(legal))]


# ---- positions the vectors are about -----------------------------------------------------------
def _deal(top: str, last: str, seed: int) -> list[Json]:
    """A dealer choice and a deal (from ``seed``'s shuffle) with ``top`` and ``last`` as the dead cards."""
    order = [str(c) for c in SplitMix64(seed).shuffled(hearts.DECK)]
    for place, card in ((0, top), (27, last)):
        i = order.index(card)
        order[place], order[i] = order[i], order[place]
    return [{"move": "choose-dealer", "dealer": 0}, {"move": "deal", "order": order}]


def _only_hearts_leader(start: Position) -> Reached | None:
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
    dealt = start.apply_all(prefix)
    for seed in range(200):
        rng, position, moves = SplitMix64(seed), dealt, list(prefix)
        while position.state.phase is hearts.Phase.PLAY:
            state = position.state
            if (not state.trick and not state.hearts_broken
                    and all(c.suit is Suit.HEARTS for c in state.hands[state.to_move.index])):
                return Reached(tuple(moves), position)
            legal = position.legal_moves()
            move = legal[rng.below(len(legal))]
            position, moves = position.apply(move), moves + [move]
    return None


def edge_positions(start: Position, positions: list[Reached]) -> list[tuple[str, str, Reached | None]]:
    """The named edge positions after the start (see :func:`cardcanon.conform.cases.edge_positions`)."""
    found: list[tuple[str, str, Reached | None]] = []
    for name, about, top, last in (
            ("two-of-clubs-dead", "the first lead when the 2 of clubs is dead", "2c", "Qd"),
            ("two-and-four-of-clubs-dead", "the first lead when the 2 and the 4 of clubs are dead", "2c", "4c")):
        prefix = _deal(top, last, 3)
        found.append((name, about, Reached(tuple(prefix), start.apply_all(prefix))))
    prefix = _deal("Qd", "Ad", 3)
    found.append(("first-lead", "the first lead, the 2 of clubs live", Reached(tuple(prefix), start.apply_all(prefix))))
    found.append(("leader-only-hearts", "the leader holds only hearts, hearts not broken", _only_hearts_leader(start)))
    found.append(("first-trick-void", "the first trick: the follower cannot follow and holds hearts and other cards",
                  shortest(positions, lambda s: s.phase is hearts.Phase.PLAY and s.tricks_played == 0
                           and s.trick and _void_mixed(s))))
    found.append(("follow-void", "a later trick: the follower cannot follow",
                  shortest(positions, lambda s: s.phase is hearts.Phase.PLAY and s.tricks_played > 0
                           and s.trick and _void_mixed(s))))
    found.append(("lead-unbroken", "a lead before hearts are broken, holding hearts and other cards",
                  shortest(positions, lambda s: s.phase is hearts.Phase.PLAY and s.tricks_played > 0
                           and not s.trick and not s.hearts_broken and _mixed(s.hands[s.to_move.index]))))
    found.append(("lead-broken-without-heart", "a lead after hearts were broken by a failure to follow, no heart played",
                  shortest(positions, lambda s: s.phase is hearts.Phase.PLAY and not s.trick and s.hearts_broken
                           and not any(c.suit is Suit.HEARTS for t in s.taken for c in t))))
    found.append(("lead-after-queen", "a lead after the queen of spades was played, no heart played yet",
                  shortest(positions, lambda s: s.phase is hearts.Phase.PLAY and not s.trick
                           and any(hearts.QUEEN_OF_SPADES in t for t in s.taken)
                           and not any(c.suit is Suit.HEARTS for t in s.taken for c in t)
                           and _mixed(s.hands[s.to_move.index]))))
    found.append(("second-hand", "the first lead of the second hand",
                  shortest(positions, lambda s: s.phase is hearts.Phase.PLAY and s.hand_number == 2
                           and s.tricks_played == 0 and not s.trick)))
    return found


def _mixed(hand: frozenset[Any]) -> bool:
    return any(c.suit is Suit.HEARTS for c in hand) and any(c.suit is not Suit.HEARTS for c in hand)


def _void_mixed(state: Any) -> bool:
    hand = state.hands[state.to_move.index]
    return not any(c.suit is state.trick[0].card.suit for c in hand) and _mixed(hand)


def hand_built_lines(start: Position, positions: list[Reached]) -> list[tuple[str, list[Json]]]:
    """The random matches go everywhere the rule vectors need: no line is built by hand."""
    return []


# ---- golden games ------------------------------------------------------------------------------
# The first seed from which random play makes both players reach the target in the same hand
# (the search for such a match starts here, so that it is found at once).
BOTH_REACH_SEED = 57


def games_after_lines(start: Position, positions: list[Reached],
                      max_moves: int) -> list[tuple[str, str, list[Json], int]]:
    """Hearts builds no line by hand."""
    return []


def golden_games(config: hearts.HeartsConfig, max_moves: int, few: bool) -> list[tuple[str, str, list[Json]]]:
    """Random matches: one of random plays, one where both reach the target, one with a shot at the
    moon (with ``few``, only the last)."""
    plans: list[tuple[int, str, Callable[[hearts.HeartsState], bool]]] = [] if few else [
        (0, "a match of random legal plays", lambda state: True),
        (BOTH_REACH_SEED, "a match where both players reach the target",
         lambda state: state.outcome is not None
         and state.outcome.termination is not hearts.Termination.ONE_REACHED_TARGET)]
    plans.append((1, "a match with a shot at the moon",
                  lambda state: any(0 in scores for scores in state.hand_scores)))
    games = []
    for start, about, wanted in plans:
        seed, moves = next((s, m) for s in range(start, start + 400)
                           for m in [_random_match(config, s)] if wanted(_final(config, m)))
        games.append((f"game-seed-{seed}", f"{about} (chance and plays from seed {seed})",
                      [hearts.GAME.move_to_json(m) for m in moves]))
    return games


def _random_match(config: hearts.HeartsConfig, seed: int) -> list[hearts.Move]:
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


def _final(config: hearts.HeartsConfig, moves: list[hearts.Move]) -> hearts.HeartsState:
    state = hearts.new_game(config)
    for move in moves:
        state = hearts.apply(state, move)
    return state


def game_rules(states: list[Any], moves: list[Json]) -> list[str]:
    """The rules a complete match exercises: the ones every match needs and those its events show."""
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
