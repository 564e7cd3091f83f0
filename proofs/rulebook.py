"""The numbers the proofs use, read from the loaded rulebook's named values (``[rule.values]``).

An encoding never writes 13, 20, 100 or 52 itself: it asks :func:`value`, so that a change
of the rulebook changes the proofs, and the spec's own test keeps each value equal to the
number its rule's text states.
"""

from __future__ import annotations


def value(game: str, rule: str, name: str) -> int:
    """The named value ``name`` of ``rule`` in ``game``'s rulebook."""
    import cardcanon.spec

    return int(cardcanon.spec.load(game).rule(rule).values[name])
