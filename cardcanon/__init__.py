"""cardcanon: the canonical, machine-checked rulebook of Snap and two-player Hearts.

Subpackages: :mod:`cardcanon.spec` (the rulebook and its sources), :mod:`cardcanon.model`
(reference models), :mod:`cardcanon.proofs` (Z3 checks). The command line is ``cardcanon``.
"""


def __getattr__(name: str) -> str:
    """``cardcanon.__version__``: the version of this build (:func:`cardcanon.version.build_info`),
    the same string on every surface."""
    if name == "__version__":
        from cardcanon.version import build_info

        return build_info().version
    raise AttributeError(f"module 'cardcanon' has no attribute {name!r}")
