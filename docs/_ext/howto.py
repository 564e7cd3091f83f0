"""Sphinx extension: the how-to-play pages, generated from the rules' summaries.

At ``builder-inited`` it writes ``generated/play-hearts.rst`` and ``generated/play-snap.rst``
from :func:`cardcanon.spec.howto.parts`, the same sentences ``cardcanon rules GAME --summary``
prints, each linked to its rule. The drawn examples are positions of real games: a seeded game
is played by the reference model and its moves are replayed with ``apply`` up to the moment
shown, so every card in a picture is where the model puts it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pictures
from rulebook_pages import esc, heading, linkify, rule_ref

from cardcanon import spec
from cardcanon.model import hearts, snap
from cardcanon.model.cards import Card, Suit
from cardcanon.model.seats import Seat
from cardcanon.model.shuffle import SplitMix64
from cardcanon.model.snap_policies import play_game
from cardcanon.spec import howto as summaries

QUEEN_OF_SPADES = Card.parse("Qs")
PAGES = {"hearts": "play-hearts.rst", "snap": "play-snap.rst"}
SEEDS = range(1, 500)  # the examples are the first seeded games that show what they illustrate


@dataclass(frozen=True)
class Example:
    """A drawn example: the SVG file name, its text alternative and the caption (reST)."""

    name: str
    svg: str
    alt: str
    caption: str

    def rst(self) -> str:
        # on a phone the picture keeps its drawn size, so its labels stay legible, and scrolls in its box
        return (f".. container:: wide-figure\n\n   .. figure:: /generated/figures/{self.name}\n      :alt: {self.alt}\n"
                f"      :class: howto-example\n\n      {self.caption}\n\n")


# ---------------------------------------------------------------------------------- pages


def page(game: str, examples: dict[str, list[Example]]) -> str:
    """The reST of one how-to-play page; ``examples`` maps a part title to the examples after it."""
    book = spec.load(game)
    out = [":orphan:\n\n", f".. _play-{game}:\n\n", heading(summaries.title(book), "=", over=True)]
    out.append(f"One sentence per rule, each linked to the rule's full text, which decides where this summary is "
               f"too short; ``cardcanon rules {game} --summary`` prints the same. The same on one page to "
               f"print or keep on a phone: :ref:`quickref-{game}` (and as a PDF on the :ref:`downloads` "
               f"page).\n\n")
    terms = [rule for rule in book.rules if rule.section == "Terms of play"]
    if terms:
        out.append("Words of the game: " + ", ".join(f":ref:`{esc(_term(rule.title))} <rule-{rule.id}>`"
                                                     for rule in terms) + ".\n\n")
    for part in summaries.parts(book):
        out.append(heading(part.title, "-"))
        for sentence in part.sentences:
            out.append(f"- {esc(sentence.text)} {rule_ref(sentence.rule_id)}\n")
        out.append("\n")
        for example in examples.get(part.title, []):
            out.append(example.rst())
    out.append(variations(book))
    return "".join(out)


def quickref(game: str) -> str:
    """The one-page quick reference of a game: every sentence of the how-to page in the order of
    play (setup, a turn, the calls or the scoring, the end), each with its rule ID, and the
    standard choice of each variation point. ``docs/pdf.py`` prints it on one page."""
    book = spec.load(game)
    out = [f".. _quickref-{game}:\n\n", heading(f"{book.title}: quick reference", "=", over=True),
           f".. rst-class:: quickref-intro\n\ncardcanon |release|. One line per rule, its ID beside it and "
           f"linked to its full text; :ref:`play-{game}` explains with pictures.\n\n"]
    for part in summaries.parts(book):
        out.append(heading(part.title, "-"))
        out += [f"- {esc(sentence.text)} {rule_ref(sentence.rule_id)}\n" for sentence in part.sentences]
        out.append("\n")
    standard = [(rule, rule.variation) for rule in book.rules if rule.variation is not None]
    if standard:
        out.append(heading("Standard choices", "-") + "Players may agree otherwise (:ref:`play-" + game + "`, "
                   "Variations).\n\n")
        out += [f"- {esc(next(o.text for o in v.options if o.value == v.default))} {rule_ref(rule.id)}\n"
                for rule, v in standard]
        out.append("\n")
    return "".join(out)


def variations(book) -> str:
    """The "Variations" section: each variation point of the rulebook, its default and the other
    options, linked to its rule (the sentences above always describe the defaults)."""
    ids = spec.all_rule_ids()
    out = [heading("Variations", "-"), "Above is the standard game; players may agree otherwise on these "
           "points. Beside each choice is the option that names it to the command line "
           "(``--variant``):\n\n"]
    for rule in book.rules:
        v = rule.variation
        if v is None:
            continue
        out.append(f"- **{esc(rule.title)}** ({rule_ref(rule.id)})\n\n")
        for o in sorted(v.options, key=lambda o: o.value != v.default):
            lead = "Standard" if o.value == v.default else "Or"
            out.append(f"  - {lead}: {linkify(o.text, ids)} ``{v.parameter}={o.value}``\n")
        out.append("\n")
    return "".join(out)


def seed_to_deal() -> str:
    """reST for the implementers' page: SNAP-SEED-1 and SNAP-SEED-2 as the rulebook states them,
    the numbered steps of SNAP-SEED-2 set out as a list."""
    book, ids = spec.load("snap"), spec.all_rule_ids()
    out = []
    for rule_id in ("SNAP-SEED-2", "SNAP-SEED-1"):
        rule = book.rule(rule_id)
        intro, *steps = re.split(r" (?=[0-9]+\. )", rule.text)
        out.append(f"**{esc(rule.title)}** ({rule_ref(rule.id)}). {linkify(intro, ids)}\n\n")
        last = steps[-1].split(". ", 2) if steps else []
        if steps and len(last) == 3:  # the sentences after the last step close the list
            steps[-1], tail = f"{last[0]}. {last[1]}.", last[2]
        else:
            tail = ""
        out += [f"{linkify(step, ids)}\n" for step in steps]
        out.append(f"\n{linkify(tail, ids)}\n\n" if tail else "\n")
    return "".join(out)


def _term(title: str) -> str:
    """A glossary title inside a sentence: lower case, except the name Snap Pot."""
    return title if title.startswith("Snap") else title[0].lower() + title[1:]


def generate(app) -> None:
    out = Path(app.srcdir) / "generated"
    figures = out / "figures"
    figures.mkdir(parents=True, exist_ok=True)
    examples = {"hearts": {"Playing a trick": [hearts_trick()]},
                "snap": {"Calling": [snap_call(), *snap_tie()]}}
    for game, name in PAGES.items():
        for group in examples[game].values():
            for example in group:
                _write_if_changed(figures / example.name, example.svg)
        _write_if_changed(out / name, page(game, examples[game]))
        _write_if_changed(out / f"quickref-{game}.rst", quickref(game))
    _write_if_changed(out / "seed-to-deal.inc", seed_to_deal())


def _write_if_changed(path: Path, text: str) -> None:
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


# ---------------------------------------------------------------------------------- Hearts


def _seat(seat: Seat) -> str:
    return str(seat)  # the one formatter of a seat


def hearts_trick() -> Example:
    """The first trick of a seeded game in which a player who cannot follow suit wins with a
    heart: hearts are trump. Both players play their first legal card (the model's order)."""
    for seed in SEEDS:
        rng = SplitMix64(seed)
        state = hearts.new_game()
        while state.is_chance:  # the dealer, then the deal
            state = hearts.apply(state, hearts.sample_chance(state, rng))
        while not state.is_chance:  # the first hand, trick by trick, until the next deal
            before = state
            lead = hearts.legal_moves(state)[0]
            after_lead = hearts.apply(state, lead)
            follow = hearts.legal_moves(after_lead)[-1]  # the follower's last legal card
            state = hearts.apply(after_lead, follow)
            if follow.card.suit is Suit.HEARTS and lead.card.suit is not Suit.HEARTS and not state.is_chance:
                winner = hearts.legal_moves(state)[0].player  # the winner leads next (HEARTS-TRICK-2)
                if winner != follow.player:
                    raise RuntimeError(f"seed {seed}: the model does not let the heart win the trick")
                return _trick_example(before, lead, follow, winner, seed)
    raise RuntimeError("no seeded game shows a heart winning a trick")


def _trick_example(before, lead, follow, winner, seed: int) -> Example:
    rows = []
    for play, role in ((lead, "leads"), (follow, "plays")):
        hand = sorted(before.hands[play.player.index], key=lambda card: card.index)
        rows.append((f"{_seat(play.player)} {role}", hand, play.card))
    suit = lead.card.suit.name.lower()
    title = f"{_seat(lead.player)} leads the {lead.card.pretty}; {_seat(follow.player)} has no {suit} and trumps"
    svg = _trick_svg(rows, f"{_seat(winner)} wins the trick and leads next", title)
    caption = (f"A trick from a real game (seed {seed}). "
               f"{_seat(lead.player)} leads the {lead.card.pretty}. {_seat(follow.player)} holds no {suit}, so "
               f"he may play any card ({rule_ref('HEARTS-FOLLOW-1')}) and plays the {follow.card.pretty}. "
               f"Hearts are trump, so the heart wins the trick ({rule_ref('HEARTS-TRICK-1')}) and "
               f"{_seat(winner)} leads next ({rule_ref('HEARTS-TRICK-2')})."
               + ("" if before.hearts_broken else
                  f" The heart he played breaks hearts ({rule_ref('HEARTS-BREAK-2')}).")
               + (f" With the trick he takes the queen of spades, 13 points ({rule_ref('HEARTS-QUEEN-1')})."
                  if QUEEN_OF_SPADES in (lead.card, follow.card) else ""))
    alt = (f"{_seat(lead.player)} leads {lead.card.pretty} and {_seat(follow.player)}, holding no {suit}, "
           f"wins the trick with {follow.card.pretty}")
    return Example("play-hearts-trick.svg", svg, alt, caption)


def _trick_svg(rows, note: str, title: str) -> str:
    """One row per player: his hand before the trick, the card he played raised and outlined."""
    step = 32
    parts, y, width = [pictures.text(12, 22, title, size=15, weight="bold")], 44, 520
    for label, hand, played in rows:
        parts.append(pictures.text(12, y + pictures.CARD_H / 2 + 10, label, weight="bold"))
        for i, card in enumerate(hand):
            x, top = 110 + i * step, y if card == played else y + 14
            parts.append(pictures.card(card, x, top))
            if card == played:
                parts.append(f'<rect x="{x}" y="{top}" width="{pictures.CARD_W}" height="{pictures.CARD_H}" rx="5" '
                             'fill="none" stroke="#d4a017" stroke-width="3"/>')
        width = max(width, 110 + (len(hand) - 1) * step + pictures.CARD_W + 20)
        y += pictures.CARD_H + 34
    parts.append(pictures.text(12, y + 6, note, size=13, weight="bold"))
    return pictures.svg(width, y + 18, "".join(parts), title)


# ---------------------------------------------------------------------------------- Snap


def _replay_until(config, moves, wanted):
    """Replay ``moves`` through the model; the state before the first move ``wanted`` accepts."""
    state = snap.new_game(config)
    for move in moves:
        if wanted(state, move):
            return state, move
        state = snap.apply(state, move)
    return None, None


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(card.pretty for card in cards)


def snap_call() -> Example:
    """The first correct "Snap!" of a seeded three-player game under flipper-first."""
    config = snap.SnapConfig(players=3)
    for seed in SEEDS:
        game = play_game(config, seed, "flipper-first", max_flips=2000)
        state, move = _replay_until(config, game.moves, lambda s, m: isinstance(m, snap.Call)
                                    and m.kind is snap.CallKind.SNAP and snap.correct_kinds(s) == {m.kind})
        if state is None:
            continue
        flipper, matched = state.turn, snap.matched_seats(state)
        after = snap.apply(state, move)
        flipped = state.up[flipper.index][0]
        marks = {flipper.index: "flips"}
        marks.update({seat.index: "match" for seat in matched})
        title = f"{_seat(flipper)} flips the {flipped.pretty}: Snap!"
        svg = pictures.snap_table(state.down, state.up, state.pot, title, marks=marks)
        won = len(state.up[flipper.index]) + sum(len(state.up[s.index]) for s in matched)
        others = ", ".join(_seat(s) for s in matched)
        caption = (f"A snap in a real three-player game (seed {seed}). {_seat(flipper)} flips the {flipped.pretty}, "
                   f"matching the top card of {others}'s face-up pile ({rule_ref('SNAP-MATCH-1')}). "
                   f"{_seat(move.caller)} calls \"Snap!\" first and puts both piles, {won} cards, under his "
                   f"face-down pile ({rule_ref('SNAP-CALL-1')}, {rule_ref('SNAP-CALL-5')}). The turn passes to "
                   f"{_seat(after.turn)} ({rule_ref('SNAP-TURN-2')}).")
        alt = f"{_seat(flipper)} flips {flipped.pretty} matching {others}; {_seat(move.caller)} calls Snap and wins {won} cards"
        return Example("play-snap-call.svg", svg, alt, caption)
    raise RuntimeError("no seeded game shows a snap")


def snap_tie() -> list[Example]:
    """The first tie of a seeded three-player game under ties:0.3, before and after."""
    config = snap.SnapConfig(players=3)
    for seed in SEEDS:
        game = play_game(config, seed, "ties:0.3", max_flips=2000)
        state, move = _replay_until(config, game.moves, lambda s, m: isinstance(m, snap.Tie) and not s.pot)
        if state is None:
            continue
        flipper, matched = state.turn, snap.matched_seats(state)
        if not matched:
            continue
        after = snap.apply(state, move)
        flipped = state.up[flipper.index][0]
        names = [_seat(s) for s in sorted(move.callers)]
        callers = ", ".join(names[:-1]) + " and " + names[-1]
        marks = {flipper.index: "flips"}
        marks.update({seat.index: "match" for seat in matched})
        before_svg = pictures.snap_table(state.down, state.up, state.pot,
                                         f"{_seat(flipper)} flips the {flipped.pretty}; {callers} call at once",
                                         marks=marks)
        after_svg = pictures.snap_table(after.down, after.up, after.pot, "After the tie: the Snap Pot",
                                        note=f"The pot, top first: {_cards(after.pot)}")
        before = Example("play-snap-tie-before.svg", before_svg,
                         f"{_seat(flipper)} flips {flipped.pretty}, matching {', '.join(_seat(s) for s in matched)}; "
                         f"{callers} call Snap at the same instant",
                         f"A tie (seed {seed}, three players): {_seat(flipper)} flips the {flipped.pretty}, matching "
                         f"{', '.join(_seat(s) for s in matched)}, and {callers} call \"Snap!\" at the same instant "
                         f"({rule_ref('SNAP-CALL-3')}).")
        after_ex = Example("play-snap-tie-after.svg", after_svg,
                           f"The Snap Pot after the tie, top first: {' '.join(c.pretty for c in after.pot)}",
                           f"Nobody wins a tie: both piles go to the middle as the Snap Pot, the "
                           f"{after.pot[0].pretty} on top ({rule_ref('SNAP-TIE-1')}). A later flip of that rank lets "
                           f"everyone race to call \"Snap Pot!\" ({rule_ref('SNAP-POT-1')}).")
        return [before, after_ex]
    raise RuntimeError("no seeded game shows a tie")


def setup(app):
    app.connect("builder-inited", generate)
    return {"version": "1", "parallel_read_safe": True}
