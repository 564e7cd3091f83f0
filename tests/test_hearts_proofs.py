"""The Hearts Z3 encodings against the reference model, and the manifest's checks and probes.

Differential tests: the Z3 terms the proofs use (the whole-hand encoding, per-card scoring, the
match decision) are evaluated on concrete states, deals and tricks and compared with
``cardcanon.model.hearts`` (the derived play terms: ``tests/test_derived_play.py``). Then every check of
``proofs/manifest/hearts.toml`` must give its expected verdict and every probe must be killed.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
import z3
from hypothesis import given, strategies as st

from cardcanon.verify.manifest import load_combinations, load_manifest, resolve_entry
from cardcanon.model import hearts as model
from cardcanon.model.hearts_players import GreedyPlayer, RandomPlayer
from cardcanon.model.shuffle import SplitMix64
from cardcanon.verify.records import replay
from cardcanon.verify.runner import run_check
from cardcanon.proofs.base import Run
from cardcanon.proofs.base import CONTRARY, Verdict
from cardcanon.proofs.drops import Drop, probe_id
from cardcanon.proofs.hearts.encoding import NON_HEARTS, SCORING_STATES, HandEncoding, hand_states
from cardcanon.verify.variants import hearts_config, plan, variant_name
from cardcanon.proofs.hearts.encoding import CARDS, HEARTS, INDEX, POINT_CARDS, HandWitness, Rules
from cardcanon.proofs.z3_eval import compile_term
from conftest import PROFILE, engine_check_not_applicable
from cardcanon.proofs.hearts.score_terms import MATCH_STATES, hand_scores, match_result_terms
from cardcanon.proofs.hearts.replay import Hands, deal_order, replay_single, start
from cardcanon.proofs.hearts.p4_score_sum import check as check_score_sum
from cardcanon.proofs.hearts.scores import predicted_pairs

MANIFEST = Path(__file__).resolve().parent.parent / "proofs" / "manifest" / "hearts.toml"
ALL_VARIANTS = model.HeartsConfig(
    first_lead=model.FirstLead.FREE, break_on=model.BreakOn.VOID,
    first_trick_points=model.FirstTrickPoints.NO_HEARTS, moon_score=model.MoonScore.POINTS_IN_PLAY,
)
QUEEN_BREAKS = model.HeartsConfig(queen_breaks=model.QueenBreaks.YES)
CONFIGS = [model.HeartsConfig(), ALL_VARIANTS, QUEEN_BREAKS]
seeds = st.integers(min_value=0, max_value=2**64 - 1)


def play_hand(seed: int, config: model.HeartsConfig):
    """One hand dealt from ``seed`` and played by seeded players: (positions, final state)."""
    state = start(config, dealer=seed % 2).state
    state = model.apply(state, model.Deal(SplitMix64(seed).shuffled(model.DECK)))
    players = (RandomPlayer(seed), GreedyPlayer() if seed % 3 == 0 else RandomPlayer(seed + 1))
    positions = []
    while state.phase is model.Phase.PLAY:
        move = players[state.to_move.index](state, model.legal_moves(state))
        positions.append((state, move))
        state = model.apply(state, move)
    return positions, state


@functools.lru_cache(maxsize=4)
def hand_solver(config: model.HeartsConfig) -> Hands:
    """One incremental solver per configuration holding the whole-hand encoding, with its derived scores."""
    return Hands(Rules(config=config))


def witness_of(positions, final) -> HandWitness:
    plays = [move for _, move in positions]
    tricks = tuple((a.player.index, INDEX[a.card], INDEX[b.card]) for a, b in zip(plays[::2], plays[1::2]))
    return HandWitness(tricks, tuple(sorted(INDEX[c] for c in final.dead)), tuple(final.hand_scores[-1]))


# ---- differential tests --------------------------------------------------------------------

@pytest.mark.rules("HEARTS-DECK-1", "HEARTS-RANK-1")
def test_encoding_card_numbers_are_the_model_deck():
    """Card i of the encodings is DECK[i]: suit i // 7, rank i % 7 in rank order."""
    assert CARDS == model.DECK
    assert sorted(INDEX[c] for c in model.POINT_CARDS) == sorted(POINT_CARDS)


# (the derived play terms against the model: tests/test_derived_play.py)


