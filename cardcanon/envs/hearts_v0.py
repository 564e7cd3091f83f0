"""Two-player Hearts as a PettingZoo AEC environment.

``env(**kwargs)`` is the environment with PettingZoo's usual wrappers; ``raw_env`` is the bare
class. Agents ``player_0`` and ``player_1`` are ``Seat(0)`` and ``Seat(1)``. An episode is one
match of the reference model (:mod:`cardcanon.model.hearts`): the environment makes the chance
moves (the first dealer, then one shuffle per hand) from ``SplitMix64(seed)`` exactly as
``play_match`` does, so the same seed and the same plays give the same match.

**Actions**: ``Discrete(28)``, the index of a card in the 28-card deck ``hearts.DECK`` of the
model (:func:`card_of_action`, :func:`action_of_card`). ``action_mask`` marks the reference model's
legal plays; it is all zeros for the agent not to move.

**Observations**: ``{"observation": float32 vector, "action_mask": int8 vector}``. The vector
is the concatenation of :data:`OBSERVATION`, each part seen from the observing player: his
hand, the card on the current trick, the cards each player has played this hand, the cards
each has taken this hand, the last trick completed in this hand, whether hearts are broken, whether he
leads, whether this is the first trick of the hand, whether he dealt, and the two match scores
(his first). The other hand and the two dead cards (HEARTS-DEAL-2) are never shown.

**Rewards**: at the end of the match (HEARTS-MATCH-1/2), +1 to the winner and -1 to the loser
(HEARTS-GOAL-1); 0 on every other step. A match has no cap on the number of hands
(HEARTS-MATCH-3); ``max_steps`` truncates an episode after that many plays if given.

**Keyword arguments**: ``render_mode`` (``"ansi"`` or ``"human"``), ``max_steps``, and every
variation point of the rulebook, by parameter name, with option strings:

"""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo import AECEnv

from cardcanon.envs import options as variations
from cardcanon.envs._common import CardGameEnv, wrap
from cardcanon.model.cards import Card, format_cards
from cardcanon.model.hearts import DECK, GAME, HeartsConfig, HeartsState, Move, Play
from cardcanon.model.seats import Seat

CARDS = len(DECK)
#: The parts of the observation vector, in order, with their lengths.
OBSERVATION: tuple[tuple[str, int], ...] = (
    ("hand", CARDS), ("trick", CARDS), ("played_by_me", CARDS), ("played_by_opponent", CARDS),
    ("taken_by_me", CARDS), ("taken_by_opponent", CARDS), ("last_trick", CARDS),
    ("hearts_broken", 1), ("leading", 1), ("first_trick", 1), ("dealer", 1), ("scores", 2),
)
OBSERVATION_SIZE = sum(size for _, size in OBSERVATION)
_INDEX = {card: i for i, card in enumerate(DECK)}


def card_of_action(action: int) -> Card:
    """The card an action plays."""
    return DECK[action]


def action_of_card(card: Card) -> int:
    """The action that plays ``card``."""
    index = _INDEX.get(card)
    if index is None:
        raise ValueError(f"{card} is not a card of the 28-card deck (HEARTS-DECK-1)")
    return index


def env(**kwargs: Any) -> AECEnv:
    """The wrapped environment (an illegal action ends the game with reward -1 for its agent)."""
    return wrap(raw_env(**kwargs))


