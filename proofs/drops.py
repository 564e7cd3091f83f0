"""Vacuity probes: a check's encoding with the constraints of one cited rule dropped.

For every rule a ``z3-proof`` check cites, ``cardcanon verify`` runs the check once more with
the probe ``drop:<RULE>``: every constraint stating that rule is left out and every term the
rule defines is a fresh, unconstrained constant of its sort; all else, including the comparison
with the reference model, is unchanged. The probe is killed when the check reaches a contrary
verdict; one that survives shows that the proof does not use the rule (the citation goes, or
the claim is restated). Dropping a rule the encoding does not state (``states``) is an error,
so a probe cannot pass by dropping nothing.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import z3

from cardcanon.proofs.base import RuleDrop, Z3, parse_probe


def probe_id(rule: str) -> str:
    """The probe ID that drops ``rule``: ``drop:HEARTS-FOLLOW-1``."""
    return RuleDrop(rule).id


@dataclass(frozen=True)
class Drop:
    """The rule left out of an encoding (``None``: every rule kept)."""

    rule: str | None = None

    @classmethod
    def of(cls, probe_id: str | None, states: Collection[str]) -> Drop:
        """The drop a probe asks for; ``states`` are the rules the encoding can leave out."""
        probe = parse_probe(probe_id)
        rule = probe.rule if isinstance(probe, RuleDrop) else None
        if rule is not None and rule not in states:
            raise ValueError(f"{probe_id}: the encoding states nothing of {rule} (it states {', '.join(sorted(states))})")
        return cls(rule)

    def keeps(self, rule: str) -> bool:
        return rule != self.rule

    def constraint(self, rule: str, constraint: Z3) -> Z3:
        """``constraint`` when ``rule`` is kept, else ``True``."""
        return constraint if self.keeps(rule) else z3.BoolVal(True)

    def term(self, rule: str, term: Z3, name: str) -> Z3:
        """``term`` when ``rule`` is kept, else a fresh constant of its sort named after ``name``."""
        return term if self.keeps(rule) else z3.Const(f"dropped!{rule}!{name}", term.sort())
