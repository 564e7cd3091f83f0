"""Hearts game records: round trip, replay of corrupted records, malformed records."""

from __future__ import annotations

import copy
import itertools
import json

import pytest

from cardcanon.model.cards import Card, Suit
from cardcanon.model.errors import RecordError
from cardcanon.model.hearts import (
    DECK, BreakOn, ChooseDealer, Deal, Dealer, FirstLead, FirstTrickPoints, HeartsConfig, MoonScore, Phase, Play,
    QueenBreaks, apply,
    new_game, replay, to_record,
)
from cardcanon.model.hearts_players import GreedyPlayer, RandomPlayer, play_match
from cardcanon.model.hearts_records import config_from_json, config_to_json, move_from_json, move_to_json
from cardcanon.model.seats import Seat
from cardcanon.model.shuffle import SplitMix64

WHERE = "match: field 'json'"


def record(seed=7, config=HeartsConfig()):
    _, moves = play_match(seed, (RandomPlayer(seed + 1), GreedyPlayer()), config)
    return json.loads(json.dumps(to_record(config, moves, seed))), moves


def states_before(moves, config=HeartsConfig()):
    state = new_game(config)
    for move in moves:
        yield state
        state = apply(state, move)


def first_position(moves, wanted):
    """The first (index, state, card) where ``wanted(state)`` returns a card, else fails."""
    for i, state in enumerate(states_before(moves)):
        if state.phase is Phase.PLAY:
            card = wanted(state)
            if card is not None:
                return i, state, card
    raise AssertionError("no such position in this match")


@pytest.mark.rules("HEARTS-DEAL-1", "HEARTS-DEAL-2", "HEARTS-MATCH-1")
def test_round_trip_of_a_whole_match():
    data, moves = record()
    assert [move_from_json(move_to_json(m), f"{WHERE}: m") for m in moves] == moves
    report = replay(data, WHERE)
    assert report.ok and report.moves_checked == len(moves) == len(data["moves"])
    assert data["result"]["winner"] in (0, 1) and "wins" in report.summary


def test_every_config_round_trips():
    for values in itertools.product(FirstLead, BreakOn, FirstTrickPoints, QueenBreaks, MoonScore, (100, 7)):
        config = HeartsConfig(**dict(zip(("first_lead", "break_on", "first_trick_points", "queen_breaks",
                                          "moon_score", "target"), values)))
        assert config_from_json(json.loads(json.dumps(config_to_json(config))), f"{WHERE}: config") == config
        assert eval(repr(config)) == config  # repr is valid Python


def test_replay_with_a_variant_config():
    config = HeartsConfig(first_lead=FirstLead.FREE, break_on=BreakOn.VOID,
                          first_trick_points=FirstTrickPoints.NO_HEARTS, moon_score=MoonScore.POINTS_IN_PLAY, target=60)
    data, _ = record(seed=3, config=config)
    assert replay(data, WHERE).ok
    data["config"] = config_to_json(HeartsConfig())  # same moves, other rules: judged differently
    assert not replay(data, WHERE).ok


@pytest.mark.rules("HEARTS-FOLLOW-1")
def test_corrupted_play_breaking_follow_suit():
    data, moves = record()

    def off_suit(state):
        if not state.trick:
            return None
        suit = state.trick[0].card.suit
        hand = state.hands[state.to_move.index]
        if any(c.suit is suit for c in hand):
            return next((c for c in sorted(hand, key=lambda c: c.index) if c.suit is not suit), None)
        return None

    i, state, card = first_position(moves, off_suit)
    data["moves"][i]["card"] = str(card)
    report = replay(data, WHERE)
    assert (report.ok, report.position, report.rule_id) == (False, i + 1, "HEARTS-FOLLOW-1")
    assert report.moves_checked == i and card.pretty in report.error  # the card as the rulebook writes it


@pytest.mark.rules("HEARTS-BREAK-1")
def test_corrupted_play_leading_an_unbroken_heart():
    data, moves = record()

    def heart_lead(state):
        hand = state.hands[state.to_move.index]
        if state.trick or state.hearts_broken or state.tricks_played == 0:
            return None
        if any(c.suit is not Suit.HEARTS for c in hand):
            return next((c for c in sorted(hand, key=lambda c: c.index) if c.suit is Suit.HEARTS), None)
        return None

    i, _, card = first_position(moves, heart_lead)
    data["moves"][i]["card"] = str(card)
    report = replay(data, WHERE)
    assert (report.position, report.rule_id) == (i + 1, "HEARTS-BREAK-1")


