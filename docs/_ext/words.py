"""Check output in the rulebook's words, for reader pages: a check's detail and witness are
written for programmers (``Tie(callers=frozenset({Seat(0), Seat(1)}), kind=CallKind.SNAP)``,
``[Qc Kc]``, ``P0``); the site shows them as "player 1 and player 2 tie, calling "Snap!"",
"[Q♣ K♣]" and "player 0" (seats are numbered from 0, SNAP-TERM-1). One card notation everywhere: rank and suit sign (``10♣``)."""

from __future__ import annotations

import re

SUITS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
CALLS = {"SNAP": '"Snap!"', "SNAP_POT": '"Snap Pot!"', "HAND": "a hand on the index card"}
ENDINGS = {"ALL_CARDS": "one player holds every card", "STUCK_POT": "one player holds every card outside the pot",
           "NO_CARDS": "every card is in the pot"}
SEAT = re.compile(r"Seat\((\d+)\)")
CODE = re.compile(r"(?<![\w-])(10|[2-9TJQKA])([cdhs])(?![\w-])")
# reprs that the words below do not cover: the test of the reader pages looks for these
REPR = re.compile(r"\b(?:[A-Z][A-Za-z]*\([a-z_]+=|frozenset\(|Seat\(|CallKind\.|Termination\.|Card\.parse\()")


def player(index: int | str) -> str:
    from cardcanon.model.seats import Seat

    return str(Seat(int(index)))  # the one formatter of a seat


def card(code: str) -> str:
    """``Tc`` -> ``10♣``."""
    m = CODE.fullmatch(code)
    return f"{'10' if m.group(1) in ('T', '10') else m.group(1)}{SUITS[m.group(2)]}" if m else code


def _seats(text: str) -> str:
    found = [player(i) for i in SEAT.findall(text)]
    return " and ".join(found) if len(found) < 3 else ", ".join(found[:-1]) + " and " + found[-1]


def _ending(m: re.Match[str]) -> str:
    winner = SEAT.search(m.group(2))
    return f"the game ends: {ENDINGS.get(m.group(1), m.group(1).lower())}, " + (
        f"{player(winner.group(1))} wins" if winner else "drawn")


MOVES = [
    (re.compile(r"Tie\(callers=frozenset\(\{([^}]*)\}\), kind=CallKind\.(\w+)\)"),
     lambda m: f"{_seats(m.group(1))} tie, calling {CALLS.get(m.group(2), m.group(2).lower())}"),
    (re.compile(r"Call\(caller=Seat\((\d+)\), kind=CallKind\.(\w+)\)"),
     lambda m: f"{player(m.group(1))} calls {CALLS.get(m.group(2), m.group(2).lower())}"),
    (re.compile(r"Flip\(player=Seat\((\d+)\)\)"), lambda m: f"{player(m.group(1))} flips"),
    (re.compile(r"NoCall\(\)"), lambda m: "nobody calls"),
    (re.compile(r"Outcome\(termination=Termination\.(\w+), winner=(None|Seat\(\d+\))\)"), _ending),
    (re.compile(r"Card\.parse\('(\w+)'\)"), lambda m: card(m.group(1))),
]


def in_words(text: str) -> str:
    """Moves, outcomes, seats and cards of a check's output in the rulebook's words."""
    for pattern, words in MOVES:
        text = pattern.sub(words, text)
    text = SEAT.sub(lambda m: player(m.group(1)), text)
    text = re.sub(r"(?<![\w-])P(\d+)\b", lambda m: player(m.group(1)), text)
    # card codes inside card lists ("[Qc Kc]", "order 8c 2c ...") and "dead 8c 8h"; a lone "As" in a
    # sentence stays English
    text = re.sub(r"\[([^\]]*)\]", lambda m: "[" + CODE.sub(lambda c: card(c.group(0)), m.group(1)) + "]", text)
    return re.sub(r"(?<![\w-])((?:10|[2-9TJQK])[cdhs]|A[cdh])(?![\w-])", lambda m: card(m.group(1)), text)
