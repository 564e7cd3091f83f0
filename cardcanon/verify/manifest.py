"""Load and validate the check manifests (``proofs/manifest/*.toml``).

The format is described in ``proofs/manifest/README.md``. Every error is a
:class:`ManifestError` naming the file, the check and the field.
"""

from __future__ import annotations

import enum
import importlib
import re
import tomllib
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from cardcanon.spec.errors import CardcanonError
from cardcanon.proofs.base import CONTRARY, RuleDrop, Verdict, variant_name

if TYPE_CHECKING:
    from cardcanon.verify.variants import Combination

GAMES = ("hearts", "snap")
CHECK_ID = re.compile(r"^(HEARTS|SNAP)-P[0-9]+(-[a-z0-9]+(-[a-z0-9]+)*)?$")
RULE_ID = re.compile(r"\b(?:HEARTS|SNAP)-[A-Z]+-[0-9]+\b")
_REQUIRED = ("id", "game", "title", "rules", "kind", "expected", "entry")
_OPTIONAL = ("bounds", "ci_bounds", "probe", "expected_stats", "expected_variant", "variant_bounds", "variants",
             "expected_stats_variant", "engine", "scope",
             "no_drop_probes", "drop_probes", "no_second_solver")
_PROBE_KEYS = ("id", "description", "rule")


class ManifestError(CardcanonError):
    """A manifest that does not follow ``proofs/manifest/README.md``."""


class Kind(str, enum.Enum):
    Z3_PROOF = "z3-proof"
    Z3_WITNESS = "z3-witness"
    ENUMERATION = "enumeration"
    REPLAY = "replay"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class ProbeSpec:
    """A probe: the check's own encoding with one rule's constraints broken (``[[check.probe]]``)
    or dropped (``drop:<RULE>``, made by verify for every rule a Z3 proof cites)."""

    id: str
    description: str
    rule: str | None = None


@dataclass(frozen=True)
class CheckSpec:
    """One ``[[check]]`` entry of a manifest."""

    id: str
    game: str
    title: str
    rules: tuple[str, ...]
    kind: Kind
    expected: Verdict
    entry: str  # "module:function"
    bounds: Mapping[str, Any] = field(default_factory=dict)
    ci_bounds: Mapping[str, Any] | None = None
    declared_probes: tuple[ProbeSpec, ...] = ()  # the manifest's [[check.probe]]
    expected_stats: Mapping[str, Any] | None = None
    source: str = ""  # the manifest file it came from
    expected_variant: Mapping[str, Verdict] = field(default_factory=dict)  # variant name -> verdict
    variant_bounds: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # variant name -> bounds
    variants: tuple[str, ...] | None = None  # the only variants it runs under (None: every variant)
    variants_reason: str = ""
    expected_stats_variant: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # variant name -> stats
    # An engine check: the variants (names) the compiled engine is declared to cover; under any
    # other variant the check is not-applicable. None: not an engine check.
    engine_covers: tuple[str, ...] | None = None
    scope: Mapping[str, Any] | None = None  # what the check covers (cardcanon.verify.scope); None: not stated
    no_drop_probes: str = ""  # why a check that is no z3-proof has no drop:RULE probes ("": not stated)
    drop_probes: tuple[str, ...] = ()  # cited rules a check that is no z3-proof can drop (drop:RULE probes)
    no_second_solver: str = ""  # why a z3-proof's queries are decided by Z3 alone ("": cvc5 decides them too)

    @property
    def probes(self) -> tuple[ProbeSpec, ...]:
        """The probes: the manifest's, then one dropping each cited rule (a Z3 proof) or each rule of ``drop_probes``."""
        drops = self.rules if self.kind is Kind.Z3_PROOF else self.drop_probes
        return self.declared_probes + tuple(
            ProbeSpec(RuleDrop(rule).id, f"the encoding without the constraints of {rule}", rule) for rule in drops)

    def variant_names(self) -> set[str]:
        """Every variant name the entry mentions (in ``expected_variant``, ``variant_bounds``, ...)."""
        return (set(self.expected_variant) | set(self.variant_bounds) | set(self.expected_stats_variant)
                | set(self.variants or ()) | set(self.engine_covers or ()))

    def engine_refuses(self, variant: Mapping[str, str] | None) -> str:
        """Why this engine check does not cover ``variant`` (the manifest says so), or ""."""
        name = variant_name(variant or {})
        if self.engine_covers is None or name in self.engine_covers:
            return ""
        return f"the manifest does not declare the compiled engine to cover the variant {name}"

    def stats_for(self, variant: Mapping[str, str] | None) -> Mapping[str, Any] | None:
        """The golden stats under ``variant``: its ``expected_stats_variant`` table, else ``expected_stats``."""
        return self.expected_stats_variant.get(variant_name(variant or {}), self.expected_stats)

    def bounds_under(self, variant: Mapping[str, str] | None, quick: bool) -> Mapping[str, Any]:
        """The bounds of a run under ``variant``: its ``variant_bounds`` over :meth:`bounds_for`."""
        return {**self.bounds_for(quick), **self.variant_bounds.get(variant_name(variant or {}), {})}

    def expected_for(self, variant: Mapping[str, str] | None) -> Verdict:
        """The expected verdict under ``variant`` (``expected`` unless the manifest says otherwise)."""
        return self.expected_variant.get(variant_name(variant or {}), self.expected)

    def scope_for(self, quick: bool) -> dict[str, Any]:
        """The scope of a run with the full (or quick) bounds, as data and in words."""
        from cardcanon.verify.scope import describe

        return describe(self.game, self.scope, self.bounds_for(quick), self.variants, self.variants_reason)

    def bounds_for(self, quick: bool) -> Mapping[str, Any]:
        """The bounds of a run: ``ci_bounds`` for a quick run when given, else ``bounds``."""
        return self.ci_bounds if quick and self.ci_bounds is not None else self.bounds

    @property
    def short_id(self) -> str:
        """The ID without its slug: ``HEARTS-P4`` for ``HEARTS-P4-score-sum``."""
        return "-".join(self.id.split("-")[:2])


