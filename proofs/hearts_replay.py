"""Replaying Z3 witnesses through the reference model, and a time budget for checks.

A :class:`HandWitness` becomes real moves: a ``Deal`` whose order gives the witness's hands
and dead cards (HEARTS-DEAL-2), then every ``Play`` in turn, each validated by ``apply``.
"""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any, Protocol

import z3

from cardcanon.model import hearts as model
from cardcanon.model.cards import Card
from cardcanon.model.errors import IllegalMoveError
from cardcanon.model.seats import Seat
from cardcanon.proofs.base import Z3, CheckResult, Verdict
from cardcanon.proofs.records import Record, hearts_record
from cardcanon.proofs.hearts_encoding import CARDS, HandEncoding, HandWitness, Rules


class ReplayMismatch(AssertionError):
    """The reference model disagrees with a Z3 witness."""


class Undecided(Exception):
    """A solver call of a check answered unknown: the check ends as TIMEOUT or UNKNOWN."""


def deal_order(witness: HandWitness, dealer: int) -> tuple[Card, ...]:
    """The deck order that deals the witness's hands when ``dealer`` deals (HEARTS-DEAL-2):
    top card dead, then one card at a time from the non-dealer, the last card dead."""
    hands = [sorted(h) for h in witness.hands()]
    first, second = hands[1 - dealer], hands[dealer]
    middle = [c for pair in zip(first, second) for c in pair]
    return tuple(CARDS[c] for c in [witness.dead[0], *middle, witness.dead[1]])


def plays(witness: HandWitness) -> list[model.Play]:
    out = []
    for leader, a, b in witness.tricks:
        out.append(model.Play(Seat(leader), CARDS[a]))
        out.append(model.Play(Seat(1 - leader), CARDS[b]))
    return out


def start(config: model.HeartsConfig | None = None, dealer: int = 0) -> model.HeartsState:
    """A new match whose first dealer is ``dealer``, waiting for the deal."""
    state = model.new_game(config or model.HeartsConfig())
    move = model.ChooseDealer(Seat(dealer))
    after = model.apply(state, move)
    if _RECORDS is not None:
        _HISTORY[id(after)] = ((move,), after)
    return after


def replay_hand(state: model.HeartsState, witness: HandWitness, *, stop_after: int | None = None,
                check_score: bool = True) -> model.HeartsState:
    """Deal and play the witness from a state waiting for a deal; checks the hand score
    (unless ``check_score`` is false: a mutant's witness carries the mutant's score).

    With ``stop_after`` it stops after that many plays and returns that position. Every hand
    played is noted as a game record while :func:`recording` is active (see :func:`recorded`)."""
    if state.phase is not model.Phase.DEAL:
        raise ReplayMismatch(f"the model is not waiting for a deal but in phase {state.phase}")
    assert state.dealer is not None  # a match waiting for a deal has its dealer
    note = _Note(state)
    state = note.apply(state, model.Deal(deal_order(witness, state.dealer.index)))
    for i, move in enumerate(plays(witness)):
        if stop_after is not None and i == stop_after:
            note.close(state, f"{witness.summary()} (first {i} plays)")
            return state
        if state.to_move != move.player:
            note.close(state, f"{witness.summary()}: play {i + 1} by {move.player}", rejects=move)
            raise ReplayMismatch(f"play {i + 1}: the model has {state.to_move} to move, the witness {move.player}")
        state = note.apply(state, move)
    note.close(state, witness.summary())
    got = tuple(state.hand_scores[-1])
    if check_score and got != tuple(witness.scores):
        raise ReplayMismatch(f"the model scores the hand {got}, the encoding {tuple(witness.scores)}")
    return state


