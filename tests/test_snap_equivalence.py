"""SNAP-P9: the Snap encoding against the reference model on every position of a small domain.

The check must prove on a tiny bound with records that replay, count its domain as an
independent formula does, and catch (with a record the runner can replay) an encoding or a
model function broken by hand. The term compiler must agree with Z3's own evaluation.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from typing import Any

import pytest
import z3

from cardcanon.model import snap as model
from cardcanon.model.cards import Card
from cardcanon.verify import model_mutants as mutants
from cardcanon.proofs.snap import derived
from cardcanon.proofs.snap import encoding as enc
from cardcanon.proofs.snap import p9_encoding as eq
from cardcanon.proofs.base import Verdict
from cardcanon.verify.records import replay
from cardcanon.verify.runner import run_check
from cardcanon.proofs.z3_eval import compile_terms

TINY = {"players": [2, 3], "cards": [3, 2], "ranks": 3, "text_players": [2, 3]}
RULES = pytest.mark.rules("SNAP-FLIP-1", "SNAP-FLIP-3", "SNAP-CALL-1", "SNAP-CALL-2", "SNAP-TIE-1", "SNAP-PEN-2",
                          "SNAP-END-2")


def run(variant: dict[str, str] | None = None, **bounds: Any) -> Any:
    return run_check(eq.check, timeout=60.0, bounds={**TINY, **bounds}, variant=variant)


@pytest.fixture
def fresh_encoding() -> Iterator[None]:
    """The compiled encodings are kept per table; a test that breaks the encoding needs its own."""
    derived.MEMO.clear()
    yield
    derived.MEMO.clear()


def partitions(k: int, ranks: int) -> int:
    """Set partitions of ``k`` cards into at most ``ranks`` classes of at most four cards, by
    brute force: the distinct sets of classes over every assignment of ranks to cards."""
    found = set()
    for ranking in itertools.product(range(ranks), repeat=k):
        if all(ranking.count(r) <= 4 for r in ranking):
            found.add(frozenset(frozenset(i for i in range(k) if ranking[i] == r) for r in ranking))
    return len(found)


@RULES
@pytest.mark.parametrize("variant", [{}, {"next_turn": "winner"}, {"index_card": "on"}])
def test_proves_on_a_tiny_domain_with_records_that_replay(variant: dict[str, str]) -> None:
    result = run(variant)
    assert result.verdict is Verdict.PROVED, result.detail
    assert result.records and all(replay(r).ok for r in result.records)
    labels = " / ".join(r["label"] for r in result.records)
    assert "flip turning the face-up pile over" in labels and "wrong" in labels and "correct" in labels
    assert ("tie on snap" in labels) == (variant != {"index_card": "on"})
    for n, k in zip(TINY["players"], TINY["cards"]):
        zones = 2 * n + 1
        layouts = sum(math.comb(c + zones - 1, zones - 1) * partitions(c, TINY["ranks"]) for c in range(1, k + 1))
        stats = result.stats
        assert stats[f"positions_{n}p"] + stats[f"skipped_{n}p"] == layouts * (2 * n + 1)
        assert stats[f"moves_{n}p"] == stats[f"positions_{n}p"] * len(eq.candidate_moves(n))
        assert 0 < stats[f"endings_{n}p"] < stats[f"successors_{n}p"]


@pytest.mark.parametrize("broken, kind", [
    ("tie-drops-matched", "step"), ("penalty-no-turnover", "step"), ("end-down-only", "step"),
    ("out-players-call", "legal"),
])
def test_a_broken_encoding_is_caught_with_a_record_of_the_model(monkeypatch: pytest.MonkeyPatch, fresh_encoding: None,
                                                                broken: str, kind: str) -> None:
    original = getattr(enc, kind)
    monkeypatch.setattr(eq, kind, lambda st, mv, config: original(st, mv, config, probe=broken))
    result = run()
    assert result.verdict is Verdict.COUNTEREXAMPLE, result.detail
    assert len(result.records) == 1 and replay(result.records[0]).ok  # the record is what the model does


def test_a_hand_broken_model_is_caught_with_a_record_the_model_refutes(monkeypatch: pytest.MonkeyPatch) -> None:
    def unreversed(down: tuple[Card, ...], up: tuple[Card, ...]) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        return (up, ()) if not down else (down, up)  # the turn-over, which the encoding states itself

    monkeypatch.setattr(model, "turned_over", unreversed)
    result = run()
    assert result.verdict is Verdict.COUNTEREXAMPLE
    assert replay(result.records[0]).ok  # under the broken model
    monkeypatch.undo()
    assert not replay(result.records[0]).ok  # the reference model plays it otherwise


@pytest.mark.parametrize("key", ["snap:out-not-skipped", "snap:win-one-match", "snap:index-tie", "snap:draw-has-winner"])
def test_model_mutants_are_caught_with_a_real_disagreement(key: str) -> None:
    with mutants.patched(key):
        result = run(dict(mutants.MUTANTS[key].variant), cards=[3, 3])
        assert result.verdict is Verdict.COUNTEREXAMPLE
        assert replay(result.records[0]).ok
    assert not replay(result.records[0]).ok


@pytest.mark.parametrize("key", ["snap:turn-swapped", "snap:penalty-to-left"])
def test_a_mutant_of_a_derived_rule_is_caught_by_the_text_alone(key: str) -> None:
    """The encoding derives who flips next and who receives a penalty card from the model as it
    stands: under a mutant of either it agrees with the mutant, and the rulebook's text does not."""
    with mutants.patched(key):
        variant = dict(mutants.MUTANTS[key].variant)
        assert run(variant, cards=[3, 3], text_players=[]).verdict is Verdict.PROVED
        result = run(variant, cards=[3, 3])
        assert result.verdict is Verdict.COUNTEREXAMPLE
        assert all(replay(r).ok for r in result.records)
    assert not all(replay(r).ok for r in result.records)  # the reference model plays some call otherwise
    assert run().verdict is Verdict.PROVED


