"""Which engine plays an environment's episodes: the compiled kernel, or the reference model.

Both give the same episodes (``tests/test_env_engine.py``); the kernel is faster. The choice is
written into the environment's ``metadata`` (``engine``, and ``engine_note`` saying why the model
plays), never made silently.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from cardcanon.engine.build import EngineUnavailable

ENGINES = ("kernel", "model")
K = TypeVar("K")


def choose_engine(env: Any, engine: str | None, kernel: Callable[[], K]) -> K | None:
    """The kernel's game (``kernel()``) unless ``engine`` is ``"model"`` or the kernel cannot play
    here (then None, and the reason in ``env.metadata``). ``engine="kernel"`` raises
    :class:`EngineUnavailable` instead of using the model."""
    if engine is not None and engine not in ENGINES:
        raise ValueError(f"engine must be None, 'kernel' or 'model', not {engine!r}")
    env.metadata = dict(env.metadata)
    game, note = None, "chosen: engine='model'"
    if engine != "model":
        try:
            game = kernel()
        except EngineUnavailable as exc:
            if engine == "kernel":
                raise
            note = f"the compiled kernel cannot play here: {exc}"
    env.metadata["engine"] = "model" if game is None else "kernel"
    if game is None:
        env.metadata["engine_note"] = note
    return game
