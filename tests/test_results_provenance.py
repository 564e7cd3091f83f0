"""Every committed result file says where it came from (``cardcanon.provenance.provenance``): the
version, commit, kernel SHA-256 and command. A result made by another kernel than the current
one must be rerun, or say that it is historical (and why)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardcanon.engine.build import source_sha256

ROOT = Path(__file__).resolve().parent.parent
# summaries written by cardcanon analyze / analyze --exact; game records and chunks are not results
RESULTS = sorted(p for p in (ROOT / "results").rglob("*.json") if not {"records", "chunks"} & set(p.parts))


def test_there_are_results():
    assert {p.relative_to(ROOT).as_posix() for p in RESULTS} >= {
        "results/analysis/snap.json", "results/analysis/hearts.json", "results/exact/snap-exact.json"}


@pytest.mark.parametrize("path", RESULTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_result_records_its_provenance(path):
    record = json.loads(path.read_text(encoding="utf-8")).get("provenance")
    assert isinstance(record, dict), f"{path.name}: no provenance (write it with cardcanon.provenance.provenance())"
    for key in ("version", "commit", "kernel_sha256", "command"):
        assert record.get(key), f"{path.name}: provenance without {key}"
    assert len(record["kernel_sha256"]) == 64
    if record.get("historical"):
        assert record.get("note"), f"{path.name}: a historical result says why it is kept"
    else:
        assert record["kernel_sha256"] == source_sha256(), (
            f"{path.name} was made by another kernel than the current one: rerun `{record['command']}` or mark "
            "it historical")


def test_a_stale_result_fails(tmp_path):
    """The check above fails for a result of another kernel that is not marked historical."""
    stale = {"version": "0.1.0", "commit": "0" * 40, "kernel_sha256": "f" * 64, "command": "cardcanon analyze snap"}
    path = tmp_path / "stale.json"
    path.write_text(json.dumps({"provenance": stale}), encoding="utf-8")
    with pytest.raises(AssertionError, match="another kernel"):
        test_every_result_records_its_provenance(path)
    path.write_text(json.dumps({"provenance": {**stale, "historical": True, "note": "kept for the record"}}))
    test_every_result_records_its_provenance(path)
