"""The source documents are the ones received: right checksums, right metadata, unedited.

Self-contained: the SHA-256 pins in ``spec/sources/sources.toml`` fix the documents.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from pathlib import Path

import pytest

import cardcanon.spec as spec

SOURCES_DIR = Path(spec.__file__).resolve().parent / "sources"
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


# The documents as received: a digest of every (file, SHA-256) pin in sources.toml. Replacing a
# document means changing its text, its pin and this line, which no edit does by accident.
PINS_DIGEST = "a68147714d8ebe54e7f49cdc360d4b8364cf867e5556a971176375965dac5f81"
LANGUAGES = {"hy": ("Armenian", "ltr", "\u0531-\u058f"), "fi": ("Finnish", "ltr", "A-Za-z\u00c4\u00d6\u00e4\u00f6"),
             "he": ("Hebrew", "rtl", "\u05d0-\u05ea")}


def test_the_pins_are_the_documents_received():
    pins = "".join(f"{entry['file']} {entry['sha256']}\n" for entry in METADATA)
    assert hashlib.sha256(pins.encode()).hexdigest() == PINS_DIGEST
    assert sorted(GAME_NAMES[name] for name in ("Snap", "Two-player Hearts")) == ["hearts", "snap"]
    assert [entry["game"] for entry in METADATA].count("snap") == 3
    assert [entry["game"] for entry in METADATA].count("hearts") == 1


@pytest.mark.parametrize("entry", METADATA, ids=lambda entry: entry["id"])
def test_language_metadata_agrees_with_the_text(entry):
    name, direction, letters = LANGUAGES[entry["language"]]
    assert (entry["language_name"], entry["direction"]) == (name, direction)
    text = (SOURCES_DIR / entry["file"]).read_text(encoding="utf-8")
    words = re.findall(r"[^\W\d_]+", text)
    in_script = [w for w in words if re.fullmatch(f"[{letters}]+", w)]
    assert len(in_script) > 0.6 * len(words), "most words are in the language's script"
    assert entry["id"] == f"{entry['language']}-{entry['game']}"
