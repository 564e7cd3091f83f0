"""Load and validate the check manifests (``proofs/manifest/*.toml``).

The format is described in ``proofs/manifest/README.md``; each file must match the JSON Schema
``proofs/manifest/manifest.schema.json``, and this module checks what a schema cannot state.
Every error is a :class:`ManifestError` naming the file, the check and the field.
"""

from __future__ import annotations

import enum
import importlib
import json
import re
import tomllib
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from jsonschema.exceptions import ValidationError, best_match

from cardcanon.schemas import explain, validator_of
from cardcanon.spec.errors import CardcanonError
from cardcanon.spec.schema import GAMES as GAMES
from cardcanon.spec.schema import RULE_ID as RULE_ID
from cardcanon.proofs.base import RuleDrop, Verdict, variant_name

if TYPE_CHECKING:
    from cardcanon.verify.variants import Combination

SCHEMA = "manifest.schema.json"  # beside the manifests


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
    rests_on: tuple[str, ...] = ()  # the premises: IDs of the checks that tie this check's encoding to the model
    bridge: str = ""  # how the check itself ties its terms to the model ("": not stated)

    @property
    def probes(self) -> tuple[ProbeSpec, ...]:
        """The probes: the manifest's, then one dropping each cited rule (a Z3 proof) or each rule of ``drop_probes``."""
        drops = self.rules if self.kind is Kind.Z3_PROOF else self.drop_probes
        return self.declared_probes + tuple(
            ProbeSpec(RuleDrop(rule).id, f"the encoding without the constraints of {rule}") for rule in drops)

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
            checks.append(check)
    _check_premises(checks)
    return [check for check in checks if check.game in wanted]


def _check_premises(checks: Sequence[CheckSpec]) -> None:
    """Each ``rests_on`` names a check of the same game, and no check rests on itself, however far down."""
    by_id = {check.id: check for check in checks}
    for check in checks:
        for premise in check.rests_on:
            found = by_id.get(premise)
            if found is None or found.game != check.game:
                raise ManifestError(f"{check.source}: check {check.id}: field 'rests_on': "
                                    f"{premise} is no {check.game} check of the manifests")
    for check in checks:
        if cycle := _path_to(check.id, check.rests_on, by_id):
            raise ManifestError(f"{check.source}: check {check.id}: field 'rests_on': a cycle: "
                                + " rests on ".join([check.id, *cycle]))


def _path_to(target: str, start: Sequence[str], by_id: Mapping[str, CheckSpec]) -> list[str]:
    """The premises from ``start`` down to ``target`` (empty: ``target`` is not below ``start``)."""
    seen: set[str] = set()
    stack: list[list[str]] = [[premise] for premise in reversed(start)]
    while stack:
        path = stack.pop()
        if path[-1] == target:
            return path
        if path[-1] in seen:
            continue
        seen.add(path[-1])
        stack += [path + [premise] for premise in reversed(by_id[path[-1]].rests_on)]
    return []


def with_premises(chosen: Sequence[CheckSpec], every: Sequence[CheckSpec]) -> list[CheckSpec]:
    """``chosen`` and the checks they rest on, however far down, in the manifests' order (``every``)."""
    by_id = {check.id: check for check in every}
    wanted: set[str] = set()
    stack = [check.id for check in chosen]
    while stack:
        check_id = stack.pop()
        if check_id not in wanted:
            wanted.add(check_id)
            stack += by_id[check_id].rests_on if check_id in by_id else ()
    return [check for check in every if check.id in wanted]


def load_manifest(
    path: str | Path, *, rule_ids: Collection[str] | None = None, resolve: bool = True
) -> list[CheckSpec]:
    """The checks of one manifest file, validated."""
    where = str(path)
    checks: list[CheckSpec] = []
    for number, entry in enumerate(_read(path).get("check", []), 1):
        check = _parse_check(entry, f"{where}: check {_name(entry, number)}", rule_ids, resolve)
        if any(check.id == earlier.id for earlier in checks):
            raise ManifestError(f"{where}: check {check.id}: field 'id': duplicate check ID")
        checks.append(replace(check, source=where))
    return checks