class raw_env(CardGameEnv):
    metadata: dict[str, Any] = {
        "name": "cardcanon_hearts_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False,
    }

    def __init__(self, render_mode: str | None = None, max_steps: int | None = None, **kwargs: Any) -> None:
        super().__init__()
        chosen = self._options("hearts", kwargs, render_mode, max_steps)
        self.config = variations.build_config(HeartsConfig, chosen)
        high = np.concatenate([np.full(size, np.inf if name == "scores" else 1, dtype=np.float32)
                               for name, size in OBSERVATION])  # scores are points, the rest are flags
        self._spaces(2, high, CARDS)

    # ---- episode --------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._begin_episode(seed)
        self.state: HeartsState = GAME.new_game(self.config)
        self.moves: list[Move] = []  # every move of the match, chance moves included
        self._played: list[frozenset[Card]] = [frozenset(), frozenset()]  # the cards each seat played this hand
        self._last_trick: frozenset[Card] = frozenset()
        self._chance()
        self._reset_agents()
        self.agent_selection = self._to_move()

    def _to_move(self) -> str:
        seat = self.state.to_move
        assert seat is not None, "the model names the player to move until the match is over"
        return str(self.possible_agents[seat.index])

    def _apply(self, move: Move) -> None:
        self.state = GAME.apply(self.state, move)
        self.moves.append(move)

    def _chance(self) -> None:
        """Make the chance moves due now, drawn from the episode's stream as the model draws them."""
        while self.state.is_chance:
            self._apply(GAME.sample_chance(self.state, self._rng))
            self._played, self._last_trick = [frozenset(), frozenset()], frozenset()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        chosen = self._live_action(action)
        if chosen is None:
            return
        seat, card = self.agent_name_mapping[agent], DECK[chosen]
        lead = self.state.trick[0].card if self.state.trick else None
        self._apply(Play(Seat(seat), card))  # an illegal play raises the model's IllegalMoveError
        self.steps += 1
        self._played[seat] |= {card}
        if lead is not None:
            self._last_trick = frozenset((lead, card))
        self._chance()
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        outcome = GAME.outcome(self.state)
        if outcome is not None:  # HEARTS-MATCH-1/2, HEARTS-GOAL-1
            for name, i in self.agent_name_mapping.items():
                self.rewards[name] = 1 if outcome.winner.index == i else -1
                self.terminations[name] = True
        elif self.max_steps is not None and self.steps >= self.max_steps:
            self.truncations = {name: True for name in self.agents}
        if outcome is None:
            self.agent_selection = self._to_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # ---- what each player sees ---------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        s = self.agent_name_mapping[agent]
        state = self.state
        shown = (
            state.hands[s], [play.card for play in state.trick], self._played[s], self._played[1 - s],
            state.taken[s], state.taken[1 - s], self._last_trick,
        )
        cards = np.zeros((len(shown), CARDS), dtype=np.float32)
        for row, part in enumerate(shown):
            cards[row, [_INDEX[card] for card in part]] = 1.0
        to_move = state.to_move is not None and state.to_move.index == s
        flags = (
            state.hearts_broken, to_move and not state.trick, state.tricks_played == 0 and state.to_move is not None,
            state.dealer is not None and state.dealer.index == s, state.scores[s], state.scores[1 - s],
        )
        observation = np.concatenate([cards.ravel(), np.array(flags, dtype=np.float32)])
        return {"observation": observation, "action_mask": self.action_mask(agent)}

    def action_mask(self, agent: str) -> np.ndarray:
        """1 at the action of each legal play of ``agent`` (none when he is not to move)."""
        mask = np.zeros(CARDS, dtype=np.int8)
        seat = self.state.to_move
        if seat is not None and seat.index == self.agent_name_mapping[agent] and not self._ended():
            for move in GAME.legal_moves(self.state):
                if isinstance(move, Play):
                    mask[_INDEX[move.card]] = 1
        return mask

    def _ended(self) -> bool:
        return any(self.terminations.values()) or any(self.truncations.values())

    # ---- rendering ---------------------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        state = self.state
        lines = [f"hand {state.hand_number}, scores {state.scores[0]}-{state.scores[1]}, "
                 f"hearts {'broken' if state.hearts_broken else 'not broken'}"]
        for agent, i in self.agent_name_mapping.items():
            mark = "*" if state.to_move is not None and state.to_move.index == i else " "
            lines.append(f"{mark}{agent}: {format_cards(sorted(state.hands[i]))}")
        lines.append(f" trick: {format_cards(play.card for play in state.trick) or '-'}")
        return self._show("\n".join(lines))


raw_env.__doc__ = __doc__ + variations.describe("hearts", HeartsConfig)
