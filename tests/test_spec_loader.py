"""The rulebook loader: the real rulebooks load, and every kind of malformed file is refused
with one message naming the file, the rule (or entry) and the field."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import cardcanon.spec as spec
from cardcanon.spec import SpecError, Status
from cardcanon.spec.loader import check_unique_ids
from cardcanon.spec.schema import NEEDS_QUOTE

SOURCE_TEXT = "Snap rules\nPlayers: 2 to 12.\nThe first to call Snap wins both piles.\n"
HEAD = 'game = "snap"\ntitle = "Snap"\nsources = ["xx-snap"]\n'
RULE = '''
[[rule]]
id = "SNAP-PLAYERS-1"
title = "Players"
section = "Players and cards"
status = "stated"
text = "Two to twelve players."
[[rule.quote]]
source = "xx-snap"
span = "Players: 2 to 12."
gloss = "Players: 2 to 12."
'''
DECIDED = '''
[[rule]]
id = "SNAP-CALL-1"
title = "Calling"
section = "Calls"
status = "decided"
text = "The first caller wins, as SNAP-PLAYERS-1 allows."
rationale = "The source says so."
[rule.variation]
parameter = "calls"
default = "first"
[[rule.variation.option]]
value = "first"
text = "The first caller wins."
[[rule.variation.option]]
value = "last"
text = "The last caller wins."
[[rule.discrepancy]]
sources = ["xx-snap"]
kind = "lost-word"
what = "A word is lost."
ruling = "Read it as SNAP-CALL-1 says."
reason = "Nothing else makes sense."
'''
NONRULE = '''
[[nonrule]]
source = "xx-snap"
kind = "title"
span = "Snap rules"
gloss = "Snap rules"
'''
GOOD = HEAD + RULE + DECIDED + NONRULE


def write_sources(folder: Path, text: str = SOURCE_TEXT, *, sha: str | None = None, direction: str = "ltr",
                  extra: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "xx.txt").write_text(text, encoding="utf-8")
    (folder / "yy.txt").write_text("Hearts\n", encoding="utf-8")
    sha = sha or hashlib.sha256(text.encode("utf-8")).hexdigest()
    yy_sha = hashlib.sha256(b"Hearts\n").hexdigest()
    meta = folder / "sources.toml"
    meta.write_text(
        f'[[source]]\nid = "xx-snap"\nfile = "xx.txt"\nsha256 = "{sha}"\ngame = "snap"\nlanguage = "xx"\n'
        f'language_name = "Testish"\ndirection = "{direction}"\nprovenance = "Made for the tests."\n{extra}\n'
        f'[[source]]\nid = "yy-hearts"\nfile = "yy.txt"\nsha256 = "{yy_sha}"\ngame = "hearts"\nlanguage = "yy"\n'
        f'language_name = "Othish"\ndirection = "rtl"\nprovenance = "Made for the tests."\n',
        encoding="utf-8",
    )
    return meta


@pytest.fixture
def sources(tmp_path):
    return spec.load_sources(write_sources(tmp_path / "sources"))


def load_text(tmp_path: Path, text: str, sources, name: str = "book.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return spec.load_file(path, sources)


def refused(tmp_path: Path, text: str, sources) -> str:
    with pytest.raises(SpecError) as caught:
        load_text(tmp_path, text, sources)
    message = str(caught.value)
    assert "\n" not in message and "Traceback" not in message
    assert message.startswith(str(tmp_path / "book.toml")), message  # names the file
    return message


def expect(message: str, entry: str, field: str, problem: str) -> None:
    assert f": {entry}: field '{field}': " in message, message
    assert problem in message, message


# ---------------------------------------------------------------------------- well-formed files


def test_synthetic_rulebook_loads_with_every_field(tmp_path, sources):
    book = load_text(tmp_path, GOOD, sources)
    assert [rule.id for rule in book.rules] == ["SNAP-PLAYERS-1", "SNAP-CALL-1"]
    players, call = book.rules
    assert players.status is Status.STATED and players.normative and players.rationale is None
    assert players.quotes == (spec.Quote("xx-snap", "Players: 2 to 12.", "Players: 2 to 12.", language="xx"),)
    assert call.variation.default == "first" and [o.value for o in call.variation.options] == ["first", "last"]
    assert call.discrepancies[0].kind is spec.DiscrepancyKind.LOST_WORD
    assert book.nonrules[0].kind is spec.NonRuleKind.TITLE
    assert [source.id for source in book.sources] == ["xx-snap"]
    assert book.sections() == [("Players and cards", (players,)), ("Calls", (call,))]
    data = json.loads(json.dumps(book.to_json()))
    assert data["rules"][1]["variation"]["options"][1] == {"value": "last", "text": "The last caller wins."}
    assert data["rules"][0]["quotes"][0]["language"] == "xx"


def test_informative_rules_are_not_normative_by_default(tmp_path, sources):
    text = HEAD + RULE.replace('"stated"', '"informative"')
    assert load_text(tmp_path, text, sources).rules[0].normative is False


def test_unknown_rule_lookup_is_a_spec_error(tmp_path, sources):
    book = load_text(tmp_path, GOOD, sources)
    with pytest.raises(SpecError, match=r"rule SNAP-CALL-2: no such rule.*did you mean SNAP-CALL-1"):
        book.rule("SNAP-CALL-2")


# ---------------------------------------------------------------------------- malformed files


def test_duplicate_id_within_a_file(tmp_path, sources):
    message = refused(tmp_path, HEAD + RULE + RULE, sources)
    expect(message, "rule SNAP-PLAYERS-1", "id", "duplicate ID (also rule #1)")


def test_duplicate_id_across_rulebooks(tmp_path, sources):
    first = load_text(tmp_path, HEAD + RULE, sources, "one.toml")
    second = load_text(tmp_path, HEAD + DECIDED.replace("SNAP-CALL-1", "SNAP-PLAYERS-1"), sources, "two.toml")
    with pytest.raises(SpecError) as caught:
        check_unique_ids([first, second])
    assert str(caught.value).startswith(str(tmp_path / "two.toml"))
    expect(str(caught.value), "rule SNAP-PLAYERS-1", "id", f"also in {tmp_path / 'one.toml'}")


@pytest.mark.parametrize("bad", ["SNAP-players-1", "SNAP-PLAYERS", "SNAP-PLAYERS-1a", "SNAP_PLAYERS_1", "SNAP-A-1\\n"])
def test_malformed_id(tmp_path, sources, bad):
    message = refused(tmp_path, HEAD + RULE.replace("SNAP-PLAYERS-1", bad), sources)
    expect(message, "rule #1" if "\\" in bad else f"rule {bad}", "id", "malformed ID")


def test_id_prefix_must_match_the_game(tmp_path, sources):
    message = refused(tmp_path, HEAD + RULE.replace("SNAP-PLAYERS-1", "HEARTS-PLAYERS-1"), sources)
    expect(message, "rule HEARTS-PLAYERS-1", "id", "must start with SNAP-")


def test_missing_id_names_the_entry_index(tmp_path, sources):
    message = refused(tmp_path, HEAD + RULE + RULE.replace('id = "SNAP-PLAYERS-1"\n', ""), sources)
    expect(message, "rule #2", "id", "missing")


def test_unknown_status(tmp_path, sources):
    message = refused(tmp_path, HEAD + RULE.replace('"stated"', '"agreed"'), sources)
    expect(message, "rule SNAP-PLAYERS-1", "status", "unknown status 'agreed'")


def test_unknown_discrepancy_kind(tmp_path, sources):
    message = refused(tmp_path, HEAD + RULE + DECIDED.replace('"lost-word"', '"lost-words"'), sources)
    expect(message, "rule SNAP-CALL-1", "discrepancy[1].kind", "unknown discrepancy kind 'lost-words'")


def test_unknown_nonrule_kind(tmp_path, sources):
    message = refused(tmp_path, GOOD.replace('kind = "title"', 'kind = "caption"'), sources)
    expect(message, "nonrule #1", "kind", "unknown non-rule kind 'caption'")


def test_unknown_source_id_in_a_quote(tmp_path, sources):
    message = refused(tmp_path, HEAD + RULE.replace('source = "xx-snap"', 'source = "zz-snap"'), sources)
    expect(message, "rule SNAP-PLAYERS-1", "quote[1].source", "unknown source 'zz-snap'")


def test_quote_from_a_source_the_rulebook_does_not_list(tmp_path, sources):
    message = refused(tmp_path, HEAD + RULE.replace('source = "xx-snap"', 'source = "yy-hearts"'), sources)
    expect(message, "rule SNAP-PLAYERS-1", "quote[1].source", "not one of this rulebook's sources")


def test_unknown_source_in_a_discrepancy(tmp_path, sources):
    message = refused(tmp_path, HEAD + DECIDED.replace('sources = ["xx-snap"]', 'sources = ["xx-snap", "qq"]'),
                      sources)
    expect(message, "rule SNAP-CALL-1", "discrepancy[1].sources", "unknown source 'qq'")


def test_rulebook_listing_another_games_source(tmp_path, sources):
    message = refused(tmp_path, HEAD.replace('["xx-snap"]', '["xx-snap", "yy-hearts"]') + RULE, sources)
    assert ": field 'sources': source 'yy-hearts' is a hearts source" in message


def test_unknown_direction(tmp_path):
    meta = write_sources(tmp_path / "sources", direction="sideways")
    with pytest.raises(SpecError) as caught:
        spec.load_sources(meta)
    message = str(caught.value)
    assert message.startswith(str(meta)), message
    expect(message, "source xx-snap", "direction", "unknown direction 'sideways'")


def test_unknown_key_in_sources_metadata(tmp_path):
    meta = write_sources(tmp_path / "sources", extra='langauge = "xx"')
    with pytest.raises(SpecError) as caught:
        spec.load_sources(meta)
    expect(str(caught.value), "source xx-snap", "langauge", "unknown key (did you mean 'language'?)")


@pytest.mark.parametrize("field", ["title", "section", "text", "status"])
def test_missing_required_field(tmp_path, sources, field):
    lines = [line for line in RULE.splitlines() if not line.startswith(f"{field} =")]
    message = refused(tmp_path, HEAD + "\n".join(lines), sources)
    expect(message, "rule SNAP-PLAYERS-1", field, "missing")


def test_missing_top_level_game(tmp_path, sources):
    message = refused(tmp_path, HEAD.replace('game = "snap"\n', "") + RULE, sources)
    assert message.endswith(": field 'game': missing (required)"), message


@pytest.mark.parametrize("status", ["reconciled", "reconstructed", "decided", "variant"])
def test_rationale_required(tmp_path, sources, status):
    text = DECIDED.replace('"decided"', f'"{status}"').replace('rationale = "The source says so."\n', "")
    message = refused(tmp_path, HEAD + RULE + text, sources)
    expect(message, "rule SNAP-CALL-1", "rationale", f"required for status '{status}'")


def test_variant_requires_a_variation(tmp_path, sources):
    text = RULE.replace('"stated"', '"variant"').replace('text = "Two', 'rationale = "Optional."\ntext = "Two')
    message = refused(tmp_path, HEAD + text, sources)
    expect(message, "rule SNAP-PLAYERS-1", "variation", "required for status 'variant'")


def test_variation_default_must_be_an_option(tmp_path, sources):
    message = refused(tmp_path, HEAD + RULE + DECIDED.replace('default = "first"', 'default = "second"'), sources)
    expect(message, "rule SNAP-CALL-1", "variation.default", "'second' is not one of the option values")


def test_variation_parameter_used_twice(tmp_path, sources):
    second = DECIDED.replace("SNAP-CALL-1", "SNAP-CALL-2")
    message = refused(tmp_path, HEAD + RULE + DECIDED + second, sources)
    expect(message, "rule SNAP-CALL-2", "variation.parameter", "already used by SNAP-CALL-1")


def test_quote_span_not_in_the_source(tmp_path, sources):
    message = refused(tmp_path, HEAD + RULE.replace('span = "Players: 2 to 12."', 'span = "Players: 2 to 10."'),
                      sources)
    expect(message, "rule SNAP-PLAYERS-1", "quote[1].span", "not found verbatim in xx-snap")


def test_nonrule_span_not_in_the_source(tmp_path, sources):
    message = refused(tmp_path, GOOD.replace('span = "Snap rules"', 'span = "Snap Rules"'), sources)
    expect(message, "nonrule #1", "span", "not found verbatim")


@pytest.mark.parametrize("gloss", ['""', '"   "'])
def test_empty_gloss(tmp_path, sources, gloss):
    message = refused(tmp_path, HEAD + RULE.replace('gloss = "Players: 2 to 12."', f"gloss = {gloss}"), sources)
    expect(message, "rule SNAP-PLAYERS-1", "quote[1].gloss", "is empty")


def test_cross_reference_to_an_unknown_rule(tmp_path, sources):
    message = refused(tmp_path, HEAD + RULE.replace("Two to twelve players.", "As SNAP-CALL-5 says."), sources)
    expect(message, "rule SNAP-PLAYERS-1", "text", "refers to SNAP-CALL-5")


def test_cross_reference_in_a_ruling(tmp_path, sources):
    message = refused(tmp_path, HEAD + RULE + DECIDED.replace("as SNAP-CALL-1 says", "as SNAP-CALL-7 says"), sources)
    expect(message, "rule SNAP-CALL-1", "discrepancy[1].ruling", "refers to SNAP-CALL-7")


def test_source_with_the_wrong_sha256(tmp_path):
    meta = write_sources(tmp_path / "sources", sha="0" * 64)
    sources = spec.load_sources(meta)  # texts are read lazily
    with pytest.raises(SpecError) as caught:
        load_text(tmp_path, GOOD, sources)
    message = str(caught.value)
    assert message.startswith(str(meta)), message
    expect(message, "source xx-snap", "sha256", "expected " + "0" * 64)


def test_toml_syntax_error_names_file_and_line(tmp_path, sources):
    broken = GOOD.replace('title = "Players"', 'title = "Players')
    line = GOOD.splitlines().index('title = "Players"') + 1
    with pytest.raises(SpecError) as caught:
        load_text(tmp_path, broken, sources)
    assert str(caught.value).startswith(f"{tmp_path / 'book.toml'}:{line}: TOML syntax error: "), str(caught.value)


@pytest.mark.parametrize(
    ("text", "entry", "field", "hint"),
    [
        (RULE.replace("section =", "sektion ="), "rule SNAP-PLAYERS-1", "sektion", "did you mean 'section'?"),
        (RULE.replace("gloss =", "glos ="), "rule SNAP-PLAYERS-1", "quote[1].glos", "did you mean 'gloss'?"),
        (RULE + DECIDED.replace('value = "last"', 'valeu = "last"'), "rule SNAP-CALL-1", "variation.option[2].valeu",
         "did you mean 'value'?"),
    ],
)
def test_unknown_key(tmp_path, sources, text, entry, field, hint):
    expect(refused(tmp_path, HEAD + text, sources), entry, field, f"unknown key ({hint})")


def test_unknown_top_level_key(tmp_path, sources):
    message = refused(tmp_path, "version = 2\n" + GOOD, sources)
    assert ": field 'version': unknown key" in message, message


def test_wrong_type(tmp_path, sources):
    message = refused(tmp_path, HEAD + RULE.replace('text = "Two to twelve players."', "text = 12"), sources)
    expect(message, "rule SNAP-PLAYERS-1", "text", "expected a string, got an integer")


def test_single_rule_table_instead_of_array(tmp_path, sources):
    message = refused(tmp_path, HEAD + RULE.replace("[[rule]]", "[rule]"), sources)
    assert "field 'rule': expected an array of tables ([[rule]])" in message, message


def test_unreadable_file_is_a_spec_error(tmp_path, sources):
    with pytest.raises(SpecError, match="cannot read"):
        spec.load_file(tmp_path / "missing.toml", sources)


def test_unknown_game_is_a_spec_error():
    with pytest.raises(SpecError, match="unknown game"):
        spec.load("poker")


# ---------------------------------------------------------------------------- the real rulebooks


@pytest.mark.parametrize("game", spec.GAMES)
def test_real_rulebook_loads(game):
    book = spec.load(game)
    assert book.game == game and book.rules and spec.load(game) is book
    assert sum(len(rules) for _, rules in book.sections()) == len(book.rules)
    for rule in book.rules:
        assert book.rule(rule.id) is rule
    json.dumps(book.to_json(), ensure_ascii=False)


def test_rule_ids_are_unique_across_games():
    ids = [rule.id for game in spec.GAMES for rule in spec.load(game).rules]
    assert len(ids) == len(set(ids)) == len(spec.all_rule_ids())


@pytest.mark.parametrize("game", spec.GAMES)
def test_every_variant_has_a_variation(game):
    variants = [rule for rule in spec.load(game).rules if rule.status is Status.VARIANT]
    assert all(rule.variation is not None for rule in variants)


@pytest.mark.parametrize("game", spec.GAMES)
def test_source_based_rules_have_quotes(game):
    """Every stated, reconciled or reconstructed rule quotes at least one source."""
    unquoted = [rule.id for rule in spec.load(game).rules if rule.status in NEEDS_QUOTE and not rule.quotes]
    assert not unquoted, f"{len(unquoted)} rule(s) without a source quote: {', '.join(unquoted)}"


# ---------------------------------------------------------------------------- summaries, checks, how-to parts

HOWTO = '\n[[howto]]\ntitle = "What you need"\nsections = ["Players and cards"]\n'


def test_summary_checks_and_howto_load(tmp_path, sources):
    rule = RULE.replace('text = "Two to twelve players."\n', 'text = "Two to twelve players."\n'
                        'summary = "You need 2 to 12 players."\n')
    book = load_text(tmp_path, HEAD + HOWTO + rule, sources)
    assert book.rules[0].summary == "You need 2 to 12 players." and book.rules[0].checks == ()
    assert book.howto == (spec.HowtoPart("What you need", ("Players and cards",)),)
    fact = RULE.replace('"stated"', '"informative"').replace('text = "Two to twelve players."\n', 'text = "Two to twelve players."\nchecks = ["SNAP-P1-deal"]\n')
    assert load_text(tmp_path, HEAD + fact, sources).rules[0].checks == ("SNAP-P1-deal",)


@pytest.mark.parametrize("summary, problem", [
    ('"Two players. Or more."', "must be one sentence"),
    ('"Two players"', "must end with a full stop"),
    ('"As SNAP-PLAYERS-1 says."', "must not name rule IDs"),
    ("3", "expected a string"),
])
def test_malformed_summary(tmp_path, sources, summary, problem):
    rule = RULE.replace('text = "Two to twelve players."\n', f'text = "Two to twelve players."\nsummary = {summary}\n')
    expect(refused(tmp_path, HEAD + rule, sources), "rule SNAP-PLAYERS-1", "summary", problem)


def test_malformed_check_id(tmp_path, sources):
    rule = RULE.replace('text = "Two to twelve players."\n', 'text = "Two to twelve players."\nchecks = ["P1"]\n')
    expect(refused(tmp_path, HEAD + rule, sources), "rule SNAP-PLAYERS-1", "checks", "'P1' is not a check ID")


def test_howto_naming_an_unknown_section(tmp_path, sources):
    message = refused(tmp_path, HEAD + HOWTO.replace("Players and cards", "Players and card") + RULE, sources)
    expect(message, "howto #1", "sections", "no rulebook section 'Players and card' (did you mean 'Players and cards'?)")


def test_summary_outside_every_howto_part(tmp_path, sources):
    rule = DECIDED.replace('rationale = "The source', 'summary = "The first caller wins."\nrationale = "The source')
    message = refused(tmp_path, HEAD + HOWTO + RULE + rule, sources)
    expect(message, "rule SNAP-CALL-1", "summary", "its section 'Calls' is in no [[howto]] part")