@pytest.mark.rules("HEARTS-DEAL-2", "HEARTS-TRICK-1", "HEARTS-TRICK-2", "HEARTS-TRICK-3", "HEARTS-FOLLOW-1",
                   "HEARTS-BREAK-1", "HEARTS-LEAD-2", "HEARTS-SCORE-1", "HEARTS-MOON-1", "HEARTS-MOON-2")
@given(seed=seeds, variants=st.integers(min_value=0, max_value=len(CONFIGS) - 1))
def test_every_model_hand_satisfies_the_hand_encoding(seed, variants):
    """Model-legal hands are encoding-legal, with the same scores (the encoding forbids nothing legal)."""
    config = CONFIGS[variants]
    positions, final = play_hand(seed, config)
    witness = witness_of(positions, final)
    hands = hand_solver(config)
    enc, solver = hands.enc, hands.solver
    assert solver.check(*enc.fix(witness)) == z3.sat
    assert enc.decode(solver.model(), hands.score) == witness


@pytest.mark.rules("HEARTS-DEAL-2", "HEARTS-FOLLOW-1", "HEARTS-BREAK-1", "HEARTS-TRICK-2", "HEARTS-SCORE-1")
@given(seed=seeds, variants=st.integers(min_value=0, max_value=len(CONFIGS) - 1),
       pinned=st.integers(min_value=0, max_value=8))
def test_every_encoding_hand_replays_in_the_model(seed, variants, pinned):
    """Encoding-legal hands are model-legal: pin a model deal and its first tricks, let Z3 play
    the rest, and replay the result (the encoding allows nothing illegal)."""
    config = CONFIGS[variants]
    positions, final = play_hand(seed, config)
    witness = witness_of(positions, final)
    encoded = hand_solver(config)
    enc, solver = encoded.enc, encoded.solver
    hands = witness.hands()
    pins = [enc.dead[c] for c in witness.dead] + [enc.hold[c] == (c in hands[1]) for c in hands[0] | hands[1]]
    pins += enc.fix(HandWitness(witness.tricks[:pinned], witness.dead, witness.scores))
    assert solver.check(*pins) == z3.sat
    found = enc.decode(solver.model(), encoded.score)
    assert found.hands() == hands and found.dead == witness.dead
    replay_single(Run(), found, config)  # raises if a play is illegal or the score differs


@pytest.mark.rules("HEARTS-DEAL-2")
@given(seed=seeds, dealer=st.integers(min_value=0, max_value=1))
def test_deal_order_deals_the_witness_hands(seed, dealer):
    positions, final = play_hand(seed, model.HeartsConfig())
    witness = witness_of(positions, final)
    hands, dead = model.deal_hands(deal_order(witness, dealer), model.Seat(dealer))
    assert tuple(frozenset(INDEX[c] for c in h) for h in hands) == witness.hands()
    assert tuple(sorted(INDEX[c] for c in dead)) == witness.dead


@given(a=st.integers(min_value=-40, max_value=40), b=st.integers(min_value=-40, max_value=40), flag=st.booleans())
def test_compile_term_agrees_with_z3(a, b, flag):
    x, y, f = z3.Int("x"), z3.Int("y"), z3.Bool("f")
    terms = [z3.If(f, x / 7 == 2, x % 7 > 3), z3.Xor(f, x + y - 1 >= 0), z3.Implies(x != y, z3.Or(f, x * 2 < y)),
             z3.Sum([z3.If(x > 0, 1, 0), -y, 3]) <= 5, z3.Distinct(x, y, 0)]
    values = [(x, z3.IntVal(a)), (y, z3.IntVal(b)), (f, z3.BoolVal(flag))]
    for term in terms:
        assert compile_term(term)({"x": a, "y": b, "f": flag}) == z3.is_true(z3.simplify(z3.substitute(term, *values)))


@pytest.mark.rules("HEARTS-SCORE-1", "HEARTS-MOON-2")
def test_point_card_splits_give_49_pairs():
    """The comparison set of HEARTS-P5, from the model's score_hand alone."""
    pairs = predicted_pairs()
    assert len(pairs) == 49 and (3, 3) in pairs and (0, 20) in pairs and (10, 10) not in pairs


