"""The variants every check runs under: the rulebook's variation points, read from the spec.

A *variant* is a mapping ``parameter -> option`` of the parameters that differ from the
rulebook's defaults (the default variant is ``{}``). The variants of a game are the default,
each non-default option of each variation point on its own, and the combinations a manifest
declares (``[[combination]]``, with the reason the options interact). Options the reference
model does not implement (``not_modelled``) cannot be run; they are listed, not hidden.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardcanon.proofs.base import hearts_config, modelled, variant_name

__all__ = ["Combination", "VariantPlan", "hearts_config", "modelled", "plan", "variant_name"]


@dataclass(frozen=True)
class Combination:
    options: Mapping[str, str]
    reason: str


@dataclass(frozen=True)
class VariantPlan:
    """What one game's checks run under, and what cannot be run."""

    game: str
    variants: tuple[Mapping[str, str], ...]
    reasons: Mapping[str, str] = field(default_factory=dict)  # variant name -> why it is run
    not_modelled: tuple[str, ...] = ()  # "parameter=option" the model does not implement

    def to_json(self) -> dict[str, Any]:
        return {"variants": [{"name": variant_name(v), "options": dict(v), "reason": self.reasons[variant_name(v)]}
                             for v in self.variants],
                "not_modelled": list(self.not_modelled)}


def plan(game: str, combinations: Iterable[Combination] = ()) -> VariantPlan:
    """The default, every modelled non-default option of the rulebook's variation points on its own (in
    rulebook order), and the declared combinations."""
    import cardcanon.spec

    table = modelled(game)
    variants: list[dict[str, str]] = [{}]
    reasons = {"default": "the rulebook's defaults"}
    missing = []
    for rule, point in ((r.id, r.variation) for r in cardcanon.spec.load(game).rules if r.variation is not None):
        for option in (o.value for o in point.options if o.value != point.default):
            if point.parameter in table and option in table[point.parameter]:
                variants.append({point.parameter: option})
                reasons[variant_name(variants[-1])] = f"{rule}: option {option}"
            else:
                missing.append(f"{point.parameter}={option}")
    for combination in combinations:
        for parameter, option in combination.options.items():
            if parameter not in table or option not in table[parameter]:
                raise ValueError(f"combination {dict(combination.options)}: {parameter}={option} is not modelled")
        variants.append(dict(combination.options))
        reasons[variant_name(combination.options)] = combination.reason
    return VariantPlan(game, tuple(variants), reasons, tuple(missing))
