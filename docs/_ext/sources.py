"""Source pages: the code of every test and proof that "Verified by" cites, so each citation
links to the code itself. One page per file, one section per test or check entry point."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

from rulebook_pages import esc, heading

from cardcanon.verify.manifest import load_manifests

ROOT = Path(__file__).resolve().parents[2]
PACKAGE_DIRS = {"cardcanon.proofs": "proofs", "cardcanon.proofs.hearts": "proofs/hearts",
                "cardcanon.proofs.snap": "proofs/snap", "cardcanon.model": "model", "cardcanon": "cardcanon",
                "cardcanon.verify": "cardcanon/verify"}


def label(name: str) -> str:
    return "src-" + re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def test_label(test: str) -> str:
    """``tests/test_x.py::Class::name`` (a trace citation) -> its section's label."""
    return label(test)


def check_label(check_id: str) -> str:
    return label("check-" + check_id)


def docname(path: str) -> str:
    return "source/" + re.sub(r"[^a-z0-9]+", "-", path.lower().removesuffix(".py")).strip("-")


@cache
def _spans(path: Path) -> dict[str, tuple[int, int]]:
    """``name`` and ``Class.name`` -> first and last line of each definition or assignment."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    spans: dict[str, tuple[int, int]] = {}

    def visit(body, prefix: str) -> None:
        for node in body:
            first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                spans[prefix + node.name] = (first, node.end_lineno or first)
                if isinstance(node, ast.ClassDef):
                    visit(node.body, prefix + node.name + ".")
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        spans[prefix + target.id] = (first, node.end_lineno or first)

    visit(tree.body, "")
    return spans


def _listing(path: str, obj: str) -> str:
    span = _spans(ROOT / path).get(obj)
    if span is None:
        return f"The definition of ``{obj}`` was not found in ``{path}``.\n\n"
    a, b = span
    return (f"``{path}``, lines {a} to {b}:\n\n.. literalinclude:: /../{path}\n   :language: python\n"
            f"   :lines: {a}-{b}\n   :lineno-start: {a}\n\n")


def entry_path(entry: str) -> tuple[str, str]:
    """``cardcanon.proofs.snap.p6_penalty:check`` -> (``proofs/snap/p6_penalty.py``, ``check``)."""
    module, func = entry.split(":")
    package, _, leaf = module.rpartition(".")
    return f"{PACKAGE_DIRS[package]}/{leaf}.py", func


def pages(ev) -> dict[str, str]:
    by_file: dict[str, list[str]] = {}
    for entry in ev.coverage.values():
        for test in entry.tests:
            by_file.setdefault(test.split("::")[0], []).append(test)
    out: dict[str, str] = {}
    for path, tests in sorted(by_file.items()):
        text = [heading(f"Source: {path}", "=", over=True),
                "The tests of this file that cite rules, with their code. The whole file is in the "
                "repository at the same path.\n\n"]
        for test in sorted(set(tests)):
            name = "::".join(test.split("::")[1:])
            text.append(f".. _{test_label(test)}:\n\n" + heading(esc(name), "-"))
            text.append(_listing(path, name.replace("::", ".")))
        out[docname(path) + ".rst"] = "".join(text)
    checks_by_file: dict[str, list] = {}
    for check in load_manifests(resolve=False):
        checks_by_file.setdefault(entry_path(check.entry)[0], []).append(check)
    for path, checks in sorted(checks_by_file.items()):
        text = [heading(f"Source: {path}", "=", over=True),
                "The entry points of the checks defined in this file, as ``cardcanon verify`` calls them "
                "(the manifest is ``proofs/manifest/``), then the whole file.\n\n"]
        for check in checks:
            func = entry_path(check.entry)[1]
            text.append(f".. _{check_label(check.id)}:\n\n" + heading(f"{check.id}: ``{func}``", "-"))
            text.append(_listing(path, func))
        text.append(heading("The whole file", "-") + f".. literalinclude:: /../{path}\n   :language: python\n"
                    "   :linenos:\n\n")
        out[docname(path) + ".rst"] = "".join(text)
    index = [heading("Source code of the tests and checks", "=", over=True),
             "Every test and check that a rule's \"Verified by\" cites, with its code.\n\n",
             ".. toctree::\n   :maxdepth: 1\n\n"]
    index += [f"   {name.removesuffix('.rst').removeprefix('source/')}\n" for name in sorted(out)]
    out["source/index.rst"] = "".join(index) + "\n"
    return out
