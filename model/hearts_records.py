"""Hearts game records: writing them, reading them strictly, and replaying them.

A record is the envelope of :mod:`cardcanon.model.records` plus::

    "config": {"dealer": "alternate", "first_lead": "lowest-club", "break_on": "heart-played",
               "first_trick_points": "allowed", "queen_breaks": "no", "moon_score": "twenty",
               "target": 100},            # a variation left out takes the rulebook's default
    "seed": 7,                        # or null: the chance moves are then taken as recorded
    "moves": [{"move": "choose-dealer", "dealer": 0},
              {"move": "deal", "order": ["Qs", "2c", ...]},      # 28 cards, top first
              {"move": "play", "player": 1, "card": "Qs"}, ...],
    "result": {"scores": [57, 103], "winner": 0, "termination": "one-reached-target"}  # or null

Reading checks the structure and raises :class:`RecordError` naming the file and the JSON path
(``moves[17].card``). Replaying checks every move against the rules (and, with a seed, every
chance move against the seed's) and reports the first illegal one (numbered from 1) with its
rule ID. :mod:`cardcanon.model.hearts` offers these as ``to_record``, ``from_record`` and ``replay``
(the record loop of :mod:`cardcanon.model.records`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cardcanon.model.cards import Card, CardParseError
from cardcanon.model.errors import NotModelledError, OptionError, RecordError
from cardcanon.model.game import Record
from cardcanon.model.options import check_option
from cardcanon.model.records import only_fields
from cardcanon.model.hearts_types import (
    DECK, SEATS, VARIATIONS, ChooseDealer, Deal, HeartsConfig, HeartsState, Move, Outcome, Phase, Play,
)
from cardcanon.model.hearts_text import state_result
from cardcanon.model.seats import Seat

# --- writing ----------------------------------------------------------------------------------
def config_to_json(config: HeartsConfig) -> dict[str, Any]:
    return {**config.options(), "target": config.target}


def move_to_json(move: Move) -> dict[str, Any]:
    if isinstance(move, ChooseDealer):
        return {"move": "choose-dealer", "dealer": move.dealer.index}
    if isinstance(move, Deal):
        return {"move": "deal", "order": [str(card) for card in move.order]}
    return {"move": "play", "player": move.player.index, "card": str(move.card)}


def outcome_to_json(outcome: Outcome | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {"scores": list(outcome.scores), "winner": outcome.winner.index, "termination": outcome.termination.value}


# --- reading ----------------------------------------------------------------------------------
def _get(obj: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    """``obj[key]`` of JSON type ``kind``; ``where`` is the place of ``obj`` (``record: moves[3]``)."""
    place = f"{where}: field {key!r}"
    if key not in obj:
        raise RecordError(place, "missing")
    value = obj[key]
    if kind is int and (not isinstance(value, int) or isinstance(value, bool)):
        raise RecordError(place, f"expected an integer, found {_json_type(value)}")
    if kind is not int and not isinstance(value, kind):
        raise RecordError(place, f"expected {_JSON_NAMES[kind]}, found {_json_type(value)}")
    return value


_JSON_NAMES: dict[type, str] = {dict: "an object", list: "an array", str: "a string"}


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "an array",
            dict: "an object"}.get(type(value), type(value).__name__)


def config_from_json(obj: Any, where: str) -> HeartsConfig:
    if not isinstance(obj, dict):
        raise RecordError(where, f"expected an object, found {_json_type(obj)}")
    only_fields(obj, (*VARIATIONS, "target"), where)
    options = {name: _get(obj, name, str, where) for name in VARIATIONS if name in obj or name not in _OPTIONAL}
    target = _get(obj, "target", int, where)
    if target < 1:
        raise RecordError(f"{where}: field 'target'", f"expected a positive integer, found {target}")
    for name, text in options.items():  # the place of a wrong option
        try:
            check_option("hearts", name, text)
        except OptionError as exc:
            raise RecordError(f"{where}: field {name!r}", str(exc), rule_id=exc.rule_id) from None
    try:
        return HeartsConfig.from_options(options, target=target)
    except NotModelledError as exc:
        raise RecordError(where, str(exc), rule_id=exc.rule_id) from None


_OPTIONAL = ("dealer", "queen_breaks")  # variations added after the first records were written


def _card(text: Any, place: str) -> Card:
    if not isinstance(text, str):
        raise RecordError(place, f"expected a card name such as \"Qs\", found {_json_type(text)}")
    try:
        return Card.parse(text)
    except CardParseError as exc:
        raise RecordError(place, f"unknown card: {exc}") from None


def _seat(value: Any, place: str) -> Seat:
    if not isinstance(value, int) or isinstance(value, bool) or value not in (0, 1):
        raise RecordError(place, f"expected player 0 or 1, found {value!r}")
    return SEATS[value]


def move_from_json(obj: Any, where: str) -> Move:
    if not isinstance(obj, dict):
        raise RecordError(where, f"expected an object, found {_json_type(obj)}")
    kind = _get(obj, "move", str, where)
    if kind == "choose-dealer":
        only_fields(obj, ("move", "dealer"), where)
        return ChooseDealer(_seat(_get(obj, "dealer", int, where), f"{where}: field 'dealer'"))
    if kind == "deal":
        only_fields(obj, ("move", "order"), where)
        order = _get(obj, "order", list, where)
        return Deal(tuple(_card(text, f"{where}: field 'order'[{i}]") for i, text in enumerate(order)))
    if kind == "play":
        only_fields(obj, ("move", "player", "card"), where)
        player = _seat(_get(obj, "player", int, where), f"{where}: field 'player'")
        return Play(player, _card(_get(obj, "card", str, where), f"{where}: field 'card'"))
    raise RecordError(f"{where}: field 'move'", f"unknown move type {kind!r} (expected choose-dealer, deal or play)")


def _result_from_json(obj: Any, where: str) -> dict[str, Any] | None:
    if obj is None:
        return None
    if not isinstance(obj, dict):
        raise RecordError(f"{where}: result", f"expected an object or null, found {_json_type(obj)}")
    place = f"{where}: result"
    only_fields(obj, ("scores", "winner", "termination"), place)
    scores = _get(obj, "scores", list, place)
    if len(scores) != 2 or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores):
        raise RecordError(f"{place}: field 'scores'", f"expected two integers, found {scores!r}")
    _seat(_get(obj, "winner", int, place), f"{place}: field 'winner'")
    _get(obj, "termination", str, place)
    return obj


def from_record(data: Mapping[str, Any], where: str = "record") -> Record[HeartsConfig, Move]:
    """The config, seed, moves and recorded result of a record; RecordError if malformed."""
    if not isinstance(data, Mapping):
        raise RecordError(where, f"a record must be a JSON object, found {_json_type(data)}")
    if "config" not in data:
        raise RecordError(f"{where}: config", "missing")
    config = config_from_json(data["config"], f"{where}: config")
    if "seed" not in data:
        raise RecordError(f"{where}: seed", "missing (use null for a record without a seed)")
    seed = data["seed"]
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
        raise RecordError(f"{where}: seed", f"expected a non-negative integer or null, found {seed!r}")
    if "moves" not in data:
        raise RecordError(f"{where}: moves", "missing")
    if not isinstance(data["moves"], list):
        raise RecordError(f"{where}: moves", f"expected an array, found {_json_type(data['moves'])}")
    moves = [move_from_json(obj, f"{where}: moves[{i}]") for i, obj in enumerate(data["moves"])]
    if "result" not in data:
        raise RecordError(f"{where}: result", "missing (use null for an unfinished match)")
    return Record("hearts", config, seed, tuple(moves), _result_from_json(data["result"], where))


# --- replaying (the loop is :func:`cardcanon.model.records.replay`) -----------------------------
def result_to_json(state: HeartsState) -> dict[str, Any] | None:
    """The record's ``result`` for a match that reached ``state``: its outcome, or null."""
    return outcome_to_json(state.outcome)


