"""The downloads page and its files: the rules as JSON, the JSON Schemas of game records, the
conformance vectors, the analysis data, the citation files (BibTeX generated from
``CITATION.cff``) and the printable PDFs that ``docs/build.py`` makes after the HTML build."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import yaml
from rulebook_pages import heading

from cardcanon.version import build_info, swhid

ROOT = Path(__file__).resolve().parents[2]
PDFS = {"play-hearts.pdf": "How to play two-player Hearts", "play-snap.pdf": "How to play Snap",
        "quickref-hearts.pdf": "Two-player Hearts on one page: the quick reference (:ref:`quickref-hearts`), "
                               "every rule in a line with its ID, on a page that prints on A4 and on Letter",
        "quickref-snap.pdf": "Snap on one page: the quick reference (:ref:`quickref-snap`), every rule in a "
                             "line with its ID, on a page that prints on A4 and on Letter",
        "rulebook.pdf": "The whole rulebook: both games, every section, with the source quotes, a table of "
                        "contents and one line per rule on what verifies it"}


def rules_digest(rules_json: Path) -> str:
    """The rulebook's digest: ``sha256:`` and the SHA-256 of the ``rules.json`` of this build, as
    ``sha256sum rules.json`` prints it."""
    return "sha256:" + hashlib.sha256(rules_json.read_bytes()).hexdigest()


def citation_line(rule_id: str, build, digest: str) -> str:
    """The one line that cites a rule: the rule ID, the version and the rulebook's digest."""
    return f"cardcanon {build.version}, rule {rule_id}, rulebook {digest}"


def stamped_cff(text: str, build, digest: str) -> str:
    """The CITATION.cff of this build: its version, its commit (also as a Software Heritage
    identifier), the rulebook's digest, and the release date when the version is released."""
    lines = [line for line in text.splitlines() if not line.startswith(("version:", "date-released:", "commit:"))]
    at = next(i for i, line in enumerate(lines) if line.startswith("title:")) + 1
    stamp = [f"version: {build.version}"] + ([f"date-released: {build.date}"] if build.released else [])
    stamp += [f'commit: "{build.commit}"', "identifiers:", "  - type: swh", f'    value: "{swhid(build.commit)}"',
              '    description: "The commit this build was made from (Software Heritage identifier)"',
              "  - type: other", f'    value: "{digest}"',
              '    description: "The rulebook\'s digest: the SHA-256 of rules.json"']
    return "\n".join(lines[:at] + stamp + lines[at:]) + "\n"


def stamped_rules(text: str, build) -> str:
    """``cardcanon rules --json`` with the version, commit and date of this build first."""
    rules = json.loads(text)
    return json.dumps({"version": build.version, "commit": build.commit, "date": build.date, **rules},
                      indent=2, ensure_ascii=False) + "\n"


def bibtex(cff: dict, date: str = "") -> str:
    """A BibTeX ``@software`` entry with the fields of a CITATION.cff file: its version, the
    commit's Software Heritage identifier (``swhid``) and the rulebook's digest; a development
    build says so."""
    authors = " and ".join(
        "{" + a["name"] + "}" if "name" in a else f"{a.get('family-names', '')}, {a.get('given-names', '')}"
        for a in cff.get("authors", []))
    date = str(cff.get("date-released", "") or date)
    ids = {i["type"]: i["value"] for i in cff.get("identifiers", [])}
    notes = [] if cff.get("date-released") else [f"development build of commit {cff['commit']}"] if cff.get("commit") else []
    if ids.get("other"):
        notes.append(f"rulebook digest {ids['other']}")
    fields = {"author": authors, "title": "{" + cff["title"] + "}", "version": cff.get("version"),
              "year": date[:4] or None, "date": date or None, "url": cff.get("url") or cff.get("repository-code"),
              "swhid": ids.get("swh"), "license": cff.get("license"), "note": "; ".join(notes) or None}
    body = ",\n".join(f"  {k} = {{{v}}}" for k, v in fields.items() if v)
    key = re.sub(r"[^A-Za-z0-9]+", "_", str(cff.get("version", "")))
    return f"@software{{cardcanon_{key},\n{body}\n}}\n"


def _zip(folder: Path, target: Path, pattern: str = "**/*") -> None:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(folder.glob(pattern)):
            if f.is_file():
                z.write(f, f.relative_to(folder.parent))


def _link(name: str, path: Path) -> str:
    size = path.stat().st_size
    shown = f"{size / 1024:.0f} kB" if size >= 1024 else f"{size} bytes"
    return f"`{name} <../downloads/{name}>`__ ({shown})"


