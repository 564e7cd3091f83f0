"""Shared test configuration: Hypothesis profiles split by cost.

- ``default``: quick, for everyday runs and CI (the README's test command).
- ``ci``: the bounded form of the thorough runs that CI also exercises (``pytest -m slow``).
- ``thorough``: long runs for releases (``HYPOTHESIS_PROFILE=thorough pytest -m slow``).
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("default", max_examples=60, deadline=None)
settings.register_profile("ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "thorough", max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
