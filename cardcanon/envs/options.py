"""Environment keyword arguments read from the rulebook's variation points.

Every variation point of ``spec/<game>.toml`` is a keyword argument of the environment, named by
its ``parameter`` and taking one of its option values (strings, as in the rulebook). Nothing here
lists options: they come from :func:`cardcanon.spec.load`, so a variation added to the rulebook
becomes a keyword argument without a change to the environments.

The model's ``Config.from_options`` turns the options into its table (:mod:`cardcanon.model.game`),
refusing an option the model does not play, naming the rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from cardcanon import spec
from cardcanon.model.game import Config
from cardcanon.model.options import check_option
from cardcanon.spec import Rule, Variation

C = TypeVar("C", bound=Config)


def variation_rules(game: str) -> dict[str, Rule]:
    """The rules with a variation point, by parameter name, in rulebook order."""
    return {rule.variation.parameter: rule for rule in spec.load(game).rules if rule.variation}


def variation_of(rule: Rule) -> Variation:
    """The variation point of a rule from :func:`variation_rules`."""
    if rule.variation is None:
        raise ValueError(f"{rule.id} has no variation point")
    return rule.variation


def defaults(game: str) -> dict[str, str]:
    """Each variation parameter with its default option."""
    return {name: variation_of(rule).default for name, rule in variation_rules(game).items()}


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
        check_option(game, name, value)
        chosen[name] = value
    return chosen, rest


def build_config(config_type: type[C], chosen: Mapping[str, str], **fields: Any) -> C:
    """The model config for the chosen options (and any other config ``fields``); the config
    raises :class:`~cardcanon.model.errors.NotModelledError` for an option the model does not play."""
    return config_type.from_options(chosen, **fields)


def describe(game: str, config_type: type) -> str:
    """The keyword arguments as reStructuredText bullets, for the environments' docstrings."""
    lines = []
    for name, rule in variation_rules(game).items():
        variation = variation_of(rule)
        others = []
        for option in variation.options:
            if option.value != variation.default:
                played = _plays(config_type, name, option.value)
                refused = "" if played else " (not played by the reference model: refused)"
                others.append(f"``{option.value!r}``{refused}")
        lines.append(f"- ``{name}`` ({rule.id}, {rule.title}): default ``{variation.default!r}``; "
                     f"also {', '.join(others)}.")
    return "\n".join(lines)


def _plays(config_type: type, name: str, value: str) -> bool:
    try:
        build_config(config_type, {name: value})
    except NotImplementedError:
        return False
    return True
