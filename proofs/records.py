"""Witnesses and counterexamples as game records, built by the checks and replayed by
``cardcanon verify``'s runner (:mod:`cardcanon.verify.records`).

A check never says that its witness replays; it returns records and the runner replays them.
A record is a JSON object:

- ``game``: ``snap`` or ``hearts``; ``config``: the model's configuration (record format);
- ``start`` (optional): an explicit position to start from, in the game's one position form
  (``position_to_json``; a position found by Z3 rather than reached from a deal), else the game
  starts from nothing;
- ``moves``: the moves, in the record format of the game;
- ``reaches``: the :func:`fingerprint` after the last move, as the check saw it: the position in
  the game's one form (``position_to_json``, the form ``cardcanon conform`` shows) and the outcome;
- ``rejects`` (optional): a move the model must refuse (an ``IllegalMoveError``) in that position;
- ``policy`` (Snap, optional): the calling policy that chose the calls; when it is deterministic
  the replay checks that every call event is the policy's choice, and the engine replays it;
- ``seed`` (Snap, optional): the generator the game draws from (SNAP-SEED-1): a deal from
  nothing must be the one the seed gives (SNAP-SEED-2), and with a ``policy`` every call event,
  random policies included, must be its choice drawing on from there (SNAP-POLICY-1); from a
  ``start`` position the policy draws from the seed's generator afresh;
- ``repeats`` (Snap, optional): ``[start, length]``: the position before flip ``start + 1``
  recurs before flip ``start + length + 1`` (SNAP-END-4, by the model's own ``position_key``);
- ``label``: a few words saying what the record shows.

A *function record* states one value of a pure rule function of the model instead:
``{"game", "function", "args", "returns", "label"}`` (see :data:`FUNCTIONS`); ``legal_moves``
takes a position given by its parts (see :func:`hearts_position`).

``cardcanon.verify.records.replay`` replays a record through whatever model is loaded (the
reference model, or a model mutant in a verify worker); ``cardcanon.verify.engine`` asks the
compiled engine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

from cardcanon.model.game import game_api

if TYPE_CHECKING:
    from cardcanon.model import hearts, snap
    from cardcanon.model.cards import Card
    from cardcanon.model.seats import Seat


Record = dict[str, Any]
# A state of the loaded model (the reference model or a model mutant) of either game.
LoadedState: TypeAlias = Any


# ---- positions --------------------------------------------------------------------------------
def position(game: str, state: LoadedState) -> dict[str, Any]:
    """The game's one position form (``position_to_json``), as the loaded model writes it."""
    return game_api(game).position_to_json(state)


def snap_position(state: snap.SnapState) -> dict[str, Any]:
    """A Snap position (the ``start`` of a record, an argument of ``ending_label``)."""
    return position("snap", state)


def fingerprint(game: str, state: LoadedState) -> dict[str, Any]:
    """A record's ``reaches``: the position and the outcome (null while the game goes on)."""
    api = game_api(game)
    return {"position": api.position_to_json(state), "outcome": api.outcome_to_json(api.outcome(state))}


# ---- building records --------------------------------------------------------------------------
def game_record(game: str, config: Any, moves: Sequence[Any], final: LoadedState, *, label: str,
                start: LoadedState | None = None, rejects: Any = None, policy: str | None = None,
                repeats: tuple[int, int] | None = None, seed: int | None = None) -> Record:
    """A record of ``moves`` played from ``config`` (or from ``start``) to ``final``."""
    api = game_api(game)  # the loaded model: a model mutant patches it
    record: Record = {"game": game, "label": label, "config": api.config_to_json(config),
                      "moves": [api.move_to_json(m) for m in moves], "reaches": fingerprint(game, final)}
    optional = {"start": None if start is None else api.position_to_json(start),
                "rejects": None if rejects is None else api.move_to_json(rejects), "policy": policy,
                "repeats": None if repeats is None else list(repeats), "seed": seed}
    record.update((key, value) for key, value in optional.items() if value is not None)
    return record


def snap_record(config: snap.SnapConfig, moves: Sequence[snap.Move], final: snap.SnapState, *, label: str,
                start: snap.SnapState | None = None, rejects: snap.Move | None = None,
                policy: str | None = None, repeats: tuple[int, int] | None = None, seed: int | None = None) -> Record:
    return game_record("snap", config, moves, final, label=label, start=start, rejects=rejects, policy=policy,
                       repeats=repeats, seed=seed)


def hearts_record(config: hearts.HeartsConfig, moves: Sequence[hearts.Move], final: hearts.HeartsState, *,
                  label: str, rejects: hearts.Move | None = None) -> Record:
    return game_record("hearts", config, moves, final, label=label, rejects=rejects)


