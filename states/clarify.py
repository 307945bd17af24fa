"""Clarifying questions, in Vietnamese. Ask only for what is missing; echo what is known.

2026-08-11 (reference system): "Bé 18 ký …", "Bé nặng 18 kg …" and "Trẻ 5 tuổi …" all received the same generic
sentence; the question now names the missing field and echoes the known one ("Bé nặng 18 kg, vậy bé bao nhiêu tuổi?").
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from core.vocabulary import POPULATION_LABELS_VI, ROUTE_LABELS_VI
from retrieval.names import NameBook
from states.frame import QueryFrame

ATTRIBUTE_CHIPS = ["Chỉ định", "Chống chỉ định", "Liều dùng", "Tác dụng không mong muốn", "Tương tác thuốc"]


class Question(BaseModel):
    text: str
    quick_replies: list[str] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list)


def format_number(value: float) -> str:
    """18.0 → '18'; 12.5 → '12,5' (Vietnamese decimal comma)."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.1f}".replace(".", ",")


def format_age(frame: QueryFrame) -> str:
    if frame.age_text:
        return frame.age_text
    months = frame.age_months or 0
    if months < 24:
        return f"{format_number(months)} tháng tuổi"
    return f"{format_number(months / 12)} tuổi"


def _drug_list(frame: QueryFrame, names: NameBook) -> str:
    return " và ".join(names.display(d) for d in frame.drugs) or "thuốc này"


TEEN_MONTHS = 12 * 12
TEEN_WEIGHT_KG = 40.0


def child_word(frame: QueryFrame) -> str:
    """How to speak of the child to a parent: "bé" for a young child, "cháu" from about twelve (by age, or, with
    no age yet, by a teenager's weight). A 16-year-old called "bé" reads as if the question were misread."""
    if frame.age_months is not None:
        return "cháu" if frame.age_months >= TEEN_MONTHS else "bé"
    return "cháu" if (frame.weight_kg or 0) >= TEEN_WEIGHT_KG else "bé"


def pediatric_question(frame: QueryFrame, names: NameBook) -> Question:
    drug = _drug_list(frame, names)
    has_age, has_weight = frame.age_months is not None, frame.weight_kg is not None
    who = child_word(frame)
    if has_weight and not has_age:
        return Question(text=f"{who.capitalize()} nặng {format_number(frame.weight_kg or 0)} kg, vậy {who} bao nhiêu "
                             "tuổi?", missing=["age"])
    if has_age and not has_weight:
        return Question(text=f"{who.capitalize()} {format_age(frame)}, vậy {who} nặng bao nhiêu kg?",
                        missing=["weight"])
    return Question(
        text=f"Để tra liều {drug} cho trẻ em, bé bao nhiêu tuổi và nặng bao nhiêu kg?",
        missing=["age", "weight"],
    )


def _route_question(reason: str, frame: QueryFrame, drug: str, routes_found: Sequence[str]) -> Question:
    """Ask which route, offering exactly the routes the dosage evidence gives a regimen for."""
    routes = [ROUTE_LABELS_VI[r] for r in routes_found]
    who = POPULATION_LABELS_VI.get(frame.population or "", "")
    subject = f"{drug}{' cho ' + who if who else ''}"
    if reason == "ambiguous_route":
        text = f"Dược thư ghi liều {subject} theo nhiều đường dùng ({', '.join(routes)}). Bạn muốn dùng đường nào?"
    else:
        chosen = ROUTE_LABELS_VI.get(frame.route or "", frame.route or "")
        text = (f"Dược thư không ghi liều {subject} theo đường \"{chosen}\"; các đường có trong Dược thư: "
                f"{', '.join(routes)}. Bạn muốn xem liều theo đường nào?")
    return Question(text=text, quick_replies=routes, missing=["route"])


def question_for(reason: str, frame: QueryFrame, names: NameBook, routes_found: Sequence[str] = ()) -> Question:
    drug = _drug_list(frame, names)
    if reason == "missing_population":
        return Question(text=f"Bạn hỏi liều {drug} cho người lớn hay trẻ em?",
                        quick_replies=["Người lớn", "Trẻ em"], missing=["population"])
    if reason == "missing_pediatric_age_or_weight":
        return pediatric_question(frame, names)
    if reason in ("ambiguous_route", "route_not_documented"):
        return _route_question(reason, frame, drug, routes_found)
    if reason == "missing_attribute":
        return Question(text=f"Bạn muốn biết thông tin gì về {drug}?", quick_replies=ATTRIBUTE_CHIPS,
                        missing=["attribute"])
    if reason == "no_drug":
        return Question(text="Bạn muốn hỏi về thuốc nào? Vui lòng cho biết tên thuốc (tên gốc hoặc biệt dược).",
                        missing=["drug"])
    if reason == "ambiguous_condition":
        return Question(text="Bạn muốn tìm thuốc cho bệnh hoặc triệu chứng cụ thể nào?", missing=["condition"])
    if reason == "no_condition":
        return Question(text="Bạn muốn tìm thuốc cho bệnh nào?", missing=["condition"])
    if reason == "no_indication":
        return Question(text="Bạn đang có triệu chứng gì? Vui lòng mô tả cụ thể.", missing=["condition"])
    # needs_more_info: the understander's own question when it has one, else a generic one.
    return Question(
        text="Bạn có thể nói rõ hơn câu hỏi không? Ví dụ: tên thuốc và điều bạn muốn biết (liều dùng, chống chỉ "
             "định, tương tác…).",
        quick_replies=list(frame.quick_replies), missing=["details"])
