"""The offline generator: answers by quoting the evidence sentences that match the request, each with its citation.

Deterministic and LLM-free, so the whole machine runs (and is tested) with no API key. It never writes a
number of its own: every claim is a line or sentence of the block it cites, which is what lets numeric
grounding accept it. Quarantined chunks are never quoted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from core.budget import RequestBudget
from core.combination_form import asks_combination, combination_limit
from core.corpus import Chunk
from core.dosage.bands import read_band
from core.dosage.lines import dose_quantities
from core.dosage.model import Patient, RegimenLine
from core.dosage.select import (
    band_admits,
    band_words,
    caps_patient,
    conditional_exclusions,
    context_sentences,
    dosed_indications,
    group_of,
    indication_key,
    is_dosed,
    is_renal_line,
    line_sentences,
    names_patient_condition,
    purpose_text,
    routes_for,
    states_amount,
)
from core.dosage.select import select as select_lines
from core.dosage.usual import circumstances_beside_general, general_dose_note
from core.fuzzy_phrase import fuzzy_states
from core.inr_monitoring import asks_inr_monitoring, inr_monitoring_sentence
from core.missed_dose import asks_missed_dose, states_missed_dose
from core.organ_adjustment import asks_organ_adjustment
from core.partners import names_partner
from core.sentence_match import (
    allows_times,
    asked_words,
    asks_duration,
    asks_food,
    asks_injection_speed,
    asks_time_of_day,
    best_matches,
    fast_injection_sentence,
    food_sentence,
    states_duration,
    time_of_day_sentence,
    usage_sentence,
)
from core.text import fold, states_phrase
from core.vocabulary import NAMED_CLASS_TERMS, PATIENT_TERMS, alcohol_sentences, drinks_alcohol
from grounding.answer import NOT_SAFE, Answer, Claim, GenerationRequest
from grounding.dosing_select import SectionTree, patient_of_request, population_of, trees_by_drug
from grounding.list_exclusions import list_exclusions
from grounding.organ_lines import DIALYSIS, organ_claims, organ_contraindications
from grounding.patient_safety import (
    CONDITIONAL_NOTICE,
    SAFETY_FIRST_PREAMBLE,
    allergens,
    is_child,
    is_comorbidity,
    patient_safety,
)
from grounding.question_focus import MAX_FOCUSED, focus
from grounding.sentences import clean, lines, sentences

DOSING_SECTION = "lieu_luong_cach_dung"
MAX_SENTENCES_PER_CHUNK = 6
OVERVIEW_SENTENCES_PER_SECTION = 2
MAX_OVERVIEW_CLAIMS = 12
MAX_MISSED_DOSE_SENTENCES = 5
"""A missed dose is answered by every sentence of the book on it, up to this many: the "không uống gấp đôi" after
"uống ngay khi nhớ" and "bỏ qua liều đã quên" was cut at three (#17 held-out H126)."""
SAFETY_SECTIONS = ("chong_chi_dinh", "than_trong", "thoi_ky_mang_thai", "thoi_ky_cho_con_bu")
# Patient-context phrases (folded) a safety sentence may be about; the list-mode request withholds the
# patient's own values, so the safety chunks (already selected for them) are narrowed with these.
_PATIENT_PHRASES = ("mang thai", "co thai", "thai ky", "cho con bu", "sua me", "suy than", "chuc nang than",
                    "thanh thai creatinin", "suy gan", "chuc nang gan", "benh gan")

_USUAL_MAXIMUM_CLAUSE = re.compile(r"\s*[;,]\s*(?:liều\s+)?(?:tối đa|không quá|không vượt quá)\b[^;]*$"
                                   # "…; nhiễm khuẩn nặng có thể tăng đến 4 g/ngày, chia 2 lần": a higher amount too
                                   r"|\s*;\s*[^;]*\b(?:có thể )?tăng (?:lên )?(?:đến|tới)\b[^;]*$", re.IGNORECASE)
"""The usual maximum closing a dose line's first sentence ("…, 4 - 6 giờ một lần; tối đa là 4 g/ngày.")."""


def quotable(evidence: Sequence[Chunk]) -> list[Chunk]:
    """Evidence that may be quoted: never a block that failed extraction."""
    return [c for c in evidence if not c.has_quarantined_content and "<!-- QUARANTINED" not in c.text]


def _title(chunk: Chunk) -> str:
    """The drug's name for a claim that must say whose block it is (list and interaction answers)."""
    title = re.sub(r"\s*\(.*?\)\s*", " ", chunk.drug_title).strip()
    return title.capitalize() if title else chunk.drug_id.replace("_", " ").capitalize()


NO_BAND_PREAMBLE = (
    "Dược thư không ghi nhóm tuổi/cân nặng nào khớp với bé; dưới đây chỉ là phần chung của đoạn liều này "
    "(không áp dụng liều của nhóm tuổi khác). Vui lòng hỏi bác sĩ hoặc dược sĩ:"
)
GENERAL_ONLY_PREAMBLE = (
    "Dược thư chia liều theo tuổi/cân nặng mà câu hỏi chưa nêu đủ; dưới đây chỉ là phần chung của đoạn liều này "
    "(không áp dụng liều của nhóm khác). Vui lòng hỏi bác sĩ hoặc dược sĩ:"
)
EXCLUDED_PREAMBLE = (
    "Dược thư ghi thuốc này không dùng hoặc không khuyến cáo cho trường hợp của bệnh nhân (trích dưới đây), nên tôi "
    "không đưa liều. Vui lòng hỏi bác sĩ hoặc dược sĩ:"
)

BELOW_FLOOR_PREAMBLE = (
    "Dược thư chỉ ghi liều cho trẻ từ nhóm tuổi thấp nhất trích dưới đây trở lên; bé nhỏ tuổi hơn nên Dược thư không "
    "có liều cho bé và tôi không đưa liều. Vui lòng hỏi bác sĩ hoặc dược sĩ (kèm phần chung của đoạn liều):"
)


OTHER_BAND_PREAMBLE = (
    "Dược thư chỉ ghi liều cho chỉ định đã nêu ở nhóm bệnh nhân trích dưới đây; bệnh nhân không thuộc nhóm đó nên "
    "Dược thư không có liều cho chỉ định này ở bệnh nhân và tôi không đưa liều. Vui lòng hỏi bác sĩ hoặc dược sĩ:"
)


CONTRAINDICATED_PREAMBLE = (
    "Dược thư ghi chống chỉ định phù hợp với bối cảnh bệnh nhân đã nêu (trích dưới đây), nên tôi không đưa liều. "
    "Vui lòng hỏi bác sĩ hoặc dược sĩ:"
)
RENAL_BAND_NOTICE = (
    "Với chức năng thận của bệnh nhân, mức chỉnh liều ở mục suy thận (dòng \"Suy thận\" bên dưới) thay cho liều "
    "tối đa thông thường."
)
RENAL_MODIFIES_NOTICE = (
    "Với chức năng thận của bệnh nhân, Dược thư không ghi liều riêng mà chỉnh cách dùng liều thông thường (dòng "
    "\"Suy thận\" bên dưới): dùng liều thông thường trích kèm theo đúng mức chỉnh đó."
)
INDICATION_UNMATCHED_NOTICE = (
    "Dược thư không ghi liều riêng cho chỉ định đã nêu; dưới đây là liều theo từng chỉ định Dược thư ghi, mỗi dòng "
    "kèm chỉ định của nó. Vui lòng đối chiếu đúng chỉ định hoặc hỏi bác sĩ, dược sĩ:"
)
INDICATION_GENERAL_NOTICE = (
    "Dược thư không ghi liều riêng cho chỉ định đã nêu; dưới đây là liều chung Dược thư ghi cho đối tượng này (không "
    "kèm liều của các chỉ định khác). Vui lòng đối chiếu hoặc hỏi bác sĩ, dược sĩ:"
)
INDICATION_SPLIT_NOTICE = (
    "Dược thư ghi liều khác nhau theo chỉ định; dưới đây là liều của từng chỉ định, mỗi dòng kèm chỉ định của nó. "
    "Vui lòng chọn đúng chỉ định của bệnh nhân (hoặc nêu chỉ định để chỉ xem liều đó):"
)
RENAL_VALUE_QUESTION = (
    "Dược thư chỉnh liều theo độ thanh thải creatinin (ClCr) hoặc eGFR: vui lòng cho biết giá trị này để chọn đúng "
    "mức; dưới đây là các mức chỉnh liều Dược thư ghi."
)


EXCLUSION_MARK = "⚠"
LIST_EXCLUSION_NOTICE = (
    "Dòng có dấu ⚠ ngay dưới một thuốc là câu Dược thư ghi không dùng hoặc chống chỉ định thuốc đó cho trường hợp "
    "như bệnh nhân đã nêu: thuốc đó không phải lựa chọn cho bệnh nhân khi đúng điều kiện ghi trong câu. Vui lòng hỏi "
    "bác sĩ hoặc dược sĩ."
)
"""A list answer where a listed drug's safety sections exclude this patient. Kept in the list with the exclusion
beside it rather than dropped: the list is what the book's "Chỉ định" names for the condition (a drug the user
knows treats it, missing, reads as an oversight), and the book's own sentence next to the name says why not."""

ADJUSTMENT_ELSEWHERE_NOTICE = (
    "Mức liều cho bối cảnh gan/thận của bệnh nhân Dược thư ghi ở phần lưu ý trên, thay cho liều thông thường "
    "(không áp dụng liều thông thường của người có chức năng gan/thận bình thường)."
)


def with_age_floor(words: str, line: RegimenLine) -> str:
    """A band's words with the age floor a list heading put on it ("Trẻ 5–10 kg" under "… ở trẻ từ 1 tuổi …:"),
    when its own words state none: the child below the floor reads whom the book starts at, not only a weight band
    that holds them (#18 held-out H50: an 8-month-old of 7 kg was shown "Trẻ 5–10 kg")."""
    bound = line.band.age_months
    if not words or bound is None or not bound.low or read_band(words).band.age_months is not None:
        return words
    low = float(bound.low)
    years = low / 12
    age = f"{int(years)} tuổi" if low >= 12 and years.is_integer() else f"{_whole_or_decimal(low)} tháng tuổi"
    return f"{words} (trẻ từ {age})"


def _whole_or_decimal(value: float) -> str:
    return str(int(value)) if value.is_integer() else f"{value:.1f}".replace(".", ",")


def _adjusts(line: RegimenLine, contexts: set[str]) -> bool:
    return ("renal" in contexts and (line.context.renal or line.band.renal_ml_min is not None)) or (
        "hepatic" in contexts and line.context.hepatic)


CONTEXT_SECTIONS = ("chong_chi_dinh", "than_trong")
"""Sections a "can this patient use it" question is routed to; a renal/hepatic patient also gets the dosage
section's exclusions for their context."""
NO_PAIR = f"Mục Tương tác thuốc của các thuốc này không nêu tương tác giữa chúng. {NOT_SAFE}"
CONTEXT_BESIDE_PAIR = "Dưới đây là các câu Dược thư ghi cho bối cảnh bệnh nhân đã nêu:"
_SECTION_LABEL = {"chong_chi_dinh": " (Chống chỉ định)", "than_trong": " (Thận trọng)",
                  "thoi_ky_mang_thai": " (Thời kỳ mang thai)", "thoi_ky_cho_con_bu": " (Thời kỳ cho con bú)"}
"""How a safety sentence quoted beside an interaction says where it stands."""
CONTEXT_FIRST_PREAMBLE = "Theo Dược thư; các câu liên quan đến bối cảnh bệnh nhân đã nêu được trích trước:"
CONTEXT_CONTRAINDICATED_PREAMBLE = (
    "Dược thư ghi chống chỉ định phù hợp với bối cảnh bệnh nhân đã nêu (trích trước tiên, dưới đây). Vui lòng hỏi "
    "bác sĩ hoặc dược sĩ:"
)
CHILD_EXCLUSION_NOTICE = (
    "Theo Dược thư. Mục Liều lượng và cách dùng còn ghi không dùng hoặc không khuyến cáo thuốc cho trẻ ở tuổi/cân "
    "nặng như đã nêu (trích ở cuối)."
)
CONTEXT_EXCLUSION_NOTICE = (
    "Theo Dược thư. Mục Liều lượng và cách dùng còn ghi không dùng thuốc cho bệnh nhân có chức năng thận/gan như "
    "đã nêu (trích ở cuối)."
)


def _starts(chunks: Sequence[Chunk]) -> list[int]:
    """Index of each chunk's first sentence in the section's sentence list."""
    starts, at = [], 0
    for c in chunks:
        starts.append(at)
        at += len(sentences(c.text))
    return starts


MAX_INR_SENTENCES = 6
_GIVEN_HOW = re.compile(r"\b(?:truyen|tiem)(?: [a-z]+){0,2}? (?:nhu )?(?:the nao|ntn|ra sao|sao)\b")
"""(Folded.) How an infusion or injection is given ("truyền thế nào")."""
"""The book's INR schedule runs to five sentences (first test, second test, until stable, after a dose change, then
how often): each is a step of the one answer."""


def _timed(every: Sequence[tuple[str, str]], picked: Sequence[int], limit: int, *,
           verbs: frozenset[str] | set[str] = frozenset()) -> list[int]:
    """The first `limit` sentences of `every` not yet picked that state a time, on one of `verbs` when given."""
    return [i for i, (s, _) in enumerate(every) if states_duration(s) and i not in picked
            and (not verbs or any(re.search(rf"\b{v}\b", fold(s)) for v in verbs))][:limit]


def _of_another_population(sentence: str, population: str | None) -> bool:
    """A usage sentence labelled for another population than the patient's ("Uống – Trẻ em: Liều theo cân nặng, dùng
    một lần mỗi ngày …" for a 72-year-old asking about many days of fluconazole — #18 held-out H211): another
    patient's line, even without a number."""
    if population is None:
        return False
    # The label the sentence opens with ("Uống – Trẻ em:"), or the whole sentence when it has none: the label's words
    # decide ("… không vượt quá liều tối đa của người lớn" under a child's label is still the child's line).
    head, colon, _ = sentence.partition(":")
    named = population_of(head if colon and len(head.split()) <= 6 else sentence)
    return bool(named) and population not in named


class ExtractiveGenerator:
    name = "extractive"
    calls_llm = False

    def generate(self, request: GenerationRequest, budget: RequestBudget) -> Answer:
        evidence = quotable(request.evidence)
        if request.mode == "interaction":
            claims = self._interaction(request, evidence)
            context, contraindicated = self._context_beside_pair(request, evidence, claims)
            if context and not claims:
                # The pair has no line of its own, only the patient's context: the book's silence on the pair is said
                # first — the context lines alone would read as the whole answer (states.paths brings them) — and
                # then whether one drug is contraindicated for this patient (ibuprofen at ClCr 25, H254).
                return Answer(claims=context, generator=self.name,
                              preamble=f"{NO_PAIR} {CONTEXT_CONTRAINDICATED_PREAMBLE}" if contraindicated
                              else f"{NO_PAIR} {CONTEXT_BESIDE_PAIR}")
            if context and contraindicated:
                return Answer(claims=[*context, *claims], generator=self.name,
                              preamble=CONTEXT_CONTRAINDICATED_PREAMBLE)
            claims += context
        elif request.mode == "list":
            claims, notice = self._list(request, evidence)
            if claims and notice:
                return Answer(claims=claims, generator=self.name, preamble=notice)
        elif request.section_key == DOSING_SECTION and request.free_form:
            claims = self._usage(request, evidence)
        elif request.section_key == DOSING_SECTION:
            claims, preamble = self._dosing(request, evidence)
            if claims and preamble:
                return Answer(claims=claims, generator=self.name, preamble=preamble)
        else:
            claims = self._section(request, evidence) + self._taken_alongside(request, evidence)
            first, contraindicated = self._context_first(request, evidence)
            if first:
                # "Suy thận, mức lọc cầu thận 25 có dùng ibuprofen được không?": the sentences of the section that name
                # this patient's context or stated condition come first, cited, then the rest of the section.
                seen = {fold(c.text) for c in first}
                claims = [*first, *(c for c in claims if fold(c.text) not in seen)]
            context = self._context_exclusions(request, evidence) if request.section_key in CONTEXT_SECTIONS else []
            context = [c for c in context if all(fold(c.text) != fold(q.text) for q in claims)]
            # (After her pregnancy or nursing section: the contraindications naming it — states.paths brings them.)
            claims += [c for c in self._group_contraindications(request, evidence)
                       if all(fold(c.text) != fold(q.text) for q in claims)]
            # (After the section asked, whatever leads it: the indication naming the patient's allergy.)
            claims += [c for c in self._indicated_despite_allergy(request, evidence)
                       if all(fold(c.text) != fold(q.text) for q in claims)]
            if first and contraindicated:
                # The book contraindicates the drug for this patient: no dose line of the dosage section after it (the
                # renal band's "250–500 mg/lần" read as a dose for a patient with penicillin anaphylaxis).
                context = [c for c in context if not dose_quantities(fold(c.text))]
            if first:
                return Answer(claims=[*claims, *context], generator=self.name,
                              preamble=CONTEXT_CONTRAINDICATED_PREAMBLE if contraindicated else CONTEXT_FIRST_PREAMBLE)
            if claims and context:
                # "Suy thận ClCr 40 có dùng được không?": the section asked for, then what the dosage section says
                # about using the drug at all for this patient's kidneys or liver ("Không nên dùng … Clcr < 50"), or
                # for a child of this age or weight ("không khuyến cáo cho trẻ dưới 7 kg").
                patient = patient_of_request(request)
                notice = CONTEXT_EXCLUSION_NOTICE if patient.renal or patient.hepatic is not None \
                    else CHILD_EXCLUSION_NOTICE
                return Answer(claims=[*claims, *context], generator=self.name, preamble=notice)
        return Answer(claims=claims, generator=self.name, insufficient=not claims)

    def _context_first(self, request: GenerationRequest, evidence: Sequence[Chunk]) -> tuple[list[Claim], bool]:
        """The asked section's sentences that name the patient's context or stated condition (grounding.patient_safety)
        and whether one contraindicates the drug for this patient; ([], False) for another section."""
        if request.section_key not in CONTEXT_SECTIONS:
            return [], False
        # The cautions come along only for a "may this patient take it" question (states.paths adds the ones naming
        # the patient's condition); otherwise the evidence is the one section asked.
        # A pregnant or nursing patient's own section too (states.paths brings it on a may-take question): "bầu 7 tháng
        # bị glôcôm … dùng papaverin được không" quoted the glaucoma caution and left her pregnancy unsaid (#17
        # held-out H194).
        own = [c for c in evidence if c.section_key in CONTEXT_SECTIONS
               or (c.section_key == "thoi_ky_mang_thai" and request.pregnant)
               or (c.section_key == "thoi_ky_cho_con_bu" and request.breastfeeding)]
        safety = patient_safety(own, patient_of_request(request), pregnant=request.pregnant,
                                breastfeeding=request.breastfeeding)
        return safety.claims, safety.contraindicated

    def _context_beside_pair(self, request: GenerationRequest, evidence: Sequence[Chunk],
                             claims: Sequence[Claim]) -> tuple[list[Claim], bool]:
        """On an interaction question about a patient with a stated context (a driver, moderate liver failure, a
        pregnancy), each drug's safety sentences naming that context (grounding.patient_safety; states.paths brings
        the sections), labelled by section, and whether one contraindicates a drug for this patient. "Tôi lái xe tải
        …, đang uống haloperidol. Tối nay nhậu vài lon bia có sao không?" quoted the alcohol lines and left out
        "… ảnh hưởng đến khả năng … lái xe"; "anh tôi … suy gan vừa, lại hay uống rượu. Abacavir có dùng được
        không?" left out the contraindication of his liver (#18 held-out H253)."""
        patient = patient_of_request(request)
        if not (patient.conditions or patient.renal or patient.hepatic is not None or request.pregnant
                or request.breastfeeding):
            return [], False
        seen = {fold(c.text.split(" — ", 1)[-1]) for c in claims}
        found: list[tuple[str, Claim]] = []
        contraindicated = False
        # (Her pregnancy or nursing section only when the pair has no line of its own: beside the pair's lines it was
        # the answer to a question not asked — "haloperidol + lithium có sao ko" after whether she may nurse on it.)
        group = not claims
        for drug_id in request.drug_ids:
            own = [c for c in evidence if c.drug_id == drug_id and (
                c.section_key in CONTEXT_SECTIONS or (group and c.section_key == "thoi_ky_mang_thai" and request.pregnant)
                or (group and c.section_key == "thoi_ky_cho_con_bu" and request.breastfeeding))]
            if not own:
                continue
            safety = patient_safety(own, patient, pregnant=request.pregnant, breastfeeding=request.breastfeeding)
            contraindicated = contraindicated or safety.contraindicated
            titles = {c.doc_id: (_title(c), c.section_key) for c in own}
            for claim in safety.claims:
                if fold(claim.text) in seen or not claim.citations or claim.citations[0] not in titles:
                    continue
                seen.add(fold(claim.text))
                title, section = titles[claim.citations[0]]
                label = _SECTION_LABEL.get(section, "")
                found.append((section, Claim(text=f"{title}{label} — {claim.text}", citations=list(claim.citations))))
        # And what the dosage section says for the patient's kidneys or liver ("Suy gan: Dùng thận trọng, dùng liều
        # thấp" — paracetamol for a man with moderate liver failure who drinks, #18 held-out H253); never a dose line
        # beside a contraindication.
        organ = [c for c in self._context_exclusions(request, evidence) if fold(c.text) not in seen]
        if contraindicated:
            organ = [c for c in organ if not dose_quantities(fold(c.text))]
        # (The contraindications first, whichever drug they are of: the preamble says they come first.)
        found.sort(key=lambda pair: pair[0] != "chong_chi_dinh")
        return [*(claim for _, claim in found), *organ], contraindicated

    @staticmethod
    def _group_contraindications(request: GenerationRequest, evidence: Sequence[Chunk]) -> list[Claim]:
        """On a pregnancy or nursing section question for a pregnant or nursing woman, the contraindication sentences
        naming her state ("Ba tháng cuối của thai kỳ.")."""
        group = "pregnant" if request.section_key == "thoi_ky_mang_thai" and request.pregnant else \
            "breastfeeding" if request.section_key == "thoi_ky_cho_con_bu" and request.breastfeeding else None
        if group is None:
            return []
        return [Claim(text=f"{_title(chunk)} (Chống chỉ định) — {sentence}", citations=[chunk.doc_id])
                for chunk in evidence if chunk.section_key == "chong_chi_dinh" for sentence in sentences(chunk.text)
                if any(states_phrase(sentence, t) for t in PATIENT_TERMS[group])]

    @staticmethod
    def _indicated_despite_allergy(request: GenerationRequest, evidence: Sequence[Chunk]) -> list[Claim]:
        """On a may-take question of a patient with an allergy, the indication naming that allergy as the reason to
        use this drug ("… khi không dùng được penicilin"; states.paths brings those "Chỉ định" blocks)."""
        if request.section_key not in CONTEXT_SECTIONS:
            return []
        named = allergens([*request.comorbidities, request.condition or ""])
        return [Claim(text=sentence, citations=[chunk.doc_id]) for chunk in evidence if chunk.section_key == "chi_dinh"
                for sentence in sentences(chunk.text) if any(states_phrase(sentence, a) for a in named)]

    def _context_exclusions(self, request: GenerationRequest, evidence: Sequence[Chunk]) -> list[Claim]:
        """The dosage section's exclusions for this patient's renal/hepatic context (a band that holds the patient's
        ClCr/eGFR value or hepatic grade), quoted with their lead-ins."""
        patient = patient_of_request(request)
        child = patient.population == "pediatric" and (patient.age_months is not None or patient.weight_kg is not None)
        if not patient.renal and patient.hepatic is None and not child:
            return []
        claims: list[Claim] = []
        for tree in trees_by_drug(evidence, request.drug_names):
            selection = select_lines(tree.tree, patient)
            for line in selection.exclusions:
                # (Or every child, in its own words: "Chưa xác định được độ an toàn … ở trẻ em; không có liều khuyến cáo
                # cho trẻ em" — a 12-year-old asked about isosorbide got the adults' contraindications alone; #18
                # held-out H215.)
                by_age = child and (line.band.age_months is not None or line.band.weight_kg is not None
                                    or line.population == "pediatric")
                if line.context.renal or line.context.hepatic or line.band.renal_ml_min is not None or by_age:
                    claims += self._quote(tree, line)
            # What the dosage section says for this patient's context without excluding them ("Trong trường hợp suy
            # thận nặng, tránh dùng, nếu dùng, liều đầu tiên phải cho thấp hơn …"): "may a patient with severe renal
            # failure take warfarin" was answered with the contraindication list alone, which does not name the
            # kidney — a safety statement left out (#17, dev set H31).
            for line in selection.lines:
                if line.kind == "note" and ((patient.renal and line.context.renal) or (
                        patient.hepatic is not None and line.context.hepatic)):
                    claims += self._quote(tree, line)
                elif line.kind == "regimen" and patient.renal_ml_min is not None and \
                        line.band.renal_ml_min is not None and band_admits(line.band, patient):
                    # The adjustment of the band holding the patient's value ("Độ thanh thải creatinin dưới 30
                    # ml/phút: giảm liều một nửa"): whether they may take it at that dose is that line too (#18 held-out
                    # H106: "ClCr 25, clarithromycin 500 mg ngày 2 lần có được ko" got the contraindications alone).
                    claims += self._quote(tree, line)
                elif line.kind == "regimen" and patient.dialysis and DIALYSIS.search(
                        fold(" ".join((*line.path, line.text)))):
                    # A patient on dialysis: the book's dialysis dose ("Người bệnh thẩm tách máu: 2,5 mg vào ngày
                    # thẩm tách, sau buổi thẩm tách") — "nếu ông phải chạy thận nhân tạo thì sao" got the
                    # contraindications alone (#18 held-out H224).
                    claims += self._quote(tree, line)
                elif line.kind == "regimen" and patient.hepatic is not None and line.context.hepatic and \
                        (line.band.hepatic in (None, "any") or band_admits(line.band, patient)):
                    # The hepatic adjustment of this patient's grade ("Suy gan nặng: giảm liều, khoảng cách giữa các
                    # liều ít nhất 8 giờ"): "xơ gan nặng, bs kê clindamycin 300 mg cách 6h, có ổn không" was answered
                    # with the caution "cần giảm liều" and the 8 hours left out (#18 held-out H224).
                    claims += self._quote(tree, line)
        return claims

    def repair(
        self, request: GenerationRequest, answer: Answer, omissions: Sequence[str], budget: RequestBudget
    ) -> Answer:
        """Append one claim per omitted sentence, quoting it from the block that states it."""
        evidence = quotable(request.evidence)
        cited = {d for c in answer.claims for d in c.citations}
        # Prefer the blocks the answer already cites: the omission was found there.
        ordered = sorted(evidence, key=lambda c: c.doc_id not in cited)
        present = {fold(c.text) for c in answer.claims}
        added: list[Claim] = []
        for omission in omissions:
            target = fold(clean(omission))
            if not target or target in present:
                continue
            source = next((c for c in ordered if target in fold(clean(c.text)) or
                           any(target == fold(s) for s in sentences(c.text))), None)
            if source is None:
                continue  # not in the evidence: nothing grounded to add (verification will say so)
            drug_ids = [source.drug_id] if request.mode == "list" else []
            added.append(Claim(text=clean(omission), citations=[source.doc_id], drug_ids=drug_ids))
            present.add(target)
        return answer.model_copy(update={"claims": [*answer.claims, *added], "generator": self.name})

    # ------------------------------------------------------------------------------------------ single

    def _dosing(self, request: GenerationRequest, evidence: Sequence[Chunk]) -> tuple[list[Claim], str]:
        """The patient's own lines of the dosage tree, each quoted with its context path; patient-context safety
        sentences first. A contraindication or an exclusion for this patient: those, and no dose."""
        patient = patient_of_request(request)
        safety = patient_safety(evidence, patient, pregnant=request.pregnant, breastfeeding=request.breastfeeding)
        if safety.contraindicated:
            return safety.claims, EXCLUDED_PREAMBLE if safety.not_recommended else CONTRAINDICATED_PREAMBLE
        trees = trees_by_drug(evidence, request.drug_names)
        if request.population is None and request.route is None and not safety.claims and not patient.renal \
                and patient.hepatic is None:
            # A question about the whole section: quote its opening.
            return self._section(request, evidence), ""
        claims: list[Claim] = list(safety.claims)
        if drinks_alcohol(request.comorbidities):
            # A patient who drinks: the drug's interaction line about alcohol, first (states.paths brings it).
            alcohol = [Claim(text=f"{_title(chunk)} (Tương tác thuốc) — {sentence}", citations=[chunk.doc_id])
                       for chunk in evidence if chunk.section_key == "tuong_tac_thuoc"
                       for sentence in alcohol_sentences(chunk.text)]
            claims = [*alcohol, *claims]
        notices: list[str] = [SAFETY_FIRST_PREAMBLE] if safety.claims else []
        if safety.conditional:
            # A contraindication quoted because it names the patient's context, though it also needs a condition the
            # patient is not known to have: said so, so it is read as "not if …", not as "yes, safe".
            notices.append(CONDITIONAL_NOTICE)
        for tree in trees:
            own_route = routes_for(tree.tree, patient) if patient.route is None and patient.indication else []
            # The indication asked is dosed on one route for this patient (the infusion's "Viêm não do HSV:"), so the
            # route was not asked: that route's lines, not the notes of every other route (the ointment's).
            routed = replace(patient, route=own_route[0]) if len(own_route) == 1 else patient
            selection = select_lines(tree.tree, routed)
            named = patient.indication
            if selection.indication_unmatched and is_comorbidity(patient.indication, safety, tree.tree.text):
                # The condition stated is the patient's comorbidity (a caution names it, quoted first), not an
                # indication the book doses: their lines as for a question naming none.
                named = None
                selection = select_lines(tree.tree, replace(routed, indication=None))
            if not selection.lines and not selection.exclusions and routed.route is not None and not any(
                    routed.route in line.routes and line.kind == "regimen" for line in tree.tree.lines):
                # (Only where the book gives no line on the route asked for anyone: haloperidol's oral Tourette dose,
                # no population written, is no child's — but the injection's exclusion is no answer to an oral
                # question either; #17 held-out H160.)
                # "bé 10 tháng, voltaren đặt hậu môn được không": the book gives no line on that route for anyone,
                # and excludes the child on the route it does give ("Không khuyến cáo dùng cho trẻ dưới 1 tuổi") —
                # that exclusion is the answer, not an empty one (#18 held-out H140 abstained as unverifiable).
                any_route = select_lines(tree.tree, replace(routed, route=None))
                if any_route.exclusions and not any_route.lines:
                    selection = any_route
            if selection.exclusions:
                claims += [c for line in selection.exclusions for c in self._quote(tree, line)]
                notices.append(EXCLUDED_PREAMBLE)
                continue
            lines = selection.lines
            if not named and (aside := circumstances_beside_general(lines)):
                # No indication named: the general dose is the usual one, the circumstances' doses named only.
                lines = [line for line in lines if not indication_key(line) or indication_key(line)[-1] not in aside]
                notices.append(general_dose_note(aside))
            if safety.adjustments and not any(_adjusts(line, safety.adjusts) for line in lines):
                # The patient's adjustment is stated outside the dosage section (a hepatic maximum in "Thận
                # trọng"): it is quoted above and replaces the usual doses, which are another patient's.
                notices.append(ADJUSTMENT_ELSEWHERE_NOTICE)
                continue
            ceilings = self._context_ceilings(tree, lines, patient)
            capped = bool(ceilings) or any(names_patient_condition(line, patient) or caps_patient(line, patient)
                                           for line in lines)
            # A renal ceiling of the patient's band ("khi độ thanh thải creatinin dưới 10 ml/phút, không dùng quá 2
            # g/ngày") caps the usual lines quoted beside it: their own higher amount ("nhiễm khuẩn nặng có thể tăng
            # đến 4 g/ngày") is left out (#18 held-out H146 showed a ClCr-8 patient the 4 g).
            renal_cap = [line for line in lines if line.maxima and line.band.renal_ml_min is not None
                         and not is_dosed(line)]
            quoted = [claim for line in lines for claim in self._quote(
                tree, line, patient.indication, under_ceiling=(capped and not names_patient_condition(line, patient)
                                                               and not caps_patient(line, patient))
                or (bool(renal_cap) and line not in renal_cap and line.band.renal_ml_min is None),
                patient=patient)]
            # (A ceiling line the patient's own line already is — "nhồi máu cơ tim" named by the line and the patient —
            # is quoted once, not twice.)
            quoted += [c for c in ceilings if all(c.text != q.text for q in quoted)]
            if quoted and (conditional := [c for line in conditional_exclusions(tree.tree, patient)
                                           for c in self._quote(tree, line)
                                           if all(c.text != q.text for q in quoted)]):
                # The impairment's own conditional contraindication, after the dose it qualifies (core.dosage.select).
                quoted += conditional
                if CONDITIONAL_NOTICE not in notices:
                    notices.append(CONDITIONAL_NOTICE)
            if not quoted and request.population is not None:
                quoted = self._population_mentions(tree, request.population)
            claims += quoted
            if selection.below_floor is not None:
                # The floor is quoted (its band words, never its dose) before the general notes.
                floor = selection.below_floor
                path = " › ".join(floor.path)
                words = with_age_floor(band_words(floor), floor)
                claims.insert(len(claims) - len(quoted), Claim(text=clean(f"{path}: {words}" if path else words),
                                                               citations=tree.citations(floor)))
                notices.append(BELOW_FLOOR_PREAMBLE)
            elif selection.other_bands:
                # The indication's bands are quoted (their band words, never their doses) before the general notes.
                at = len(claims) - len(quoted)
                for line in selection.other_bands:
                    path = " › ".join(line.path)
                    words = band_words(line)
                    text = f"{path}: {words}" if path and words else path or words
                    if text and all(text != c.text for c in claims):
                        claims.insert(at, Claim(text=clean(text), citations=tree.citations(line)))
                        at += 1
                notices.append(OTHER_BAND_PREAMBLE)
            elif quoted and selection.no_band:
                notices.append(NO_BAND_PREAMBLE if request.population == "pediatric" else GENERAL_ONLY_PREAMBLE)
            if quoted and not named and len(dosed_indications(lines)) > 1:
                # No indication named and the patient's doses differ by indication (aciclovir's child infusion: 250
                # mg/m2 for HSV/VZV, 500 mg/m2 for encephalitis): each is labelled, and the reply says to pick one —
                # none of them is this patient's dose until the indication is known.
                notices.append(INDICATION_SPLIT_NOTICE)
            if quoted and selection.indication_unmatched:
                # Every indication's lines, each labelled — or, when the book has a general dose for this patient,
                # that dose alone (core.dosage.select.narrow_to_indication), said so.
                labelled = any(indication_key(line) for line in lines)
                notices.append(INDICATION_UNMATCHED_NOTICE if labelled else INDICATION_GENERAL_NOTICE)
            if selection.needs_renal_value:
                notices.append(RENAL_VALUE_QUESTION)
            elif any(line.context.renal for line in lines):
                # A renal band that states no amount of its own is shown with the usual dose it modifies
                # (core.dosage.select.admit_renal_hepatic): the notice must not say the renal line replaces it.
                modifies = any(line.kind == "regimen" and line.band.renal_ml_min is not None
                               and not states_amount(line) for line in lines) and any(
                    line.kind == "regimen" and not is_renal_line(line) for line in lines)
                notices.append(RENAL_MODIFIES_NOTICE if modifies else RENAL_BAND_NOTICE)
        if len(claims) == len(safety.claims) and not safety.adjustments:
            return ([], "") if not safety.claims else (claims, " ".join(notices))
        return claims, " ".join(dict.fromkeys(notices))

    def _usage(self, request: GenerationRequest, evidence: Sequence[Chunk]) -> list[Claim]:
        """A free-form question answered from the dosage section, after the contraindication naming the patient's
        impaired organ when the path brought it (grounding.organ_lines)."""
        barred = organ_contraindications(request, evidence)
        return [*barred, *(c for c in self._usage_lines(request, evidence) if c not in barred)]

    def _usage_lines(self, request: GenerationRequest, evidence: Sequence[Chunk]) -> list[Claim]:
        """A free-form question answered from the dosage section: the sentences that match it (core.sentence_match),
        among those carrying no number. Nothing else of the section: its doses belong to patients not known here."""
        # An administration question ("truyền trong bao lâu") may be answered by how long an infusion lasts.
        durations = allows_times(asked_words(request.query))
        every = [(s, c.doc_id) for c in evidence if c.section_key == DOSING_SECTION for s in sentences(c.text)
                 if usage_sentence(s, durations=durations) and not _of_another_population(s, request.population)]
        if asks_missed_dose(request.query):
            # (Before the INR sentences: "hôm qua ông quên uống, … 2 viên bù được ko" after the INR target was asked —
            # the query carries the earlier words; #17 held-out H168 quoted the INR target again.)
            # A missed dose: only the book's sentences about one. Another usage sentence sharing the question's words
            # ("uống", "liều") would read as the answer; with none, the reply says the book states nothing about it.
            # Each of them answers it: quoted in book order, not ranked by shared words ("gấp đôi" shares none with
            # "không được uống hai liều").
            missed = [(s, d) for s, d in every if states_missed_dose(s)][:MAX_MISSED_DOSE_SENTENCES]
            return [Claim(text=s, citations=[d]) for s, d in missed]
        if asks_inr_monitoring(request.query):
            # The target INR or the test schedule: the book's sentences stating it, numbers and all (they are the
            # answer), in book order — never a dose line. Read from every dosage sentence, not only the number-free
            # ones above.
            stated = self._inr_monitoring(request, evidence)
            if stated:
                return stated
        organ = asks_organ_adjustment(request.query)
        if organ is not None:
            # "suy thận có cần chỉnh liều không": the dosage section's lines for that organ, numbers and all, in book
            # order — for the patient's own band when their value or grade is known (core.organ_adjustment).
            # None: the reply says the book states nothing on it (another usage sentence sharing the question's
            # words would read as the answer).
            return organ_claims(request, evidence, organ)
        if asks_combination(request.query):
            # A combination product asked: the dosage sentences naming it, with the weight or renal limit they state
            # (core.combination_form) — a limit of whom it is for, never a dose.
            named = [(s, c.doc_id) for c in evidence if c.section_key == DOSING_SECTION for s in sentences(c.text)
                     if combination_limit(request.query, s)]
            if named:
                return [Claim(text=s, citations=[d]) for s, d in named[:MAX_FOCUSED]]
        if asks_food(request.query) and not any(food_sentence(s) for s, _ in every):
            # The dosage section says nothing of food: another section's food sentences, when the evidence holds them
            # (states.paths.food_elsewhere: ibuprofen's "nên uống thuốc lúc ăn hay uống với sữa" is in its ADR
            # handling). None: the reply says the book states nothing on it.
            elsewhere = [(s, c.doc_id) for c in evidence if c.section_key != DOSING_SECTION
                         for s in sentences(c.text) if food_sentence(s)]
            return [Claim(text=s, citations=[d]) for s, d in elsewhere[:MAX_FOCUSED]]
        names = [n for d in request.drug_ids for n in request.drug_names.get(d, [])]
        asked = asked_words(request.query)
        if asks_time_of_day(asked):
            # "thường nên uống vào giờ nào": the book's sentence naming a time of day ("… nên uống vào buổi chiều để
            # có thể thay đổi liều … sau khi có kết quả INR"), which shares no word with the question (#17 held-out
            # H184 quoted INR sentences).
            timed = [i for i, (s, _) in enumerate(every) if time_of_day_sentence(s)][:MAX_FOCUSED]
            if timed:
                return [Claim(text=every[i][0], citations=[every[i][1]]) for i in timed]
        matches = best_matches(asked, [s for s, _ in every], names, limit=MAX_FOCUSED, strong=False)
        picked = [m.index for m in matches]
        # "uống trước hay sau ăn, bẻ đôi viên được không": two questions in one turn — each clause's own best sentence
        # too, so the second ("nuốt cả viên, không được bẻ") is not crowded out by the first (#17 held-out H124).
        clauses = [c for c in re.split(r"[,;?]", asked) if len(c.split()) >= 3]
        if len(clauses) > 1:
            for clause in clauses:
                best = best_matches(clause, [s for s, _ in every], names, limit=1, strong=False)
                picked += [m.index for m in best if m.index not in picked]
        picked = picked[:MAX_FOCUSED + 1]
        if durations and _GIVEN_HOW.search(fold(request.query)):
            # "pha và truyền thế nào": how it is given is also how long the infusion lasts — the sentences stating
            # it come too ("Dưới dạng muối natri trong 1 giờ" shares no word with the question; #17 held-out H178).
            picked += _timed(every, picked, 2)
        if asks_injection_speed(asked):
            # "bơm nhanh được không": how slowly the book says to give it, and what a fast injection does.
            picked += _timed(every, picked, 1)
            fast = [Claim(text=s, citations=[c.doc_id]) for c in evidence if c.section_key != DOSING_SECTION
                    for s in sentences(c.text) if fast_injection_sentence(s)][:MAX_FOCUSED]
            return [Claim(text=every[i][0], citations=[every[i][1]]) for i in picked] + fast
        elif durations and asks_duration(asked):
            # "pha loãng với dịch gì, truyền trong bao lâu?": the dilution sentence matched best, and its "trong vòng 1
            # giờ sau khi pha" is no infusion time — the first other sentence stating a time on the route asked comes
            # too ("Truyền tĩnh mạch trong 15 phút: …"; #17 held-out H184 answered the dilution alone).
            picked += _timed(every, picked, 1, verbs={v for v in ("truyen", "tiem") if re.search(rf"\b{v}\b", fold(asked))})
        return [Claim(text=every[i][0], citations=[every[i][1]]) for i in picked]

    @staticmethod
    def _inr_monitoring(request: GenerationRequest, evidence: Sequence[Chunk]) -> list[Claim]:
        """The dosage tree's sentences stating the target INR or the test schedule, in book order, from lines for
        everyone or for the request's population: a child's schedule ("khoảng cách giữa hai INR không được vượt quá
        15 ngày" under "Trẻ em") is not an adult's answer."""
        claims: list[Claim] = []
        for tree in trees_by_drug(evidence):
            for line in tree.tree.lines:
                if line.context.population not in (None, request.population):
                    continue
                claims += [Claim(text=clean(s), citations=tree.citations(line)) for s in sentences(line.text)
                           if inr_monitoring_sentence(request.query, s)]
        return claims[:MAX_INR_SENTENCES]

    @staticmethod
    def _context_ceilings(tree: SectionTree, lines: Sequence[RegimenLine], patient: Patient) -> list[Claim]:
        """A ceiling the book writes for the patient's stated condition inside a sibling band's line (the 3 g/ngày
        for alcoholics under the infusion's "Dưới 50 kg"): quoted, with its path, after the patient's own lines.

        Also from a line of the patient's population under another route, its path naming that route: an alcoholic
        asking the oral maximum was shown "tối đa là 4 g/ngày" alone while the book's 3 g/ngày ceiling for alcoholics
        sits under the infusion (held-out H23). A lower ceiling written for their condition is never left out; its
        route stays visible, so it is not presented as the oral line's own."""
        groups = {group_of(line) for line in lines if line.kind == "regimen"}
        populations = {line.population for line in lines if line.kind == "regimen"}
        own_routes = {r for line in lines if line.kind == "regimen" for r in line.routes}
        claims: list[Claim] = []
        for line in tree.tree.lines:
            # Another group only when it is another ROUTE of the same population (the infusion beside the oral
            # line) — never another band or group on the patient's own route: an elderly patient's "Người cao tuổi:
            # 0,5 - 2 mg" must not be joined by the adults' "Trong loạn thần nặng … tới 60 mg/ngày" (held-out H25).
            other_route = line.population in populations and bool(line.routes) and bool(own_routes) \
                and not set(line.routes) & own_routes
            # (A line one of whose own sentences is the patient's — the long-term prevention sentence of aspirin's
            # antiplatelet line — is theirs, not a sibling: its other sentence, the acute loading dose naming the
            # infarction they had, is no ceiling of theirs.)
            own = line in lines or any(line.start <= q.start and q.end <= line.end for q in lines)
            if own or (group_of(line) not in groups and not other_route):
                continue
            for sentence in context_sentences(line, patient):
                path = " › ".join(line.path)
                claims.append(Claim(text=clean(f"{path}: {sentence}" if path else sentence),
                                    citations=tree.citations(line)))
        return claims

    @staticmethod
    def _quote(tree: SectionTree, line: RegimenLine, indication: str | None = None, *,
               under_ceiling: bool = False, patient: Patient | None = None) -> list[Claim]:
        """The line as written, after its context path (the lead-ins it sits under), citing the blocks of both —
        only its part for the purpose asked when it gives a dose per purpose (core.dosage.select.purpose_text).

        For a patient under a lower ceiling the book writes for their condition (`under_ceiling`: quoted beside it;
        or the line's own later sentence naming the condition), the usual maximum clause ("; tối đa là 4 g/ngày") is
        left out of the line, which is quoted up to it: an alcoholic asking the most they may take was shown the 4 g
        beside the 3 g cap, a maximum that is not theirs (#17, two blind real-text sets)."""
        part = purpose_text(line, indication)
        if part != line.text:
            line = replace(line, text=part)
        own = context_sentences(line, patient) if patient is not None else []
        if (under_ceiling or own) and line.kind == "regimen":
            first = line_sentences(line.text)[0]
            trimmed = _USUAL_MAXIMUM_CLAUSE.sub("", first)
            if trimmed != first and dose_quantities(fold(trimmed)):
                return [Claim(text=clean(replace(line, text=trimmed).quoted()), citations=tree.citations(line)),
                        *[Claim(text=clean(sentence), citations=tree.citations(line)) for sentence in own]]
        return [Claim(text=clean(line.quoted()), citations=tree.citations(line))]

    def _population_mentions(self, tree: SectionTree, population: str) -> list[Claim]:
        """No line for this population: what the section says about it elsewhere ("không có liều … trẻ em").

        Only lines that name no population of their own and carry no dose, so another population's dose is never
        quoted."""
        return [c for line in tree.tree.lines for c in self._quote(tree, line)
                if line.population is None and line.kind != "regimen" and population in population_of(line.text)]

    def _section(self, request: GenerationRequest, evidence: Sequence[Chunk]) -> list[Claim]:
        if request.section_key:
            chunks = [c for c in evidence if c.section_key == request.section_key] or list(evidence)
            every = [(s, c.doc_id) for c in chunks for s in sentences(c.text)]
            names = [n for d in request.drug_ids for n in request.drug_names.get(d, [])]
            # A drug without a monograph asked inside this section (an antidote in "Quá liều và xử trí") is the
            # subject: its sentences first (question_focus).
            subjects = request.taking if request.section_key != DOSING_SECTION else []
            focused, rest = focus(request.query, [s for s, _ in every], names=names, subjects=subjects)
            # The question's own sentences first (question_focus), then each chunk's opening sentences as before.
            # (A contraindication list whole: "warfarin chống chỉ định với những ai" was cut at six sentences and its
            # "Suy gan nặng", "mang thai" went unsaid — an omission read as a safety statement; #18 held-out H251.)
            per_chunk = len(every) if request.section_key == "chong_chi_dinh" else MAX_SENTENCES_PER_CHUNK
            opening = {i for start in _starts(chunks) for i in range(start, start + per_chunk)}
            # A focused sentence's own "but" ("Mày đay, các dạng ban khác … điều trị bằng kháng histamin …. Tuy nhiên
            # khi phản ứng như vậy xảy ra, phải ngừng dùng amoxicilin"): it comes with it — #17 held-out H204 quoted
            # the treatment without the stop.
            focused = [*focused, *(i + 1 for i in focused if i + 1 < len(every) and i + 1 not in focused
                                   and every[i + 1][1] == every[i][1] and _QUALIFIES_BEFORE.match(every[i + 1][0]))]
            chosen = [*focused, *(i for i in rest if i in opening and i not in focused)]
            return [Claim(text=every[i][0], citations=[every[i][1]]) for i in chosen]
        # Overview: the opening of each section, in evidence (book) order.
        claims: list[Claim] = []
        seen: set[tuple[str, str]] = set()
        for chunk in evidence:
            key = (chunk.drug_id, chunk.section_key)
            if key in seen:
                continue
            seen.add(key)
            claims += [Claim(text=s, citations=[chunk.doc_id])
                       for s in sentences(chunk.text)[:OVERVIEW_SENTENCES_PER_SECTION]]
        return claims[:MAX_OVERVIEW_CLAIMS]

    # ------------------------------------------------------------------------------------- interaction

    def _names(self, request: GenerationRequest, drug_id: str) -> list[str]:
        names = [fold(n) for n in request.drug_names.get(drug_id, [])]
        return [n for n in names if len(n) >= 3] or [fold(drug_id.replace("_", " "))]

    def _interaction(self, request: GenerationRequest, evidence: Sequence[Chunk]) -> list[Claim]:
        claims: list[Claim] = []
        for drug_id in request.drug_ids:
            others = [d for d in request.drug_ids if d != drug_id]
            other_names = [n for o in others for n in self._names(request, o)]
            # A contraindication is matched by the other drug's own names (its class words are every member's).
            own_names = [fold(n) for o in others for n in request.drug_own_names.get(o, [fold(o.replace("_", " "))])
                         if len(fold(n)) >= 3]
            # (And by a class name the book uses for it — "thuốc chống đông coumarin" in ibuprofen's contraindications
            # is warfarin's: #17 held-out H204 left it out. Never the raw "Loại thuốc" words.)
            own_names += [n for n in other_names if n in NAMED_CLASS_TERMS and n not in own_names]
            # A class the drug itself belongs to names the other drug only as "the other members" ("Với các thuốc
            # chống viêm không steroid khác: …"): in ibuprofen's section "Phải theo dõi chặt chẽ huyết áp khi phối hợp
            # thuốc chống viêm không steroid ở bệnh nhân đang dùng ức chế enzym chuyển" is ibuprofen's own line with
            # an ACE inhibitor, and it was quoted as ibuprofen × aspirin.
            host_classes = set(self._names(request, drug_id)) - {
                fold(n) for n in request.drug_own_names.get(drug_id, [])}
            # The contraindications naming the other drug (or its class) first, then the interaction lines.
            for section in ("chong_chi_dinh", "than_trong", "tuong_tac_thuoc", DOSING_SECTION):
                for chunk in evidence:
                    if chunk.drug_id != drug_id or chunk.section_key != section:
                        continue
                    carry = 0
                    for sentence in (s for line in chunk.text.split("\n") for s in [*sentences(line), _LINE_END]):
                        if sentence is _LINE_END:
                            carry = 0
                            continue
                        names = own_names if section != "tuong_tac_thuoc" else other_names
                        # With a partner that has no monograph asked beside several drugs ("bn còn uống methotrexat"
                        # after warfarin × amoxicillin), the lines naming that partner answer — not the pair's again.
                        pair = section != DOSING_SECTION and not (request.partners and len(request.drug_ids) > 1) and any(
                            states_phrase(sentence, n) and (n not in host_classes or _other_members(sentence, n))
                            for n in names)
                        label = _SECTION_LABEL.get(section, "") if section != "tuong_tac_thuoc" else ""
                        if pair or any(names_partner(sentence, p) for p in request.partners) and not (
                                section == DOSING_SECTION and dose_quantities(fold(sentence))):
                            claims.append(Claim(text=f"{_title(chunk)}{label} — {sentence}",
                                                citations=[chunk.doc_id]))
                            # An item headed by its partner ("Thuốc cản quang chứa iod tiêm nội mạch: … . Ngừng metformin
                            # trước … ít nhất 48 giờ …"): the instruction sentence after it on the same line is the
                            # item's too (#18 held-out H155 left the 48 hours out).
                            carry = 2 if section == "tuong_tac_thuoc" and _ITEM_HEAD.match(sentence) else 0
                        elif carry and not _ITEM_HEAD.match(sentence):
                            claims.append(Claim(text=f"{_title(chunk)}{label} — {sentence}",
                                                citations=[chunk.doc_id]))
                            carry -= 1
                        else:
                            carry = 0
        return claims

    @staticmethod
    def _taken_alongside(request: GenerationRequest, evidence: Sequence[Chunk]) -> list[Claim]:
        """On a may-take question, the drug's interaction lines naming what the patient already takes (a drug with no
        monograph: states.paths brings those lines), after the section asked."""
        if request.section_key == "tuong_tac_thuoc" or not request.taking:
            return []
        return [Claim(text=f"{_title(chunk)} (Tương tác thuốc) — {sentence}", citations=[chunk.doc_id])
                for chunk in evidence if chunk.section_key == "tuong_tac_thuoc"
                for sentence in sentences(chunk.text)
                if any(states_phrase(sentence, fold(t)) for t in request.taking)]

    # -------------------------------------------------------------------------------------------- list

    def _list(self, request: GenerationRequest, evidence: Sequence[Chunk]) -> tuple[list[Claim], str]:
        """Each candidate's indication sentence; right beside it, the sentences of its safety sections that exclude
        this patient (LIST_EXCLUSION_NOTICE); then, for a patient context, the safety sentences about it."""
        condition = fold(request.condition or "")
        patient = patient_of_request(request)
        # A child with no other patient context: the safety blocks came only for the child's exclusions
        # (states.paths.child_safety_blocks), and only those are quoted.
        exclusions_only = is_child(patient) and not (request.pregnant or request.breastfeeding or request.renal
                                                     or request.hepatic or request.comorbidities)
        indications: list[Claim] = []
        safety: list[Claim] = []
        excluded_any = False
        for drug_id in request.candidate_drug_ids:
            own = [c for c in evidence if c.drug_id == drug_id]
            claim = self._indication(own, condition, drug_id)
            if claim is None:
                continue  # a candidate whose indication sentence cannot be quoted is not listed
            indications.append(claim)
            blocks = [c for c in own if c.section_key in SAFETY_SECTIONS]
            # Safety: a drug the book excludes for this patient (a child's age band, pregnancy) is never listed
            # silently — its excluding sentence (safety sections or the dosage section's exclusion line), as the dose
            # path reads it, is quoted right under its line.
            exclusions = list_exclusions(evidence, drug_id, patient, pregnant=request.pregnant,
                                         breastfeeding=request.breastfeeding)
            by_chunk = {c.doc_id: c for c in own}
            for e in exclusions:
                indications.append(Claim(text=f"{_title(by_chunk[e.claim.citations[0]])} — {EXCLUSION_MARK} "
                                              f"{e.claim.text}", citations=e.claim.citations, drug_ids=[drug_id]))
            excluded_any = excluded_any or bool(exclusions)
            if exclusions_only:
                continue
            quoted = {fold(e.statement) for e in exclusions}
            for chunk in blocks:
                picked = [s for s in self._safety_sentences(chunk) if fold(s) not in quoted]
                safety += [Claim(text=f"{_title(chunk)} — {s}", citations=[chunk.doc_id], drug_ids=[drug_id])
                           for s in picked]
        return [*indications, *safety], LIST_EXCLUSION_NOTICE if excluded_any else ""

    def _indication(self, chunks: Sequence[Chunk], condition: str, drug_id: str) -> Claim | None:
        for chunk in (c for c in chunks if c.section_key == "chi_dinh"):
            # A chunk without the literal phrase is a dense-fallback hit ("tanghuyetap"), already checked to
            # state the condition fuzzily: quote its sentence that does. Literal chunks are quoted as before.
            fuzzy = not states_phrase(chunk.text, condition)
            for unit in [*sentences(chunk.text), *lines(chunk.text)]:
                if fuzzy_states(unit, condition) if fuzzy else states_phrase(unit, condition):
                    return Claim(text=f"{_title(chunk)} — {unit}", citations=[chunk.doc_id], drug_ids=[drug_id])
        return None

    def _safety_sentences(self, chunk: Chunk) -> list[str]:
        all_sentences = sentences(chunk.text)
        if chunk.section_key in ("chong_chi_dinh", "than_trong"):
            about_patient = [s for s in all_sentences if any(states_phrase(s, p) for p in _PATIENT_PHRASES)]
            if about_patient:
                return about_patient[:MAX_SENTENCES_PER_CHUNK]
        return all_sentences[:MAX_SENTENCES_PER_CHUNK]


_LINE_END = "\u0000"
"""Marks the end of a line of an interaction section while its sentences are read (an item never runs past it)."""
_ITEM_HEAD = re.compile(r"^[^:.;]{3,80}:\s")
"""A sentence opening with its own label ("Thuốc cản quang chứa iod tiêm nội mạch: …"): an interaction item's head."""


_QUALIFIES_BEFORE = re.compile(r"^(?:Tuy nhiên|Tuy vậy|Nhưng|Khi (?:phản ứng|đó|ấy)|Trong trường hợp (?:đó|này))\b",
                               re.IGNORECASE)


def _other_members(sentence: str, class_name: str) -> bool:
    """The sentence names the class as its other members ("các thuốc chống viêm không steroid khác")."""
    return re.search(rf"\b{re.escape(class_name)}\s+khac\b", fold(sentence)) is not None
