"""``python_cardcanon_snap``: Snap (:mod:`cardcanon.model.snap`) as an OpenSpiel game.

**Parameters**: ``players`` (2 to 12, SNAP-PLAYERS-1); ``ranks`` (1 to 13) and ``suits`` (1 to 4)
for a smaller deck: the lowest ``ranks`` ranks (from the two) of the first ``suits`` suits (clubs,
diamonds, hearts, spades), in the canonical card order (the default is the 52-card deck,
SNAP-DECK-1); every variation point of ``spec/snap.toml`` by its parameter name, with the
rulebook's option words and defaults (``index_card`` is ``"off"`` or ``"on"``); ``calling_policy``
(who wins a race of correct calls: ``"flipper-first"``, the default, or ``"owner-first"``, as
SNAP-POLICY-2/3 decide it; or ``"race"``: a chance node after the window, each outcome equally
likely, names the caller who was first or, without the index card, the two or more who tied,
SNAP-TIE-1; every call event the rules allow is then reachable); ``calls`` (``"players"``, the
default; or ``"policy"``: the calling policy makes every call, as the model's ``play_game`` does,
and there is no call window node); ``max_moves`` (10000): a game
still going after that many moves (flips and call windows) ends there as a *truncation*
(:meth:`SnapState.truncated`): the players in the game get 0; ``engine``
(``"kernel-or-model"``, the default; ``"kernel"`` or ``"model"``): which engine the states step on
(``cardcanon.openspiel.engines``); the game's ``engine`` attribute says which one plays and
``engine_note`` why the model does.

**Chance**: the dealer (each seat equally likely; SNAP-DEAL-1), then the shuffled deck card by card
(SNAP-DEAL-2): the n-th outcome is the card at place n of the deal, by its index in the table's
deck, each remaining card equally likely. The cards go one at a time clockwise from the dealer's
left (SNAP-DEAL-3), as the model's ``Deal``.

**Moves**: the player whose turn it is flips (``FLIP``, SNAP-FLIP-1): a node of his own. Then the
call window (SNAP-CALL-3) is a *simultaneous* node: every player chooses at once ``PASS`` or a
call of this table (``SNAP``, ``SNAP_POT``, or ``HAND`` with the index card); players out of the
game (SNAP-CALL-2) can only ``PASS``. The calls are settled as ``snap_v0`` settles a window
(:mod:`cardcanon.envs.snap_race`) into the model's one call event. ``pyspiel.convert_to_turn_based``
makes the window a sequence of turns for sequential algorithms. Actions are ``snap_v0.SnapAction``.

**Returns**: as ``snap_v0``'s rewards summed: -1 to each player who goes out (SNAP-OUT-1), 0 to those
who go out with a draw (SNAP-END-3), +1 to the winner (SNAP-END-1/2).

**Observers**: the observation tensor is ``snap_v0``'s observation vector of the player
(``observation_parts``: phase, turn, dealer, who is in, pile sizes, face-up tops, pot size and
top, seats from the observer clockwise; cards as 52-card indices). The information-state tensor
is that vector, then 52 flags for every card seen face up so far and the player's call in the
last window (5 flags): a summary, not the whole history. The information-state string is the
player's whole history (the deal, every flip, his own calls and every call event), as text.
"""

from __future__ import annotations

import itertools
from typing import Any

import pyspiel

from cardcanon.envs.snap_race import race_policy
from cardcanon.envs.snap_v0 import KIND_OF_ACTION, SnapAction, observation_parts
from cardcanon.model.cards import FULL_DECK, Card, Rank, Suit
from cardcanon.model.seats import Seat
from cardcanon.model.snap import (
    MAX_PLAYERS, MIN_PLAYERS, Call, NoCall, Phase, SnapConfig, Termination, Tie,
)
from cardcanon.openspiel import _common, engines

