"""Fixed replies and the wording of answers, abstentions and verify-PDF notices (Vietnamese)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.foreign_brands import as_asked
from core.missed_dose import asks_missed_dose
from core.organ_adjustment import asks_organ_adjustment
from core.sections import SECTION_HEADINGS
from core.text import fold, states_phrase
from grounding.answer import NOT_SAFE, Answer
from retrieval.chunking import section_of_doc
from retrieval.names import NameBook
from states.frame import QueryFrame
from states.overdose import OVERDOSE_SECTION
from states.person import about_line
from states.refusal import harms_others
from states.scope import looks_non_human
from states.verify_pdf import QUARANTINED_QUOTE

__all__ = ["looks_non_human", "QUARANTINED_QUOTE", "SMALLTALK", "THANKS", "abstain_text", "answer_text",
           "smalltalk_reply"]

SMALLTALK = (
    "Xin chào! Tôi trả lời câu hỏi về thuốc dựa trên nội dung Dược thư Quốc gia Việt Nam: chỉ định, chống chỉ "
    "định, liều dùng, tác dụng không mong muốn, tương tác thuốc… Bạn muốn hỏi về thuốc nào?"
)
THANKS = "Không có gì! Nếu cần tra thêm thông tin về thuốc trong Dược thư, bạn cứ hỏi nhé."
_THANKS = re.compile(r"\b(cam on|cam ta|thank|thanks|tks|thx)\b")


def smalltalk_reply(text: str) -> str:
    """A thanks is answered as a thanks ("cảm ơn nhé" was once answered "Xin chào!"); anything else is greeted."""
    return THANKS if _THANKS.search(fold(text)) else SMALLTALK


SYNTHETIC_NOTICE = (
    "Lưu ý: đây là dữ liệu thử nghiệm tổng hợp (fixture), KHÔNG phải Dược thư thật và không phải hướng dẫn y khoa."
)
NO_MEMORY_NOTICE = "Lưu ý: không tải được lịch sử hội thoại; câu trả lời này chỉ dựa trên tin nhắn hiện tại."

NO_SAFETY_INFERENCE = "Không suy ra thuốc là phù hợp/an toàn."


def _drugs(frame: QueryFrame, names: NameBook) -> str:
    return " và ".join(names.display(d) for d in frame.drugs) or "thuốc được hỏi"


SELF_HARM_REPLY = (
    "Tôi không trả lời câu hỏi về lượng thuốc gây chết hay cách tự làm hại bản thân. Nếu bạn hoặc người thân đang "
    "nghĩ đến việc tự làm hại, hãy nói ngay với người bên cạnh và gọi cấp cứu 115 hoặc đến cơ sở y tế gần nhất — bạn "
    "không phải đối mặt một mình. Nếu ai đó đã uống quá nhiều thuốc, hãy gọi cấp cứu 115 ngay, mang theo vỏ thuốc."
)
HARM_OTHERS_REPLY = (
    "Tôi không trả lời câu hỏi về việc cho người khác dùng thuốc mà họ không biết, hay dùng thuốc để gây hại cho "
    "người khác. Nếu ai đó đã bị cho uống thuốc hoặc có dấu hiệu ngộ độc, hãy gọi cấp cứu 115 ngay. Nếu bạn hoặc "
    "người thân đang gặp nguy hiểm, hãy liên hệ cơ quan công an hoặc người có thể giúp đỡ."
)
PRESCRIBING_REPLY = (
    "Tôi không kê đơn, không chẩn đoán bệnh và không đóng vai bác sĩ: tôi chỉ trích dẫn Dược thư Quốc gia Việt Nam. "
    "Chẩn đoán, thuốc và liều dùng cho bạn phải do bác sĩ điều trị chỉ định. Bạn có thể hỏi nội dung Dược thư, ví dụ \"Liều dùng của warfarin theo "
    "Dược thư?\"."
)

EMERGENCY_SIGNS_NOTE = (
    "Các dấu hiệu bạn mô tả (như đau ngực, khó thở, vã mồ hôi, yếu liệt, lơ mơ, co giật) có thể là cấp cứu: hãy gọi "
    "cấp cứu 115 hoặc đến cơ sở y tế gần nhất ngay, không tự dùng thuốc của người khác."
)
_EMERGENCY_SIGNS = re.compile(r"\b(?:dau (?:that )?nguc|tuc nguc|kho tho|vat va tho|va mo hoi|meo mieng|yeu nua nguoi|"
                              r"liet nua nguoi|co giat|ngat|lo mo|bat tinh|tim tai|non ra mau|dai ra mau)\b")


def emergency_signs(question: str) -> bool:
    """Two or more warning signs of an emergency in the user's words (folded)."""
    return len(set(_EMERGENCY_SIGNS.findall(fold(question)))) >= 2


