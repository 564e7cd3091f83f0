"""Find or build the compiled kernel (``kernel.c``) and load it with ctypes.

In order: a library built with the package (``_kernel*.so`` next to this file, compiled at
install where a compiler exists), else one compiled at first use into the per-user
cache (:mod:`cardcanon.engine.cache`: ``$CARDCANON_CACHE``, else ``$XDG_CACHE_HOME/cardcanon``, else
``~/.cache/cardcanon``; folder and file must be the user's and writable by no one else). A
library is used only if it reports the SHA-256 of this package's ``kernel.c``. The compiler has
``COMPILE_TIMEOUT`` seconds; its output is written under a temporary name and renamed. The build
compiles ``kernel_unit.c``: ``portable.h`` (plain C fallbacks of the compiler builtins), then
``kernel.c`` unchanged. ``CARDCANON_PORTABLE_C=1`` forces those fallbacks where the builtins exist
(the tests build it so), and then no library built with the package is used.

If the kernel cannot be had, :class:`EngineUnavailable` says why (one line), and the failure is
remembered for the process, so a failed build is not retried on every call. ``CARDCANON_ENGINE=python``
disables the kernel. Nothing here plays the reference models instead: a caller that wants them when
the kernel is unavailable asks for it (``fallback=True`` in :mod:`cardcanon.engine.snap` and
:mod:`cardcanon.engine.hearts`), and the result says which engine played (:class:`PlayedBy`).
"""

from __future__ import annotations

import ctypes
import hashlib
import importlib.machinery
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from cardcanon.engine.cache import UnsafeCacheError, check_private, private_dir, user_cache_dir
from cardcanon.engine import abi
from cardcanon.spec.errors import CardcanonError

SOURCE = Path(__file__).with_name("kernel.c")
UNIT = Path(__file__).with_name("kernel_unit.c")  # what is compiled: portable.h, then kernel.c
PORTABLE = Path(__file__).with_name("portable.h")
CFLAGS = ("-O3", "-shared", "-fPIC", "-std=c99")
COMPILERS = ("cc", "gcc", "clang")  # tried after $CC; each takes the gcc-style CFLAGS
COMPILE_TIMEOUT = 120.0  # seconds; the kernel compiles in about one


class EngineUnavailable(CardcanonError):
    """The compiled kernel cannot be built or loaded here, or cannot play the configuration asked for."""


@dataclass(frozen=True)
class PlayedBy:
    """Which engine played a result: the compiled kernel, or the reference model and why."""

    kernel: bool
    reason: str = ""  # why the reference model played

    def __str__(self) -> str:
        return "compiled kernel" if self.kernel else f"reference model ({self.reason})"


KERNEL = PlayedBy(True)
ASKED_FOR_MODEL = PlayedBy(False, "asked for by name")
L = TypeVar("L")


def kernel_or_model(kernel: Callable[[], L], fallback: bool) -> tuple[L | None, PlayedBy]:
    """``(kernel(), KERNEL)``; when it raises :class:`EngineUnavailable`: with ``fallback``,
    ``(None, the reason)`` so that the caller plays the reference model, else the exception."""
    try:
        return kernel(), KERNEL
    except EngineUnavailable as exc:
        if not fallback:
            raise
        return None, PlayedBy(False, str(exc))


def source_sha256(source: Path = SOURCE) -> str:
    """The SHA-256 of ``kernel.c`` (or of another source): a library reports the one it was built from."""
    return hashlib.sha256(source.read_bytes()).hexdigest()


def portable_forced() -> bool:
    return os.environ.get("CARDCANON_PORTABLE_C", "") == "1"


def cflags() -> tuple[str, ...]:
    return CFLAGS + (("-DCARDCANON_PORTABLE_C",) if portable_forced() else ())


def defines(source: Path = SOURCE) -> dict[str, str]:
    """The SHA-256 values a library is built with (``setup.py`` passes the same): kernel.c's, and
    for another source built on it (``vector.c``) that source's own."""
    return {"CARDCANON_KERNEL_SHA256": source_sha256(), "CARDCANON_SOURCE_SHA256": source_sha256(source)}


def compile_command(cc: str, output: str, source: Path = SOURCE) -> list[str]:
    """The command that builds the kernel (``kernel_unit.c``), or another source (``vector.c``,
    which includes the kernel; ``exact.c``)."""
    macros = [f'-D{name}="{value}"' for name, value in defines(source).items()]
    return [cc, *cflags(), *macros, "-o", output, str(UNIT if source == SOURCE else source)]


def cache_dir() -> Path:
    return user_cache_dir() / "engine"


