"""Z3 terms built through Z3's C API: the very terms ``z3.And``, ``z3.Or``, ``z3.Not``,
``z3.Implies``, ``z3.substitute`` and ``z3.simplify`` build, without the Python API's check and
coercion of every argument, which cost more than the terms themselves where a derivation or an
encoding builds hundreds of thousands of them. Every argument must already be a Z3 term of the
right sort (a Boolean, for the connectives).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import z3

from cardcanon.proofs.base import Z3

_CTX = z3.main_ctx()


def _connective(make: Callable[..., Any], terms: Iterable[Z3]) -> Z3:
    asts = [t.as_ast() for t in terms]
    return z3.BoolRef(make(_CTX.ref(), len(asts), (z3.Ast * len(asts))(*asts)), _CTX)


def any_of(terms: Iterable[Z3]) -> Z3:
    """``z3.Or(terms)`` (False when there are none)."""
    return _connective(z3.Z3_mk_or, terms)


def all_of(terms: Iterable[Z3]) -> Z3:
    """``z3.And(terms)`` (True when there are none)."""
    return _connective(z3.Z3_mk_and, terms)


def negation(term: Z3) -> Z3:
    """``z3.Not(term)``."""
    return z3.BoolRef(z3.Z3_mk_not(_CTX.ref(), term.as_ast()), _CTX)


def implies(premise: Z3, conclusion: Z3) -> Z3:
    """``z3.Implies(premise, conclusion)``."""
    return z3.BoolRef(z3.Z3_mk_implies(_CTX.ref(), premise.as_ast(), conclusion.as_ast()), _CTX)


def simplified(condition: Z3) -> Z3:
    """``z3.simplify(condition)`` of a Boolean term."""
    return z3.BoolRef(z3.Z3_simplify(_CTX.ref(), condition.as_ast()), _CTX)


def truth(condition: Z3) -> bool | None:
    """The value of a Boolean term that is True or False itself, else None."""
    value = z3.Z3_get_bool_value(_CTX.ref(), condition.as_ast())
    return True if value == z3.Z3_L_TRUE else False if value == z3.Z3_L_FALSE else None


def substituted(term: Z3, pairs: Sequence[tuple[Z3, Z3]]) -> Z3:
    """``z3.substitute(term, *pairs)``: each pair (a constant, a term of its sort)."""
    if not pairs:
        return term
    sources = (z3.Ast * len(pairs))(*[a.as_ast() for a, _ in pairs])
    targets = (z3.Ast * len(pairs))(*[b.as_ast() for _, b in pairs])
    return z3.z3._to_expr_ref(z3.Z3_substitute(_CTX.ref(), term.as_ast(), len(pairs), sources, targets), _CTX)
