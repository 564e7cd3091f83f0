"""The table an OpenSpiel state steps: the reference model's position, or a game in the compiled kernel.

A game's ``engine`` parameter chooses, as the environments' ``engine`` argument does
(:mod:`cardcanon.envs._engine`): ``"kernel"`` (:class:`~cardcanon.engine.build.EngineUnavailable`
in one line where the kernel cannot play the table), ``"model"``, or ``"kernel-or-model"``, the
default here, so that ``pyspiel.load_game`` works on a machine without a C compiler. The game's
``engine`` attribute says which one plays (``"kernel"`` or ``"model"``) and ``engine_note`` why
the model does; nothing falls back unasked.

Both tables answer the same questions (the phase, who moves, the legal actions, the observation
vector) and take the same moves (the dealer, a deal given card by card, a play; a flip, a call
event). The kernel's table is set from the deal OpenSpiel chose and its ``model`` is the
reference model's position read back from the kernel, so that strings, returns and the
conformance adapter see the kernel's position. ``tests/test_openspiel_engines.py`` plays the same
OpenSpiel games on both, move by move.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

from cardcanon.engine.steps import SNAP_CALL_KINDS, SNAP_PHASES, HeartsSteps, SnapSteps, snap_event
from cardcanon.envs import hearts_v0, snap_v0
from cardcanon.envs._engine import choose_engine
from cardcanon.envs.snap_race import call_event
from cardcanon.model import hearts, snap
from cardcanon.model.cards import FULL_DECK, Card
from cardcanon.model.hearts_types import HAND_SIZE, PLAYERS
from cardcanon.model.seats import Seat
from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.snap_policies import Policy

HAND_OVER = (1, 3)  # HeartsSteps.step's codes after a hand's last trick: the match is over, the next deal waits
DEFAULT = "kernel-or-model"  # load_game must work without a compiler; the game says which engine plays
K = TypeVar("K")
M = TypeVar("M")


def choose(game: Any, engine: Any, kernel: Callable[[], K]) -> K | None:
    """The kernel's game for ``game`` (``kernel()``), or None when the model plays; sets ``game.engine``
    and ``game.engine_note`` (see the module documentation)."""
    game.metadata = {}
    made = choose_engine(game, engine, kernel)  # ValueError for an engine it does not know
    game.engine, game.engine_note = game.metadata["engine"], game.metadata.get("engine_note", "")
    return made


class ReadBack(Generic[M]):
    """A kernel table's ``model``: the reference model's position read from the kernel, once for
    each position (the strings of every player ask for it); a move sets ``read`` to None."""

    read: M | None

    @property
    def model(self) -> M:
        if self.read is None:
            self.read = self._model()
        return self.read

    def _model(self) -> M:
        raise NotImplementedError


def _cards(mask: int) -> frozenset[Card]:
    return frozenset(card for i, card in enumerate(hearts.DECK) if mask >> i & 1)


# ---- Hearts ------------------------------------------------------------------------------------
class ModelHearts:
    """A match of the reference model (immutable positions: a copy shares them)."""

    def __init__(self, config: hearts.HeartsConfig) -> None:
        self.model = hearts.GAME.new_game(config)

    def __deepcopy__(self, memo: dict[int, Any]) -> ModelHearts:
        copy = ModelHearts.__new__(ModelHearts)
        copy.model = self.model
        return copy

    @property
    def phase(self) -> hearts.Phase:
        return self.model.phase

    @property
    def to_move(self) -> int | None:
        return None if self.model.to_move is None else self.model.to_move.index

    @property
    def hand_number(self) -> int:
        return self.model.hand_number

    def legal(self) -> list[int]:
        return sorted(hearts.DECK.index(move.card) for move in hearts.GAME.legal_moves(self.model)
                      if isinstance(move, hearts.Play))

    def choose_dealer(self, seat: int) -> None:
        self.model = hearts.GAME.apply(self.model, hearts.ChooseDealer(Seat(seat)))

    def deal(self, order: tuple[Card, ...]) -> None:
        self.model = hearts.GAME.apply(self.model, hearts.Deal(order))

    def play(self, seat: int, card: Card) -> None:
        self.model = hearts.GAME.apply(self.model, hearts.Play(Seat(seat), card))  # illegal: the model's error

    def observation(self, seat: int, played: tuple[frozenset[Card], ...], last_trick: frozenset[Card]) -> Any:
        return hearts_v0.observation_of(self.model, seat, played, last_trick)


class KernelHearts(ReadBack[hearts.HeartsState]):
    """A match in the kernel (a twin of the game's ``steps``), dealt the deals given; ``model``
    reads its position back."""

    def __init__(self, steps: HeartsSteps) -> None:
        self.config = steps.config
        self.steps = steps.twin()
        self.steps.start(-1)
        self.hand_scores: tuple[tuple[int, int], ...] = ()
        self.spot = self.steps.position()
        self.read: hearts.HeartsState | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> KernelHearts:
        copy = KernelHearts.__new__(KernelHearts)
        copy.config, copy.hand_scores, copy.spot, copy.read = self.config, self.hand_scores, self.spot, self.read
        copy.steps = self.steps.twin()
        return copy

    @property
    def phase(self) -> hearts.Phase:
        if self.spot.over:
            return hearts.Phase.OVER
        if self.spot.to_move >= 0:
            return hearts.Phase.PLAY
        return hearts.Phase.CHOOSE_DEALER if self.spot.dealer < 0 else hearts.Phase.DEAL

    @property
    def to_move(self) -> int | None:
        return self.spot.to_move if self.spot.to_move >= 0 else None

    @property
    def hand_number(self) -> int:
        return self.spot.hand_number

    def legal(self) -> list[int]:
        return [i for i in range(len(hearts.DECK)) if self.spot.legal >> i & 1]

    def choose_dealer(self, seat: int) -> None:
        self.steps.start(seat)
        self.spot, self.read = self.steps.position(), None

    def deal(self, order: tuple[Card, ...]) -> None:
        self.steps.deal_given(bytes(hearts.DECK.index(card) for card in order))
        self.spot, self.read = self.steps.position(), None

    def play(self, seat: int, card: Card) -> None:
        before = self.spot
        code = self.steps.step(hearts.DECK.index(card)) if seat == self.to_move else -1
        if code < 0:
            hearts.GAME.apply(self.model, hearts.Play(Seat(seat), card))  # raises the model's IllegalMoveError
            raise AssertionError(f"the kernel refused a play the model allows: {card}")
        self.spot, self.read = self.steps.position(), None
        if code in HAND_OVER:
            self.hand_scores += ((self.spot.score0 - before.score0, self.spot.score1 - before.score1),)

    def observation(self, seat: int, played: tuple[frozenset[Card], ...], last_trick: frozenset[Card]) -> Any:
        return self.steps.observe(seat)[0]

    def _model(self) -> hearts.HeartsState:
        spot, phase = self.spot, self.phase
        scores = (spot.score0, spot.score1)
        mover = self.to_move
        order = [hearts.DECK[i] for i in self.steps.deal()] if spot.hand_number else []
        outcome = None
        if phase is hearts.Phase.OVER:
            last = self.hand_scores[-1]
            outcome = hearts.match_result(scores, self.config, previous=(scores[0] - last[0], scores[1] - last[1]))
            assert outcome is not None and outcome.winner.index == spot.winner, "the kernel and the model end alike"
        leader = None if mover is None else Seat(mover if spot.lead < 0 else 1 - mover)
        return hearts.HeartsState(
            config=self.config, phase=phase, scores=scores, hand_number=spot.hand_number,
            dealer=None if spot.dealer < 0 else Seat(spot.dealer), hands=(_cards(spot.hand0), _cards(spot.hand1)),
            dead=tuple(order[:1] + order[1 + PLAYERS * HAND_SIZE:]),
            trick=() if spot.lead < 0 or mover is None else (hearts.Play(Seat(1 - mover), hearts.DECK[spot.lead]),),
            leader=leader, to_move=None if mover is None else Seat(mover), hearts_broken=bool(spot.broken),
            taken=(_cards(spot.taken0), _cards(spot.taken1)), tricks_played=spot.tricks,
            hand_scores=self.hand_scores, outcome=outcome)


# ---- Snap --------------------------------------------------------------------------------------
def event_codes(event: snap.Move) -> tuple[int, int, int]:
    """The kernel's codes of the model's call event."""
    if isinstance(event, snap.Call):
        return 1, event.caller.index, SNAP_CALL_KINDS.index(event.kind)
    if isinstance(event, snap.Tie):
        return 2, sum(1 << seat.index for seat in event.callers), SNAP_CALL_KINDS.index(event.kind)
    return 0, 0, 0


class ModelSnap:
    """A game of the reference model (immutable positions: a copy shares them)."""

    def __init__(self, config: snap.SnapConfig, policy: Policy) -> None:
        self.config, self.model, self.policy = config, snap.GAME.new_game(config), policy

    def __deepcopy__(self, memo: dict[int, Any]) -> ModelSnap:
        copy = ModelSnap.__new__(ModelSnap)
        copy.config, copy.model, copy.policy = self.config, self.model, self.policy
        return copy

    @property
    def phase(self) -> snap.Phase:
        return self.model.phase

    @property
    def player(self) -> int:
        return self.model.player.index

    def holds(self, seat: int) -> bool:
        return self.model.holds(Seat(seat))

    def correct(self) -> frozenset[snap.CallKind]:
        return frozenset(snap.correct_kinds(self.model))

    def deal(self, dealer: int, order: tuple[Card, ...]) -> None:
        self.model = snap.GAME.apply(self.model, snap.Deal(Seat(dealer), order))

    def flip(self) -> Card:
        self.model = snap.GAME.apply(self.model, snap.Flip(self.model.player))
        return self.model.up[self.model.player.index][0]

    def settle(self, calls: Mapping[Seat, snap.CallKind | None]) -> snap.Move:
        """The window's calls settled as the environments settle them; the generator is drawn from
        only by the ``ties`` policies, which the OpenSpiel game refuses."""
        return self.close(call_event(self.model, calls, self.policy, SplitMix64(0)))

    def close(self, event: snap.Move | None) -> snap.Move:
        """Close the call window with ``event``, or with None the policy's own: the event applied."""
        event = self.policy.choose(self.model, SplitMix64(0)) if event is None else event
        self.model = snap.GAME.apply(self.model, event)
        return event

    def outcome(self) -> snap.Outcome | None:
        return snap.GAME.outcome(self.model)

    def observation(self, seat: int) -> Any:
        return snap_v0.observation_of(self.model, seat)


class SnapKernel:
    """What the kernel tables of one game share: the game in the kernel they start from, and each
    seat's observation of the table before the deal (the model's: the kernel holds no game yet)."""

    def __init__(self, config: snap.SnapConfig, policy: Policy) -> None:
        self.steps = SnapSteps(config, policy)
        empty = snap.GAME.new_game(config)
        self.before_deal = tuple(snap_v0.observation_of(empty, seat) for seat in range(config.players))


class KernelSnap(ReadBack[snap.SnapState]):
    """A game in the kernel, dealt the deal given; ``model`` reads its position back."""

    def __init__(self, kernel: SnapKernel) -> None:
        self.config, self.policy, self.before_deal = kernel.steps.config, kernel.steps.policy, kernel.before_deal
        self.steps = kernel.steps.twin()
        self.dealt, self.flips = False, 0
        self.read: snap.SnapState | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> KernelSnap:
        copy = KernelSnap.__new__(KernelSnap)
        copy.__dict__.update(self.__dict__)
        copy.steps = self.steps.twin()
        return copy

    @property
    def phase(self) -> snap.Phase:
        return SNAP_PHASES[self.steps.view[0]] if self.dealt else snap.Phase.DEAL

    @property
    def player(self) -> int:
        return int(self.steps.view[1])

    def holds(self, seat: int) -> bool:
        return self.dealt and bool(self.steps.view[2] >> seat & 1)

    def correct(self) -> frozenset[snap.CallKind]:
        return frozenset(self.steps.correct())

    def deal(self, dealer: int, order: tuple[Card, ...]) -> None:
        self.steps.deal(dealer, bytes(card.index for card in order))
        self.dealt, self.read = True, None

    def flip(self) -> Card:
        self.steps.flip()
        self.flips, self.read = self.flips + 1, None
        return self._piles()[2][self.player][0]

    def settle(self, calls: Mapping[Seat, snap.CallKind | None]) -> snap.Move:
        self.read = None
        return snap_event(self.config.players, *self.steps.settle({seat.index: kind for seat, kind in calls.items()}))

    def close(self, event: snap.Move | None) -> snap.Move:
        self.read = None
        return snap_event(self.config.players, *self.steps.close(None if event is None else event_codes(event)))

    def outcome(self) -> snap.Outcome | None:
        return self.model.outcome if self.phase is snap.Phase.OVER else None

    def observation(self, seat: int) -> Any:
        return self.steps.observe(seat) if self.dealt else self.before_deal[seat]

    def _piles(self) -> tuple[tuple[Card, ...], list[tuple[Card, ...]], list[tuple[Card, ...]]]:
        """The pot, then each seat's face-down and face-up piles, top first (the kernel's position)."""
        raw = self.steps.position_key()
        pot = tuple(FULL_DECK[i] for i in reversed(raw[2:2 + raw[1]]))
        downs, ups, at = [], [], 2 + raw[1]
        for _ in range(self.config.players):
            downs.append(tuple(FULL_DECK[i] for i in raw[at + 1:at + 1 + raw[at]]))
            at += 1 + raw[at]
            ups.append(tuple(FULL_DECK[i] for i in reversed(raw[at + 1:at + 1 + raw[at]])))
            at += 1 + raw[at]
        return pot, downs, ups

    def _model(self) -> snap.SnapState:
        if not self.dealt:
            return snap.GAME.new_game(self.config)
        pot, downs, ups = self._piles()
        phase = self.phase
        turn = None if phase is snap.Phase.OVER else Seat(self.player)
        return snap.SnapState(self.config, phase, Seat(int(self.steps.view[3])), tuple(downs), tuple(ups), pot, turn,
                              self.flips)
