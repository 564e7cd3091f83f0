"""The Z3 terms of Hearts hand scoring and of the match decision, derived from the model's own
``score_hand`` and ``match_result`` (``proofs/hearts/score_terms.py``), against the concrete model on
random inputs, under each variant; and the probes, which patch the model only while deriving."""

from __future__ import annotations

import functools
from dataclasses import replace

import pytest
import z3
from hypothesis import given, strategies as st

from cardcanon.model import hearts as model
from cardcanon.model.hearts_types import Termination
from cardcanon.proofs.drops import Drop
from cardcanon.proofs.hearts.encoding import CARDS, N_CARDS, Rules
from cardcanon.proofs.hearts.score_terms import TERMINATIONS, hand_scores, match_result_terms, reached_term
from cardcanon.proofs.z3_eval import compile_term
from cardcanon.verify.manifest import load_combinations
from cardcanon.verify.variants import hearts_config, plan

VARIANTS = [hearts_config(options) for options in
            plan("hearts", [c for game, c in load_combinations() if game == "hearts"]).variants]
variants = st.sampled_from(VARIANTS)
TAKEN = [{card: z3.Bool(f"t{p}_{c}") for c, card in enumerate(CARDS)} for p in (0, 1)]
DEAD = {card: z3.Bool(f"d{c}") for c, card in enumerate(CARDS)}


@functools.lru_cache(maxsize=None)
def compiled_scores(rules: Rules):
    return tuple(compile_term(s) for s in hand_scores(rules, TAKEN, DEAD))


def derived_scores(rules: Rules, taken, dead) -> tuple[int, int]:
    env = {f"t{p}_{c}": card in taken[p] for p in (0, 1) for c, card in enumerate(CARDS)}
    env |= {f"d{c}": card in dead for c, card in enumerate(CARDS)}
    score0, score1 = (score(env) for score in compiled_scores(rules))
    return score0, score1


# each card to seat 0, seat 1 or (2) the dead cards; at most two dead, as HEARTS-DEAL-2 leaves them
splits = st.tuples(st.lists(st.sampled_from((0, 1)), min_size=N_CARDS, max_size=N_CARDS),
                   st.sets(st.integers(0, N_CARDS - 1), max_size=2)).map(
    lambda drawn: [2 if c in drawn[1] else o for c, o in enumerate(drawn[0])])


def piles(owners):
    taken = tuple(frozenset(c for c, o in zip(CARDS, owners) if o == p) for p in (0, 1))
    return taken, tuple(c for c, o in zip(CARDS, owners) if o == 2)


@pytest.mark.rules("HEARTS-SCORE-1", "HEARTS-QUEEN-1", "HEARTS-MOON-1", "HEARTS-MOON-2")
@given(owners=splits, config=variants)
def test_derived_scores_are_the_models(owners, config):
    taken, dead = piles(owners)
    assert derived_scores(Rules(config=config), taken, dead) == model.score_hand(taken, dead, config)


@pytest.mark.rules("HEARTS-SCORE-1", "HEARTS-MOON-1")
@given(owners=st.lists(st.sampled_from((0, 1)), min_size=8, max_size=8), config=variants)
def test_derived_scores_are_the_models_on_moons_and_near_moons(owners, config):
    """Point cards mostly to one seat (random splits seldom give a moon)."""
    points = sorted(model.POINT_CARDS)
    taken = tuple(frozenset(c for c, o in zip(points, owners) if o == p) for p in (0, 1))
    assert derived_scores(Rules(config=config), taken, ()) == model.score_hand(taken, (), config)


@functools.lru_cache(maxsize=None)
def compiled_decision(rules: Rules, target: int, after: bool):
    config = replace(rules.config, target=target)
    decided = match_result_terms(rules, z3.Ints("q0 q1"), z3.Ints("p0 p1") if after else None, config=config)
    return tuple(compile_term(t) for t in (decided.ends, decided.wins[0], decided.wins[1], decided.label))


@pytest.mark.rules("HEARTS-MATCH-1", "HEARTS-MATCH-2", "HEARTS-MATCH-3", "HEARTS-GOAL-1")
@given(scores=st.tuples(st.integers(0, 260), st.integers(0, 260)), target=st.sampled_from([100, 50, 150]),
       previous=st.none() | st.integers(0, 200).map(lambda p: (p, p)) | st.tuples(st.integers(0, 200),
                                                                                  st.integers(0, 200)),
       config=variants)
def test_derived_match_decision_is_the_models(scores, target, previous, config):
    env = {"q0": scores[0], "q1": scores[1]} | ({} if previous is None else {"p0": previous[0], "p1": previous[1]})
    ends, win0, win1, label = (f(env) for f in compiled_decision(Rules(config=config), target, previous is not None))
    truth = model.match_result(scores, replace(config, target=target), previous=previous)
    assert ends == (truth is not None)
    assert (win0, win1) == ((False, False) if truth is None else (truth.winner.index == 0, truth.winner.index == 1))
    assert label == (-1 if truth is None else TERMINATIONS.index(truth.termination))


@pytest.mark.rules("HEARTS-MATCH-1")
@given(score=st.integers(-10, 300), config=variants)
def test_derived_reached_is_the_models(score, config):
    term = reached_term(Rules(config=config), z3.IntVal(score))
    assert z3.is_true(z3.simplify(term)) == model.reached(score, config)


def test_a_probe_patches_the_model_only_while_deriving():
    """queen-12 and higher-wins change the derived terms, never the model itself."""
    queen = frozenset({model.QUEEN_OF_SPADES})
    probed = Rules(mutations=("queen-12",))
    assert derived_scores(probed, (queen, frozenset()), ()) == (12, 0)
    assert model.score_hand((queen, frozenset()), ()) == (13, 0) == derived_scores(Rules(), (queen, frozenset()), ())
    ends, win0, _, _ = compiled_decision(Rules(mutations=("higher-wins",)), 100, False)
    assert ends({"q0": 101, "q1": 120}) and not win0({"q0": 101, "q1": 120})
    assert model.match_result((101, 120)).winner.index == 0


@pytest.mark.parametrize("rule", ["HEARTS-SCORE-1", "HEARTS-QUEEN-1", "HEARTS-MOON-1", "HEARTS-MOON-2"])
def test_a_dropped_scoring_rule_leaves_a_free_symbol(rule):
    free = {str(x) for s in hand_scores(Rules(drop=Drop(rule)), TAKEN, DEAD) for x in _constants(s)}
    assert any(name.startswith(f"dropped!{rule}!") for name in free)


@pytest.mark.parametrize("rule", ["HEARTS-MATCH-1", "HEARTS-MATCH-2", "HEARTS-GOAL-1"])
def test_a_dropped_match_rule_leaves_a_free_symbol(rule):
    decided = match_result_terms(Rules(drop=Drop(rule)), z3.Ints("q0 q1"))
    assert any(str(x).startswith(f"dropped!{rule}!") for x in _constants(decided.ends))


def test_the_labels_are_the_models_terminations():
    assert set(TERMINATIONS) == set(Termination)


def _constants(term):
    seen, out, todo = set(), [], [term]
    while todo:
        t = todo.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        if z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            out.append(t)
        todo.extend(t.children())
    return out