def test_an_undecided_solver_is_never_proved():
    result = run_check(check_score_sum, probe=None, timeout=0.001, bounds={})
    assert result.verdict in (Verdict.TIMEOUT, Verdict.UNKNOWN)


def replayed(result):
    return bool(result.records) and all(replay(r).ok for r in result.records)


# ---- the manifest's checks and probes ---------------------------------------------------------

CHECKS = load_manifest(MANIFEST)
# runs of more than a third of a second: CI runs them with ``-m slow`` (and every `cardcanon verify`)
SLOW = {("HEARTS-P5-score-pairs", None), ("HEARTS-P6-match-bound", None), ("HEARTS-P7-match-decision", None),
        ("HEARTS-P10-engine", None), ("HEARTS-P1-legal-move", None), ("HEARTS-P6-match-bound", "widow"),
        ("HEARTS-P6-match-bound", "target-90"), ("HEARTS-P6-match-bound", "target-110"),
        ("HEARTS-P1-legal-move", "no-heart-lead-exception"), ("HEARTS-P9-match-play", None),
        ("HEARTS-P11-encoding", None), ("HEARTS-P8-endless-tie", None), ("HEARTS-P4-score-sum", None)}


def _runs():
    for check in CHECKS:
        for probe in (None, *(m.id for m in check.declared_probes)):
            # the probes run in every verification too; the quick suite runs each check as written
            slow = (check.id, probe) in SLOW or probe is not None
            marks = [pytest.mark.rules(*check.rules)] + ([pytest.mark.slow] if slow else [])
            yield pytest.param(check, probe, marks=marks, id=f"{check.id}-{probe or 'as-written'}")


@pytest.mark.parametrize(("check", "probe"), list(_runs()))
def test_check_verdict(check, probe):
    result = run_check(resolve_entry(check.entry), probe=probe, timeout=120.0, bounds=dict(check.bounds_for(quick=True)))
    if engine_check_not_applicable(check, result):
        return
    if probe is None:
        assert result.verdict == check.expected, result.detail
        assert result.witness and replayed(result), result.detail
        if check.expected_stats is not None and check.ci_bounds is None:
            assert {k: result.stats.get(k) for k in check.expected_stats} == dict(check.expected_stats)
    else:
        assert result.verdict in CONTRARY[check.expected], f"probe {probe} survived: {result.detail}"


@pytest.mark.parametrize("budget", [0.05, 0.25, *(pytest.param(b, marks=pytest.mark.slow) for b in (0.2, 0.5, 1.0))])
@pytest.mark.parametrize("entry", ["cardcanon.proofs.hearts.p4_score_sum:check",
                                   "cardcanon.proofs.hearts.p5_score_pairs:check",
                                   "cardcanon.proofs.hearts.p6_match_bound:check"])
def test_a_budget_running_out_is_timeout_never_error(entry, budget):
    result = run_check(resolve_entry(entry), probe=None, timeout=budget, bounds={})
    assert result.verdict in (Verdict.TIMEOUT, Verdict.PROVED), (result.verdict, result.detail)


# ---- every variant, and the vacuity probes -------------------------------------------------------

VARIANTS = plan("hearts", [c for game, c in load_combinations() if game == "hearts"]).variants
# the quick suite runs P3 where its claim differs; every check under every variant runs with -m slow
CHEAP = {
    ("HEARTS-P3-first-leader", name) for name in ("first_lead=free", "first_lead=free,first_trick_points=no-hearts")}


def _ci_variants(index: int, check) -> set[str]:
    """CI's share (every full `cardcanon verify` runs them all): the variants whose verdict or golden
    numbers the manifest states apart for the check, and one more in turn, so that each runs."""
    turn = VARIANTS[1 + index % (len(VARIANTS) - 1)]
    return {variant_name(turn), *check.expected_variant, *check.expected_stats_variant}


def _variant_runs():
    for index, check in enumerate(c for c in CHECKS if c.kind.value != "replay"):
        for variant in VARIANTS:
            cheap = (check.id, variant_name(variant)) in CHEAP
            if not cheap and PROFILE != "thorough" and variant_name(variant) not in _ci_variants(index, check):
                continue
            marks = [pytest.mark.rules(*check.rules)] + ([] if cheap else [pytest.mark.slow])
            yield pytest.param(check, variant, marks=marks, id=f"{check.id}-{variant_name(variant)}")


