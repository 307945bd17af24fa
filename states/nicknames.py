"""Children's nicknames: "cu Tí", "bé Cún", "thằng cu", "con bé Na", "bé Mimi", "cu Tony" are a child (issue #18).

A nickname is a capitalised word right after a word for a small child. It is the child — never an animal
(states.scope already strips it before the animal check), never a drug name the formulary lacks (an unknown
"Mimi" turned a child's dose question into "Mimi is not in the formulary"). "thằng cu" and "cu Tí" say a small
boy as surely as "bé" does, so the turn is read with "bé" in their place: asking "người lớn hay trẻ em?" of them
was a needless question.

A capitalised word after "bé" that the resolver reads as a drug ("cho bé Hapacol 250") stays a drug: only names
the resolver could not place are taken as nicknames.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from retrieval.resolver import ResolverResult
from states.provenance import USER_PREFIX

# A word for a small child, then a capitalised name (one word, not all capitals: "bé ĐTĐ" is no name).
# Not "con" or "cái" alone (a classifier: "cái Panadol này"), nor after "cho" ("cho bé Tylenol": a drug given).
_LEAD = r"(?:con bé|thằng cu|thằng bé|thằng|cu|bé|cháu|be|chau|thang)"
_NAMED = re.compile(rf"(?<!\w)(?<!cho )(?<!Cho )({_LEAD})\s+([A-ZĐÂĂÊÔƠƯÁÀẢÃẠÉÈẺẼẸÍÌỈĨỊÓÒỎÕỌÚÙỦŨỤÝỲỶỸỴ][^\W\d_]*)(?![\w])",
                    re.IGNORECASE)
# "thằng cu", "cu Tí" (a small boy), "con bé" (a small girl): a child, written as "bé" for the rules.
_KIN_BEFORE = re.compile(r"(?<!\w)(?:mẹ|má|bố|ba|cha|ông|bà|ông nội|bà nội|ông ngoại|bà ngoại|anh|chị|em|cô|chú|"
                         r"bác|dì|cậu|me|ma|bo|cha|ong|ba|noi|ngoai|nội|ngoại)\s+$", re.IGNORECASE)
_BOY = re.compile(r"(?<!\w)(?:thằng cu|thang cu)(?!\w)", re.IGNORECASE)


@lru_cache(maxsize=4096)
def _names_in(text: str) -> tuple[str, ...]:
    # Remembered per line: every turn reads the conversation's earlier user turns again (`nicknames_in`).
    names: list[str] = []
    for m in _NAMED.finditer(text):
        name = m.group(2)
        if name[:1].isupper() and not name.isupper() and name not in names:
            names.append(name)
    return tuple(names)


def nicknames_in(text: str, history: Sequence[str] = ()) -> list[str]:
    """The children's names this turn or an earlier user turn introduces ("bé Mimi nhà em …")."""
    names: list[str] = []
    for line in [*(h[len(USER_PREFIX):] for h in history if h.startswith(USER_PREFIX)), text]:
        names += [n for n in _names_in(line) if n not in names]
    return names


def without_nickname_names(candidates: ResolverResult, text: str, history: Sequence[str] = ()) -> ResolverResult:
    """The resolver's result without unknown "drug" names that are a child's nickname."""
    names = set(nicknames_in(text, history))
    if not names or not any(u in names for u in candidates.unknown):
        return candidates
    return candidates.model_copy(update={"unknown": [u for u in candidates.unknown if u not in names]})


def as_small_child(text: str, drug_spans: Sequence[str] = ()) -> str:
    """The turn with "thằng cu" and "cu <Name>" written as "bé", and "<child word> <Name>" as the child word alone
    (a name the resolver read as a drug, in `drug_spans`, is kept)."""
    text = _BOY.sub("bé", text)

    def child(m: re.Match[str]) -> str:
        lead, name = m.group(1), m.group(2)
        if not name[:1].isupper() or name.isupper() or any(name in span for span in drug_spans):
            return m.group(0)
        if _KIN_BEFORE.search(m.string[:m.start()]):
            return m.group(0)  # "bố thằng Bin", "mẹ cu Tí": the child's parent, named through the child (states.person)
        return "bé" if lead.lower() in ("cu", "thằng cu") else lead

    return _NAMED.sub(child, text)
