"""Environment keyword arguments read from the rulebook's variation points.

Every variation point of ``spec/<game>.toml`` is a keyword argument of the environment, named by
its ``parameter`` and taking one of its option values (strings, as in the rulebook). Nothing here
lists options: they come from :func:`cardcanon.spec.load`, so a variation added to the rulebook
becomes a keyword argument without a change to the environments.

A model config field with the parameter's name carries the option; a parameter the model has
no field for is played at its default only, and any other option is refused with the rule ID.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from typing import Any, TypeVar

from cardcanon import spec
from cardcanon.spec import Rule

C = TypeVar("C")
_SWITCH = {"on": True, "yes": True, "off": False, "no": False}


def variation_rules(game: str) -> dict[str, Rule]:
    """The rules with a variation point, by parameter name, in rulebook order."""
    return {rule.variation.parameter: rule for rule in spec.load(game).rules if rule.variation}


def defaults(game: str) -> dict[str, str]:
    """Each variation parameter with its default option."""
    return {name: rule.variation.default for name, rule in variation_rules(game).items()}


def split_options(game: str, kwargs: Mapping[str, Any]) -> tuple[dict[str, str], dict[str, Any]]:
    """``kwargs`` split into (every variation parameter with its chosen option, the other keywords).

    An option that is not one of the rulebook's raises ``ValueError`` naming the rule.
    """
    rules = variation_rules(game)
    chosen = defaults(game)
    rest = {}
    for name, value in kwargs.items():
        if name not in rules:
            rest[name] = value
            continue
        variation = rules[name].variation
        allowed = [option.value for option in variation.options]
        if value not in allowed:
            raise ValueError(f"{rules[name].id}: {name}={value!r} is not an option "
                             f"(options: {', '.join(allowed)})")
        chosen[name] = value
    return chosen, rest


def build_config(game: str, config_type: type[C], chosen: Mapping[str, str], **fields: Any) -> C:
    """The model config for the chosen options (and any other config ``fields``)."""
    rules = variation_rules(game)
    default_config = config_type()
    names = {field.name for field in dataclasses.fields(config_type)}  # type: ignore[arg-type]
    for name, value in chosen.items():
        if name in names:
            fields[name] = _convert(getattr(default_config, name), value)
        elif value != rules[name].variation.default:
            raise ValueError(f"{rules[name].id}: {name}={value!r} is not modelled by the reference model; "
                             f"only {rules[name].variation.default!r} is played")
    return config_type(**fields)


def _convert(default: Any, value: str) -> Any:
    """An option string as the type of the config field's default."""
    if isinstance(default, enum.Enum):
        return type(default)(value)
    if isinstance(default, bool):
        return _SWITCH[value]
    return value


def describe(game: str, config_type: type) -> str:
    """The keyword arguments as reStructuredText bullets, for the environments' docstrings."""
    fields = {field.name for field in dataclasses.fields(config_type)}
    lines = []
    for name, rule in variation_rules(game).items():
        others = [f"``{o.value!r}``" for o in rule.variation.options if o.value != rule.variation.default]
        played = "" if name in fields else " (not played by the reference model: refused)"
        lines.append(f"- ``{name}`` ({rule.id}, {rule.title}): default ``{rule.variation.default!r}``; "
                     f"also {', '.join(others)}{played}.")
    return "\n".join(lines)
