"""A measured INR is answered with its own band's handling (core.inr_bands; #18 held-out H57, flagged)."""

from __future__ import annotations

import math

from core.inr_bands import band_of, bleeding_said, holds, measured_inr
from grounding.question_focus import focus

# Written after the fixture's and the real book's own sentences (synthetic wording, not quoted text).
BELOW_5 = "INR cao hơn khoảng điều trị nhưng dưới 5, không chảy máu: giảm liều hoặc bỏ một liều."
FIVE_TO_NINE = "INR 5–9, không chảy máu: ngừng 1–2 liều; có thể uống vitamin K1 1–2,5 mg."
SEVERE = "Chảy máu nặng ở bất kỳ mức INR nào: ngừng thuốc, tiêm tĩnh mạch chậm vitamin K1 5–10 mg."
REAL_SHAPE = "Nếu INR > 5 nhưng < 9 và người bệnh không có biểu hiện xuất huyết: bỏ 1 hoặc 2 lần uống thuốc."


def test_bands_are_read_from_the_book_s_ways_of_writing_them() -> None:
    assert band_of(BELOW_5) is not None and band_of(BELOW_5).high == 5  # type: ignore[union-attr]
    assert band_of(FIVE_TO_NINE) is not None and (band_of(FIVE_TO_NINE).low, band_of(FIVE_TO_NINE).high) == (5, 9)  # type: ignore[union-attr]
    severe = band_of(SEVERE)
    assert severe is not None and severe.high == math.inf and severe.bleeding is True
    real = band_of(REAL_SHAPE)
    assert real is not None and (real.low, real.high, real.bleeding) == (5, 9, False)
    assert band_of("Theo dõi INR thường xuyên.") is None


def test_the_user_s_value_and_bleeding_are_read() -> None:
    assert measured_inr("hôm nay xét nghiệm INR 6,2, không chảy máu gì") == 6.2
    assert bleeding_said("INR 6,2, không chảy máu gì") is False
    assert bleeding_said("bà bị chảy máu nhiều") is True
    assert bleeding_said("INR 6 thì sao") is None


def test_only_the_measured_band_is_shown() -> None:
    sentences = [BELOW_5, FIVE_TO_NINE, SEVERE]
    first, rest = focus("INR 6,2, không chảy máu gì, giờ làm sao", sentences)
    assert [sentences[i] for i in [*first, *rest]] == [FIVE_TO_NINE]
    assert not holds(band_of(SEVERE), 6.2, False)  # type: ignore[arg-type]


def test_a_bleeding_patient_is_not_shown_the_bands_of_those_who_do_not_bleed() -> None:
    sentences = [BELOW_5, FIVE_TO_NINE, SEVERE]
    first, rest = focus("nếu bà bị chảy máu nhiều thì sao. Đường dùng: uống.", sentences)
    assert [sentences[i] for i in [*first, *rest]] == [SEVERE]
