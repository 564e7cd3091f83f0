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


CALLS = {"snap": '"Snap!"', "snap-pot": '"Snap Pot!"', "hand": "a hand on the index card"}


def describe_move(move) -> str:
    """A Snap move in words, for example: the tie of player 1 and player 2, both calling "Snap!"."""
    kind = CALLS.get(getattr(getattr(move, "kind", None), "value", ""), "")
    seats = sorted(getattr(move, "callers", ()) or (), key=lambda s: s.index)
    if seats:
        names = " and ".join(seat_name(s) for s in seats)
        return f"the tie of {names}, {'both' if len(seats) == 2 else 'all'} calling {kind}"
    if hasattr(move, "caller"):
        return f"{seat_name(move.caller)} calling {kind}"
    if hasattr(move, "player"):
        return f"{seat_name(move.player)} flipping a card"
    return type(move).__name__.lower()


def seat_name(seat) -> str:
    """A seat in the rulebook's words (the model's one formatter: seats are numbered from 0)."""
    return str(seat)


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
    title = "The endless tie-break: the same tied hand, again and again"
    svg = pictures.hearts_hands(rows, title, captioned=True)
    (out / "hearts-tiebreak.svg").write_text(svg, encoding="utf-8")
    return (f"The witness of :ref:`{check['id']} <check-{check['id']}>`: the queen of spades and "
            f"{esc(dead[0].pretty if dead[0].suit is Suit.HEARTS else dead[1].pretty)} are dead, each player takes three "
            f"hearts, and the hand scores {a}–{b}. {k} such hands take the match to "
            f"{a * k}–{b * k}, past 100 with equal scores; every further hand like it keeps the scores "
            "equal, and the position of the match repeats.\n\n"
            + caption(title, "each row: the running scores after the hand, the dead cards, and the point "
                      "cards each player took")
            + wide_figure("hearts-tiebreak", "Three hands of the endless tie-break: running scores, dead cards, "
                          "point cards taken"))


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
    state = hearts.apply(hearts.new_game(hearts.HeartsConfig()), hearts.ChooseDealer(hearts.Seat(0)))
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


def _snap_config(check: dict):
    from cardcanon.model.snap import SnapConfig

    return SnapConfig(players=int(check["bounds"].get("players", 2)))


def _draw_snap(state, out: Path, name: str, title: str, note: str = "", show_down: bool = False) -> str:
    marks = {}
    if state.turn is not None:
        marks[state.turn.index] = "to flip" if state.phase.name == "FLIP" else "just flipped"
    svg = pictures.snap_table(state.down, state.up, state.pot, title, note, marks, show_down, captioned=True)
    (out / f"{name}.svg").write_text(svg, encoding="utf-8")
    return caption(title, note) + wide_figure(name, title)


def caption(title: str, note: str = "") -> str:
    """A picture's title and key line, as text above it: it wraps on a phone instead of being cut."""
    return f".. rst-class:: figure-caption\n\n**{esc(title)}**" + (f" — {esc(note)}" if note else "") + "\n\n"


def wide_figure(name: str, alt: str) -> str:
    """A picture of a card table at its own size; on a phone it scrolls sideways in its box
    instead of shrinking to unreadable text."""
    return f".. container:: wide-figure\n\n   .. image:: /generated/figures/{name}.svg\n      :alt: {alt}\n\n"


