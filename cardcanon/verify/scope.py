"""What a check covers, in words: its ``[check.scope]`` table (its keys: ``proofs/manifest/README.md``),
against the rulebook's range.

Words may name a bound in braces (``"up to {cards} cards"``), filled from the run's bounds, so that a
quick run's smaller bounds show as such and no number is written twice. :func:`describe` returns the
scope of one run as JSON-ready data, with ``words``: one line that says, where the check covers less
than the rulebook allows, how much less and why ("2–4 players of the rulebook's 2–12; 5 players take
40 s each": the scope's ``players_left_out``, required of a check whose full bounds leave counts out).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

KEYS = ("players", "players_left_out", "deck", "piles", "abstracted")
RULEBOOK = "rulebook"


def rulebook_players(game: str) -> tuple[int, int]:
    """The player counts the rulebook allows: (fewest, most), read from its rules' values."""
    from cardcanon.proofs.rulebook import value

    if game == "hearts":
        n = value("hearts", "HEARTS-PLAYERS-1", "players")
        return n, n
    return value("snap", "SNAP-PLAYERS-1", "min_players"), value("snap", "SNAP-PLAYERS-1", "max_players")


def rulebook_deck(game: str) -> int:
    from cardcanon.proofs.rulebook import value

    return value(game, "HEARTS-DECK-1" if game == "hearts" else "SNAP-DECK-1", "deck_size")


def problems(table: Mapping[str, Any], bounds: Mapping[str, Any]) -> list[str]:
    """What is wrong with a manifest's scope table (empty: nothing); the schema makes it a table."""
    found = [f"unknown key {key!r}" for key in table if key not in KEYS]
    for key in ("deck", "abstracted"):
        if not isinstance(table.get(key), str) or not table[key].strip():
            found.append(f"'{key}' must be a non-empty string")
    for key in ("piles", "players_left_out"):
        if key in table and (not isinstance(table[key], str) or not table[key].strip()):
            found.append(f"'{key}' must be a non-empty string")
    for key in ("deck", "piles", "abstracted", "players_left_out"):
        try:
            str(table.get(key, "")).format(**_worded(bounds))
        except (KeyError, IndexError, ValueError) as exc:
            found.append(f"'{key}' names {exc}, which is not a bound")
    players = table.get("players")
    if players is None and "players" not in bounds:
        found.append("'players' is missing (and the bounds give none)")
    elif players is not None and "players" in bounds:
        found.append("'players' is also in the bounds: state it once, in the bounds")
    elif players is not None and players != RULEBOOK and not _counts(players):
        found.append(f"'players' must be a list of player counts or {RULEBOOK!r}")
    return found


def left_out_problem(game: str, table: Mapping[str, Any], bounds: Mapping[str, Any]) -> str:
    """What is wrong with the players a check's full ``bounds`` cover ("": nothing): counts of the
    rulebook left out must have their reason in ``players_left_out``, and only those."""
    low, high = rulebook_players(game)
    raw = table.get("players", bounds.get("players"))
    players = set(range(low, high + 1)) if raw == RULEBOOK else set(_counts(raw))
    missing = sorted(set(range(low, high + 1)) - players)
    if missing and "players_left_out" not in table:
        return (f"{span(missing)} players of the rulebook's {low}–{high} are left out, and "
                "'players_left_out' does not say why (their measured cost, or why the claim cannot arise there)")
    if not missing and "players_left_out" in table:
        return "'players_left_out' is given, but the bounds cover every player count of the rulebook"
    return ""


class _Listed(list[Any]):
    """A list bound as words when a scope names it: ``[2, 3, 5]`` -> "2, 3 and 5", a list of pairs
    ``[[2, 2], [3, 2]]`` -> "2×2 and 3×2". A range bound ``[first, last]`` is named by its ends
    (``{seeds[0]} ≤ seed < {seeds[1]}``), never as a whole."""

    def __format__(self, spec: str) -> str:
        items = ["×".join(map(str, item)) if isinstance(item, list) else str(item) for item in self]
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _worded(bounds: Mapping[str, Any]) -> dict[str, Any]:
    """The bounds, each list as :class:`_Listed`, for the words of a scope."""
    return {key: _Listed(value) if isinstance(value, list) else value for key, value in bounds.items()}


def _counts(value: Any) -> list[int]:
    if isinstance(value, int) and not isinstance(value, bool):
        return [value]
    if isinstance(value, list) and value and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return sorted(set(value))
    return []


def span(counts: Sequence[int]) -> str:
    """``[2, 3]`` -> "2–3", ``[2, 3, 5]`` -> "2, 3 and 5", ``[2]`` -> "2"."""
    counts = sorted(set(counts))
    if len(counts) > 1 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}–{counts[-1]}"
    return str(counts[0]) if len(counts) == 1 else ", ".join(map(str, counts[:-1])) + f" and {counts[-1]}"


def describe(game: str, table: Mapping[str, Any] | None, bounds: Mapping[str, Any],
             variants: Sequence[str] | None = None, variants_reason: str = "") -> dict[str, Any]:
    """The scope of a run with ``bounds``, as data and in words (``stated`` False: no scope table)."""
    low, high = rulebook_players(game)
    allowed = list(range(low, high + 1))
    if table is None:
        return {"stated": False, "words": "scope not stated in the manifest", "players": [],
                "rulebook_players": allowed, "covers_rulebook_players": False}
    raw = table.get("players", bounds.get("players"))
    players = allowed if raw == RULEBOOK else _counts(raw)
    whole = set(allowed) <= set(players)
    who = f"{span(players)} player{'s' if players != [1] else ''}"
    deck, piles, abstracted, left_out = (str(table.get(key) or "").format(**_worded(bounds))
                                         for key in ("deck", "piles", "abstracted", "players_left_out"))
    if not whole:
        who += f" of the rulebook's {span(allowed)}" + (f"; {left_out}" if left_out else "")
    deck_words = f"the rulebook's deck ({rulebook_deck(game)} cards)" if deck == RULEBOOK else deck
    variant_words = ("every variant verify runs" if variants is None
                     else f"only {', '.join(variants)}" + (f" ({variants_reason})" if variants_reason else ""))
    parts = [who, deck_words]
    if piles:
        parts.append(piles)
    parts.append(variant_words)
    if abstracted.startswith("nothing: "):  # "nothing: sampled, not exhaustive"
        parts.append(abstracted.removeprefix("nothing: "))
    elif abstracted != "nothing":
        parts.append(f"abstracts {abstracted}")
    return {
        "stated": True,
        "players": players,
        "rulebook_players": allowed,
        "covers_rulebook_players": whole,
        "players_left_out": left_out if not whole and left_out else None,
        "deck": deck_words,
        "piles": piles or None,
        "variants": variant_words,
        "abstracted": abstracted,
        "words": "; ".join(parts),
    }
