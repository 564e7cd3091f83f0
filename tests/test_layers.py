"""The layers import downward only: the rulebook (``cardcanon.spec``) imports nothing else of
cardcanon; the reference models (``cardcanon.model``) only the rulebook; the engine and the
proofs only models and rulebook; the commands (the rest of ``cardcanon``) anything."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# folder -> (its package, the cardcanon packages it may import)
LAYERS = {
    "spec": ("cardcanon.spec", ("cardcanon.spec",)),
    "model": ("cardcanon.model", ("cardcanon.spec", "cardcanon.model")),
    "cardcanon/engine": ("cardcanon.engine", ("cardcanon.spec", "cardcanon.model", "cardcanon.engine")),
    "proofs": ("cardcanon.proofs", ("cardcanon.spec", "cardcanon.model", "cardcanon.proofs")),
}


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """Every module a file imports (top-level or inside functions), with its line."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found += [(node.lineno, node.module)]
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names if node.module == "cardcanon"]
    return found


def _allowed(module: str, allowed: tuple[str, ...]) -> bool:
    if module == "cardcanon" or not module.startswith("cardcanon."):
        return True  # the version-only package itself, or another distribution
    return any(module == a or module.startswith(a + ".") for a in allowed)


@pytest.mark.parametrize("folder", LAYERS)
def test_layers_import_downward_only(folder):
    _, allowed = LAYERS[folder]
    files = sorted((ROOT / folder).rglob("*.py"))
    assert files
    wrong = [f"{path.relative_to(ROOT)}:{line}: imports {module}" for path in files
             for line, module in imported_modules(path) if not _allowed(module, allowed)]
    assert wrong == []


def test_the_check_sees_a_wrong_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from cardcanon.engine import snap\n    import cardcanon.cli\n", encoding="utf-8")
    modules = [module for _, module in imported_modules(bad)]
    assert not any(_allowed(m, LAYERS["model"][1]) for m in modules)


# ---- inside the model: imports at the top of the file only, and no cycle -------------------------
def model_imports(path: Path) -> tuple[list[str], list[tuple[int, str]]]:
    """(the model modules ``path`` imports at its top level, those it imports inside a function or
    class, with their lines). ``if TYPE_CHECKING:`` blocks import nothing at run time."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
    inner = [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom)) and node not in top
             and not _type_checking_only(tree, node)]

    def names(node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            found = [alias.name for alias in node.names]
        elif node.module == "cardcanon.model":
            found = [f"cardcanon.model.{alias.name}" for alias in node.names]
        else:
            found = [node.module or ""]
        return [name for name in found if name.startswith("cardcanon.model.")]

    return ([name for node in top for name in names(node)],
            [(node.lineno, name) for node in inner for name in names(node)])


def _type_checking_only(tree: ast.Module, node: ast.AST) -> bool:
    return any(isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING" and node in ast.walk(block)
               for block in tree.body)


MODEL_FILES = sorted((ROOT / "model").glob("*.py"))


def test_model_modules_import_each_other_only_at_the_top():
    inner = [f"model/{path.name}:{line}: imports {name} inside a function" for path in MODEL_FILES
             for line, name in model_imports(path)[1]]
    assert inner == []


def test_model_modules_import_each_other_without_a_cycle():
    graph = {f"cardcanon.model.{path.stem}": set(model_imports(path)[0]) for path in MODEL_FILES}
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, "import cycle: " + " -> ".join((*path[path.index(module):], module))
        if module in done:
            return
        for imported in sorted(graph.get(module, ())):
            visit(imported, (*path, module))
        done.add(module)

    for module in sorted(graph):
        visit(module, ())


def test_the_model_checks_see_an_inner_import_and_a_cycle(tmp_path):
    (tmp_path / "a.py").write_text("from cardcanon.model import b\ndef f():\n    from cardcanon.model import c\n")
    top, inner = model_imports(tmp_path / "a.py")
    assert top == ["cardcanon.model.b"] and inner == [(3, "cardcanon.model.c")]
