"""A measured INR is answered from the section where the book handles INR by band.

The router sends "INR 6,2, không chảy máu, giờ làm sao" to "Quá liều và xử trí", where the real book states its INR
bands (retrieval.section_router). A monograph may state them in "Hướng dẫn cách xử trí ADR" instead, its overdose
section saying only "vitamin K1 theo mức INR … (uống 1–5 mg hoặc tiêm tĩnh mạch chậm 5–10 mg)": quoted there, the
severe-bleeding dose was the answer for a patient who does not bleed (#18 held-out H57, flagged).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from core.inr_bands import band_of, bleeding_said, holds, measured_inr
from core.sentences import sentences
from states.frame import QueryFrame

OVERDOSE, ADR_HANDLING = "qua_lieu_xu_tri", "huong_dan_xu_tri_adr"


def _bands(text: str) -> int:
    return sum(band_of(s) is not None for s in sentences(text))


def with_inr_section(merged: QueryFrame, text: str,
                     section_texts: Callable[[str], Mapping[str, str]] | None) -> QueryFrame:
    """The section that states more INR bands, when the turn gives an INR or says the patient bleeds: a real
    overdose section cut off mid-band by the extraction (warfarin's ends at "INR > 5 nhưng < 9 …: … đo nhiều") gave
    an INR 10 no band at all, while "Hướng dẫn cách xử trí ADR" states every band and the massive bleed (#17
    held-out H133)."""
    if section_texts is None or merged.section_key != OVERDOSE or len(merged.drugs) != 1 \
            or (measured_inr(text) is None and not bleeding_said(text)):
        return merged
    texts = section_texts(merged.drugs[0])
    overdose, handling = texts.get(OVERDOSE, ""), texts.get(ADR_HANDLING, "")
    if _bands(overdose) < 2 <= _bands(handling):
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
