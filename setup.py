"""Compile the engine's libraries into the package where a C compiler exists.

Two libraries, loaded with ctypes, not imported: the kernel (``kernel_unit.c``: ``portable.h``,
then ``kernel.c``) and the batched Snap (``vector.c``, built on the kernel). Both are optional:
without a compiler the package still installs (setuptools warns), and the engine compiles them
at first use into the user cache where a compiler appears later, or says in one line why it is
unavailable; see cardcanon/engine/build.py. Each library reports the SHA-256 of its sources and
is used only if they are this package's.
"""

import hashlib
import os
from pathlib import Path

from setuptools import Extension, setup

ENGINE = Path("cardcanon") / "engine"


def sha256(name: str) -> str:
    return hashlib.sha256((ENGINE / name).read_bytes()).hexdigest()


def library(name: str, source: str, defines: dict[str, str]) -> Extension:
    return Extension(
        f"cardcanon.engine.{name}", [str(ENGINE / source)],
        depends=[str(ENGINE / f) for f in ("kernel.c", "kernel_unit.c", "portable.h")],
        define_macros=[(macro, f'"{value}"') for macro, value in defines.items()],
        extra_compile_args=[] if os.name == "nt" else ["-O3", "-std=c99"],
        optional=True,
    )


KERNEL = sha256("kernel.c")
setup(ext_modules=[
    library("_kernel", "kernel_unit.c", {"CARDCANON_KERNEL_SHA256": KERNEL}),
    library("_vector", "vector.c", {"CARDCANON_KERNEL_SHA256": KERNEL, "CARDCANON_SOURCE_SHA256": sha256("vector.c")}),
])
