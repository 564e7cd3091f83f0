"""Shared test configuration: Hypothesis profiles split by cost.

- ``default``: quick, for everyday runs and CI (the README's test command): few examples.
- ``ci``: the bounded form of the thorough runs that CI also exercises (``pytest -m slow``).
- ``thorough``: long runs for releases (``HYPOTHESIS_PROFILE=thorough pytest -m slow``).

A slow test that loops over a fixed number of cases (seeds, deals) takes that number from
:func:`cases`, so that CI runs a bounded share of what a release run does.

A test that needs the compiled kernel is marked ``needs_kernel`` (a module: ``pytestmark``, a case:
``pytest.param(..., marks=pytest.mark.needs_kernel)``): where the kernel cannot be built (no C
compiler, ``CARDCANON_ENGINE=python``) it is skipped with the reason. :func:`kernel_missing` gives
that reason to a test that checks what happens without the kernel instead. A test of the exact
enumeration, whose library (``exact.c``) is built apart from the kernel, is marked ``needs_exact``
as well, and skipped in the same way where that library cannot be built.
"""

import os
import sys
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# The suite starts many Python processes (test workers, the CLI, verify workers). Each keeps the
# modules it compiles (and pytest its rewritten test modules) in __pycache__, even where
# PYTHONDONTWRITEBYTECODE is set, so that the next process and the next run load them compiled.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "default")

settings.register_profile("default", max_examples=25, deadline=None)
settings.register_profile("ci", max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "thorough", max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(PROFILE)


def cases(thorough: int, ci: int) -> int:
    """How many cases a slow test runs: all ``thorough`` of them under the thorough profile,
    ``ci`` (fewer, at least one) otherwise."""
    assert 1 <= ci <= thorough
    return thorough if PROFILE == "thorough" else ci


def _why_missing(load: Callable[[], object]) -> str:
    """Why ``load()`` cannot load its compiled library here (``EngineUnavailable``'s one line), or ""."""
    from cardcanon.engine import build

    try:
        load()
    except build.EngineUnavailable as exc:
        return str(exc)
    return ""


def kernel_missing() -> str:
    """Why the compiled kernel cannot be loaded here, or ""."""
    from cardcanon.engine import build

    return _why_missing(build.load)


def exact_missing() -> str:
    """Why the exact enumeration's library (``exact.c``) cannot be loaded here, or ""."""
    from cardcanon.engine import exact

    return _why_missing(exact.kernel)


# each marker of a compiled library, and why that library cannot be loaded here; a test that needs
# both is skipped with the exact enumeration's reason (its library is the one it is about)
LIBRARIES = {"needs_exact": exact_missing, "needs_kernel": kernel_missing}


def engine_check_not_applicable(check: Any, result: Any) -> bool:
    """Whether ``check`` is an engine check (its manifest entry names ``engine``) that cannot run
    here for want of the kernel. Its ``result`` must then be not-applicable with the reason, never
    a pass or a fail (asserted), and the caller has nothing more to check."""
    from cardcanon.proofs.base import Verdict

    missing = kernel_missing() if check.engine_covers is not None else ""
    if missing:
        assert result.verdict is Verdict.NOT_APPLICABLE and missing in result.detail, (result.verdict, result.detail)
    return bool(missing)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "needs_kernel: needs the compiled kernel; skipped with the reason where "
                                       "it cannot be built (no C compiler, CARDCANON_ENGINE=python)")
    config.addinivalue_line("markers", "needs_exact: needs the exact enumeration's library (exact.c); skipped "
                                       "with the reason where it cannot be built")


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # With ``--dist loadgroup`` (CI's slow tests) tests are spread one by one over the workers, except
    # that the tests of a module that share a module-scoped fixture (a built site, a verify run)
    # stay on one worker, so that it is made once.
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        scopes = {d.scope for defs in (info.name2fixturedefs.values() if info else ()) for d in defs}
        if scopes & {"module", "package", "class"}:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
    for marker, missing in LIBRARIES.items():
        marked = [item for item in items if item.get_closest_marker(marker)]
        reason = missing() if marked else ""
        for item in marked if reason else ():
            item.add_marker(pytest.mark.skip(reason=f"the compiled engine cannot be built here: {reason}"))


@pytest.fixture
def environments_play_the_model_without_a_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the compiled kernel cannot be built (no C compiler, ``CARDCANON_ENGINE=python``), an
    environment made with no ``engine`` plays the reference model, as ``engine="kernel-or-model"``
    asks; with the kernel, the default is unchanged."""
    from cardcanon.envs import _engine

    if kernel_missing():
        monkeypatch.setattr(_engine, "DEFAULT", "kernel-or-model")
