"""Variation options: a config's variation points, read from and written as the rulebook's words.

Every ``[rule.variation]`` of ``spec/<game>.toml`` is a config field of the same name. A field is
an :class:`OptionEnum` whose values are the rulebook's options, or a switch (``bool``: ``off`` is
``False``). Both games' configs are :class:`Variations`: their ``from_options`` and ``options``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, Self

import cardcanon.spec as spec
from cardcanon.model.errors import NotModelledError, OptionError

SWITCH = {False: "off", True: "on"}  # a switch variation's options
Kinds = Mapping[str, "type[OptionEnum] | type[bool]"]  # parameter -> its field type, rulebook order


class OptionEnum(enum.Enum):
    """An enum whose ``repr`` is valid Python (``BreakOn.VOID``) and whose ``str`` is the rulebook's value."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    def __str__(self) -> str:
        return str(self.value)


def option_text(value: OptionEnum | bool) -> str:
    """A variation field's value as the rulebook writes it."""
    return SWITCH[value] if isinstance(value, bool) else str(value.value)


def rules_of(game: str) -> dict[str, str]:
    """The rule declaring each variation parameter of ``game``, in rulebook order."""
    return {variation.parameter: rule.id for rule, variation in spec.load(game).variations()}


def check_option(game: str, name: str, text: str) -> None:
    """``text`` is an option of the variation point ``name`` of ``game``; OptionError naming the rule."""
    declared = {variation.parameter: (rule.id, variation) for rule, variation in spec.load(game).variations()}
    if name not in declared:
        raise OptionError(None, f"{name!r} is not a variation point of {game} (expected one of {', '.join(declared)})")
    rule, variation = declared[name]
    allowed = [option.value for option in variation.options]
    if text not in allowed:
        raise OptionError(rule, f"{name}: unknown value {text!r} (expected one of {', '.join(allowed)})")


def fields_from_options(game: str, kinds: Kinds, options: Mapping[str, str]) -> dict[str, Any]:
    """Config field values for ``{"parameter": "option", ...}``; OptionError naming the rule."""
    fields: dict[str, Any] = {}
    for name, text in options.items():
        check_option(game, name, text)
        kind = kinds[name]
        fields[name] = text == SWITCH[True] if kind is bool else kind(text)
    return fields


def check_fields(game: str, config: object, kinds: Kinds, not_modelled: Iterable[OptionEnum]) -> None:
    """Every variation field of ``config`` has its type; an option the model does not play raises
    NotModelledError, a wrongly typed one OptionError, both naming the rule."""
    rules = rules_of(game)
    refused = frozenset(not_modelled)
    for name, kind in kinds.items():
        value = getattr(config, name)
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise OptionError(rules[name], f"{name} must be a {kind.__name__}, not {value!r}")
        if value in refused:
            raise NotModelledError(rules[name], f"the reference model does not play {name} = {value}")


def options_of(config: object, kinds: Kinds) -> dict[str, str]:
    """Every variation parameter of ``config`` with its option, as the rulebook writes them."""
    return {name: option_text(getattr(config, name)) for name in kinds}


class Variations:
    """A table whose variation points are its fields (``HeartsConfig``, ``SnapConfig``): ``_GAME`` names
    the rulebook, ``_VARIATIONS`` the fields' types and ``_NOT_MODELLED`` the options the model refuses."""

    _GAME: ClassVar[str]
    _VARIATIONS: ClassVar[Kinds]
    _NOT_MODELLED: ClassVar[tuple[OptionEnum, ...]]

    def check_variations(self) -> None:
        """Every variation field has its type and is an option the model plays (:func:`check_fields`)."""
        check_fields(self._GAME, self, self._VARIATIONS, self._NOT_MODELLED)

    @classmethod
    def from_options(cls, options: Mapping[str, str], **settings: Any) -> Self:
        """The table for the rulebook's option words (``{"break_on": "void"}``) and any other
        ``settings`` (``target``, ``players``, ``deck``); OptionError (or NotModelledError) naming the rule."""
        return cls(**fields_from_options(cls._GAME, cls._VARIATIONS, options), **settings)

    def options(self) -> dict[str, str]:
        """Every variation parameter with its option, as the rulebook writes them."""
        return options_of(self, self._VARIATIONS)
