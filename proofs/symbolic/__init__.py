"""Running the reference model on symbolic values: the Z3 terms of its rule functions, derived
from the code itself rather than written a second time.

- :mod:`.paths`: path exploration (``decide``, ``explore``, ``pick``, ``Unsupported``);
- :mod:`.values`: symbolic Booleans, integers and sets, and the ``any``/``all``/``sum`` they need;
- :mod:`.derive`: ``derive(fn, to_term)`` and ``patched`` (the one way a probe breaks a rule);
- :mod:`.memo`: ``ModelMemo``, what is derived kept while the model code it ran stands;
- :mod:`.options_read`: the fields of a variant's table a build reads (what a kept result is shared by);
- :mod:`.terms`: Z3 connectives, substitution and simplification through Z3's C API (the same terms, built faster).
"""

from cardcanon.proofs.symbolic.derive import Derived, derive, free, join, patched
from cardcanon.proofs.symbolic.memo import ModelMemo
from cardcanon.proofs.symbolic.paths import Branch, OutOfUniverse, Unsupported, decide, explore, pick
from cardcanon.proofs.symbolic.values import SymBool, SymInt, SymSet, aggregating, term_of

__all__ = ["Branch", "Derived", "ModelMemo", "OutOfUniverse", "SymBool", "SymInt", "SymSet", "Unsupported", "aggregating",
           "decide", "derive", "explore", "free", "join", "patched", "pick", "term_of"]
