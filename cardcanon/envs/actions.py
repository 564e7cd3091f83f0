"""The check of an action against a ``Discrete(n)`` space, as gymnasium makes it, but cheap."""

from __future__ import annotations

from typing import Any

import numpy as np


def is_action(action: Any, n: Any) -> bool:
    """``Discrete(n).contains(action)``: an int or a numpy integer (scalar) in ``range(n)``."""
    if isinstance(action, int):
        return bool(0 <= action < n)
    if isinstance(action, (np.generic, np.ndarray)) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        return bool(0 <= int(action) < n)
    return False
