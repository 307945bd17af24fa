"""Query synthesis: the resolved frame folded into one self-contained Vietnamese query.

Generation sees no history, so "5 tuổi" answered to a pending question must reach it as part of the question:
"Liều paracetamol cho trẻ em?. Đối tượng: trẻ em. Tuổi: 5 tuổi. Cân nặng: 18 kg. Đường dùng: uống."
The patient-specific list variant, which withholds raw patient values, is `states.paths.patient_generation_query`.
"""

from __future__ import annotations

from core.sections import SECTION_HEADINGS
from core.text import fold
from core.vocabulary import POPULATION_LABELS_VI, ROUTE_LABELS_VI
from states.clarify import format_age, format_number
from states.frame import QueryFrame

_GENERIC_WORDS = ("tre em", "nguoi lon", "be", "tre", "tre nho", "chau")


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "?", "!")) else f"{text}."


def synthesize_query(frame: QueryFrame, text: str) -> str:
    parts = [_sentence(text)] if text.strip() else []
    folded = fold(text)
    # A merged follow-up ("18 kg", "còn trẻ em thì sao?") does not name its drug or question: state them.
    missing = [d.replace("_", " ") for d in frame.drugs if d.replace("_", " ") not in folded]
    if missing:
        parts.append(f"Thuốc: {', '.join(d.replace('_', ' ') for d in frame.drugs)}.")
    heading = SECTION_HEADINGS.get(frame.section_key or "")
    if heading and (missing or len(folded.split()) <= 6) and fold(heading) not in folded:
        parts.append(f"Mục: {heading}.")
    if frame.population:
        # Whom the question is about, when the user named them ("mẹ bé"): the answer is for that person only.
        named = f" ({frame.person})" if frame.person and fold(frame.person) not in _GENERIC_WORDS else ""
        parts.append(f"Đối tượng: {POPULATION_LABELS_VI[frame.population]}{named}.")
    if frame.age_months is not None or frame.age_text:
        parts.append(f"Tuổi: {format_age(frame)}.")
    if frame.weight_kg is not None:
        parts.append(f"Cân nặng: {format_number(frame.weight_kg)} kg.")
    if frame.gestation and fold(frame.gestation) not in folded:
        # The newborn's gestation said in an earlier turn: the dose line ("Trẻ sơ sinh đủ tháng") depends on it.
        parts.append(f"Tuổi thai: {frame.gestation}.")
    if frame.route:
        parts.append(f"Đường dùng: {ROUTE_LABELS_VI[frame.route].lower()}.")
    if frame.condition:
        parts.append(f"Chỉ định/triệu chứng: {frame.condition}.")
    context = [*frame.comorbidities]
    if frame.renal:
        context.append(frame.renal)
    if frame.hepatic:
        context.append(frame.hepatic)
    if frame.pregnant:
        context.append("đang mang thai")
    if frame.breastfeeding:
        context.append("đang cho con bú")
    if context:
        parts.append(f"Bệnh nền: {', '.join(dict.fromkeys(context))}.")
    return " ".join(parts)
