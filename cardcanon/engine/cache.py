"""The per-user cache folder, and the checks that make loading from it safe.

The folder is ``$CARDCANON_CACHE``, else ``$XDG_CACHE_HOME/cardcanon``, else
``~/.cache/cardcanon`` (the XDG base-directory convention). Whatever cardcanon loads or
executes from it (the compiled engine) must be owned by the current user and writable by nobody
else, and so must the folder it sits in; :func:`private_dir` creates missing folders that way
and refuses one that is not.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from cardcanon.spec.errors import CardcanonError


class UnsafeCacheError(CardcanonError):
    """A cache folder or file that another user could have written."""


def user_cache_dir() -> Path:
    if os.environ.get("CARDCANON_CACHE"):
        return Path(os.environ["CARDCANON_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or ""
    if not os.path.isabs(base):  # the XDG convention: a relative value is ignored
        base = str(Path.home() / ".cache")
    return Path(base) / "cardcanon"


def private_dir(path: Path) -> Path:
    """``path``, created (mode 0700) if missing, checked to be the user's and writable by no one else."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    check_private(path, folder=True)
    return path


def check_private(path: Path, folder: bool = False) -> None:
    """Raise :class:`UnsafeCacheError` unless ``path`` is the user's own and not group/world-writable."""
    if not hasattr(os, "getuid"):  # Windows: the per-user profile folder is private already
        return
    try:
        info = path.lstat()
    except OSError as exc:
        raise UnsafeCacheError(f"{path}: cannot check the cache: {exc.strerror}") from None
    kind_ok = stat.S_ISDIR(info.st_mode) if folder else stat.S_ISREG(info.st_mode)
    if not kind_ok:
        what = "a folder" if folder else "a regular file"
        raise UnsafeCacheError(f"{path}: the cache expects {what} here (not a link or anything else)")
    if info.st_uid != os.getuid():
        raise UnsafeCacheError(f"{path}: owned by another user (uid {info.st_uid}); refusing to use it")
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise UnsafeCacheError(f"{path}: writable by other users (mode {stat.filemode(info.st_mode)}); "
                               f"refusing to use it (chmod go-w fixes it)")

