"""What a new user meets on a fresh machine: CI runs the README's commands exactly as written,
every test imports its helpers the same way, and POSIX-only calls stay inside a branch that
guards them (so that Windows gets the same answers, or is told why not)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CI = ROOT / ".ci" / "run"


def readme_commands() -> list[str]:
    """The two commands at the top of the README (install, then verify; install, then test)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", text, re.S)
    assert block, "the README opens with a shell block"
    return [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]


def test_ci_runs_the_readmes_commands_exactly_as_written():
    commands = readme_commands()
    assert commands == ["pip install -e '.[dev]' && cardcanon verify", "pip install -e '.[dev]' && pytest"]
    script = [line.strip() for line in CI.read_text(encoding="utf-8").splitlines()]
    for command in commands:
        assert any(line == command or line.endswith(f"'{command}'") or line.endswith(f'"{command}"')
                   for line in script), f".ci/run does not run the README's command: {command}"


def test_every_test_imports_its_helpers_the_same_way():
    """``from tests.x import ...`` works only where the current folder is on sys.path
    (``python -m pytest``), not for the README's ``pytest``: helpers are imported by module name."""
    found = [f"{path.name}:{n}" for path in sorted((ROOT / "tests").rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if re.match(r"\s*(from tests[.\s]|import tests\b)", line)]
    assert not found, found


# ---- POSIX-only calls --------------------------------------------------------------------------
POSIX_ATTRIBUTES = {"os": {"getuid", "geteuid", "getgid", "getegid", "fork", "forkpty", "setsid", "killpg", "getpgid",
                           "setpgrp", "setpgid", "chown", "lchown", "uname", "getloadavg", "sched_getaffinity",
                           "mkfifo", "nice", "pipe2", "sync", "statvfs", "wait3", "wait4", "WNOHANG"},
                    "signal": {"SIGKILL", "SIGALRM", "SIGHUP", "SIGUSR1", "SIGUSR2", "SIGCHLD", "SIGPIPE", "alarm",
                               "setitimer", "pthread_kill"}}
POSIX_MODULES = {"fcntl", "termios", "tty", "pty", "resource", "pwd", "grp", "posix", "selectors", "crypt"}
POSIX_KEYWORDS = {"pass_fds", "preexec_fn"}
PLATFORM_TEST = re.compile(r"os\.name|sys\.platform|platform\.system|hasattr\((os|signal)\b")
GUARD_ERRORS = {"AttributeError", "ImportError", "ModuleNotFoundError", "OSError", "NotImplementedError"}
SOURCES = ["cardcanon", "model", "proofs", "spec", "conformance", "docs", "examples", ".ci"]


def _posix_uses(tree: ast.AST) -> list[tuple[ast.AST, str]]:
    uses: list[tuple[ast.AST, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.attr in POSIX_ATTRIBUTES.get(node.value.id, ()):
            uses.append((node, f"{node.value.id}.{node.attr}"))
        elif isinstance(node, ast.Import):
            uses += [(node, alias.name) for alias in node.names if alias.name.split(".")[0] in POSIX_MODULES]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in POSIX_MODULES:
            uses.append((node, str(node.module)))
        elif isinstance(node, ast.keyword) and node.arg in POSIX_KEYWORDS:
            uses.append((node, f"{node.arg}="))
    return uses


def _catches(handler: ast.ExceptHandler) -> set[str]:
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return {kind.id for kind in kinds if isinstance(kind, ast.Name)}


def _exits(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], (ast.Return, ast.Raise))


def _guarded(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Inside a platform test, inside a ``try`` that catches the error of a missing call, or after
    an early ``if <platform test>: return/raise`` in an enclosing block."""
    child, parent = node, parents.get(node)
    while parent is not None:
        if isinstance(parent, (ast.If, ast.IfExp)) and PLATFORM_TEST.search(ast.unparse(parent.test)) \
                and child is not parent.test:
            return True
        if isinstance(parent, ast.Try) and child in parent.body \
                and any(_catches(h) & GUARD_ERRORS for h in parent.handlers):
            return True
        for field in ("body", "orelse"):
            block = getattr(parent, field, None)
            if isinstance(block, list) and child in block:
                for earlier in block[:block.index(child)]:
                    if isinstance(earlier, ast.If) and PLATFORM_TEST.search(ast.unparse(earlier.test)) \
                            and _exits(earlier.body):
                        return True
        child, parent = parent, parents.get(parent)
    return False


def posix_only(source: str) -> tuple[list[str], list[str]]:
    """The POSIX-only calls of ``source``: (guarded, unguarded), each as ``line: name``."""
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    guarded, unguarded = [], []
    for node, name in _posix_uses(tree):
        (guarded if _guarded(node, parents) else unguarded).append(f"{getattr(node, 'lineno', '?')}: {name}")
    return guarded, unguarded


def test_the_scan_finds_an_unguarded_posix_call_and_accepts_a_guarded_one():
    _, unguarded = posix_only("import os\nuid = os.getuid()\n")
    assert unguarded == ["2: os.getuid"]
    guarded, unguarded = posix_only("import os\n"
                                    "def f():\n    if not hasattr(os, 'getuid'):\n        return 0\n    return os.getuid()\n"
                                    "def g():\n    try:\n        return os.getloadavg()\n    except (OSError, AttributeError):\n"
                                    "        return ()\n"
                                    "def h(cmd):\n    if os.name == 'posix':\n        run(cmd, pass_fds=(3,))\n")
    assert (guarded, unguarded) == (["5: os.getuid", "8: os.getloadavg", "13: pass_fds="], [])


def test_posix_only_calls_are_all_guarded():
    """Every POSIX-only call of the package, the docs tools, the examples and CI's scripts is inside
    a branch that guards it; a new unguarded one fails here."""
    found: dict[str, list[str]] = {}
    unguarded: list[str] = []
    for folder in SOURCES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "_build" in path.parts:
                continue
            guarded, bare = posix_only(path.read_text(encoding="utf-8"))
            name = path.relative_to(ROOT).as_posix()
            found.update({name: guarded} if guarded else {})
            unguarded += [f"{name}:{use}" for use in bare]
    assert not unguarded, unguarded
    # the known ones are found (the scan is not looking at nothing)
    assert {"cardcanon/engine/cache.py", "docs/cdp.py", "cardcanon/provenance.py"} <= set(found), found
