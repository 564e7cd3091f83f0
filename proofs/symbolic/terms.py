"""Z3 terms built through Z3's C API: the very terms ``z3.And``, ``z3.Or``, ``z3.Not``,
``z3.Implies``, ``z3.substitute`` and ``z3.simplify`` build, and the integer terms ``z3.If``,
``+``, ``-``, the comparisons, ``z3.Sum``, ``z3.Store`` and array reads build, without the
Python API's check and coercion of every argument, which cost more than the terms themselves
where a derivation or an encoding builds hundreds of thousands of them. Every argument must
already be a Z3 term of the right sort (a Boolean, for the connectives), or an int where an
integer builder says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import z3

from cardcanon.proofs.base import Z3

_CTX = z3.main_ctx()


def _connective(make: Callable[..., Any], terms: Iterable[Z3]) -> Z3:
    held = list(terms)  # each term lives until the new one holds it (a generator's would not)
    asts = [t.as_ast() for t in held]
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


# ---- integer terms, and operands that may be Python ints ---------------------------------------
# Each builder below builds the very term the Python operator or ``z3.If`` builds from the same
# operands, an int operand becoming a numeral: ``1 < x`` is ``x > 1`` there, and here (and so is
# ``x < IntVal(1)``: Python asks a subclass's reflected comparison first).


def integer(value: int) -> Z3:
    """``z3.IntVal(value)``."""
    return z3.IntVal(value, _CTX)


def _int_term(value: Any) -> Any:
    """An Int operand as a term (a Python int as its numeral); anything else as it is."""
    return integer(value) if type(value) is int else value


def _arith(make: Callable[..., Any], a: Any, b: Any) -> Z3:
    a, b = _int_term(a), _int_term(b)  # held: a numeral made here lives until the term holds it
    pair = (z3.Ast * 2)(a.as_ast(), b.as_ast())
    return z3.ArithRef(make(_CTX.ref(), 2, pair), _CTX)


def plus(a: Any, b: Any) -> Z3:
    """``a + b`` of Int terms or ints (not both ints)."""
    return _arith(z3.Z3_mk_add, a, b)


def minus(a: Any, b: Any) -> Z3:
    """``a - b`` of Int terms or ints (not both ints)."""
    return _arith(z3.Z3_mk_sub, a, b)


def total(terms: Sequence[Z3]) -> Z3:
    """``z3.Sum(terms)`` of one or more Int terms."""
    held = list(terms)  # as in _connective
    asts = [t.as_ast() for t in held]
    return z3.ArithRef(z3.Z3_mk_add(_CTX.ref(), len(asts), (z3.Ast * len(asts))(*asts)), _CTX)


_MIRRORED = {z3.Z3_mk_lt: z3.Z3_mk_gt, z3.Z3_mk_gt: z3.Z3_mk_lt, z3.Z3_mk_le: z3.Z3_mk_ge,
             z3.Z3_mk_ge: z3.Z3_mk_le, z3.Z3_mk_eq: z3.Z3_mk_eq}


def _compare(make: Callable[..., Any], a: Any, b: Any) -> Any:
    if type(a) is int:
        if type(b) is int:
            return {z3.Z3_mk_lt: a < b, z3.Z3_mk_gt: a > b, z3.Z3_mk_le: a <= b, z3.Z3_mk_ge: a >= b,
                    z3.Z3_mk_eq: a == b}[make]
        make, a, b = _MIRRORED[make], b, a  # Python asks the term's reflected operator
    elif type(b) is not type(a) and isinstance(b, type(a)):
        make, a, b = _MIRRORED[make], b, a  # and a subclass's (a numeral's) before its base class's
    b = _int_term(b)  # held, as in _arith
    return z3.BoolRef(make(_CTX.ref(), a.as_ast(), b.as_ast()), _CTX)


def equal(a: Any, b: Any) -> Any:
    """``a == b`` of Int terms or ints (a Python bool for two ints)."""
    return _compare(z3.Z3_mk_eq, a, b)


def below(a: Any, b: Any) -> Any:
    """``a < b`` of Int terms or ints (a Python bool for two ints)."""
    return _compare(z3.Z3_mk_lt, a, b)


def above(a: Any, b: Any) -> Any:
    """``a > b`` of Int terms or ints (a Python bool for two ints)."""
    return _compare(z3.Z3_mk_gt, a, b)


def at_least(a: Any, b: Any) -> Any:
    """``a >= b`` of Int terms or ints (a Python bool for two ints)."""
    return _compare(z3.Z3_mk_ge, a, b)


def choice(condition: Any, then: Any, otherwise: Any) -> Any:
    """``z3.If(condition, then, otherwise)``: the C API's for a Boolean term and two Int terms or
    ints, or two Boolean terms; ``z3.If`` itself for any other operands."""
    kinds = type(then), type(otherwise)
    if type(condition) is z3.BoolRef and (kinds[0] in _INTS and kinds[1] in _INTS or kinds == _BOOLS):
        then, otherwise = _int_term(then), _int_term(otherwise)  # held, as in _arith
        made = z3.Z3_mk_ite(_CTX.ref(), condition.as_ast(), then.as_ast(), otherwise.as_ast())
        return z3.BoolRef(made, _CTX) if kinds == _BOOLS else z3.ArithRef(made, _CTX)
    return z3.If(condition, then, otherwise)


_INTS = frozenset({int, z3.ArithRef, z3.IntNumRef})
_BOOLS = (z3.BoolRef, z3.BoolRef)


def decided(condition: Z3) -> bool | None:
    """What ``z3.simplify`` makes of a Boolean term that is True or False itself or an equation of
    two integer numerals (a concrete seat's); None for any other term."""
    value = truth(condition)
    if value is not None:
        return value
    ref, ast = _CTX.ref(), condition.as_ast()
    if z3.Z3_get_ast_kind(ref, ast) != z3.Z3_APP_AST or z3.Z3_get_app_num_args(ref, ast) != 2 \
            or z3.Z3_get_decl_kind(ref, z3.Z3_get_app_decl(ref, ast)) != z3.Z3_OP_EQ:
        return None
    sides = [z3.Z3_get_app_arg(ref, ast, i) for i in range(2)]
    if any(z3.Z3_get_ast_kind(ref, side) != z3.Z3_NUMERAL_AST for side in sides):
        return None
    left, right = (str(z3.Z3_get_numeral_string(ref, side)) for side in sides)
    return left == right


def value_of(term: Z3) -> int | None:
    """The integer ``z3.simplify`` makes of an Int term, or None when it makes no numeral of it."""
    simple = z3.ArithRef(z3.Z3_simplify(_CTX.ref(), term.as_ast()), _CTX)  # held: the term stays alive
    if z3.Z3_get_ast_kind(_CTX.ref(), simple.as_ast()) != z3.Z3_NUMERAL_AST:
        return None
    return int(z3.Z3_get_numeral_string(_CTX.ref(), simple.as_ast()))


def element(array: Z3, index: Any) -> Z3:
    """``array[index]`` of an Int-to-Int array (an int index as its numeral)."""
    index = _int_term(index)  # held, as in _arith
    return z3.ArithRef(z3.Z3_mk_select(_CTX.ref(), array.as_ast(), index.as_ast()), _CTX)


def stored(array: Z3, index: int, value: int) -> Z3:
    """``z3.Store(array, index, value)`` of an Int-to-Int array."""
    at, to = integer(index), integer(value)  # held, as in _arith
    made = z3.Z3_mk_store(_CTX.ref(), array.as_ast(), at.as_ast(), to.as_ast())
    return z3.ArrayRef(made, _CTX)
