"""Shared test configuration: Hypothesis profiles ("ci": derandomized and thorough; "dev": quick, the default).

Select with HYPOTHESIS_PROFILE=ci.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, max_examples=300, deadline=None)
settings.register_profile("dev", max_examples=50, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _no_real_model_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    """Real Claude requests are disabled in every test: no key from the environment, and the default base URL
    points at a closed local port. Tests that talk to a fake Messages API set both explicitly."""
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")
