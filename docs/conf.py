"""Sphinx configuration for the cardcanon rulebook.

The rule pages, the reconciliation tables, the verification summary, the source pages, the
downloads and the pictures are generated at build time from ``spec/``, the check manifests,
the traceability scan, a ``cardcanon verify --json`` report (``docs/build.py`` produces one
and passes it in) and the data files.
"""

import datetime
import os
import sys
from pathlib import Path

from cardcanon.version import build_info

sys.path.insert(0, str(Path(__file__).parent / "_ext"))

project = "cardcanon"
author = "The cardcanon authors"
copyright = "2026, the cardcanon authors"
_build = build_info()
version = release = _build.version  # the one source: pyproject.toml and git (cardcanon/version.py)
build_date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")

extensions = ["sphinx.ext.autodoc", "sphinx.ext.viewcode", "cardcanon_docs", "howto"]
nitpicky = True
nitpick_ignore_regex = [(r"py:.*", r"(Any|T|.*\.T|Path|pathlib\..*|Mapping|Sequence|Counter|enum\..*|typing\..*|collections\..*|z3\..*)")]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_preserve_defaults = True  # a default shows as written, never as a path of the build machine
viewcode_follow_imported_members = False  # a source page links each object to its own entry of the API page
autodoc_default_options = {"members": True, "undoc-members": False}
exclude_patterns = ["_build", "generated/*.inc"]
templates_path = ["_templates"]
smartquotes_action = "qe"  # never turn "--" into a dash: commands must copy as written

html_theme = "furo"
html_title = f"cardcanon {release}"
html_static_path = ["_static"]
html_css_files = ["cardcanon.css"]
html_js_files = ["cardcanon.js"]
html_context = {"build_date": build_date, "build_commit": _build.commit}
html_theme_options = {"navigation_with_keys": True}
if not _build.released:  # every page says that it shows unreleased code
    html_theme_options["announcement"] = (
        f'<span class="dev-build">Development build {release}, commit {_build.commit[:12]}: not a release. '
        "Cite a released version, or this build by the identifiers of its downloads page.</span>")
html_copy_source = False
html_search_scorer = str(Path(__file__).parent / "generated" / "search-scorer.js")  # written by cardcanon_docs

rst_prolog = """
.. role:: verdict-ok
   :class: verdict-ok
.. role:: verdict-bad
   :class: verdict-bad
.. role:: rule-id
   :class: rule-id
"""

cardcanon_verify_json = os.environ.get("CARDCANON_VERIFY_JSON", "")
cardcanon_junit_xml = os.environ.get("CARDCANON_JUNIT_XML", "")

# Third-party types in the environments' signatures (docs/environments.rst).
nitpick_ignore_regex += [(r"py:.*", r"(numpy|gymnasium|pettingzoo|pyspiel)\..*")]
