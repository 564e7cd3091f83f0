"""``python_cardcanon_hearts``: two-player Hearts (:mod:`cardcanon.model.hearts`) as an OpenSpiel game.

**Parameters**: every variation point of ``spec/hearts.toml`` by its parameter name, with the
rulebook's option words and defaults; ``scope`` (``"hand"``, the default, as OpenSpiel's own
``hearts``: one hand; or ``"match"``: HEARTS-MATCH-1/2/3 to ``target`` points, 100 by default);
``max_hands`` (a match, 100 by default): a match not decided after that many hands ends there as a
*truncation*, every return 0, and :meth:`HeartsState.truncated` says so, never a result;
``engine`` (``"kernel-or-model"``, the default; ``"kernel"`` or ``"model"``): which engine the
states step on (``cardcanon.openspiel.engines``); the game's ``engine`` attribute says which
one plays and ``engine_note`` why the model does.

**Chance**: the first dealer (two outcomes, 1/2 each; HEARTS-DEAL-1), then each hand's deal card by
card, as OpenSpiel's ``hearts`` deals: the n-th chance outcome of a deal is the card at place n of
the shuffled deck (a deck index, ``hearts.DECK``; each remaining card equally likely). The order
is the model's ``Deal``: the top card is dead, then 13 each, alternately, from the dealer's other
player; the last card is dead (HEARTS-DEAL-2).

**Actions**: a card, by its index in the 28-card deck, as ``hearts_v0``'s actions.

**Returns**: a hand: minus the points each player took (HEARTS-SCORE-1, HEARTS-MOON-1/2), from -20
to 0; a match: +1 to the winner and -1 to the loser (HEARTS-GOAL-1), 0 each when truncated.

**Observers**: the observation tensor is ``hearts_v0``'s observation vector (its ``OBSERVATION``
parts, seen by the player: his hand, the trick, the cards each player played and took this hand,
the last trick, hearts broken, leading, first trick, dealer, the two scores, his first). The
information-state tensor is that vector, then the 28 cards dealt to him this hand, then this
hand's plays in order (26 rows of 28, one card each): the perfect-recall history of a hand; in a
match, of the current hand (earlier hands are summed up in the scores). The information-state
string is the perfect-recall history of the whole match, as text.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from cardcanon.engine.steps import HeartsSteps
from cardcanon.envs.hearts_v0 import OBSERVATION, OBSERVATION_SIZE
from cardcanon.model.cards import Card, format_cards
from cardcanon.model.hearts import DECK, GAME, HeartsConfig, Phase
from cardcanon.model.hearts_types import HAND_SIZE, MOON_OTHER_POINTS, PLAYERS, POINT_CARDS, QUEEN_POINTS, SEATS
from cardcanon.openspiel import _common, engines

SHORT_NAME = "python_cardcanon_hearts"
CARDS = len(DECK)
PLAYS_PER_HAND = PLAYERS * HAND_SIZE
SCOPES = ("hand", "match")
DEFAULTS = _common.specification("hearts", scope="hand", max_hands=100, target=HeartsConfig().target,
                                 engine=engines.DEFAULT)
WORST_HAND = max(MOON_OTHER_POINTS, len(POINT_CARDS) - 1 + QUEEN_POINTS)  # the most points a hand can give
INFORMATION_STATE_SIZE = OBSERVATION_SIZE + CARDS + PLAYS_PER_HAND * CARDS
_INDEX = {card: i for i, card in enumerate(DECK)}



def _game_type(utility: Any) -> Any:
    """The game's type: a hand is general-sum, a match zero-sum."""
    return _common.game_type(SHORT_NAME, "cardcanon two-player Hearts", pyspiel.GameType.Dynamics.SEQUENTIAL, utility,
                             (PLAYERS, PLAYERS), DEFAULTS)


_GAME_TYPE = _game_type(pyspiel.GameType.Utility.GENERAL_SUM)