class _Note:
    """The moves of one replay, from the start of its match, for the record."""

    def __init__(self, state: model.HeartsState) -> None:
        entry = _HISTORY.get(id(state))
        self.moves = list(entry[0]) if entry is not None and entry[1] is state else None
        self.config = state.config

    def apply(self, state: model.HeartsState, move: model.Move) -> model.HeartsState:
        try:
            after = model.apply(state, move)
        except IllegalMoveError as err:
            self.close(state, f"the model refuses {move!r}", rejects=move)
            raise ReplayMismatch(f"the model refuses {move!r}: {err}") from err
        if self.moves is not None:
            self.moves.append(move)
            _HISTORY[id(after)] = (tuple(self.moves), after)
        return after

    def close(self, state: model.HeartsState, label: str, rejects: model.Move | None = None) -> None:
        if _RECORDS is not None and self.moves is not None:
            _RECORDS.append(hearts_record(self.config, self.moves, state, label=label, rejects=rejects))


_HISTORY: dict[int, tuple[tuple[model.Move, ...], model.HeartsState]] = {}  # id(state) -> (moves from the match's start, state), while recording
_RECORDS: list[Record] | None = None


@contextlib.contextmanager
def recording() -> Iterator[list[Record]]:
    """Note every replayed hand as a record: yields the list they are added to."""
    global _RECORDS
    saved, _RECORDS = _RECORDS, []
    _HISTORY.clear()
    try:
        yield _RECORDS
    finally:
        _RECORDS = saved
        _HISTORY.clear()


class DefaultedCheck(Protocol):
    """A check function whose keyword arguments all have defaults."""

    def __call__(self, *, mutant: str | None = None, timeout: float = 30.0,
                 bounds: Mapping[str, Any] | None = None) -> CheckResult: ...


def recorded(contrary: Verdict) -> Callable[[DefaultedCheck], DefaultedCheck]:
    """Make a check return the hands it replayed as records (the last ones, at most ``keep``),
    and turn a disagreement of the model with the encoding into the ``contrary`` verdict."""
    def wrap(check: DefaultedCheck) -> DefaultedCheck:
        @functools.wraps(check)
        def run(*, mutant: str | None = None, timeout: float = 30.0,
                bounds: Mapping[str, Any] | None = None) -> CheckResult:
            with recording() as notes:
                try:
                    result = check(mutant=mutant, timeout=timeout, bounds=bounds)
                except Undecided as err:
                    from cardcanon.proofs.base import z3_verdict

                    verdict = z3_verdict(z3.unknown, unsat=Verdict.PROVED, sat=Verdict.COUNTEREXAMPLE, reason=str(err))
                    result = CheckResult(verdict, detail=f"Z3 answered unknown ({err})")
                    notes.clear()
                except (ReplayMismatch, IllegalMoveError) as err:
                    result = CheckResult(contrary, detail=f"the model disagrees with the encoding: {err}",
                                         witness=str(err))
                    notes[:] = notes[-1:]
            return replace(result, records=tuple(result.records) + _dedupe(notes)[-KEEP:])
        return run
    return wrap


KEEP = 12


def _dedupe(notes: list[Record]) -> tuple[Record, ...]:
    """The notes without repeats, and without a note whose moves begin a later note of the same
    match (the hands of a replayed match: the whole match's record plays each of them again)."""
    out: list[Record] = []
    seen: set[tuple[int, str, str]] = set()
    for n, note in enumerate(notes):
        key = (len(note["moves"]), str(note["moves"][-1:]), note["label"])
        moves, config = note["moves"], note["config"]
        continued = "rejects" not in note and any(
            later["config"] == config and len(later["moves"]) > len(moves) and later["moves"][:len(moves)] == moves
            for later in notes[n + 1:])
        if key not in seen and not continued:
            seen.add(key)
            out.append(note)
    return tuple(out)


def positions(witness: HandWitness, config: model.HeartsConfig | None = None,
              ) -> Iterator[tuple[model.HeartsState, model.Play]]:
    """Each position of the witness hand before a play, with that play (applied as it goes)."""
    state = start(config)
    assert state.dealer is not None  # start chose the dealer
    note = _Note(state)
    state = note.apply(state, model.Deal(deal_order(witness, state.dealer.index)))
    for move in plays(witness):
        yield state, move
        state = note.apply(state, move)
    note.close(state, witness.summary())


