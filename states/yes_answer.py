"""A bare "yes" ("ừ", "đúng rồi", "phải", "vâng ạ") to a yes/no question the machine asked."""

from __future__ import annotations

import re

from core.text import fold, normalize

# Folded, whole turn: a yes and its politeness, nothing else ("ừ, nhưng …", "không phải" are not a bare yes).
_YES = re.compile(r"^(?:(?:da|vang|u|uh|um|uhm|uk|ok|oke|okay|yes|co|dung|phai|chinh xac|chuan)"
                  r"(?:\s+(?:roi|vay|the|a|ak|nha|nhe|ban|day|do|la no|la thuoc do))*[\s,.!]*)+$")


def is_bare_yes(text: str) -> bool:
    """The turn says yes and nothing more."""
    folded = fold(normalize(text)).strip(" .,!?")
    return bool(folded) and bool(_YES.match(folded))
