"""Shared test configuration: Hypothesis profiles ("ci": derandomized and thorough; "dev": quick, the default).

Select with HYPOTHESIS_PROFILE=ci.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, max_examples=300, deadline=None)
settings.register_profile("dev", max_examples=50, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
