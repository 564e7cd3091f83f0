"""The version of this build: a release, or a development build that says so.

The scheme (PEP 440). ``pyproject.toml`` names the latest release (``0.2.0``), whose changes the
changelog lists under that version; the release is the commit tagged ``v0.2.0``.

- At that tag, with a clean tree: ``0.2.0``.
- After the tag: ``0.2.1.dev<N>+g<commit>``, ``N`` the commits since the tag: a development
  build on the way to the next release.
- Before the tag is made: ``0.2.0.dev<N>+g<commit>``, ``N`` the commits of the history.
- A tree with uncommitted changes adds ``.dirty``: ``0.2.1.dev3+g1a2b3c4.dirty``.
- Outside a git checkout (an installed wheel): the package metadata's version.

The site's header, ``rules.json``, the ``CITATION.cff`` and BibTeX of the downloads page, and
the provenance of results all take the version from :func:`build_info`.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cardcanon

_ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class BuildInfo:
    """What a build is: its version string, commit (full hash, or ``unknown``) and commit date."""

    version: str
    commit: str
    date: str  # the commit's date, YYYY-MM-DD (UTC)
    released: bool  # the build is exactly the tagged release


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(["git", *args], cwd=_ROOT, capture_output=True, text=True, timeout=10,
                              env={**os.environ, "TZ": "UTC"})
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def next_patch(release: str) -> str:
    """``0.2.0`` -> ``0.2.1``: the release a development build after ``release`` leads to."""
    parts = release.split(".")
    return ".".join([*parts[:-1], str(int(parts[-1]) + 1)])


def version_of(release: str, commit: str, since_tag: int | None, total: int, dirty: bool) -> str:
    """The version string of a build (the scheme in this module's docstring)."""
    if since_tag == 0 and not dirty:
        return release
    base, count = (release, total) if since_tag is None else (next_patch(release), since_tag)
    label = f"g{commit[:7]}" + (".dirty" if dirty else "")
    return f"{base}.dev{count}+{label}"


def _pyproject_version() -> str | None:
    """The version in ``pyproject.toml`` of a source checkout (the installed metadata may be older)."""
    import tomllib

    path = _ROOT / "pyproject.toml"
    if not path.is_file():
        return None
    with open(path, "rb") as handle:
        found = tomllib.load(handle).get("project", {}).get("version")
    return str(found) if found else None


@lru_cache(maxsize=1)
def build_info() -> BuildInfo:
    """The version, commit and date of the code this process runs."""
    release = _pyproject_version() or cardcanon.__version__
    head = _git("rev-parse", "HEAD")
    if head is None or not (_ROOT / ".git").exists():
        return BuildInfo(release, "unknown", "", True)
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no"))
    tag = f"v{release}"
    since = _git("rev-list", "--count", f"{tag}..HEAD") if _git("rev-parse", "-q", "--verify", f"refs/tags/{tag}") else None
    total = int(_git("rev-list", "--count", "HEAD") or 0)
    date = _git("show", "-s", "--date=format-local:%Y-%m-%d", "--format=%cd", "HEAD") or ""
    version = version_of(release, head, int(since) if since is not None else None, total, dirty)
    return BuildInfo(version, head + ("-dirty" if dirty else ""), date, version == release)
