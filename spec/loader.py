"""Reading and validating the rulebook (``snap.toml``, ``hearts.toml``) and its sources.

Every problem raises one :class:`SpecError` naming the file, the rule or entry and the field.
The format is described in ``FORMAT.md`` beside this module.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Iterable
from pathlib import Path
from enum import Enum
from typing import Any, TypeVar

from cardcanon.spec.schema import (
    GAMES, ID_PATTERN, ID_PREFIX, RULE_ID, NEEDS_RATIONALE, Direction, Discrepancy, DiscrepancyKind, HowtoPart, NonRule,
    NonRuleKind, Option, Quote, Rule, Rulebook, Source, SpecError, Status, Variation,
)
from cardcanon.spec.values import value_problems

EnumT = TypeVar("EnumT", bound=Enum)
DATA_DIR = Path(__file__).resolve().parent
SOURCES_FILE = DATA_DIR / "sources" / "sources.toml"
RULE_REF = RULE_ID
_ID = re.compile(ID_PATTERN)
_PARAMETER = re.compile(r"^[a-z][a-z0-9_]*$")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")
CHECK_ID = re.compile(r"^(?:SNAP|HEARTS)-P[0-9]+-[a-z0-9-]+$")
SUMMARY_MAX_WORDS = 40
# a sentence end followed by the start of another sentence
_SENTENCE_BREAK = re.compile(r"[.!?][\"”)]?\s+[\"“]?[A-Z]")
_TOML_WHERE = re.compile(r"\s*\(at line (\d+), column (\d+)\)$|\s*\(at end of document\)$")


def display_path(path: str | Path) -> str:
    """``path`` relative to the working directory when it lies below it, else absolute."""
    path = Path(path).resolve()
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def read_toml(path: str | Path) -> tuple[str, dict[str, Any]]:
    """Parse a TOML file; syntax errors become ``<file>:<line>: TOML syntax error: ...``."""
    where = display_path(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise SpecError(where, f"cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise SpecError(f"{where}:{line}", "not valid UTF-8") from None
    try:
        return where, tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = _TOML_WHERE.search(message)
        line = text.count("\n") + 1
        if match and match.group(1):
            line = int(match.group(1))
            message = message[: match.start()] + f" (column {match.group(2)})"
        elif match:
            message = message[: match.start()] + " (at end of file)"
        raise SpecError(f"{where}:{line}", f"TOML syntax error: {message}") from None


def _type_name(value: Any) -> str:
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "an array",
            dict: "a table"}.get(type(value), type(value).__name__)


class _Entry:
    """One TOML table being read: checks keys and types, and words errors for it."""

    def __init__(self, file: str, entry: str | None, data: Any, allowed: Iterable[str], prefix: str = "") -> None:
        self.file, self.entry, self.prefix = file, entry, prefix
        if not isinstance(data, dict):
            raise SpecError(file, f"expected a table, got {_type_name(data)}", entry=entry,
                            field=prefix.rstrip(".") or None)
        self.data = data
        allowed = list(allowed)
        for key in data:
            if key not in allowed:
                close = difflib.get_close_matches(key, allowed, n=1)
                hint = f"did you mean '{close[0]}'?" if close else f"allowed: {', '.join(allowed)}"
                raise self.error(key, f"unknown key ({hint})")

    def error(self, key: str, problem: str) -> SpecError:
        return SpecError(self.file, problem, entry=self.entry, field=self.prefix + key)

    def text(self, key: str) -> str:
        """A required non-blank string."""
        value = self.optional_text(key)
        if value is None:
            raise self.error(key, "missing (required)")
        return value

    def optional_text(self, key: str) -> str | None:
        """A non-blank string, or None when absent."""
        if key not in self.data:
            return None
        value = self.data[key]
        if not isinstance(value, str):
            raise self.error(key, f"expected a string, got {_type_name(value)}")
        if not value.strip():
            raise self.error(key, "is empty")
        return value

    def choice(self, key: str, enum: type[EnumT], what: str) -> EnumT:
        value = self.text(key)
        try:
            return enum(value)
        except ValueError:
            allowed = ", ".join(str(member.value) for member in enum)
            raise self.error(key, f"unknown {what} {value!r} (allowed: {allowed})") from None

    def flag(self, key: str) -> bool | None:
        value = self.data.get(key)
        if value is not None and not isinstance(value, bool):
            raise self.error(key, f"expected true or false, got {_type_name(value)}")
        return value

    def texts(self, key: str) -> tuple[str, ...]:
        """A non-empty array of non-blank strings."""
        if key not in self.data:
            raise self.error(key, "missing (required)")
        value = self.data[key]
        if not isinstance(value, list) or not value:
            raise self.error(key, "expected a non-empty array of strings")
        for item in value:
            if not isinstance(item, str) or not item.strip():
                raise self.error(key, f"expected a non-empty array of strings, found {item!r}")
        return tuple(value)

    def tables(self, key: str, toml_name: str) -> list[Any]:
        """An array of tables (``[[toml_name]]``), empty when absent."""
        value = self.data.get(key, [])
        if not isinstance(value, list):
            raise self.error(key, f"expected an array of tables ([[{toml_name}]]), got {_type_name(value)}")
        return value


# ---------------------------------------------------------------------------------- sources

_SOURCE_KEYS = ("id", "file", "sha256", "game", "language", "language_name", "direction", "provenance")


def load_sources(path: str | Path = SOURCES_FILE) -> tuple[Source, ...]:
    """Read a ``sources.toml``; the documents it lists are read lazily (:attr:`Source.text`)."""
    where, data = read_toml(path)
    top = _Entry(where, None, data, ("source",))
    result: list[Source] = []
    for index, raw in enumerate(top.tables("source", "source"), 1):
        name = raw.get("id") if isinstance(raw, dict) else None
        entry = _Entry(where, f"source {name}" if isinstance(name, str) else f"source #{index}", raw, _SOURCE_KEYS)
        values = {key: entry.text(key) for key in _SOURCE_KEYS}
        if any(s.id == values["id"] for s in result):
            raise entry.error("id", f"duplicate source id {values['id']!r}")
        if values["game"] not in GAMES:
            raise entry.error("game", f"unknown game {values['game']!r} (allowed: {', '.join(GAMES)})")
        if not _SHA256.fullmatch(values["sha256"]):
            raise entry.error("sha256", "expected 64 lower-case hexadecimal digits")
        direction = entry.choice("direction", Direction, "direction")
        file_name = values["file"]
        if Path(file_name).name != file_name:
            raise entry.error("file", f"{file_name!r} must be a file name beside {Path(where).name}")
        document = Path(path).resolve().parent / file_name
        if not document.is_file():
            raise entry.error("file", f"no such file {display_path(document)}")
        result.append(Source(id=values["id"], file=file_name, sha256=values["sha256"], game=values["game"],
                             language=values["language"], language_name=values["language_name"],
                             direction=direction, provenance=values["provenance"], path=document,
                             metadata_file=where))
    if not result:
        raise top.error("source", "no [[source]] entries")
    return tuple(result)


# ---------------------------------------------------------------------------------- rulebook

_TOP_KEYS = ("game", "title", "sources", "howto", "rule", "nonrule")
_HOWTO_KEYS = ("title", "sections")
_RULE_KEYS = ("id", "title", "section", "status", "text", "summary", "normative", "rationale", "checks", "values",
              "variation", "quote", "discrepancy")
_VARIATION_KEYS = ("parameter", "default", "option")
_OPTION_KEYS = ("value", "text")
_QUOTE_KEYS = ("source", "span", "gloss")
_DISCREPANCY_KEYS = ("sources", "kind", "what", "ruling", "reason")
_NONRULE_KEYS = ("source", "kind", "span", "gloss")


class _Context:
    """What reading one rulebook needs: its file, game, sources."""

    def __init__(self, where: str, game: str, known: dict[str, Source], own: dict[str, Source]) -> None:
        self.where, self.game, self.known, self.own = where, game, known, own

    def source(self, entry: _Entry, key: str, source_id: str) -> Source:
        if source_id not in self.known:
            raise entry.error(key, f"unknown source {source_id!r} (known: {', '.join(self.known)})")
        if source_id not in self.own:
            raise entry.error(key, f"source {source_id!r} is not one of this rulebook's sources "
                                   f"({', '.join(self.own)})")
        return self.own[source_id]

    def span(self, entry: _Entry, source: Source) -> str:
        span = entry.text("span")
        if span not in source.text:
            raise entry.error("span", f"not found verbatim in {source.id} ({source.file}): {_abbrev(span)}"
                                      f"{_mismatch(span, source.text)}")
        return span


def _mismatch(span: str, text: str) -> str:
    """Where the longest prefix of ``span`` found in ``text`` stops, to locate a typo."""
    low, high = 0, len(span)  # span[:low] occurs in text, span[:high + 1] does not
    while low < high:
        middle = (low + high + 1) // 2
        if span[:middle] in text:
            low = middle
        else:
            high = middle - 1
    if low == 0:
        return ""
    found = text.find(span[:low]) + low
    return (f"; the first {low} characters match, then the span has {span[low:low + 12]!r} "
            f"where the source has {text[found:found + 12]!r}")


def _abbrev(text: str, limit: int = 60) -> str:
    text = repr(text)
    return text if len(text) <= limit else text[: limit - 4] + "...'"


def load_file(path: str | Path, sources: Iterable[Source] | str | Path | None = None) -> Rulebook:
    """Read and validate one rulebook file.

    ``sources`` are the known source documents: by default those of the package's
    ``sources/sources.toml``; a path reads another ``sources.toml``.
    """
    if sources is None:
        from cardcanon.spec import sources as default_sources

        sources = default_sources()
    elif isinstance(sources, (str, Path)):
        sources = load_sources(sources)
    known = {source.id: source for source in sources}
    where, data = read_toml(path)
    top = _Entry(where, None, data, _TOP_KEYS)
    game = top.text("game")
    if game not in GAMES:
        raise top.error("game", f"unknown game {game!r} (allowed: {', '.join(GAMES)})")
    title = top.text("title")
    own: dict[str, Source] = {}
    for source_id in top.texts("sources"):
        if source_id not in known:
            raise top.error("sources", f"unknown source {source_id!r} (known: {', '.join(known)})")
        if known[source_id].game != game:
            raise top.error("sources", f"source {source_id!r} is a {known[source_id].game} source")
        if source_id in own:
            raise top.error("sources", f"source {source_id!r} listed twice")
        own[source_id] = known[source_id]
    context = _Context(where, game, known, own)

    rules: list[Rule] = []
    seen: dict[str, int] = {}
    for index, raw in enumerate(top.tables("rule", "rule"), 1):
        rule = _read_rule(context, index, raw, seen)
        rules.append(rule)
    if not rules:
        raise top.error("rule", "no [[rule]] entries")
    _check_references(where, rules)
    _check_parameters(where, rules)
    _check_value_names(where, rules)
    howto = _read_howto(top, rules)
    nonrules = tuple(_read_nonrule(context, index, raw)
                     for index, raw in enumerate(top.tables("nonrule", "nonrule"), 1))
    return Rulebook(game=game, title=title, sources=tuple(own.values()), rules=tuple(rules), nonrules=nonrules,
                    file=where, howto=howto)


def _read_howto(top: _Entry, rules: list[Rule]) -> tuple[HowtoPart, ...]:
    """The ``[[howto]]`` parts; every section they name exists, none is named twice, and every
    rule with a summary lies in a named section (else its summary would never be shown)."""
    sections = list(dict.fromkeys(rule.section for rule in rules))
    parts: list[HowtoPart] = []
    owner: dict[str, str] = {}
    for number, item in enumerate(top.tables("howto", "howto"), 1):
        entry = _Entry(top.file, f"howto #{number}", item, _HOWTO_KEYS)
        title = entry.text("title")
        for section in entry.texts("sections"):
            if section not in sections:
                close = difflib.get_close_matches(section, sections, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise entry.error("sections", f"no rulebook section {section!r}{hint}")
            if section in owner:
                raise entry.error("sections", f"section {section!r} is already in part {owner[section]!r}")
            owner[section] = title
        parts.append(HowtoPart(title=title, sections=entry.texts("sections")))
    if parts:
        for rule in rules:
            if rule.summary and rule.section not in owner:
                raise SpecError(top.file, f"has a summary but its section {rule.section!r} is in no [[howto]] part",
                                entry=f"rule {rule.id}", field="summary")
    return tuple(parts)


def check_summary(summary: str) -> str | None:
    """What is wrong with a rule's ``summary`` (FORMAT.md, "Summaries"), or None."""
    if "\n" in summary.strip():
        return "must be one line"
    if summary != summary.strip():
        return "has leading or trailing spaces"
    if not summary.endswith((".", '."', '!"')):
        return "must end with a full stop"
    if _SENTENCE_BREAK.search(summary[:-1]):
        return "must be one sentence"
    if RULE_REF.search(summary):
        return "must not name rule IDs (the how-to text attaches the rule's own ID)"
    words = len(summary.split())
    if words > SUMMARY_MAX_WORDS:
        return f"has {words} words; at most {SUMMARY_MAX_WORDS}"
    return None