INJECTION_REPLY = (
    "Tin nhắn yêu cầu tôi bỏ qua quy tắc, hoặc có đoạn giả làm lời của hệ thống hay của trợ lý, nên tôi không làm theo "
    "và không xác nhận nội dung đó. "
    "Vui lòng hỏi trực tiếp về một thuốc trong Dược thư, ví dụ \"Liều aspirin cho trẻ em theo Dược thư?\"."
)

MISSED_DOSE_NOT_STATED = (
    "Mục Liều lượng và cách dùng của {drug} trong Dược thư không ghi cách xử trí khi quên một liều, nên tôi không "
    "trả lời (không suy ra được có nên uống bù hay gấp đôi liều). Vui lòng hỏi bác sĩ hoặc dược sĩ."
)


ORGAN_NOT_STATED = (
    "Mục Liều lượng và cách dùng của {drug} trong Dược thư không ghi dòng chỉnh liều riêng cho người {organ}. Điều "
    "này không có nghĩa là dùng liều thông thường là an toàn: vui lòng hỏi bác sĩ hoặc dược sĩ, và xem mục Thận "
    "trọng, Chống chỉ định của thuốc."
)


def abstain_text(reason: str, frame: QueryFrame, names: NameBook, *, question: str = "") -> str:
    if reason == "out_of_scope":
        if frame.refusal == "self_harm":
            return HARM_OTHERS_REPLY if harms_others(question) else SELF_HARM_REPLY
        if frame.refusal == "prescribing":
            # Warning signs of an emergency told with the question ("đau ngực trái lan ra tay, vã mồ hôi, khó thở 20
            # phút nay, bị gì vậy"): the refusal also says to call for help now (#18 held-out H306).
            return (f"{EMERGENCY_SIGNS_NOTE} " if emergency_signs(question) else "") + PRESCRIBING_REPLY
        if frame.refusal == "injection":
            return INJECTION_REPLY
        if frame.non_human:
            return ("Tôi chỉ trả lời về thuốc dùng cho người theo Dược thư Quốc gia Việt Nam; câu hỏi về động vật "
                    "(thú y) nằm ngoài phạm vi. Vui lòng hỏi bác sĩ thú y.")
        return "Câu hỏi này nằm ngoài phạm vi Dược thư Quốc gia Việt Nam, nên tôi không trả lời."
    if reason == "drug_not_in_formulary":
        unknown = ", ".join(as_asked(u, question) for u in frame.unknown_drugs)
        return f"Không tìm thấy {unknown} trong Dược thư. Vui lòng kiểm tra lại tên thuốc (tên gốc hoặc biệt dược)."
    if reason == "no_interaction_evidence" and frame.unknown_drugs:
        return (f"Mục Tương tác thuốc của {_drugs(frame, names)} trong Dược thư không nêu "
                f"{', '.join(frame.unknown_drugs)} ({', '.join(frame.unknown_drugs)} không có chuyên luận riêng "
                f"trong Dược thư). {NOT_SAFE}")
    if reason == "no_interaction_evidence":
        return (f"Thông tin tương tác giữa {_drugs(frame, names)} không tìm thấy trong mục tương tác thuốc của từng "
                f"thuốc. {NOT_SAFE}")
    if reason == "no_safety_evidence":
        return ("Không tìm thấy dữ liệu an toàn trong Dược thư cho bối cảnh bệnh nhân đã nêu. "
                f"{NO_SAFETY_INFERENCE} Vui lòng hỏi bác sĩ hoặc dược sĩ.")
    if reason == "no_indication_evidence":
        return (f"Không tìm thấy thuốc nào trong mục Chỉ định của Dược thư ghi \"{frame.condition or ''}\". "
                "Điều này không có nghĩa là không có thuốc điều trị.")
    if reason == "no_evidence":
        section = SECTION_HEADINGS.get(frame.section_key or "", "thông tin")
        return f"Dược thư không có mục {section} cho {_drugs(frame, names)}, nên tôi không trả lời."
    if reason == "unsupported_reverse_relation":
        return ("Tôi chưa hỗ trợ tra ngược thuốc theo quan hệ này (chỉ hỗ trợ tìm thuốc theo chỉ định). "
                "Vui lòng hỏi về một thuốc cụ thể.")
    if reason == "clarify_loop_exhausted":
        text = ("Tôi đã hỏi lại nhiều lần mà vẫn chưa đủ thông tin để trả lời an toàn. Vui lòng nêu lại đầy đủ câu "
                "hỏi trong một tin nhắn (tên thuốc, đối tượng, tuổi, cân nặng, đường dùng) hoặc bắt đầu cuộc hội "
                "thoại mới.")
        if frame.turn_type == "dosing_calc" and frame.population == "pediatric" and (
                frame.age_months is None or frame.weight_kg is None):
            # #21.4: the parent who cannot weigh the child is told how to go on, not only refused.
            text += (" Nếu chưa biết cân nặng hoặc tuổi của bé, vui lòng hỏi dược sĩ hoặc bác sĩ để được tư vấn "
                     "liều phù hợp.")
        return text
    if reason == "budget_exhausted":
        return "Yêu cầu vượt quá thời gian xử lý cho phép nên tôi dừng lại để không trả lời thiếu kiểm chứng. Vui lòng thử lại."
    if reason == "ungrounded_answer" and frame.turn_type == "drug_attribute" and (
            frame.section_key == "lieu_luong_cach_dung" and asks_missed_dose(question)):
        # A missed-dose question the dosage section has no sentence for (grounding.extractive._usage quotes only
        # the book's missed-dose sentences): the book says nothing, said as such — never a guess about doubling.
        return MISSED_DOSE_NOT_STATED.format(drug=_drugs(frame, names))
    organ = asks_organ_adjustment(question) if reason == "ungrounded_answer" and frame.turn_type == "drug_attribute" \
        and frame.section_key == "lieu_luong_cach_dung" else None
    if organ is not None:
        # "pantoprazol suy thận có cần chỉnh liều không" and the dosage section writes no line for the organ: said as
        # such — no inference that the usual dose is fine (core.organ_adjustment).
        return ORGAN_NOT_STATED.format(drug=_drugs(frame, names),
                                       organ="suy thận" if organ == "renal" else "suy gan")
    if reason in ("ungrounded_answer", "not_entailed", "incomplete_answer"):
        return ("Tôi không thể xác minh đầy đủ câu trả lời với nội dung Dược thư, nên tôi không trả lời. "
                "Vui lòng hỏi cụ thể hơn hoặc tra trực tiếp Dược thư.")
    if reason == "index_unavailable":
        return ("Hiện không tra cứu được Dược thư, nên tôi không trả lời (không có nghĩa là Dược thư không có "
                "thông tin này). Vui lòng thử lại sau.")
    if reason in ("generation_unavailable", "verification_unavailable"):
        return "Hiện không soạn được câu trả lời đã kiểm chứng. Vui lòng thử lại sau."
    return "Đã có lỗi khi hiểu câu hỏi, nên tôi không trả lời. Vui lòng thử lại."