def default_manifest_dir() -> Path:
    import cardcanon.proofs

    return Path(cardcanon.proofs.__file__).resolve().parent / "manifest"


def resolve_entry(entry: str) -> Callable[..., Any]:
    """Import ``module:function``; raises ImportError/AttributeError/TypeError when it cannot."""
    module_name, _, function_name = entry.partition(":")
    function = getattr(importlib.import_module(module_name), function_name)
    if not callable(function):
        raise TypeError(f"{entry} is not callable")
    found: Callable[..., Any] = function
    return found


def load_manifests(
    directory: str | Path | None = None,
    *,
    games: Iterable[str] | None = None,
    rule_ids: Collection[str] | None = None,
    resolve: bool = True,
) -> list[CheckSpec]:
    """Every check of every ``*.toml`` in ``directory`` (default: the package's manifests).

    ``rule_ids``: when given, every cited rule must be one of them. ``resolve``: also check
    that every entry imports. Check IDs must be unique across all files.
    """
    folder = Path(directory) if directory is not None else default_manifest_dir()
    wanted = set(games) if games is not None else set(GAMES)
    checks: list[CheckSpec] = []
    seen: dict[str, str] = {}
    for path in sorted(folder.glob("*.toml")):
        for check in load_manifest(path, rule_ids=rule_ids, resolve=resolve):
            if check.id in seen:
                raise ManifestError(
                    f"{path}: check {check.id}: field 'id': duplicate check ID (also in {seen[check.id]})")
            seen[check.id] = str(path)
            if check.game in wanted:
                checks.append(check)
    return checks


