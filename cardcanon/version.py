"""The version of this build, as the repository records it: one string on every surface.

The scheme (PEP 440). The version is the one in ``pyproject.toml``; the changelog
(``docs/changelog.rst``) says whether it is released.

- A release (``0.2.0``) has its own dated section in the changelog, ``0.2.0 (2026-12-01)``: the
  release is the commit that dated it.
- Between releases ``pyproject.toml`` names the next one as a development version
  (``0.3.0.dev0``), and the changelog's first section is ``Unreleased``.

The version never depends on a git tag, nor on the commit: the commit (with ``-dirty`` when the
tree has uncommitted changes) is recorded beside it, and the citation files name it as a
Software Heritage identifier (:func:`swhid`). Outside a git checkout (an installed wheel) the
commit is ``unknown``.

The CLI's ``--version``, the verify report, the site's header, ``rules.json``, the PDFs, the
``CITATION.cff`` and BibTeX, and the provenance of results all take the version from
:func:`build_info`.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
CHANGELOG = _ROOT / "docs" / "changelog.rst"
_SECTION = re.compile(r"^(\S+) \((\d{4}-\d\d-\d\d)\)\n-+$|^(Unreleased)\n-+$", re.M)


@dataclass(frozen=True)
class BuildInfo:
    """What a build is: its version, commit (full hash, ``-dirty`` added for uncommitted changes,
    or ``unknown``) and date (the release's date, or the commit's, YYYY-MM-DD)."""

    version: str
    commit: str
    date: str
    released: bool  # the version is a release with a dated changelog section

    @property
    def dirty(self) -> bool:
        return self.commit.endswith("-dirty")


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(["git", *args], cwd=_ROOT, capture_output=True, text=True, timeout=10,
                              env={**os.environ, "TZ": "UTC"})
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def _pyproject_version() -> str | None:
    """The version in ``pyproject.toml`` of a source checkout (the installed metadata may be older)."""
    import tomllib

    path = _ROOT / "pyproject.toml"
    if not path.is_file():
        return None
    with open(path, "rb") as handle:
        found = tomllib.load(handle).get("project", {}).get("version")
    return str(found) if found else None


def _installed_version() -> str:
    """The version in the installed package's metadata (a wheel has no ``pyproject.toml``)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("cardcanon")
    except PackageNotFoundError:  # pragma: no cover - an uninstalled tree without pyproject.toml
        return "0+unknown"


def changelog_sections(text: str) -> list[tuple[str, str]]:
    """The changelog's sections in order: ``(version, date)``, or ``("Unreleased", "")``."""
    return [(m.group(3), "") if m.group(3) else (m.group(1), m.group(2)) for m in _SECTION.finditer(text)]


def release_date(version: str, changelog: str) -> str:
    """The date of ``version``'s changelog section, or "" when it has none (not released)."""
    return next((date for name, date in changelog_sections(changelog) if name == version), "")


def swhid(commit: str) -> str:
    """The Software Heritage identifier of a commit: ``swh:1:rev:<40 hex digits>``."""
    return f"swh:1:rev:{commit.removesuffix('-dirty')}"


@lru_cache(maxsize=1)
def build_info() -> BuildInfo:
    """The version, commit and date of the code this process runs."""
    version = _pyproject_version() or _installed_version()
    log = CHANGELOG.read_text(encoding="utf-8") if CHANGELOG.is_file() else ""
    released = release_date(version, log)
    head = _git("rev-parse", "HEAD") if (_ROOT / ".git").exists() else None
    if head is None:  # an installed wheel: no changelog, no commit; a release has no ".dev"
        return BuildInfo(version, "unknown", released, bool(released) or (not log and ".dev" not in version))
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no"))
    date = released or _git("show", "-s", "--date=format-local:%Y-%m-%d", "--format=%cd", "HEAD") or ""
    return BuildInfo(version, head + ("-dirty" if dirty else ""), date, bool(released))
