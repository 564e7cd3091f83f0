"""The second solver: Z3's queries exported as SMT-LIB 2 and decided again by cvc5."""

from __future__ import annotations

from pathlib import Path

import pytest
import z3
from hypothesis import given, settings, strategies as st

from cardcanon.proofs import smt
from cardcanon.proofs.smt import AnswerStore, SolverPair, cvc5_decide, decide, paired, smtlib, write_query
from cli_harness import run_inprocess


def test_pseudo_boolean_constraints_export_as_standard_arithmetic() -> None:
    a, b, c = z3.Bools("a b c")
    solver = z3.Solver()
    solver.add(z3.PbEq([(a, 2), (b, 1), (c, 1)], 2), z3.AtMost(a, b, c, 1), z3.PbGe([(b, 1), (c, 1)], 0))
    text = smtlib(solver)
    assert "pbeq" not in text and "at-most" not in text and "pbge" not in text
    assert str(solver.check()) == cvc5_decide(text) == "sat"  # a alone
    assert cvc5_decide(smtlib(solver, (z3.Not(a),))) == "unsat"  # b and c both: more than one


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 3), st.booleans()), min_size=1, max_size=4), st.integers(0, 6),
       st.sampled_from(["eq", "le", "ge"]))
def test_both_solvers_agree_on_pseudo_boolean_queries(terms: list[tuple[int, bool]], bound: int, op: str) -> None:
    xs = [z3.Bool(f"x{i}") for i in range(len(terms))]
    pairs = [(x, w) for x, (w, _) in zip(xs, terms)]
    make = {"eq": z3.PbEq, "le": z3.PbLe, "ge": z3.PbGe}[op]
    fixed = [x if v else z3.Not(x) for x, (_, v) in zip(xs, terms)]
    solver = z3.Solver()
    solver.add(make(pairs, bound))
    assert cvc5_decide(smtlib(solver, tuple(fixed))) == str(solver.check(*fixed))


def test_a_pair_records_both_answers_and_exports(tmp_path: Path) -> None:
    x = z3.Int("x")
    solver = z3.Solver()
    solver.add(x > 2)
    pair = SolverPair("demo", export_dir=tmp_path)
    with paired(pair):
        assert decide(solver, x < 2) == z3.unsat
        assert decide(solver) == z3.sat
    assert decide(solver, x < 1) == z3.unsat  # outside the block: Z3 alone
    assert [(a.z3, a.cvc5) for a in pair.answers] == [("unsat", "unsat")]  # a sat comes with a model
    assert pair.models == 1 and pair.summary()["agree"] and not pair.problems()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo-q0001.smt2"]


class _Asked(z3.Solver):
    """A solver that counts the times Z3 is asked."""

    asked = 0

    def check(self, *extra):  # type: ignore[no-untyped-def]
        _Asked.asked += 1
        return super().check(*extra)


def test_an_unsat_both_solvers_gave_is_taken_for_the_same_text_and_only_for_it(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[str] = []  # the queries written as text
    monkeypatch.setattr(smt, "smtlib", lambda *args: written.append(smtlib(*args)) or written[-1])
    x = z3.Int("x")
    store = AnswerStore(tmp_path)  # the verify run's store, shared by its workers
    first, second = SolverPair("variant-a", store=store), SolverPair("variant-b", store=store)
    _Asked.asked = 0
    for pair in (first, second):
        solver = _Asked()
        solver.add(x > 2)
        with paired(pair):
            assert decide(solver, x < 2) == z3.unsat  # the same text in both runs
            assert decide(solver, x < 3) == z3.unsat  # the same again
            assert decide(solver) == z3.sat  # a sat is needed with its model: never taken
    assert _Asked.asked == 4  # the second run asked Z3 only the sat query
    assert len(written) == 4  # each unsat once per run; a sat, whose structural key no run kept, never
    assert [(a.z3, a.cvc5, a.reused) for a in second.answers] == [("unsat", "unsat", "variant-a")] * 2
    assert second.summary()["reused_from"] == {"variant-a": 2} and second.summary()["agree"]
    other = _Asked()
    other.add(x > 3)  # another text: decided afresh
    with paired(SolverPair("variant-c", store=store)) as third:
        assert decide(other, x < 2) == z3.unsat
    assert third is not None and third.answers[0].reused is None and _Asked.asked == 5


def test_a_cvc5_unknown_is_a_problem_and_the_query_is_saved(tmp_path: Path) -> None:
    x, y, z = z3.Ints("x y z")
    solver = z3.Solver()  # nonlinear integer arithmetic: cvc5 cannot answer in a millisecond
    solver.add(x > 1, y > 1, z > 1, x * x * x + y * y * y == z * z * z + 7919)
    pair = SolverPair("hard", problem_dir=tmp_path, query_seconds=0.001)
    pair.confirm(solver, (), "unsat")
    assert not pair.summary()["agree"]
    assert pair.problems() and "cvc5 unknown" in pair.problems()[0]
    assert (tmp_path / "hard-q0001.smt2").exists()


def test_smt_check_rechecks_exported_files(tmp_path: Path) -> None:
    x = z3.Int("x")
    solver = z3.Solver()
    solver.add(x > 2, x < 2)
    write_query(tmp_path, "right", smtlib(solver), "unsat")
    run = run_inprocess(["smt-check", str(tmp_path)])
    assert run.status == 0 and "right.smt2: unsat" in run.stdout
    write_query(tmp_path, "wrong", smtlib(solver), "sat")  # a file whose recorded answer is not cvc5's
    run = run_inprocess(["smt-check", str(tmp_path)])
    assert run.status == 1 and "wrong.smt2: unsat  (expected sat)" in run.stdout


def test_smt_check_bad_folder_is_one_line() -> None:
    run = run_inprocess(["smt-check", "/no/such/folder"])
    assert run.status == 2 and run.stderr.count("\n") == 1 and not run.traceback
