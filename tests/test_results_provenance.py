"""Every committed result file says where it came from (``cardcanon.provenance.provenance``): the
version, commit, kernel SHA-256 and command. A result made by another kernel than the current
one must be rerun, or say that it is historical (and why)."""

from __future__ import annotations

import gzip
import json
import re
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


def _dirty(record: dict) -> bool:
    return str(record.get("commit", "")).endswith("-dirty") or ".dirty" in str(record.get("version", ""))


# the data files the caveats page shows, and the part of the page that shows each
SHOWN = {"results/analysis/snap.json": "caveat-snap-termination", "results/exact/snap-exact.json": "caveat-snap-exact",
         "results/analysis/hearts.json": "caveat-hearts-numbers"}


@pytest.mark.parametrize("path", RESULTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_dirty_result_is_historical_on_the_page_that_shows_it(path):
    """A result made from uncommitted code cannot be reproduced: it says it is historical, and so
    does the page that shows its figures (``figures.made_by`` heads each of them)."""
    import sys

    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    import figures

    data = json.loads(path.read_text(encoding="utf-8"))
    record = data["provenance"]
    name = path.relative_to(ROOT).as_posix()
    if _dirty(record):
        assert record.get("historical") and record.get("note"), f"{name}: a dirty provenance not marked historical"
    if name in SHOWN:
        shown = figures.made_by(name, data)
        assert ("Historical figures" in shown) == bool(record.get("historical")), name
        assert name in shown and record["commit"][:12] in shown
        source = (ROOT / "docs" / "_ext" / "figures.py").read_text(encoding="utf-8")
        assert f'"{SHOWN[name]}": made_by("{name}"' in source, f"the caveats page does not head {name}'s figures"


def test_every_record_has_its_provenance_in_the_index():
    index = json.loads((ROOT / "results" / "analysis" / "records-index.json").read_text(encoding="utf-8"))
    records = sorted(p.name for p in (ROOT / "results" / "analysis" / "records").iterdir() if p.name.endswith(".json.gz"))
    assert sorted(index["records"]) == records, "results/analysis/records-index.json does not list every record"
    for name, entry in index["records"].items():
        record = json.loads(gzip.decompress((ROOT / "results" / "analysis" / "records" / name).read_bytes()))
        assert (entry["seed"], entry["policy"]) == (record["seed"], record["policy"]), name
        assert re.fullmatch(r"[0-9a-f]{40}", entry["commit"]) and len(entry["kernel_sha256"]) == 64, name
