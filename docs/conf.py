"""Sphinx configuration for the cardcanon rulebook.

The rule pages, the reconciliation tables, the verification summary and the pictures are
generated at build time from ``spec/``, the check manifests, the traceability scan and a
``cardcanon verify --json`` report (``docs/build.py`` produces one and passes it in).
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "_ext"))

import cardcanon  # noqa: E402

project = "cardcanon"
author = "The cardcanon authors"
copyright = "2026, the cardcanon authors"
version = release = cardcanon.__version__

extensions = ["sphinx.ext.autodoc", "sphinx.ext.viewcode", "cardcanon_docs", "howto"]
nitpicky = True
nitpick_ignore_regex = [(r"py:.*", r"(Any|T|.*\.T|Path|pathlib\..*|Mapping|Sequence|Counter|enum\..*|typing\..*|collections\..*|z3\..*)")]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "undoc-members": False}
exclude_patterns = ["_build", "generated/*.inc"]
templates_path = []
html_theme = "alabaster"
html_static_path = ["_static"]
html_css_files = ["cardcanon.css"]
html_theme_options = {"description": "The canonical, machine-checked rulebook of Snap and two-player Hearts", "page_width": "1180px"}
html_title = "cardcanon rulebook"

rst_prolog = """
.. role:: verdict-ok
   :class: verdict-ok
.. role:: verdict-bad
   :class: verdict-bad
"""

cardcanon_verify_json = os.environ.get("CARDCANON_VERIFY_JSON", "")
cardcanon_junit_xml = os.environ.get("CARDCANON_JUNIT_XML", "")
