"""Executable reference models of Snap and two-player Hearts.

Each model follows the canonical rulebook in ``spec/`` rule by rule and cites rule IDs.
Shared pieces: :mod:`cardcanon.model.cards` (typed cards), :mod:`cardcanon.model.shuffle`
(the portable seeded shuffle) and :mod:`cardcanon.model.errors` (the error types).
"""