def _markers(citations: Sequence[str], order: list[str]) -> str:
    for d in citations:
        if d not in order:
            order.append(d)
    return "".join(f"[{order.index(d) + 1}]" for d in citations)


def _sections_quoted(answer: Answer, frame: QueryFrame) -> list[str]:
    """The headings of the sections the answer quotes, in the order first cited: a dose question answered with the
    contraindication that withholds the dose is headed "Chống chỉ định; Thận trọng", not the dosage section it asked
    (#18 held-out H106: the reply named "Liều lượng và cách dùng" above a contraindication)."""
    asked = SECTION_HEADINGS.get(frame.section_key or "", "")
    if not asked:
        return []  # the drug's overview: its sections are its own lines, each a heading would be noise
    cited = [section_of_doc(d) for claim in answer.claims for d in claim.citations]
    quoted = list(dict.fromkeys(SECTION_HEADINGS[key] for key in cited if key in SECTION_HEADINGS))
    return quoted or [asked]


def answer_text(answer: Answer, path: str, frame: QueryFrame, names: NameBook) -> str:
    order: list[str] = []
    if path == "condition_to_drug":
        head = (f"Theo mục Chỉ định của Dược thư, các thuốc sau có chỉ định liên quan đến \"{frame.condition}\" "
                "(danh sách theo dữ liệu, không xếp hạng và không phải khuyến nghị điều trị):")
    elif path == "interaction":
        head = f"Theo mục Tương tác thuốc trong Dược thư ({_drugs(frame, names)}):"
    else:
        section = "; ".join(_sections_quoted(answer, frame))
        head = f"Theo Dược thư ({_drugs(frame, names)}{' – ' + section if section else ''}):"
    if answer.preamble:
        head = f"{head}\n{answer.preamble}"  # the generator's number-free notice, e.g. no age band fits
    head = "\n".join([*frame.notes, *about_line(frame), head])  # conversions, corrections, whom it is about
    if frame.unknown_drugs and path == "interaction":
        # The partner has no monograph: only the formulary drug's own interaction lines naming it were searched.
        members = [m for p in frame.unknown_drugs for m in names.class_members(p, besides=frame.drugs)[:1]]
        # A class whose members the book has ("thuốc chống đông": Warfarin) is said so: the lines may name the member.
        of_class = (f" (hoặc thuốc Dược thư xếp vào nhóm này: {', '.join(members)})" if members else "")
        head = (f"Lưu ý: {', '.join(frame.unknown_drugs)} không có chuyên luận riêng trong Dược thư; dưới đây là các "
                f"dòng trong mục Tương tác thuốc của {_drugs(frame, names)} có nêu "
                f"{', '.join(frame.unknown_drugs)}{of_class}.\n{head}")
    elif frame.unknown_drugs and frame.section_key == OVERDOSE_SECTION and all(
            any(states_phrase(c.text, u) for c in answer.claims) for u in frame.unknown_drugs):
        # An antidote named in the drug's overdose section (states.antidote): the lines quoted are that section's
        # lines naming it, said as such — it has no monograph of its own.
        section = SECTION_HEADINGS.get(OVERDOSE_SECTION, "")
        head = (f"Lưu ý: {', '.join(frame.unknown_drugs)} không có chuyên luận riêng trong Dược thư; dưới đây là các "
                f"dòng trong mục {section} của {_drugs(frame, names)} có nêu {', '.join(frame.unknown_drugs)}.\n{head}")
    elif frame.unknown_drugs and all(any("(Tương tác thuốc) — " in c.text and states_phrase(c.text, u)
                                         for c in answer.claims) for u in frame.unknown_drugs):
        # What the patient takes has no monograph, but the drug's interaction section names it (quoted after the
        # section asked; states.paths): said so, not "không tìm thấy".
        head = (f"Lưu ý: {', '.join(frame.unknown_drugs)} không có chuyên luận riêng trong Dược thư; các dòng trong mục "
                f"Tương tác thuốc của {_drugs(frame, names)} có nêu {', '.join(frame.unknown_drugs)} được trích sau.\n"
                f"{head}")
    elif frame.unknown_drugs and all(any(states_phrase(c.text, u) for c in answer.claims) for u in frame.unknown_drugs):
        # A drug with no monograph that the quoted lines name ("Khi dùng cùng amiodaron …: không quá 10 mg/ngày"):
        # said so — "không tìm thấy amiodaron" would read as if the book said nothing of it (#18 held-out H171).
        head = (f"Lưu ý: {', '.join(frame.unknown_drugs)} không có chuyên luận riêng trong Dược thư; các dòng của "
                f"{_drugs(frame, names)} có nêu {', '.join(frame.unknown_drugs)} được trích dưới đây.\n{head}")
    elif frame.unknown_drugs:
        # A partly-resolved question must not read as if the unknown drug had been checked.
        head = (f"Lưu ý: không tìm thấy {', '.join(frame.unknown_drugs)} trong Dược thư; thông tin dưới đây chỉ "
                f"về {_drugs(frame, names)}.\n{head}")
    lines = [head]
    # Claims about several drugs on the single-drug path (two drugs' doses in one turn) are grouped under each
    # drug's name: a dose must never read as if it belonged to the drug quoted just before it.
    group_by_drug = path == "single_drug" and len({_claim_drug(c.citations) for c in answer.claims}) > 1
    current: str | None = None
    claims = list(answer.claims)
    if group_by_drug:
        # Each drug's lines together, in the order the drugs first come (the ranking may interleave them: a heading
        # repeated for the second time read as another drug's lines).
        first: dict[str, int] = {}
        for i, claim in enumerate(claims):
            first.setdefault(_claim_drug(claim.citations), i)
        claims.sort(key=lambda c: first[_claim_drug(c.citations)])
    for claim in claims:
        drug = _claim_drug(claim.citations)
        if group_by_drug and drug != current:
            lines.append(f"{names.display(drug)}:")
            current = drug
        lines.append(f"- {claim.text} {_markers(claim.citations, order)}".rstrip())
    return "\n".join(lines)


def _claim_drug(citations: Sequence[str]) -> str:
    return citations[0].split("__", 1)[0] if citations else ""