def function_record(game: str, function: str, args: list[Any], *, label: str) -> Record:
    """A record of one value of a model rule function, the value as the loaded model gives it."""
    return {"game": game, "function": function, "args": args, "returns": call(game, function, args), "label": label}


# ---- pure rule functions ----------------------------------------------------------------------
def _hearts_call(function: str, args: list[Any]) -> Any:
    from cardcanon.model import hearts as model
    from cardcanon.model.cards import Card
    from cardcanon.model.hearts_records import config_from_json
    from cardcanon.model.seats import Seat

    if function == "trick_winner":
        return model.trick_winner(Card.parse(args[0]), Card.parse(args[1]))
    if function == "score_hand":
        taken = tuple(frozenset(Card.parse(c) for c in pile) for pile in args[0])
        return list(model.score_hand(taken, tuple(Card.parse(c) for c in args[1]), config_from_json(args[2], "record")))
    if function == "match_result":
        outcome = model.match_result(tuple(args[0]), config_from_json(args[1], "record"),
                                     previous=None if args[2] is None else tuple(args[2]))
        return None if outcome is None else [outcome.termination.value, outcome.winner.index]
    if function == "first_leader":
        hands = tuple(frozenset(Card.parse(c) for c in hand) for hand in args[0])
        seat, card = model.first_leader(hands, tuple(Card.parse(c) for c in args[1]), config_from_json(args[2], "record"))
        return [seat.index, None if card is None else str(card)]
    if function == "seat_problem":
        refusal = model.seat_problem(Seat(args[0]))
        return None if refusal is None else refusal[0]
    if function == "legal_moves":
        where = dict(args[1])
        lead = where.pop("lead")
        where.update(hand=[Card.parse(c) for c in where["hand"]], dead=[Card.parse(c) for c in where["dead"]])
        state = hearts_position(config_from_json(args[0], "record"), lead=None if lead is None else Card.parse(lead),
                                **where)
        return [str(play.card) for play in model.legal_moves(state)]
    raise ValueError(f"no such Hearts rule function: {function}")


def hearts_position(config: hearts.HeartsConfig, *, hand: Iterable[Card], dead: Iterable[Card], lead: Card | None,
                    tricks_played: int, hearts_broken: bool) -> hearts.HeartsState:
    """A position of the loaded Hearts model with seat 0 to move holding ``hand``: leading, or
    following seat 1's ``lead``. The ``legal_moves`` function record gives these arguments as
    ``args[1]`` (cards as strings)."""
    from cardcanon.model import hearts as model
    from cardcanon.model.hearts_types import SEATS

    trick = () if lead is None else (model.Play(SEATS[1], lead),)
    return model.HeartsState(config=config, phase=model.Phase.PLAY, hand_number=1, dealer=SEATS[1],
                             hands=(frozenset(hand), frozenset()), dead=tuple(dead), trick=trick,
                             leader=SEATS[0] if lead is None else SEATS[1], to_move=SEATS[0],
                             hearts_broken=hearts_broken, tricks_played=tricks_played)


# Records of a game played as a match of hands: a record whose moves begin a later one (the hands of
# a replayed match) is dropped by ``cardcanon.verify.records.distinct``, the later one plays them again.
MATCHES = {"hearts": True, "snap": False}
FUNCTIONS = {"hearts": ("trick_winner", "score_hand", "match_result", "first_leader", "seat_problem", "legal_moves"),
             "snap": ("ending_label",)}


def start_state(game: str, config: Any, start: Mapping[str, Any], where: str = "record: start") -> LoadedState:
    """A position of the loaded model, as :func:`position` writes it (a record's ``start``)."""
    return game_api(game).position_from_json(config, start, where)


def _snap_call(function: str, args: list[Any]) -> Any:
    """``ending_label`` (the one Snap rule function, see :func:`call`): args ``[config, position]`` (SNAP-END-5)."""
    from cardcanon.model import snap_endings
    from cardcanon.model.snap_records import config_from_json

    return snap_endings.ending_label(start_state("snap", config_from_json(args[0], "record: config"), args[1],
                                                 "record: args[1]"))


CALLS: dict[str, Callable[[str, list[Any]], Any]] = {"hearts": _hearts_call, "snap": _snap_call}


def call(game: str, function: str, args: list[Any]) -> Any:
    if function not in FUNCTIONS.get(game, ()):
        raise ValueError(f"no such {game} rule function: {function}")
    return CALLS[game](function, args)
