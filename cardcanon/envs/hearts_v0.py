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

**Engine**: the compiled kernel (``cardcanon.engine.steps``) plays the episode; where it is
unavailable or cannot play the config, ``EngineUnavailable`` says why. ``engine="model"`` chooses
the reference model, ``engine="kernel-or-model"`` the kernel where it can play and the model
elsewhere. Both give the same episodes, observation for observation (``tests/test_env_engine.py``).
``metadata["engine"]`` says which one runs (``"kernel"`` or ``"model"``) and
``metadata["engine_note"]`` why the model does. ``moves`` and ``state``
are the model's in both cases (with the kernel they are rebuilt on demand, slowly).
:func:`vector_env` steps many matches in one call.

**Keyword arguments**: ``render_mode`` (``"ansi"`` or ``"human"``), ``max_steps``, ``engine``, and
every variation point of the rulebook, by parameter name, with option strings:

"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from pettingzoo import AECEnv

from cardcanon.envs import options as variations
from cardcanon.engine.steps import HeartsSteps, HeartsVector
from cardcanon.envs._common import CardGameEnv, VectorEnv, check_num_envs, wrap
from cardcanon.envs._engine import choose_engine
from cardcanon.model.cards import Card, format_cards
from cardcanon.model.hearts import DECK, GAME, ChooseDealer, Deal, HeartsConfig, HeartsState, Move, Play
from cardcanon.model.hearts_types import HAND_SIZE, PLAYERS
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


def observation_of(state: HeartsState, s: int, played: Sequence[frozenset[Card]],
                   last_trick: frozenset[Card]) -> np.ndarray:
    """Seat ``s``'s observation vector (:data:`OBSERVATION`) of the model's ``state``, given the cards
    each seat played this hand and the last trick completed in it (which the state does not keep)."""
    shown = (
        state.hands[s], [play.card for play in state.trick], played[s], played[1 - s],
        state.taken[s], state.taken[1 - s], last_trick,
    )
    cards = np.zeros((len(shown), CARDS), dtype=np.float32)
    for row, part in enumerate(shown):
        cards[row, [_INDEX[card] for card in part]] = 1.0
    to_move = state.to_move is not None and state.to_move.index == s
    flags = (
        state.hearts_broken, to_move and not state.trick, state.tricks_played == 0 and state.to_move is not None,
        state.dealer is not None and state.dealer.index == s, state.scores[s], state.scores[1 - s],
    )
    return np.concatenate([cards.ravel(), np.array(flags, dtype=np.float32)])


def env(**kwargs: Any) -> AECEnv:
    """The wrapped environment (an illegal action ends the game with reward -1 for its agent)."""
    return wrap(raw_env(**kwargs))


def vector_env(n: int, seed: int | None = 0, copy: bool = True, **kwargs: Any) -> HeartsVectorEnv:
    """``n`` matches stepped together by the kernel, a Gymnasium vector environment (see :class:`HeartsVectorEnv`)."""
    return HeartsVectorEnv(n, seed, copy, **kwargs)


