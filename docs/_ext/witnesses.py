"""Pictures of the witnesses that the checks found, taken from the verify report and replayed
through the reference models before they are drawn."""

from __future__ import annotations

from pathlib import Path

import pictures
from rulebook_pages import esc
from sphinx.errors import ExtensionError

from cardcanon.model import hearts
from cardcanon.model.cards import Card, Suit


def _check(ev, prefix: str) -> dict:
    for check_id, check in ev.checks.items():
        if check_id == prefix or check_id.startswith(prefix + "-"):
            return check
    raise ExtensionError(f"the verify report has no check {prefix}")


def _no_report(name: str) -> str:
    return f"*The witness of {name} is drawn from a verify report; this build had none.*\n\n"


def hearts_tiebreak(out: Path, ev) -> str:
    if ev.report is None:
        return _no_report("HEARTS-P8")
    check = _check(ev, "HEARTS-P8")
    w = check["stats"]["witness_hand"]
    dead = tuple(Card.parse(c) for c in w["dead"])
    tricks = [(seat, Card.parse(a), Card.parse(b)) for seat, a, b in w["tricks"]]
    took = _replay_hearts_hand(dead, tricks)
    if tuple(hearts.score_hand(took, dead, hearts.HeartsConfig())) != tuple(w["scores"]):
        raise ExtensionError("HEARTS-P8 witness: the model scores the hand differently")
    points = [sorted((c for c in took[p] if c in hearts.POINT_CARDS), key=lambda c: c.index) for p in (0, 1)]
    k = w["hands_to_target"]
    a, b = w["scores"]
    rows = [(f"hand {k + i}", dead, points[0], points[1],
             f"{a * (k + i)} – {b * (k + i)}") for i in range(3)]
    svg = pictures.hearts_hands(rows, "The endless tie-break: the same tied hand, again and again")
    (out / "hearts-tiebreak.svg").write_text(svg, encoding="utf-8")
    return (f"The witness of :ref:`{check['id']} <check-{check['id']}>`: the queen of spades and "
            f"{esc(dead[0].pretty if dead[0].suit is Suit.HEARTS else dead[1].pretty)} are dead, each player takes three "
            f"hearts, and the hand scores {a}–{b}. {k} such hands take the match to "
            f"{a * k}–{b * k}, past 100 with equal scores; every further hand like it keeps the scores "
            "equal, and the position of the match repeats.\n\n"
            ".. image:: /generated/figures/hearts-tiebreak.svg\n"
            "   :alt: Three hands of the endless tie-break: dead cards, point cards taken, running scores\n\n")


def _replay_hearts_hand(dead, tricks):
    """Replay the witness hand through the model (dealer P0) and return the cards each took."""
    hands = [set(), set()]
    for seat, led, followed in tricks:
        hands[seat].add(led)
        hands[1 - seat].add(followed)
    # HEARTS-DEAL-2 with dealer P0: the top card is dead, then P1, P0, ... alternately, the last card dead
    order = [dead[0]]
    for x, y in zip(sorted(hands[1]), sorted(hands[0])):
        order += [x, y]
    order.append(dead[1])
    state = hearts.apply(hearts.new_match(hearts.HeartsConfig()), hearts.ChooseDealer(hearts.Seat(0)))
    state = hearts.apply(state, hearts.Deal(tuple(order)))
    for seat, led, followed in tricks:
        state = hearts.apply(state, hearts.Play(hearts.Seat(seat), led))
        state = hearts.apply(state, hearts.Play(hearts.Seat(1 - seat), followed))
    took = _taken_from_history(tricks)
    if tuple(state.hand_scores[-1]) != tuple(hearts.score_hand(took, dead, hearts.HeartsConfig())):
        raise ExtensionError("HEARTS-P8 witness: the model's replay and the drawn hand disagree")
    return took


def _taken_from_history(tricks):
    taken = [set(), set()]
    for seat, led, followed in tricks:
        winner = seat if hearts.trick_winner(led, followed) == 0 else 1 - seat
        taken[winner] |= {led, followed}
    return (frozenset(taken[0]), frozenset(taken[1]))


def snap_cycle(out: Path, ev) -> str:
    return "(the cycle witness is drawn once the Snap checks are in the report)\n\n"


def snap_pot(out: Path, ev) -> str:
    return "(the stuck pot witness is drawn once the Snap checks are in the report)\n\n"
