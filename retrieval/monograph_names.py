"""Names derived from a monograph: drug id, display name, aliases, brands and class phrases.

One rule for every loader: the drug id is the title's name (without the parenthesised part) in
lower-case ASCII snake_case without diacritics — `ACID ACETYLSALICYLIC (Aspirin)` → `acid_acetylsalicylic`,
with `Aspirin` an alias.

Real titles are written the international way ("Papaverine hydrochloride", "Acetylsalicylic acid",
"Pantoprazole") while the book's own text, and its users, write the Vietnamese way ("papaverin",
"acid acetylsalicylic", "pantoprazol"). `name_forms` derives those spellings from the title by rule (salt
dropped, "acid" moved, the Vietnamese spelling conventions applied), so no per-drug list is kept.
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


# Salt and ester words of an INN title: "Papaverine hydrochloride" is asked for as "papaverin". Folded.
_SALT_WORDS = frozenset({
    "hydrochloride", "hydroclorid", "hydrochlorid", "hcl", "natri", "sodium", "kali", "potassium", "calci", "calcium",
    "magnesi", "magnesium", "sulfate", "sulfat", "sulphate", "maleate", "maleat", "acetate", "acetat", "citrate",
    "citrat", "mesylate", "mesilat", "besylate", "besilat", "tartrate", "tartrat", "phosphate", "phosphat",
    "succinate", "succinat", "fumarate", "fumarat", "hydrobromide", "hydrobromid", "bromide", "bromid",
    "dihydrate", "dihydrat", "monohydrate", "monohydrat", "trihydrate", "trihydrat", "base",
})
_DOUBLE = re.compile(r"([bcdfglmnprst])\1")
_FINAL_E = re.compile(r"(?<=[bcdfghklmnpqrstvxz])e$")


def vietnamese_spelling(word: str) -> str:
    """International INN spelling → the Vietnamese one, by the book's conventions (folded input):
    'amoxicillin' → 'amoxicilin', 'pantoprazole' → 'pantoprazol', 'hydrochloride' → 'hydroclorid',
    A word already Vietnamese comes back unchanged."""
    w = _FINAL_E.sub("", word)
    w = _DOUBLE.sub(r"\1", w)
    return w.replace("chl", "cl")


def name_forms(title: str) -> list[str]:
    """Every spelling of a title's name the book and its readers use, folded, the name itself first:
    'Papaverine hydrochloride' → papaverine hydrochloride, papaverin hydroclorid, papaverine, papaverin;
    'Acetylsalicylic acid' → … acid acetylsalicylic; the parenthesised synonyms and their spellings too."""
    forms: list[str] = []
    for raw in (title_name(title), *title_aliases(title)):
        words = _NON_ID.sub(" ", fold(raw)).split()
        if not words:
            continue
        variants = [words]
        bare = [w for w in words if w not in _SALT_WORDS]
        if bare and len(bare) < len(words):
            variants.append(bare)
        for v in list(variants):
            if len(v) == 2 and "acid" in v:  # "acetylsalicylic acid" ↔ "acid acetylsalicylic"
                variants.append([v[1], v[0]])
        for v in list(variants):
            variants.append([vietnamese_spelling(w) for w in v])
        for v in variants:
            form = " ".join(v)
            if len(form) >= 3 and form not in forms:
                forms.append(form)
    return forms


_STRENGTH_TAIL = re.compile(r"(?:\s+(?:\d+(?:[.,]\d+)?\s*(?:mg|g|ml|mcg)?|extra|plus|forte|fort|baby|kids?|flu))+$", re.I)


def brand_stem(brand: str) -> str | None:
    """'Hapacol 250' → 'Hapacol' (people type the brand with or without its strength); None when unchanged or
    when nothing distinctive would be left."""
    stem = _STRENGTH_TAIL.sub("", brand).strip(" -")
    return stem if stem != brand and len(fold(stem)) >= 4 else None


_CLASS_SPLIT = re.compile(r"\b(?:loại|thuộc nhóm)\b", re.I)
_GROUP = re.compile(r"\bnhóm\s+(.+)$", re.I)
_LEADING_THUOC = re.compile(r"^(?:các\s+)?(?:thuốc|chất)\s+", re.I)


def class_cores(phrase: str) -> list[str]:
    """A class phrase of `loai_thuoc` and the shorter forms the text of other monographs uses:
    'Thuốc chống đông máu loại kháng vitamin K' → that, 'Thuốc chống đông máu', 'chống đông máu',
    'kháng vitamin K' (other monographs write "Thuốc uống chống đông máu", "chống đông")."""
    out = [phrase]
    parts = [p.strip(" ,.;") for p in _CLASS_SPLIT.split(phrase)]
    if len(parts) == 1 and (group := _GROUP.search(phrase)):  # "Kháng sinh nhóm beta-lactam": the group
        parts = [group.group(1).strip(" ,.;")]
    for part in parts:
        if len(part) >= 3:
            out.append(part)
            core = _LEADING_THUOC.sub("", part)
            if core != part and len(core.split()) >= 2:
                out.append(core)
    # "aminopenicilin" is a penicillin: other monographs write the family ("… phong bế vận chuyển tích cực của
    # penicilin …" in aspirin's interactions; #17 held-out H92 found no aspirin × amoxicillin line).
    out += ["penicilin" for part in parts if re.search(r"\b\w+penicilin\b", part, re.I)]
    return _unique(out)


def own_class_memberships(name: str, texts: Iterable[str]) -> list[str]:
    """Classes the monograph's own text puts the drug in: 'Warfarin và các chất chống đông máu thuộc nhóm
    coumarin' → ['coumarin']; 'Clarithromycin là chất ức chế mạnh CYP3A4' → ['chat uc che cyp3a4'] (folded).
    Only a sentence that starts with the drug's name counts, and only the one word after "thuộc nhóm"/"dẫn chất"
    or the enzyme after "là chất ức chế/cảm ứng": the text states the membership, no list of ours does."""
    own = fold(name).split()[0] if fold(name) else ""
    found: list[str] = []
    if not own:
        return found
    pattern = re.compile(rf"(?:^|[.;]\s+){re.escape(own)}\b[^.;]{{0,80}}?\b(?:thuoc nhom|la dan chat|dan chat)\s+([a-z]{{4,}})")
    # "Clarithromycin là chất ức chế mạnh CYP3A4": an enzyme class other monographs' interaction text names
    # ("các chất ức chế CYP3A4"); kept as the book writes it, without "mạnh".
    enzyme = re.compile(rf"(?:^|[.;]\s+){re.escape(own)}\b[^.;]{{0,60}}?\bla (?:mot )?(?:chat|thuoc) "
                        r"(uc che|cam ung)(?: manh| yeu| vua)? (cyp ?[0-9][a-z0-9]*|p-glycoprotein)")
    for text in texts:
        folded = fold(text)
        found += [m.group(1) for m in pattern.finditer(folded)]
        found += [f"chat {m.group(1)} {m.group(2).replace(' ', '')}" for m in enzyme.finditer(folded)]
    return _unique(found)


def complete_names(m: Monograph) -> Monograph:
    """Fill aliases, brands and classes from the title and the identity sections (keeping given ones)."""
    sections = {s.key: s.text for s in m.sections}
    aliases = list(m.aliases) + title_aliases(m.title)
    inn = _clean(sections.get("ten_chung_quoc_te", ""))
    if inn and len(inn) <= 60 and fold(inn) != fold(m.name):
        aliases.append(inn)
    aliases += name_forms(m.title)
    brands = list(m.brands) + brands_from(_strip_markers(sections.get("ten_thuong_mai", "")))
    brands += [stem for b in brands if (stem := brand_stem(b))]
    classes = list(m.classes) + classes_from(_strip_markers(sections.get("loai_thuoc", "")))
    classes = [core for c in classes for core in class_cores(c)]
    classes += own_class_memberships(m.name, (s.text for s in m.sections if s.key != "tuong_tac_thuoc"))
    own = fold(m.name)
    return m.model_copy(update={
        "aliases": [a for a in _unique(aliases) if fold(a) != own and fold(a) != m.drug_id.replace("_", " ")],
        "brands": _unique(brands),
        "classes": _unique(classes),
    })


def _strip_markers(text: str) -> str:
    return re.sub(r"<!--.*?-->", " ", text, flags=re.S)


def names_of(m: Monograph) -> DrugNames:
    return DrugNames(drug_id=m.drug_id, name=m.name, aliases=tuple(m.aliases), brands=tuple(m.brands),
                     classes=tuple(m.classes))
