"""SNAP-P7 (SNAP-OUT-1, SNAP-TURN-2, SNAP-CALL-2, SNAP-PEN-2): for 3 to 12 players and small decks,
so that players go out, games played through the model (:func:`~cardcanon.proofs.snap.search.explore`:
every call event ``legal_moves`` lists is a possible choice) in which a player who is out never gets
the turn, is never offered a call and never receives a card; turns skip him. The first step that
breaks this is a counterexample record (the game up to and including that move) for the runner to
replay. The engine checks are in ``cardcanon.verify.engine``.
"""

from __future__ import annotations

from cardcanon.model import snap as model
from cardcanon.model.seats import Seat
from cardcanon.proofs.base import CheckResult, Run, Verdict
from cardcanon.proofs.records import snap_record
from cardcanon.proofs.snap.search import explore, small_deck


def out_claim(before: model.SnapState, move: model.Move, after: model.SnapState,
              options: tuple[model.Move, ...]) -> str | None:
    """SNAP-OUT-1 with SNAP-TURN-2, SNAP-CALL-2, SNAP-PEN-2 on one step (``options``: the model's
    legal moves after it)."""
    if before.phase is not model.Phase.DEAL:
        for seat in map(Seat, range(before.config.players)):
            if not before.holds(seat) and after.holds(seat):
                return f"{seat} was out and holds cards again after {move}"
    if after.phase is model.Phase.FLIP and not after.holds(after.player):
        return f"{after.turn} is out but has the turn"
    if after.phase is model.Phase.CALL:
        for option in options:
            callers = (option.caller,) if isinstance(option, model.Call) else getattr(option, "callers", ())
            for seat in callers:
                if not after.holds(seat):
                    return f"{seat} is out but may call: {option}"
    return None


def _call_by_out_player(state: model.SnapState) -> model.Call | None:
    if state.phase is not model.Phase.CALL:
        return None
    return next((o for o in model.legal_moves(state) if isinstance(o, model.Call) and not state.holds(o.caller)), None)


def _skipped(before: model.SnapState, after: model.SnapState) -> bool:
    """The turn passed over a player who is out."""
    if before.phase is not model.Phase.CALL or after.phase is not model.Phase.FLIP:
        return False
    n = before.config.players
    step = (after.player.index - before.player.index) % n
    return any(not after.holds(Seat((before.player.index + k) % n)) for k in range(1, step))


def check(run: Run) -> CheckResult:
    run.no_probe()
    bounds = run.bounds
    players = [int(n) for n in bounds["players"]]
    games, max_flips = int(bounds.get("games", 20)), int(bounds.get("max_flips", 300))
    records, stats = [], {"games": 0, "skipped_turns": 0}
    for n in players:
        config = run.snap_config(players=n, deck=small_deck(n))
        first_skip = None
        for seed in range(games):
            skip_at: list[int] = []

            def claim(before: model.SnapState, move: model.Move, after: model.SnapState,
                      options: tuple[model.Move, ...]) -> str | None:
                problem = out_claim(before, move, after, options)
                if problem is None and _skipped(before, after):
                    skip_at.append(after.flips)
                return problem

            played = explore(config, seed, claim, max_flips=max_flips)
            stats["games"] += 1
            if played.problem:
                moves, final = played.moves, played.final
                call = _call_by_out_player(final)
                if call is not None:  # the record ends with the call itself
                    moves, final = moves + (call,), model.apply(final, call)
                record = snap_record(config, moves, final, label=f"{n} players, seed {seed}: {played.problem}")
                return CheckResult(Verdict.COUNTEREXAMPLE, f"{n} players, seed {seed}: {played.problem}",
                                   witness=record["label"], records=(record,), stats=stats)
            stats["skipped_turns"] += len(skip_at)
            if first_skip is None and skip_at:
                first_skip = (seed, played)
            run.budget.tick()
        if first_skip is None:
            return CheckResult(Verdict.NO_WITNESS, f"{n} players: no game in which a turn skips a player who is out",
                               stats=stats)
        seed, played = first_skip
        records.append(played.record(f"{n} players, seed {seed}: players go out and their turns are skipped"))
    return CheckResult(Verdict.PROVED, f"{stats['games']} games at {len(players)} tables of {players[0]} to "
                                       f"{players[-1]} players, every step checked; "
                                       f"{stats['skipped_turns']} turns skipped a player who is out",
                       witness="\n".join(r["label"] for r in records), records=tuple(records), stats=stats)