SHORT_NAME = "python_cardcanon_snap"
SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
POLICIES = ("flipper-first", "owner-first", "race")
CALLS = ("players", "policy")
DEFAULTS = _common.specification("snap", players=2, ranks=len(Rank), suits=len(SUITS),
                                 calling_policy=POLICIES[0], calls=CALLS[0], max_moves=10_000,
                                 engine=engines.DEFAULT)
CARDS = len(FULL_DECK)
ACTION_OF_KIND = {kind: action for action, kind in KIND_OF_ACTION.items()}


def small_deck(ranks: int, suits: int) -> tuple[Card, ...]:
    """The lowest ``ranks`` ranks of the first ``suits`` suits, in the canonical order."""
    return tuple(card for card in FULL_DECK if card.suit in SUITS[:suits] and card.rank - Rank.TWO < ranks)


def _game_type(players: int) -> Any:
    """Two players' Snap is zero-sum; more players' is not."""
    utility = pyspiel.GameType.Utility.ZERO_SUM if players == MIN_PLAYERS else pyspiel.GameType.Utility.GENERAL_SUM
    return _common.game_type(SHORT_NAME, "cardcanon Snap", pyspiel.GameType.Dynamics.SIMULTANEOUS, utility,
                             (MIN_PLAYERS, MAX_PLAYERS), DEFAULTS)