def _read_rule(context: _Context, index: int, raw: Any, seen: dict[str, int]) -> Rule:
    rule_id = raw.get("id") if isinstance(raw, dict) else None
    usable = isinstance(rule_id, str) and rule_id.strip() and rule_id.isprintable()
    name = f"rule {rule_id}" if usable else f"rule #{index}"
    entry = _Entry(context.where, name, raw, _RULE_KEYS)
    rule_id = entry.text("id")
    if not _ID.fullmatch(rule_id):
        example = f"{ID_PREFIX[context.game]}-DEAL-2"
        raise entry.error("id", f"malformed ID {rule_id!r} (expected GAME-AREA-N, e.g. {example})")
    if not rule_id.startswith(ID_PREFIX[context.game] + "-"):
        raise entry.error("id", f"ID must start with {ID_PREFIX[context.game]}- in the {context.game} rulebook")
    if rule_id in seen:
        raise entry.error("id", f"duplicate ID (also rule #{seen[rule_id]})")
    seen[rule_id] = index
    title, section, text = entry.text("title"), entry.text("section"), entry.text("text")
    status = entry.choice("status", Status, "status")
    normative = entry.flag("normative")
    if normative and status is Status.INFORMATIVE:
        raise entry.error("normative", "an informative rule cannot be normative")
    rationale = entry.optional_text("rationale")
    if rationale is None and status in NEEDS_RATIONALE:
        raise entry.error("rationale", f"missing (required for status {status.value!r})")
    summary = entry.optional_text("summary")
    if summary is not None and (problem := check_summary(summary)):
        raise entry.error("summary", problem)
    checks = entry.texts("checks") if "checks" in raw else ()
    for check in checks:
        if not CHECK_ID.fullmatch(check):
            raise entry.error("checks", f"{check!r} is not a check ID (like HEARTS-P6-match-bound)")
    values = _read_values(entry, raw.get("values"))
    normative_flag = status is not Status.INFORMATIVE if normative is None else normative
    if normative_flag:
        problems = value_problems(text, values)
        if problems:
            raise entry.error("values", "; ".join(problems) + " (FORMAT.md, \"Named values\")")
    elif values:
        raise entry.error("values", "only a normative rule declares values")
    variation = _read_variation(entry, raw.get("variation"))
    if variation is None and status is Status.VARIANT:
        raise entry.error("variation", "missing (required for status 'variant')")
    quotes = []
    for number, item in enumerate(entry.tables("quote", "rule.quote"), 1):
        quote = _Entry(context.where, name, item, _QUOTE_KEYS, prefix=f"quote[{number}].")
        source = context.source(quote, "source", quote.text("source"))
        quotes.append(Quote(source=source.id, span=context.span(quote, source), gloss=quote.text("gloss"),
                            language=source.language))
    discrepancies = []
    for number, item in enumerate(entry.tables("discrepancy", "rule.discrepancy"), 1):
        found = _Entry(context.where, name, item, _DISCREPANCY_KEYS, prefix=f"discrepancy[{number}].")
        ids = found.texts("sources")
        for source_id in ids:
            context.source(found, "sources", source_id)
        discrepancies.append(Discrepancy(sources=ids, kind=found.choice("kind", DiscrepancyKind, "discrepancy kind"),
                                         what=found.text("what"), ruling=found.text("ruling"),
                                         reason=found.text("reason")))
    return Rule(id=rule_id, title=title, section=section, status=status, text=text,
                normative=normative_flag, rationale=rationale, variation=variation, quotes=tuple(quotes),
                discrepancies=tuple(discrepancies), values=values,
                summary=summary, checks=checks)


