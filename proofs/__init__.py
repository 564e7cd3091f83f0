"""Z3 checks and exhaustive searches of the two rulebooks.

The checks are listed in ``manifest/*.toml`` (one file per game) with their rule IDs, kind,
expected verdict, bounds, probes and model mutants; :mod:`cardcanon.proofs.base` defines what
a check returns. ``cardcanon verify`` runs them.
"""
