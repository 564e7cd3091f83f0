"""The memos of pure encodings and searches (``proofs.base.encoding_memo``, ``search_memo``) read no
rule of the reference models.

Their results are kept across runs in a verify worker, model-mutant runs included, so each must
be a function of its arguments and of no model code. Each is built afresh here with every
function of the models' rule modules (those a model mutant patches) made to raise.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import cardcanon.proofs
from cardcanon.model import hearts, snap
from cardcanon.proofs.base import ENCODING_MEMOS

RULE_MODULES = (snap, hearts)


def _load_every_check() -> None:
    for module in pkgutil.walk_packages(cardcanon.proofs.__path__, "cardcanon.proofs."):
        importlib.import_module(module.name)


def _examples() -> dict[str, tuple[Any, ...]]:
    """Each memo, by its qualified name, with arguments of a real run (built before the rules raise)."""
    return {
    }


def _name(memo: Any) -> str:
    return f"{memo.__wrapped__.__module__}.{memo.__wrapped__.__qualname__}"


@contextmanager
def rules_raise(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every function defined in the models' rule modules raises while the block runs."""
    def tripwire(name: str) -> Callable[..., Any]:
        def called(*args: Any, **kwargs: Any) -> Any:
            raise AssertionError(f"an encoding memo called the reference model's {name}")
        return called

    rules = {value: f"{module.__name__}.{name}" for module in RULE_MODULES for name, value in vars(module).items()
             if isinstance(value, types.FunctionType) and value.__module__ == module.__name__}
    holders = [module for name, module in sys.modules.items() if name.startswith("cardcanon.")]
    with monkeypatch.context() as patch:
        for holder in holders:  # the rule modules, and every module that imported a rule by name
            for name, value in list(vars(holder).items()):
                if isinstance(value, types.FunctionType) and value in rules:
                    patch.setattr(holder, name, tripwire(rules[value]))
        yield


def test_every_encoding_memo_has_an_example() -> None:
    _load_every_check()
    assert sorted(_name(memo) for memo in ENCODING_MEMOS) == sorted(_examples())


def test_no_encoding_memo_reads_the_models_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    _load_every_check()
    examples = _examples()
    try:
        with rules_raise(monkeypatch):
            for memo in ENCODING_MEMOS:
                memo.cache_clear()
                assert memo(*examples[_name(memo)]) is not None
    finally:
        for memo in ENCODING_MEMOS:
            memo.cache_clear()  # nothing built here outlives the test


def test_the_tripwire_catches_a_build_that_plays_the_model(monkeypatch: pytest.MonkeyPatch) -> None:
    def reads_the_model() -> object:
        return snap.new_game(snap.SnapConfig(players=2))

    with rules_raise(monkeypatch), pytest.raises(AssertionError, match="new_game"):
        reads_the_model()
    assert reads_the_model() is not None  # the rules are back
