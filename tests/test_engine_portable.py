"""The engine's C sources build without compiler builtins or extensions (``portable.h``): with
``CARDCANON_PORTABLE_C=1`` every library takes its plain C99 fallbacks, and the engine's
differential tests pass on that build as on the one with the builtins."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cardcanon.engine import build

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "cardcanon" / "engine"
EXTENSIONS = re.compile(r"__builtin_\w+|__attribute__|__int128|__forceinline|__declspec")
# the engine's differential tests: the kernel against the models, the batched Snap against the
# single environment, the exact enumeration against brute force, and (with OpenSpiel) the
# OpenSpiel games on the kernel against the same games on the models
DIFFERENTIAL = ["tests/test_engine_equivalence.py", "tests/test_env_engine.py", "tests/test_exact.py",
                *(["tests/test_openspiel_engines.py"] if importlib.util.find_spec("pyspiel") else [])]

needs_gcc_style = pytest.mark.skipif(build.compiler() is None or os.name != "posix",
                                     reason="needs a C compiler that takes gcc-style flags")


def own_code(preprocessed: str) -> list[str]:
    """The lines of the engine's own files in ``cc -E`` output (not the system headers')."""
    lines, ours = [], False
    for line in preprocessed.splitlines():
        if line.startswith("# "):
            ours = str(ENGINE) in line
        elif ours:
            lines.append(line)
    return lines


@needs_gcc_style
@pytest.mark.parametrize("source", ["kernel_unit.c", "vector.c", "exact.c"])
def test_the_forced_fallback_uses_no_compiler_extension(source):
    cc = build.compiler()
    assert cc is not None
    done = subprocess.run([cc, "-E", "-std=c99", "-DCARDCANON_PORTABLE_C", str(ENGINE / source)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    code = own_code(done.stdout)
    assert len(code) > 100, "the preprocessed output has the engine's code"
    assert not [line for line in code if EXTENSIONS.search(line)]
    # and without the define, GCC and Clang do use their builtins (the test above can fail)
    native = subprocess.run([cc, "-E", "-std=c99", str(ENGINE / source)], capture_output=True, text=True, timeout=60)
    assert any(EXTENSIONS.search(line) for line in own_code(native.stdout))


@needs_gcc_style
@pytest.mark.slow  # builds three libraries at -O3, then runs the differential tests (about a minute)
def test_the_engines_differential_tests_pass_on_the_forced_fallback_build(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    env = {key: value for key, value in os.environ.items() if key != "CARDCANON_ENGINE"}
    env.update(CARDCANON_PORTABLE_C="1", CARDCANON_CACHE=str(cache))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", "-rs",
                           *DIFFERENTIAL], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:]
    assert " passed" in done.stdout and "skipped" not in done.stdout, done.stdout[-3000:]
    # the libraries that played are the fallback builds, compiled into the fresh cache
    monkeypatch.setenv("CARDCANON_PORTABLE_C", "1")
    monkeypatch.setenv("CARDCANON_CACHE", str(cache))
    cc = build.compiler()
    assert cc is not None and build.packaged() is None
    for source in (build.SOURCE, ENGINE / "vector.c", ENGINE / "exact.c"):
        assert build.library_path(cc, source).is_file(), source.name
