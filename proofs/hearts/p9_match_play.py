"""HEARTS-P9: seeded matches between random players, every step against the rulebook: the dealer
alternates, hearts start unbroken, the scores are the sums of the hand scores, the queen of spades
may be discarded to the first trick, and the match decision and its "tie broken" label follow the
rulebook's statement (:func:`rulebook_outcome`) after every hand and in every score band."""

from __future__ import annotations

from cardcanon.model import hearts as model
from cardcanon.model.cards import Card, Suit
from cardcanon.model.hearts_players import make_player
from cardcanon.model.hearts_records import config_to_json
from cardcanon.model.hearts_types import SEATS
from cardcanon.model.seats import Seat
from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.hearts_text import decision_text
from cardcanon.proofs.base import CheckResult, Run, Verdict
from cardcanon.proofs.hearts.match import decision, rulebook_outcome
from cardcanon.proofs.hearts.replay import counterexample, seeded_steps
from cardcanon.proofs.records import function_record, hearts_record


def _first_lead(state: model.HeartsState) -> tuple[Card, Seat]:
    """The lowest live club of the 2, 4 and 6 and the seat holding it (HEARTS-LEAD-1/2, as the rulebook says:
    the oracle of this check, a second opinion on the model's first_lead_club)."""
    clubs = sorted(c for c in model.DECK if c.suit is Suit.CLUBS)[:3]
    club = next(c for c in clubs if c not in state.dead)
    return club, next(s for s in SEATS if club in state.hands[s.index])


def _first_trick_queen(state: model.HeartsState, legal: tuple[model.Play, ...]) -> model.Play | None:
    """A discard of the queen of spades the model refuses on the first trick, or None."""
    if state.phase is not model.Phase.PLAY or state.tricks_played or not state.trick:
        return None
    seat = state.to_move
    assert seat is not None  # a trick under way has a player to move
    hand = state.hands[seat.index]
    queen = model.QUEEN_OF_SPADES
    led = state.trick[0].card.suit
    if queen not in hand or any(card.suit is led for card in hand) or any(play.card == queen for play in legal):
        return None
    return model.Play(seat, queen)


def _claims(before: model.HeartsState, move: model.Move, after: model.HeartsState, legal: tuple[model.Play, ...],
            dealers: list[Seat | None]) -> tuple[str, model.Play | None] | None:
    """What is wrong with one step (and a refused move that shows it), or None."""
    target = after.config.target
    if isinstance(move, model.Deal):
        club, holder = _first_lead(after)
        if after.to_move != holder:
            return f"{after.to_move} leads hand {after.hand_number}, not {holder}, who holds {club.pretty}", None
        if after.hearts_broken:
            return f"hand {after.hand_number} starts with hearts broken", None
        dealers.append(after.dealer)
        if len(dealers) >= 2 and dealers[-1] == dealers[-2]:
            return f"{after.dealer} deals hand {after.hand_number} after dealing hand {after.hand_number - 1}", None
    if after.phase is model.Phase.PLAY and not legal:
        club, holder = _first_lead(after)
        return f"{after.to_move} has no legal move", model.Play(holder, club) if not after.tricks_played else None
    refused = _first_trick_queen(after, legal)
    if refused is not None:
        return f"{refused.player} cannot follow suit on the first trick and may not discard the queen of spades", refused
    if isinstance(move, model.Play) and after.tricks_played != before.tricks_played and (
            after.phase is not model.Phase.PLAY):
        totals = tuple(sum(h[i] for h in after.hand_scores) for i in (0, 1))
        if tuple(after.scores) != totals:
            return f"scores {after.scores} are not the sums of the hand scores {totals}", None
        want = rulebook_outcome(tuple(after.scores), tuple(before.scores), target)
        if decision(after.outcome) != want:
            return f"after hand {after.hand_number} at {after.scores} the model says {decision_text(after.outcome)}, " \
                   f"the rulebook {decision_text(want)}", None
    return None


def bands(target: int) -> list[tuple[str, tuple[int, int], tuple[int, int]]]:
    """(label, previous scores, scores after a hand) in every score band of the match decision."""
    t = target
    return [
        ("both below the target", (t - 30, t - 20), (t - 10, t - 1)),
        ("seat 0 reaches it", (t - 10, t - 20), (t, t - 5)),
        ("seat 1 passes it", (t - 20, t - 10), (t - 1, t + 6)),
        ("both pass, seat 0 lower", (t - 10, t - 5), (t + 3, t + 9)),
        ("both pass, seat 1 lower", (t - 2, t - 9), (t + 13, t + 2)),
        ("both pass with equal scores: play on", (t - 6, t - 6), (t + 7, t + 7)),
        ("equal below the target, both pass unequal: not a broken tie", (t - 6, t - 6), (t + 1, t + 14)),
        ("equal past the target, then unequal: the tie is broken", (t + 7, t + 7), (t + 9, t + 10)),
        ("equal past the target, still equal", (t + 7, t + 7), (t + 10, t + 10)),
    ]


def check(run: Run) -> CheckResult:
    run.no_probe()
    bounds, config = run.bounds, run.hearts_config()
    records, hands = [], 0
    seeds = range(*bounds.get("seeds", [0, 20]))
    for seed in seeds:
        dealers: list[Seat | None] = []
        players = (make_player("random", seed * 2 + 1), make_player("random", seed * 2 + 2))
        for before, move, after, legal, moves in seeded_steps(config, SplitMix64(seed), players):
            problem = _claims(before, move, after, legal, dealers)
            if problem is not None:
                text, refused = problem
                label = f"seed {seed}: {text}"
                return counterexample(hearts_record(config, moves, after, label=label, rejects=refused))
            final = after
            if after.hand_number > int(bounds.get("max_hands", 60)):
                break
        hands += final.hand_number
        if seed - seeds.start < 2:
            records.append(hearts_record(config, moves, final, label=f"seed {seed}: a whole match, "
                                         f"{final.hand_number} hands, {decision_text(final.outcome)}"))
        run.budget.tick()
    score_bands = bands(config.target)
    for label, previous, scores in score_bands:
        args = [list(scores), config_to_json(config), list(previous)]
        record = function_record("hearts", "match_result", args, label=label)
        want = rulebook_outcome(scores, previous, config.target)
        if (None if record["returns"] is None else tuple(record["returns"])) != want:
            return counterexample(record, f"{label}: {previous} -> {scores}: the model says "
                                          f"{decision_text(record['returns'])}, the rulebook {decision_text(want)}")
        records.append(record)
    return CheckResult(Verdict.PROVED, f"{len(seeds)} matches ({hands} hands) checked at every step; the match "
                                       f"decision agrees with the rulebook in {len(score_bands)} score bands",
                       witness="\n".join(r["label"] for r in records), records=tuple(records),
                       stats={"matches": len(seeds), "hands": hands})