def _read_values(rule: _Entry, raw: Any) -> dict[str, int]:
    """``[rule.values]``: named non-negative integers."""
    if raw is None:
        return {}
    entry = _Entry(rule.file, rule.entry, raw, list(raw) if isinstance(raw, dict) else (), prefix="values.")
    values: dict[str, int] = {}
    for name, value in entry.data.items():
        if not _PARAMETER.fullmatch(name):
            raise entry.error(name, f"{name!r} is not a lower-case identifier (like queen_points)")
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise entry.error(name, f"expected a non-negative integer, got {value!r}")
        values[name] = value
    if not values:
        raise rule.error("values", "an empty [rule.values] table")
    return values


def _read_variation(rule: _Entry, raw: Any) -> Variation | None:
    if raw is None:
        return None
    entry = _Entry(rule.file, rule.entry, raw, _VARIATION_KEYS, prefix="variation.")
    parameter = entry.text("parameter")
    if not _PARAMETER.fullmatch(parameter):
        raise entry.error("parameter", f"{parameter!r} is not a lower-case identifier (like next_turn)")
    default = entry.text("default")
    options: list[Option] = []
    for number, item in enumerate(entry.tables("option", "rule.variation.option"), 1):
        option = _Entry(rule.file, rule.entry, item, _OPTION_KEYS, prefix=f"variation.option[{number}].")
        value = option.text("value")
        if any(o.value == value for o in options):
            raise option.error("value", f"duplicate option value {value!r}")
        options.append(Option(value=value, text=option.text("text")))
    if len(options) < 2:
        raise entry.error("option", "a variation needs at least two [[rule.variation.option]] entries")
    if default not in {o.value for o in options}:
        values = ", ".join(o.value for o in options)
        raise entry.error("default", f"{default!r} is not one of the option values ({values})")
    return Variation(parameter=parameter, default=default, options=tuple(options))


