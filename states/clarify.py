"""Clarifying questions, in Vietnamese. Ask only for what is missing; echo what is known.

2026-08-11 (reference system): "Bé 18 ký …", "Bé nặng 18 kg …" and "Trẻ 5 tuổi …" all received the same generic
sentence; the question now names the missing field and echoes the known one ("Bé nặng 18 kg, vậy bé bao nhiêu tuổi?").
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from core.dosage.indication import is_formulation_label
from core.dosage.lines import dose_quantities
from core.dosage.parse import parse_dosage
from core.text import fold
from core.vocabulary import CONDITION_SPELLINGS, INJECTION_ROUTES, POPULATION_LABELS_VI, ROUTE_LABELS_VI
from retrieval.names import NameBook
from states.conditions import ambiguous_fold
from states.english import ENGLISH_ONLY, ENGLISH_ONLY_TEXT
from states.frame import QueryFrame
from states.person import GENERIC, person_of

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


def _who(frame: QueryFrame) -> str:
    """"bé" / "cháu" by age (child_word). Whom the question is about, when the user named another person ("em
    nó"), is said in the note before it ("Về em nó: …"), so the question itself keeps the usual words."""
    return child_word(frame)


def pediatric_question(frame: QueryFrame, names: NameBook) -> Question:
    drug = _drug_list(frame, names)
    has_age, has_weight = frame.age_months is not None, frame.weight_kg is not None
    who = _who(frame)
    if frame.unanswered >= 2:
        return way_forward(frame, drug, who, missing=["weight"] if has_age else ["age"] if has_weight
                           else ["age", "weight"])
    if has_weight and not has_age:
        return Question(text=f"{who[:1].upper() + who[1:]} nặng {format_number(frame.weight_kg or 0)} kg, vậy {who} "
                             "bao nhiêu tuổi?", missing=["age"])
    if has_age and not has_weight:
        return Question(text=f"{who[:1].upper() + who[1:]} {format_age(frame)}, vậy {who} cân nặng bao nhiêu kg?",
                        missing=["weight"])
    return Question(
        text=f"Để tra liều {drug} cho trẻ em, {who} bao nhiêu tuổi và cân nặng bao nhiêu kg?",
        missing=["age", "weight"],
    )


_WAY_FORWARD = ("Nếu bạn chưa có thông tin này, vui lòng hỏi dược sĩ hoặc bác sĩ đang điều trị; tôi chỉ tra được "
                "Dược thư khi đủ thông tin. Bạn cũng có thể nêu lại đầy đủ câu hỏi trong một tin nhắn.")


def way_forward(frame: QueryFrame, drug: str, who: str, missing: list[str]) -> Question:
    """The third ask of a slot nobody can give (#21.4): how to get it, or whom to ask — never a dose without it.

    The paediatric gate stays: the formulary branches on age AND weight, so no dose is looked up on one of them."""
    needs = " và ".join({"age": "tuổi", "weight": "cân nặng"}[m] for m in missing)
    how = []
    if "weight" in missing:
        how.append(f"Nếu chưa cân được: bế {who} đứng lên cân cùng người lớn rồi trừ cân nặng của người lớn, "
                   "hoặc xem cân nặng gần nhất trong sổ tiêm chủng / sổ khám bệnh")
    if "age" in missing:
        how.append(f"tuổi của {who} có trong giấy khai sinh hoặc sổ tiêm chủng")
    text = (f"Dược thư ghi liều {drug} cho trẻ em theo cả tuổi và cân nặng, nên tôi không thể tra liều khi chưa "
            f"biết {needs} của {who}. " + "; ".join(how) + ". Nếu không có, vui lòng hỏi dược sĩ hoặc bác sĩ "
            f"để được tư vấn liều phù hợp cho {who}. Khi biết {needs}, bạn gửi lại cho tôi.")
    return Question(text=text, missing=missing)


def _route_question(reason: str, frame: QueryFrame, drug: str, routes_found: Sequence[str]) -> Question:
    """Ask which route, offering exactly the routes the dosage evidence gives a regimen for — never the route just
    refused: a chip for it would offer, one tap away, the dose the reply has just said the book does not give (#18)."""
    routes_found = [r for r in routes_found if r != frame.route and r not in frame.routes_unusable]
    routes = [ROUTE_LABELS_VI[r] for r in routes_found]
    if not routes:
        # Every route the book doses is one the patient cannot take: no dose, and no route offered in its place.
        said = ", ".join(ROUTE_LABELS_VI[r].lower() for r in frame.routes_unusable)
        who_says = frame.person or ("bé" if frame.population == "pediatric" else "người bệnh")
        return Question(text=f"Dược thư chỉ ghi liều {drug} theo đường {said}, mà {who_says} không dùng được đường này; "
                             "tôi không đưa liều. Vui lòng hỏi bác sĩ hoặc dược sĩ để được tư vấn cách dùng khác.",
                        missing=["route"])
    who = POPULATION_LABELS_VI.get(frame.population or "", "")
    subject = f"{drug}{' cho ' + who if who else ''}"
    injections = [ROUTE_LABELS_VI[r] for r in routes_found if r in INJECTION_ROUTES]
    if frame.route_family == "injection" and reason == "ambiguous_route" and len(injections) > 1:
        return Question(text=f"Dược thư ghi liều tiêm {subject} theo nhiều đường ({', '.join(injections)}). "
                             "Bạn muốn xem liều theo đường nào?", quick_replies=injections, missing=["route"])
    offered = (f"Dược thư chỉ ghi một đường: {routes[0]}. Bạn có muốn xem liều đường {routes[0].lower()} không?"
               if len(routes) == 1 else
               f"các đường có trong Dược thư: {', '.join(routes)}. Bạn muốn xem liều theo đường nào?")
    if frame.route_family == "injection" and not injections:
        # "tiêm thì liều sao" for a drug given only by mouth: the one route the book has, said as such.
        return Question(text=f"Dược thư không ghi liều {subject} theo đường tiêm; {offered}", quick_replies=routes,
                        missing=["route"])
    if reason == "ambiguous_route" and len(routes) == 1 and frame.routes_unusable:
        said = ", ".join(ROUTE_LABELS_VI[r].lower() for r in frame.routes_unusable)
        text = (f"Ngoài đường {said}, Dược thư ghi liều {subject} theo đường {routes[0].lower()}. Bạn có muốn xem liều "
                f"đường {routes[0].lower()} không?")
    elif reason == "ambiguous_route":
        text = f"Dược thư ghi liều {subject} theo nhiều đường dùng ({', '.join(routes)}). Bạn muốn dùng đường nào?"
    else:
        chosen = ROUTE_LABELS_VI.get(frame.route or "", frame.route or "")
        text = f"Dược thư không ghi liều {subject} theo đường \"{chosen}\"; {offered}"
    return Question(text=text, quick_replies=routes, missing=["route"])


def _route_notes(frame: QueryFrame, names: NameBook) -> list[str]:
    """The dosage section's notes on the route asked (no amount in them), as the book writes them."""
    if frame.route is None or len(frame.drugs) != 1 or names.section_texts is None:
        return []
    body = names.section_texts(frame.drugs[0]).get("lieu_luong_cach_dung", "")
    if not body:
        return []
    tree = parse_dosage(body, drug_names=names.names_of(frame.drugs[0], with_classes=False))
    return [line.text.strip() for line in tree.lines if line.kind == "note" and frame.route in line.routes
            and not dose_quantities(fold(line.text))][:2]


MAX_SHORTHAND_CHIPS = 6
"""The most drugs a shorthand's question offers as quick replies."""


def question_for(reason: str, frame: QueryFrame, names: NameBook, routes_found: Sequence[str] = (),
                 indications_found: Sequence[str] = ()) -> Question:
    """The question for `reason`, after what the frame's notes must say first (a converted unit, a corrected
    or rejected value, the person the question is now about)."""
    question = _question_for(reason, frame, names, routes_found, indications_found)
    if frame.unanswered >= 2 and "weight" not in question.missing and "age" not in question.missing:
        # Asked twice without an answer (#21.4): say how to go on instead of the same sentence a third time.
        question = question.model_copy(update={"text": f"{question.text}\n{_WAY_FORWARD}"})
    if frame.notes:
        question = question.model_copy(update={"text": "\n".join([*frame.notes, question.text])})
    return question


def _indication_question(frame: QueryFrame, drug: str, indications: Sequence[str]) -> Question:
    """Ask which indication, offering the lead-ins the patient's dose lines sit under, as the book writes them."""
    who = POPULATION_LABELS_VI.get(frame.population or "", "")
    subject = f"{drug}{' cho ' + who if who else ''}"
    listed = "; ".join(indications)
    forms = [is_formulation_label(i) for i in indications]
    if forms and all(forms):
        # "Viên giải phóng nhanh; Viên giải phóng kéo dài": the book splits the dose by dosage form; asking "which
        # indication?" would ask for something the user cannot answer from what the drug is for.
        text = f"Dược thư ghi liều {subject} khác nhau theo dạng thuốc ({listed}). Bạn dùng dạng thuốc nào?"
    elif any(forms):
        text = (f"Dược thư ghi liều {subject} khác nhau theo chỉ định hoặc dạng thuốc ({listed}). Bạn hỏi liều cho "
                "trường hợp nào?")
    else:
        text = f"Dược thư ghi liều {subject} khác nhau theo chỉ định ({listed}). Bạn hỏi liều cho chỉ định nào?"
    return Question(text=text, quick_replies=list(indications), missing=["condition"])


CORRECTION_UNREAD = "correction_unread"
"""The understander's clarify reason for a correction whose value it could not read (states.merge)."""
WEIGHT_REJECTED = "weight_rejected"
"""An adult's dose question whose weight could not be that person's ("bà tôi 80t nặng 4kg, truyền paracetamol"): the
weight is asked again before any dose — the book doses adults by weight too (a 33–50 kg band), and a dose line in
mg/kg beside a mistyped weight invites the wrong arithmetic (#18 held-out H211)."""


RENAL_REJECTED = "renal_rejected"
"""A dose question whose renal value no kidney can have ("ông 65 tuổi ClCr 350"): the value is asked again before any
dose, the person's age kept — read as no value, the normal-renal dose would be given to a patient whose kidneys were
the point of the question; read as a wrong age, they were asked adult or child (#18 held-out H224)."""


def _question_for(reason: str, frame: QueryFrame, names: NameBook, routes_found: Sequence[str] = (),
                  indications_found: Sequence[str] = ()) -> Question:
    drug = _drug_list(frame, names)
    if reason == "ambiguous_indication":
        return _indication_question(frame, drug, indications_found)
    if reason == "missing_population":
        named = person_of(frame.person) if frame.person else None
        if named is not None and named.key not in GENERIC:
            # "thế còn anh nó?": ask about that person, by name.
            who = named.label[:1].upper() + named.label[1:]
            return Question(text=f"{who} là người lớn hay trẻ em (bao nhiêu tuổi)? Tôi cần biết để tra liều {drug}.",
                            quick_replies=["Người lớn", "Trẻ em"], missing=["population"])
        return Question(text=f"Bạn hỏi liều {drug} cho người lớn hay trẻ em?",
                        quick_replies=["Người lớn", "Trẻ em"], missing=["population"])
    if reason == "missing_pediatric_age_or_weight":
        return pediatric_question(frame, names)
    if reason == "missing_gestation":
        # (states.gestation) Asked again with the weeks when "thiếu tháng" alone does not place the baby in one band.
        weeks = " tuổi thai (hiệu chỉnh) bao nhiêu tuần" if frame.gestation else " sinh đủ tháng hay thiếu tháng"
        return Question(text=f"Dược thư ghi liều {drug} cho trẻ sơ sinh khác nhau theo tuổi thai. Bé{weeks}? (Nếu "
                             "thiếu tháng, xin cho biết tuổi thai hiệu chỉnh theo tuần.)",
                        quick_replies=[] if frame.gestation else ["Đủ tháng", "Thiếu tháng"], missing=["gestation"])
    if reason in ("ambiguous_route", "route_not_documented"):
        question = _route_question(reason, frame, drug, routes_found)
        said = _route_notes(frame, names) if reason == "route_not_documented" else []
        if said:
            # "có dạng đặt hậu môn không" for an adult on ibuprofen: the book's own words on the route, verbatim, before
            # the offer — it names the route without a dose of its own ("Đặt thuốc hậu môn: Phù hợp với người bệnh
            # không uống được …, đạt tác dụng như uống"); the question alone hid that the book speaks of it (#17
            # held-out H208). Never a dose: only the route's notes (lines carrying no amount).
            quoted = " ".join(f"«{line}»" for line in said)
            chosen = ROUTE_LABELS_VI.get(frame.route or "", frame.route or "")
            question = question.model_copy(update={
                "text": f"Về đường \"{chosen}\", Dược thư chỉ ghi: {quoted}\n{question.text}"})
        return question
    if reason == "missing_attribute":
        return Question(text=f"Bạn muốn biết thông tin gì về {drug}?", quick_replies=ATTRIBUTE_CHIPS,
                        missing=["attribute"])
    if reason == "no_drug" and frame.listed:
        # "thuốc đó" after a list of several drugs: which of them (asked, never guessed).
        listed = [names.display(d) for d in frame.listed]
        return Question(text=f"Bạn hỏi về thuốc nào trong các thuốc vừa nêu ({', '.join(listed)})?",
                        quick_replies=listed, missing=["drug"])
    if reason == "no_drug" and len(frame.shorthand_of) > MAX_SHORTHAND_CHIPS:
        # Too many drugs begin so to offer them all: some are named, the full name is asked.
        shown = ", ".join(names.display(d) for d in frame.shorthand_of[:MAX_SHORTHAND_CHIPS])
        return Question(text=f"\"{frame.shorthand}\" là cách viết tắt của nhiều thuốc ({shown}, …). Vui lòng cho biết "
                             "tên đầy đủ của thuốc.", missing=["drug"])
    if reason == "no_drug" and len(frame.shorthand_of) == 1:
        # "ibu": too short to take as Ibuprofen's name, so it is offered, not assumed.
        only = names.display(frame.shorthand_of[0])
        return Question(text=f"\"{frame.shorthand}\" có phải là {only} không? Vui lòng cho biết tên thuốc bạn hỏi.",
                        quick_replies=[only], missing=["drug"])
    if reason == "no_drug" and frame.shorthand_of:
        # "cef" begins Cefalexin and Ceftriaxon: which one is asked, never guessed.
        options = [names.display(d) for d in frame.shorthand_of]
        return Question(text=f"\"{frame.shorthand}\" có thể là {', '.join(options[:-1])} hoặc {options[-1]}. Bạn hỏi về "
                             "thuốc nào?", quick_replies=options, missing=["drug"])
    if reason == "no_drug":
        return Question(text="Bạn muốn hỏi về thuốc nào? Vui lòng cho biết tên thuốc (tên gốc hoặc biệt dược).",
                        missing=["drug"])
    if reason == "ambiguous_condition" and frame.condition and ambiguous_fold(frame.condition):
        readings = list(CONDITION_SPELLINGS[fold(frame.condition)])
        return Question(text=f"\"{frame.condition}\" có thể là {' hoặc '.join(readings)}. Bạn muốn tìm thuốc cho "
                             "bệnh nào? Vui lòng viết có dấu.", quick_replies=readings, missing=["condition"])
    if reason == "ambiguous_condition":
        return Question(text="Bạn muốn tìm thuốc cho bệnh hoặc triệu chứng cụ thể nào?", missing=["condition"])
    if reason == "no_condition":
        return Question(text="Bạn muốn tìm thuốc cho bệnh nào?", missing=["condition"])
    if reason == "no_indication":
        return Question(text="Bạn đang có triệu chứng gì? Vui lòng mô tả cụ thể.", missing=["condition"])
    if frame.clarify_reason == ENGLISH_ONLY:
        return Question(text=ENGLISH_ONLY_TEXT, missing=["details"])
    if frame.clarify_reason == WEIGHT_REJECTED:
        return Question(text="Vui lòng cho biết lại cân nặng (kg) của người bệnh. Tôi chưa tra liều.",
                        missing=["weight"])
    if frame.clarify_reason == RENAL_REJECTED:
        return Question(text="Vui lòng cho biết lại chức năng thận của người bệnh (độ thanh thải creatinin ClCr hoặc "
                             "eGFR, ml/phút). Tôi chưa tra liều.", missing=["renal"])
    if frame.clarify_reason == CORRECTION_UNREAD:
        return Question(text="Bạn muốn sửa thông tin nào? Vui lòng ghi rõ giá trị đúng, ví dụ \"bé 6 tuổi\" hoặc "
                             "\"20 kg\". Tôi chưa tra lại liều.", missing=["details"])
    # needs_more_info: the understander's own question when it has one, else a generic one.
    return Question(
        text="Bạn có thể nói rõ hơn câu hỏi không? Ví dụ: tên thuốc và điều bạn muốn biết (liều dùng, chống chỉ "
             "định, tương tác…).",
        quick_replies=list(frame.quick_replies), missing=["details"])