@pytest.mark.parametrize(("check", "variant"), list(_variant_runs()))
def test_check_under_every_variant(check, variant):
    """Each Z3 check reaches its expected verdict, with its golden numbers, under every variant
    verify runs (the encoding and the replays under that variant's configuration)."""
    result = run_check(resolve_entry(check.entry), probe=None, timeout=120.0,
                                        bounds={**check.bounds_under(variant, quick=False), }, variant=variant)
    assert result.verdict == check.expected_for(variant), result.detail
    assert result.records and replayed(result), result.detail
    assert all(r.get("config", {}) == {} or model_config(r) == hearts_config(variant) for r in result.records)
    expected = check.stats_for(variant)
    if expected is not None:
        assert {k: result.stats.get(k) for k in expected} == dict(expected)


def model_config(record):
    from cardcanon.model.hearts_records import config_from_json

    return config_from_json(record["config"], "record")


def test_moon_points_in_play_changes_the_score_pairs():
    """HEARTS-MOON-2's option: a moon gives the other player the points in play, so pairs such as
    0-19 and 0-6 appear; every other pair is the same."""
    default, in_play = predicted_pairs(), predicted_pairs(hearts_config({"moon_score": "points-in-play"}))
    assert in_play - default == {(0, 6), (0, 7), (0, 18), (0, 19), (6, 0), (7, 0), (18, 0), (19, 0)}
    assert default <= in_play


def _probe_runs():
    for check in CHECKS:
        if check.kind.value != "z3-proof":
            continue
        for rule in check.rules:
            marks = [pytest.mark.rules(rule)] + ([] if check.id == "HEARTS-P4-score-sum" else [pytest.mark.slow])
            yield pytest.param(check, rule, marks=marks, id=f"{check.id}-drop-{rule}")


@pytest.mark.parametrize(("check", "rule"), list(_probe_runs()))
def test_every_drop_probe_is_killed(check, rule):
    """Each cited rule's constraints, left out of the check's encoding, make the proof fail."""
    result = run_check(resolve_entry(check.entry), probe=probe_id(rule), timeout=60.0, bounds=dict(check.bounds_for(quick=False)))
    assert result.verdict in CONTRARY[check.expected], f"drop:{rule} survived: {result.detail}"
    assert not result.records or replayed(result), result.detail


def test_a_rule_the_encoding_does_not_state_cannot_be_dropped():
    with pytest.raises(ValueError, match="states nothing of HEARTS-MATCH-1"):
        run_check(check_score_sum, probe=probe_id("HEARTS-MATCH-1"), timeout=10.0, bounds={})


def test_queen_breaks_hearts_in_the_hand_encoding():
    """HEARTS-QUEEN-2's option: with queen_breaks = yes a heart may be led after the queen of
    spades was played and no heart was; by default it may not."""
    queen = INDEX[model.QUEEN_OF_SPADES]
    for config, allowed in ((model.HeartsConfig(), False), (QUEEN_BREAKS, True)):
        enc, solver = hand_solver(config).enc, hand_solver(config).solver
        lead_after_queen = z3.Or([z3.And(enc.played[queen][k], z3.Not(z3.Or([enc.played[h][j] for h in HEARTS
                                                                              for j in range(k + 1)])),
                                         z3.Or([enc.pos[h][k + 1][0] for h in HEARTS]),
                                         z3.Or([enc.leader_holds(k + 1)[c] for c in NON_HEARTS]))
                                  for k in range(12)])
        assert (solver.check(lead_after_queen) == z3.sat) is allowed


def _stated_terms(part: str, rules: Rules):
    """The terms one part of the encoding builds under ``rules`` (for the stated-rules test)."""
    if part == "scoring":
        taken = [{card: z3.Bool(f"t{p}_{c}") for c, card in enumerate(CARDS)} for p in (0, 1)]
        return list(hand_scores(rules, taken, {card: z3.Bool(f"d{c}") for c, card in enumerate(CARDS)}))
    if part == "match":
        decided = match_result_terms(rules, z3.Ints("q0 q1"), z3.Ints("p0 p1"))
        return [decided.ends, *decided.wins, decided.label]
    enc = HandEncoding(rules)
    return [*enc.constraints, *hand_scores(rules, enc.taken, enc.dead_cards), *enc.broken_before]


