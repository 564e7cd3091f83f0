"""The site search's scorer, for players first.

- A query that is a rule ID puts the rule's own section first (and links it with the rule's
  anchor), ahead of the API and every page that merely cites it.
- A query that is a check ID, or its short form (``SNAP-P6``), puts the check's entry on the
  verification page first.
- Numbers are searchable ("100"): Sphinx leaves words of digits out of its index and out of a
  query, so :class:`SearchEnglishWithNumbers` indexes such a word as ``n`` and its digits, and
  its query splitter does the same.
- Any other query ranks the rule pages first, then the how-to-play pages, then the other pages,
  and the API and source listings last: a player who searches "snap pot", "index card",
  "moon" or "dead card" wants the rules, not a Python attribute named ``index``.
"""

from __future__ import annotations

import json
from pathlib import Path

from sphinx.search.en import SearchEnglish

NUMBER_MARK = "n"  # "100" is indexed and queried as "n100"


class SearchEnglishWithNumbers(SearchEnglish):
    """English search whose index and queries keep numbers."""

    js_splitter_code = """
function splitQuery(query) {
  return query.split(/[^\\p{Letter}\\p{Number}_\\p{Emoji_Presentation}]+/gu)
    .filter((term) => term)
    .map((term) => (/^\\d+$/.test(term) ? "%s" + term : term));
}
""" % NUMBER_MARK

    def split(self, input: str) -> list[str]:
        return [NUMBER_MARK + word if word.isdigit() else word for word in super().split(input)]

TEMPLATE = """var Scorer = {
  objNameMatch: 11, objPartialMatch: 6, objPrio: {0: 15, 1: 5, 2: -5}, objPrioDefault: 0,
  title: 15, partialTitle: 7, term: 5, partialTerm: 2,
  rulePages: %s,
  checks: %s,
  pageWords: %s,
  howTo: ["generated/play-snap", "generated/play-hearts"],
  score: (result) => {
    const query = (new URLSearchParams(window.location.search).get("q") || "").trim().toUpperCase();
    const page = Scorer.rulePages[query];
    if (page && result[0] === page) {
      result[2] = "#" + query;
      return result[4] + 1000;
    }
    const check = Scorer.checks[query];
    if (check && result[0] === "generated/verification") {
      result[2] = "#" + check;
      return result[4] + 1000;
    }
    const docname = result[0], kind = result[6];
    if (kind === "object" || docname === "api" || docname.startsWith("generated/source")
        || docname.startsWith("_modules")) return result[4] - 100;  // code: last
    if (docname in Scorer.pageWords) {  // a rule page: more for each word of the query its titles use
      const words = query.toLowerCase().split(/\\s+/).filter(w => w.length > 1);
      const title = Scorer.pageWords[docname][0], rules = Scorer.pageWords[docname][1];
      const has = (text, w) => text.split(/[^a-z0-9]+/).includes(w);
      return result[4] + 200 + 30 * words.filter(w => has(title, w)).length
        + 10 * words.filter(w => has(rules, w)).length;
    }
    if (Scorer.howTo.includes(docname)) return result[4] + 100;
    return result[4];
  },
};
"""


def write(path: Path, rule_pages: dict[str, str], page_words: dict[str, tuple[str, str]],
          checks: list[str] | None = None) -> None:
    """``rule_pages``: rule ID -> docname of the page that states it; ``page_words``: docname of
    a rule page -> (its title, its rules' titles), lower case; ``checks``: the check IDs, each
    found by its ID and by its short form (``SNAP-P6-lasso`` by ``SNAP-P6``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    found = {name.upper(): check for check in checks or [] for name in (check, "-".join(check.split("-")[:2]))}
    text = TEMPLATE % (json.dumps(rule_pages, sort_keys=True), json.dumps(found, sort_keys=True),
                       json.dumps(page_words, sort_keys=True))
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
