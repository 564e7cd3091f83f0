"""The variants every check runs under: the rulebook's variation points, read from the spec.

A *variant* is a mapping ``parameter -> option`` of the parameters that differ from the
rulebook's defaults (the default variant is ``{}``). The variants of a game are the default,
each non-default option of each variation point on its own, and the combinations a manifest
declares (``[[combination]]``, with the reason the options interact). Options the reference
model does not implement (``not_modelled``) cannot be run; they are listed, not hidden.

:func:`config_for` (and :func:`snap_config`, :func:`hearts_config`) turn a variant into the
model's table through ``Config.from_options``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardcanon.model.hearts_types import HeartsConfig
    from cardcanon.model.snap_types import SnapConfig

Variant = Mapping[str, str]


def variant_name(variant: Variant) -> str:
    """``default``, or ``param=value`` pairs joined by commas in parameter order."""
    return ",".join(f"{k}={variant[k]}" for k in sorted(variant)) or "default"


@dataclass(frozen=True)
class Point:
    rule: str
    parameter: str
    default: str
    options: tuple[str, ...]


def points(game: str) -> tuple[Point, ...]:
    """The variation points of ``game``'s rulebook, in rulebook order."""
    import cardcanon.spec

    return tuple(Point(rule.id, rule.variation.parameter, rule.variation.default,
                       tuple(option.value for option in rule.variation.options))
                 for rule in cardcanon.spec.load(game).rules if rule.variation is not None)


def _config_type(game: str) -> Any:
    """The model's table type of ``game`` (``Config.from_options`` reads the rulebook's options)."""
    import importlib

    return importlib.import_module(f"cardcanon.model.{game}").GAME.Config


def modelled(game: str) -> dict[str, dict[str, str]]:
    """parameter -> the options the model implements (each option as its own value)."""
    from cardcanon.model.errors import NotModelledError

    table: dict[str, dict[str, str]] = {}
    for point in points(game):
        table[point.parameter] = {}
        for option in point.options:
            try:
                _config_type(game).from_options({point.parameter: option})
            except NotModelledError:
                continue
            table[point.parameter][option] = option
    return table


def snap_config(variant: Variant | None = None, **fields: Any) -> SnapConfig:
    config: SnapConfig = config_for("snap", variant, **fields)
    return config


def hearts_config(variant: Variant | None = None, **fields: Any) -> HeartsConfig:
    config: HeartsConfig = config_for("hearts", variant, **fields)
    return config


def config_for(game: str, variant: Variant | None = None, **fields: Any) -> Any:
    """The model's table for ``variant`` (the rulebook's option words) and other config ``fields``."""
    options = {name: option for name, option in (variant or {}).items() if name not in fields}
    return _config_type(game).from_options(options, **fields)


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
    """The default, every modelled non-default option on its own, and the declared combinations."""
    table = modelled(game)
    variants: list[dict[str, str]] = [{}]
    reasons = {"default": "the rulebook's defaults"}
    missing = []
    for point in points(game):
        for option in point.options:
            if option == point.default:
                continue
            if point.parameter in table and option in table[point.parameter]:
                variants.append({point.parameter: option})
                reasons[variant_name(variants[-1])] = f"{point.rule}: option {option}"
            else:
                missing.append(f"{point.parameter}={option}")
    for combination in combinations:
        for parameter, option in combination.options.items():
            if parameter not in table or option not in table[parameter]:
                raise ValueError(f"combination {dict(combination.options)}: {parameter}={option} is not modelled")
        variants.append(dict(combination.options))
        reasons[variant_name(combination.options)] = combination.reason
    return VariantPlan(game, tuple(variants), reasons, tuple(missing))