def page(out: Path) -> str:
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    text = [".. _downloads:\n\n", heading("Downloads", "=", over=True),
            "Everything here is made from the repository by the build of this site, so it matches the "
            "rules and checks shown on the other pages.\n\n"]

    rules = subprocess.run([sys.executable, "-m", "cardcanon", "rules", "--json"], capture_output=True,
                           text=True, check=True, cwd=ROOT).stdout
    build = build_info()
    (out / "rules.json").write_text(stamped_rules(rules, build), encoding="utf-8")
    text.append(heading("The rules", "-") + f"- {_link('rules.json', out / 'rules.json')}: every rule of both "
                "games with its text, status, source quotes, glosses, discrepancies and variation points, "
                "as printed by ``cardcanon rules --json``, with the version, commit and date of this build.\n"
                "- Each game on one page, every rule in a line with its ID: :ref:`quickref-hearts` and "
                ":ref:`quickref-snap` (printable below).\n\n")

    pdf = os.environ.get("CARDCANON_PDF", "")
    text.append(heading("Printable PDFs", "-"))
    if pdf == "1":
        site = os.environ.get("CARDCANON_SITE_URL", "")
        links = (f"links to other pages of the site point at {site}" if site else
                 "this build names no address for the site, so links to other pages are printed as plain text")
        text.append("Printed from this site by headless Chromium, set in Noto Sans, with the Armenian and "
                    "Hebrew quotes in Noto Sans Armenian and Noto Sans Hebrew, the suit signs in DejaVu Sans "
                    "and code in DejaVu Sans Mono. Each has its title and an outline of its headings; links "
                    f"within a document work, and {links}.\n\n"
                    + "".join(f"- `{name} <../downloads/{name}>`__: {what}\n" for name, what in PDFS.items()) + "\n")
    elif pdf == "off":
        text.append("This build was made without the PDFs (``python docs/build.py --no-pdf``).\n\n")
    else:
        text.append("This build made no PDFs: they are printed by headless Chromium (and need nothing else), "
                    "which was not installed; ``.ci/system-deps.sh`` installs it.\n\n")

    all_schemas = sorted((ROOT / "cardcanon" / "schemas").glob("*.schema.json"))
    schemas = [s for s in all_schemas if not s.name.startswith("conformance-")]
    conformance_schemas = [s for s in all_schemas if s.name.startswith("conformance-")]
    text.append(heading("Game records", "-"))
    if schemas:
        text.append("The JSON Schemas (draft 2020-12) that ``cardcanon replay`` checks game records "
                    "against:\n\n")
        for s in schemas:
            shutil.copy2(s, out / s.name)
            text.append(f"- {_link(s.name, out / s.name)}\n")
        text.append("\n")
    else:
        text.append("The JSON Schemas of game records are not part of this version.\n\n")
    # a whole match of Hearts as a game record, made by this build's model
    sample = out / "hearts-sample-record.json"
    subprocess.run([sys.executable, "-m", "cardcanon", "play", "hearts", "--seed", "1", "--strategies", "greedy",
                    "random", "--record", str(sample)], capture_output=True, text=True, check=True, cwd=ROOT)
    text.append(f"- {_link(sample.name, sample)}: a sample record, a whole two-player Hearts match (seed 1, a "
                "greedy player against a random one) as ``cardcanon play hearts --seed 1 --strategies greedy "
                "random --record FILE`` writes it; ``cardcanon replay FILE`` replays it.\n\n")
    conformance = ROOT / "conformance"
    if conformance.is_dir() and any(conformance.iterdir()):
        _zip(conformance, out / "conformance.zip")
        text.append(heading("Conformance vectors", "-"))
        text.append(f"- {_link('conformance.zip', out / 'conformance.zip')}: the conformance vectors, "
                    "to test another implementation against the reference models (:doc:`/conformance`).\n")
        for s in conformance_schemas:
            shutil.copy2(s, out / s.name)
            what = "its index file" if "index" in s.name else "each file of vectors"
            text.append(f"- {_link(s.name, out / s.name)}: the JSON Schema of the conformance vectors' {what}\n")
        text.append("\n")

    analysis = ROOT / "results" / "analysis"
    text.append(heading("Analysis data", "-") + "The figures of the :doc:`/caveats` page, as written by "
                "``cardcanon analyze`` (``results/analysis/``):\n\n")
    for f in sorted(analysis.glob("*.json")) + [analysis / "README.md"]:
        if f.is_file():
            shutil.copy2(f, out / f"analysis-{f.name}")
            text.append(f"- {_link('analysis-' + f.name, out / ('analysis-' + f.name))}\n")
    if (analysis / "records").is_dir():
        _zip(analysis / "records", out / "analysis-records.zip")
        text.append(f"- {_link('analysis-records.zip', out / 'analysis-records.zip')}: replayable game "
                    "records of the longest games and the shortest and longest cycles "
                    "(``cardcanon replay FILE``)\n")
    text.append("\n")

    cff_path = ROOT / "CITATION.cff"
    cff_text = stamped_cff(cff_path.read_text(encoding="utf-8"), build, rules_digest(out / "rules.json"))
    (out / "CITATION.cff").write_text(cff_text, encoding="utf-8")
    cff = yaml.safe_load(cff_text)
    (out / "cardcanon.bib").write_text(bibtex(cff, build.date), encoding="utf-8")
    digest = rules_digest(out / "rules.json")
    text.append(heading("Citing", "-") + "See :doc:`/citing` for how to cite a rule. This build is version "
                f"``{build.version}``, commit ``{swhid(build.commit)}``; its rulebook's digest, the SHA-256 of "
                f"``rules.json``, is ``{digest}``.\n\n"
                f"- {_link('CITATION.cff', out / 'CITATION.cff')}\n"
                f"- {_link('cardcanon.bib', out / 'cardcanon.bib')} (BibTeX, generated from CITATION.cff)\n\n"
                ".. code-block:: bibtex\n\n" + "".join(f"   {line}\n" for line in bibtex(cff, build.date).splitlines())
                + "\n")
    return "".join(text)