def _read_nonrule(context: _Context, index: int, raw: Any) -> NonRule:
    entry = _Entry(context.where, f"nonrule #{index}", raw, _NONRULE_KEYS)
    source = context.source(entry, "source", entry.text("source"))
    kind = entry.choice("kind", NonRuleKind, "non-rule kind")
    return NonRule(source=source.id, kind=kind, span=context.span(entry, source), gloss=entry.text("gloss"),
                   language=source.language)


def _prose_fields(rule: Rule) -> Iterable[tuple[str, str]]:
    """The English fields of a rule that may name other rules."""
    yield "text", rule.text
    if rule.rationale:
        yield "rationale", rule.rationale
    if rule.variation:
        for number, option in enumerate(rule.variation.options, 1):
            yield f"variation.option[{number}].text", option.text
    for number, found in enumerate(rule.discrepancies, 1):
        for key in ("what", "ruling", "reason"):
            yield f"discrepancy[{number}].{key}", getattr(found, key)


def _check_references(where: str, rules: list[Rule]) -> None:
    ids = {rule.id for rule in rules}
    for rule in rules:
        for key, text in _prose_fields(rule):
            for ref in RULE_REF.findall(text):
                if ref not in ids:
                    raise SpecError(where, f"refers to {ref}, which is not a rule of this rulebook",
                                    entry=f"rule {rule.id}", field=key)


