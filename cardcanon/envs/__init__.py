"""PettingZoo environments (AEC API) of the reference models: ``hearts_v0`` and ``snap_v0``.

Install with ``pip install 'cardcanon[rl]'``. Each module has ``env(**kwargs)`` (wrapped) and
``raw_env``; every variation point of the rulebook is a keyword argument.
"""

try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(f"cardcanon.envs needs the rl extra (pip install 'cardcanon[rl]'): {error}") from error
