"""SNAP-P18 and HEARTS-P13: the environments' step code against the model. They pass on the
compiled code as it is, fail on step code with a rule broken (a batched Snap draw scoring -1),
and are not applicable where the compiled code cannot run."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")

from cardcanon.engine import build, vector  # noqa: E402
from cardcanon.proofs.base import Budget, Run, Verdict  # noqa: E402
from cardcanon.verify import environments  # noqa: E402

SNAP_BOUNDS = {"players": [3], "slots": 1024, "per_ending": 1, "max_steps": 1000, "seed": 0}
DRAW = "rewards[i] = over && ending[1] == T_NONE ? 0.0f : -1.0f;"


def run(bounds: dict, variant: dict | None = None) -> Run:
    return Run(variant=variant or {}, bounds=bounds, budget=Budget(600))


@pytest.mark.needs_kernel
def test_the_environments_play_as_the_model_does():
    assert environments.check_snap(run(SNAP_BOUNDS)).verdict is Verdict.PROVED
    assert environments.check_hearts(run({"slots": 16, "per_ending": 1})).verdict is Verdict.PROVED
    result = environments.check_snap(run({**SNAP_BOUNDS, "players": [2]}, {"index_card": "on"}))
    assert result.verdict is Verdict.PROVED and "draw" not in (result.witness or "")  # SNAP-INDEX-1: no ties


@pytest.mark.needs_kernel
def test_a_batched_snap_draw_that_scores_minus_one_fails_the_check(tmp_path, monkeypatch):
    source = vector.SOURCE.read_text(encoding="utf-8")
    assert source.count(DRAW) == 1
    broken = source.replace(DRAW, "rewards[i] = -1.0f;").replace(
        '#include "kernel_unit.c"', f'#include "{build.UNIT}"')
    path = tmp_path / "vector.c"
    path.write_text(broken, encoding="utf-8")
    monkeypatch.setattr(vector, "SOURCE", path)
    monkeypatch.setattr(vector, "_LIBRARY", None)
    result = environments.check_snap(run(SNAP_BOUNDS))
    assert result.verdict is Verdict.COUNTEREXAMPLE and "draw game" in result.detail, result.detail
    assert "rewards" in result.detail


def test_without_the_compiled_code_the_check_is_not_applicable(monkeypatch):
    def unavailable() -> None:
        raise build.EngineUnavailable("disabled for this test")

    monkeypatch.setattr(vector, "_LIBRARY", None)
    monkeypatch.setattr(vector, "library", unavailable)
    result = environments.check_snap(run(SNAP_BOUNDS))
    assert result.verdict is Verdict.NOT_APPLICABLE and "cannot run" in result.detail
    from cardcanon.engine import hearts as engine_hearts

    def refuse(config: object) -> None:
        raise build.EngineUnavailable("disabled for this test")

    monkeypatch.setattr(engine_hearts, "_kernel", refuse)
    assert environments.check_hearts(run({"slots": 4})).verdict is Verdict.NOT_APPLICABLE


def test_without_the_environments_packages_the_check_is_not_applicable(monkeypatch):
    """Installed without the rl extra (no numpy, Gymnasium or PettingZoo), verify loads the check and
    reports it not applicable, naming the extra, instead of refusing the manifest."""
    real = environments.importlib.import_module

    def without_numpy(name: str, *args, **kwargs):
        if name.startswith("cardcanon.envs"):
            raise ModuleNotFoundError("No module named 'numpy'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(environments.importlib, "import_module", without_numpy)
    result = environments.check_snap(run(SNAP_BOUNDS))
    assert result.verdict is Verdict.NOT_APPLICABLE and "cardcanon[rl]" in result.detail, result.detail
