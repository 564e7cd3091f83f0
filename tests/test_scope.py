"""Every check states its scope; the words say when it covers fewer players than the rulebook."""

from __future__ import annotations

import re

import pytest

from cardcanon.verify.manifest import ManifestError, load_manifest
from cardcanon.verify.scope import describe, problems, rulebook_players, span
from cardcanon.verify import load_checks


def test_every_check_states_its_scope() -> None:
    for check in load_checks():
        for quick in (False, True):
            scope = check.scope_for(quick)
            assert scope["stated"], check.id
            assert scope["players"] and set(scope["players"]) <= set(scope["rulebook_players"]), check.id


def test_the_rulebook_range_comes_from_the_spec() -> None:
    assert rulebook_players("snap") == (2, 12)
    assert rulebook_players("hearts") == (2, 2)


def test_a_smaller_scope_says_so_in_words() -> None:
    table = {"deck": "rulebook", "piles": "up to {cards} cards", "abstracted": "nothing"}
    partial = describe("snap", table, {"players": [2, 3], "cards": 5})
    assert partial["words"].startswith("2–3 players of the rulebook's 2–12; the rulebook's deck (52 cards); up to 5 cards")
    assert not partial["covers_rulebook_players"]
    whole = describe("snap", {**table, "players": "rulebook"}, {"cards": 5})
    assert whole["words"].startswith("2–12 players;") and whole["covers_rulebook_players"]


def test_a_scope_that_leaves_players_out_says_why() -> None:
    table = {"deck": "rulebook", "abstracted": "nothing", "players_left_out": "{more} players take 40 s each"}
    partial = describe("snap", table, {"players": [2, 3, 4], "more": 5})
    assert partial["words"].startswith("2–4 players of the rulebook's 2–12; 5 players take 40 s each; the rulebook's")
    assert partial["players_left_out"] == "5 players take 40 s each"
    assert describe("snap", table, {"players": list(range(2, 13)), "more": 5})["players_left_out"] is None


def test_every_snap_check_reaches_12_players_or_names_its_reason() -> None:
    for check in load_checks():
        scope = check.scope_for(False)
        assert scope["covers_rulebook_players"] or scope["players_left_out"], check.id


@pytest.mark.parametrize("scope, problem", [
    ('players = [2, 3]', "4–12 players of the rulebook's 2–12 are left out, and 'players_left_out' does not say why"),
    ('players = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]\nplayers_left_out = "slow"', "cover every player count"),
])
def test_the_manifest_wants_a_reason_exactly_for_left_out_players(tmp_path, scope: str,  # type: ignore[no-untyped-def]
                                                                  problem: str) -> None:
    path = tmp_path / "snap.toml"
    path.write_text('[[check]]\nid = "SNAP-P1-x"\ngame = "snap"\ntitle = "t"\nrules = ["SNAP-FLIP-1"]\n'
                    'kind = "replay"\nexpected = "proved"\nentry = "cardcanon.proofs.snap.p15_end2_winner:check"\n'
                    f'[check.scope]\n{scope}\ndeck = "rulebook"\nabstracted = "nothing"\n', encoding="utf-8")
    with pytest.raises(ManifestError, match=f"field 'scope': .*{re.escape(problem)}"):
        load_manifest(path)


def test_list_bounds_are_named_in_words() -> None:
    table = {"deck": "decks {decks}", "piles": "at most {cards} cards; the seeds {seeds[0]} ≤ seed < {seeds[1]}",
             "abstracted": "nothing", "players": "rulebook"}
    words = describe("snap", table, {"decks": [[2, 2], [3, 2]], "cards": [5, 4, 3], "seeds": [0, 40]})["words"]
    assert "decks 2×2 and 3×2; at most 5, 4 and 3 cards; the seeds 0 ≤ seed < 40" in words, words
    for check in load_checks():  # no manifest's scope shows a bound as a Python list
        for quick in (False, True):
            assert "[" not in check.scope_for(quick)["words"], check.id


def test_span() -> None:
    assert span([3, 2]) == "2–3" and span([2, 3, 5]) == "2, 3 and 5" and span([2]) == "2"


@pytest.mark.parametrize("table, bounds, problem", [
    ({"deck": "rulebook", "abstracted": "nothing"}, {}, "'players' is missing"),
    ({"players": [2], "deck": "rulebook", "abstracted": "nothing"}, {"players": [2]}, "also in the bounds"),
    ({"players": "all", "deck": "rulebook", "abstracted": "nothing"}, {}, "list of player counts"),
    ({"players": [2], "deck": "rulebook"}, {}, "'abstracted' must be"),
    ({"players": [2], "deck": "{cards} cards", "abstracted": "nothing"}, {}, "not a bound"),
    ({"players": [2], "deck": "rulebook", "abstracted": "nothing", "size": 3}, {}, "unknown key"),
])
def test_bad_scope_tables(table: dict[str, object], bounds: dict[str, object], problem: str) -> None:
    assert any(problem in p for p in problems(table, bounds))


def test_the_manifest_refuses_a_bad_scope(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "snap.toml"
    path.write_text('[[check]]\nid = "SNAP-P1-x"\ngame = "snap"\ntitle = "t"\nrules = ["SNAP-FLIP-1"]\n'
                    'kind = "replay"\nexpected = "proved"\nentry = "cardcanon.proofs.snap.p15_end2_winner:check"\n'
                    '[check.scope]\ndeck = "rulebook"\nabstracted = "nothing"\n', encoding="utf-8")
    with pytest.raises(ManifestError, match="scope.*players"):
        load_manifest(path)


@pytest.mark.parametrize("check_id", ["HEARTS-P8-endless-tie", "HEARTS-P11-encoding", "SNAP-P9-encoding"])
def test_encoding_checks_without_drop_probes_say_why(check_id: str) -> None:
    check = next(c for c in load_checks() if c.id == check_id)
    has_drops = any(p.id.startswith("drop:") for p in check.probes)
    assert has_drops or len(check.no_drop_probes.split()) >= 20


def test_a_z3_proof_cannot_opt_out_of_drop_probes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "snap.toml"
    path.write_text('[[check]]\nid = "SNAP-P1-x"\ngame = "snap"\ntitle = "t"\nrules = ["SNAP-FLIP-1"]\n'
                    'kind = "z3-proof"\nexpected = "proved"\nentry = "cardcanon.proofs.snap.p15_end2_winner:check"\n'
                    'no_drop_probes = "because"\n', encoding="utf-8")
    with pytest.raises(ManifestError, match="no_drop_probes"):
        load_manifest(path)


def test_a_check_that_is_no_z3_proof_lists_its_drop_probes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    head = ('[[check]]\nid = "SNAP-P1-x"\ngame = "snap"\ntitle = "t"\nrules = ["SNAP-FLIP-1", "SNAP-FLIP-3"]\n'
            'kind = "enumeration"\nexpected = "proved"\nentry = "cardcanon.proofs.snap.p15_end2_winner:check"\n'
            '[check.scope]\nplayers = "rulebook"\ndeck = "rulebook"\nabstracted = "nothing"\n')
    path = tmp_path / "snap.toml"
    path.write_text(head.replace('entry =', 'drop_probes = ["SNAP-FLIP-3"]\nentry ='), encoding="utf-8")
    assert [p.id for p in load_manifest(path)[0].probes] == ["drop:SNAP-FLIP-3"]
    path.write_text(head.replace('entry =', 'drop_probes = ["SNAP-TURN-1"]\nentry ='), encoding="utf-8")
    with pytest.raises(ManifestError, match="drop_probes.*not cited"):
        load_manifest(path)
