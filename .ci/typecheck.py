"""``mypy --strict -p cardcanon`` on the package laid out as installed.

pyproject.toml maps ``cardcanon.spec``, ``cardcanon.model`` and ``cardcanon.proofs`` to the
top-level ``spec/``, ``model/`` and ``proofs/`` folders; an editable install hides that mapping
from mypy. This stages the packages as a wheel would hold them (the ``[tool.setuptools]``
``packages``, ``package-dir`` and ``py.typed``) in a temporary folder and checks them there.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def stage(target: Path) -> None:
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    mapping: dict[str, str] = setup.get("package-dir", {})
    for package in setup["packages"]:
        parent = package.rpartition(".")[0]
        source = ROOT / mapping[package] if package in mapping else (
            ROOT / mapping.get(parent, parent.replace(".", "/")) / package.rpartition(".")[2])
        destination = target / package.replace(".", "/")
        destination.mkdir(parents=True, exist_ok=True)
        for path in [*source.glob("*.py"), *source.glob("py.typed")]:
            shutil.copy2(path, destination / path.name)


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder)
        stage(target)
        if not (target / "cardcanon" / "py.typed").is_file():
            print("cardcanon/py.typed is missing", file=sys.stderr)
            return 1
        return subprocess.call([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                                "--strict", "--no-incremental", "-p", "cardcanon", *sys.argv[1:]], cwd=target)


if __name__ == "__main__":
    sys.exit(main())
