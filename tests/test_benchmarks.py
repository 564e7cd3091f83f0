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
    figures = {
        "reference model / OpenSpiel": f"about {result('hearts_vs_openspiel')['ratio']:.2f} times",
        "engine / OpenSpiel": f"about {round(result('engine_vs_openspiel')['ratio'])} times",
        "hearts_v0 / OpenSpiel": f"about {envs['ratio']:.1f} times",
        "vector_env": f"about {envs['vector']['random_legal']['steps_per_cpu_second'] / 1e6:.1f} million",
    }
    for what, text in figures.items():
        assert text in readme, f"README: {what} should read {text!r} (benchmarks/results)"