def load_manifest(
    path: str | Path, *, rule_ids: Collection[str] | None = None, resolve: bool = True
) -> list[CheckSpec]:
    """The checks of one manifest file, validated."""
    where = str(path)
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        raise ManifestError(f"{where}: no such file") from None
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"{where}: not valid TOML: {exc}") from None
    unknown = sorted(set(data) - {"check", "combination"})
    if unknown:
        raise ManifestError(f"{where}: unknown top-level key(s) {', '.join(unknown)} "
                            "(only [[check]] and [[combination]] tables)")
    entries = data.get("check", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise ManifestError(f"{where}: 'check' must be an array of tables ([[check]])")
    checks: list[CheckSpec] = []
    seen: set[str] = set()
    for number, entry in enumerate(entries, 1):
        check = _parse_check(entry, f"{where}: check {entry.get('id', f'#{number}')!s}", rule_ids, resolve)
        if check.id in seen:
            raise ManifestError(f"{where}: check {check.id}: field 'id': duplicate check ID")
        seen.add(check.id)
        checks.append(replace(check, source=where))
    return checks


def _parse_check(entry: dict[str, Any], where: str, rule_ids: Collection[str] | None, resolve: bool) -> CheckSpec:
    def fail(key: str, problem: str) -> ManifestError:
        return ManifestError(f"{where}: field '{key}': {problem}")

    unknown = sorted(set(entry) - set(_REQUIRED) - set(_OPTIONAL))
    if unknown:
        raise ManifestError(f"{where}: unknown key(s) {', '.join(unknown)}")
    for key in _REQUIRED:
        if key not in entry:
            raise fail(key, "missing")
    for key in ("id", "game", "title", "kind", "expected", "entry"):
        if not isinstance(entry[key], str) or not entry[key].strip():
            raise fail(key, "must be a non-empty string")
    check_id, game = entry["id"], entry["game"]
    if game not in GAMES:
        raise fail("game", f"{game!r} is not one of {', '.join(GAMES)}")
    if not CHECK_ID.match(check_id):
        raise fail("id", f"{check_id!r} is not of the form HEARTS-P<n> or SNAP-P<n>[-slug]")
    if not check_id.lower().startswith(game + "-"):
        raise fail("id", f"{check_id!r} does not belong to game {game!r}")
    rules = _parse_rules(entry["rules"], game, rule_ids, fail)
    try:
        kind = Kind(entry["kind"])
    except ValueError:
        raise fail("kind", f"{entry['kind']!r} is not one of {', '.join(k.value for k in Kind)}") from None
    try:
        expected = Verdict(entry["expected"])
    except ValueError:
        expected = None
    if expected not in CONTRARY:
        raise fail("expected", f"{entry['expected']!r} is not one of {', '.join(v.value for v in CONTRARY)}")
    if not re.fullmatch(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*", entry["entry"]):
        raise fail("entry", f"{entry['entry']!r} is not of the form module:function")
    if resolve:
        try:
            resolve_entry(entry["entry"])
        except Exception as exc:  # any import-time failure is a manifest problem
            raise fail("entry", f"cannot import {entry['entry']}: {type(exc).__name__}: {exc}") from None
    bounds = _parse_table(entry.get("bounds", {}), "bounds", fail)
    ci_bounds = _parse_table(entry["ci_bounds"], "ci_bounds", fail) if "ci_bounds" in entry else None
    stats = _parse_table(entry["expected_stats"], "expected_stats", fail) if "expected_stats" in entry else None
    if "variants" in entry and (not isinstance(entry["variants"], dict) or set(entry["variants"]) != {"only", "reason"}
                                or not isinstance(entry["variants"]["only"], list)):
        raise fail("variants", "must be a table { only = [variant names], reason = \"why\" }")
    engine = entry.get("engine")
    if engine is not None and (not isinstance(engine, dict) or set(engine) != {"covers"}
                               or not isinstance(engine["covers"], list)
                               or not all(isinstance(name, str) for name in engine["covers"])):
        raise fail("engine", "must be a table { covers = [variant names] }")
    scope = None
    if "scope" in entry:
        from cardcanon.verify.scope import problems

        for bound in (bounds, ci_bounds or bounds):
            found = problems(entry["scope"], bound)
            if found:
                raise fail("scope", "; ".join(found))
        scope = MappingProxyType(dict(entry["scope"]))
    by_variant: dict[str, Verdict] = {}
    for name, verdict in _parse_table(entry.get("expected_variant", {}), "expected_variant", fail).items():
        parsed: Verdict | None
        try:
            parsed = Verdict(verdict)
        except ValueError:
            parsed = None
        if parsed not in CONTRARY:
            raise fail("expected_variant", f"{name}: {verdict!r} is not one of {', '.join(v.value for v in CONTRARY)}")
        by_variant[name] = parsed
    return CheckSpec(
        id=check_id,
        game=game,
        title=entry["title"].strip(),
        rules=rules,
        kind=kind,
        expected=expected,
        entry=entry["entry"],
        bounds=bounds,
        ci_bounds=ci_bounds,
        declared_probes=_parse_probes(entry.get("probe", []), fail),
        expected_stats=stats,
        expected_variant=MappingProxyType(by_variant),
        variants=tuple(entry["variants"]["only"]) if "variants" in entry else None,
        variants_reason=str(entry["variants"]["reason"]) if "variants" in entry else "",
        engine_covers=tuple(engine["covers"]) if engine is not None else None,
        variant_bounds=MappingProxyType({name: _parse_table(table, "variant_bounds", fail) for name, table in
                                         _parse_table(entry.get("variant_bounds", {}), "variant_bounds", fail).items()}),
        scope=scope,
        no_drop_probes=_reason(entry.get("no_drop_probes", ""), kind, fail),
        drop_probes=_drop_rules(entry.get("drop_probes", []), rules, kind, fail),
        no_second_solver=_solver_reason(entry.get("no_second_solver", ""), kind, fail),
        expected_stats_variant=MappingProxyType({
            name: _parse_table(table, "expected_stats_variant", fail) for name, table in
            _parse_table(entry.get("expected_stats_variant", {}), "expected_stats_variant", fail).items()}),
    )


def _reason(value: Any, kind: Kind, fail: Callable[[str, str], ManifestError]) -> str:
    """``no_drop_probes``: why a check gets no drop probes; a z3-proof always gets them."""
    if not isinstance(value, str):
        raise fail("no_drop_probes", "must be a string: why no drop probe applies")
    if value and kind is Kind.Z3_PROOF:
        raise fail("no_drop_probes", "a z3-proof check always gets its drop probes")
    return " ".join(value.split())


def _drop_rules(value: Any, rules: tuple[str, ...], kind: Kind, fail: Callable[[str, str], ManifestError]) -> tuple[str, ...]:
    """``drop_probes``: the cited rules whose constraints a check that is no z3-proof can drop."""
    if not isinstance(value, list) or not all(isinstance(rule, str) for rule in value):
        raise fail("drop_probes", "must be a list of rule IDs")
    if value and kind is Kind.Z3_PROOF:
        raise fail("drop_probes", "a z3-proof check gets a drop probe for every rule it cites")
    uncited = sorted(set(value) - set(rules))
    if uncited:
        raise fail("drop_probes", f"{', '.join(uncited)} not cited by the check")
    return tuple(dict.fromkeys(value))


def _solver_reason(value: Any, kind: Kind, fail: Callable[[str, str], ManifestError]) -> str:
    """``no_second_solver``: why cvc5 does not decide this z3-proof's queries (measured, in words)."""
    if not isinstance(value, str):
        raise fail("no_second_solver", "must be a string: why cvc5 does not decide the queries")
    if value and kind is not Kind.Z3_PROOF:
        raise fail("no_second_solver", "only a z3-proof check has queries for a second solver")
    return " ".join(value.split())


def _parse_rules(value: Any, game: str, rule_ids: Collection[str] | None, fail: Callable[[str, str], ManifestError]) -> tuple[str, ...]:
    if not isinstance(value, list) or not value or not all(isinstance(r, str) for r in value):
        raise fail("rules", "must be a non-empty list of rule IDs")
    if len(set(value)) != len(value):
        raise fail("rules", "lists a rule twice")
    for rule in value:
        if not RULE_ID.fullmatch(rule):
            raise fail("rules", f"{rule!r} is not a rule ID")
        if not rule.lower().startswith(game + "-"):
            raise fail("rules", f"{rule} is not a {game} rule")
        if rule_ids is not None and rule not in rule_ids:
            raise fail("rules", f"unknown rule ID {rule}")
    return tuple(value)


def _parse_table(value: Any, key: str, fail: Callable[[str, str], ManifestError]) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise fail(key, "must be a table")
    return MappingProxyType(dict(value))


def _parse_probes(value: Any, fail: Callable[[str, str], ManifestError]) -> tuple[ProbeSpec, ...]:
    if not isinstance(value, list) or not all(isinstance(m, dict) for m in value):
        raise fail("probe", "must be an array of tables ([[check.probe]])")
    probes: list[ProbeSpec] = []
    for number, item in enumerate(value, 1):
        unknown = sorted(set(item) - set(_PROBE_KEYS))
        if unknown:
            raise fail("probe", f"probe #{number}: unknown key(s) {', '.join(unknown)}")
        for key in _PROBE_KEYS:
            if key == "rule" and key not in item:
                continue
            if not isinstance(item.get(key), str) or not item[key].strip():
                raise fail("probe", f"probe #{number}: '{key}' must be a non-empty string")
        if item["id"].startswith("drop:"):
            raise fail("probe", f"probe #{number}: IDs starting with 'drop:' are the runner's own probes")
        if any(m.id == item["id"] for m in probes):
            raise fail("probe", f"duplicate probe ID {item['id']!r}")
        probes.append(ProbeSpec(item["id"], item["description"].strip(), item.get("rule")))
    return tuple(probes)


def load_combinations(directory: str | Path | None = None) -> list[tuple[str, Combination]]:
    """The ``[[combination]]`` tables of every manifest: (game, Combination) pairs.

    A combination is a set of options of different variation points that interact, run as a
    variant of its own; ``reason`` says why.
    """
    from cardcanon.verify.variants import Combination

    folder = Path(directory) if directory is not None else default_manifest_dir()
    found: list[tuple[str, Combination]] = []
    for path in sorted(folder.glob("*.toml")):
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
        for number, item in enumerate(data.get("combination", []), 1):
            where = f"{path}: combination #{number}"
            if not isinstance(item, dict) or set(item) != {"game", "options", "reason"}:
                raise ManifestError(f"{where}: needs exactly 'game', 'options' and 'reason'")
            if item["game"] not in GAMES or not isinstance(item["options"], dict) or len(item["options"]) < 2:
                raise ManifestError(f"{where}: 'game' must be a game and 'options' a table of two or more options")
            found.append((item["game"], Combination(MappingProxyType(dict(item["options"])), str(item["reason"]))))
    return found