STATED = {"scoring": lambda config: SCORING_STATES, "match": lambda config: MATCH_STATES, "hand": hand_states}


def _stated_runs():
    """Each part under each configuration; the whole hand's encoding (seconds a rule) is slow, and
    CI runs it under every variant at once only."""
    for config, name in ((model.HeartsConfig(), "default"), (ALL_VARIANTS, "all"), (QUEEN_BREAKS, "queen")):
        for part in STATED:
            if part == "hand" and name != "all" and PROFILE != "thorough":
                continue
            yield pytest.param(part, config, marks=[pytest.mark.slow] if part == "hand" else [], id=f"{name}-{part}")


@pytest.mark.parametrize(("part", "config"), list(_stated_runs()))
def test_each_stated_rule_is_stated(part, config):
    """Every rule a part of the encoding declares, under a variant, changes its terms when
    dropped (so a probe never drops nothing), and no undeclared rule does."""
    written = _stated_terms(part, Rules(config=config))
    states = set(STATED[part](config))
    for rule in sorted(states | {"HEARTS-LEAD-3", "HEARTS-FIRST-1", "HEARTS-QUEEN-2", "HEARTS-MATCH-1"}):
        dropped = _stated_terms(part, Rules(config=config, drop=Drop(rule)))
        same = len(dropped) == len(written) and all(a.eq(b) for a, b in zip(dropped, written))
        assert same != (rule in states), rule


def test_a_witness_found_under_one_variant_is_replayed_under_another_before_z3_is_asked(monkeypatch):
    """A whole-hand witness is kept by its scores; a later run takes it only when the model under its
    own variant plays the hand and scores it so (the failed replay leaves no record), and never while
    a model mutant is patched."""
    from cardcanon.proofs import base
    from cardcanon.proofs.hearts import replay as hand_replay

    monkeypatch.setattr(base, "_FOUND", {})
    answer = hand_replay.hand_scoring(base.Budget(60.0), Rules(), 0, 20)
    hand_replay.found(Rules(), answer)
    assert answer.witness is not None
    wrong = hand_replay.Asked(HandWitness(answer.witness.tricks, answer.witness.dead, (3, 3)))
    hand_replay.found(Rules(), wrong)
    hand_replay.found(Rules(mutations=("queen-12",)), hand_replay.Asked(HandWitness((), (), (4, 4))))  # a probe's: not kept
    assert [w.scores for w in base.witnesses_found(hand_replay.HAND)] == [(0, 20), (3, 3)]
    free = hearts_config({"first_lead": "free"})

    def first(run, a, b):
        return next(hand_replay.replayed_found(run, free, lambda hand: tuple(hand.scores) == (a, b)), None)

    run = Run()
    again = first(run, 0, 20)
    assert again is not None and again[0] == answer.witness and again[1].state.hand_scores[-1] == (0, 20)
    assert len(run.records) == 1
    assert first(run, 3, 3) is None and len(run.records) == 1  # the model scores that hand 0-20
    base.set_caching(False)
    try:
        assert first(Run(), 0, 20) is None
    finally:
        base.set_caching(True)


def test_a_tied_hand_found_under_one_variant_seeds_the_search_under_another(monkeypatch):
    """HEARTS-P8 takes the tied hands earlier runs found that the model plays alike, and Z3 finds the
    rest: the same seven dead pairs, and the detail says how many came so."""
    from cardcanon.proofs import base
    from cardcanon.proofs.hearts import replay as hand_replay
    from cardcanon.proofs.hearts.p8_endless_tie import check as endless_tie

    monkeypatch.setattr(base, "_FOUND", {})
    first = run_check(endless_tie, variant={})
    assert first.stats["tie_dead_pairs"] == 7 and "earlier run" not in first.detail
    assert sum(w.scores == (3, 3) for w in base.witnesses_found(hand_replay.HAND)) == 7
    second = run_check(endless_tie, variant={"first_lead": "free"})
    assert second.verdict == first.verdict and second.stats["tie_dead_pairs"] == 7
    assert "7 of the 7 tied hands were found by an earlier run's search under another variant" in second.detail
