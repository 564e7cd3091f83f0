"""Named values (``[rule.values]``): every quantity a normative rule's text states is declared,
every declared value is stated, and a rulebook whose text and values drift apart does not load."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import cardcanon.spec as spec
from cardcanon.spec import SpecError
from cardcanon.spec.loader import rulebook_path
from cardcanon.spec.values import stated_numbers, value_problems


@pytest.mark.parametrize("game", spec.GAMES)
def test_every_stated_number_is_declared_and_every_value_stated(game: str) -> None:
    for rule in spec.load(game).rules:
        if rule.normative:
            assert value_problems(rule.text, rule.values) == [], rule.id


def test_the_numbers_the_models_read_are_declared() -> None:
    hearts, snap = spec.load("hearts"), spec.load("snap")
    assert hearts.value("HEARTS-QUEEN-1", "queen_points") == 13
    assert hearts.value("HEARTS-MOON-1", "moon_other_points") == 20
    assert hearts.value("HEARTS-MATCH-1", "target") == 100
    assert hearts.value("HEARTS-TRICK-3", "tricks_per_hand") == 13
    assert hearts.value("HEARTS-PLAYERS-1", "players") == 2  # "Exactly two players": a number word
    assert (snap.value("SNAP-PLAYERS-1", "min_players"), snap.value("SNAP-PLAYERS-1", "max_players")) == (2, 12)
    with pytest.raises(SpecError, match="HEARTS-QUEEN-1.*no value 'points'"):
        hearts.value("HEARTS-QUEEN-1", "points")


@pytest.mark.parametrize(("text", "numbers"), [
    ("The player holding the 2 of clubs leads it.", []),
    ("If the 2 and the 4 of clubs are both dead, the 6 of clubs leads.", []),
    ("the 2, else the 4, else the 6 of clubs", []),
    ("Remove the 3, 5, 7, 9, jack and king from a standard 52-card deck.", [52]),
    ("In each suit the cards rank from 2 (lowest) to ace (highest).", []),
    ("four suits of thirteen ranks, 2 to 10, jack, queen, king and ace", []),
    ("Snap is played by 2 to 12 players.", [2, 12]),
    ("ends with probability at least 53/54, as HEARTS-MATCH-1 says", [53, 54]),
])
def test_card_names_and_rule_ids_are_not_quantities(text: str, numbers: list[int]) -> None:
    assert stated_numbers(text) == numbers


def _edited_copy(tmp_path: Path, game: str, old: str, new: str) -> Path:
    text = rulebook_path(game).read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    copy = tmp_path / f"{game}.toml"
    copy.write_text(text.replace(old, new), encoding="utf-8")
    return copy


QUEEN_TEXT = 'text = """The queen of spades is a special card worth 13 points."""'
QUEEN_VALUE = "[rule.values]\nqueen_points = 13\n[[rule.quote]]"


@pytest.mark.parametrize(("old", "new", "message"), [
    # only the value changes: the text no longer states it
    (QUEEN_VALUE, QUEEN_VALUE.replace("13", "12"), r"rule HEARTS-QUEEN-1.*the text states 13.*queen_points = 12"),
    # only the sentence changes
    (QUEEN_TEXT, QUEEN_TEXT.replace("13", "12"), r"rule HEARTS-QUEEN-1.*the text states 12"),
])
def test_a_drifted_number_does_not_load(tmp_path: Path, old: str, new: str, message: str) -> None:
    with pytest.raises(SpecError, match=message):
        spec.load_file(_edited_copy(tmp_path, "hearts", old, new))


def test_one_name_is_one_number_across_rules(tmp_path: Path) -> None:
    """Text and value changed together in HEARTS-QUEEN-1 only: HEARTS-SCORE-1 still says 13."""
    text = rulebook_path("hearts").read_text(encoding="utf-8")
    text = text.replace(QUEEN_TEXT, QUEEN_TEXT.replace("13", "12")).replace(QUEEN_VALUE, QUEEN_VALUE.replace("13", "12"))
    copy = tmp_path / "hearts.toml"
    copy.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError, match=r"rule HEARTS-SCORE-1: field 'values.queen_points'.*HEARTS-QUEEN-1"):
        spec.load_file(copy)


@pytest.mark.parametrize(("values", "message"), [
    ("queen_points = -1", "non-negative integer"),
    ("queen_points = true", "non-negative integer"),
    ('queen_points = "13"', "non-negative integer"),
    ("Queen = 13", "lower-case identifier"),
])
def test_malformed_values_are_refused(tmp_path: Path, values: str, message: str) -> None:
    copy = _edited_copy(tmp_path, "hearts", QUEEN_VALUE, f"[rule.values]\n{values}\n[[rule.quote]]")
    with pytest.raises(SpecError, match=rf"hearts.toml: rule HEARTS-QUEEN-1: field 'values\.\w+': .*{message}"):
        spec.load_file(copy)


def test_informative_rules_declare_nothing(tmp_path: Path) -> None:
    text = rulebook_path("hearts").read_text(encoding="utf-8")
    match = re.search(r'id = "HEARTS-SCOPE-1"\n(?:.*\n)*?text = """.*"""\n(?:summary = .*\n)?', text)
    assert match is not None
    copy = tmp_path / "hearts.toml"
    copy.write_text(text.replace(match.group(0), match.group(0) + "[rule.values]\nplayers = 4\n"), encoding="utf-8")
    with pytest.raises(SpecError, match="HEARTS-SCOPE-1.*only a normative rule declares values"):
        spec.load_file(copy)
