"""Z3 terms as plain Python values: in a Z3 model (:func:`value_in`), or as functions, to compare
an encoding with the model on many inputs.

:func:`compile_terms` reads the term graph the solver sees (through Z3's C API) and generates
one straight-line Python function that computes every term, shared subterms once each.
Evaluating a term by ``z3.simplify`` or ``z3.substitute`` costs about 0.1 s; a compiled term
runs in microseconds. Integer division and remainder follow SMT-LIB.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias

import z3

from cardcanon.proofs.base import Z3

Env: TypeAlias = Mapping[str, Any]  # a term's constants by name: ints, Booleans, functions for free arrays
Compiled: TypeAlias = Callable[[Env], Any]


_INFIX = {z3.Z3_OP_ADD: "+", z3.Z3_OP_SUB: "-", z3.Z3_OP_MUL: "*", z3.Z3_OP_EQ: "==", z3.Z3_OP_LE: "<=",
          z3.Z3_OP_LT: "<", z3.Z3_OP_GE: ">=", z3.Z3_OP_GT: ">", z3.Z3_OP_AND: "and", z3.Z3_OP_OR: "or",
          z3.Z3_OP_XOR: "!="}
_FORMATS = {z3.Z3_OP_ITE: "{1} if {0} else {2}", z3.Z3_OP_NOT: "not {0}", z3.Z3_OP_IMPLIES: "(not {0}) or {1}",
            z3.Z3_OP_UMINUS: "-{0}", z3.Z3_OP_MOD: "_smt_mod({0}, {1})", z3.Z3_OP_IDIV: "_smt_div({0}, {1})"}


def value_in(model: Z3, term: Z3) -> Any:
    """The value of a Bool or Int ``term`` in a Z3 ``model`` (a ``bool`` or an ``int``), any constant
    the model leaves free taking a value of its own."""
    got = model.eval(term, model_completion=True)
    return z3.is_true(got) if z3.is_bool(got) else got.as_long()


def _smt_mod(a: int, b: int) -> int:
    """SMT-LIB ``mod``: ``0 <= a mod b < |b|``."""
    return a % abs(b)


def _smt_div(a: int, b: int) -> int:
    """SMT-LIB ``div``: ``a = b * (a div b) + (a mod b)``."""
    return (a - _smt_mod(a, b)) // b


def compile_terms(terms: Sequence[Z3]) -> Callable[[Mapping[str, Any]], tuple[Any, ...]]:
    """A plain-Python function ``env -> values`` computing quantifier-free Int/Bool Z3 terms:
    constants are looked up by name in ``env``, where a free array constant (such as ``rank``) is
    a function. Shared subterms are computed once each, in one generated straight-line function."""
    lines: list[str] = []
    names: dict[int, str] = {}
    if not terms:
        raise ValueError("no terms to compile")
    ctx = terms[0].ctx.ref()  # the term graph is read through Z3's C API: much faster than ExprRefs

    def emit(ast: Any) -> str:
        key = z3.Z3_get_ast_id(ctx, ast)
        if key in names:
            return names[key]
        if z3.Z3_get_ast_kind(ctx, ast) not in (z3.Z3_APP_AST, z3.Z3_NUMERAL_AST):
            raise ValueError(f"cannot compile {z3.Z3_ast_to_string(ctx, ast)[:80]}")
        decl = z3.Z3_get_app_decl(ctx, ast)
        kind, count = z3.Z3_get_decl_kind(ctx, decl), z3.Z3_get_app_num_args(ctx, ast)
        if kind in (z3.Z3_OP_TRUE, z3.Z3_OP_FALSE, z3.Z3_OP_ANUM):  # constants are written inline
            numeral = kind == z3.Z3_OP_ANUM
            names[key] = f"({int(z3.Z3_get_numeral_string(ctx, ast))})" if numeral else str(kind == z3.Z3_OP_TRUE)
            return names[key]
        if kind == z3.Z3_OP_UNINTERPRETED and count == 0:
            code = f"env[{z3.Z3_get_symbol_string(ctx, z3.Z3_get_decl_name(ctx, decl))!r}]"
        else:
            children = [z3.Z3_get_app_arg(ctx, ast, i) for i in range(count)]
            args = [emit(child) for child in children]
            if kind in _FORMATS:
                code = _FORMATS[kind].format(*args)
            elif kind == z3.Z3_OP_EQ and len(args) != 2:
                raise ValueError(f"cannot compile = of {len(args)} arguments")
            elif kind in _INFIX and args:
                code = f" {_INFIX[kind]} ".join(args)
            elif kind == z3.Z3_OP_DISTINCT:
                code = f"len({{{', '.join(args)}}}) == {len(args)}"
            elif kind == z3.Z3_OP_SELECT and z3.Z3_get_app_num_args(ctx, children[0]) == 0 and \
                    z3.Z3_get_decl_kind(ctx, z3.Z3_get_app_decl(ctx, children[0])) == z3.Z3_OP_UNINTERPRETED:
                code = f"{args[0]}({args[1]})"  # a free array: a function in env
            else:
                raise ValueError(f"cannot compile {z3.Z3_ast_to_string(ctx, ast)[:80]}")
        names[key] = f"v{len(lines)}"
        lines.append(f"    {names[key]} = {code}")
        return names[key]

    outputs = [emit(t.as_ast()) for t in terms]
    source = "def evaluate(env):\n" + "\n".join(lines) + f"\n    return ({', '.join(outputs)},)\n"
    scope: dict[str, Any] = {"_smt_mod": _smt_mod, "_smt_div": _smt_div}
    exec(compile(source, "<z3-terms>", "exec"), scope)  # noqa: S102 - code generated from Z3 terms above
    function: Callable[[Mapping[str, Any]], tuple[Any, ...]] = scope["evaluate"]
    return function


def compile_term(term: Z3) -> Compiled:
    """A plain-Python function ``env -> value`` computing one quantifier-free Int/Bool term."""
    evaluate_all = compile_terms([term])
    return lambda env: evaluate_all(env)[0]