def compiler() -> str | None:
    for name in (os.environ.get("CC"), *COMPILERS):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def no_compiler() -> str:
    """Which compilers were looked for, where none was found."""
    cc = os.environ.get("CC")
    tried = ", ".join(COMPILERS)
    return (f"no C compiler found: CC={cc} is not a command, and none of {tried} is on PATH" if cc else
            f"no C compiler found: CC is not set, and none of {tried} is on PATH")


def library_path(cc: str, source: Path = SOURCE) -> Path:
    for path in dict.fromkeys((SOURCE, UNIT, PORTABLE, source)):
        if not path.exists():
            raise EngineUnavailable(f"the engine source {path} is missing from this installation")
    digest = hashlib.sha256()
    for path in dict.fromkeys((SOURCE, UNIT, PORTABLE, source)):
        digest.update(path.read_bytes())
    digest.update(" ".join((cc, *cflags(), platform.machine(), sys.platform)).encode())
    suffix = ".dll" if sys.platform == "win32" else ".so"
    return cache_dir() / f"{source.stem}-{digest.hexdigest()[:16]}{suffix}"


def build(source: Path = SOURCE) -> Path:
    """The path of the kernel (or of ``source``, built on it) compiled into the user cache, compiling
    it if needed."""
    cc = compiler()
    if cc is None:
        raise EngineUnavailable(f"{no_compiler()}; install one, or ask explicitly for the slow reference models")
    target = library_path(cc, source)
    try:
        private_dir(target.parent)
        if target.exists():
            check_private(target)
            return target
    except (UnsafeCacheError, OSError) as exc:
        raise EngineUnavailable(f"unsafe or unusable cache: {exc}") from None
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".building-", suffix=target.suffix)  # mode 0600
    os.close(fd)
    try:
        try:
            done = subprocess.run(compile_command(cc, tmp, source), capture_output=True, text=True,
                                  timeout=COMPILE_TIMEOUT, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise EngineUnavailable(f"compiling {source.name} with {cc} took more than {COMPILE_TIMEOUT:g} s") from None
        except OSError as exc:
            raise EngineUnavailable(f"cannot run the compiler {cc}: {exc.strerror or exc}") from None
        if done.returncode != 0:
            first = (done.stderr.strip().splitlines() or ["no message"])[0][:200]
            raise EngineUnavailable(f"compiling {source.name} with {cc} failed: {first}")
        os.replace(tmp, target)  # atomic: concurrent first uses never load a half-written file
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return target


def packaged(name: str = "_kernel") -> Path | None:
    """The library ``name`` built with the package, if there is one (never where the portable C
    fallbacks are forced: the package's are built with the builtins)."""
    if portable_forced():
        return None
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = Path(__file__).with_name(f"{name}{suffix}")
        if path.is_file():
            return path
    return None


def _open(path: Path) -> ctypes.CDLL:
    """Load ``path`` and declare its functions; EngineUnavailable unless it is this kernel.c's."""
    try:
        lib = ctypes.CDLL(str(path))
        abi.declare(lib)
    except (OSError, AttributeError) as exc:
        raise EngineUnavailable(f"cannot load the compiled kernel {path.name}: {exc}") from None
    if lib.cardcanon_kernel_source().decode() != source_sha256():
        raise EngineUnavailable(f"{path} was built from another version of kernel.c")
    return lib


_LIBRARY: ctypes.CDLL | None = None
_FAILURE: str | None = None  # why the kernel is unavailable, remembered for the process


def load() -> ctypes.CDLL:
    """The loaded kernel (found or built on first call); raises :class:`EngineUnavailable`."""
    global _LIBRARY, _FAILURE
    if _LIBRARY is not None:
        return _LIBRARY
    if os.environ.get("CARDCANON_ENGINE", "").lower() == "python":
        raise EngineUnavailable("the compiled kernel is disabled by CARDCANON_ENGINE=python")
    if _FAILURE is not None:
        raise EngineUnavailable(_FAILURE)
    try:
        prebuilt = packaged()
        try:
            _LIBRARY = _open(prebuilt) if prebuilt else None
        except EngineUnavailable:
            _LIBRARY = None  # e.g. an in-place build of an older kernel.c: build a fresh one
        if _LIBRARY is None:
            _LIBRARY = _open(build())
    except EngineUnavailable as exc:
        _FAILURE = f"the compiled kernel is not built: {exc}"
        raise EngineUnavailable(_FAILURE) from None
    return _LIBRARY


def available() -> bool:
    try:
        load()
    except EngineUnavailable:
        return False
    return True


def forget() -> None:
    """Forget the loaded library and any remembered failure (for tests)."""
    global _LIBRARY, _FAILURE
    _LIBRARY, _FAILURE = None, None
