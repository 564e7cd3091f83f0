"""``--variant PARAM=VALUE`` options, checked against the rulebook's variation points."""

from __future__ import annotations

from collections.abc import Iterable

import cardcanon.spec as spec
from cardcanon.model.errors import OptionError
from cardcanon.model.options import check_option


def parse_variants(game: str, items: Iterable[str], extra: Iterable[str] = ()) -> dict[str, str]:
    """``["break_on=void", ...]`` as ``{"break_on": "void"}``: each PARAM must be a variation point of
    ``game``'s rulebook (or one of ``extra``, table settings checked by the caller), given once,
    and each VALUE one of its options; ValueError otherwise, naming the rule that declares the variation."""
    variations = [variation.parameter for _, variation in spec.load(game).variations()]
    extra = tuple(extra)
    values: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or (name not in variations and name not in extra):
            known = ", ".join((*variations, *extra))
            raise ValueError(f"--variant {item!r}: expected PARAM=VALUE with PARAM one of {known}")
        if name in variations:
            try:
                check_option(game, name, value)
            except OptionError as exc:
                raise ValueError(f"--variant {item!r}: {exc.rule_id} {exc.message}") from None
        if name in values:
            raise ValueError(f"--variant {name}={values[name]} and --variant {item}: {name} is given twice; "
                             f"give it once")
        values[name] = value
    return values


def refuse_both(option: str, given: bool, name: str, variants: dict[str, str]) -> None:
    """An option that sets the variation ``name`` as well as ``--variant name=...``: a conflict, named."""
    if given and name in variants:
        raise ValueError(f"{option} and --variant {name}={variants[name]} both set {name}; give one of them")
