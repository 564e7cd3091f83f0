"""The how-to-play pages: the same sentences as ``cardcanon rules GAME --summary``, each linked
to its rule, and drawn examples that are positions of real games replayed by the model."""

from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

import cardcanon.spec as spec
from cardcanon.cli import main
from cardcanon.model import snap

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "docs" / "_ext"))

import howto  # noqa: E402

RST_SENTENCE = re.compile(r"^- (.*) :ref:`([A-Z]+-[A-Z]+-[0-9]+) <rule-\2>`$")
CLI_SENTENCE = re.compile(r"^- (.*) \[([A-Z]+-[A-Z]+-[0-9]+)\]$")


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def _sections(lines: list[str], pattern: re.Pattern, heading_line: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """(part title, [(rule ID, sentence)]) in order, from a text whose parts are underlined."""
    parts: list[tuple[str, list[tuple[str, str]]]] = []
    for number, line in enumerate(lines):
        if number + 1 < len(lines) and lines[number + 1] and set(lines[number + 1]) == {heading_line} \
                and len(lines[number + 1]) == len(line) and line:
            parts.append((line, []))
        elif match := pattern.match(line):
            parts[-1][1].append((match.group(2), _unescape(match.group(1))))
    return parts


@pytest.fixture(scope="module")
def examples():
    return {"hearts": {"Playing a trick": [howto.hearts_trick()]},
            "snap": {"Calling": [howto.snap_call(), *howto.snap_tie()]}}


@pytest.mark.parametrize("game", spec.GAMES)
def test_page_says_exactly_what_the_summary_command_prints(game, examples, capsys):
    assert main(["rules", game, "--summary"]) == 0
    printed = capsys.readouterr().out.splitlines()
    # the command wraps long sentences: join continuation lines to their sentence first
    joined: list[str] = []
    for line in printed:
        if line.startswith("  ") and joined:
            joined[-1] += " " + line.strip()
        else:
            joined.append(line)
    page = howto.page(game, examples[game]).splitlines()
    from_page = [part for part in _sections(page, RST_SENTENCE, "-") if part[0] != "Variations"]
    from_command = _sections(joined, CLI_SENTENCE, "-")
    assert from_page == from_command
    assert sum(len(sentences) for _, sentences in from_page) == sum(1 for r in spec.load(game).rules if r.summary)


def test_every_sentence_links_to_its_rule_label(examples):
    page = howto.page("hearts", examples["hearts"])
    for rule in spec.load("hearts").rules:
        if rule.summary:
            assert f":ref:`{rule.id} <rule-{rule.id}>`" in page


def test_hearts_example_is_a_true_trick(examples):
    example = examples["hearts"]["Playing a trick"][0]
    ElementTree.fromstring(example.svg)
    assert "HEARTS-TRICK-1" in example.caption and ".. figure:: /generated/figures/" in example.rst()
    # the alternative text names the cards: lead of one suit, won by a heart from a player void in it
    lead, heart = re.search(r"leads (\S+) and .* with (\S+)$", example.alt).groups()
    assert heart.endswith("♥") and not lead.endswith("♥")  # one card notation: the suit signs


def test_snap_examples_replay_in_the_model(examples):
    call, before, after = examples["snap"]["Calling"]
    for example in (call, before, after):
        ElementTree.fromstring(example.svg)
    seed = int(re.search(r"seed (\d+)", before.caption).group(1))
    game = howto.play_game(snap.SnapConfig(players=3), seed, "ties:0.3", max_flips=2000)
    state, move = howto._replay_until(snap.SnapConfig(players=3), game.moves,
                                      lambda s, m: isinstance(m, snap.Tie) and not s.pot)
    pot = snap.apply(state, move).pot
    assert pot[0] == state.up[state.turn.index][0]  # the flipped card tops the pot (SNAP-TIE-1)
    assert " ".join(card.pretty for card in pot) in after.alt


def test_implementers_page_sets_out_the_seed_to_deal_steps():
    text = howto.seed_to_deal()
    steps = [line for line in text.splitlines() if re.match(r"^[0-9]\. ", line)]
    assert [line[0] for line in steps] == ["1", "2", "3", "4", "5"]
    assert "before the shuffle" in steps[0] and ":ref:`SNAP-SEED-1 <rule-SNAP-SEED-1>`" in text
    assert "include:: generated/seed-to-deal.inc" in (Path(howto.__file__).parents[1] / "implementing.rst").read_text()


@pytest.mark.parametrize("game", spec.GAMES)
def test_variations_say_each_choice_in_words_with_its_option_beside_it(game, examples):
    from rulebook_pages import linkify

    page = howto.page(game, examples[game])
    part = page[page.index("\nVariations\n"):]
    for rule in spec.load(game).rules:
        if rule.variation is not None:
            assert f":ref:`{rule.id} <rule-{rule.id}>`" in part, rule.id
            v = rule.variation
            for option in v.options:
                lead = "Standard" if option.value == v.default else "Or"
                line = f"  - {lead}: {linkify(option.text, spec.all_rule_ids())} ``{v.parameter}={option.value}``\n"
                assert line in part, line


# What a player needs and once had to look up in the rules (a reader's test of the pages).
FACTS = {"hearts": [("HEARTS-MOON-2", r"dead.*shoot the moon.*score 0 and the other player 20"),
                    ("HEARTS-DEAL-2", r"the other player first")],
         "snap": [("SNAP-FLIP-3", r"Only when you must flip or pay a card"),
                  ("SNAP-END-4", r"every pile, the Snap Pot and whose turn it is.*until the players agree to a draw"),
                  ("SNAP-DEAL-2", r"players nearest his left may get one card more")]}


@pytest.mark.parametrize("game", spec.GAMES)
def test_the_how_to_pages_give_the_facts_players_asked_for_in_few_words(game, examples):
    page = howto.page(game, examples[game])
    for rule_id, fact in FACTS[game]:
        line = next(line for line in page.splitlines() if f"<rule-{rule_id}>`" in line and line.startswith("- "))
        assert re.search(fact, line), (rule_id, line)
    standard, choices = page.split("\nVariations\n")
    for text, most in ((standard, 900), (choices, 350)):  # the standard game, then the variations in words
        shown = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith((".. ", ":")))
        shown = re.sub(r":ref:`([^<`]*?) ?<[^>]*>`", r"\1", shown).replace("``", "").replace("**", "")
        words = len([w for w in shown.split() if re.search(r"\w", w)])  # as the page shows them
        assert words < most, words
