"""cardcanon: the canonical, machine-checked rulebook of Snap and two-player Hearts.

Subpackages: :mod:`cardcanon.spec` (the rulebook and its sources), :mod:`cardcanon.model`
(reference models), :mod:`cardcanon.proofs` (Z3 checks). The command line is ``cardcanon``.
"""

__version__ = "0.1.0"