@pytest.mark.rules("HEARTS-LEAD-1", "HEARTS-TRICK-2", "HEARTS-DEAL-2", "HEARTS-DECK-1", "HEARTS-MATCH-1")
def test_corrupted_records_name_the_move_and_rule():
    data, moves = record(seed=11)
    first_play = next(i for i, m in enumerate(moves) if isinstance(m, Play))
    cases = []
    wrong_player = copy.deepcopy(data)
    wrong_player["moves"][first_play + 2]["player"] ^= 1  # the second trick's lead by the wrong player
    cases.append((wrong_player, first_play + 2, "HEARTS-TRICK-2"))
    first_lead = copy.deepcopy(data)
    first_lead["moves"][first_play]["player"] ^= 1
    cases.append((first_lead, first_play, {"HEARTS-LEAD-1", "HEARTS-LEAD-2"}))
    not_held = copy.deepcopy(data)
    follower_state = list(states_before(moves[: first_play + 2]))[first_play + 1]
    leader_card = min(follower_state.hands[1 - follower_state.to_move.index], key=lambda c: c.index)  # in the other hand
    not_held["moves"][first_play + 1]["card"] = str(leader_card)
    cases.append((not_held, first_play + 1, "HEARTS-DEAL-2"))
    outside_deck = copy.deepcopy(data)
    outside_deck["moves"][first_play + 1]["card"] = "3c"
    cases.append((outside_deck, first_play + 1, "HEARTS-DECK-1"))
    bad_deal = copy.deepcopy(data)
    bad_deal["moves"][1]["order"][5] = bad_deal["moves"][1]["order"][6]
    cases.append((bad_deal, 1, "HEARTS-DECK-1"))
    after_end = copy.deepcopy(data)
    after_end["moves"].append(data["moves"][-1])
    cases.append((after_end, len(moves), "HEARTS-MATCH-1"))
    for corrupted, position, rule in cases:
        report = replay(corrupted, WHERE)
        assert not report.ok and report.position == position + 1  # moves are numbered from 1
        assert report.rule_id in (rule if isinstance(rule, set) else {rule}), report


def test_chance_moves_are_checked_against_the_seed():
    data, _ = record()
    swapped = copy.deepcopy(data)
    order = swapped["moves"][1]["order"]
    order[0], order[27] = order[27], order[0]  # still a legal deal (same hands), not the seed's
    report = replay(swapped, WHERE)
    assert (report.ok, report.position, report.rule_id) == (False, 2, None) and "seed 7" in report.error
    swapped["seed"] = None  # without a seed, chance moves are taken as recorded
    assert replay(swapped, WHERE).ok
    dealer = copy.deepcopy(data)
    dealer["moves"][0]["dealer"] ^= 1
    assert replay(dealer, WHERE).position == 1


@pytest.mark.rules("HEARTS-MATCH-1")
def test_recorded_result_is_checked():
    data, moves = record()
    wrong = copy.deepcopy(data)
    wrong["result"]["winner"] ^= 1
    report = replay(wrong, WHERE)
    assert not report.ok and report.position == len(moves) + 1 and "result" in report.error
    short = copy.deepcopy(data)
    short["moves"].pop()
    report = replay(short, WHERE)
    assert not report.ok and "not over" in report.error
    short["result"] = None
    report = replay(short, WHERE)
    assert report.ok and "not over" in report.summary


@pytest.mark.parametrize("path, value, place, words", [
    (("moves", 5), {"move": "play", "player": 0}, "moves[5]: field 'card'", "missing"),
    (("moves", 5, "card"), "Zz", "moves[5]: field 'card'", "not a card"),
    (("moves", 5, "card"), 12, "moves[5]: field 'card'", "found an integer"),
    (("moves", 5, "player"), 2, "moves[5]: field 'player'", "player 0 or 1"),
    (("moves", 5, "player"), "0", "moves[5]: field 'player'", "expected an integer"),
    (("moves", 5, "move"), "pass", "moves[5]: field 'move'", "unknown move type"),
    (("moves", 1, "order", 3), "Xs", "moves[1]: field 'order'[3]", "not a card"),
    (("moves", 0, "dealer"), True, "moves[0]: field 'dealer'", "expected an integer"),
    (("moves", 4), ["play"], "moves[4]", "expected an object"),
    (("config", "break_on"), "sometimes", "config: field 'break_on'", "unknown value 'sometimes'"),
    (("config", "target"), 0, "config: field 'target'", "positive"),
    (("config", "colour"), "red", "config", "unexpected field 'colour'"),
    (("seed",), "7", "seed", "non-negative integer or null"),
    (("moves",), {}, "moves", "expected an array"),
    (("result", "scores"), [1], "result: field 'scores'", "two integers"),
])
def test_malformed_records_name_file_and_json_path(path, value, place, words):
    data, _ = record()
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(RecordError) as info:
        replay(data, WHERE)
    assert str(info.value).startswith(f"{WHERE}: {place}:") and words in str(info.value)


@pytest.mark.parametrize("field", ["config", "seed", "moves", "result"])
def test_missing_top_level_fields(field):
    data, _ = record()
    del data[field]
    with pytest.raises(RecordError, match=f"{WHERE}: {field}: missing"):
        replay(data, WHERE)


def test_move_reprs_are_valid_python():
    namespace = {"Card": Card, "Seat": Seat, "ChooseDealer": ChooseDealer, "Deal": Deal, "Play": Play}
    _, moves = record()
    for move in moves[:4]:
        assert eval(repr(move), namespace) == move


@pytest.mark.rules("HEARTS-DEAL-1", "HEARTS-DEAL-2")
def test_a_seeded_match_draws_all_chance_from_one_stream():
    _, moves = record(seed=21)
    rng = SplitMix64(21)
    chance = [m for m in moves if isinstance(m, (ChooseDealer, Deal))]
    assert chance[0].dealer.index == rng.below(2)
    assert [deal.order for deal in chance[1:]] == [rng.shuffled(DECK) for _ in chance[1:]]
