"""Snap (2 to 12 players) as a PettingZoo AEC environment.

``env(**kwargs)`` is the environment with PettingZoo's usual wrappers; ``raw_env`` is the bare
class. Agents ``player_0`` ... are ``Seat(0)`` ... (``players`` of them, SNAP-PLAYERS-1). An
episode is one game of the reference model (:mod:`cardcanon.model.snap`): the environment deals
from ``SplitMix64(seed)`` (dealer, then the shuffle) exactly as ``play_game`` does, so the same
seed and the same call events give the same game.

**Turns**: the player to flip (SNAP-TURN-1/2) steps with ``FLIP``, the only legal action. Then
the call window opens (SNAP-CALL-3): every player still in the game (SNAP-CALL-2) steps once, in
seat order clockwise from the flipper, the flipper first, choosing ``PASS`` or a call that exists
at this table ("Snap!", "Snap Pot!", or a hand on the index card, SNAP-INDEX-1). An agent does
not see the others' choices, and the order of the steps decides nothing: the calls are settled
as SNAP-CALL-3 settles calls made at the same instant (a correct call beats wrong calls; of wrong
calls only, the one nearest the flipper counts), and ``calling_policy`` says who is fastest
among the correct callers (``flipper-first`` by default: the one nearest the flipper clockwise),
as :mod:`cardcanon.envs.snap_race` describes. The window's one call event is applied by the model.

**Actions**: ``Discrete(5)``, :class:`SnapAction`. ``action_mask`` marks exactly the reference
model's legal moves for the agent to step: ``FLIP`` when it is his flip, ``PASS`` and one action
per call ``Call(him, kind)`` that the model lists (wrong calls are legal, SNAP-PEN-1); all zeros
for the other agents.

**Observations**: ``{"observation": float32 vector, "action_mask": int8 vector}``, the parts of
:func:`observation_parts` in order. Seats are listed from the observer, then clockwise. Shown:
the phase (flip or call window), who flips or just flipped, the dealer, who is still in the game,
the size of every face-down and face-up pile, the visible top card of every face-up pile, and
the Snap Pot's size and top card. Never shown: any face-down card (his own included), cards
under the top of a face-up pile or of the pot, and the other agents' pending calls.

**Rewards**: -1 to a player when he goes out (SNAP-OUT-1), +1 to the winner when the game ends
(SNAP-END-1, SNAP-END-2); a draw (SNAP-END-3) gives 0 to those going out with it.

**Endless games** (SNAP-END-4): with ``truncate_on_repeat`` (default), an episode is truncated
when a position (every pile, the Snap Pot and whose turn it is) recurs before a flip: the
repetition by which the model reports a game endless under a deterministic calling policy, and
at which the rule lets the players stop and call the game drawn. Agents that call differently
the second time round could still end the game; the truncation is the players' agreement to
stop, not a proof. ``max_steps`` truncates an episode at the first flip after that many steps.

**Engine**: the compiled kernel (``cardcanon.engine.steps``) plays the episode; where it is
unavailable or cannot play the config, ``EngineUnavailable`` says why. ``engine="model"`` chooses
the reference model, ``engine="kernel-or-model"`` the kernel where it can play and the model
elsewhere, with the same episodes, observation for observation (``tests/test_env_engine.py``).
``metadata["engine"]`` says which (``"kernel"`` or ``"model"``, with ``metadata["engine_note"]``
saying why). ``state`` is the model's in both cases (rebuilt on demand with the kernel).
:func:`vector_env` steps many games in one call.

**Keyword arguments**: ``engine``, ``players`` (2 to 12), ``calling_policy`` (``"flipper-first"``,
``"owner-first"`` or ``"ties:RATE"``), ``truncate_on_repeat``, ``max_steps``, ``render_mode``
(``"ansi"`` or ``"human"``), and every variation point of the rulebook, by parameter name, with
option strings (options the model does not play are refused, naming the rule):

"""

from __future__ import annotations

import enum
from typing import Any

import numpy as np
from pettingzoo import AECEnv

