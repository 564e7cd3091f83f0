"""``derive``: the Z3 term of a rule function of the reference model, read off every path it takes
on symbolic arguments; and ``patched``, the one way to break a rule while deriving (an encoding
probe, or a rule drop that makes what the rule decides a free symbol).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import z3

from cardcanon.proofs.base import Z3
from cardcanon.proofs.symbolic.paths import Branch, Unsupported, explore
from cardcanon.proofs.symbolic.values import aggregating

T = TypeVar("T")


@dataclass(frozen=True)
class Derived:
    """``term``: the function's value as one Z3 term over its symbolic arguments (on the paths that
    return); ``raised``: the condition under which it raises; ``paths``: how many paths it has."""

    term: Z3
    raised: Z3
    paths: int


def derive(fn: Callable[[], T], to_term: Callable[[T], Z3], *, prune: bool = True) -> Derived:
    """Run ``fn`` (a call of a model function on symbolic values) on every path and join the
    values ``to_term`` gives its results into one ``If`` chain, in path order."""
    with aggregating():
        branches = explore(fn, prune=prune)
    return join(branches, to_term)


def join(branches: Sequence[Branch[T]], to_term: Callable[[T], Z3]) -> Derived:
    returned = [b for b in branches if b.raised is None]
    if not returned:
        raise Unsupported("the function raises on every path")
    term = to_term(returned[-1].result)  # type: ignore[arg-type]
    for branch in reversed(returned[:-1]):
        term = z3.If(branch.condition, to_term(branch.result), term)  # type: ignore[arg-type]
    raised = z3.Or([b.condition for b in branches if b.raised is not None])
    return Derived(term, raised, len(branches))


@contextlib.contextmanager
def patched(owner: Any, **replacements: Any) -> Iterator[None]:
    """``owner``'s attributes replaced while the block runs (a rule broken while deriving)."""
    saved = {name: getattr(owner, name) for name in replacements}
    for name, value in replacements.items():
        setattr(owner, name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(owner, name, value)


def free(name: str, sort: Z3) -> Z3:
    """The free symbol a dropped rule's decision becomes (``dropped!RULE!what``)."""
    return z3.Const(name, sort)
