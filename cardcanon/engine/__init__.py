"""The fast engine: whole Snap deals and Hearts matches, the same games as the reference models.

:mod:`cardcanon.engine.snap` and :mod:`cardcanon.engine.hearts` run a C kernel compiled at first
use (:mod:`cardcanon.engine.build`) and fall back to the reference models without a compiler.
See ``README.md`` in this folder for the technique and its measurements.
"""
