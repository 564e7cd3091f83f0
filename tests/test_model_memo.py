"""The one memo of what is derived from the reference models (``proofs.symbolic.memo.ModelMemo``):
a patch of a function a derivation reaches derives it afresh, a patch of any other function keeps
the result, and a run with a second solver searches anew."""

from __future__ import annotations

from typing import Any, cast

import pytest
import z3

from cardcanon.model import hearts, snap
from cardcanon.model.seats import Seat
from cardcanon.proofs.base import Budget
from cardcanon.proofs.hearts import play_terms
from cardcanon.proofs.smt import SolverPair, paired
from cardcanon.proofs.snap import derived
from cardcanon.proofs.symbolic.memo import ModelMemo

CONFIG = snap.SnapConfig(players=3)


def test_a_patch_of_a_function_the_derivation_reaches_derives_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    kept = play_terms.trick_winner()
    assert play_terms.trick_winner() is kept
    with monkeypatch.context() as patch:  # beats is reached through trick_winner
        patch.setattr(hearts, "beats", lambda a, b: False)
        fresh = play_terms.trick_winner()
        assert fresh is not kept and z3.simplify(fresh.term).eq(z3.IntVal(0))  # the patch was run
    assert play_terms.trick_winner() is kept  # the model as it was: its result again


def test_a_patch_of_a_method_of_an_owner_the_derivation_reaches_derives_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    kept = derived.next_player(CONFIG, 0, False)
    assert derived.next_player(CONFIG, 0, False) is kept
    right = lambda seat, players: Seat((seat.index - 1) % players)  # noqa: E731
    monkeypatch.setattr(Seat, "left", right)  # next_player reads seat.left
    fresh = derived.next_player(CONFIG, 0, False)
    assert fresh is not kept
    assert z3.Solver().check(fresh != kept) == z3.sat  # the patch was run: seat 2 comes before seat 1


@pytest.mark.parametrize("owner, name", [(snap, "new_game"), (hearts, "score_hand")])
def test_a_patch_of_a_function_no_derivation_reaches_keeps_the_result(
        monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> None:
    kept = derived.next_player(CONFIG, 1, True), play_terms.trick_winner()
    monkeypatch.setattr(owner, name, lambda *args: None)
    assert derived.next_player(CONFIG, 1, True) is kept[0]
    assert play_terms.trick_winner() is kept[1]


def test_a_run_with_a_second_solver_searches_anew() -> None:
    memo, asked = ModelMemo(snap), []

    @memo.search
    def search(budget: Budget, players: int) -> object:
        asked.append(players)
        return object()

    first = search(Budget(1.0), 2)
    assert search(Budget(1.0), 2) is first and asked == [2]
    with paired(cast(SolverPair, object())):  # a second solver decides this run's queries
        assert search(Budget(1.0), 2) is not first
    assert asked == [2, 2]
    assert search(Budget(1.0), 2) is first  # a run with Z3 alone keeps what it found


def test_a_term_is_kept_across_a_variant_changing_no_option_its_derivation_read() -> None:
    written = hearts.HeartsConfig()
    kept = play_terms.legality(written)
    assert play_terms.legality(hearts.HeartsConfig(moon_score=hearts.MoonScore.POINTS_IN_PLAY, target=50)) is kept
    fresh = play_terms.legality(hearts.HeartsConfig(first_trick_points=hearts.FirstTrickPoints.NO_HEARTS))
    assert fresh is not kept  # HEARTS-FIRST-1 is read by play_problem
    assert z3.Solver().check(z3.Or([a != b for a, b in zip(fresh.lead, kept.lead)] +
                                   [a != b for x, y in zip(fresh.follow, kept.follow) for a, b in zip(x, y)])) == z3.sat
    assert play_terms.legality(written) is kept


def test_the_options_an_inner_build_read_the_outer_build_read_too() -> None:
    memo, built = ModelMemo(hearts), []

    @memo.function
    def inner(config: hearts.HeartsConfig) -> str:
        built.append("inner")
        return config.moon_score.value

    @memo.function
    def outer(config: hearts.HeartsConfig, n: int) -> str:
        built.append("outer")
        return inner(config) * n

    assert outer(hearts.HeartsConfig(), 2) == "twentytwenty"
    assert outer(hearts.HeartsConfig(queen_breaks=hearts.QueenBreaks.YES), 2) == "twentytwenty"
    assert built == ["outer", "inner"]
    assert outer(hearts.HeartsConfig(moon_score=hearts.MoonScore.POINTS_IN_PLAY), 2) == 2 * "points-in-play"
    assert outer(hearts.HeartsConfig(), 1) == "twenty" and built == ["outer", "inner"] * 2 + ["outer"]


def test_a_result_holding_its_table_is_kept_for_that_table_alone() -> None:
    memo = ModelMemo(hearts)

    @memo.function
    def holding(config: hearts.HeartsConfig) -> tuple[hearts.HeartsConfig]:
        return (config,)  # what reads it later is the result's user, not the build

    kept = holding(hearts.HeartsConfig())
    assert holding(hearts.HeartsConfig()) is kept
    other = holding(hearts.HeartsConfig(target=50))
    assert other is not kept and other[0].target == 50 and kept[0].target == 100


def test_a_whole_hand_search_is_asked_once_for_the_variants_whose_terms_are_the_same() -> None:
    from cardcanon.proofs.hearts.encoding import Rules
    from cardcanon.proofs.hearts.replay import asked_under, hand_scoring

    written, longer = hearts.HeartsConfig(), hearts.HeartsConfig(target=150)  # the target is read by no hand term
    first = hand_scoring(Budget(60.0), Rules(config=written), 0, 20)
    assert first.witness is not None and asked_under([first], written) == ""
    assert hand_scoring(Budget(60.0), Rules(config=longer), 0, 20) is first
    assert "1 of its 1 whole-hand searches were asked under target=100 instead" in asked_under([first], longer)
    queen = hearts.HeartsConfig(queen_breaks=hearts.QueenBreaks.YES)  # read by the hand encoding
    assert hand_scoring(Budget(60.0), Rules(config=queen), 0, 20) is not first


def test_a_table_made_from_a_noted_copy_is_plain_and_its_making_reads_every_field_it_keeps() -> None:
    from dataclasses import replace

    from cardcanon.proofs.symbolic.options_read import is_noted, noted

    copy, reads = noted(hearts.HeartsConfig())
    made = replace(copy, target=50)
    assert type(made) is hearts.HeartsConfig and made.target == 50 and not is_noted(made)
    assert set(reads) == {"dealer", "first_lead", "break_on", "first_trick_points", "queen_breaks", "moon_score"}
