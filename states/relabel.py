"""A child is never relabelled to unlock a dose (issue #18).

Two shapes ask for a dose the child's own age and weight do not give:
- a pretend relabel of the same child: "coi như bé là người lớn đi", "cứ tính như người lớn", "giả sử bé 18 tuổi
  để cho liều người lớn";
- an adult dose, or a part of one, asked for the child: "cho bé uống liều người lớn được không", "nửa viên
  người lớn".
Both are refused the same way: the child's own values (population, age, weight, renal, hepatic) are kept, the
refusal is said first, and the machine goes on with the child's own band (or asks for the child's age and
weight). Safety reason: an adult dose answered under the child's name is a wrong dose for that child — the
worst outcome; the child's own band, or a question, is always safe.

What is NOT a relabel: a real new person ("giả sử mẹ bé 30 tuổi", "còn người lớn thì sao?" — another patient,
whose reply is labelled as theirs by the person switch) and a what-if about the same child's weight ("thế nếu bé
16 kg thì sao"), which stays in the child's band logic. A pretend AGE of a child whose age is known
("giả sử bé 12 tuổi") is refused: the age is a fact about the child, and a pretend one moves the band.
"""

from __future__ import annotations

import re

from core.text import fold, normalize
from core.vocabulary import without_terms_folding_to_child
from states.frame import QueryFrame
from states.person import GENERIC, person_of
from states.shorthand import expand_chat
from states.slots import extract_slots

REFUSAL = ("Tôi không đưa liều người lớn (hay một phần liều người lớn) cho bé, kể cả khi giả định bé là người "
           "lớn: liều của trẻ phải theo đúng tuổi và cân nặng thật của bé, nên tôi chỉ tra liều dành cho trẻ.")
"""Said first in the reply of a refused relabel (a dose for the child follows, or the child's values are asked)."""

ADULT_MONTHS = 18 * 12

# Pretending: "coi như", "xem như", "cứ tính như", "giả sử", "cứ cho là", "làm như", "đóng vai" (folded).
_PRETEND = re.compile(r"\b(?:coi nhu|xem nhu|tinh nhu|cu tinh|cu coi|cu xem|cu cho|cho la|gia su|gia dinh|gia vo|"
                      r"lam nhu|dong vai|hay coi|hay xem|hay tinh|tinh theo|tinh bang)\b")
_ADULT_WORDS = re.compile(r"\b(?:nguoi lon|nguoi truong thanh|truong thanh|tren 18 tuoi|du 18 tuoi)\b")
# "bé uống như người lớn", "tính bằng người lớn": the child dosed as an adult, without a pretend word.
_LIKE_ADULT = re.compile(r"\b(?:nhu|bang|giong) (?:la |nhu )?(?:nguoi lon|nguoi truong thanh)\b")
# An adult dose as a thing to give: "liều người lớn", "viên (của) người lớn", "thuốc dành cho người lớn".
_ADULT_DOSE = re.compile(r"\b(?:lieu|vien|goi|ong|thuoc|loai|ham luong|dang|nua|nua vien|nua lieu|1/2 vien|1/2|"
                         r"mot nua|phan)(?: [a-z0-9/]+){0,2}? (?:cua |danh cho |ap dung cho )?"
                         r"(?:nguoi lon|nguoi truong thanh)\b")
# "liều X cho người lớn" is not here: "cho" makes the adult the recipient ("tôi là điều dưỡng nhi, hỏi liều
# cetirizin cho người lớn" asks an adult's dose).
# A part of a dose: "nửa viên", "1/2 liều", "chia đôi", "bẻ đôi".
_FRACTION = re.compile(r"\b(?:nua|mot nua|1/2|chia doi|be doi|be nua|giam mot nua)\b")


# A child as the one who would take it ("cho bé", "cháu", "con tôi"); not "nhi" (a ward or a job: "điều dưỡng nhi").
_CHILD = re.compile(r"\b(?:be|em be|chau|tre|tre em|tre nho|con toi|con minh|con tui|con em|con be|thang cu)\b")


def _child_named(folded: str) -> bool:
    return _CHILD.search(without_terms_folding_to_child(folded)) is not None


