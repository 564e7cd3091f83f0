"""SNAP-P13: how games end and how the figures label the ending, against the rulebook's text.

- SNAP-END-5: the label of ended positions built by hand (the pot's rank held only face down,
  only face up, deep in a pile, not at all; no pot; nobody holding a card) and of every seeded
  game that ends, equals :func:`cardcanon.proofs.snap.rulebook_text.ending_label`, both the model's
  ``ending_label`` (a function record the runner asks the model again) and the ``termination`` of
  the model's outcome, which the records carry (a record of the position, replayed);
- SNAP-END-1, SNAP-GOAL-1: a seeded game (2 to 12 players, ties) that ends with an empty pot ends
  with one player holding every card of the deck, the one the outcome names; a game over with
  two players holding cards is a counterexample;
- SNAP-END-4: the model's ``play_game`` reports a game endless exactly when a position (the
  piles, the pot and whose turn it is, read apart from the model) recurs, at the first
  recurrence; the lasso seeds are games that never end.
"""

from __future__ import annotations

from typing import Any

from cardcanon.model import snap as model
from cardcanon.model import snap_endings
from cardcanon.model import snap_policies
from cardcanon.model.seats import Seat
from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.snap import Phase, SnapState
from cardcanon.model.snap_records import config_to_json
from cardcanon.model.snap_text import cards_of, repeat_text
from cardcanon.proofs.base import CheckResult, Run, Verdict
from cardcanon.proofs.records import Record, function_record, snap_position, snap_record
from cardcanon.proofs.snap import rulebook_text as snap_text
from cardcanon.proofs.snap.lockstep import first_repeat
from cardcanon.proofs.snap.search import play


# (label, down piles, up piles, pot, the text's answer written out)
OVER = (
    ("the pot's rank held face down only", ("", "9c 4d 8s", ""), ("", "2h", ""), "8h 3c", "winnable-pot"),
    ("the pot's rank held face up only, under the top", ("", "9c 4d", ""), ("", "2h 8s", ""), "8h 3c", "winnable-pot"),
    ("the pot's rank at the bottom of the face-down pile", ("", "", "9c 4d 2c 8s"), ("", "", "Ts"), "8h", "winnable-pot"),
    ("the pot's rank held nowhere", ("9c 4d", "", ""), ("2h Ks", "", ""), "8h 8c 8d 8s", "stuck-pot"),
    ("the pot's rank under its top only", ("9c", "", ""), ("2h", "", ""), "8h 3c 3d", "stuck-pot"),
    ("no pot", ("", "9c 4d", ""), ("", "2h", ""), "", "all-cards"),
    ("nobody holds a card", ("", "", ""), ("", "", ""), "8h 3c", "no-cards"),
)


def label_record(state: SnapState, label: str) -> Record:
    return function_record("snap", "ending_label", [config_to_json(state.config), snap_position(state)], label=label)


def ended_record(state: SnapState, label: str) -> Record:
    """The ended position itself: its replay reaches the outcome, termination and winner, the model names."""
    return snap_record(state.config, (), state, start=state, label=label)


def ended_problem(state: SnapState) -> str:
    """SNAP-END-1 with SNAP-GOAL-1 and SNAP-END-5 on a game that is over; '' when all is well."""
    holders = [s for s in range(state.config.players) if state.down[s] or state.up[s]]
    outcome = state.outcome
    if len(holders) > 1:
        return f"the game is over while {len(holders)} players hold cards"
    if outcome is None:
        return "the game is over without an outcome"
    if not state.pot and holders:
        held = len(state.down[holders[0]]) + len(state.up[holders[0]])
        if held != len(state.config.deck) or outcome.winner != Seat(holders[0]):
            return f"the game ends with an empty pot; {outcome.winner} is named winner, {Seat(holders[0])} holds {held} cards"
    label, text = snap_endings.ending_label(state), snap_text.ending_label(state)
    if label != text:
        return f"the ending is labelled {label}, the text says {text}"
    if outcome.termination.value != text:
        return f"the outcome's termination is {outcome.termination.value}, the text says {text}"
    return ""


def check(run: Run) -> CheckResult:
    run.no_probe()
    bounds = run.bounds
    records: list[Record] = []
    stats: dict[str, Any] = {"labels": 0}
    for label, down, up, pot, answer in OVER:  # SNAP-END-5 on positions built by hand
        state = SnapState(run.snap_config(players=3), Phase.OVER, Seat(0), tuple(map(cards_of, down)),
                          tuple(map(cards_of, up)), cards_of(pot), None, 9)
        got = snap_endings.ending_label(state)
        text = snap_text.ending_label(state)
        record = label_record(state, f"{label}: {got}")
        stats["labels"] += 1
        if got != text or text != answer:
            return CheckResult(Verdict.COUNTEREXAMPLE, f"{label}: the model labels it {got}, the text {text}",
                               records=(record,), stats=stats)
        outcome = state.outcome
        ended = "none" if outcome is None else outcome.termination.value
        position = ended_record(state, f"{label}: the outcome's termination is {ended}")
        if ended != text:
            return CheckResult(Verdict.COUNTEREXAMPLE, f"{label}: the model's outcome is {ended}, the text says {text}",
                               records=(position,), stats=stats)
        records += [record, position]
    # the lassos first: a model that breaks SNAP-END-4 fails here, before the seeded games
    for policy, seed in bounds.get("repeats", [["flipper-first", 47], ["owner-first", 63], ["flipper-first", 0]]):
        config = run.snap_config(players=2)
        result = snap_policies.play_game(config, seed, policy, max_flips=5000)
        found = first_repeat(result.moves, config)
        mine = (result.endless.start, result.endless.length) if result.endless else None
        label = f"2 players, {policy}, seed {seed}: " + (f"repeats {repeat_text(mine)}" if mine else result.status)
        record = snap_record(config, result.moves, result.state, label=label, policy=policy, seed=seed, repeats=mine)
        if mine != found and not (found is None and result.status == "ended"):
            return CheckResult(Verdict.COUNTEREXAMPLE, f"{label}; the text's first repetition: {repeat_text(found)}",
                               records=(record,), stats=stats)
        stats["endless"] = stats.get("endless", 0) + (mine is not None)
        records.append(record)
    policy, max_flips = str(bounds.get("policy", "ties:0.3")), int(bounds.get("max_flips", 1500))
    for n in bounds["players"]:  # SNAP-END-1, SNAP-GOAL-1, SNAP-END-5 in play
        config = run.snap_config(players=n)
        for seed in range(int(bounds["seeds"])):
            rng = SplitMix64(seed)
            played = play(config, model.sample_deal(config, rng), snap_policies.parse_policy(policy).choose, rng,
                          max_flips=max_flips, deterministic=False)
            final = played.final
            if final.phase is not Phase.OVER:
                continue
            label = f"{n} players, {policy}, seed {seed}"
            problem = ended_problem(final)
            tally = snap_text.ending_label(final)
            stats[tally] = stats.get(tally, 0) + 1
            game = played.record(f"{label}: {problem or tally}", policy=policy, seed=seed)
            if problem:
                return CheckResult(Verdict.COUNTEREXAMPLE, f"{label}: {problem}",
                                   records=(game, label_record(final, label)), stats=stats)
            if stats[tally] == 1:
                records += [game, label_record(final, f"{label}: {tally}")]
        run.budget.tick()
    return CheckResult(Verdict.PROVED, f"{stats['labels']} positions built by hand and every seeded ending labelled as "
                                       "the text says; repetitions found where the text finds them",
                       witness="; ".join(r["label"] for r in records[:3]), records=tuple(records), stats=stats)
