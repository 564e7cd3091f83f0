"""The layout of the checks: one module per check ID under ``proofs/<game>/``, and no check
imports another check (shared pieces live in the per-game common modules)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from cardcanon.verify.manifest import load_manifests

ROOT = Path(__file__).resolve().parent.parent
CHECK_MODULE = re.compile(r"^p\d+_\w+$")


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found


def test_no_check_imports_another_check() -> None:
    wrong = []
    for path in sorted(ROOT.glob("proofs/*/*.py")):
        for module in _imports(path):
            parts = module.split(".")
            if parts[:2] == ["cardcanon", "proofs"] and any(CHECK_MODULE.match(p) for p in parts[3:4]):
                wrong.append(f"{path.relative_to(ROOT)} imports {module}")
    assert wrong == []


def test_the_checker_sees_a_check_import(tmp_path: Path) -> None:
    bad = tmp_path / "p1_bad.py"
    bad.write_text("from cardcanon.proofs.snap.p2_deal import check\n", encoding="utf-8")
    assert "cardcanon.proofs.snap.p2_deal" in _imports(bad)


def test_every_check_of_proofs_has_a_module_named_after_it() -> None:
    """``SNAP-P15-end2-winner`` is ``cardcanon.proofs.snap.p15_end2_winner:check``; the engine checks
    and the environments check live with the engine's part of verify (the engine sits above the models)."""
    for check in load_manifests():
        module, _, function = check.entry.partition(":")
        if module in ("cardcanon.verify.engine", "cardcanon.verify.engine_text", "cardcanon.verify.environments"):
            continue
        slug = check.id.split("-", 1)[1].lower().replace("-", "_")
        assert (module, function) == (f"cardcanon.proofs.{check.game}.{slug}", "check"), check.id


MEMO = re.compile(r"lru_cache|functools\.cache\b|@cache\b|^_?[A-Z_]+: dict\[.*\] = \{\}", re.M)


def _memos(text: str) -> list[str]:
    return [m.group(0) for m in MEMO.finditer(text)]


def test_checks_keep_nothing_across_runs_but_through_run_cached_and_the_model_memo() -> None:
    """Results go through ``Run.cached`` (``base.py``) and what is derived from a model through the
    one model memo (``proofs.symbolic.memo.ModelMemo``); no other memo."""
    found = [f"{path.relative_to(ROOT)}: {memo}" for path in sorted(ROOT.glob("proofs/**/*.py"))
             if path.name != "base.py" for memo in _memos(path.read_text(encoding="utf-8"))]
    assert found == []


@pytest.mark.parametrize("stray", ["@functools.cache\ndef f(): ...", "@functools.lru_cache(maxsize=4)\ndef f(): ...",
                                   "from functools import cache\n@cache\ndef f(): ...", "_TERMS: dict[int, Z3] = {}"])
def test_the_checker_sees_a_stray_memo(stray: str) -> None:
    assert _memos(stray) != []
