"""JSON Schemas (draft 2020-12) of cardcanon's JSON files, shipped as package data.

``load(name)`` reads ``<name>.schema.json`` from this folder; ``validator(name)`` gives a
:mod:`jsonschema` validator for it (``jsonschema`` is needed only for that).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

SCHEMA_DIR = Path(__file__).resolve().parent


def names() -> list[str]:
    return sorted(p.name.removesuffix(".schema.json") for p in SCHEMA_DIR.glob("*.schema.json"))


@cache
def load(name: str) -> dict[str, Any]:
    path = SCHEMA_DIR / f"{name}.schema.json"
    if not path.exists():
        raise ValueError(f"no schema named {name!r} (known: {', '.join(names())})")
    schema: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return schema


def validator(name: str) -> Any:
    """A draft 2020-12 validator for the schema ``name``; references between the schemas here
    (by their ``$id``) resolve without any network access."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    resources = [Resource.from_contents(load(other)) for other in names()]
    registry: Registry[Any] = Registry().with_resources(
        (uri, resource) for resource in resources if (uri := resource.id()) is not None)
    return Draft202012Validator(load(name), registry=registry, format_checker=Draft202012Validator.FORMAT_CHECKER)
