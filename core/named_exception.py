"""The diseases an exclusion's exception names, and whether the user named one of them.

"Trẻ em dưới 16 tuổi, vì nguy cơ hội chứng Reye, trừ khi có chỉ định đặc biệt như bệnh Kawasaki" (and the real
book's "chỉ trừ một số trường hợp như bệnh Kawasaki, viêm khớp dạng thấp thiếu niên, bệnh Still"): the exception
lifts the exclusion for those diseases only. It used to be lifted by any word the user's indication shared with
the exception — "sốt cao đặc biệt" shares "đặc biệt", "viêm khớp" shares half of "viêm khớp dạng thấp thiếu niên" —
and an exclusion lifted by a shared word is a dose shown to a child the book excludes. Now the user must name a
disease of the exception whole: as whole words, agreeing on the diacritics the user typed. An exception that names
no disease ("trừ khi có chỉ định của thầy thuốc") is never lifted by the rules: only a clinician decides it.
"""

from __future__ import annotations

import re
import unicodedata

from core.text import fold

_EXCEPTION = re.compile(r"\b(?:chỉ trừ|ngoại trừ|trừ khi|trừ)\b(?P<rest>.*)$", re.IGNORECASE)
_EXCEPTION_FOLDED = re.compile(r"\b(?:chi tru|ngoai tru|tru khi|tru)\b(?P<rest>.*)$")
# "như bệnh Kawasaki", "như: …": what follows "như" is the list of diseases.
_SUCH_AS = re.compile(r"\b(?:như|nhu|gồm|gom)\b:?\s*", re.IGNORECASE)
_ITEM_SPLIT = re.compile(r"\s*(?:,|;|\bvà\b|\bva\b|\bhoặc\b|\bhoac\b)\s*", re.IGNORECASE)
_HEAD = re.compile(r"^(?:các |cac |bệnh |benh |trường hợp |truong hop )+", re.IGNORECASE)
# Words that say an exception exists without naming a disease: never a disease the user could name.
_GENERIC = re.compile(r"^(?:khi |có |co )*(?:(?:một số |mot so )?(?:trường hợp|truong hop)|(?:chỉ định|chi dinh)\b.*|"
                      r"(?:đặc biệt|dac biet)|(?:ý kiến|y kien|chỉ dẫn|chi dan|theo dõi|theo doi)"
                      r"\b.*|(?:của |cua )?(?:thầy thuốc|thay thuoc|bác sĩ|bac si)\b.*)$", re.IGNORECASE)
MIN_NAME_CHARS = 3


def _exception_part(sentence: str) -> str | None:
    """The sentence's text after its exception word, as written, or None."""
    written = unicodedata.normalize("NFC", sentence)
    m = _EXCEPTION.search(written)
    if m is not None:
        return m.group("rest")
    m = _EXCEPTION_FOLDED.search(fold(written))
    return m.group("rest") if m is not None else None


def named_exceptions(sentence: str) -> list[str]:
    """The diseases the sentence's exception names, as written ("Kawasaki", "viêm khớp dạng thấp thiếu niên")."""
    rest = _exception_part(sentence)
    if rest is None:
        return []
    listed = _SUCH_AS.split(rest, maxsplit=1)
    items = _ITEM_SPLIT.split(listed[-1].strip(" .;:)"))
    names: list[str] = []
    for item in items:
        name = _HEAD.sub("", item.strip(" .;:()")).strip()
        if len(fold(name)) >= MIN_NAME_CHARS and not _GENERIC.match(name):
            names.append(name)
    return names


def _whole(phrase: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", text) is not None


def names_exception(indication: str | None, sentence: str) -> bool:
    """The user's indication names a disease of the sentence's exception whole — agreeing on diacritics when the user
    typed them, folded when the user typed none."""
    if not indication:
        return False
    typed = unicodedata.normalize("NFC", indication).lower()
    for name in named_exceptions(sentence):
        written = unicodedata.normalize("NFC", name).lower()
        if typed.isascii() and _whole(fold(written), fold(typed)):
            return True
        if not typed.isascii() and _whole(written, typed):
            return True
    return False
