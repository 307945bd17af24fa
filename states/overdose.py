"""What every reply about an overdose says first: get care now.

The overdose section of a monograph is written for clinicians (gastric lavage, antidotes, infusion rates). A parent
whose child swallowed a strip needs to hear first that this is an emergency — before any quoted line, and also when
the turn must ask which drug or cannot be answered. Number-free, so it is never mistaken for a grounded claim.
"""

from __future__ import annotations

from states.frame import QueryFrame

OVERDOSE_SECTION = "qua_lieu_xu_tri"

GO_TO_CARE = (
    "Nếu đã dùng quá liều hoặc nghi ngộ độc thuốc: đưa người bệnh đến cơ sở y tế gần nhất hoặc gọi cấp cứu ngay, "
    "mang theo vỏ hộp thuốc; không chờ có triệu chứng và không tự xử trí tại nhà."
)


def about_overdose(frame: QueryFrame | None) -> bool:
    return frame is not None and frame.section_key == OVERDOSE_SECTION


def with_overdose_framing(reply_text: str, frame: QueryFrame | None) -> str:
    """The reply opened with the go-to-care line when the turn asks about an overdose (once)."""
    if not about_overdose(frame) or reply_text.startswith(GO_TO_CARE):
        return reply_text
    return f"{GO_TO_CARE}\n{reply_text}"