from cardcanon.envs import options as variations
from cardcanon.engine.steps import SNAP_PHASES, SnapSteps, snap_event
from cardcanon.engine.vector import SnapVector
from cardcanon.envs._common import CardGameEnv, VectorEnv, check_max_steps, check_num_envs, wrap
from cardcanon.envs._engine import choose_engine
from cardcanon.envs.snap_race import call_event, callers_in_order, race_policy
from cardcanon.model.cards import FULL_DECK, Card
from cardcanon.model.errors import IllegalMoveError
from cardcanon.model.seats import Seat
from cardcanon.model.snap import (
    GAME, Call, CallKind, Deal, Flip, Move, NoCall, Phase, SnapConfig, SnapState, Termination,
)

CARDS = len(FULL_DECK)


class SnapAction(enum.IntEnum):
    """The actions: flip, pass (no call), or one of the three calls."""

    FLIP = 0
    PASS = 1
    SNAP = 2
    SNAP_POT = 3
    HAND = 4


KIND_OF_ACTION = {SnapAction.SNAP: CallKind.SNAP, SnapAction.SNAP_POT: CallKind.SNAP_POT,
                  SnapAction.HAND: CallKind.HAND}


def observation_parts(players: int) -> tuple[tuple[str, int], ...]:
    """The parts of the observation vector, in order, with their lengths."""
    n = players
    return (
        ("flip_phase", 1), ("call_window", 1), ("turn", n), ("dealer", n), ("in_game", n),
        ("face_down_sizes", n), ("face_up_sizes", n), ("face_up_tops", n * CARDS),
        ("pot_size", 1), ("pot_top", CARDS),
    )


def observation_of(state: SnapState, me: int) -> np.ndarray:
    """Seat ``me``'s observation vector (:func:`observation_parts`) of the model's ``state``."""
    n = state.config.players
    seats = [(me + k) % n for k in range(n)]  # from the observer, clockwise

    def one_hot(seat: Seat | None) -> list[float]:
        return [1.0 if seat is not None and seat.index == s else 0.0 for s in seats]

    tops = np.zeros((n, CARDS), dtype=np.float32)
    for row, s in enumerate(seats):
        if state.up[s]:
            tops[row, state.up[s][0].index] = 1.0
    pot_top = np.zeros(CARDS, dtype=np.float32)
    if state.pot:
        pot_top[state.pot[0].index] = 1.0
    head = [float(state.phase is Phase.FLIP), float(state.phase is Phase.CALL)]
    head += one_hot(state.turn) + one_hot(state.dealer)
    head += [float(bool(state.down[s] or state.up[s])) for s in seats]  # SnapState.holds
    head += [float(len(state.down[s])) for s in seats] + [float(len(state.up[s])) for s in seats]
    return np.concatenate([np.array(head, dtype=np.float32), tops.ravel(),
                           np.array([len(state.pot)], dtype=np.float32), pot_top])


def env(**kwargs: Any) -> AECEnv:
    """The wrapped environment (an illegal action ends the game with reward -1 for its agent)."""
    return wrap(raw_env(**kwargs))


def vector_env(n: int, seed: int | None = 0, copy: bool = True, **kwargs: Any) -> SnapVectorEnv:
    """``n`` games stepped together by the kernel, a Gymnasium vector environment (see :class:`SnapVectorEnv`)."""
    return SnapVectorEnv(n, seed, copy, **kwargs)


