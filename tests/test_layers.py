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