def result_problem(result: Mapping[str, Any] | None, states: Sequence[HeartsState],
                   where: str) -> tuple[str, str | None] | None:
    """What is wrong with the recorded ``result`` of a match that reached ``states[-1]``, or None."""
    replayed = result_to_json(states[-1])
    if result == replayed:
        return None
    found = "the match is not over" if replayed is None else f"the result is {replayed}"
    return (f"result: recorded {result}, but after the last move {found}",
            "HEARTS-MATCH-1" if (result is None) != (replayed is None) else None)


MOVE_NAMES: dict[type[Move], str] = {ChooseDealer: "choice of dealer", Deal: "deal", Play: "play"}


def move_name(move: Move) -> str:
    return MOVE_NAMES[type(move)]


def summary(result: Mapping[str, Any] | None, state: HeartsState) -> str:
    return state_result(state)[:1].upper() + state_result(state)[1:] + "."


# --- positions: one JSON form, the one ``cardcanon conform`` shows and the records carry -------------
POSITION_FIELDS = ("phase", "hand", "dealer", "to_move", "hands", "dead", "trick", "hearts_broken", "tricks",
                   "taken", "scores", "hand_scores")


def _in_deck_order(cards: Any) -> list[str]:
    return [str(c) for c in sorted(cards)]  # cards order by their place in the canonical deck


