"""Which engine plays an environment's episodes: the compiled kernel, or the reference model.

Both give the same episodes (``tests/test_env_engine.py``); the kernel is faster. ``engine`` says
which: ``"kernel"`` (the default) raises :class:`EngineUnavailable` with the reason when the kernel
cannot play here; ``"model"`` plays the reference model; ``"kernel-or-model"`` asks for the kernel
and, where it cannot play, the model. The choice is written into the environment's ``metadata``
(``engine``, and ``engine_note`` saying why the model plays); nothing falls back unasked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from cardcanon.engine.build import EngineUnavailable, kernel_or_model

ENGINES = ("kernel", "model", "kernel-or-model")
DEFAULT = "kernel"  # the engine when the caller names none
K = TypeVar("K")


def choose_engine(env: Any, engine: str | None, kernel: Callable[[], K]) -> K | None:
    """The kernel's game (``kernel()``), or None when the model plays (``engine="model"``, or
    ``"kernel-or-model"`` where the kernel cannot play: the reason goes into ``env.metadata``).
    ``engine=None`` is :data:`DEFAULT` (``"kernel"``: :class:`EngineUnavailable` instead of using the model)."""
    engine = DEFAULT if engine is None else engine
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(map(repr, ENGINES))}, not {engine!r}")
    env.metadata = dict(env.metadata)
    game, note = None, "chosen: engine='model'"
    if engine != "model":
        try:
            game, played_by = kernel_or_model(kernel, fallback=engine == "kernel-or-model")
        except EngineUnavailable as exc:
            raise EngineUnavailable(f"{exc}; engine='kernel-or-model' or engine='model' plays the "
                                    "reference model instead") from None
        note = f"engine='kernel-or-model' and the compiled kernel cannot play here: {played_by.reason}"
    env.metadata["engine"] = "model" if game is None else "kernel"
    if game is None:
        env.metadata["engine_note"] = note
    return game
