"""A measured INR is answered from the section where the book handles INR by band.

The router sends "INR 6,2, không chảy máu, giờ làm sao" to "Quá liều và xử trí", where the real book states its INR
bands (retrieval.section_router). A monograph may state them in "Hướng dẫn cách xử trí ADR" instead, its overdose
section saying only "vitamin K1 theo mức INR … (uống 1–5 mg hoặc tiêm tĩnh mạch chậm 5–10 mg)": quoted there, the
severe-bleeding dose was the answer for a patient who does not bleed (#18 held-out H57, flagged).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from core.inr_bands import band_of, measured_inr
from core.sentences import sentences
from states.frame import QueryFrame

OVERDOSE, ADR_HANDLING = "qua_lieu_xu_tri", "huong_dan_xu_tri_adr"


def _bands(text: str) -> int:
    return sum(band_of(s) is not None for s in sentences(text))


def with_inr_section(merged: QueryFrame, text: str,
                     section_texts: Callable[[str], Mapping[str, str]] | None) -> QueryFrame:
    if section_texts is None or merged.section_key != OVERDOSE or len(merged.drugs) != 1 \
            or measured_inr(text) is None:
        return merged
    texts = section_texts(merged.drugs[0])
    if _bands(texts.get(OVERDOSE, "")) < 2 <= _bands(texts.get(ADR_HANDLING, "")):
        return merged.model_copy(update={"section_key": ADR_HANDLING})
    return merged
