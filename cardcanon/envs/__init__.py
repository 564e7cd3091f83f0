"""PettingZoo environments (AEC API) of the reference models: ``hearts_v0`` and ``snap_v0``.

Install with ``pip install 'cardcanon[rl]'``. Each module has ``env(**kwargs)`` (wrapped) and
``raw_env``; every variation point of the rulebook is a keyword argument.
"""
