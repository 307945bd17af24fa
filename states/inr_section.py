"""A measured INR is answered from the section where the book handles INR by band.

The router sends "INR 6,2, không chảy máu, giờ làm sao" to "Quá liều và xử trí", where the real book states its INR
bands (retrieval.section_router). A monograph may state them in "Hướng dẫn cách xử trí ADR" instead, its overdose
section saying only "vitamin K1 theo mức INR … (uống 1–5 mg hoặc tiêm tĩnh mạch chậm 5–10 mg)": quoted there, the
severe-bleeding dose was the answer for a patient who does not bleed (#18 held-out H57, flagged).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from core.inr_bands import band_of, bleeding_said, holds, measured_inr
from core.inr_monitoring import asks_inr_monitoring
from core.sentences import sentences
from core.text import fold
from states.frame import QueryFrame

OVERDOSE, ADR_HANDLING = "qua_lieu_xu_tri", "huong_dan_xu_tri_adr"


def _bands(text: str) -> int:
    return sum(band_of(s) is not None for s in sentences(text))


BLEEDING_CARE = ("Người bệnh đang chảy máu khi dùng thuốc chống đông: đưa đến cơ sở y tế gần nhất hoặc gọi cấp cứu "
                 "ngay; không tự xử trí tại nhà.")
"""Said first when a bleed is told and the answer is the handling section's bleeding lines (number-free): the go-to-care
line of an overdose answer, which the handling section does not carry (#17 held-out H201 moved "nôn ra máu ồ ạt" to
that section and the emergency went unsaid)."""


def with_inr_section(merged: QueryFrame, text: str,
                     section_texts: Callable[[str], Mapping[str, str]] | None) -> QueryFrame:
    moved = _with_inr_section(merged, text, section_texts)
    if moved.section_key == ADR_HANDLING and merged.section_key == OVERDOSE and bleeding_said(text) and \
            BLEEDING_CARE not in moved.notes:
        moved = moved.model_copy(update={"notes": [BLEEDING_CARE, *moved.notes]})
    return moved


def _with_inr_section(merged: QueryFrame, text: str,
                      section_texts: Callable[[str], Mapping[str, str]] | None) -> QueryFrame:
    """The section that states more INR bands, when the turn gives an INR or says the patient bleeds: a real
    overdose section cut off mid-band by the extraction (warfarin's ends at "INR > 5 nhưng < 9 …: … đo nhiều") gave
    an INR 10 no band at all, while "Hướng dẫn cách xử trí ADR" states every band and the massive bleed (#17
    held-out H133)."""
    if section_texts is None or merged.section_key != OVERDOSE or not merged.drugs \
            or (measured_inr(text) is None and not bleeding_said(text)):
        return merged
    if len(merged.drugs) > 1:
        # "mới thử INR ra 10, không chảy máu gì hết" after warfarin × amoxicillin: the INR is the anticoagulant's —
        # the drug whose sections state INR bands (#17 held-out H184 quoted both drugs' overdose sections).
        banded = [d for d in merged.drugs if _bands(section_texts(d).get(OVERDOSE, "")) + _bands(
            section_texts(d).get(ADR_HANDLING, "")) > 0]
        if len(banded) != 1:
            return merged
        merged = merged.model_copy(update={"drugs": banded, "turn_type": "drug_attribute"})
    texts = section_texts(merged.drugs[0])
    overdose, handling = texts.get(OVERDOSE, ""), texts.get(ADR_HANDLING, "")
    if _bands(overdose) < 2 <= _bands(handling):
        return merged.model_copy(update={"section_key": ADR_HANDLING})
    if _bands(handling) > _bands(overdose) and _holding(handling, measured_inr(text), bleeding_said(text)):
        # Both state this INR's band, the handling section more of them: the real overdose section's band is cut off
        # mid-sentence by the extraction ("INR > 5 nhưng < 9 …: … bỏ 1 hoặc 2 lần uống thuốc, đo nhiều"), the
        # handling section's is whole ("Nếu INR bằng hoặc trên 5,0 nhưng dưới 9,0, phải ngừng warfarin"; #17 held-out
        # H182 quoted the cut one).
        return merged.model_copy(update={"section_key": ADR_HANDLING})
    inr, bleeding = measured_inr(text), bleeding_said(text)
    if _bands(handling) >= 2 and _holding(handling, inr, bleeding) and not _holding(overdose, inr, bleeding):
        return merged.model_copy(update={"section_key": ADR_HANDLING})
    return merged


def _holding(text: str, inr: float | None, bleeding: bool | None) -> bool:
    """A sentence of `text` states the band of this INR (or, with no INR said, a band for a bleeding patient)."""
    for sentence in sentences(text):
        band = band_of(sentence)
        if band is None:
            continue
        if inr is not None and holds(band, inr, bleeding):
            return True
        if inr is None and bleeding and band.bleeding is True:
            return True
    return False


_INR_SAID = re.compile(r"\binr\b")
DOSING_SECTION = "lieu_luong_cach_dung"


def with_inr_drug(merged: QueryFrame, text: str, drug_ids: Sequence[str],
                  section_texts: Callable[[str], Mapping[str, str]] | None, display: Callable[[str], str]) -> QueryFrame:
    """"INR bố em đo được 6, không chảy máu gì, giờ phải làm sao", no drug named: the INR is the vitamin K antagonist's
    measure, and when the book doses one drug by it, that drug is the one asked about — said so in the reply, which
    asks for the name if the patient takes another (#17 held-out H147 asked "which drug?"). With none or several such
    drugs the question stays "which drug?"."""
    if merged.drugs or merged.unknown_drugs or merged.refusal is not None or merged.non_human or \
            merged.turn_type in ("condition_to_drug", "symptom_to_drug") or \
            section_texts is None or not _INR_SAID.search(fold(text)):
        return merged
    found = [d for d in drug_ids if _INR_SAID.search(fold(section_texts(d).get(DOSING_SECTION, "")))]
    if len(found) != 1:
        return merged
    note = (f"Bạn không nêu tên thuốc; trong Dược thư chỉ {display(found[0])} được chỉnh liều theo INR, nên dưới đây là "
            "thông tin về thuốc này. Nếu người bệnh dùng thuốc khác, hãy cho biết tên thuốc.")
    update: dict[str, object] = {"drugs": found, "notes": [*merged.notes, note]}
    if merged.section_key is None:
        # The section the question would have been routed to had the drug been named: the target or schedule in the
        # dosage section, a measured INR in the overdose section (then `with_inr_section`).
        section = DOSING_SECTION if asks_inr_monitoring(text) else OVERDOSE if measured_inr(text) is not None else None
        if section is not None:
            update.update(turn_type="drug_attribute", section_key=section)
    return merged.model_copy(update=update)
