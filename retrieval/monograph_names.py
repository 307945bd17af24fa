"""Names derived from a monograph: drug id, display name, aliases, brands and class phrases.

One rule for every loader: the drug id is the title's name (without the parenthesised part) in
lower-case ASCII snake_case without diacritics — `ACID ACETYLSALICYLIC (Aspirin)` → `acid_acetylsalicylic`,
with `Aspirin` an alias.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from core.corpus import DrugNames, Monograph
from core.text import fold, normalize

DRUG_ID = re.compile(r"^[a-z0-9]+(?:_[a-z0-9]+)*$")
_PARENS = re.compile(r"\(([^()]*)\)")
_NON_ID = re.compile(r"[^a-z0-9]+")
_LIST_SPLIT = re.compile(r"[;,\n]")


def _clean(phrase: str) -> str:
    return normalize(phrase).strip(" .;:*_-–")


def clean_title(raw: str) -> str:
    """'# **PARACETAMOL (Acetaminophen)**' → 'PARACETAMOL (Acetaminophen)'."""
    return normalize(raw.strip().lstrip("#").replace("**", "").replace("__", "")).strip(" *_")


def title_name(title: str) -> str:
    """The title without its parenthesised part: 'ACID ACETYLSALICYLIC (Aspirin)' → 'ACID ACETYLSALICYLIC'."""
    return normalize(_PARENS.sub(" ", title)).strip(" .,")


def title_aliases(title: str) -> list[str]:
    """The parenthesised names of a title, split on commas/semicolons: '(Aspirin)' → ['Aspirin']."""
    found: list[str] = []
    for group in _PARENS.findall(title):
        found.extend(p for p in (_clean(x) for x in _LIST_SPLIT.split(group)) if p)
    return found


def drug_id_from_title(title: str) -> str:
    return _NON_ID.sub("_", fold(title_name(title))).strip("_")


def display_name(title: str) -> str:
    """'ACID ACETYLSALICYLIC (Aspirin)' → 'Acid acetylsalicylic'."""
    name = title_name(title).lower()
    return name[:1].upper() + name[1:]


def brands_from(text: str) -> list[str]:
    """'Panadol; Efferalgan; Hapacol.' → ['Panadol', 'Efferalgan', 'Hapacol']."""
    return _unique(p for p in (_clean(x) for x in _LIST_SPLIT.split(text)) if p)


def classes_from(text: str) -> list[str]:
    """'Thuốc chống viêm không steroid (NSAID), chống kết tập tiểu cầu' →
    ['Thuốc chống viêm không steroid', 'NSAID', 'chống kết tập tiểu cầu']."""
    inside = [p for group in _PARENS.findall(text) for p in _LIST_SPLIT.split(group)]
    outside = _LIST_SPLIT.split(_PARENS.sub(",", text))
    return _unique(p for p in (_clean(x) for x in (*outside, *inside)) if len(p) >= 2)


def _unique(items: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for item in items:
        key = fold(item)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


def complete_names(m: Monograph) -> Monograph:
    """Fill aliases, brands and classes from the title and the identity sections (keeping given ones)."""
    sections = {s.key: s.text for s in m.sections}
    aliases = list(m.aliases) + title_aliases(m.title)
    inn = _clean(sections.get("ten_chung_quoc_te", ""))
    if inn and len(inn) <= 60 and fold(inn) != fold(m.name):
        aliases.append(inn)
    brands = list(m.brands) + brands_from(_strip_markers(sections.get("ten_thuong_mai", "")))
    classes = list(m.classes) + classes_from(_strip_markers(sections.get("loai_thuoc", "")))
    own = fold(m.name)
    return m.model_copy(update={
        "aliases": [a for a in _unique(aliases) if fold(a) != own],
        "brands": _unique(brands),
        "classes": _unique(classes),
    })


def _strip_markers(text: str) -> str:
    return re.sub(r"<!--.*?-->", " ", text, flags=re.S)


def names_of(m: Monograph) -> DrugNames:
    return DrugNames(drug_id=m.drug_id, name=m.name, aliases=tuple(m.aliases), brands=tuple(m.brands),
                     classes=tuple(m.classes))
