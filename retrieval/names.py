"""The book of drug names: display names, aliases, brands and class phrases, and mention finding."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from core.corpus import DrugNames
from core.text import fold, states_phrase


class NameBook:
    def __init__(self, names: Sequence[DrugNames]) -> None:
        self._by_id = {n.drug_id: n for n in names}
        self._names: dict[tuple[str, bool], tuple[str, ...]] = {}
        """names_of, memoised: the book is immutable and the lists are read on every interaction turn."""

    def __contains__(self, drug_id: object) -> bool:
        return drug_id in self._by_id

    def ids(self) -> list[str]:
        return list(self._by_id)

    def entries(self) -> list[DrugNames]:
        return list(self._by_id.values())

    def display(self, drug_id: str) -> str:
        entry = self._by_id.get(drug_id)
        return entry.name if entry else drug_id.replace("_", " ").capitalize()

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
                self._names[key] = tuple(sorted(names, key=len, reverse=True))
        return list(self._names[key])

    def mentions(self, text: str, drug_id: str, *, with_classes: bool = True) -> bool:
        return any(states_phrase(text, n) for n in self.names_of(drug_id, with_classes=with_classes))
