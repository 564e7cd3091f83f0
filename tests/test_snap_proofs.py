"""The Snap Z3 encodings against the reference model, and the manifest's checks and probes.

Differential tests: Hypothesis deals small decks, plays a few random legal moves through the
model, then evaluates the Z3 transition encoding (``step``) and legality (``legal``) on the
position reached and compares them with ``cardcanon.model.snap`` (``apply``, ``legal_moves``,
``correct_kinds``, ``matched_seats``). Then every check of ``proofs/manifest/snap.toml`` must
give its expected verdict (quick bounds) and every probe must be killed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import z3
from hypothesis import given, strategies as st

from cardcanon.verify.manifest import load_manifest, resolve_entry
from cardcanon.model.cards import FULL_DECK
from cardcanon.model.errors import IllegalMoveError
from cardcanon.model.seats import Seat
from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.snap import (
    Call, CallKind, Flip, NextTurn, Phase, SnapConfig, Tie, apply, correct_kinds, legal_moves, matched_seats, new_game,
    sample_deal,
)
from cardcanon.model.snap_policies import play_game
from cardcanon.proofs.snap import encoding as enc
from cardcanon.proofs.snap import rotation
from cardcanon.verify.records import replay
from cardcanon.verify.runner import run_check
from cardcanon.proofs.base import CONTRARY, Verdict
from cardcanon.proofs.snap.search import play_seed
from conftest import PROFILE, engine_check_not_applicable

MANIFEST = Path(__file__).resolve().parent.parent / "proofs" / "manifest" / "snap.toml"
CHECKS = load_manifest(MANIFEST)
# the checks that take seconds of solver time in the quick suite: CI runs them with ``-m slow``
# checks of more than a quarter of a second run with -m slow (and in every `cardcanon verify`); the
# quick suite runs SNAP-P4 and SNAP-P7 through verify (test_verify_catches_model_bugs) and compares
# the engine with the model (test_engine_equivalence) and the encoding with it (below)
SLOW_CHECKS = {"SNAP-P1-conservation", "SNAP-P2-deal", "SNAP-P7-players-out", "SNAP-P4-index-no-pot", "SNAP-P8-engine",
               "SNAP-P6-penalty", "SNAP-P9-encoding", "SNAP-P12-locality", "SNAP-P15-end2-winner", "SNAP-P16-no-cards"}


# Few ranks, so that matches, ties and pots are frequent.
POOL = tuple(c for c in FULL_DECK if int(c.rank) <= 4)


def _interesting(draw, state):
    """A legal move, drawn from a category first so that ties and correct calls are common."""
    moves = legal_moves(state)
    correct = correct_kinds(state)
    by_kind = {
        "tie": [m for m in moves if isinstance(m, Tie)],
        "correct": [m for m in moves if isinstance(m, Call) and m.kind in correct],
        "wrong": [m for m in moves if isinstance(m, Call) and m.kind not in correct],
    }
    pool = by_kind[draw(st.sampled_from(sorted(by_kind)))] or list(moves)
    return draw(st.sampled_from(pool))


@st.composite
def positions(draw, players=(2, 4), pool=POOL, most_steps=40):
    """A FLIP or CALL position of a game of ``players`` (least, most) with a deck from ``pool``,
    reached by legal play (never over)."""
    config = SnapConfig(players=draw(st.integers(*players)), index_card=draw(st.booleans()),
                        next_turn=draw(st.sampled_from(NextTurn)),
                        deck=tuple(draw(st.permutations(pool))[:draw(st.integers(2, len(pool)))]))
    state = apply(new_game(config), sample_deal(config, SplitMix64(draw(st.integers(0, 2**32)))))
    for _ in range(draw(st.integers(0, most_steps))):
        after = apply(state, _interesting(draw, state))
        if after.phase is Phase.OVER:
            break
        state = after
    return state


def _encoded(state, move):
    sym = enc.concrete_state(state)
    mv = enc.concrete_move(move, state.config.players)
    legal = z3.simplify(enc.legal(sym, mv, state.config))
    return z3.is_true(legal), sym, mv


@pytest.mark.rules("SNAP-FLIP-1", "SNAP-FLIP-3", "SNAP-CALL-1", "SNAP-CALL-4", "SNAP-CALL-5", "SNAP-TIE-1",
                   "SNAP-TIE-2", "SNAP-POT-1", "SNAP-POT-2", "SNAP-POT-3", "SNAP-INDEX-1", "SNAP-PEN-1",
                   "SNAP-PEN-2", "SNAP-PEN-3", "SNAP-TURN-2", "SNAP-OUT-1", "SNAP-END-1", "SNAP-END-2", "SNAP-END-3")
@given(positions(), st.data())
def test_step_agrees_with_model_apply(state, data):
    move = _interesting(data.draw, state)
    legal, sym, mv = _encoded(state, move)
    assert legal, f"encoding rejects the model's legal move {move!r}"
    encoded = enc.evaluate(enc.step(sym, mv, state.config))
    assert enc.same_position(encoded, enc.position_of(apply(state, move))), move


ROTATION_POOL = tuple(c for c in FULL_DECK if int(c.rank) <= 8)  # 7 ranks: matches stay frequent


def large_tables():
    """A FLIP or CALL position of 2 to 12 players (SNAP-PLAYERS-1), reached by legal play."""
    return positions(players=(2, 12), pool=ROTATION_POOL, most_steps=60)


@pytest.mark.rules("SNAP-CALL-4", "SNAP-TURN-2", "SNAP-PEN-2")
@given(large_tables(), st.data())
def test_step_commutes_with_rotation(state, data):
    """The premise of SNAP-P1's rotation argument: turning the table so that the flipper sits at
    seat 0, before a move, gives (in the model and in the encoding) the position after the move,
    turned the same way; so the proof may fix the flipper at seat 0."""
    n = state.config.players
    k = (-state.player.index) % n or data.draw(st.integers(1, n - 1))
    turned = rotation.turned_state(state, k)
    assert set(legal_moves(turned)) == {rotation.turned_move(m, k, n) for m in legal_moves(state)}
    for move in {_interesting(data.draw, state) for _ in range(3)}:
        assert apply(turned, rotation.turned_move(move, k, n)) == rotation.turned_state(apply(state, move), k), move
        legal, sym, mv = _encoded(state, move)
        legal_turned, sym_turned, mv_turned = _encoded(turned, rotation.turned_move(move, k, n))
        assert legal and legal_turned, move
        after = enc.evaluate(enc.step(sym, mv, state.config))
        after_turned = enc.evaluate(enc.step(sym_turned, mv_turned, state.config))
        assert enc.same_position(after_turned, rotation.turned_position(after, k, n)), (k, move)


def test_the_rotation_premise_check_fails_on_an_encoding_that_reads_seat_numbers(monkeypatch):
    """SNAP-P1 checks its rotation premise inside verify: on the encoding as written it holds
    at every table size and meets each kind of step; an encoding that works out the seats after
    seat 0 instead of after the flipper (right at seat 0, wrong elsewhere) fails it."""
    checked, problem = rotation.premise_fails((3, 12), SnapConfig)
    assert (checked, problem) == (10, None)  # one step of each of the five kinds at each table
    monkeypatch.setattr(enc, "per_flipper", lambda st, build, combine=None: build(0))
    checked, problem = rotation.premise_fails((3, 12), SnapConfig)
    assert problem is not None and "turned by" in problem


def _category(state, move):
    """The rare kinds of step that a differential test must reach (None: an ordinary step)."""
    if isinstance(move, Flip):
        return "flip with turn-over" if not state.down[state.turn.index] else None
    if isinstance(move, Tie):
        return "tie onto a pot" if state.pot else ("tie of three piles" if len(matched_seats(state)) >= 2 else None)
    if not isinstance(move, Call):
        return None
    if move.kind not in correct_kinds(state):
        if not state.down[move.caller.index]:
            return "penalty with turn-over"
        return "penalty by the flipper" if move.caller == state.turn else None
    if move.kind is CallKind.SNAP_POT and len(state.pot) >= 2:
        return "pot won"
    if state.config.next_turn is NextTurn.WINNER and move.caller != state.turn:
        return "winner takes the turn"
    return "snap won beside a pot" if state.pot and move.kind is CallKind.SNAP else None


CATEGORIES = {"flip with turn-over", "tie onto a pot", "tie of three piles", "penalty with turn-over",
              "penalty by the flipper", "pot won", "winner takes the turn", "snap won beside a pot", "game over"}


@pytest.mark.rules("SNAP-FLIP-3", "SNAP-TIE-1", "SNAP-TIE-2", "SNAP-CALL-4", "SNAP-CALL-5", "SNAP-POT-1",
                   "SNAP-PEN-1", "SNAP-PEN-2", "SNAP-PEN-3", "SNAP-TURN-2", "SNAP-END-1", "SNAP-END-2", "SNAP-END-3")
def test_step_agrees_on_every_rare_kind_of_move():
    """Seeded play with frequent ties and wrong calls; the first few steps of every rare kind are
    compared with the model, and every kind must be reached."""
    import random

    seen: dict[str, int] = {}
    for seed in range(400):
        rnd = random.Random(seed)
        config = SnapConfig(players=3, next_turn=NextTurn.WINNER if seed % 2 else NextTurn.CLOCKWISE, deck=POOL)
        state = apply(new_game(config), sample_deal(config, SplitMix64(seed)))
        while state.phase is not Phase.OVER and state.flips < 60:
            moves = legal_moves(state)
            rare = [m for m in moves if _category(state, m)]
            move = rnd.choice(rare if rare and rnd.random() < 0.7 else list(moves))
            after = apply(state, move)
            kind = "game over" if after.phase is Phase.OVER else _category(state, move)
            if kind and seen.get(kind, 0) < 3:
                seen[kind] = seen.get(kind, 0) + 1
                legal, sym, mv = _encoded(state, move)
                assert legal, move
                assert enc.same_position(enc.evaluate(enc.step(sym, mv, config)), enc.position_of(after)), (kind, move)
            state = after
        if set(seen) >= CATEGORIES and min(seen.values()) >= 3:
            break
    assert set(seen) == CATEGORIES, f"never reached: {CATEGORIES - set(seen)}"


@pytest.mark.rules("SNAP-CALL-2", "SNAP-CALL-3", "SNAP-INDEX-1", "SNAP-TIE-1", "SNAP-OUT-1")
@given(positions(), st.data())
def test_legality_agrees_with_model(state, data):
    """Any call or tie, legal or not: the encoding allows it exactly when the model applies it."""
    if state.phase is not Phase.CALL:
        return
    n = state.config.players
    kind = data.draw(st.sampled_from(list(CallKind)))
    if data.draw(st.booleans()):
        move = Call(Seat(data.draw(st.integers(0, n - 1))), kind)
    else:
        move = Tie(frozenset(Seat(s) for s in data.draw(st.sets(st.integers(0, n - 1), min_size=1))), kind)
    legal, _, _ = _encoded(state, move)
    try:
        apply(state, move)
        applied = True
    except IllegalMoveError:
        applied = False
    assert legal == applied, move


@pytest.mark.rules("SNAP-MATCH-1", "SNAP-MATCH-2", "SNAP-CALL-1", "SNAP-POT-1", "SNAP-POT-3", "SNAP-INDEX-1")
@given(positions())
def test_matching_and_correct_calls_agree(state):
    if state.phase is not Phase.CALL:
        return
    sym = enc.concrete_state(state)
    matched = [z3.is_true(z3.simplify(m)) for m in enc.matched(sym)]
    assert [Seat(s) for s in range(state.config.players) if matched[s]] == sorted(matched_seats(state))
    correct = {k for k in state.config.kinds if z3.is_true(z3.simplify(enc.correct(sym, k)))}
    assert correct == set(correct_kinds(state))


@pytest.mark.rules("SNAP-END-4")
def test_lasso_search_and_stored_seed_agree_with_play_game():
    seed, played = next((seed, played) for seed in range(0, 60)
                        if (played := play_seed(SnapConfig(), seed, "flipper-first", 20_000)).cycle is not None)
    reference = play_game(SnapConfig(), seed, "flipper-first")
    assert reference.endless is not None and played.cycle == (reference.endless.start, reference.endless.length)
    stored, cycle = play_seed(SnapConfig(), 61, "flipper-first", 5000), play_game(SnapConfig(), 61, "flipper-first").endless
    assert stored.cycle == (cycle.start, cycle.length) == (2, 52)


def _run(check, probe, quick=True):
    bounds = check.bounds_for(quick)
    return run_check(resolve_entry(check.entry), probe=probe, timeout=120.0, bounds=bounds)


def replayed(result):
    return bool(result.records) and all(replay(r).ok for r in result.records)


def _param(check, *rest):
    return pytest.param(check, *rest, marks=pytest.mark.rules(*check.rules),
                        id=":".join([check.id, *map(str, rest)]))


@pytest.mark.parametrize("check", [_param(c) for c in CHECKS if c.id not in SLOW_CHECKS]
                         + [pytest.param(*_param(c).values, marks=[*_param(c).marks, pytest.mark.slow], id=c.id)
                            for c in CHECKS if c.id in SLOW_CHECKS])
def test_check_gives_expected_verdict(check):
    result = _run(check, None)
    if engine_check_not_applicable(check, result):
        return
    assert result.verdict == check.expected, result.detail
    assert result.witness and replayed(result), result.witness
    if check.expected_stats is not None and check.ci_bounds is None:
        assert {k: result.stats.get(k) for k in check.expected_stats} == dict(check.expected_stats)


@pytest.mark.slow  # verify runs them too
@pytest.mark.parametrize("check,probe", [_param(c, m.id) for c in CHECKS for m in c.declared_probes])
def test_probe_is_killed(check, probe):
    result = _run(check, probe)
    assert result.verdict in CONTRARY[check.expected], (result.verdict, result.detail)
    if result.verdict is Verdict.COUNTEREXAMPLE:  # the broken step, replayed: the model disagrees
        assert replayed(result), result.witness


# CI: the engine's checks; the others' golden stats are compared by every full `cardcanon verify`,
# which CI runs without the engine (a thorough run: every check here as well)
@pytest.mark.slow
@pytest.mark.parametrize("check", [_param(c) for c in CHECKS if c.ci_bounds is not None and c.expected_stats is not None
                                   and (PROFILE == "thorough" or c.engine_covers is not None)])
def test_full_bounds_reproduce_golden_stats(check):
    result = _run(check, None, quick=False)
    if engine_check_not_applicable(check, result):
        return
    assert result.verdict == check.expected, result.detail
    assert {k: result.stats.get(k) for k in check.expected_stats} == dict(check.expected_stats)


# ---- vacuity probes: a Z3 proof without one of its cited rules ---------------------------------
def _check(check_id):
    return next(c for c in CHECKS if c.id == check_id)


@pytest.mark.slow  # each rule of each proof; quick: each stated rule changes the encoding (below)
@pytest.mark.parametrize("check,rule", [_param(c, r) for c in CHECKS if c.kind == "z3-proof" for r in c.rules])
def test_drop_probe_is_killed(check, rule):
    """Every rule a Snap Z3 proof cites: the proof fails without it (quick bounds)."""
    result = _run(check, f"drop:{rule}")
    assert result.verdict in CONTRARY[check.expected], (result.verdict, result.detail)


@pytest.mark.parametrize("check_id,rule", [("SNAP-P1-conservation", "SNAP-DEAL-2"), ("SNAP-P2-deal", "SNAP-TIE-1"),
                                           ("SNAP-P6-penalty", "SNAP-NO-SUCH-1")])
def test_dropping_a_rule_the_encoding_does_not_state_is_an_error(check_id, rule):
    with pytest.raises(ValueError, match="states nothing of"):
        _run(_check(check_id), f"drop:{rule}")


def _encoding_terms(drop):
    """Every legality constraint, successor and penalty term of the encoding, 3 players, both tables."""
    from cardcanon.proofs.snap.replay import slot_state

    out, i = [], z3.Int("i")
    for index_card in (False, True):
        config = SnapConfig(players=3, index_card=index_card)
        for shape in enc.shapes(config, drop):
            pre, mv = slot_state(3, 53), enc.fresh_move(shape, 3)
            post = enc.step(pre, mv, config, drop=drop)
            out += [enc.legal(pre, mv, config, drop=drop), post.turn, post.phase, post.pot.length, post.pot.at(i)]
            out += [p.length for p in post.down + post.up] + [p.at(i) for p in post.down + post.up]
            if shape.move is enc.MoveKind.CALL:
                out += list(enc.penalty_parts(pre, mv, drop))
    return out


def test_every_rule_the_encoding_states_changes_it():
    """A rule in STATES whose drop leaves the encoding as it is would be a probe that drops nothing."""
    from cardcanon.proofs.drops import Drop

    whole = _encoding_terms(Drop())
    for rule in sorted(enc.STATES):
        terms = _encoding_terms(Drop(rule))
        assert len(terms) != len(whole) or not all(a.eq(b) for a, b in zip(terms, whole)), rule
