"""``cardcanon rules``: readable rulebook, one rule, sources, JSON, and clean errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cardcanon.spec as spec
from cardcanon.cli import main
from cardcanon.spec import (
    Direction, Discrepancy, DiscrepancyKind, Option, Quote, Rule, Rulebook, Source, Status, Variation,
)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["rules", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_rulebook_is_printed_by_section(capsys):
    status, out, err = run(capsys, "snap")
    assert status == 0 and err == ""
    book = spec.load("snap")
    positions = [out.index(f"\n{section}\n{'-' * len(section)}\n") for section, _ in book.sections()]
    assert positions == sorted(positions)
    for rule in book.rules:
        assert f"{rule.id}  {rule.title}  [{rule.status.value}" in out
    assert "Hebrew, right-to-left" in out
    assert max(len(line) for line in out.splitlines()) <= 100


def test_both_games_without_a_game_argument(capsys):
    status, out, _ = run(capsys)
    assert status == 0
    assert out.index("Two-player Hearts\n=================\n") < out.index("Snap\n====\n")  # spec.GAMES


def test_variation_options_mark_the_default(capsys):
    book = spec.load("snap")
    rule = next(rule for rule in book.rules if rule.variation)
    status, out, _ = run(capsys, "snap", "--id", rule.id)
    assert status == 0
    for option in rule.variation.options:
        mark = " (default)" if option.value == rule.variation.default else ""
        assert f"- {option.value}{mark}: " in out


def test_one_rule_by_id(capsys):
    rule = spec.load("hearts").rules[-1]
    status, out, _ = run(capsys, "--id", rule.id)  # the game is optional
    assert status == 0
    ids = [line.split()[0] for line in out.splitlines() if line.startswith(("SNAP-", "HEARTS-"))]
    assert ids == [rule.id]
    assert " ".join(rule.text.split()[:6]) in " ".join(out.split())


def test_status_filter(capsys):
    status, out, _ = run(capsys, "hearts", "--status", "decided")
    expected = [rule.id for rule in spec.load("hearts").rules if rule.status is Status.DECIDED]
    assert status == 0 and expected
    assert [line.split()[0] for line in out.splitlines() if line.startswith("HEARTS-")] == expected


@pytest.mark.parametrize(
    "argv", [["snap", "--id", "SNAP-NOPE-1"], ["--id", "nonsense"], ["hearts", "--id", "SNAP-FLIP-1"]]
)
def test_unknown_id_is_one_error_line(capsys, argv):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert len(err.splitlines()) == 1 and argv[-1] in err and "Traceback" not in err


def test_json_has_every_rule_of_both_games(capsys):
    status, out, _ = run(capsys, "--json")
    assert status == 0
    data = json.loads(out)
    assert [game["game"] for game in data["games"]] == list(spec.GAMES) == ["hearts", "snap"]
    expected = [rule.id for game in spec.GAMES for rule in spec.load(game).rules]
    assert [rule["id"] for rule in data["rules"]] == expected
    keys = {"id", "game", "title", "section", "status", "normative", "text", "rationale", "values", "variation",
            "quotes", "discrepancies", "summary", "checks"}
    assert all(set(rule) == keys for rule in data["rules"])
    assert {rule["game"] for rule in data["rules"]} == {"snap", "hearts"}
    assert {source["id"] for source in data["sources"]} == {source.id for source in spec.sources()}
    assert "nonrules" in data


def test_json_of_one_game(capsys):
    _, out, _ = run(capsys, "hearts", "--json")
    data = json.loads(out)
    assert {rule["game"] for rule in data["rules"]} == {"hearts"}
    assert [source["id"] for source in data["sources"]] == ["hy-hearts"]


# ---------------------------------------------------------------------------- --sources

HEBREW = Source(id="he-snap", file="he.txt", sha256="0" * 64, game="snap", language="he", language_name="Hebrew",
                direction=Direction.RTL, provenance="test", path=Path("he.txt"))
QUOTED = Rule(
    id="SNAP-PEN-1", title="Wrong calls", section="Mistakes", status=Status.RECONCILED,
    text="A wrong caller gives his top card to the player who flipped.", normative=True,
    rationale="Two sources name the player who flipped.",
    variation=Variation("penalty", "top-card", (Option("top-card", "Give the top card."), Option("none", "None."))),
    quotes=(Quote("he-snap", "על השחקן למסור את הכרטיס העליון", "the player must hand over the top card",
                  language="he"),),
    discrepancies=(Discrepancy(("he-snap",), DiscrepancyKind.CHANGED_RECIPIENT, "The recipient differs.",
                               "The player who flipped receives the card.", "Most sources say so."),),
)


def test_sources_show_quotes_glosses_and_rulings(capsys, monkeypatch):
    book = Rulebook(game="snap", title="Snap", sources=(HEBREW,), rules=(QUOTED,), nonrules=())
    monkeypatch.setattr(spec, "load", lambda game: book)
    status, out, _ = run(capsys, "snap", "--sources")
    assert status == 0
    assert "Quote from he-snap (Hebrew, right-to-left):" in out
    assert "      על השחקן למסור את הכרטיס העליון\n" in out  # original text first, as is
    assert out.index("על השחקן") < out.index("= the player must hand over the top card")
    assert "Discrepancy (changed-recipient; he-snap): The recipient differs." in out
    assert "Ruling: The player who flipped receives the card." in out and "Reason: Most sources say so." in out
    assert "Rationale: Two sources name the player who flipped." in out
    status, plain, _ = run(capsys, "snap")
    assert "על השחקן" not in plain and "Rationale" not in plain


# ---------------------------------------------------------------------------- --summary


def test_hearts_summary_is_a_short_how_to_play(capsys):
    status, out, err = run(capsys, "hearts", "--summary")
    assert status == 0 and err == ""
    assert out.startswith("How to play Two-player Hearts\n")
    assert len(out.split()) < 700
    for part in ("What you need", "The deal", "Playing a trick", "Scoring", "The end"):
        assert f"\n{part}\n{'-' * len(part)}\n" in out
    book = spec.load("hearts")
    for rule in book.rules:
        assert (f"[{rule.id}]" in out) == bool(rule.summary), rule.id
    sentences = [line for line in out.splitlines() if line.startswith("- ")]
    assert len(sentences) == sum(1 for rule in book.rules if rule.summary)  # one per rule, each with its ID


def test_summary_of_both_games(capsys):
    status, out, _ = run(capsys, "--summary")
    assert status == 0 and out.index("How to play Two-player Hearts") < out.index("How to play Snap")
    assert "[SNAP-TIE-1]" in out and "[HEARTS-LEAD-1]" in out


def test_summary_does_not_mix_with_other_views(capsys):
    status, out, err = run(capsys, "snap", "--summary", "--json")
    assert status == 2 and out == "" and len(err.splitlines()) == 1 and "--summary" in err


def test_glossary_is_printed_with_the_rules(capsys):
    status, out, _ = run(capsys, "snap", "--id", "SNAP-TERM-4")
    assert status == 0 and "SNAP-TERM-4  Holds cards  [informative]" in out
    _, out, _ = run(capsys, "hearts")
    assert "\nTerms of play\n" in out and "HEARTS-TERM-2  Hand  [informative]" in out


def test_a_proved_fact_names_its_check(capsys):
    status, out, _ = run(capsys, "hearts", "--id", "HEARTS-MATCH-4")
    assert status == 0 and "[informative]" in out and "    Proved by: HEARTS-P6-match-bound" in out