@pytest.mark.parametrize("key", ["snap:match-colour", "snap:pot-matches-any", "snap:match-second-card"])
def test_a_model_that_matches_otherwise_is_caught_in_a_call_window(key: str) -> None:
    """The encoding cannot be derived from a model that reads a suit or a card below a top; the
    model's matches differ from the text's in a call window of the positions."""
    with mutants.patched(key):
        result = run(dict(mutants.MUTANTS[key].variant), cards=[4, 3])  # a pot of two beside two holders
        assert result.verdict is Verdict.COUNTEREXAMPLE
        assert all(replay(r).ok for r in result.records)
    assert not all(replay(r).ok for r in result.records)


def test_compiled_terms_agree_with_z3() -> None:
    x, y, b = z3.Int("x"), z3.Int("y"), z3.Bool("b")
    rank = z3.Array("rank", z3.IntSort(), z3.IntSort())
    terms = [z3.If(b, x % 3, (x - y) % 3), z3.And(x < y, z3.Not(b)), z3.Or(x == y, z3.Implies(b, x >= 2)),
             rank[x] + 2 * rank[y] - x, z3.Distinct(x, y, 1), x / 2, -x + y]
    function = compile_terms(terms)
    table = {0: 5, 1: 7, -2: 11}
    array = z3.K(z3.IntSort(), z3.IntVal(0))
    for key, value in table.items():
        array = z3.Store(array, key, value)
    for xv in (-2, 0, 1, 5):
        for yv in (-2, 1):
            for bv in (False, True):
                got = function({"x": xv, "y": yv, "b": bv, "rank": lambda c: table.get(c, 0)})
                values = [(x, z3.IntVal(xv)), (y, z3.IntVal(yv)), (b, z3.BoolVal(bv)), (rank, array)]
                want = [z3.simplify(z3.substitute(t, *values)) for t in terms]
                assert list(got) == [w.as_long() if z3.is_int_value(w) else z3.is_true(w) for w in want]


def test_a_term_it_cannot_compile_is_an_error() -> None:
    with pytest.raises(ValueError, match="cannot compile"):
        compile_terms([z3.Int("x") ** 2])


def test_bounds_and_probes_are_checked() -> None:
    with pytest.raises(ValueError):
        run_check(eq.check, probe="drop:SNAP-FLIP-1", timeout=60.0, bounds=TINY)
    with pytest.raises(ValueError):
        run_check(eq.check, timeout=60.0, bounds={**TINY, "cards": [3]})


@pytest.mark.parametrize("probe", ["penalty-to-left", "turn-counter-clockwise"])
def test_a_probe_of_a_derived_rule_breaks_the_encoding_alone(probe: str) -> None:
    """The probe patches the model's function only while the encoding is derived: the positions differ."""
    result = run_check(eq.check, probe=probe, timeout=60.0, bounds={**TINY, "cards": [3, 3], "text_players": []})
    assert result.verdict is Verdict.COUNTEREXAMPLE
    assert all(replay(r).ok for r in result.records)
    assert run().verdict is Verdict.PROVED
