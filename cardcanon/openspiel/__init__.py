"""cardcanon's games in OpenSpiel: importing this package registers ``python_cardcanon_hearts`` and
``python_cardcanon_snap`` with ``pyspiel``, so ``pyspiel.load_game("python_cardcanon_snap(players=4)")``
and every OpenSpiel algorithm (and TorchRL or Shimmy, which load OpenSpiel's games) play them.

Install with ``pip install 'cardcanon[openspiel]'``. The states step on the compiled kernel where
it can play the table and on the reference models (:mod:`cardcanon.model.hearts`,
:mod:`cardcanon.model.snap`) elsewhere; the ``engine`` parameter chooses and the game's ``engine``
attribute says which plays (:mod:`cardcanon.openspiel.engines`). The observers write the
observation vectors of the PettingZoo environments (:mod:`cardcanon.envs`). See
``docs/environments.rst``.
"""

try:
    import pyspiel  # noqa: F401
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(f"cardcanon.openspiel needs the openspiel extra (pip install 'cardcanon[openspiel]'): "
                      f"{error}") from error

from cardcanon.openspiel import hearts, snap  # noqa: E402,F401  (registers the games)

GAMES = (hearts.SHORT_NAME, snap.SHORT_NAME)
