"""One version on every surface: ``pyproject.toml`` names it, the changelog says whether it is
released, and the CLI, the verify report, the provenance of results, ``rules.json``, the
``CITATION.cff`` and BibTeX (the repository's and the site's) all name that one string. The site's
pages and PDFs are compared in ``tests/test_docs_site.py``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.version import Version

from cardcanon.version import build_info, changelog_sections, release_date, swhid

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs" / "_ext"))
import downloads  # noqa: E402

CHANGELOG = (ROOT / "docs" / "changelog.rst").read_text(encoding="utf-8")


def _pyproject() -> str:
    with open(ROOT / "pyproject.toml", "rb") as handle:
        return str(tomllib.load(handle)["project"]["version"])


def test_the_changelog_says_whether_the_version_is_released():
    """A release has its dated section; a development version is the next release's, and the
    changelog's first section is "Unreleased"."""
    version = Version(_pyproject())
    sections = changelog_sections(CHANGELOG)
    released = [Version(name) for name, _ in sections if name != "Unreleased"]
    if version.is_devrelease:
        assert sections[0] == ("Unreleased", ""), "a development version has an Unreleased section first"
        assert version.base_version not in {str(v) for v in released}, f"{version.base_version} is already released"
        assert all(v < version for v in released), "the development version is not after every release"
        assert not build_info().released
    else:
        assert sections[0][0] == str(version), f"{version} has no dated section at the top of the changelog"
        assert build_info().released and build_info().date == sections[0][1]


def test_release_dates_come_from_the_changelog():
    assert release_date("0.2.0", CHANGELOG) == "2026-12-01"
    assert release_date("0.1.0", CHANGELOG) == "2026-11-29"
    assert release_date("9.9.9", CHANGELOG) == ""


def test_every_surface_names_one_version(tmp_path):
    import cardcanon
    from cardcanon.provenance import provenance
    from cardcanon.verify.report import Report

    version = _pyproject()
    assert build_info().version == version
    cli = subprocess.run([sys.executable, "-m", "cardcanon", "--version"], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout.strip()
    report = Report(outcomes=(), started="", wall_seconds=0.0, jobs=1, timeout=1.0, quick=True).to_json()
    repo_cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    downloads.page(tmp_path / "downloads")
    rules = json.loads((tmp_path / "downloads" / "rules.json").read_text(encoding="utf-8"))
    site_cff = yaml.safe_load((tmp_path / "downloads" / "CITATION.cff").read_text(encoding="utf-8"))
    bib = (tmp_path / "downloads" / "cardcanon.bib").read_text(encoding="utf-8")
    surfaces = {
        "cardcanon --version": cli.removeprefix("cardcanon "),
        "cardcanon.__version__ (the conformance reference's name)": cardcanon.__version__,
        "verify JSON": report["cardcanon_version"],
        "verify JSON provenance": report["provenance"]["version"],
        "results provenance": provenance()["version"],
        "repository CITATION.cff": str(repo_cff["version"]),
        "rules.json": rules["version"],
        "site CITATION.cff": str(site_cff["version"]),
        "site BibTeX": re.search(r"version = \{([^}]*)\}", bib).group(1),
    }
    assert set(surfaces.values()) == {version}, surfaces


def test_the_citation_files_name_the_commit_and_the_rulebook_digest(tmp_path):
    import hashlib

    build = build_info()
    downloads.page(tmp_path)
    digest = "sha256:" + hashlib.sha256((tmp_path / "rules.json").read_bytes()).hexdigest()
    cff = yaml.safe_load((tmp_path / "CITATION.cff").read_text(encoding="utf-8"))
    ids = {i["type"]: i["value"] for i in cff["identifiers"]}
    assert ids == {"swh": swhid(build.commit), "other": digest}
    assert re.fullmatch(r"swh:1:rev:[0-9a-f]{40}", ids["swh"]) or build.commit == "unknown"
    bib = (tmp_path / "cardcanon.bib").read_text(encoding="utf-8")
    assert f"swhid = {{{ids['swh']}}}" in bib and f"rulebook digest {digest}" in bib
    assert downloads.citation_line("SNAP-SEED-2", build, digest) == \
        f"cardcanon {build.version}, rule SNAP-SEED-2, rulebook {digest}"


@pytest.mark.parametrize("commit, expected", [
    ("1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d", "swh:1:rev:1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d"),
    ("1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d-dirty", "swh:1:rev:1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d"),
])
def test_swhid(commit, expected):
    assert swhid(commit) == expected
