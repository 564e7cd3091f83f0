"""Compile ``kernel.c`` at first use into a cache directory and load it with ctypes.

The shared library is named after a hash of the source, the compiler command and the
platform, so an edited source is rebuilt and a stale one is never loaded. The cache directory
is ``$CARDCANON_CACHE``, else ``$XDG_CACHE_HOME/cardcanon``, else ``~/.cache/cardcanon``.
``CARDCANON_ENGINE=python`` disables the compiled kernel (the engine then falls back to the
reference models, which give the same answers, slowly).
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from cardcanon.spec.errors import CardcanonError

SOURCE = Path(__file__).with_name("kernel.c")
CFLAGS = ("-O3", "-shared", "-fPIC", "-std=c99")


class EngineUnavailable(CardcanonError):
    """The compiled kernel cannot be built or loaded here."""


def cache_dir() -> Path:
    if os.environ.get("CARDCANON_CACHE"):
        return Path(os.environ["CARDCANON_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "cardcanon"


def compiler() -> str | None:
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def library_path(cc: str) -> Path:
    if not SOURCE.exists():
        raise EngineUnavailable(f"the engine source {SOURCE} is missing from this installation")
    digest = hashlib.sha256(SOURCE.read_bytes())
    digest.update(" ".join((cc, *CFLAGS, platform.machine(), sys.platform)).encode())
    suffix = ".dll" if sys.platform == "win32" else ".so"
    return cache_dir() / f"kernel-{digest.hexdigest()[:16]}{suffix}"


def build() -> Path:
    """The path of the compiled kernel, compiling it if needed."""
    cc = compiler()
    if cc is None:
        raise EngineUnavailable("no C compiler found (tried $CC, cc, gcc, clang); install one, "
                                "or set CARDCANON_ENGINE=python to use the slow reference models")
    target = library_path(cc)
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=target.suffix)
    os.close(fd)
    try:
        done = subprocess.run([cc, *CFLAGS, "-o", tmp, str(SOURCE)], capture_output=True, text=True)
        if done.returncode != 0:
            raise EngineUnavailable(f"compiling {SOURCE} with {cc} failed:\n{done.stderr.strip()}")
        os.replace(tmp, target)  # atomic: concurrent first uses never load a half-written file
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return target


_LIBRARY: ctypes.CDLL | None = None


def load() -> ctypes.CDLL:
    """The loaded kernel (built on first call); raises :class:`EngineUnavailable`."""
    global _LIBRARY
    if _LIBRARY is None:
        if os.environ.get("CARDCANON_ENGINE", "").lower() == "python":
            raise EngineUnavailable("the compiled kernel is disabled by CARDCANON_ENGINE=python")
        try:
            _LIBRARY = ctypes.CDLL(str(build()))
        except OSError as exc:
            raise EngineUnavailable(f"cannot load the compiled kernel: {exc}") from None
    return _LIBRARY


def available() -> bool:
    try:
        load()
    except EngineUnavailable:
        return False
    return True
