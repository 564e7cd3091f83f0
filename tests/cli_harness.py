"""Run the ``cardcanon`` command line in-process (or, when it may hang, in a child process) and
classify what happened: the helpers behind the bad-input tests and the CLI fuzz test."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from cardcanon.cli import main



@dataclass(frozen=True)
class Run:
    status: int | None  # None: still running when stopped (a hang)
    stdout: str
    stderr: str
    crashed: bool = False  # an exception escaped main(): a traceback for the user

    @property
    def traceback(self) -> bool:
        return self.crashed or "Traceback (most recent call last)" in self.stderr


def run_inprocess(argv: list[str], entry=main) -> Run:
    """``entry(argv)`` (the ``cardcanon`` command line unless another ``main`` is given) in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = entry(argv)
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
            if not isinstance(exc.code, int) and exc.code is not None:
                err.write(f"{exc.code}\n")
        except BaseException as exc:  # noqa: BLE001 - the point is to see what escapes
            return Run(1, out.getvalue(), err.getvalue() + f"Traceback (most recent call last)\n{exc!r}\n", True)
    return Run(status, out.getvalue(), err.getvalue())


def run_child(argv: list[str], timeout: float, cwd: str | Path | None = None) -> Run:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    try:
        done = subprocess.run([sys.executable, "-m", "cardcanon", *argv], capture_output=True, text=True,
                              timeout=timeout, cwd=cwd, env=env)
    except subprocess.TimeoutExpired as exc:
        return Run(None, _text(exc.stdout), _text(exc.stderr))
    return Run(done.returncode, done.stdout, done.stderr)


def _text(data) -> str:
    return data.decode(errors="replace") if isinstance(data, bytes) else (data or "")


def write_json(path: Path, data) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path