class raw_env(CardGameEnv):
    metadata: dict[str, Any] = {
        "name": "cardcanon_hearts_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False,
    }

    def __init__(self, render_mode: str | None = None, max_steps: int | None = None, engine: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__()
        chosen = self._options("hearts", kwargs, render_mode, max_steps)
        self.config = variations.build_config(HeartsConfig, chosen)
        high = np.concatenate([np.full(size, np.inf if name == "scores" else 1, dtype=np.float32)
                               for name, size in OBSERVATION])  # scores are points, the rest are flags
        self._spaces(2, high, CARDS)
        self._kernel = choose_engine(self, engine, lambda: HeartsSteps(self.config))

    # ---- episode --------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._begin_episode(seed)
        self._state: HeartsState | None = None
        self._played: list[frozenset[Card]] = [frozenset(), frozenset()]  # the cards each seat played this hand
        self._last_trick: frozenset[Card] = frozenset()
        if self._kernel is not None:
            self._kernel.reset(self.episode_seed)
            self._log = _KernelLog(int(self._kernel.view[3]), [self._kernel.deal()], [])
            self._moves: list[Move] | None = None
        else:
            self._state = GAME.new_game(self.config)
            self._moves = []  # every move of the match, chance moves included
            self._chance()
        self._reset_agents()
        self.agent_selection = self._to_move()

    @property
    def state(self) -> HeartsState:
        """The match position, as the model's state (rebuilt from the moves when the kernel plays)."""
        if self._state is None:
            self._state = self._log.state(self.config)
        return self._state

    @state.setter
    def state(self, value: HeartsState) -> None:
        if self._kernel is not None:
            raise AttributeError("the kernel plays this episode; its state cannot be set (use engine='model')")
        self._state = value

    @property
    def moves(self) -> list[Move]:
        """Every move of the match so far, chance moves included, as the model's moves."""
        if self._moves is None:
            return self._log.moves()
        return self._moves

    def _to_move(self) -> str:
        seat = self._kernel.view[0] if self._kernel is not None else _index(self.state.to_move)
        assert seat >= 0, "the model names the player to move until the match is over"
        return str(self.possible_agents[seat])

    def _apply(self, move: Move) -> None:
        self._state = GAME.apply(self.state, move)
        assert self._moves is not None
        self._moves.append(move)

    def _chance(self) -> None:
        """Make the chance moves due now, drawn from the episode's stream as the model draws them."""
        while self.state.is_chance:
            self._apply(GAME.sample_chance(self.state, self._rng))
            self._played, self._last_trick = [frozenset(), frozenset()], frozenset()

    def _play(self, seat: int, chosen: int) -> Seat | None:
        """Play card ``chosen`` for ``seat`` and the chance moves after it: the winner if the match is over."""
        if self._kernel is not None:
            code = self._kernel.step(chosen)
            if code < 0:
                GAME.apply(self.state, Play(Seat(seat), DECK[chosen]))  # raises the model's IllegalMoveError
                raise AssertionError(f"the kernel refused a play the model allows: {DECK[chosen]}")
            self._state = None
            self._log.plays.append(seat << 5 | chosen)
            if code == 2:
                self._log.deals.append(self._kernel.deal())
            return Seat(self._kernel.view[2]) if code == 1 else None
        card = DECK[chosen]
        lead = self.state.trick[0].card if self.state.trick else None
        self._apply(Play(Seat(seat), card))  # an illegal play raises the model's IllegalMoveError
        self._played[seat] |= {card}
        if lead is not None:
            self._last_trick = frozenset((lead, card))
        self._chance()
        outcome = GAME.outcome(self.state)
        return None if outcome is None else outcome.winner

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        chosen = self._live_action(action)
        if chosen is None:
            return
        winner = self._play(self.agent_name_mapping[agent], chosen)
        self.steps += 1
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        if winner is not None:  # HEARTS-MATCH-1/2, HEARTS-GOAL-1
            for name, i in self.agent_name_mapping.items():
                self.rewards[name] = 1 if winner.index == i else -1
                self.terminations[name] = True
        else:
            if self.max_steps is not None and self.steps >= self.max_steps:
                self.truncations = {name: True for name in self.agents}
            self.agent_selection = self._to_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # ---- what each player sees ---------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        s = self.agent_name_mapping[agent]
        if self._kernel is not None:
            observation, mask = self._kernel.observe(s)
            if self._ended():
                mask[:] = 0
            return {"observation": observation, "action_mask": mask}
        observation = observation_of(self.state, s, self._played, self._last_trick)
        return {"observation": observation, "action_mask": self.action_mask(agent)}

    def action_mask(self, agent: str) -> np.ndarray:
        """1 at the action of each legal play of ``agent`` (none when he is not to move)."""
        if self._kernel is not None:
            return self.observe(agent)["action_mask"]
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


class _KernelLog:
    """The moves of a match the kernel plays, kept as numbers: the first dealer, each deal's order,
    and every play as ``seat << 5 | card``."""

    def __init__(self, dealer: int, deals: list[bytes], plays: list[int]) -> None:
        self.dealer, self.deals, self.plays = dealer, deals, plays
        self._moves: list[Move] = [ChooseDealer(Seat(dealer))]  # the moves built so far
        self._built = (0, 0)  # deals and plays in _moves
        self._state: tuple[int, HeartsState] | None = None  # a model state and the moves it has seen

    def moves(self) -> list[Move]:
        """The model's moves (built on demand from where the last call stopped)."""
        per_hand = PLAYERS * HAND_SIZE
        deals, plays = self._built
        while plays < len(self.plays) or deals < len(self.deals):
            if deals < len(self.deals) and plays == deals * per_hand:
                self._moves.append(Deal(tuple(DECK[i] for i in self.deals[deals])))
                deals += 1
            else:
                p = self.plays[plays]
                self._moves.append(Play(Seat(p >> 5), DECK[p & 31]))
                plays += 1
        self._built = (deals, plays)
        return list(self._moves)

    def state(self, config: HeartsConfig) -> HeartsState:
        """The model's state after the moves (the moves since the last call applied to its state)."""
        moves = self.moves()
        done, state = self._state or (0, GAME.new_game(config))
        for move in moves[done:]:
            state = GAME.apply(state, move)
        self._state = (len(moves), state)
        return state


def _index(seat: Seat | None) -> int:
    return -1 if seat is None else seat.index


class HeartsVectorEnv(VectorEnv):
    """``n`` matches of two-player Hearts stepped together by the compiled kernel, for learners that
    train on batches: a Gymnasium vector environment (``gymnasium.vector.VectorEnv``).

    - ``obs, infos = v.reset(seed=None, options=None)``; ``obs, rewards, terminations, truncations,
      infos = v.step(actions)``, ``actions`` one card index per match (whole numbers; anything else,
      or an illegal card, is refused with one line, and nothing is played);
    - ``obs`` is ``{"observation": (n, OBSERVATION_SIZE) float32, "action_mask": (n, 28) int8}``: those
      of the player to move in each match, as ``raw_env.observe`` gives them
      (``single_observation_space``, ``observation_space``; ``single_action_space`` is
      ``Discrete(28)``, ``action_space`` ``MultiDiscrete``);
    - ``rewards`` (n,) float32: the reward of the player who played the step (+1 or -1 when the match
      ends, HEARTS-GOAL-1; else 0); ``infos["rewards"]`` (n, 2) has both seats'. ``terminations``
      (n,) bool: the matches that ended; ``truncations``: none (a match has no cap, HEARTS-MATCH-3);
    - ``infos`` also holds ``action_mask`` and ``to_move`` (n,) int32;
    - autoreset: ``metadata["autoreset_mode"]`` is ``SAME_STEP``: a match that ends restarts in the
      same step, seeded by the next number of its own stream, and its final observation (of the player
      who made the last play) is ``infos["final_obs"][i]`` (``infos["_final_obs"]`` marks them);
    - the arrays returned are fresh each step (``copy=False`` returns the environment's own
      buffers, overwritten by the next step, as Gymnasium's ``copy`` option does).

    Match ``i`` after ``reset(seed=s)`` is the episodes of ``raw_env`` after ``reset(seed=s + i)`` and
    unseeded resets, played by the same cards. ``n`` is at most ``MAX_ENVS`` (262144) and a seed a
    whole number from 0 to 2**64 - 1. Needs the kernel: raises ``EngineUnavailable`` without it.
    """

    metadata: dict[str, Any] = {"name": "cardcanon_hearts_v0_vector", "engine": "kernel"}
    _unit = "match"
    _env = "hearts_v0"
    _vector: HeartsVector

    def __init__(self, n: int, seed: int | None = 0, copy: bool = True, **kwargs: Any) -> None:
        n = check_num_envs(n, "hearts_v0.vector_env")
        chosen, unknown = variations.split_options("hearts", kwargs)
        if unknown:
            raise TypeError(f"hearts_v0.vector_env: unknown keyword arguments {', '.join(sorted(unknown))}")
        self.config = variations.build_config(HeartsConfig, chosen)
        self._vector = HeartsVector(n, self.config)
        high = raw_env(engine="model").observation_space("player_0")
        self._begin(n, seed, high, CARDS, copy)

    @property
    def dones(self) -> np.ndarray:
        return self._vector.dones.view(np.bool_)

    @property
    def terminations(self) -> np.ndarray:
        return self.dones

    @property
    def truncations(self) -> np.ndarray:
        return np.zeros(self.n, dtype=np.bool_)


raw_env.__doc__ = __doc__ + variations.describe("hearts", HeartsConfig)
