"""The person an English follow-up is about ("and her little brother, 2 years old?"): another person of the
conversation, so the one before's values are not theirs (states.person reads the Vietnamese words)."""

from __future__ import annotations

import re

from core.text import fold
from states.person import ADULT, CHILD, Person

# (folded regex, key as states.person names it, Vietnamese label for the reply, population)
_KIN: tuple[tuple[str, str, str, str | None], ...] = (
    (r"(?:little|younger|baby|small) brother", "younger", "em trai", None),
    (r"(?:little|younger|baby|small) sister", "younger", "em gái", None),
    (r"(?:older|big|elder) brother", "older", "anh trai", None),
    (r"(?:older|big|elder) sister", "older", "chị gái", None),
    (r"brother", "sibling", "anh/em trai", None),
    (r"sister", "sibling", "chị/em gái", None),
    (r"(?:mother|mom|mum|mommy|mummy)", "mother", "mẹ", ADULT),
    (r"(?:father|dad|daddy)", "father", "bố", ADULT),
    (r"(?:grandmother|grandma|granny)", "grandparent", "bà", ADULT),
    (r"(?:grandfather|grandpa)", "grandparent", "ông", ADULT),
    (r"(?:wife|husband|friend|neighbou?r|uncle|aunt)", "relative", "người thân", ADULT),
    (r"(?:son|daughter|baby|toddler|kid|child)", "child", "bé", CHILD),
)
_COMPILED = tuple((re.compile(rf"\b{p}s?\b"), key, label, pop) for p, key, label, pop in _KIN)


def english_person(text: str) -> Person | None:
    """The person an ASCII English turn names by kinship ("her little brother" → the younger sibling)."""
    if not text.isascii():
        return None
    folded = fold(text)
    for pattern, key, label, population in _COMPILED:
        if pattern.search(folded):
            return Person(key=key, label=label, population=population)
    return None
