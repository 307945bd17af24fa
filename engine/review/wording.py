"""The review page's clinical wording, in Vietnamese and English, with no code names in it.

The spec carries its rationales and guard effects in Vietnamese, written by engineers (some name code:
`budget.require()`, `(drug_id, section_key)`). A pharmacist signs what they can read, so the review shows the
wording below; codes appear only in the details column. Keys are the spec's own text (rationales) and guard
names (effects): when the spec's text changes, `missing_wording` names what has no reviewed wording yet, and a
test fails until it is written here.
"""

from __future__ import annotations

from engine.review.labels import Lang
from engine.spec import MachineSpec

RATIONALE: dict[str, tuple[str, str]] = {
    "Trẻ sơ sinh chưa rõ tuổi thai không thuộc nhóm liều theo tuổi thai nào (\"Sơ sinh 28 - 37 tuần chỉnh theo tuổi "
    "thai\", \"Sơ sinh đủ tháng\"): khi liều của bé khác nhau theo tuổi thai, hỏi lại — không đưa liều của nhóm khác "
    "hay chỉ một dòng còn lại (liều dự phòng phẫu thuật) thay cho liều điều trị.": (
        "Trẻ sơ sinh chưa rõ tuổi thai không thuộc nhóm liều nào chia theo tuổi thai (\"Sơ sinh 28 - 37 tuần chỉnh "
        "theo tuổi thai\", \"Sơ sinh đủ tháng\"): khi liều của bé khác nhau theo tuổi thai, hỏi lại — không đưa liều "
        "của nhóm khác, cũng không đưa dòng duy nhất còn lại (liều dự phòng phẫu thuật) thay cho liều điều trị.",
        "A newborn of unknown gestational age is in none of the bands by gestation (newborns of 28 - 37 weeks "
        "corrected, newborns born at term): when the baby's dose differs by gestation, the reply asks — it "
        "never gives another group's dose, nor the one line left (a surgical-prophylaxis dose) as the treatment "
        "dose."),
    "Liều của một chỉ định khác là liều của bệnh nhân khác (aspirin giảm đau 300 - 900 mg, chống kết tập tiểu cầu "
    "75 - 150 mg/ngày): khi câu hỏi chưa nêu chỉ định mà liều của bệnh nhân nằm dưới nhiều chỉ định, hỏi lại với "
    "các chỉ định Dược thư ghi; không bao giờ tự chọn một.": (
        "Liều của một chỉ định khác là liều của người bệnh khác (aspirin giảm đau 300 - 900 mg, chống kết tập tiểu "
        "cầu 75 - 150 mg/ngày): khi câu hỏi chưa nêu chỉ định, không có liều chung cho người bệnh, và liều nằm dưới "
        "nhiều chỉ định, hỏi lại với các chỉ định Dược thư ghi; không bao giờ tự chọn một.",
        "A dose for another indication is another patient's dose (aspirin for pain 300 - 900 mg, antiplatelet "
        "75 - 150 mg/day): when the question names no indication, the patient has no general dose line, and the "
        "lines sit under several indications, the reply asks which one, offering the indications the formulary "
        "lists; it never picks one itself."),
    "Hết ngân sách lượt (thời gian hoặc số lệnh gọi LLM).": (
        "Hết thời gian hoặc số lần gọi mô hình cho phép trong một lượt.",
        "The turn's time or model-call allowance is spent."),
    "Câu hỏi về động vật (thú y) nằm ngoài phạm vi; kiểm tra trước mọi câu hỏi lại để không trông như có thể "
    "tiếp tục.": (
        "Câu hỏi về động vật (thú y) nằm ngoài phạm vi; xét trước mọi câu hỏi lại, để không trông như có thể tiếp tục.",
        "Questions about animals (veterinary use) are out of scope; checked before any clarifying question so the "
        "conversation never looks as if it could go on."),
    "Không trả lời liều khi chưa biết đối tượng: liều người lớn và trẻ em khác nhau trong Dược thư. Mô hình chỉ "
    "trích xuất; mã quyết định trường nào bắt buộc.": (
        "Không trả lời liều khi chưa biết đối tượng: liều người lớn và trẻ em khác nhau trong Dược thư. Thông tin bắt "
        "buộc do quy tắc cố định quyết định, không do mô hình ngôn ngữ.",
        "No dose before the population is known: adult and child doses differ in the formulary. Which facts are "
        "required is decided by fixed rules, never by the language model."),
    "Trẻ em cần CẢ tuổi và cân nặng vì Dược thư phân nhánh theo cả hai (paracetamol: theo nhóm tuổi và theo "
    "mg/kg). Câu hỏi chỉ hỏi phần còn thiếu và nhắc lại phần đã biết.": (
        "Trẻ em cần CẢ tuổi và cân nặng vì Dược thư phân nhánh theo cả hai (paracetamol: theo nhóm tuổi và theo "
        "mg/kg). Chỉ hỏi phần còn thiếu và nhắc lại phần đã biết.",
        "A child needs BOTH age and weight because the formulary branches on both (paracetamol: age bands and "
        "mg/kg). Only the missing fact is asked, repeating the known one."),
    "Bước hiểu câu hỏi lỗi thì đóng an toàn.": (
        "Không hiểu được câu hỏi thì từ chối, không đoán.",
        "When the question cannot be understood, the reply declines rather than guesses."),
    "Chỉ dùng yêu cầu làm rõ của bộ hiểu khi mã không có quy tắc riêng (liều, bệnh, tổng quan).": (
        "Hỏi lại theo đề nghị của bước hiểu câu hỏi chỉ khi không có quy tắc cố định nào áp dụng (liều, bệnh, tổng "
        "quan).",
        "A clarifying question suggested by the understanding step is used only where no fixed rule applies "
        "(dosing, condition, overview)."),
    "Chỉ hỗ trợ tra ngược theo chỉ định.": (
        "Chỉ hỗ trợ tìm thuốc theo chỉ định.", "Finding drugs from a condition is supported for indications only."),
    "Danh sách thuốc lấy từ các đoạn chỉ định tìm được, không bao giờ từ khung câu hỏi; không xếp hạng.": (
        "Danh sách thuốc lấy từ các đoạn Chỉ định tìm thấy trong Dược thư, không bao giờ từ lời người hỏi; không "
        "xếp hạng.",
        "The drug list comes from the Indications passages found in the formulary, never from the user's words; it "
        "is not a ranking."),
    "Lời chào cố định.": ("Lời chào cố định, không có nội dung thuốc.", "A fixed greeting, with no drug content."),
    "Nêu rõ tên thuốc không có trong Dược thư, không đoán thuốc khác.": (
        "Nêu rõ tên thuốc không có trong Dược thư, không đoán thuốc khác.",
        "Names the drug that is not in the formulary; never guesses another."),
    "Bằng chứng là đoạn trong mục tương tác của thuốc này nêu tên thuốc kia (hoặc nhóm của nó).": (
        "Bằng chứng là dòng trong mục Tương tác thuốc của thuốc này nêu tên thuốc kia (hoặc nhóm của nó).",
        "Evidence is a line in one drug's Interactions section naming the other drug (or its class)."),
    "Một thuốc: tra đúng mục bằng bộ lọc (drug_id, section_key).": (
        "Một thuốc: tra đúng mục được hỏi của chuyên luận thuốc đó.",
        "One drug: the exact section asked about, from that drug's monograph."),
    "Giới hạn hỏi lại: mô hình có thể hỏi lại mãi cùng một câu (phát hiện 2026-08-07); đây là chặn ở mức mã. Bộ "
    "đếm được lưu cùng hội thoại nên khởi động lại hay worker khác không đặt lại được.": (
        "Giới hạn hỏi lại: hệ thống cũ có lúc hỏi lại mãi cùng một câu (phát hiện 2026-08-07); đây là giới hạn cố "
        "định. Số lần hỏi lại được lưu cùng cuộc hội thoại nên khởi động lại máy chủ cũng không đặt lại được.",
        "Clarify limit: the previous system could ask the same question forever (found 2026-08-07); this is a fixed "
        "limit. The count is stored with the conversation, so a server restart cannot reset it."),
    "Chỉ mục lỗi thì đóng an toàn; không coi là \"không có dữ liệu\".": (
        "Không tra được Dược thư thì từ chối; không nói là \"Dược thư không có thông tin\".",
        "When the formulary cannot be searched the reply declines; it never says \"the formulary has nothing\"."),
    "Nội dung cách ly không bao giờ được dùng để sinh câu trả lời.": (
        "Bảng chưa trích xuất được không bao giờ được dùng để soạn câu trả lời; chỉ trích phần đọc được.",
        "A table that could not be extracted is never used to compose an answer; only readable lines are quoted."),
    "Đường dùng KHÔNG phải trường bắt buộc chung: nếu dữ liệu liều chỉ có một đường dùng thì trả lời ngay; nếu có "
    "nhiều đường thì hỏi lại với các đường tìm thấy — tránh hỏi dồn khi câu hỏi đã đủ rõ.": (
        "Đường dùng KHÔNG phải lúc nào cũng phải hỏi: nếu mục liều chỉ có một đường dùng thì trả lời ngay; nếu có "
        "nhiều đường thì hỏi lại với các đường tìm thấy.",
        "The route is NOT always asked: with one route in the dosage section the answer comes at once; with "
        "several, the question offers the routes found."),
    "Không đưa liều của đường dùng khác khi người dùng đã chọn một đường: hỏi lại với các đường có.": (
        "Không đưa liều của đường dùng khác khi người hỏi đã chọn một đường: hỏi lại với các đường Dược thư có.",
        "Never gives another route's dose once the user chose a route: asks again with the routes the formulary has."),
    "Không tìm thấy trong mục tương tác của từng thuốc — KHÔNG có nghĩa là an toàn khi phối hợp.": (
        "Không tìm thấy trong mục Tương tác thuốc của từng thuốc — KHÔNG có nghĩa là an toàn khi phối hợp.",
        "Not found in either drug's Interactions section — this does NOT mean the combination is safe."),
    "Giữ cả phần cần đối chiếu PDF: bảng tương tác chưa trích xuất có thể chứa đúng cặp thuốc này.": (
        "Giữ cả bảng chưa đọc được: bảng tương tác đó có thể chứa đúng cặp thuốc này, nên phải xem bản PDF.",
        "The unreadable table is kept: it may hold exactly this pair, so the PDF must be checked."),
    "Không suy ra thuốc là phù hợp/an toàn khi thiếu dữ liệu an toàn.": (
        "Không suy ra thuốc là phù hợp hay an toàn khi thiếu dữ liệu an toàn.",
        "Never implies a drug is suitable or safe without safety data."),
    "Lỗi nhà cung cấp luôn đóng an toàn: không có câu trả lời thay thế.": (
        "Khi dịch vụ mô hình lỗi thì từ chối: không có câu trả lời thay thế chưa kiểm chứng.",
        "When the model service fails the reply declines: no unverified substitute answer."),
    "Không mô hình nào làm phép tính: mã tính lượng hoạt chất theo cân nặng từ dòng liều được trích dẫn và áp mọi "
    "mức tối đa; bước kiểm chứng chỉ nhận con số tính được khi phép tính lặp lại đúng từ văn bản trích dẫn và cân "
    "nặng của bệnh nhân. Liều cố định theo nhóm tuổi giữ nguyên như Dược thư ghi.": (
        "Không mô hình ngôn ngữ nào làm phép tính: quy tắc cố định tính lượng hoạt chất theo cân nặng từ dòng liều "
        "được trích dẫn và áp mọi mức tối đa; con số tính được chỉ được nhận khi phép tính lặp lại đúng từ văn bản "
        "trích dẫn và cân nặng của bệnh nhân. Liều cố định theo nhóm tuổi giữ nguyên như Dược thư ghi.",
        "No language model does arithmetic: fixed rules compute the amount of active substance for this weight from "
        "the cited dose line and apply every stated maximum; a computed figure is accepted only when the arithmetic "
        "reproduces from the cited text and the patient's weight. Fixed age-band doses are shown as the formulary "
        "states them."),
    "Mọi con số kèm đơn vị phải có trong đoạn được trích dẫn; mọi trích dẫn phải là bằng chứng đã tra.": (
        "Mọi con số kèm đơn vị phải có trong đoạn được trích dẫn; mọi trích dẫn phải là đoạn Dược thư đã tra.",
        "Every number with its unit must appear in the passage it cites; every citation must be a retrieved passage."),
    "Bổ sung khi bộ kiểm chứng báo thiếu một ý có trong nguồn; sau đó kiểm chứng lại.": (
        "Bổ sung khi bước kiểm chứng báo thiếu một ý có trong nguồn; sau đó kiểm chứng lại.",
        "Completed when verification reports a point of the source left out; then verified again."),
}