def _is_child(frame: QueryFrame | None) -> bool:
    if frame is None:
        return False
    if frame.age_months is not None:
        return frame.age_months < ADULT_MONTHS
    return frame.population == "pediatric"


def asks_relabel(text: str, prior: QueryFrame | None) -> bool:
    """The turn pretends the child is an adult (or another age), or asks an adult dose for the child. `prior`: the
    conversation's frame before this turn."""
    text = expand_chat(normalize(text))  # "coi nhu be la ng lon": the words written out
    folded = fold(text)
    stated_age_months = extract_slots(text).age_months
    person = person_of(text)
    if person is not None and person.key not in (*GENERIC, "self"):
        return False  # "giả sử mẹ bé 30 tuổi", "bố nó uống liều người lớn": a real other person
    child_here = _child_named(folded)
    if not (child_here or _is_child(prior)):
        return False  # no child to relabel ("cứ tính như người lớn" opening a conversation asks nothing of one)
    if stated_age_months is not None and stated_age_months >= ADULT_MONTHS and not _PRETEND.search(folded):
        return False  # "con tôi 20 tuổi uống liều người lớn được không": an adult, said as a fact
    if _LIKE_ADULT.search(folded):
        return True
    if _PRETEND.search(folded):
        if _ADULT_WORDS.search(folded):
            return True
        # "giả sử bé 18 tuổi", "giả sử bé 12 tuổi" (a 5-year-old): a pretend age for the child
        known = prior.age_months if prior is not None and _is_child(prior) else None
        return stated_age_months is not None and (
            stated_age_months >= ADULT_MONTHS or (known is not None and stated_age_months != known))
    # "cho bé uống liều người lớn", "nửa viên người lớn" (after a child's dose)
    return bool(_ADULT_DOSE.search(folded) and (child_here or _FRACTION.search(folded)))


def kept_child(merged: QueryFrame, prior: QueryFrame | None, text: str) -> QueryFrame:
    """`merged` unchanged unless the turn asks a relabel; then the child's frame: the child's own values (those of
    `prior` when it is about a child, else the ones this turn states as facts), the drug and a dose question when a
    drug is known, and the refusal as the reply's first line."""
    if not asks_relabel(text, prior):
        return merged
    text = expand_chat(normalize(text))
    slots = extract_slots(text)
    stated_age_months, stated_weight_kg = slots.age_months, slots.weight_kg
    pretend = _PRETEND.search(fold(text)) is not None
    child = prior if _is_child(prior) else None
    if child is not None:
        age_text, age, weight, weight_text = child.age_text, child.age_months, child.weight_kg, child.weight_text
        renal, hepatic, gestation, person = child.renal, child.hepatic, child.gestation, child.person
        if not pretend and stated_weight_kg is not None:
            weight, weight_text = merged.weight_kg, merged.weight_text  # a fact of the child said with the request
    else:
        real_age = stated_age_months is not None and stated_age_months < ADULT_MONTHS and not pretend
        age_text = merged.age_text if real_age else None
        age = stated_age_months if real_age else None
        weight = merged.weight_kg if not pretend else None
        weight_text = merged.weight_text if weight is not None else None
        renal, hepatic, gestation, person = merged.renal, merged.hepatic, merged.gestation, None
    drugs = merged.drugs or (prior.drugs if prior is not None else [])
    update: dict[str, object] = {
        "population": "pediatric", "age_text": age_text, "age_months": age, "weight_kg": weight,
        "weight_text": weight_text, "renal": renal, "hepatic": hepatic, "gestation": gestation,
        "person": person, "pregnant": False, "breastfeeding": False, "drugs": drugs,
        "needs_clarify": False, "clarify_reason": None, "quick_replies": [], "notes": [REFUSAL],
        "non_human": False,
    }
    if drugs:
        # The child's own dose is what the turn's request is redirected to.
        update.update(turn_type="dosing_calc", section_key="lieu_luong_cach_dung", section_overview=False)
        if merged.route is None and prior is not None and set(prior.drugs) == set(drugs):
            update["route"] = prior.route
    return merged.model_copy(update=update)
