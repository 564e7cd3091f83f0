"""Path exploration of a model loop that ends only under a precondition (``explore(assuming=...)``),
and of a term the model asks twice (``cardcanon.proofs.symbolic.paths``)."""

from __future__ import annotations

import pytest
import z3

from cardcanon.proofs.symbolic import SymBool, Unsupported, derive, explore

FLAGS = [z3.Bool(f"flag{i}") for i in range(4)]


def first_set(start: int) -> int:
    """The first flag set from ``start`` on, going round: a loop that ends only if one is set."""
    i = start
    while not SymBool(FLAGS[i]):
        i = (i + 1) % len(FLAGS)
    return i


@pytest.mark.parametrize("prune", [False, True])
def test_a_loop_is_explored_where_its_precondition_holds(prune: bool) -> None:
    found = derive(lambda: first_set(1), z3.IntVal, prune=prune, assuming=z3.Or(FLAGS))
    assert found.paths == len(FLAGS)
    for flags in range(1, 2 ** len(FLAGS)):
        values = [(f, z3.BoolVal(bool(flags >> i & 1))) for i, f in enumerate(FLAGS)]
        want = next(i % len(FLAGS) for i in range(1, 1 + len(FLAGS)) if flags >> (i % len(FLAGS)) & 1)
        assert z3.simplify(z3.substitute(found.term, *values)).as_long() == want


def test_a_loop_that_cannot_end_on_a_path_fails_the_exploration() -> None:
    with pytest.raises(Unsupported, match="loops"):
        explore(lambda: first_set(0), prune=False)


def test_a_term_asked_again_gets_the_same_answer() -> None:
    def twice() -> tuple[bool, bool]:
        return bool(SymBool(FLAGS[0])), bool(SymBool(z3.Bool("flag0")))

    branches = explore(twice, prune=False)
    assert sorted(b.result for b in branches if b.result is not None) == [(False, False), (True, True)]