EFFECT: dict[str, tuple[str, str]] = {
    "non_human_subject": ("Từ chối (ngoài phạm vi), trước mọi câu hỏi lại.", "Declines (out of scope), before any "
                          "clarifying question."),
    "dosing_population_unknown": ("Hỏi người lớn hay trẻ em.", "Asks: adult or child?"),
    "pediatric_age_or_weight_missing": ("Chỉ hỏi phần còn thiếu, nhắc lại phần đã biết.",
                                        "Asks only the missing fact, repeating the known one."),
    "understanding_failed": ("Từ chối: không hiểu được câu hỏi.", "Declines: the question was not understood."),
    "understanding_needs_clarify": ("Hỏi thêm thông tin.", "Asks for more information."),
    "clarify_streak_exhausted": (
        "Lần hỏi lại tiếp theo thành từ chối, đề nghị nêu lại đầy đủ câu hỏi hoặc bắt đầu cuộc hội thoại mới. Mọi "
        "câu trả lời không phải hỏi lại đặt lại bộ đếm.",
        "The next clarifying question becomes a refusal asking to restate the whole question or start again. Any "
        "reply that is not a question resets the count."),
    "budget_remaining": (
        "Khi hết: từ chối vì quá thời gian. Hạn mức cũng được kiểm tra ngay trước mỗi lần gọi mô hình.",
        "When spent: declines as too slow. The allowance is also checked right before every model call."),
    "budget_spent_during_call": ("Từ chối vì quá thời gian.", "Declines as too slow."),
    "provider_failed": ("Từ chối (không có câu trả lời thay thế).", "Declines (no substitute answer)."),
    "index_unavailable": ("Từ chối: không trả lời khi không tra được nguồn.",
                          "Declines: no answer without the source."),
    "evidence_quarantined": ("Đối chiếu PDF: trích phần đọc được, chỉ ra bảng chưa đọc được; không soạn câu trả lời "
                             "trên bảng đó.",
                             "Check the PDF: quotes the readable lines, names the unreadable table; nothing is "
                             "composed over it."),
    "route_ambiguous": ("Hỏi đường dùng, các đường tìm thấy là lựa chọn nhanh.",
                        "Asks for the route, offering the routes found."),
    "gestation_unknown": ("Hỏi bé sinh đủ tháng hay thiếu tháng, tuổi thai bao nhiêu tuần.",
                          "Asks whether the newborn was born at term or preterm, and the gestational weeks."),
    "indication_ambiguous": ("Hỏi chỉ định, các chỉ định Dược thư ghi liều là lựa chọn nhanh.",
                             "Asks for the indication, offering the indications the dose lines sit under."),
    "route_not_documented": ("Hỏi lại với các đường dùng Dược thư có; không tự đổi sang đường khác.",
                             "Asks again with the routes the formulary has; never switches route by itself."),
    "calculation_applies": (
        "Tính lượng hoạt chất cho cân nặng này và áp mọi mức tối đa Dược thư ghi; không tính khi bệnh nhân thuộc "
        "nhóm bị loại trừ, thiếu cân nặng hoặc cân nặng không hợp lý, dòng liều thuộc đường dùng hay chỉ định khác, "
        "nội dung chưa trích xuất được, hoặc dòng liều không đọc được chắc chắn.",
        "Computes the amount of active substance for this weight and applies every stated maximum; never when the "
        "patient is in an excluded group, the weight is missing or implausible, the line is for another route or "
        "indication, the text failed extraction, or the line cannot be read with certainty."),
    "grounding_failed": ("Từ chối: câu trả lời không khớp nguồn.", "Declines: the answer does not match its source."),
    "not_entailed": ("Từ chối: nguồn không xác nhận nội dung.", "Declines: the source does not state it."),
    "omission_unrepaired": ("Từ chối: câu trả lời vẫn thiếu ý.", "Declines: the answer still leaves a point out."),
}

