"""``cardcanon rules [GAME] [--id ID] [--status S] [--sources] [--json] [--summary]``: print the rulebook."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import textwrap
from typing import Any

from cardcanon.spec import howto
from cardcanon.spec.errors import CardcanonError
from cardcanon.spec.schema import GAMES, Rule, Rulebook, Source, Status


def add_parser(sub: Any) -> None:
    rules = sub.add_parser("rules", help="print the rulebook (both games unless one is named)",
                           description="Print the canonical rulebook: sections, rules, variations and, "
                                       "with --sources, the source quotes and rulings behind each rule.")
    rules.add_argument("game", nargs="?", choices=GAMES, help="snap or hearts (both when absent)")
    rules.add_argument("--id", dest="rule_id", metavar="ID", type=_rule_id, help="only this rule, e.g. SNAP-FLIP-3")
    rules.add_argument("--status", choices=[status.value for status in Status], help="only rules with this status")
    rules.add_argument("--sources", action="store_true",
                       help="add each rule's rationale, source quotes (original, then gloss) and discrepancies")
    rules.add_argument("--json", action="store_true", help="every field of every rule as JSON")
    rules.add_argument("--summary", action="store_true",
                       help="how to play: one sentence per rule, with its ID (what you need, the deal, a turn, "
                            "scoring, the end)")
    rules.set_defaults(handler=run)


def _rule_id(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a rule ID such as SNAP-FLIP-3, not an empty string")
    return text


def run(args: argparse.Namespace) -> int:
    import cardcanon.spec as spec

    books = [spec.load(game) for game in ([args.game] if args.game else GAMES)]
    if args.summary:
        if args.json or args.sources or args.rule_id or args.status:
            raise CardcanonError("--summary cannot be combined with --json, --sources, --id or --status")
        width = max(40, min(100, shutil.get_terminal_size((80, 24)).columns))
        _print("\n\n".join(howto.text(book, width) for book in books))
        return 0
    if args.rule_id and not any(rule.id == args.rule_id for book in books for rule in book.rules):
        if args.game or args.rule_id.startswith(("SNAP-", "HEARTS-")):
            owner = spec.load(args.game or ("hearts" if args.rule_id.startswith("HEARTS-") else "snap"))
            owner.rule(args.rule_id)  # raises SpecError naming the rule
        raise CardcanonError(f"rule {args.rule_id}: no such rule (IDs look like SNAP-FLIP-3 or HEARTS-BREAK-2)")
    selected = [(book, _select(book, args)) for book in books]
    if args.json:
        output = json.dumps(_json(books, selected), ensure_ascii=False, indent=2)
    else:
        width = max(40, min(100, shutil.get_terminal_size((80, 24)).columns))
        lines = _text(selected, args, width)
        output = "\n".join(lines).rstrip("\n") if lines else f"No {args.status} rules."
    _print(output)
    return 0


def _print(output: str) -> None:
    _utf8_stdout()
    try:
        print(output)
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into head: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _select(book: Rulebook, args: argparse.Namespace) -> list[Rule]:
    rules = list(book.rules)
    if args.rule_id:
        rules = [rule for rule in rules if rule.id == args.rule_id]
    if args.status:
        rules = [rule for rule in rules if rule.status.value == args.status]
    return rules


def _utf8_stdout() -> None:
    """Terminals without UTF-8 get escapes rather than a crash on Armenian or Hebrew."""
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "")
    if encoding != "utf8" and hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")


def _json(books: list[Rulebook], selected: list[tuple[Rulebook, list[Rule]]]) -> dict[str, Any]:
    sources = {source.id: source for book in books for source in book.sources}
    return {
        "games": [{"game": book.game, "title": book.title, "sources": [s.id for s in book.sources]} for book in books],
        "rules": [rule.to_json() for _, rules in selected for rule in rules],
        "nonrules": [dict(entry.to_json(), game=book.game) for book in books for entry in book.nonrules],
        "sources": [source.to_json() for source in sources.values()],
    }


def _language(source: Source) -> str:
    return f"{source.language_name}, right-to-left" if source.direction == "rtl" else source.language_name


def _text(selected: list[tuple[Rulebook, list[Rule]]], args: argparse.Namespace, width: int) -> list[str]:
    lines: list[str] = []
    for book, rules in selected:
        if not rules:
            continue
        lines += [book.title, "=" * len(book.title),
                  "Sources: " + "; ".join(f"{s.id} ({_language(s)})" for s in book.sources), ""]
        chosen = {rule.id for rule in rules}
        for section, section_rules in book.sections():
            shown = [rule for rule in section_rules if rule.id in chosen]
            if not shown:
                continue
            lines += [section, "-" * len(section), ""]
            for rule in shown:
                lines += _rule_lines(book, rule, args.sources, width)
    return lines


def _wrap(text: str, width: int, indent: str, first: str | None = None) -> list[str]:
    out: list[str] = []
    for number, paragraph in enumerate(text.strip().split("\n")):
        start = first if first is not None and number == 0 else indent
        out += textwrap.wrap(paragraph, width, initial_indent=start, subsequent_indent=indent) or [start.rstrip()]
    return out


def _rule_lines(book: Rulebook, rule: Rule, with_sources: bool, width: int) -> list[str]:
    default = rule.status is not Status.INFORMATIVE
    note = "" if rule.normative == default else (", normative" if rule.normative else ", not normative")
    lines = [f"{rule.id}  {rule.title}  [{rule.status.value}{note}]"]
    lines += _wrap(rule.text, width, "    ")
    if rule.checks:
        lines += _wrap(", ".join(rule.checks), width, "        ", first="    Proved by: ")
    if rule.variation:
        lines.append(f"    Variation '{rule.variation.parameter}':")
        for option in rule.variation.options:
            mark = " (default)" if option.value == rule.variation.default else ""
            lines += _wrap(option.text, width, "        ", first=f"      - {option.value}{mark}: ")
    if with_sources:
        if rule.rationale:
            lines += _wrap(rule.rationale, width, "        ", first="    Rationale: ")
        for quote in rule.quotes:
            source = book.source(quote.source)
            lines.append(f"    Quote from {source.id} ({_language(source)}):")
            lines += _wrap(quote.span, width, "      ")  # the original, as is: terminals lay out RTL
            lines += _wrap(quote.gloss, width, "        ", first="      = ")
        for found in rule.discrepancies:
            lines += _wrap(found.what, width, "        ",
                           first=f"    Discrepancy ({found.kind.value}; {', '.join(found.sources)}): ")
            lines += _wrap(found.ruling, width, "        ", first="      Ruling: ")
            lines += _wrap(found.reason, width, "        ", first="      Reason: ")
        if not rule.quotes:
            lines.append("    (no source quotes)")
    lines.append("")
    return lines