@cache
def _validator() -> Any:  # a Draft 2020-12 validator (typed loosely by its stubs)
    return validator_of(json.loads((default_manifest_dir() / SCHEMA).read_text(encoding="utf-8")))


def _read(path: str | Path) -> dict[str, Any]:
    """A manifest file's data, refused unless it matches the schema."""
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        raise ManifestError(f"{path}: no such file") from None
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"{path}: not valid TOML: {exc}") from None
    errors = list(_validator().iter_errors(data))
    if not errors:
        return data
    first = min(map(_table_of, errors))  # the file's own keys, then each [[check]], then each [[combination]]
    error = best_match(e for e in errors if _table_of(e) == first)
    entry = ""
    if first:  # in a [[check]] or [[combination]] table: name it, then the field inside it
        table, index = error.path.popleft(), error.path.popleft()
        entry = f"check {_name(data[table][index], index + 1)}" if table == "check" else f"{table} #{index + 1}"
    place, problem = explain(error)
    raise ManifestError(": ".join(part for part in (str(path), entry, place, problem) if part))


def _table_of(error: ValidationError) -> tuple[str, int] | tuple[()]:
    """(``"check"``, index) for an error inside a ``[[check]]`` table (or combination), else ()."""
    path = error.path
    return (str(path[0]), path[1]) if len(path) >= 2 and isinstance(path[1], int) else ()


def _name(entry: Any, number: int) -> str:
    """A check's ID as its manifest writes it, else its number in the file: ``#3``."""
    check_id = entry.get("id") if isinstance(entry, dict) else None
    return check_id if isinstance(check_id, str) and check_id.strip() else f"#{number}"


