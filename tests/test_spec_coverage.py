"""Every letter or digit of every source lies in some quoted span (FORMAT.md, "Coverage")."""

from __future__ import annotations

import hashlib

import pytest

import cardcanon.spec as spec
from cardcanon.spec import Coverage


@pytest.mark.parametrize("source_id", [source.id for source in spec.sources()])
def test_source_is_fully_quoted(source_id):
    coverage = spec.coverage(source_id)
    assert coverage.complete, coverage.report()


# ---------------------------------------------------------------------------- coverage() itself

TEXT = "Title\nPlayers: 2 to 12.\n** ~~\nDeal: all cards. Deal: all cards.\nשלום עולם\n"


def _synthetic(tmp_path, quotes: list[str], nonrules: list[str]):
    (tmp_path / "xx.txt").write_text(TEXT, encoding="utf-8")
    sha = hashlib.sha256(TEXT.encode("utf-8")).hexdigest()
    (tmp_path / "sources.toml").write_text(
        f'[[source]]\nid = "xx-snap"\nfile = "xx.txt"\nsha256 = "{sha}"\ngame = "snap"\nlanguage = "xx"\n'
        'language_name = "Testish"\ndirection = "ltr"\nprovenance = "Made for the tests."\n',
        encoding="utf-8",
    )
    book = ['game = "snap"\ntitle = "Snap"\nsources = ["xx-snap"]\n',
            '[[rule]]\nid = "SNAP-A-1"\ntitle = "A"\nsection = "S"\nstatus = "stated"\ntext = "A rule."\n']
    book += [f'[[rule.quote]]\nsource = "xx-snap"\nspan = {span!r}\ngloss = "g"\n' for span in quotes]
    book += [f'[[nonrule]]\nsource = "xx-snap"\nkind = "title"\nspan = {span!r}\ngloss = "g"\n' for span in nonrules]
    (tmp_path / "book.toml").write_text("\n".join(book).replace("'", '"'), encoding="utf-8")
    sources = spec.load_sources(tmp_path / "sources.toml")
    return sources[0], spec.load_file(tmp_path / "book.toml", sources)


def test_uncovered_runs_are_reported_with_their_text(tmp_path):
    source, book = _synthetic(tmp_path, quotes=["Players: 2 to 12."], nonrules=["Title"])
    coverage = spec.coverage(source, book)
    assert not coverage.complete
    deal, hebrew = TEXT.index("Deal"), TEXT.index("שלום")
    assert coverage.uncovered == [(deal, hebrew - 1, "Deal: all cards. Deal: all cards."),
                                  (hebrew, len(TEXT) - 1, "שלום עולם")]
    assert "line 4" in coverage.report() and "שלום עולם" in coverage.report()
    assert coverage.letters_covered == len("Title") + len("Players2to12")


def test_every_occurrence_of_a_span_counts_and_punctuation_needs_no_quote(tmp_path):
    source, book = _synthetic(tmp_path, quotes=["Players: 2 to 12.", "Deal: all cards.", "עולם"],
                              nonrules=["Title", "שלום"])
    coverage = spec.coverage(source, book)
    assert coverage.uncovered == [] and coverage.complete, coverage.report()
    assert coverage.letters_covered == coverage.letters_total


def test_coverage_looks_up_a_source_by_id_in_the_given_rulebook(tmp_path):
    _, book = _synthetic(tmp_path, quotes=[], nonrules=["Title"])
    assert spec.coverage("xx-snap", book).uncovered[0][2].startswith("Players: 2 to 12.")
    with pytest.raises(spec.SpecError, match="unknown source 'zz-snap'"):
        spec.coverage("zz-snap", book)


def test_overlapping_spans_merge():
    coverage = Coverage.compute("t", "abcdef gh", ["bcd", "cde", "a", "gh"])
    assert coverage.covered == ((0, 5), (7, 9))
    assert coverage.uncovered == [(5, 6, "f")]