def _check_parameters(where: str, rules: list[Rule]) -> None:
    owner: dict[str, str] = {}
    for rule in rules:
        if rule.variation:
            parameter = rule.variation.parameter
            if parameter in owner:
                raise SpecError(where, f"parameter {parameter!r} is already used by {owner[parameter]}",
                                entry=f"rule {rule.id}", field="variation.parameter")
            owner[parameter] = rule.id


def _check_value_names(where: str, rules: list[Rule]) -> None:
    """A name declared by several rules (``queen_points``) is one number: every rule agrees on it."""
    first: dict[str, tuple[str, int]] = {}
    for rule in rules:
        for name, value in rule.values.items():
            owner, known = first.setdefault(name, (rule.id, value))
            if known != value:
                raise SpecError(where, f"{name} = {value}, but {owner} declares {name} = {known}",
                                entry=f"rule {rule.id}", field=f"values.{name}")


def check_unique_ids(rulebooks: Iterable[Rulebook]) -> frozenset[str]:
    """All rule IDs of several rulebooks; :class:`SpecError` when one appears in two of them."""
    owner: dict[str, Rulebook] = {}
    for book in rulebooks:
        for rule in book.rules:
            if rule.id in owner:
                other = owner[rule.id].file or owner[rule.id].game
                raise SpecError(book.file or book.game, f"duplicate ID, also in {other}", entry=f"rule {rule.id}",
                                field="id")
            owner[rule.id] = book
    return frozenset(owner)


def rulebook_path(game: str) -> Path:
    if game not in GAMES:
        raise SpecError(game, f"unknown game (choose from {', '.join(GAMES)})")
    return DATA_DIR / f"{game}.toml"


def source_by_id(source_id: str, sources: Iterable[Source]) -> Source:
    sources = tuple(sources)
    for source in sources:
        if source.id == source_id:
            return source
    raise SpecError(display_path(SOURCES_FILE), f"unknown source {source_id!r} "
                    f"(known: {', '.join(s.id for s in sources)})")
