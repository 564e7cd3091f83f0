"""The rulebook's variation points and named values bind the models: every ``[rule.variation]``
is a config field with the same name, options and default (and every variation field of a config
is a variation point of the rulebook); options the model does not play are refused naming the
rule; the numbers the models play with are the rulebook's."""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

import pytest

import cardcanon.spec as spec
from cardcanon.model import hearts, hearts_types, snap
from cardcanon.model.errors import NotModelledError

CONFIGS: dict[str, tuple[type[Any], dict[str, Any]]] = {
    "hearts": (hearts.HeartsConfig, hearts_types.VARIATIONS),
    "snap": (snap.SnapConfig, snap.VARIATIONS),
}
SETTINGS = {"hearts": {"target"}, "snap": {"players", "deck"}}  # table settings, not variation points
SWITCH = ("off", "on")  # a variation with these options is a bool field: False is "off"


def _options(kind: type[Any]) -> tuple[str, ...]:
    return SWITCH if kind is bool else tuple(member.value for member in kind)


def _value(kind: type[Any], option: str) -> Any:
    return option == "on" if kind is bool else kind(option)


@pytest.mark.parametrize("game", spec.GAMES)
def test_every_variation_point_is_a_config_field_with_its_options_and_default(game):
    config_class, kinds = CONFIGS[game]
    fields = {f.name: f for f in dataclasses.fields(config_class)}
    for rule, variation in spec.load(game).variations():
        name = variation.parameter
        assert name in fields and name in kinds, f"{rule.id}: no {config_class.__name__} field {name!r}"
        options = tuple(option.value for option in variation.options)
        assert _options(kinds[name]) == options, f"{rule.id}: {name} options differ"
        assert fields[name].default == _value(kinds[name], variation.default), f"{rule.id}: {name} default differs"


@pytest.mark.parametrize("game", spec.GAMES)
def test_every_config_variation_field_is_a_variation_point(game):
    config_class, kinds = CONFIGS[game]
    parameters = [variation.parameter for _, variation in spec.load(game).variations()]
    assert list(kinds) == parameters  # same names, rulebook order
    for f in dataclasses.fields(config_class):
        typed = isinstance(f.default, (enum.Enum, bool))
        assert f.name in SETTINGS[game] or (typed and f.name in parameters), f"{f.name} is no variation point"


@pytest.mark.parametrize("game", spec.GAMES)
def test_unmodelled_options_are_refused_naming_their_rule(game):
    config_class, kinds = CONFIGS[game]
    for rule, variation in spec.load(game).variations():
        for option in variation.options:
            value = _value(kinds[variation.parameter], option.value)
            if "not modelled" in option.text:
                with pytest.raises(NotModelledError, match=rf"^{rule.id}: .*{variation.parameter}") as info:
                    config_class(**{variation.parameter: value})
                assert info.value.rule_id == rule.id
            else:
                assert getattr(config_class(**{variation.parameter: value}), variation.parameter) == value


@pytest.mark.parametrize("game", spec.GAMES)
def test_default_config_speaks_the_rulebooks_defaults(game):
    config_class, _ = CONFIGS[game]
    assert config_class().options() == {v.parameter: v.default for _, v in spec.load(game).variations()}


def test_the_models_play_with_the_rulebooks_numbers():
    book = spec.load("hearts")
    assert hearts.card_points(hearts.QUEEN_OF_SPADES) == book.value("HEARTS-QUEEN-1", "queen_points")
    assert hearts.card_points(hearts.DECK[14]) == book.value("HEARTS-SCORE-1", "heart_points")  # the 2 of hearts
    assert hearts.HeartsConfig().target == book.value("HEARTS-MATCH-1", "target")
    assert len(hearts.DECK) == book.value("HEARTS-DECK-1", "deck_size")
    assert hearts_types.TRICKS_PER_HAND == book.value("HEARTS-TRICK-3", "tricks_per_hand")
    every_point = (hearts.POINT_CARDS, frozenset())
    moon = (book.value("HEARTS-MOON-1", "moon_shooter_points"), book.value("HEARTS-MOON-1", "moon_other_points"))
    assert hearts.score_hand(every_point, ()) == moon
    rules = spec.load("snap")
    low, high = rules.value("SNAP-PLAYERS-1", "min_players"), rules.value("SNAP-PLAYERS-1", "max_players")
    snap.SnapConfig(players=low), snap.SnapConfig(players=high)
    for players in (low - 1, high + 1):
        with pytest.raises(ValueError, match="SNAP-PLAYERS-1"):
            snap.SnapConfig(players=players)
    assert len(snap.SnapConfig().deck) == rules.value("SNAP-DECK-1", "deck_size")
