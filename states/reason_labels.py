"""Plain-language names of outcomes and reasons, for people (the chat page, the review page).

The codes (`missing_pediatric_age_or_weight`) stay in the API, the trace and the details views; a parent on a
phone and a pharmacist signing the review read these instead.
"""

from __future__ import annotations

from typing import Literal

Lang = Literal["vi", "en"]

OUTCOME_BADGES: dict[str, tuple[str, str]] = {
    "answerable": ("Có căn cứ trong Dược thư", "Grounded answer"),
    "clarify": ("Cần thêm thông tin", "Asks a question"),
    "verify_pdf": ("Cần đối chiếu bản PDF", "Check the PDF"),
    "abstain": ("Không trả lời được", "Cannot answer"),
}
"""What each outcome tells the reader. A smalltalk reply (a greeting, a thanks) wears no badge."""

REASONS: dict[str, tuple[str, str]] = {
    "smalltalk": ("Lời chào", "Greeting"),
    "single_drug": ("Trả lời từ mục được hỏi của Dược thư", "Answer from the section asked about"),
    "interaction": ("Tương tác thuốc theo Dược thư", "Interaction as the formulary states it"),
    "condition_to_drug": ("Các thuốc có chỉ định này trong Dược thư", "Drugs listing this indication"),
    "retrieval_only": ("Trích nguyên văn Dược thư", "Formulary text quoted verbatim"),
    "quarantined_content": ("Có bảng chưa đọc được, cần xem bản PDF", "A table could not be read: check the PDF"),
    "missing_population": ("Cần biết người lớn hay trẻ em", "Adult or child?"),
    "missing_pediatric_age_or_weight": ("Cần tuổi và cân nặng của trẻ", "The child's age and weight are needed"),
    "missing_gestation": ("Cần tuổi thai của trẻ sơ sinh", "The newborn's gestational age is needed"),
    "needs_more_info": ("Cần thêm thông tin", "More information is needed"),
    "ambiguous_condition": ("Cần nói rõ bệnh hoặc triệu chứng", "Which condition?"),
    "no_condition": ("Chưa nêu bệnh", "No condition named"),
    "no_indication": ("Chưa nêu triệu chứng", "No symptom named"),
    "missing_attribute": ("Cần biết muốn hỏi thông tin gì về thuốc", "Which information about the drug?"),
    "no_drug": ("Chưa nêu tên thuốc", "No drug named"),
    "ambiguous_route": ("Cần chọn đường dùng", "Which route?"),
    "ambiguous_indication": ("Cần chọn chỉ định", "Which indication?"),
    "route_not_documented": ("Dược thư không có liều cho đường dùng này", "No dose for this route in the formulary"),
    "out_of_scope": ("Ngoài phạm vi Dược thư", "Outside the formulary's scope"),
    "drug_not_in_formulary": ("Thuốc không có trong Dược thư", "Drug not in the formulary"),
    "unsupported_reverse_relation": ("Loại câu hỏi này chưa được hỗ trợ", "This kind of question is not supported"),
    "no_interaction_evidence": ("Không thấy thông tin tương tác (không có nghĩa là an toàn)",
                                "No interaction found (not a proof of safety)"),
    "no_evidence": ("Dược thư không có mục này", "The formulary has no such section"),
    "no_indication_evidence": ("Không thấy thuốc nào có chỉ định này", "No drug lists this indication"),
    "no_safety_evidence": ("Không có dữ liệu an toàn cho trường hợp này", "No safety data for this patient"),
    "clarify_loop_exhausted": ("Đã hỏi lại nhiều lần: vui lòng nêu lại đầy đủ câu hỏi",
                               "Asked too many times: please restate the whole question"),
    "budget_exhausted": ("Quá thời gian xử lý", "Took too long to answer safely"),
    "ungrounded_answer": ("Không xác minh được câu trả lời", "The answer could not be verified"),
    "not_entailed": ("Không xác minh được câu trả lời", "The answer could not be verified"),
    "incomplete_answer": ("Không xác minh được câu trả lời đầy đủ", "A complete answer could not be verified"),
    "index_unavailable": ("Tạm thời không tra cứu được Dược thư", "The formulary is temporarily unavailable"),
    "generation_unavailable": ("Tạm thời không soạn được câu trả lời", "Answers are temporarily unavailable"),
    "verification_unavailable": ("Tạm thời không kiểm chứng được câu trả lời", "Verification is temporarily unavailable"),
    "system_error": ("Có lỗi khi hiểu câu hỏi", "The question could not be understood"),
}


def reason_label(reason: str | None, lang: Lang = "vi") -> str:
    """The plain label of a reason code; an unknown code gets a neutral label, never the code itself."""
    pair = REASONS.get(reason or "")
    if pair is None:
        return "Chi tiết xem phần kỹ thuật" if lang == "vi" else "See the technical details"
    return pair[0] if lang == "vi" else pair[1]


def outcome_badge(outcome: str, reason: str | None, lang: Lang = "vi") -> str:
    """The badge of a reply; empty for smalltalk (a greeting is not a grounded answer)."""
    if reason == "smalltalk":
        return ""
    pair = OUTCOME_BADGES.get(outcome)
    return "" if pair is None else (pair[0] if lang == "vi" else pair[1])


def labels_document() -> dict[str, dict[str, str]]:
    """The Vietnamese labels as one JSON-able object, for the chat page."""
    return {"outcomes": {k: v[0] for k, v in OUTCOME_BADGES.items()}, "reasons": {k: v[0] for k, v in REASONS.items()}}
