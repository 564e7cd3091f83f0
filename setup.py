"""Compile the engine's kernel into the wheel where a C compiler exists.

The extension is optional: without a compiler the package still installs, and the kernel is
compiled at first use into the user cache (or the engine falls back to the reference models);
see cardcanon/engine/build.py. The library is loaded with ctypes, not imported.
"""

import hashlib
import os
from pathlib import Path

from setuptools import Extension, setup

SOURCE = Path("cardcanon") / "engine" / "kernel.c"
SHA256 = hashlib.sha256(SOURCE.read_bytes()).hexdigest()

setup(ext_modules=[Extension(
    "cardcanon.engine._kernel", [str(SOURCE)],
    define_macros=[("CARDCANON_KERNEL_SHA256", f'"{SHA256}"')],
    extra_compile_args=[] if os.name == "nt" else ["-O3", "-std=c99"],
    optional=True,
)])
