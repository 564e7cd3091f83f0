"""The calling policies that every Snap figure and witness depends on, defined on the caveats
page. The definitions come from the rulebook's calling-policy section when it has one, else
from the documentation of :mod:`cardcanon.model.snap_policies`; every policy the figures use,
such as ``ties:0.1``, is then written out with its numbers."""

from __future__ import annotations

import re

from rulebook_pages import esc, heading, linkify, rule_ref, section_docname

from cardcanon import spec
from cardcanon.model import snap_policies

DEFINITION = re.compile(r"^- ``([a-z:-]+|[a-z]+:RATE)``: (.*?)(?=^- ``|^\s*$)", re.M | re.S)


def definitions() -> dict[str, str]:
    """Policy name (``ties:RATE``) -> its definition, as prose."""
    doc = snap_policies.__doc__ or ""
    return {name: " ".join(text.split()) for name, text in DEFINITION.findall(doc)}


def _rulebook_section():
    for section, rules in spec.load("snap").sections():
        if "polic" in section.lower():
            return section, rules
    return None


def _common_choices() -> str:
    doc = " ".join((snap_policies.__doc__ or "").split())
    m = re.search(r"(When both .*?\.)", doc)
    return m.group(1) if m else ""


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def describe(policy: str, defs: dict[str, str]) -> str:
    """One policy as used in the figures, for example ``ties:0.1``, with its numbers filled in."""
    if policy in defs:
        return defs[policy]
    name, _, value = policy.partition(":")
    template = defs.get(f"{name}:RATE")
    if template is None:
        return "not defined"
    return template.replace("RATE", value)


def section(used: list[str]) -> str:
    ids = spec.all_rule_ids()
    out = [heading("Calling policies", "-")]
    out.append("Snap is a race: in each call window the first correct caller wins, so a game depends on "
               "who calls first. A *calling policy* decides each race, so that a deal and a policy give one "
               "reproducible game. Every figure and witness on this page names the policy it used.\n\n")
    found = _rulebook_section()
    if found:
        name, rules = found
        out.append(f"The rulebook defines them in :doc:`/generated/{section_docname('snap', name)}`: "
                   + ", ".join(f"{rule_ref(r.id)} ({esc(r.title)})" for r in rules) + ".\n\n")
    defs = definitions()
    out.append("The named policies:\n\n")
    for name, text in defs.items():
        out.append(f"``{name}``\n   {linkify(_sentence(text), ids)}\n\n")
    choice = _common_choices()
    if choice:
        out.append(linkify(choice, ids) + "\n\n")
    out.append("The policies the figures below use, with their numbers:\n\n")
    for policy in used:
        out.append(f"``{policy}``\n   {linkify(_sentence(describe(policy, defs)), ids)}\n\n")
    return "".join(out)
