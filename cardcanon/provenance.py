"""Where a result came from: the version, commit, kernel and command that made it.

Every result and benchmark file written by the project carries :func:`provenance` under the key
``"provenance"``, so a reader can tell which code produced a figure and whether it is current.
"""

from __future__ import annotations

import datetime
import os
import platform
import shlex
import sys
from pathlib import Path
from typing import Any

from cardcanon.version import build_info



def kernel_sha256() -> str:
    """The SHA-256 of the engine's C source (the kernel a compiled result ran on)."""
    from cardcanon.engine.build import source_sha256

    return source_sha256()


def provenance(command: str | None = None) -> dict[str, Any]:
    """The provenance record of a result made now by ``command`` (default: this process's argv)."""
    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except (OSError, AttributeError):  # pragma: no cover - Windows has no load average
        load = []
    build = build_info()
    program = Path(sys.argv[0])
    name = f"python -m {program.parent.name}" if program.name == "__main__.py" else program.name
    return {
        "version": build.version,
        "commit": build.commit,
        "kernel_sha256": kernel_sha256(),
        "command": command if command is not None else " ".join([name, shlex.join(sys.argv[1:])]).strip(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "python": platform.python_version(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "load_average": load,
    }
