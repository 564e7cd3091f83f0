"""The site search's scorer: a query that is a rule ID puts the rule's own section first
(and links it with the rule's anchor), ahead of the API and every page that merely cites it."""

from __future__ import annotations

import json
from pathlib import Path

TEMPLATE = """var Scorer = {
  objNameMatch: 11, objPartialMatch: 6, objPrio: {0: 15, 1: 5, 2: -5}, objPrioDefault: 0,
  title: 15, partialTitle: 7, term: 5, partialTerm: 2,
  rulePages: %s,
  score: (result) => {
    const query = (new URLSearchParams(window.location.search).get("q") || "").trim().toUpperCase();
    const page = Scorer.rulePages[query];
    if (page && result[0] === page) {
      result[2] = "#" + query;
      return result[4] + 1000;
    }
    return result[4];
  },
};
"""


def write(path: Path, rule_pages: dict[str, str]) -> None:
    """``rule_pages``: rule ID -> docname of the page that states it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = TEMPLATE % json.dumps(rule_pages, sort_keys=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
