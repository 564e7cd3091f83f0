"""cardcanon: the canonical, machine-checked rulebook of Snap and two-player Hearts.

Subpackages: :mod:`cardcanon.spec` (the rulebook and its sources), :mod:`cardcanon.model`
(reference models), :mod:`cardcanon.proofs` (Z3 checks). The command line is ``cardcanon``.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("cardcanon")  # the one source: pyproject.toml, via the package metadata
except PackageNotFoundError:  # pragma: no cover - running from an uninstalled tree
    __version__ = "0+unknown"