def position_to_json(state: HeartsState) -> dict[str, Any]:
    """``phase``; ``hand``: the hands dealt so far; ``dealer``; ``to_move`` (null at chance nodes and
    at the end); ``hands``; ``dead``: null while the hand is played (nobody sees them,
    HEARTS-DEAL-2), else the last hand's; ``trick``: the plays of the trick under way;
    ``hearts_broken``; ``tricks``: the tricks played in this hand; ``taken``: the cards each seat took
    in this hand; ``scores``: the match scores; ``hand_scores``: each hand's scores. Sets of cards
    are in the deck's order."""
    hidden = state.phase is Phase.PLAY
    return {
        "phase": state.phase.value, "hand": state.hand_number,
        "dealer": None if state.dealer is None else state.dealer.index,
        "to_move": None if state.to_move is None else state.to_move.index,
        "hands": [_in_deck_order(hand) for hand in state.hands],
        "dead": None if hidden or not state.dead else _in_deck_order(state.dead),
        "trick": [{"player": play.player.index, "card": str(play.card)} for play in state.trick],
        "hearts_broken": state.hearts_broken, "tricks": state.tricks_played,
        "taken": [_in_deck_order(taken) for taken in state.taken], "scores": list(state.scores),
        "hand_scores": [list(scores) for scores in state.hand_scores],
    }


def _seat_or_null(obj: Mapping[str, Any], key: str, where: str) -> Seat | None:
    if obj.get(key, 0) is None:
        return None
    return _seat(_get(obj, key, int, where), f"{where}: field {key!r}")


def _card_set(items: Any, place: str) -> frozenset[Card]:
    if not isinstance(items, list):
        raise RecordError(place, f"expected an array of cards, found {_json_type(items)}")
    return frozenset(_card(text, f"{place}[{i}]") for i, text in enumerate(items))


def _per_seat(obj: Mapping[str, Any], key: str, where: str) -> tuple[frozenset[Card], frozenset[Card]]:
    items = _get(obj, key, list, where)
    if len(items) != len(SEATS):
        raise RecordError(f"{where}: field {key!r}", f"expected an array of cards per player ({len(SEATS)}), "
                                                    f"found {len(items)}")
    return _card_set(items[0], f"{where}: field {key!r}[0]"), _card_set(items[1], f"{where}: field {key!r}[1]")


def _trick_play(obj: Any, place: str) -> Play:
    if not isinstance(obj, dict):
        raise RecordError(place, f"expected an object, found {_json_type(obj)}")
    only_fields(obj, ("player", "card"), place)
    return Play(_seat(_get(obj, "player", int, place), f"{place}: field 'player'"),
                _card(_get(obj, "card", str, place), f"{place}: field 'card'"))


def _pair(items: Any, place: str) -> tuple[int, int]:
    if not (isinstance(items, list) and len(items) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) for n in items)):
        raise RecordError(place, f"expected two integers, found {items!r}")
    return items[0], items[1]


def position_from_json(config: HeartsConfig, obj: Any, where: str,
                       match_result: Callable[..., Outcome | None]) -> HeartsState:
    """The state :func:`position_to_json` writes, with ``config``: hidden dead cards are the cards of
    the deck found nowhere else, the outcome is the one ``match_result`` (the rules module's) gives
    after the last hand; RecordError naming the place. ``cardcanon.model.hearts.position_from_json``
    passes its own ``match_result``."""
    if not isinstance(obj, dict):
        raise RecordError(where, f"expected an object, found {_json_type(obj)}")
    only_fields(obj, POSITION_FIELDS, where)
    try:
        phase = Phase(_get(obj, "phase", str, where))
    except ValueError:
        raise RecordError(f"{where}: field 'phase'", f"expected one of {', '.join(p.value for p in Phase)}") from None
    hands, taken = _per_seat(obj, "hands", where), _per_seat(obj, "taken", where)
    plays = _get(obj, "trick", list, where)
    trick = tuple(_trick_play(play, f"{where}: field 'trick'[{i}]") for i, play in enumerate(plays))
    seen = set().union(*hands, *taken, (play.card for play in trick))
    dead = obj.get("dead")
    if dead is None:
        hidden = [c for c in DECK if c not in seen] if phase is Phase.PLAY else []
    else:
        hidden = sorted(_card_set(dead, f"{where}: field 'dead'"))
    hearts_broken = obj.get("hearts_broken")
    if not isinstance(hearts_broken, bool):
        raise RecordError(f"{where}: field 'hearts_broken'", "expected true or false")
    scores = _pair(_get(obj, "scores", list, where), f"{where}: field 'scores'")
    hand_scores = tuple(_pair(scores_of_hand, f"{where}: field 'hand_scores'[{i}]")
                        for i, scores_of_hand in enumerate(_get(obj, "hand_scores", list, where)))
    to_move = _seat_or_null(obj, "to_move", where)
    outcome = None
    if phase is Phase.OVER and hand_scores:
        previous = (scores[0] - hand_scores[-1][0], scores[1] - hand_scores[-1][1])
        outcome = match_result(scores, config, previous=previous)
    try:
        return HeartsState(config=config, phase=phase, scores=scores, hand_number=_get(obj, "hand", int, where),
                           dealer=_seat_or_null(obj, "dealer", where), hands=hands, dead=tuple(hidden), trick=trick,
                           leader=trick[0].player if trick else to_move, to_move=to_move, hearts_broken=hearts_broken,
                           taken=taken, tricks_played=_get(obj, "tricks", int, where), hand_scores=hand_scores,
                           outcome=outcome)
    except ValueError as exc:
        raise RecordError(where, str(exc)) from None