LIMITS: dict[str, tuple[str, str]] = {
    "MAX_CONSECUTIVE_CLARIFY": ("Số lần hỏi lại liên tiếp tối đa", "Most consecutive clarifying questions"),
    "MAX_WALL_CLOCK_MS": ("Thời gian tối đa cho một lượt (ms)", "Longest time for one turn (ms)"),
    "MAX_LLM_CALLS_PER_TURN": ("Số lần gọi mô hình tối đa mỗi lượt", "Most model calls per turn"),
}


def _pick(pair: tuple[str, str], lang: Lang) -> str:
    return pair[0] if lang == "vi" else pair[1]


def rationale(text: str, lang: Lang) -> str:
    if not text:
        return ""
    pair = RATIONALE.get(text)
    if pair is None:  # unreviewed spec text: shown as written, flagged, never silently dropped
        return f"[chưa duyệt câu chữ] {text}" if lang == "vi" else f"[wording not reviewed, Vietnamese] {text}"
    return _pick(pair, lang)


def effect(guard_name: str, lang: Lang) -> str:
    pair = EFFECT.get(guard_name)
    return _pick(pair, lang) if pair else ""


def limit_label(name: str, lang: Lang) -> str:
    pair = LIMITS.get(name)
    return _pick(pair, lang) if pair else name


def missing_wording(spec: MachineSpec) -> list[str]:
    """Spec text with no reviewed wording here (a rationale, a guard effect, a limit)."""
    missing = [f"rationale: {t.rationale}" for t in spec.transitions if t.rationale and t.rationale not in RATIONALE]
    missing += [f"guard effect: {g.name}" for g in spec.guards if g.on_trip and g.name not in EFFECT]
    missing += [f"limit: {name}" for name, _ in spec.limits if name not in LIMITS]
    return list(dict.fromkeys(missing))
