"""Z3 witnesses of Hearts replayed through the reference model, each hand noted with ``run.record``:
a ``Deal`` whose order gives the witness's hands and dead cards (HEARTS-DEAL-2), then every ``Play``;
and seeded matches played through it (:func:`seeded_steps`)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any

import z3

from cardcanon.model import hearts as model
from cardcanon.model.cards import Card
from cardcanon.model.errors import IllegalMoveError
from cardcanon.model.hearts_players import Strategy
from cardcanon.model.seats import Seat
from cardcanon.model.shuffle import SplitMix64
from cardcanon.proofs.base import Budget, CheckResult, Disagreement, Run, Verdict, Z3, keep_witness, witnesses_found
from cardcanon.proofs.drops import Drop
from cardcanon.proofs.hearts.encoding import CARDS, HandEncoding, HandWitness, Rules, pretty
from cardcanon.proofs.hearts.play_terms import MEMO
from cardcanon.proofs.hearts.score_terms import equals, hand_scores
from cardcanon.proofs.records import Record, hearts_record


class ReplayMismatch(Disagreement):
    """The reference model disagrees with a Z3 witness (for a proof: a counterexample)."""

    def __init__(self, detail: str, verdict: Verdict = Verdict.COUNTEREXAMPLE) -> None:
        super().__init__(verdict, detail)


class Mismatch(Exception):
    """The encoding and the model differ somewhere: (text, a record showing the model's side there)."""

    def result(self) -> CheckResult:
        text, record = self.args
        return CheckResult(Verdict.COUNTEREXAMPLE, detail=text, witness=text, records=(record,))


def counterexample(record: Record, detail: str | None = None) -> CheckResult:
    """A counterexample shown by one record: its label is the witness (and the detail, unless given)."""
    return CheckResult(Verdict.COUNTEREXAMPLE, detail=detail or record["label"], witness=record["label"],
                       records=(record,))


@dataclass(frozen=True)
class Reached:
    """A position of the model reached by a replay, with the moves from the start of its match."""

    state: model.HeartsState
    moves: tuple[model.Move, ...]

    def then(self, move: model.Move, run: Run, label: str) -> Reached:
        """The position after ``move``; a refused move is recorded (``rejects``) and raised."""
        try:
            return Reached(model.apply(self.state, move), self.moves + (move,))
        except IllegalMoveError as err:
            self.note(run, f"{label}: the model refuses “{move}”", rejects=move)
            raise ReplayMismatch(f"the model refuses “{move}”: {err}") from err

    def note(self, run: Run, label: str, rejects: model.Move | None = None) -> None:
        run.record(hearts_record(self.state.config, self.moves, self.state, label=label, rejects=rejects))


def deal_order(witness: HandWitness, dealer: int) -> tuple[Card, ...]:
    """The deck order that deals the witness's hands when ``dealer`` deals: top card dead, then one
    card at a time from the non-dealer, the last card dead."""
    hands = [sorted(h) for h in witness.hands()]
    middle = [c for pair in zip(hands[1 - dealer], hands[dealer]) for c in pair]
    return tuple(CARDS[c] for c in [witness.dead[0], *middle, witness.dead[1]])


def start(config: model.HeartsConfig, dealer: int = 0) -> Reached:
    """A new match whose first dealer is ``dealer``, waiting for the deal."""
    move = model.ChooseDealer(Seat(dealer))
    return Reached(model.apply(model.new_game(config), move), (move,))


Visit = Callable[[Reached, model.Play], None]


def replay_hand(run: Run, at: Reached, witness: HandWitness, *, stop_after: int | None = None,
                check_score: bool = True, visit: Visit | None = None) -> Reached:
    """Deal and play the witness from a position waiting for a deal, calling ``visit`` before each play
    and stopping after ``stop_after`` plays; checks the hand score unless ``check_score`` is false (a
    probe's witness carries the probe's score)."""
    if at.state.phase is not model.Phase.DEAL or at.state.dealer is None:
        raise ReplayMismatch(f"the model is not waiting for a deal but in phase {at.state.phase}")
    label = f"a hand with dead {pretty(witness.dead)}, scoring {witness.scores[0]}-{witness.scores[1]}"
    at = at.then(model.Deal(deal_order(witness, at.state.dealer.index)), run, label)
    plays = [model.Play(Seat(s), CARDS[c]) for leader, a, b in witness.tricks for s, c in ((leader, a), (1 - leader, b))]
    for i, move in enumerate(plays):
        if i == stop_after:
            at.note(run, f"{label} (first {i} plays)")
            return at
        if at.state.to_move != move.player:
            at.note(run, f"{label}: play {i + 1} by {move.player}", rejects=move)
            raise ReplayMismatch(f"play {i + 1}: the model has {at.state.to_move} to move, the witness {move.player}")
        if visit is not None:
            visit(at, move)
        at = at.then(move, run, label)
    at.note(run, label)
    got = tuple(at.state.hand_scores[-1])
    if check_score and got != tuple(witness.scores):
        raise ReplayMismatch(f"the model scores the hand {got}, the encoding {tuple(witness.scores)}")
    return at


def replay_single(run: Run, witness: HandWitness, config: model.HeartsConfig, *,
                  stop_after: int | None = None, check_score: bool = True, visit: Visit | None = None) -> Reached:
    return replay_hand(run, start(config), witness, stop_after=stop_after, check_score=check_score, visit=visit)


def replay_match(run: Run, hands: Sequence[HandWitness], config: model.HeartsConfig, *,
                 check_score: bool = True) -> list[Reached]:
    """Play a whole sequence of hands in one match; the position after each hand."""
    at = start(config)
    history: list[Reached] = []
    for number, witness in enumerate(hands, 1):
        if at.state.phase is model.Phase.OVER:
            raise ReplayMismatch(f"the match ended before hand {number}")
        try:
            at = replay_hand(run, at, witness, check_score=check_score)
        except ReplayMismatch as err:
            raise ReplayMismatch(f"hand {number}: {err}", err.verdict) from err
        history.append(at)
    return history


def difference_record(at: Reached, expected_cards: Collection[Card], label: str) -> Record:
    """A record showing that the model's legal plays at ``at`` are not ``expected_cards``: a
    play the model allows beyond them (played), else one of them it refuses (``rejects``)."""
    state = at.state
    allowed = [m.card for m in model.legal_moves(state)]
    extra = [c for c in allowed if c not in expected_cards]
    assert state.to_move is not None  # a position with legal plays has a player to move
    if extra:
        play = model.Play(state.to_move, extra[0])
        return hearts_record(state.config, at.moves + (play,), model.apply(state, play), label=label)
    missing = sorted(c for c in expected_cards if c not in allowed)
    return hearts_record(state.config, at.moves, state, label=label, rejects=model.Play(state.to_move, missing[0]))


def rules_for(run: Run, probes: Mapping[str, Mapping[str, Any]],
              states: Callable[[model.HeartsConfig], Collection[str]] | None = None) -> Rules:
    """The rulebook as written under the run's variant, with the run's encoding probe from ``probes``
    (its :class:`Rules` fields) or its dropped rule (``states(config)``: those the encoding states)."""
    written = Rules(config=run.hearts_config())
    if run.dropped is not None:
        return replace(written, drop=Drop.of(run.probe_id, states(written.config) if states else ()))
    name = run.encoding_probe(probes)
    return written if name is None else replace(written, mutations=(name,), **probes[name])


@MEMO.function  # it instantiates the terms derived from the model
def hand_encoding(rules: Rules) -> HandEncoding:
    return HandEncoding(rules)


class Hands:
    """Whole hands played by ``rules``, in one solver: each question is asked under assumptions.
    ``score``: the hand scores, the model's ``score_hand`` derived afresh (it reads the model) over
    the encoding's cards taken and dead."""

    def __init__(self, rules: Rules) -> None:
        self.enc = hand_encoding(rules.skeleton)
        self.score = hand_scores(rules, self.enc.taken, self.enc.dead_cards)
        self.solver = z3.Solver()
        self.solver.add(self.enc.constraints)

    def find(self, budget: Budget, *constraints: Z3) -> HandWitness | None:
        """A hand meeting ``constraints``, or None when Z3 proves there is none."""
        if budget.check(self.solver, *constraints) != z3.sat:
            return None
        return self.enc.decode(self.solver.model(), self.score)

    def scoring(self, budget: Budget, a: int, b: int) -> HandWitness | None:
        return self.find(budget, equals(self.score[0], a), equals(self.score[1], b))


@MEMO.function  # one solver per encoding and scores: runs under variants that read the same terms share it
def hands_of(rules: Rules) -> Hands:
    return Hands(rules)


@dataclass(frozen=True, eq=False)
class Asked:
    """A whole-hand search's answer (``witness``: None when Z3 proves there is none), one object per query asked."""

    witness: HandWitness | None


@MEMO.search
def hand_scoring(budget: Budget, rules: Rules, a: int, b: int) -> Asked:
    """:meth:`Hands.scoring`, asked once for every variant whose encoding and scores are the same terms."""
    return Asked(hands_of(rules).scoring(budget, a, b))


HAND = "a whole hand found by a search under the rules as written"  # its kind among kept witnesses


def found(rules: Rules, answer: Asked) -> None:
    """Keep the witness of a search under ``rules`` for :func:`replayed_found` (when they are the rules as written)."""
    if answer.witness is not None and rules == rules.written:
        keep_witness(HAND, answer.witness)


def replayed_found(run: Run, config: model.HeartsConfig,
                   wanted: Callable[[HandWitness], bool]) -> Iterator[tuple[HandWitness, Reached]]:
    """Each hand an earlier search found (of those ``wanted``, asked as they come) that the model plays and
    scores alike under ``config`` too, replayed (its record noted): a witness under this variant without
    asking Z3."""
    for witness in witnesses_found(HAND):
        if not wanted(witness):
            continue
        noted = len(run.records)
        try:
            at = replay_single(run, witness, config)
        except ReplayMismatch:
            del run.records[noted:]  # not a hand of this variant: its refused play is no record of the run
            continue
        yield witness, at


def found_elsewhere(count: int, of: str) -> str:
    """Words for ``count`` witnesses (``of``: which) that :func:`replayed_found` gave (empty: none)."""
    return "" if not count else (f"; {count} {of} were found by an earlier run's search under another variant, "
                                 f"and the model plays and scores them alike under this one (replayed)")


def asked_under(results: Sequence[object], config: model.HeartsConfig) -> str:
    """Words for the kept search ``results`` that were asked under another variant than ``config``
    (empty: none was): the same query, since its terms read only options on which the two agree."""
    counts: dict[tuple[str, tuple[str, ...]], int] = {}
    for result in results:
        for table, read in MEMO.found_under(result):
            differs = [f"{f.name}={_word(getattr(table, f.name))}" for f in fields(table)
                       if getattr(table, f.name) != getattr(config, f.name)]
            if differs:
                key = (" ".join(differs), tuple(sorted(read)))
                counts[key] = counts.get(key, 0) + 1
    return "".join(f"; {n} of its {len(results)} whole-hand searches were asked under {where} instead, the very "
                   f"same terms: they read only {', '.join(read) or 'no option'}"
                   for (where, read), n in sorted(counts.items()))


def _word(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value


Step = tuple[model.HeartsState, model.Move, model.HeartsState, tuple[model.Play, ...], list[model.Move]]


def seeded_steps(config: model.HeartsConfig, rng: SplitMix64, players: Sequence[Strategy]) -> Iterator[Step]:
    """A match, chance moves drawn from ``rng`` and plays chosen by ``players``, step by step (state
    before, move, state after, the legal plays after, the moves so far) until it is over or the player
    to move has no legal play."""
    state = model.new_game(config)
    legal: tuple[model.Play, ...] = ()
    moves: list[model.Move] = []
    while state.phase is not model.Phase.OVER and (state.is_chance or legal):
        if state.is_chance:
            move = model.sample_chance(state, rng)
        else:
            assert state.to_move is not None  # a position with legal moves has a player to move
            move = players[state.to_move.index](state, legal)
        after = model.apply(state, move)
        moves.append(move)
        legal = model.legal_moves(after)
        yield state, move, after, legal, moves
        state = after