def snap_cycle(out: Path, ev) -> str:
    if ev.report is None:
        return _no_report("SNAP-P5")
    from cardcanon.model.snap import Phase
    from cardcanon.proofs.snap.search import replay_moves
    from cardcanon.proofs.snap.search import play_seed

    check = _check(ev, "SNAP-P5-lasso")
    bounds, st = check["bounds"], check["stats"]
    b = {**bounds["lassos"][0], "max_flips": bounds["max_flips"]}  # the first lasso: flipper-first
    name = b["policy"].replace("-", "_")
    config = _snap_config(check)
    played = play_seed(config, int(b["seed"]), b["policy"], int(b["max_flips"]))
    states = [s for s in replay_moves(config, played.moves) if s.phase is Phase.FLIP]
    start, length = st[f"{name}_cycle_start"], st[f"{name}_cycle_length"]
    first = next(s for s in states if s.flips == start)
    again = next(s for s in states if s.flips == start + length)
    if first.position_key() != again.position_key():
        raise ExtensionError("SNAP-P5 witness: the position does not recur in the model's replay")
    title = f"Seed {b['seed']}, {config.players} players, {b['policy']}: before flip {start + 1} and before flip {start + length + 1}"
    return (f"The witness of :ref:`{check['id']} <check-{check['id']}>`: the deal of seed {b['seed']} "
            f"(dealer {seat_name(played.moves[0].dealer)}), played with every call correct and the flipper first: "
            f"{st[f'{name}_snaps_before_cycle']} snaps, then "
            f"the position before flip {start + 1} comes back, pile for pile, {length} flips later, so the "
            "game repeats forever. The picture shows that position; the model replays both.\n\n"
            + _draw_snap(first, out, "snap-cycle", title,
                         f"the same position recurs {length} flips later (checked by the reference model)", show_down=True))


def snap_pot(out: Path, ev) -> str:
    if ev.report is None:
        return _no_report("SNAP-P3")
    from cardcanon.proofs.snap.p3_stuck_pot import play_to_stuck_pot, stuck
    from cardcanon.proofs.snap.search import replay_moves
    from cardcanon.proofs.snap.search import play_seed
    from cardcanon.model.snap import SnapConfig

    check = _check(ev, "SNAP-P3-stuck-pot")
    b, seed = check["bounds"], int(check["stats"]["seed_2p"])  # the witness of the 2-player table
    config = SnapConfig(players=2)
    played = play_to_stuck_pot(config, seed, b["policy"], int(b["max_flips"]))
    if played is None:
        raise ExtensionError("SNAP-P3 witness: the seed no longer reaches a stuck pot")
    final = replay_moves(config, played.moves)[-1]
    if not stuck(final):
        raise ExtensionError("SNAP-P3 witness: the model's replay does not reach a stuck pot")
    top = final.pot[0]
    text = (f"The witness of :ref:`{check['id']} <check-{check['id']}>`: seed {seed}, {config.players} players, "
            f"``{b['policy']}`` calling. Before flip {final.flips + 1} the Snap Pot's top card is "
            f"{esc(top.pretty)} and every other {esc(top.rank.label)} is in the pot too, so no flip can match it "
            "until a later tie covers it.\n\n"
            + _draw_snap(final, out, "snap-stuck-pot", f"Seed {seed}: a Snap Pot no flip can win",
                         f"no {top.rank.label} outside the pot"))
    nocards = _check(ev, "SNAP-P16-no-cards")
    nb, nseed = nocards["bounds"], int(nocards["stats"]["seed"])
    ncfg = _snap_config(nocards)
    nplayed = play_seed(ncfg, nseed, nb["policy"], int(nb["max_flips"]))
    states = replay_moves(ncfg, nplayed.moves)
    before, final = states[-2], states[-1]
    if final.outcome is None or final.outcome.winner is not None:
        raise ExtensionError("SNAP-P3 no-cards witness: the model does not end the game drawn")
    text += (f"And the draw of :ref:`{nocards['id']} <check-{nocards['id']}>` (:ref:`SNAP-END-3 <rule-SNAP-END-3>`): "
             f"seed {nseed}. After flip {before.flips} both players' face-down piles are empty and the flipped card "
             f"matches; {esc(describe_move(nplayed.moves[-1]))} sends both face-up piles into the pot, nobody holds a "
             "card, and the model ends the game drawn.\n\n"
             + _draw_snap(before, out, "snap-no-cards", f"Seed {nseed}: the tie that leaves no player a card",
                          "a tie now sends every remaining card into the Snap Pot"))
    return text
