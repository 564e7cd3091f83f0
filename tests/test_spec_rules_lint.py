"""Lints of the rulebook's content: statuses agree with FORMAT.md and the discrepancies, every
normative rule has a summary, proved facts name real checks, and the how-to text, glossary,
calling policies and seed-to-deal procedure agree with the code they describe."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

import cardcanon.spec as spec
from cardcanon.verify.manifest import load_manifests
from cardcanon.model.cards import FULL_DECK
from cardcanon.model.seats import Seat
from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.snap import SnapConfig, deal_piles, sample_deal
from cardcanon.model.snap_policies import POLICY_NAMES, parse_policy
from cardcanon.spec import DiscrepancyKind, Status, howto
from cardcanon.spec.loader import check_summary
from cardcanon.spec.statuses import DAMAGE_KINDS, READABLE_KINDS, status_problems

RULES = [rule for game in spec.GAMES for rule in spec.load(game).rules]


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.id)
def test_status_agrees_with_format_and_discrepancies(rule):
    assert status_problems(rule) == []


def test_every_discrepancy_kind_is_classified():
    assert READABLE_KINDS.isdisjoint(DAMAGE_KINDS)
    # the changed-* kinds record sources that differ: they keep a rule from being "stated" too
    assert all(kind in READABLE_KINDS or kind in DAMAGE_KINDS or kind.value.startswith("changed-")
               for kind in DiscrepancyKind)


def _discrepancy(kind: DiscrepancyKind) -> spec.Discrepancy:
    return spec.Discrepancy(("hy-hearts",), kind, "what", "ruling", "reason")


def test_status_lint_can_fail():
    stated = spec.load("hearts").rule("HEARTS-PLAYERS-1")
    assert status_problems(stated) == []
    garbled = replace(stated, discrepancies=(_discrepancy(DiscrepancyKind.GARBLED_SENTENCE),))
    assert "stated, but a discrepancy says the source text is not plain (garbled-sentence)" in status_problems(garbled)
    assert status_problems(replace(stated, discrepancies=(_discrepancy(DiscrepancyKind.CHANGED_CARD),)))
    assert status_problems(replace(stated, discrepancies=(_discrepancy(DiscrepancyKind.GARBLED_HEADING),))) == []
    assert status_problems(replace(stated, rationale="Our ruling."))
    assert status_problems(replace(stated, quotes=()))
    rebuilt = replace(stated, status=Status.RECONSTRUCTED, rationale="Rebuilt.")
    assert status_problems(rebuilt) == ["reconstructed, but no discrepancy records lost or garbled text "
                                        "(changed-meaning, garbled-sentence, lost-sentence, lost-word, markup)"]
    assert status_problems(replace(rebuilt, discrepancies=(_discrepancy(DiscrepancyKind.LOST_WORD),))) == []
    assert status_problems(replace(stated, checks=("HEARTS-P6-match-bound",)))  # a proved fact is informative
    fact = spec.load("hearts").rule("HEARTS-MATCH-4")
    assert status_problems(fact) == [] and status_problems(replace(fact, normative=True))


def test_every_normative_rule_has_a_valid_summary():
    missing = [rule.id for rule in RULES if rule.normative and not rule.summary]
    assert not missing, f"normative rules without a summary: {missing}"
    assert all(check_summary(rule.summary) is None for rule in RULES if rule.summary)


@pytest.mark.parametrize("summary, problem", [
    ("Deal the cards", "must end with a full stop"),
    ("Deal the cards.\nThen play.", "must be one line"),
    ("Deal the cards. Then play.", "must be one sentence"),
    ('Call "Snap!" Then wait.', "must be one sentence"),
    ("Play as SNAP-FLIP-1 says.", "must not name rule IDs"),
    (" ".join(["word"] * 41) + ".", "has 41 words; at most 40"),
])
def test_malformed_summaries_are_refused(summary, problem):
    assert problem in check_summary(summary)


def test_a_summary_may_quote_a_call():
    assert check_summary('The first to call "Snap!" wins the piles.') is None


def test_proved_facts_name_checks_that_exist_and_cite_the_game():
    checks = {check.id: check for check in load_manifests(resolve=False)}
    cited = [(rule, check) for rule in RULES for check in rule.checks]
    assert {check for _, check in cited} >= {"HEARTS-P6-match-bound", "HEARTS-P8-endless-tie"}
    for rule, check_id in cited:
        assert check_id in checks, f"{rule.id} cites unknown check {check_id}"
        assert checks[check_id].game == rule.game


@pytest.mark.parametrize("game, terms", [
    ("hearts", {"Hand", "Match", "Trick", "Dead card", "Point cards", "Broken hearts"}),
    ("snap", {"Holds cards", "Snap Pot", "Face-down pile and face-up pile", "Tie", "Match and matched pile"}),
])
def test_glossary_defines_the_terms_of_play(game, terms):
    glossary = [rule for rule in spec.load(game).rules if rule.section == "Terms of play"]
    assert terms <= {rule.title for rule in glossary}
    assert all(rule.status is Status.INFORMATIVE and not rule.normative for rule in glossary)


# ---------------------------------------------------------------------------- how to play


@pytest.mark.parametrize("game", spec.GAMES)
def test_howto_has_every_normative_rule_once_in_rulebook_order(game):
    book = spec.load(game)
    parts = howto.parts(book)
    assert [part.title for part in parts][0] == "What you need" and parts[-1].title == "The end"
    assert all(part.sentences for part in parts)
    ids = [s.rule_id for part in parts for s in part.sentences]
    assert len(ids) == len(set(ids))
    assert {rule.id for rule in book.rules if rule.normative} <= set(ids)
    order = [rule.id for rule in book.rules]
    for part in parts:
        positions = [order.index(s.rule_id) for s in part.sentences]
        assert positions == sorted(positions)


def test_howto_text_carries_each_rule_id_after_its_sentence():
    book = spec.load("hearts")
    text = howto.text(book, width=1000)
    for part in howto.parts(book):
        for sentence in part.sentences:
            assert f"- {sentence.text} [{sentence.rule_id}]\n" in text + "\n"


# ---------------------------------------------------------------------------- Snap sections


def test_calling_policy_section_defines_every_named_policy():
    book = spec.load("snap")
    titles = {rule.title for rule in book.rules if rule.section == "Calling policies"}
    for name in POLICY_NAMES:
        assert f"The policy {name}" in titles
        parse_policy(name.replace("RATE", "0.5"))  # a name the model accepts
    assert "SNAP-POLICY-1" in book.rule("SNAP-END-4").text


def _numbers(text: str) -> list[int]:
    return [int(x, 16) for x in re.findall(r"0x[0-9A-F]{16}", text)]


def test_seed_to_deal_procedure_as_written_gives_the_models_deal():
    """Follow SNAP-SEED-1 and SNAP-SEED-2 literally, with the constants read from their text."""
    generator = spec.load("snap").rule("SNAP-SEED-1").text
    increment, first, second = _numbers(generator)
    assert "(state >> 30)" in generator and "(z >> 27)" in generator and "(z >> 31)" in generator
    mask = (1 << 64) - 1

    class Written:
        def __init__(self, seed):
            self.state = seed & mask

        def draw(self):
            self.state = (self.state + increment) & mask
            z = ((self.state ^ (self.state >> 30)) * first) & mask
            z = ((z ^ (z >> 27)) * second) & mask
            return z ^ (z >> 31)

        def below(self, n):
            t = (1 << 64) % n
            while (x := self.draw()) < t:
                pass
            return x % n

        def shuffled(self, items):
            items = list(items)
            for i in range(len(items) - 1, 0, -1):
                j = self.below(i + 1)
                items[i], items[j] = items[j], items[i]
            return items

    for players, seed in ((2, 0), (3, 7), (5, 2**64 + 11), (12, 123456789)):
        written = Written(seed)
        dealer = written.below(players)  # step 1: the dealer before the shuffle
        order = written.shuffled(FULL_DECK)  # step 2
        piles = [[] for _ in range(players)]
        for i, card in enumerate(order):  # step 3
            piles[(dealer + 1 + i) % players].insert(0, card)  # step 4: the last dealt on top
        config = SnapConfig(players=players)
        deal = sample_deal(config, SplitMix64(seed))
        assert (deal.dealer, deal.order) == (Seat(dealer), tuple(order))
        assert deal_piles(config, deal.dealer, deal.order) == tuple(tuple(p) for p in piles)
    assert "clubs, diamonds, hearts, spades, each suit from the 2 up to the ace" in spec.load("snap").rule(
        "SNAP-SEED-2").text
    assert [str(card) for card in FULL_DECK[:2]] == ["2c", "3c"] and str(FULL_DECK[-1]) == "As"