def _parse_check(entry: dict[str, Any], where: str, rule_ids: Collection[str] | None, resolve: bool) -> CheckSpec:
    """A check the schema accepted, checked for what a schema cannot state."""
    def fail(key: str, problem: str) -> ManifestError:
        return ManifestError(f"{where}: field '{key}': {problem}")

    check_id, game, kind, rules = entry["id"], entry["game"], Kind(entry["kind"]), tuple(entry["rules"])
    if not check_id.lower().startswith(game + "-"):
        raise fail("id", f"{check_id!r} does not belong to game {game!r}")
    for rule in rules:
        if not rule.lower().startswith(game + "-"):
            raise fail("rules", f"{rule} is not a {game} rule")
        if rule_ids is not None and rule not in rule_ids:
            raise fail("rules", f"unknown rule ID {rule}")
    if resolve:
        try:
            resolve_entry(entry["entry"])
        except Exception as exc:  # any import-time failure is a manifest problem
            raise fail("entry", f"cannot import {entry['entry']}: {type(exc).__name__}: {exc}") from None
    bounds = _table(entry.get("bounds", {}))
    ci_bounds = _table(entry["ci_bounds"]) if "ci_bounds" in entry else None
    if "scope" in entry:
        from cardcanon.verify.scope import left_out_problem, problems

        for bound in (bounds, ci_bounds or bounds):
            if found := problems(entry["scope"], bound):
                raise fail("scope", "; ".join(found))
        if found_left_out := left_out_problem(game, entry["scope"], bounds):
            raise fail("scope", found_left_out)
    # a z3-proof gets a drop probe for every rule it cites (and may say why cvc5 does not decide its
    # queries); any other check may name cited rules it can drop, or say why it drops none
    if kind is Kind.Z3_PROOF and entry.get("no_drop_probes"):
        raise fail("no_drop_probes", "a z3-proof check always gets its drop probes")
    if kind is Kind.Z3_PROOF and entry.get("drop_probes"):
        raise fail("drop_probes", "a z3-proof check gets a drop probe for every rule it cites")
    if uncited := sorted(set(entry.get("drop_probes", [])) - set(rules)):
        raise fail("drop_probes", f"{', '.join(uncited)} not cited by the check")
    if kind is not Kind.Z3_PROOF and entry.get("no_second_solver"):
        raise fail("no_second_solver", "only a z3-proof check has queries for a second solver")
    rests_on, bridge = tuple(entry.get("rests_on", [])), " ".join(entry.get("bridge", "").split())
    if check_id in rests_on:
        raise fail("rests_on", "a check cannot rest on itself")
    if kind in (Kind.Z3_PROOF, Kind.Z3_WITNESS) and not rests_on and not bridge:
        raise fail("rests_on", f"a {kind} check names the checks that tie its encoding to the model "
                               "(rests_on), or says how it ties its terms to the model itself (bridge)")
    abstracted = str(entry.get("scope", {}).get("abstracted", ""))
    if rests_on and abstracted.split(":")[0].strip() == "nothing":
        raise fail("scope", "'abstracted' says nothing is abstracted, but the check rests on "
                            + ", ".join(rests_on))
    named = set(re.findall(r"\b(?:HEARTS|SNAP)-P[0-9]+\b", abstracted))
    if unnamed := [p for p in rests_on if "-".join(p.split("-")[:2]) not in named]:
        raise fail("scope", f"'abstracted' does not name {', '.join(unnamed)}, which the check rests on")
    probe_ids = [item["id"] for item in entry.get("probe", [])]
    if (twice := next((i for i in probe_ids if probe_ids.count(i) > 1), None)) is not None:
        raise fail("probe", f"duplicate probe ID {twice!r}")
    variants, engine = entry.get("variants"), entry.get("engine")
    return CheckSpec(
        id=check_id,
        game=game,
        title=entry["title"].strip(),
        rules=rules,
        kind=kind,
        expected=Verdict(entry["expected"]),
        entry=entry["entry"],
        bounds=bounds,
        ci_bounds=ci_bounds,
        declared_probes=tuple(ProbeSpec(item["id"], item["description"].strip()) for item in entry.get("probe", [])),
        expected_stats=_table(entry["expected_stats"]) if "expected_stats" in entry else None,
        expected_variant=MappingProxyType({name: Verdict(verdict) for name, verdict in
                                           entry.get("expected_variant", {}).items()}),
        variants=tuple(variants["only"]) if variants is not None else None,
        variants_reason=variants["reason"] if variants is not None else "",
        engine_covers=tuple(engine["covers"]) if engine is not None else None,
        variant_bounds=_tables(entry.get("variant_bounds", {})),
        scope=_table(entry["scope"]) if "scope" in entry else None,
        no_drop_probes=" ".join(entry.get("no_drop_probes", "").split()),
        drop_probes=tuple(dict.fromkeys(entry.get("drop_probes", []))),
        no_second_solver=" ".join(entry.get("no_second_solver", "").split()),
        rests_on=rests_on,
        bridge=bridge,
        expected_stats_variant=_tables(entry.get("expected_stats_variant", {})),
    )


def _table(value: dict[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(value))


def _tables(value: dict[str, dict[str, Any]]) -> Mapping[str, Mapping[str, Any]]:
    return MappingProxyType({name: _table(table) for name, table in value.items()})


def load_combinations(directory: str | Path | None = None) -> list[tuple[str, Combination]]:
    """The ``[[combination]]`` tables of every manifest as (game, Combination) pairs: options of different
    variation points that interact, run as a variant of its own (``reason``: why)."""
    from cardcanon.verify.variants import Combination

    folder = Path(directory) if directory is not None else default_manifest_dir()
    return [(item["game"], Combination(_table(item["options"]), item["reason"]))
            for path in sorted(folder.glob("*.toml")) for item in _read(path).get("combination", [])]
