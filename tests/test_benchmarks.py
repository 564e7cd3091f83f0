"""The benchmark files say where they came from, and the README's figures are theirs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
PROVENANCE = {"version", "commit", "kernel_sha256", "command", "date", "python", "machine", "load_average"}


def result(name: str) -> dict:
    return json.loads((RESULTS / f"{name}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", sorted(RESULTS.glob("*.json")), ids=lambda p: p.name)
def test_every_benchmark_file_records_its_provenance(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    assert PROVENANCE <= set(data.get("provenance", {})), f"{path.name} lacks its provenance"
    script = data["provenance"]["command"].split()[0]
    assert (ROOT / "benchmarks" / script).is_file(), f"{path.name} was not written by a benchmark script"


def test_the_readme_benchmark_figures_are_the_files():
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    envs = result("envs_vs_openspiel")
    hearts, snap = envs["vector"]["random_legal"], envs["snap_vector"]["random_legal"]
    unchecked = envs["snap_vector_without_repeat_check"]["random_legal"]
    figures = {
        "reference model / OpenSpiel": f"about {result('hearts_vs_openspiel')['ratio']:.2f} times",
        "engine / OpenSpiel": f"about {round(result('engine_vs_openspiel')['ratio'])} times",
        "hearts_v0 / OpenSpiel": f"about {envs['ratio']:.1f} times the steps of OpenSpiel's Python loop with "
                                 f"observations per wall second and {envs['ratio_cpu']:.1f} times per CPU second",
        "vector_env": f"about {hearts['steps_per_cpu_second'] / 1e6:.1f} million (`hearts_v0.vector_env`) and "
                      f"{snap['steps_per_cpu_second'] / 1e6:.1f} million (`snap_v0.vector_env`) steps per CPU second",
        "vector_env, wall": f"({hearts['steps_per_second'] / 1e6:.1f} and {snap['steps_per_second'] / 1e6:.1f} million "
                            f"per wall second; Snap's {unchecked['steps_per_cpu_second'] / 1e6:.1f} million per CPU "
                            f"second without its check for repeated positions)",
        "python_cardcanon_hearts / OpenSpiel": f"about {envs['ratio_openspiel_game_cpu']:.2f} times the steps per CPU "
                                               f"second of OpenSpiel's own `hearts` with its states stepping on the "
                                               f"compiled kernel, and about {envs['ratio_openspiel_game_model_cpu']:.2f} "
                                               f"times on the reference model",
        "load": f"load average {envs['provenance']['load_average'][0]:.1f} on {envs['provenance']['machine']}",
    }
    for what, text in figures.items():
        assert text in readme, f"README: {what} should read {text!r} (benchmarks/results)"


def test_the_environments_benchmark_measures_both_clocks_in_one_run():
    """The ratio per wall second and per CPU second come from the same run as OpenSpiel's figures,
    and the batched interfaces are timed on both clocks."""
    envs = result("envs_vs_openspiel")
    for name in ("cardcanon", "openspiel"):
        assert envs[name]["steps"] > 0 and envs[name]["cpu_seconds"] > 0
    assert envs["ratio"] == pytest.approx(envs["cardcanon"]["steps_per_second"] / envs["openspiel"]["steps_per_second"])
    assert envs["ratio_cpu"] == pytest.approx(
        envs["cardcanon"]["steps_per_cpu_second"] / envs["openspiel"]["steps_per_cpu_second"])
    for key, name, engine in (("ratio_openspiel_game_cpu", "cardcanon_openspiel", "kernel"),
                              ("ratio_openspiel_game_model_cpu", "cardcanon_openspiel_model", "model")):
        assert envs[key] == pytest.approx(envs[name]["steps_per_cpu_second"] / envs["openspiel"]["steps_per_cpu_second"])
        assert f"'engine': '{engine}'" in envs[name]["game"]  # the OpenSpiel game on each engine, in one run
    for key in ("vector", "snap_vector", "snap_vector_without_repeat_check"):
        for name in ("first_legal", "random_legal"):
            rate = envs[key][name]
            assert rate["steps_per_cpu_second"] == pytest.approx(rate["steps"] / rate["cpu_seconds"])
            assert rate["steps_per_second"] == pytest.approx(rate["steps"] / rate["wall_seconds"])