class HeartsGame(pyspiel.Game):  # type: ignore[misc]
    """The game at the table the parameters name (see the module documentation)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**DEFAULTS, **(params or {})}
        self.scope = _common.one_of("scope", params["scope"], SCOPES)
        self.max_hands = _common.whole("max_hands", params["max_hands"], 1) if self.scope == "match" else 1
        self.config = HeartsConfig.from_options(_common.chosen("hearts", params),
                                                target=_common.whole("target", params["target"], 1))
        self.kernel = engines.choose(self, params["engine"], lambda: HeartsSteps(self.config))
        match = self.scope == "match"
        info = pyspiel.GameInfo(
            num_distinct_actions=CARDS, max_chance_outcomes=CARDS, num_players=PLAYERS,
            min_utility=-1.0 if match else -float(WORST_HAND), max_utility=1.0 if match else 0.0,
            utility_sum=0.0 if match else None, max_game_length=self.max_hands * PLAYS_PER_HAND)
        utility = pyspiel.GameType.Utility.ZERO_SUM if match else pyspiel.GameType.Utility.GENERAL_SUM
        super().__init__(_game_type(utility), info, params)

    def new_initial_state(self) -> HeartsState:
        return HeartsState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> HeartsObserver:
        return HeartsObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class HeartsState(_common.TableState):
    """A position: the table of the engine that plays (``cardcanon.openspiel.engines``), the deal
    under way, and what the model does not keep (the cards each player played this hand, the last
    trick, the history each player saw)."""

    order = _common.shared("order")
    played = _common.shared("played")
    last_trick = _common.shared("last_trick")
    dealt = _common.shared("dealt")
    plays = _common.shared("plays")

    def __init__(self, game: HeartsGame) -> None:
        super().__init__(game)
        self.scope, self.max_hands = game.scope, game.max_hands
        self.table: engines.ModelHearts | engines.KernelHearts = (
            engines.KernelHearts(game.kernel) if game.kernel else engines.ModelHearts(game.config))
        self.order = ()  # the deal under way, top card first
        self.played = (frozenset(), frozenset())  # the cards each player played this hand
        self.last_trick = frozenset()
        self.dealt = (frozenset(), frozenset())  # each hand as dealt
        self.plays = ()  # this hand's plays in order
        self.seen = ("",) * PLAYERS  # what each player saw, as text

    # ---- the OpenSpiel API ---------------------------------------------------------------------
    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        to_move = self.table.to_move
        return int(pyspiel.PlayerId.CHANCE) if to_move is None else to_move

    def is_terminal(self) -> bool:
        phase = self.table.phase
        if phase is Phase.OVER:
            return True
        hand_done = phase is Phase.DEAL and not self.order and self.table.hand_number >= 1
        return hand_done and (self.scope == "hand" or self.table.hand_number >= self.max_hands)

    def truncated(self) -> bool:
        """A match ended by ``max_hands`` undecided (never so for a hand)."""
        return self.is_terminal() and self.scope == "match" and self.table.phase is not Phase.OVER

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        if self.scope == "hand":
            return [-float(points) for points in self.model.hand_scores[-1]]
        outcome = GAME.outcome(self.model)
        if outcome is None:
            return [0.0, 0.0]
        return [1.0 if outcome.winner.index == seat.index else -1.0 for seat in SEATS]

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        return self.table.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.table.phase is Phase.CHOOSE_DEALER:
            return [(seat.index, 1.0 / PLAYERS) for seat in SEATS]
        dealt = frozenset(self.order)
        left = [i for i, card in enumerate(DECK) if card not in dealt]
        return [(i, 1.0 / len(left)) for i in left]

    def _apply_action(self, action: int) -> None:
        phase = self.table.phase
        if phase is Phase.CHOOSE_DEALER:
            self.table.choose_dealer(action)
            self._saw(None, f"p{action} deals first")
        elif phase is Phase.DEAL:
            self._deal(DECK[action])
        else:
            self._play(DECK[action])

    def _deal(self, card: Card) -> None:
        """One card of the deal; with the last one, the model's Deal of the whole order."""
        if card in self.order:
            raise ValueError(f"{card} has already been dealt")
        self.order += (card,)
        if len(self.order) < CARDS:
            return
        self.table.deal(self.order)
        self.order = ()
        model = self.model
        self.dealt = model.hands
        self.played, self.last_trick, self.plays = (frozenset(), frozenset()), frozenset(), ()
        assert model.dealer is not None
        self._saw(None, f"hand {model.hand_number}, p{model.dealer.index} deals")
        for seat in SEATS:
            cards = format_cards(sorted(self.dealt[seat.index]), False)
            self._saw(seat.index, f"p{seat.index} is dealt {cards}")

    def _play(self, card: Card) -> None:
        seat = self.table.to_move
        assert seat is not None
        lead = self.plays[-1] if len(self.plays) % PLAYERS else None  # this hand's plays: an odd one leads
        self.table.play(seat, card)  # an illegal card raises the model's error
        self.played = tuple(cards | {card} if i == seat else cards for i, cards in enumerate(self.played))
        self.plays += (card,)
        if lead is not None:
            self.last_trick = frozenset((lead, card))
        self._saw(None, f"p{seat} plays {card}")
        if self.table.phase is not Phase.PLAY:
            scores = self.model.hand_scores[-1]
            self._saw(None, f"hand scores {scores[0]}-{scores[1]}")

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE and self.table.phase is Phase.CHOOSE_DEALER:
            return f"p{action} deals"
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {DECK[action]}"
        return f"p{player} plays {DECK[action]}"

    def __str__(self) -> str:
        model = self.model
        hands = " | ".join(f"p{s.index}: {format_cards(sorted(model.hands[s.index]), False)}" for s in SEATS)
        trick = format_cards((play.card for play in model.trick), False) or "-"
        return (f"hand {model.hand_number} scores {model.scores[0]}-{model.scores[1]} | {hands} | trick {trick}"
                f" | dead {format_cards(model.dead, False) or '-'}")


class HeartsObserver(_common.Observer):
    """The information state (``perfect_recall``) or the observation of a player (module documentation)."""

    def __init__(self, iig_obs_type: Any, params: Any) -> None:
        super().__init__(SHORT_NAME, iig_obs_type, params, OBSERVATION,
                         [("dealt", CARDS), ("plays", PLAYS_PER_HAND * CARDS)])
        if self.perfect_recall:
            self.dict["plays"] = self.dict["plays"].reshape(PLAYS_PER_HAND, CARDS)

    def set_from(self, state: HeartsState, player: int) -> None:
        self.tensor[:OBSERVATION_SIZE] = state.table.observation(player, state.played, state.last_trick)
        if self.perfect_recall:
            self.tensor[OBSERVATION_SIZE:] = 0.0
            self.dict["dealt"][[_INDEX[card] for card in state.dealt[player]]] = 1.0
            for row, card in enumerate(state.plays):
                self.dict["plays"][row, _INDEX[card]] = 1.0

    def string_from(self, state: HeartsState, player: int) -> str:
        if self.perfect_recall:
            return f"p{player}: {state.seen[player]}"
        model = state.model
        hand = format_cards(sorted(model.hands[player]), False) or "-"
        trick = format_cards((play.card for play in model.trick), False) or "-"
        broken = "broken" if model.hearts_broken else "not broken"
        return (f"p{player} hand {model.hand_number}: holds {hand}; trick {trick}; hearts {broken}; "
                f"scores {model.scores[player]}-{model.scores[1 - player]}")


pyspiel.register_game(_GAME_TYPE, HeartsGame)
