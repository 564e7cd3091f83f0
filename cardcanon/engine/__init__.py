"""The fast engine: whole Snap deals and Hearts matches, the same games as the reference models.

:mod:`cardcanon.engine.snap` and :mod:`cardcanon.engine.hearts` run a C kernel compiled at first
use (:mod:`cardcanon.engine.build`). Where it is unavailable they raise ``EngineUnavailable``
with the reason; they play the reference models only when asked (``fallback=True``), and each
result records which engine played. See ``README.md`` in this folder for the technique and its
measurements.
"""
