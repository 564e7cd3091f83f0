"""Replaying Z3 witnesses through the reference model, and a time budget for checks.

A :class:`HandWitness` becomes real moves: a ``Deal`` whose order gives the witness's hands
and dead cards (HEARTS-DEAL-2), then every ``Play`` in turn, each validated by ``apply``.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence

import z3

from cardcanon.model import hearts as model
from cardcanon.model.seats import Seat
from cardcanon.proofs.hearts_encoding import CARDS, HandEncoding, HandWitness, Rules


class ReplayMismatch(AssertionError):
    """The reference model disagrees with a Z3 witness."""


def deal_order(witness: HandWitness, dealer: int) -> tuple:
    """The deck order that deals the witness's hands when ``dealer`` deals (HEARTS-DEAL-2):
    top card dead, then one card at a time from the non-dealer, the last card dead."""
    hands = [sorted(h) for h in witness.hands()]
    first, second = hands[1 - dealer], hands[dealer]
    middle = [c for pair in zip(first, second) for c in pair]
    return tuple(CARDS[c] for c in [witness.dead[0], *middle, witness.dead[1]])


def plays(witness: HandWitness) -> list:
    out = []
    for leader, a, b in witness.tricks:
        out.append(model.Play(Seat(leader), CARDS[a]))
        out.append(model.Play(Seat(1 - leader), CARDS[b]))
    return out


def start(config=None, dealer: int = 0):
    """A new match whose first dealer is ``dealer``, waiting for the deal."""
    state = model.new_game(config or model.HeartsConfig())
    return model.apply(state, model.ChooseDealer(Seat(dealer)))


def replay_hand(state, witness: HandWitness, *, stop_after: int | None = None, check_score: bool = True):
    """Deal and play the witness from a state waiting for a deal; checks the hand score
    (unless ``check_score`` is false: a mutant's witness carries the mutant's score).

    With ``stop_after`` it stops after that many plays and returns that position."""
    if state.phase is not model.Phase.DEAL:
        raise ReplayMismatch(f"the model is not waiting for a deal but in phase {state.phase}")
    state = model.apply(state, model.Deal(deal_order(witness, state.dealer.index)))
    for i, move in enumerate(plays(witness)):
        if stop_after is not None and i == stop_after:
            return state
        if state.to_move != move.player:
            raise ReplayMismatch(f"play {i + 1}: the model has {state.to_move} to move, the witness {move.player}")
        state = model.apply(state, move)
    got = tuple(state.hand_scores[-1])
    if check_score and got != tuple(witness.scores):
        raise ReplayMismatch(f"the model scores the hand {got}, the encoding {tuple(witness.scores)}")
    return state


def positions(witness: HandWitness, config=None):
    """Each position of the witness hand before a play, with that play (applied as it goes)."""
    state = start(config)
    state = model.apply(state, model.Deal(deal_order(witness, state.dealer.index)))
    for move in plays(witness):
        yield state, move
        state = model.apply(state, move)


@functools.lru_cache(maxsize=16)
def hand_encoding(rules: Rules) -> HandEncoding:
    """The (immutable once built) encoding of one hand under ``rules``, built once per process."""
    return HandEncoding(rules)


def replay_single(witness: HandWitness, config=None, *, stop_after: int | None = None, check_score: bool = True):
    return replay_hand(start(config), witness, stop_after=stop_after, check_score=check_score)


def replay_match(hands: Sequence[HandWitness], config=None, dealer: int = 0, *, check_score: bool = True):
    """Play a whole sequence of hands in one match; returns the state after each hand."""
    state = start(config, dealer)
    history = []
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

    def arm(self, solver) -> None:
        solver.set("timeout", self.remaining_ms())

    def check(self, solver, *extra):
        """``solver.check(*extra)`` within the remaining budget."""
        self.arm(solver)
        return solver.check(*extra)

    def elapsed(self) -> float:
        return round(time.monotonic() - self.started, 3)


def undecided(solver, where: str = ""):
    """The result for a solver that answered neither sat nor unsat: never "proved"."""
    from cardcanon.proofs.base import CheckResult, Verdict, z3_verdict

    reason = solver.reason_unknown()
    verdict = z3_verdict(z3.unknown, unsat=Verdict.PROVED, sat=Verdict.COUNTEREXAMPLE, reason=reason)
    return CheckResult(verdict, detail=f"{where}: Z3 answered unknown ({reason})".lstrip(": "))


def sat(answer) -> bool:
    return answer == z3.sat