class raw_env(CardGameEnv):
    metadata: dict[str, Any] = {
        "name": "cardcanon_snap_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False,
    }

    def __init__(self, players: int = 2, calling_policy: str = "flipper-first", truncate_on_repeat: bool = True,
                 max_steps: int | None = 10_000, render_mode: str | None = None, engine: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__()
        chosen = self._options("snap", kwargs, render_mode, max_steps)
        self.config = variations.build_config(SnapConfig, chosen, players=players)
        self.policy = race_policy(calling_policy)
        self.truncate_on_repeat = bool(truncate_on_repeat)
        n = self.config.players
        high = np.concatenate([np.full(length, CARDS if "size" in name else 1, dtype=np.float32)
                               for name, length in observation_parts(n)])  # sizes count cards, the rest are flags
        self._spaces(n, high, len(SnapAction))
        self._kernel = choose_engine(self, engine, lambda: SnapSteps(self.config, self.policy))

    # ---- episode --------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._begin_episode(seed)
        self._state: SnapState | None = GAME.new_game(self.config)
        self.moves: list[Move] = []  # every move of the game: the deal, flips and call events
        self._replayed: tuple[int, SnapState] | None = None  # with the kernel: a model state and its moves
        self._seen: dict[Any, int] = {}
        self._flips = 0
        self._legal: tuple[SnapState | None, frozenset[Move]] = (None, frozenset())
        self._window: tuple[Seat, ...] = ()  # who decides in the open call window, in step order
        self._calls: dict[Seat, CallKind | None] = {}  # their decisions so far
        if self._kernel is not None:  # SNAP-DEAL-1, SNAP-DEAL-2
            dealer, order = self._kernel.reset(self.episode_seed)
            self.moves.append(Deal(Seat(dealer), tuple(Card.from_index(i) for i in order)))
            self._state = None
        else:
            self._apply(GAME.sample_chance(self.state, self._rng))
        self._reset_agents()
        self._start_flip()

    @property
    def state(self) -> SnapState:
        """The position, as the model's state (rebuilt from the moves when the kernel plays)."""
        if self._state is None:
            done, state = self._replayed or (0, GAME.new_game(self.config))
            for move in self.moves[done:]:
                state = GAME.apply(state, move)
            self._replayed = (len(self.moves), state)
            return state
        return self._state

    @state.setter
    def state(self, value: SnapState) -> None:
        if self._kernel is not None:
            raise AttributeError("the kernel plays this episode; its state cannot be set (use engine='model')")
        self._state = value

    def _apply(self, move: Move) -> None:
        self._state = GAME.apply(self.state, move)
        self.moves.append(move)

    def _agent(self, seat: Seat | int) -> str:
        return self.possible_agents[seat if isinstance(seat, int) else seat.index]

    def _phase(self) -> Phase:
        if self._kernel is not None:
            return SNAP_PHASES[self._kernel.view[0]]
        return self.state.phase

    def _holds(self, seat: int) -> bool:
        if self._kernel is not None:
            return bool(self._kernel.view[2] >> seat & 1)
        return self.state.holds(Seat(seat))

    def _start_flip(self) -> None:
        """Before each flip: truncate a repeated position (SNAP-END-4) or a capped episode."""
        if self._kernel is not None:
            key: Any = self._kernel.position_key()
            turn = self._kernel.view[1] if self._kernel.view[0] == 0 else None
        else:
            key, turn = self.state.position_key(), _index(self.state.turn)
        repeated = self.truncate_on_repeat and key in self._seen
        self._seen.setdefault(key, self._flips)
        if repeated or (self.max_steps is not None and self.steps >= self.max_steps):
            self.truncations = {agent: True for agent in self.agents}
        assert turn is not None, "a game that goes on has a player to flip"
        self.agent_selection = self._agent(turn)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        chosen = self._live_action(action)
        if chosen is None:
            return
        seat = Seat(self.agent_name_mapping[agent])
        action = SnapAction(chosen)
        if not self.action_mask(agent)[action]:
            GAME.apply(self.state, self._move_of(seat, action))  # the model names the broken rule
            raise IllegalMoveError("SNAP-CALL-3", f"{agent} may not {action.name} now")
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        self.steps += 1
        if self._phase() is Phase.FLIP:  # SNAP-FLIP-1; the call window opens (SNAP-CALL-3)
            self._flip(seat)
            self.agent_selection = self._agent(self._window[0])
        else:
            self._calls[seat] = KIND_OF_ACTION.get(action)
            if len(self._calls) < len(self._window):
                self.agent_selection = self._agent(self._window[len(self._calls)])
            else:
                self._settle()
                self._after_call_event()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _flip(self, seat: Seat) -> None:
        self._flips += 1
        self._calls = {}
        if self._kernel is None:
            self._apply(Flip(seat))
            self._window = callers_in_order(self.state)
            return
        self._kernel.flip()
        self._state = None
        self.moves.append(Flip(seat))
        n = self.config.players
        self._window = tuple(Seat((seat.index + k) % n) for k in range(n) if self._holds((seat.index + k) % n))

    def _settle(self) -> None:
        """The window's one call event (:mod:`cardcanon.envs.snap_race`), applied."""
        if self._kernel is None:
            self._apply(call_event(self.state, self._calls, self.policy, self._rng))
            return
        codes = self._kernel.settle({seat.index: call for seat, call in self._calls.items()})
        self._state = None
        self.moves.append(snap_event(self.config.players, *codes))

    def _outcome(self) -> tuple[bool, bool]:
        """Whether the game is over, and whether as a draw (SNAP-END-3)."""
        if self._kernel is not None:
            return self._kernel.view[0] == 2, self._kernel.view[4] == _NO_CARDS
        outcome = GAME.outcome(self.state)
        return outcome is not None, outcome is not None and outcome.termination is Termination.NO_CARDS

    def _after_call_event(self) -> None:
        """Players out (SNAP-OUT-1) and the end (SNAP-END-1/2/3), else the next flip."""
        over, draw = self._outcome()
        gone = [agent for agent in self.agents
                if not self.terminations[agent] and not self._holds(self.agent_name_mapping[agent])]
        for agent in gone:
            self.rewards[agent] = 0 if draw else -1
            self.terminations[agent] = True
        if over:
            for agent in self.agents:
                if not self.terminations[agent]:
                    self.rewards[agent] = 1
                    self.terminations[agent] = True
            return
        self._start_flip()
        if gone:
            self._deads_step_first()

    def _move_of(self, seat: Seat, action: SnapAction) -> Move:
        if action is SnapAction.FLIP:
            return Flip(seat)
        if action is SnapAction.PASS:
            return NoCall()
        return Call(seat, KIND_OF_ACTION[action])

    # ---- what each player sees ---------------------------------------------------------------
    def _legal_moves(self) -> frozenset[Move]:
        if self._legal[0] is not self.state:
            self._legal = (self.state, frozenset(GAME.legal_moves(self.state)))
        return self._legal[1]

    def action_mask(self, agent: str) -> np.ndarray:
        """1 at each action standing for a legal move of ``agent``'s step (none when he is not to step)."""
        mask = np.zeros(len(SnapAction), dtype=np.int8)
        if agent != self.agent_selection or self.terminations[agent] or self.truncations[agent]:
            return mask
        seat = Seat(self.agent_name_mapping[agent])
        if self._kernel is not None:  # the model's legal moves of this step (SNAP-CALL-2, SNAP-INDEX-1)
            if self._phase() is Phase.FLIP:
                mask[SnapAction.FLIP] = 1
            elif self._phase() is Phase.CALL and self._holds(seat.index):
                mask[SnapAction.PASS] = 1
                for action, kind in KIND_OF_ACTION.items():
                    mask[action] = kind in self.config.kinds
            return mask
        legal = self._legal_moves()
        for action in SnapAction:
            mask[action] = self._move_of(seat, action) in legal
        return mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        me = self.agent_name_mapping[agent]
        if self._kernel is not None:
            return {"observation": self._kernel.observe(me), "action_mask": self.action_mask(agent)}
        observation = observation_of(self.state, me)
        return {"observation": observation, "action_mask": self.action_mask(agent)}

    # ---- rendering ---------------------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        state = self.state
        lines = [f"flips {state.flips}, phase {state.phase.value}, pot {len(state.pot)} card(s)"
                 + (f", top {_name(state.pot[0])}" if state.pot else "")]
        for agent, i in self.agent_name_mapping.items():
            mark = "*" if state.turn is not None and state.turn.index == i else " "
            top = _name(state.up[i][0]) if state.up[i] else "-"
            lines.append(f"{mark}{agent}: {len(state.down[i])} face down, {len(state.up[i])} face up, top {top}")
        return self._show("\n".join(lines))


def _name(card: Card) -> str:
    return card.pretty


def _index(seat: Seat | None) -> int | None:
    return None if seat is None else seat.index


class SnapVectorEnv(VectorEnv):
    """``n`` games of Snap stepped together by the compiled kernel, for learners that train on
    batches: a Gymnasium vector environment (``gymnasium.vector.VectorEnv``). Each step makes one
    step of ``raw_env`` in every game: the flip, or the decision of one agent in the call window.

    - ``obs, infos = v.reset(seed=None, options=None)``; ``obs, rewards, terminations, truncations,
      infos = v.step(actions)``, ``actions`` one :class:`SnapAction` per game (whole numbers; anything
      else, or an illegal action, is refused with one line, and nothing is played);
    - ``obs`` is ``{"observation": (n, observation size) float32, "action_mask": (n, 5) int8}``: those
      of the agent to step, as ``raw_env.observe`` gives them;
    - ``rewards`` (n,) float32: the reward of the agent who stepped; ``infos["rewards"]``
      (n, players) has every seat's, as ``raw_env``'s rewards of that step (-1 on going out, 0 for
      those going out with a draw, +1 to the winner); ``terminations`` (n,) bool: the games that
      ended (SNAP-END-1/2/3); ``truncations``: the games stopped by ``max_steps`` or a repeated
      position;
    - ``infos`` also holds ``action_mask`` and ``to_move`` (n,) int32;
    - autoreset: ``metadata["autoreset_mode"]`` is ``SAME_STEP``: a game that ends restarts in the
      same step, seeded by the next number of its own stream, and its final observation (of the agent
      who stepped) is ``infos["final_obs"][i]`` (``infos["_final_obs"]`` marks them);
    - the arrays returned are fresh each step (``copy=False`` returns the environment's own buffers).

    Game ``i`` after ``reset(seed=s)`` is the episodes of ``raw_env(**kwargs)`` after
    ``reset(seed=s + i)`` and unseeded resets, played by the same actions, skipping PettingZoo's
    steps of agents that are done. The keyword arguments are ``raw_env``'s but ``render_mode`` and
    ``engine``, with the same defaults: ``truncate_on_repeat=True`` and ``max_steps=10_000``. With
    ``truncate_on_repeat`` every position before a flip is kept until its game ends, as ``raw_env``
    keeps them (about 2 * players + 72 bytes a flip, and 4 KB a game): ``max_steps`` bounds the
    memory, and ``truncate_on_repeat=False`` saves it and time. ``n`` is at most ``MAX_ENVS``
    (262144). Needs the kernel: raises ``EngineUnavailable`` without it.
    """

    metadata: dict[str, Any] = {"name": "cardcanon_snap_v0_vector", "engine": "kernel"}
    _vector: SnapVector
    _env = "snap_v0"

    def __init__(self, n: int, seed: int | None = 0, copy: bool = True, players: int = 2,
                 calling_policy: str = "flipper-first", max_steps: int | None = 10_000,
                 truncate_on_repeat: bool = True, **kwargs: Any) -> None:
        n = check_num_envs(n, "snap_v0.vector_env")
        chosen, unknown = variations.split_options("snap", kwargs)
        if unknown:
            raise TypeError(f"snap_v0.vector_env: unknown keyword arguments {', '.join(sorted(unknown))}")
        self.config = variations.build_config(SnapConfig, chosen, players=players)
        self.max_steps = check_max_steps(max_steps)
        policy = race_policy(calling_policy)
        self._vector = SnapVector(n, self.config, policy, self.max_steps, bool(truncate_on_repeat))
        space = raw_env(players=players, engine="model", **kwargs).observation_space("player_0")
        self._begin(n, seed, space, len(SnapAction), copy)

    @property
    def terminations(self) -> np.ndarray:
        ended: np.ndarray = self._vector.ended == 1
        return ended

    @property
    def truncations(self) -> np.ndarray:
        ended: np.ndarray = self._vector.ended == 2
        return ended

    @property
    def dones(self) -> np.ndarray:
        ended: np.ndarray = self._vector.ended != 0
        return ended


_NO_CARDS = 2  # the kernel's ending code of SNAP-END-3 (engine/snap.py ENDINGS)


raw_env.__doc__ = __doc__ + variations.describe("snap", SnapConfig)
