"""The named numbers of a rule (``[rule.values]``) and the numbers its text states.

A normative rule declares every quantity its text states, so that models and encodings read
the number from the rulebook and a test notices when the text and the value drift apart
(FORMAT.md, "Named values"). The conventions:

- Every number written in digits in a normative rule's ``text`` is a quantity and must be
  declared, except rule IDs and card names. A number is a card name when it is followed by
  ``of <suit>`` (``the 2 of clubs``, ``the 2 and the 4 of clubs``) or stands in a list of ranks
  that names a court card or the ace (``the 2, 4, 6, 8, 10, queen and ace``, ``2 to 10, jack``).
- Every declared value appears in the text, in digits or as a number word (``two`` to
  ``twenty``): ``Exactly two players`` declares ``players = 2``.
- Numbers written as words need not be declared (``one at a time`` is not a quantity to read).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from cardcanon.spec.schema import RULE_ID
NUMBER_WORDS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
)
_SUIT = r"(?:clubs|diamonds|hearts|spades)"
_FACE = r"(?:jack|queen|king|ace)"
_RANK = rf"(?:\d+|{_FACE})(?: \([a-z ]+\))?"
_SEPARATOR = r"(?:,? (?:and|or|to|else)(?: the)?|,(?: else)?(?: the)?) "
_RANK_LIST = re.compile(rf"\b{_RANK}(?:{_SEPARATOR}{_RANK})*(?: of {_SUIT})?", re.IGNORECASE)
_DIGITS = re.compile(r"(?<!\w)\d+(?!\w)")


def card_name_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` names card ranks (see the module's conventions)."""
    spans = []
    for match in _RANK_LIST.finditer(text):
        words = match.group(0).lower()
        if re.search(rf"\b{_FACE}\b", words) or re.search(rf" of {_SUIT}$", words):
            spans.append(match.span())
    return spans


def stated_numbers(text: str) -> list[int]:
    """The quantities a rule's text states in digits, in order (rule IDs and card names left out)."""
    text = RULE_ID.sub(lambda m: " " * len(m.group(0)), text)
    names = card_name_spans(text)
    return [int(m.group(0)) for m in _DIGITS.finditer(text)
            if not any(start <= m.start() < end for start, end in names)]


def states_value(text: str, value: int) -> bool:
    """Whether ``text`` states ``value``: in digits (as a quantity) or as a number word."""
    if value in stated_numbers(text):
        return True
    return 0 <= value < len(NUMBER_WORDS) and re.search(rf"\b{NUMBER_WORDS[value]}\b", text, re.IGNORECASE) is not None


def value_problems(text: str, values: Mapping[str, int]) -> list[str]:
    """What is wrong between a normative rule's text and its declared values (empty when they agree)."""
    problems = []
    declared = set(values.values())
    for number in dict.fromkeys(stated_numbers(text)):
        if number not in declared:
            problems.append(f"the text states {number}, which no [rule.values] entry declares")
    for name, value in values.items():
        if not states_value(text, value):
            problems.append(f"value {name} = {value} is not stated in the text")
    return problems
