"""The calling policies that every Snap figure and witness depends on, defined on the caveats
page. The definitions are the rulebook's calling-policy rules when it has them (else the
documentation of :mod:`cardcanon.model.snap_policies`); every policy the figures use, such as
``ties:0.1``, is then written out with its numbers."""

from __future__ import annotations

import re

from rulebook_pages import esc, heading, linkify, rule_ref, section_docname

from cardcanon import spec
from cardcanon.model import snap_policies

DOCSTRING_ITEM = re.compile(r"^- ``([a-z]+(?:-[a-z]+)*|[a-z]+:RATE)``: (.*?)(?=^- ``|^\s*$)", re.M | re.S)
RULE_TITLE = re.compile(r"The policy (\S+)$")


def _rulebook_section():
    for section, rules in spec.load("snap").sections():
        if "polic" in section.lower():
            return section, rules
    return None


def definitions() -> dict[str, tuple[str | None, str]]:
    """Policy name (``ties:RATE``) -> (the rule that defines it, or None; its definition)."""
    found = _rulebook_section()
    if found:
        defs = {}
        for rule in found[1]:
            m = RULE_TITLE.search(rule.title)
            if m:
                defs[m.group(1)] = (rule.id, rule.text)
        if defs:
            return defs
    doc = snap_policies.__doc__ or ""
    return {name: (None, " ".join(text.split())) for name, text in DOCSTRING_ITEM.findall(doc)}


def describe(policy: str, defs) -> tuple[str | None, str]:
    """One policy as the figures use it, for example ``ties:0.1``: its rule and its definition
    with the numbers filled in."""
    if policy in defs:
        return defs[policy]
    name, _, value = policy.partition(":")
    rule_id, template = defs.get(f"{name}:RATE", (None, "not defined"))
    return rule_id, re.sub(r"\bRATE\b", value, template)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def section(used: list[str]) -> str:
    ids = spec.all_rule_ids()
    defs = definitions()
    out = [heading("Calling policies", "-")]
    out.append("Snap is a race: in each call window the first correct caller wins, so a game depends on "
               "who calls first. A *calling policy* decides each race, so that a deal and a policy give one "
               "reproducible game. Every figure and witness on this page names the policy it used.\n\n")
    found = _rulebook_section()
    if found:
        name, rules = found
        out.append(f"The rulebook defines them in :doc:`/generated/{section_docname('snap', name)}`: "
                   + ", ".join(f"{rule_ref(r.id)} ({esc(r.title)})" for r in rules) + ".\n\n")
    else:
        out.append("The named policies:\n\n")
        for name, (_, text) in defs.items():
            out.append(f"``{name}``\n   {linkify(_sentence(text), ids)}\n\n")
        doc = " ".join((snap_policies.__doc__ or "").split())
        common = re.search(r"(When both .*?\.)", doc)
        if common:
            out.append(linkify(common.group(1), ids) + "\n\n")
    out.append("The policies the figures below use, written out with their numbers:\n\n")
    for policy in used:
        rule_id, text = describe(policy, defs)
        source = f" ({rule_ref(rule_id)} with its numbers)" if rule_id and policy not in defs else (
            f" ({rule_ref(rule_id)})" if rule_id else "")
        out.append(f"``{policy}``{source}\n   {linkify(_sentence(text), ids)}\n\n")
    return "".join(out)
