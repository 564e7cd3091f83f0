"""Conformance: language-neutral test vectors and a runner that checks any implementation.

- :mod:`cardcanon.conform.vectors` writes the vectors (``cardcanon conform --write``);
- :mod:`cardcanon.conform.protocol` is the JSON-lines protocol an implementation speaks;
- :mod:`cardcanon.conform.runner` runs an implementation and checks it against the vectors;
- :mod:`cardcanon.conform.process` is the implementation under test, as a subprocess;
- :mod:`cardcanon.conform.reference` is the reference models behind the protocol;
- :mod:`cardcanon.conform.adapter` is the models seen through the protocol's JSON terms;
- :mod:`cardcanon.conform.cases` reads the models' states for the generator: edge positions,
  forbidden moves, golden games, lines built by hand and the rules each vector exercises; each
  game's own part is in :mod:`cardcanon.conform.cases_hearts` and :mod:`cardcanon.conform.cases_snap`;
- :mod:`cardcanon.conform.positions` is the canonical position (``show``): each game's ``position_to_json``;
- :mod:`cardcanon.conform.steps` names the rules a move applied, one function per game;
- :mod:`cardcanon.conform.overlaps` finds refusals that two rules make equally right;
- :mod:`cardcanon.conform.files` reads and validates vector files before any work;
- :mod:`cardcanon.conform.selfcheck` checks a vector file against itself, the rulebook and the
  reference model (``cardcanon conform --check-vectors``).
"""
