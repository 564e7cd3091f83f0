"""Source pages: the code of every test and proof that "Verified by" cites, so each citation
links to the code itself. One page per file, one section per test or check entry point."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

from rulebook_pages import esc, heading

from cardcanon.manifest import load_manifests

ROOT = Path(__file__).resolve().parents[2]
PACKAGE_DIRS = {"cardcanon.proofs": "proofs", "cardcanon.model": "model", "cardcanon": "cardcanon"}


def label(name: str) -> str:
    return "src-" + re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def test_label(test: str) -> str:
    """``tests/test_x.py::Class::name`` (a trace citation) -> its section's label."""
    return label(test)


def check_label(check_id: str) -> str:
    return label("check-" + check_id)


def enclosing(path: str, line: int) -> str | None:
    """The innermost definition in ``path`` (``name`` or ``Class.name``) whose lines hold ``line``."""
    inside = [(b - a, name) for name, (a, b) in _spans(ROOT / path).items() if a <= line <= b]
    return min(inside)[1] if inside else None


def model_label(ref: str) -> str:
    """``model/hearts.py:276`` (a trace citation of the model code) -> the label of its listing
    (with the definition's first line: labels ignore case, and ``Tie`` and ``tie`` both exist)."""
    path, line = ref.rsplit(":", 1)
    return _def_label(path, enclosing(path, int(line)))


def _def_label(path: str, name: str | None) -> str:
    return label(f"{path}-{name}-{_spans(ROOT / path)[name][0]}" if name else f"{path}-module")


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
    """``cardcanon.proofs.snap_pot:check`` -> (``proofs/snap_pot.py``, ``check``)."""
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
    out.update(_model_pages(ev))
    index = [heading("Source code of the tests, checks and model", "=", over=True),
             "Every test, check and place in the model code that a rule's \"Verified by\" cites, with its "
             "code.\n\n",
             ".. toctree::\n   :maxdepth: 1\n\n"]
    index += [f"   {name.removesuffix('.rst').removeprefix('source/')}\n" for name in sorted(out)]
    out["source/index.rst"] = "".join(index) + "\n"
    return out


def _model_pages(ev) -> dict[str, str]:
    """One page per model file: each definition that a rule cites, its cited lines marked."""
    cited: dict[str, dict[str, set[int]]] = {}
    for entry in ev.coverage.values():
        for ref in entry.model:
            path, line = ref.rsplit(":", 1)
            cited.setdefault(path, {}).setdefault(enclosing(path, int(line)) or "", set()).add(int(line))
    out = {}
    for path, defs in sorted(cited.items()):
        text = [heading(f"Source: {path}", "=", over=True),
                "The definitions of the reference model that rules cite, the cited lines highlighted. The whole "
                "file is in the repository at the same path.\n\n"]
        for name, lines in sorted(defs.items(), key=lambda kv: min(kv[1])):
            text.append(f".. _{_def_label(path, name or None)}:\n\n")
            if not name:
                text.append(heading("Module level", "-"))
                text += [f"Line {n}:\n\n.. literalinclude:: /../{path}\n   :language: text\n   :lines: {n}-{n}\n"
                         f"   :lineno-start: {n}\n\n" for n in sorted(lines)]
                continue
            a, b = _spans(ROOT / path)[name]
            text.append(heading(f"``{name}``", "-") + f"``{path}``, lines {a} to {b}; cited: "
                        + ", ".join(str(n) for n in sorted(lines)) + ".\n\n"
                        f".. literalinclude:: /../{path}\n   :language: python\n   :lines: {a}-{b}\n"
                        f"   :lineno-start: {a}\n   :emphasize-lines: "
                        + ",".join(str(n - a + 1) for n in sorted(lines)) + "\n\n")
        out[docname(path) + ".rst"] = "".join(text)
    return out