class SnapGame(pyspiel.Game):  # type: ignore[misc]
    """The game at the table the parameters name (see the module documentation)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**DEFAULTS, **(params or {})}
        players = _common.whole("players", params["players"], MIN_PLAYERS, MAX_PLAYERS)
        deck = small_deck(_common.whole("ranks", params["ranks"], 1, len(Rank)),
                          _common.whole("suits", params["suits"], 1, len(SUITS)))
        self.config = SnapConfig.from_options(_common.chosen("snap", params), players=players, deck=deck)
        chosen_policy = _common.one_of("calling_policy", params["calling_policy"], POLICIES)
        self.race = chosen_policy == "race"
        # with ``race`` a chance node settles races; the window's other events do not depend on the policy
        self.policy = race_policy(POLICIES[0] if self.race else chosen_policy)
        self.by_policy = _common.one_of("calls", params["calls"], CALLS) == "policy"
        if self.by_policy and self.race:
            raise ValueError("calls=policy: the calling policy makes every call; it is flipper-first or owner-first")
        self.max_moves = _common.whole("max_moves", params["max_moves"], 1)
        self.kernel = engines.choose(self, params["engine"], lambda: engines.SnapKernel(self.config, self.policy))
        info = pyspiel.GameInfo(
            num_distinct_actions=len(SnapAction), num_players=players,
            max_chance_outcomes=max(players, len(deck), 1 << players if self.race else 0),
            min_utility=-1.0, max_utility=1.0, utility_sum=0.0 if players == MIN_PLAYERS else None,
            max_game_length=self.max_moves)
        super().__init__(_game_type(players), info, params)

    def new_initial_state(self) -> SnapState:
        return SnapState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SnapObserver:
        return SnapObserver(self.config.players, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                            params)


class SnapState(_common.TableState):
    """A position: the table of the engine that plays (``cardcanon.openspiel.engines``), the deal
    under way, the moves made, what each player got on going out, the cards seen face up and the
    history each player saw."""

    config = _common.shared("config")
    policy = _common.shared("policy")
    dealer = _common.shared("dealer")
    order = _common.shared("order")
    race = _common.shared("race")  # a race's calls (seat -> kind, in the window), while chance settles it
    faces = _common.shared("faces")

    def __init__(self, game: SnapGame) -> None:
        super().__init__(game)
        self.config, self.policy, self.max_moves = game.config, game.policy, game.max_moves
        self.racing, self.by_policy = game.race, game.by_policy
        self.race = None
        self.players = self.config.players
        self.table: engines.ModelSnap | engines.KernelSnap = (
            engines.KernelSnap(game.kernel) if game.kernel else engines.ModelSnap(self.config, self.policy))
        self.dealer = None
        self.order = ()  # the deal under way, top card first
        self.moves = 0  # flips and call windows so far
        self.results: dict[int, float] = {}  # seat -> return, once decided
        self.faces = frozenset()  # every card seen face up
        self.calls: list[int] = [int(SnapAction.PASS)] * self.players  # each player's action in the last window
        self.seen = ("",) * self.players  # what each player saw, as text

    # ---- the OpenSpiel API ---------------------------------------------------------------------
    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        phase = self.table.phase
        if phase is Phase.DEAL or self.race is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if phase is Phase.CALL:
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return self.table.player

    def is_terminal(self) -> bool:
        return self.table.phase is Phase.OVER or self.moves >= self.max_moves

    def truncated(self) -> bool:
        """The game was stopped by ``max_moves`` (never a result)."""
        return self.table.phase is not Phase.OVER and self.moves >= self.max_moves

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.players
        return [self.results.get(seat, 0.0) for seat in range(self.players)]

    def _legal_actions(self, player: int) -> list[int]:
        phase = self.table.phase
        if self.is_terminal() or phase is Phase.DEAL or self.race is not None:
            return []
        if phase is Phase.FLIP:
            return [int(SnapAction.FLIP)] if player == self.table.player else []
        if not self.table.holds(player):
            return [int(SnapAction.PASS)]
        return sorted([int(SnapAction.PASS)] + [int(ACTION_OF_KIND[kind]) for kind in self.config.kinds])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.race is not None:
            masks = _race_outcomes(tuple(self.race), self.config.index_card)
            return [(mask, 1.0 / len(masks)) for mask in masks]
        if self.dealer is None:
            return [(seat, 1.0 / self.players) for seat in range(self.players)]
        dealt = frozenset(self.order)
        left = [i for i, card in enumerate(self.config.deck) if card not in dealt]
        return [(i, 1.0 / len(left)) for i in left]

    def _apply_action(self, action: int) -> None:
        if self.race is not None:
            self._settle(_race_event(self.race, action))
            return
        if self.table.phase is Phase.DEAL:
            self._deal(action)
            return
        card = self.table.flip()
        self.moves += 1
        self.faces |= {card}
        self._saw(None, f"p{self.table.player} flips {card}")
        if self.by_policy:  # every player calls as the policy plays (SNAP-POLICY-1 to 3): no call window
            self._settle(None)

    def _deal(self, action: int) -> None:
        """The dealer, then one card; with the last card, the model's Deal."""
        if self.dealer is None:
            self.dealer = Seat(action)
            self._saw(None, f"p{action} deals")
            return
        card = self.config.deck[action]
        if card in self.order:
            raise ValueError(f"{card} has already been dealt")
        self.order += (card,)
        if len(self.order) == len(self.config.deck):
            self.table.deal(self.dealer.index, self.order)
            self._after_event()

    def _apply_actions(self, actions: list[int]) -> None:
        """The call window: every player's choice at once, settled into the model's one call event."""
        table = self.table
        self.calls = [int(action) for action in actions]
        chosen = {Seat(seat): KIND_OF_ACTION.get(SnapAction(action)) for seat, action in enumerate(actions)
                  if table.holds(seat)}
        self.moves += 1
        for seat, action in enumerate(self.calls):
            if action != SnapAction.PASS:
                self._saw(seat, f"p{seat} calls {SnapAction(action).name.lower()}")
        if self.racing:
            correct = table.correct()
            right = [(seat, chosen[seat]) for seat in _callers_in_order(table) if chosen.get(seat) in correct]
            if len(right) >= 2:  # who was fastest: a chance node
                self.race = tuple(right)
                return
        self._saw(None, _event_text(table.settle(chosen)))
        self._after_event()

    def _settle(self, event: NoCall | Call | Tie | None) -> None:
        """The window closed by ``event`` (None: the calling policy's own event)."""
        self.race = None
        self._saw(None, _event_text(self.table.close(event)))
        self._after_event()

    def _after_event(self) -> None:
        """Who went out (SNAP-OUT-1) and, at the end, the winner (SNAP-END-1/2/3)."""
        outcome = self.table.outcome()
        draw = outcome is not None and outcome.termination is Termination.NO_CARDS
        for seat in range(self.players):
            if seat not in self.results and not self.table.holds(seat):
                self.results[seat] = 0.0 if draw else -1.0
        if outcome is not None and outcome.winner is not None:
            self.results[outcome.winner.index] = 1.0

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE and self.race is not None:
            return _event_text(_race_event(self.race, action))
        if player == pyspiel.PlayerId.CHANCE:
            return f"p{action} deals" if self.dealer is None else f"deal {self.config.deck[action]}"
        return f"p{player} {SnapAction(action).name.lower()}"

    def __str__(self) -> str:
        model = self.model
        piles = " | ".join(f"p{i}: {len(model.down[i])} down, up {' '.join(map(str, model.up[i])) or '-'}"
                           for i in range(self.players))
        return f"{model.phase.value} | {piles} | pot {' '.join(map(str, model.pot)) or '-'}"


