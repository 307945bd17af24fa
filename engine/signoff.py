"""Sign-off as a gate: with REQUIRE_SIGNOFF=true a server refuses to start on a spec nobody signed.

The review export prints the fingerprint of the spec it draws; a pharmacist or clinician who has read it
records a sign-off of that fingerprint (`formulary-fsm signoff`). Any change to states, transitions, guards or
limits changes the fingerprint, so a signed review never silently covers a machine it did not show.
"""

from __future__ import annotations

from core.errors import ConfigurationError
from engine.store.base import SignOff, SignOffStore

SIGN_COMMAND = 'formulary-fsm signoff --by "NAME" --role "ROLE"'


def signoffs_of(store: object, fingerprint: str) -> list[SignOff]:
    """The sign-offs of `fingerprint`; [] for a store that keeps none."""
    return store.signoffs(fingerprint) if isinstance(store, SignOffStore) else []


def require_signed(store: object, fingerprint: str) -> list[SignOff]:
    """The fingerprint's sign-offs, or ConfigurationError naming the fingerprint and the command that signs it."""
    if not isinstance(store, SignOffStore):
        raise ConfigurationError("REQUIRE_SIGNOFF=true needs a conversation store that records sign-offs "
                                 "(the SQL store: SQLite or PostgreSQL)")
    found = store.signoffs(fingerprint)
    if not found:
        raise ConfigurationError(
            f"REQUIRE_SIGNOFF=true and spec fingerprint {fingerprint} has no sign-off; review it "
            f"(formulary-fsm review --out docs/review, then open review.html) and sign it with the same "
            f"configuration: {SIGN_COMMAND} --fingerprint {fingerprint}")
    return found