def moves_to(state: model.HeartsState) -> list[model.Move]:
    """The moves from the start of the match to ``state`` (a state replayed while recording)."""
    entry = _HISTORY.get(id(state))
    if entry is None or entry[1] is not state:
        raise ValueError("not a state replayed while recording")
    return list(entry[0])


def difference_record(state: model.HeartsState, expected_cards: Collection[Card], label: str) -> Record:
    """A record showing that the model's legal plays in ``state`` are not ``expected_cards``: a
    play the model allows beyond them (played), else one of them it refuses (``rejects``)."""
    allowed = [m.card for m in model.legal_moves(state)]
    extra = [c for c in allowed if c not in expected_cards]
    moves = moves_to(state)
    assert state.to_move is not None  # a position with legal plays has a player to move
    if extra:
        play = model.Play(state.to_move, extra[0])
        return hearts_record(state.config, moves + [play], model.apply(state, play), label=label)
    missing = sorted(c for c in expected_cards if c not in allowed)
    return hearts_record(state.config, moves, state, label=label, rejects=model.Play(state.to_move, missing[0]))


@functools.lru_cache(maxsize=16)
def hand_encoding(rules: Rules) -> HandEncoding:
    """The (immutable once built) encoding of one hand under ``rules``, built once per process."""
    return HandEncoding(rules)


def replay_single(witness: HandWitness, config: model.HeartsConfig | None = None, *, stop_after: int | None = None,
                  check_score: bool = True) -> model.HeartsState:
    return replay_hand(start(config), witness, stop_after=stop_after, check_score=check_score)


def replay_match(hands: Sequence[HandWitness], config: model.HeartsConfig | None = None, dealer: int = 0, *,
                 check_score: bool = True) -> list[model.HeartsState]:
    """Play a whole sequence of hands in one match; returns the state after each hand."""
    state = start(config, dealer)
    history: list[model.HeartsState] = []
    for number, witness in enumerate(hands, 1):
        if state.phase is model.Phase.OVER:
            raise ReplayMismatch(f"the match ended before hand {number}")
        try:
            state = replay_hand(state, witness, check_score=check_score)
        except ReplayMismatch as err:
            raise ReplayMismatch(f"hand {number}: {err}") from err
        history.append(state)
    return history


class Budget:
    """A wall-clock budget shared by the solver calls of one check."""

    def __init__(self, seconds: float) -> None:
        self.deadline = time.monotonic() + seconds
        self.started = time.monotonic()

    def remaining_ms(self) -> int:
        return max(1, int((self.deadline - time.monotonic()) * 1000))

    def arm(self, solver: Z3) -> None:
        solver.set("timeout", self.remaining_ms())

    def check(self, solver: Z3, *extra: Z3) -> Z3:
        """``solver.check(*extra)`` within the remaining budget; raises :class:`Undecided` when
        Z3 answers neither sat nor unsat (the budget ran out, or Z3 gave up), wherever that is."""
        self.arm(solver)
        from cardcanon.proofs.smt import decide

        answer = decide(solver, *extra)
        if answer != z3.sat and answer != z3.unsat:
            raise Undecided(solver.reason_unknown())
        return answer

    def elapsed(self) -> float:
        return round(time.monotonic() - self.started, 3)


def undecided(solver: Z3, where: str = "") -> CheckResult:
    """The result for a solver that answered neither sat nor unsat: never "proved"."""
    from cardcanon.proofs.base import z3_verdict

    reason = solver.reason_unknown()
    verdict = z3_verdict(z3.unknown, unsat=Verdict.PROVED, sat=Verdict.COUNTEREXAMPLE, reason=reason)
    return CheckResult(verdict, detail=f"{where}: Z3 answered unknown ({reason})".lstrip(": "))


def sat(answer: Z3) -> bool:
    return bool(answer == z3.sat)