def _callers_in_order(table: engines.ModelSnap | engines.KernelSnap) -> list[Seat]:
    """The players in the game, clockwise from the flipper, the flipper first."""
    n, flipper = table.config.players, table.player
    return [Seat((flipper + k) % n) for k in range(n) if table.holds((flipper + k) % n)]


def _race_outcomes(right: tuple[tuple[Seat, Any], ...], index_card: bool) -> list[int]:
    """A race's outcomes as seat masks: each correct caller first alone, or (without the index
    card, SNAP-INDEX-1) two or more of them at once (a tie, SNAP-TIE-1, SNAP-POT-2)."""
    bits = [1 << seat.index for seat, _ in right]
    masks = set(bits)
    if not index_card:
        for size in range(2, len(bits) + 1):
            masks.update(sum(group) for group in itertools.combinations(bits, size))
    return sorted(masks)


def _race_event(right: tuple[tuple[Seat, Any], ...], mask: int) -> Call | Tie:
    """The call event of a race's outcome: the caller alone, or a tie of the kind called by the
    first of them clockwise from the flipper."""
    members = [(seat, kind) for seat, kind in right if mask >> seat.index & 1]
    if len(members) == 1:
        return Call(*members[0])
    return Tie(frozenset(seat for seat, _ in members), members[0][1])


def _event_text(event: NoCall | Call | Tie | Any) -> str:
    if isinstance(event, Call):
        return f"p{event.caller.index} calls {event.kind.value} first"
    if isinstance(event, Tie):
        return f"{' and '.join(f'p{seat.index}' for seat in sorted(event.callers))} tie with {event.kind.value}"
    return "nobody calls"


class SnapObserver(_common.Observer):
    """The information state (``perfect_recall``) or the observation of a player (module documentation)."""

    def __init__(self, players: int, iig_obs_type: Any, params: Any) -> None:
        super().__init__(SHORT_NAME, iig_obs_type, params, observation_parts(players),
                         [("seen_face_up", CARDS), ("my_last_call", len(SnapAction))])

    def set_from(self, state: SnapState, player: int) -> None:
        self.tensor[:self.size] = state.table.observation(player)
        if self.perfect_recall:
            self.tensor[self.size:] = 0.0
            self.dict["seen_face_up"][[card.index for card in state.faces]] = 1.0
            self.dict["my_last_call"][state.calls[player]] = 1.0

    def string_from(self, state: SnapState, player: int) -> str:
        if self.perfect_recall:
            return f"p{player}: {state.seen[player]}"
        model = state.model
        n = model.config.players
        piles = " ".join(f"p{seat}:{len(model.down[seat])}/{len(model.up[seat])}/"
                         f"{model.up[seat][0] if model.up[seat] else '-'}"
                         for seat in ((player + k) % n for k in range(n)))
        pot = f"{len(model.pot)}/{model.pot[0] if model.pot else '-'}"
        turn = "-" if model.turn is None else f"p{model.turn.index}"
        return f"p{player} {model.phase.value} turn {turn}; piles {piles}; pot {pot}"


pyspiel.register_game(_game_type(MIN_PLAYERS), SnapGame)
