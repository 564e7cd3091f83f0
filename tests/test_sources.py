"""The source documents are the ones received: right checksums, right metadata, unedited."""

from __future__ import annotations

import hashlib
import re
import tomllib
from pathlib import Path

import pytest

import cardcanon.spec as spec

SOURCES_DIR = Path(spec.__file__).resolve().parent / "sources"
SEEDS_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"
METADATA = tomllib.loads((SOURCES_DIR / "sources.toml").read_text(encoding="utf-8"))["source"]
GAME_NAMES = {"Snap": "snap", "Two-player Hearts": "hearts"}


def test_every_document_is_listed_exactly_once():
    listed = [entry["file"] for entry in METADATA]
    assert len(listed) == len(set(listed))
    assert sorted(listed) == sorted(path.name for path in SOURCES_DIR.glob("*.txt"))
    assert [source.file for source in spec.sources()] == listed


@pytest.mark.parametrize("entry", METADATA, ids=lambda entry: entry["id"])
def test_document_matches_its_sha256(entry):
    assert hashlib.sha256((SOURCES_DIR / entry["file"]).read_bytes()).hexdigest() == entry["sha256"]


def test_loaded_sources_match_the_metadata():
    for source, entry in zip(spec.sources(), METADATA, strict=True):
        assert source.to_json() == {key: entry[key] for key in source.to_json()}
        assert source.text == (SOURCES_DIR / entry["file"]).read_text(encoding="utf-8")
        assert source.direction == ("rtl" if source.language == "he" else "ltr")


def _seed_table() -> dict[str, dict[str, str]]:
    """The table of ``shared/seeds/README.md``: file -> language, code, direction, game."""
    rows = {}
    for line in (SEEDS_DIR / "README.md").read_text(encoding="utf-8").splitlines():
        match = re.match(r"^\|\s*(\S+\.txt)\s*\|\s*(\w+) \((\w+)(, right-to-left)?\)\s*\|\s*(.+?)\s*\|$", line)
        if match:
            file, name, code, rtl, game = match.groups()
            rows[file] = {"language_name": name, "language": code, "direction": "rtl" if rtl else "ltr",
                          "game": GAME_NAMES[game]}
    return rows


needs_seeds = pytest.mark.skipif(not SEEDS_DIR.is_dir(), reason=f"{SEEDS_DIR} not present")


@needs_seeds
def test_metadata_agrees_with_the_seeds_readme():
    table = _seed_table()
    assert sorted(table) == sorted(entry["file"] for entry in METADATA)
    for entry in METADATA:
        assert {key: entry[key] for key in table[entry["file"]]} == table[entry["file"]], entry["id"]


@needs_seeds
@pytest.mark.parametrize("entry", METADATA, ids=lambda entry: entry["id"])
def test_document_is_byte_identical_to_the_seed(entry):
    assert (SOURCES_DIR / entry["file"]).read_bytes() == (SEEDS_DIR / entry["file"]).read_bytes()
