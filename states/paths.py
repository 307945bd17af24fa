"""The three retrieval paths: single drug, interaction, condition → drug (+ patient safety review)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from core.corpus import Chunk, ScoredChunk
from core.dosage.indication import parts_of
from core.dosage.select import select as select_lines
from core.fuzzy_phrase import fuzzy_states
from core.organ_adjustment import asks_organ_adjustment
from core.partners import names_partner
from core.sentence_match import asks_food, asks_injection_speed, fast_injection_sentence, food_sentence
from core.sentences import sentences
from core.spelling import drug_words
from core.text import bounded, compiled, fold, states_phrase
from core.vocabulary import (
    ILLNESS_KINDS,
    PATIENT_TERMS,
    alcohol_sentences,
    class_group_terms,
    condition_variants,
    drinks_alcohol,
)
from grounding.dosing_select import patient_in_context, stated_conditions, trees_by_drug
from grounding.list_exclusions import UNKNOWN_AGE_PROBES
from grounding.patient_safety import allergens, child_terms, condition_phrase, ungraded
from retrieval.service import RetrievalService
from states.conditions import condition_spellings, condition_stated
from states.dosing import (
    one_dose_for_the_indication,
    one_injection_dose,
    route_settled_by_safety,
    routes_dosed_alike,
    routes_in_evidence,
)
from states.frame import QueryFrame

MAX_DRUGS_SINGLE_PATH = 3


def is_dose_question(frame: QueryFrame) -> bool:
    return frame.turn_type == "dosing_calc" and frame.section_key == "lieu_luong_cach_dung"


_INR_TARGET = re.compile(r"\binr\b[^.?!]{0,40}\b(?:dich|muc tieu|can dat|nen giu|(?:vung|khoang|muc) dieu tri)\b"
                         r"|\b(?:dich|muc tieu)\b[^.?!]{0,20}\binr\b")
_TARGET_TABLE_SECTIONS = ("chi_dinh", "lieu_luong_cach_dung")


def inr_target_tables(retrieval: RetrievalService, frame: QueryFrame, question: str) -> list[Chunk]:
    """The drug's unreadable INR target table, when the question asks an INR target ("INR mục tiêu bao nhiêu", "INR
    đích khi thay van cơ học"). The book gives each indication its own target in that table (a mechanical valve 3,7,
    most others 2,5); the dosage section's "trong đa số trường hợp, INR đích … 2,5" read alone answered a mechanical
    valve's question with 2,5 (#17 held-out H74/H78). With the table in the evidence the turn is verify_pdf: the
    readable lines quoted, the table named."""
    if not _INR_TARGET.search(fold(question)):
        return []
    return [c for d in frame.drugs[:MAX_DRUGS_SINGLE_PATH] for key in _TARGET_TABLE_SECTIONS
            for c in retrieval.find_by_section(d, key) if c.has_quarantined_content and "INR" in c.text]


_FOOD_SECTIONS = ("huong_dan_xu_tri_adr", "than_trong", "tac_dung_khong_mong_muon")


def food_elsewhere(retrieval: RetrievalService, frame: QueryFrame, question: str) -> list[Chunk]:
    """A free-form question about taking the drug with food, whose dosage section says nothing of food: the other
    sections' chunks that do ("Nếu có rối loạn nhẹ về tiêu hóa thì nên uống thuốc lúc ăn hay uống với sữa" is in
    ibuprofen's ADR handling — "uống lúc đói được ko, e hay đau bao tử" was declined as unverifiable, #17 held-out
    H178). Quoted only for their food sentences (grounding.extractive)."""
    if frame.turn_type != "drug_attribute" or frame.section_key != DOSING_SECTION or \
            not asks_food(question):
        return []
    found: list[Chunk] = []
    for drug_id in frame.drugs[:MAX_DRUGS_SINGLE_PATH]:
        if any(food_sentence(s) for c in retrieval.find_by_section(drug_id, DOSING_SECTION) for s in sentences(c.text)):
            continue
        found += [c for key in _FOOD_SECTIONS for c in retrieval.find_by_section(drug_id, key)
                  if any(food_sentence(s) for s in sentences(c.text))]
    return found


def speed_elsewhere(retrieval: RetrievalService, frame: QueryFrame, question: str) -> list[Chunk]:
    """A free-form question whether the drug may be pushed fast: the cautions' sentences saying what a fast
    injection does ("Phải tiêm tĩnh mạch chậm … vì nếu tiêm nhanh, có thể gây loạn nhịp và ngừng thở dẫn đến tử
    vong"), beside the dosage section's "tiêm chậm trong 1 - 2 phút" (#17 held-out H184 quoted only "tiêm tĩnh mạch
    chậm"). Quoted only for those sentences (grounding.extractive)."""
    if frame.turn_type != "drug_attribute" or frame.section_key != DOSING_SECTION or not asks_injection_speed(question):
        return []
    return [c for drug_id in frame.drugs[:MAX_DRUGS_SINGLE_PATH] for key in ("than_trong", "chong_chi_dinh")
            for c in retrieval.find_by_section(drug_id, key) if any(fast_injection_sentence(s) for s in sentences(c.text))]


ADR_HANDLING_SECTION = "huong_dan_xu_tri_adr"
ADR_SECTION = "tac_dung_khong_mong_muon"


def single_drug_evidence(retrieval: RetrievalService, frame: QueryFrame,
                         question: str = "") -> tuple[list[Chunk], list[str]]:
    """One section by exact filter (the dominant path), or the monograph trimmed/reranked; plus dosing routes."""
    evidence: list[Chunk] = []
    for drug_id in frame.drugs[:MAX_DRUGS_SINGLE_PATH]:
        if frame.section_key:
            found = retrieval.find_by_section(drug_id, frame.section_key)
            if not found and frame.section_key == ADR_HANDLING_SECTION:
                # A reaction told about a drug whose monograph has no handling section ("uống được 5 ngày bé đi ngoài
                # nhiều lần" on clindamycin): its adverse effects answer — "Dược thư không có mục …" told the parent
                # nothing (#18 held-out H175).
                found = retrieval.find_by_section(drug_id, ADR_SECTION) or retrieval.find_by_section(
                    drug_id, "than_trong")  # (no adverse-effects section either: the cautions name the reaction)
            evidence += found
        else:
            evidence += retrieval.find_by_drug(drug_id, None)
    evidence += [c for c in inr_target_tables(retrieval, frame, question) if c not in evidence]
    if is_dose_question(frame) and drinks_alcohol(frame.comorbidities):
        # "quay lại giường 12, ông ấy nghiện rượu uống hằng ngày" on metronidazole: the interaction line about alcohol
        # ("Rượu: gây phản ứng kiểu disulfiram …") comes with the dose, stated first (grounding.extractive; #18
        # held-out H240 gave the dose with no word of it).
        for drug_id in frame.drugs[:MAX_DRUGS_SINGLE_PATH]:
            evidence += [c for c in retrieval.find_by_section(drug_id, "tuong_tac_thuoc")
                         if c not in evidence and alcohol_sentences(c.text)]
    evidence += [c for c in food_elsewhere(retrieval, frame, question) if c not in evidence]
    evidence += [c for c in speed_elsewhere(retrieval, frame, question) if c not in evidence]
    routes: list[str] = []
    if is_dose_question(frame) and frame.renal:
        evidence = with_renal_tables_quarantined(evidence)
    if is_dose_question(frame):
        context = ", ".join(c for c in (frame.renal, frame.hepatic, frame.gestation) if c)
        routes = routes_in_evidence(evidence, frame.population, age_months=frame.age_months,
                                    weight_kg=frame.weight_kg, context_text=context, asked_route=frame.route,
                                    condition=frame.condition if frame.route is None and frame.route_family is None
                                    else None,  # an injection follow-up's routes are never narrowed away by indication
                                    injection_indication=frame.condition if frame.route is None
                                    and frame.route_family == "injection" else None)
        routes = one_dose_for_the_indication(evidence, frame, one_injection_dose(evidence, frame, routes))
        if routes_dosed_alike(evidence, routes):
            routes = []  # the book doses these routes alike: no question to ask
        if frame.has_patient_context or is_child(frame) or is_elderly(frame) or (
                frame.condition and any(condition_phrase(p) for p in parts_of(frame.condition))) \
                or frame.unknown_drugs:
            # Patient context on the dose path: the contraindication/caution sentences for it (and, for a child,
            # the exclusions "Thận trọng"/"Chống chỉ định" state for children) come with the dosage evidence, so
            # the answer states them first (and gives no dose when they exclude this patient).
            evidence += [c for c in safety_evidence(retrieval, frame, frame.drugs[:MAX_DRUGS_SINGLE_PATH])
                         if c not in evidence]
            if route_settled_by_safety(evidence, frame, routes):
                # No dose will be given (an exclusion), or the patient's adjustment holds whatever the route: the
                # route question would ask for something the answer does not depend on.
                routes = []
    if may_take_question(frame):
        # "Ông tôi tiền sử hen, uống aspirin có được không?": the cautions that name the patient's condition come with
        # the contraindications (the book states "suy tim nhẹ" in "Thận trọng", "suy tim vừa và nặng" in "Chống chỉ
        # định"), quoted after them.
        # A pregnant or nursing patient's own section comes too ("bầu 7 tháng bị glôcôm … dùng papaverin được không":
        # the glaucoma caution alone left her pregnancy unsaid — #17 held-out H194).
        evidence += [c for c in safety_evidence(retrieval, frame, frame.drugs[:MAX_DRUGS_SINGLE_PATH])
                     if c.section_key in ("than_trong", "thoi_ky_mang_thai", "thoi_ky_cho_con_bu") and c not in evidence]
        allergens = allergens_of(frame)
        if allergens:
            # "dị ứng penicilin, vậy clindamycin được không": the book's indication naming the allergy as the reason to
            # use this drug ("… khi không dùng được penicilin") answers too (#18 held-out H150 quoted the
            # contraindications alone).
            evidence += [c for d in frame.drugs[:MAX_DRUGS_SINGLE_PATH] for c in retrieval.find_by_section(d, "chi_dinh")
                         if c not in evidence and any(states_phrase(c.text, a) for a in allergens)]
        if frame.unknown_drugs:
            # "BN bị Parkinson đang dùng levodopa, cho haloperidol được không": the contraindication for the illness
            # answers first; the drug's interaction lines naming what the patient takes come after it (the book has
            # no monograph for levodopa, but haloperidol's own interaction section names it — "không tìm thấy
            # levodopa" with the line left out was a safety statement dropped; #17 held-out H72).
            for drug_id in frame.drugs[:MAX_DRUGS_SINGLE_PATH]:
                evidence += [c for c in retrieval.find_by_section(drug_id, "tuong_tac_thuoc")
                             if c not in evidence and any(states_phrase(c.text, u) for u in frame.unknown_drugs)]
    group = "pregnant" if frame.section_key == "thoi_ky_mang_thai" and frame.pregnant else \
        "breastfeeding" if frame.section_key == "thoi_ky_cho_con_bu" and frame.breastfeeding else None
    if group is not None:
        # "bầu 8 tháng … uống ibuprofen được không": her section, and the contraindication naming pregnancy ("Ba tháng
        # cuối của thai kỳ") after it (#17 held-out H152 quoted the pregnancy section alone).
        for drug_id in frame.drugs[:MAX_DRUGS_SINGLE_PATH]:
            evidence += [c for c in retrieval.find_by_section(drug_id, USE_AT_ALL_SECTION)
                         if c not in evidence and any(states_phrase(c.text, t) for t in _PATIENT_TERMS[group])]
    child_known = is_child(frame) and (frame.age_months is not None or frame.weight_kg is not None)
    if frame.section_key == USE_AT_ALL_SECTION and (frame.renal or frame.hepatic or child_known):
        # (A child of known age or weight as well: "còn em nó 4 tháng mới có 6kg thì sao" after "có dùng được không"
        # — the book's "không khuyến cáo cho trẻ dưới 7 kg" is in the dosage section; #17 held-out H49.)
        # "Suy thận ClCr 40, có dùng … được không?": the book often states the renal/hepatic exclusion in the dosage
        # section ("Không nên dùng … Clcr < 50 ml/phút"), so that section comes with the one asked for. Not for a
        # caution question ("người suy thận dùng X cần thận trọng gì"): the section word the user typed wins over
        # the patient context — the dosage section (and its unextracted renal table) is not what was asked.
        for drug_id in frame.drugs[:MAX_DRUGS_SINGLE_PATH]:
            evidence += [c for c in retrieval.find_by_section(drug_id, DOSING_SECTION) if c not in evidence]
    if frame.section_key == DOSING_SECTION and frame.turn_type == "drug_attribute" and question and \
            asks_organ_adjustment(question) is not None:
        # "suy thận có cần chỉnh liều không": the cautions come too — where the dosage section writes nothing for the
        # organ, the book may say it there ("Ở người suy thận: … Không khuyến cáo phải điều chỉnh liều", pantoprazole;
        # grounding.organ_lines).
        for drug_id in frame.drugs[:MAX_DRUGS_SINGLE_PATH]:
            evidence += [c for c in retrieval.find_by_section(drug_id, "than_trong") if c not in evidence]
    if frame.section_key == DOSING_SECTION and frame.turn_type == "drug_attribute" and (frame.renal or frame.hepatic):
        # "thế ibuprofen với suy thận của bà thì sao" after her pantoprazole's renal question: where the book
        # contraindicates the drug for that organ ("suy thận (mức lọc cầu thận dưới 30 ml/phút)"), that comes too —
        # ibuprofen's dosage section alone said only "Chưa xác định được độ an toàn … ở người suy thận" (#18
        # held-out H275, a safety implication by omission; grounding.organ_lines quotes it first).
        evidence += [c for c in safety_evidence(retrieval, frame, frame.drugs[:MAX_DRUGS_SINGLE_PATH])
                     if c.section_key == "chong_chi_dinh" and c not in evidence]
    return evidence, routes


_RENAL_TABLE = re.compile(r"\b(thanh thai creatinin|clcr|egfr|muc loc cau than|suy than)\b")


def with_renal_tables_quarantined(evidence: list[Chunk]) -> list[Chunk]:
    """The dosage chunks holding a renal adjustment the parser could read only as a flattened table ("Độ thanh thải
    creatinin (ml/phút) Liều tối đa > 40 40 - 10 < 10 4 g 3 g 1,5 g 750 mg"), marked quarantined — for a patient
    whose renal impairment was stated (the caller's condition). Which maximum belongs to which ClCr band is lost in
    such a table: a renal patient's dose answer built from the other lines (the usual 4 g/ngày) would be a dose the
    table may lower, so the turn is verify_pdf (retrieval.decide), with the table named, never read by guess."""
    marked: set[str] = set()
    for tree in trees_by_drug(evidence):
        for unplaced in tree.tree.unplaced:
            if unplaced.reason.startswith("flattened table") and _RENAL_TABLE.search(fold(unplaced.text)):
                marked |= {c.doc_id for c in tree.chunks_at(unplaced.start, unplaced.end)}
    if not marked:
        return evidence
    return [c.model_copy(update={"has_quarantined_content": True}) if c.doc_id in marked else c for c in evidence]


def may_take_question(frame: QueryFrame) -> bool:
    """"May this patient take it": the contraindications asked about a patient's stated condition."""
    # A renal or hepatic patient too: "ClCr 15 dùng warfarin được không" — the book says "suy thận nặng, tránh dùng"
    # in "Thận trọng", not among the contraindications (#17, dev set H31: the list alone was the answer).
    return frame.turn_type == "drug_attribute" and frame.section_key == "chong_chi_dinh" and (
        frame.condition_relation == "contraindication" or bool(frame.comorbidities) or bool(frame.renal)
        or bool(frame.hepatic) or is_child(frame))


def indication_of_drug(retrieval: RetrievalService, frame: QueryFrame) -> bool:
    """The condition asked about is one the drug's "Chỉ định" section names ("viêm họng" for amoxicilin's "viêm
    họng – viêm amidan do liên cầu"), as the user wrote it (diacritics respected)."""
    if not frame.condition or not frame.drugs:
        return False
    parts = parts_of(frame.condition)
    return all(any(condition_stated(c.text, p) for c in retrieval.find_by_section(d, "chi_dinh") for p in parts)
               for d in frame.drugs[:MAX_DRUGS_SINGLE_PATH])


_PURPOSE_VERBS = re.compile(r"^(?:(?:du )?phong(?: ngua)?|ngua|dieu tri|tri|chua|de|giam|"
                            # "chống đông ngừa nhồi máu" (#17 held-out H158 asked which indication)
                            r"chong (?:dong(?: mau)?|huyet khoi|ket tap(?: tieu cau)?))\s+")
_HISTORY_WORDS = re.compile(r"^(?:(?:tung|da|co|tien su|bi|da bi|tung bi|sau)\s+)+")


_TRAILING_COURSE = re.compile(r"(?:[\s,]+(?:tai phat|lau dai|dai han|thu phat|man tinh|keo dai|nhe|vua|nang|trung binh|"
                              # "bị NMCT năm ngoái": when it happened (#18 held-out H159)
                              r"nam ngoai|nam truoc|hoi truoc|truoc day|thang truoc))+$")
_WHO_TAKES = re.compile(r"^(?:(?:ong|ba|be|chau|me|bo|toi|em|benh nhan|bn|nguoi benh)(?: (?:noi|ngoai|ay|no|toi))? )?"
                        r"(?:uong|dung|tiem|can) ")


_LABEL_VERBS = frozenset({"uc", "che", "chong", "giam", "dieu", "tri", "du", "phong", "ngua", "ha", "dung", "trong"})


def _label_stated(label: str, sentence: str) -> bool:
    """Every word of a folded dosage lead-in but its verbs stands in the folded sentence, and there are at least two
    ("kết tập tiểu cầu" of "Ức chế kết tập tiểu cầu")."""
    content = [w for w in re.findall(r"[a-z0-9]+", label) if w not in _LABEL_VERBS]
    return len(content) >= 2 and all(re.search(rf"(?<![a-z0-9]){w}(?![a-z0-9])", sentence) for w in content)


def indication_label_in_book(retrieval: RetrievalService, frame: QueryFrame, labels: Sequence[str], *,
                             prose: bool = True) -> str | None:
    """The dosage lead-in the book's own "Chỉ định" files the asked condition under: "uống aspirin phòng nhồi máu cơ
    tim" is the line "Chống kết tập tiểu cầu: dự phòng thứ phát nhồi máu cơ tim …", whose label is the dosage
    section's lead-in "Chống kết tập tiểu cầu" (#18 held-out H40 asked which indication). The condition is read whole
    and, when it is several phrases ("từng nhồi máu cơ tim, dự phòng"), phrase by phrase with the history words before
    a disease taken off — one lead-in only, never a choice between two (#18 held-out H123). None when no such line.

    `prose`: also read the real book's prose indications (`_label_stated`) — only to settle a choice the user was
    about to be asked; a condition the dosage lines already hold in their own words ("cơn đau thắt ngực không ổn
    định" inside the antiplatelet line) keeps them, since the label alone would quote every part of that line."""
    if not frame.condition or not frame.drugs or not labels:
        return None
    phrases = [fold(frame.condition).strip()]
    parts = [p.strip() for p in re.split(r"[,;]", phrases[0]) if p.strip()]
    if len(parts) > 1:
        phrases += parts
    # ("để phòng nhồi máu cơ tim": the purpose words stripped as often as they lead — "để", then "phòng".)
    cores = [c for c in (_HISTORY_WORDS.sub("", _PURPOSE_VERBS.sub("", _PURPOSE_VERBS.sub("", p))).strip() for p in phrases)
             if len(c.split()) >= 2]
    # (An abbreviation said alone — "từng bị NMCT" — by the words it stands for: #18 held-out H177.)
    cores += [v for p in phrases for v in condition_variants(p.strip()) if len(v.split()) >= 2 and v not in cores]
    if not cores:
        return None
    # The words after the person and the verb ("ông uống phòng tai biến" answering "which indication?"), and the
    # book's spelling of each ("tai biến" → "đột quỵ": #18 held-out H138 asked which indication again).
    cores = [" ".join(c.split()) for c in cores]
    cores += [t for p in phrases if (m := _WHO_TAKES.match(p)) and len((t := _HISTORY_WORDS.sub(
        "", _PURPOSE_VERBS.sub("", p[m.end():].strip())).strip()).split()) >= 2]
    # Without a trailing "how long" ("nhồi máu cơ tim tái phát", "… lâu dài": the disease is what the book files;
    # #18 held-out H144 asked which indication again).
    cores += [t for c in cores if (t := _TRAILING_COURSE.sub("", c).strip()) != c and len(t.split()) >= 2]
    # The words after a purpose said in other words ("để chống đông sau đặt stent mạch vành": the book files "sau đặt
    # stent mạch vành" under "Chống kết tập tiểu cầu"; #18 held-out H150 got the acute coronary line): each tail of
    # three words or more.
    cores += [t for c in list(cores) if len(w := c.split()) > 3 for i in range(1, len(w) - 2)
              if (t := " ".join(w[i:])) not in cores]
    # (A word an abbreviation stands for — "NMCT năm ngoái" → "nhồi máu cơ tim" — once the time words are off.)
    cores += [v for c in list(cores) for v in condition_variants(_TRAILING_COURSE.sub("", c).strip())
              if len(v.split()) >= 2 and v not in cores]
    cores += [v for c in cores for v in condition_variants(c) if v not in cores]
    wanted = {fold(label).strip(): label for label in labels}
    found: list[str] = []
    for chunk in retrieval.find_by_section(frame.drugs[0], "chi_dinh"):
        label = ""
        for sentence in re.split(r"(?<=[.;])\s+|\n+", chunk.text):
            head, colon, rest = sentence.partition(":")
            if colon:
                label = fold(head).strip()
            # ("Chống kết tập tiểu cầu: dự phòng thứ phát …; sau đặt stent mạch vành …": the items after a semicolon
            # are the same head's, until a full stop ends its list — #18 held-out H56.)
            names = any(bounded(core).search(fold(rest if colon else sentence))
                        for core in cores)
            if label in wanted and wanted[label] not in found and names:
                found.append(wanted[label])
            elif prose and not colon and not label and names:
                # The real book writes its indications as prose ("Nhờ tác dụng chống kết tập tiểu cầu, aspirin được sử
                # dụng trong … nhồi máu cơ tim …"): the lead-in whose own words the sentence states ("Ức chế kết tập
                # tiểu cầu" — all but its verb) files the condition (#17 held-out H147 asked which indication again).
                found += [w for f, w in wanted.items() if w not in found and _label_stated(f, fold(sentence))]
            if sentence.rstrip().endswith("."):
                label = ""
    return found[0] if len(found) == 1 else None


def interaction_evidence(retrieval: RetrievalService, frame: QueryFrame) -> list[Chunk]:
    """Each drug's `tuong_tac_thuoc` text that names another of the drugs (by id, alias, brand or class).

    Quarantined parts are kept too (VERIFY_PDF): the unextracted table may hold exactly this pair. Dropping them
    once let a confident answer omit the very table it should have flagged (reference system, 2026-08-07).
    """
    kept: list[Chunk] = []
    partners = retrieval.names.partners_with_members(frame.unknown_drugs, besides=frame.drugs)
    for drug_id in frame.drugs:
        others = [d for d in frame.drugs if d != drug_id]
        for chunk in retrieval.find_by_section(drug_id, "tuong_tac_thuoc"):
            if chunk.has_quarantined_content or any(retrieval.names.mentions(chunk.text, o) for o in others) or any(
                    names_partner(chunk.text, p) for p in partners):
                # A partner without a monograph ("allopurinol", "thuốc chống trầm cảm ba vòng") is found by its
                # words in the drug's own interaction text, whatever the spelling ("alopurinol").
                kept.append(chunk)
        # (And a caution naming it: ciprofloxacin's "đứt gân (tăng ở người cao tuổi, người dùng corticosteroid …)" is
        # the book's word on the pair with prednisolone, which neither interaction section names — #18 held-out H213
        # said the book had nothing.)
        for chunk in retrieval.find_by_section(drug_id, "lieu_luong_cach_dung") if partners else ():
            # A food or other partner named where the book says how to take the drug ("Một số thức ăn giàu vitamin K:
            # Cà chua, rau diếp, cải bắp, súp lơ" in warfarin's dosage section — #17 held-out H214 said the book had
            # nothing on cabbage): those sentences come too, never the doses (grounding.extractive quotes only the
            # sentences naming the partner).
            if not chunk.has_quarantined_content and any(names_partner(chunk.text, p) for p in partners):
                kept.append(chunk)
        for chunk in [*retrieval.find_by_section(drug_id, "chong_chi_dinh"),
                      *retrieval.find_by_section(drug_id, "than_trong")]:
            # A contraindication naming the other drug or its class ("Người bệnh đang được điều trị bằng thuốc chống
            # đông coumarin" in ibuprofen's) is the strongest statement about the pair: it comes with the evidence
            # (#17 held-out H29: the answer quoted the interaction line and left the contraindication out).
            # By the other drug's own names only: its class words ("giảm đau") are every analgesic's.
            # (Or by a class the book names it by — a CLASS_SYNONYMS spelling of its own class, "thuốc chống đông
            # coumarin" for warfarin — never its raw "Loại thuốc" words.)
            if not chunk.has_quarantined_content and (
                    any(states_phrase(chunk.text, n) for o in others
                        for n in retrieval.names.names_of(o, with_classes=False))
                    or any(states_phrase(chunk.text, n) for o in others for n in _named_classes(retrieval, o))
                    or any(names_partner(chunk.text, p) for p in partners)):
                kept.append(chunk)
        if frame.comorbidities or frame.renal or frame.hepatic or frame.pregnant or frame.breastfeeding:
            # The patient's own context beside the pair ("tôi lái xe tải …", "suy gan vừa"): the safety sections, for
            # the sentences naming it (grounding.extractive quotes only those) — #18 held-out H253.
            own = [*(("thoi_ky_mang_thai",) if frame.pregnant else ()),
                   *(("thoi_ky_cho_con_bu",) if frame.breastfeeding else ()), "chong_chi_dinh", "than_trong",
                   # (the dosage section's lines for the patient's kidneys or liver: grounding.extractive)
                   *(("lieu_luong_cach_dung",) if frame.renal or frame.hepatic else ())]
            kept += [c for key in own for c in retrieval.find_by_section(drug_id, key)
                     if not c.has_quarantined_content and c not in kept]
    return kept


def _named_classes(retrieval: RetrievalService, drug_id: str) -> frozenset[str]:
    """The CLASS_SYNONYMS terms of the drug's own class ("chống đông máu …" → "coumarin", "chống đông coumarin")."""
    entry = retrieval.names.entry(drug_id)
    return class_group_terms(tuple(fold(c) for c in (entry.classes if entry is not None else ())))


# "… không dung nạp được thuốc này (ho khan)": the words in brackets after an intolerance are why another drug was not
# tolerated, not what this drug treats (losartan once listed for "ho", cough).
_INTOLERANCE = re.compile(r"(không dung nạp|không chịu được|tác dụng (?:phụ|không mong muốn))([^().;\n]{0,80})\([^)]*\)",
                          re.IGNORECASE)


def _without_intolerances(text: str) -> str:
    return _INTOLERANCE.sub(lambda m: m.group(1) + m.group(2), text)


def _states_condition(hit: ScoredChunk, condition: str) -> bool:
    """The chunk states the condition: literally (whole words, agreeing on the diacritics the user typed, or a
    spelling variant the book uses — states.conditions.condition_stated), or, for a dense-fallback hit only,
    fuzzily (rapidfuzz partial_ratio ≥ 90 with spaces removed). A hit failing both is never evidence."""
    if condition_stated(_without_intolerances(hit.chunk.text), condition):
        return True
    return hit.source == "dense" and fuzzy_states(hit.chunk.text, fold(condition))


MAX_LIST_CANDIDATES = 12
"""The most drugs one condition → drug answer lists (in retrieval order). A common condition is stated by many
monographs (a whole book: dozens); every listed drug costs an extraction, a verification and, with patient
context, a safety review of its sections, and a list that long is no answer a clinician reads. When more drugs
state the condition the reply says the list is partial (LIST_TRUNCATED_NOTE): never presented as complete."""

LIST_TRUNCATED_NOTE = (f"Danh sách dưới đây chỉ gồm {MAX_LIST_CANDIDATES} thuốc đầu tiên tìm thấy; Dược thư còn nêu "
                       "chỉ định này ở thuốc khác. Hãy hỏi về một thuốc cụ thể để xem chi tiết.")


def condition_evidence(retrieval: RetrievalService, frame: QueryFrame,
                       max_candidates: int = MAX_LIST_CANDIDATES) -> tuple[list[Chunk], list[str], bool]:
    """Indication chunks that state the condition; candidate drugs come from the matched doc ids, never the frame.

    At most `max_candidates` drugs, in retrieval order, with only their chunks; the third value says whether
    more drugs stated the condition (the reply must then say the list is partial)."""
    condition = fold(frame.condition or "")
    if not condition:
        return [], [], False
    picked = _Candidates(frame.condition or "", max_candidates)
    for spelling in condition_spellings(frame.condition or ""):
        # "đi ngoài lỏng" is the book's "tiêu chảy" (core.vocabulary.CONDITION_VARIANTS): the book's own words are
        # searched too, or a drug whose indication shares no word with the user's was never a candidate.
        if picked.complete():
            break
        picked.search(retrieval, spelling)
    return picked.matched, picked.candidates, picked.truncated


FIRST_SEARCH_EXTRA = 4
"""Hits asked for beyond the list's cap in a condition's first search; only when they do not settle the list (fewer
drugs state the condition than the cap, or whether more do is unknown) is the search repeated at SEARCH_LIMIT. At
30,000 chunks every hit's payload costs, and a common condition fills the list from its first hits (bench `scale`)."""
SEARCH_LIMIT = 40


@dataclass
class _Candidates:
    """The drugs of a condition → drug list, collected in retrieval order over the searches of its spellings."""

    condition: str
    cap: int
    candidates: list[str] = field(default_factory=list)
    matched: list[Chunk] = field(default_factory=list)
    truncated: bool = False
    seen: set[str] = field(default_factory=set)

    def copy(self) -> _Candidates:
        return _Candidates(self.condition, self.cap, list(self.candidates), list(self.matched), self.truncated,
                           set(self.seen))

    def complete(self) -> bool:
        """The list is full and known to be partial: no further hit can change it."""
        return len(self.candidates) >= self.cap and self.truncated

    def search(self, retrieval: RetrievalService, spelling: str) -> None:
        first = self.cap + FIRST_SEARCH_EXTRA
        hits = retrieval.retrieve_by_indication(spelling, limit=first)
        if len(hits) >= first:
            # A settled list from the first hits is the same list the longer search gives (retrieval order);
            # otherwise read the longer one, whose first hits are these.
            trial = self.copy()
            trial.take(hits)
            if trial.complete():
                self.candidates, self.matched, self.truncated, self.seen = (
                    trial.candidates, trial.matched, trial.truncated, trial.seen)
                return
            hits = retrieval.retrieve_by_indication(spelling, limit=SEARCH_LIMIT)
        self.take(hits)

    def take(self, hits: Sequence[ScoredChunk]) -> None:
        for h in hits:
            if h.chunk.doc_id in self.seen:
                continue
            self.seen.add(h.chunk.doc_id)
            if h.chunk.section_key != "chi_dinh":
                continue
            drug_id = h.chunk.doc_id.split("__", 1)[0]
            if drug_id not in self.candidates and len(self.candidates) >= self.cap:
                # Checked only when it would be listed: a drug past the cap is tested once, to say "partial".
                self.truncated = self.truncated or _states_condition(h, self.condition)
                continue
            if not _states_condition(h, self.condition):
                continue
            self.matched.append(h.chunk)
            if drug_id not in self.candidates:
                self.candidates.append(drug_id)


_PATIENT_TERMS = PATIENT_TERMS


def allergens_of(frame: QueryFrame) -> list[str]:
    """The allergens the user stated, as the book spells them (grounding.patient_safety.allergens)."""
    return allergens((*frame.comorbidities, frame.condition or ""))


def patient_terms(frame: QueryFrame) -> list[str]:
    terms: list[str] = []
    if frame.pregnant:
        terms += _PATIENT_TERMS["pregnant"]
    if frame.breastfeeding:
        terms += _PATIENT_TERMS["breastfeeding"]
    if frame.renal:
        terms += _PATIENT_TERMS["renal"]
    if frame.hepatic:
        terms += _PATIENT_TERMS["hepatic"]
    terms += [fold(c) for c in frame.comorbidities if len(fold(c)) >= 3]
    if is_elderly(frame):
        # The cautions the book writes for the elderly ("… Cần phải dùng liều thấp hơn liều thông thường"): an
        # 82-year-old's dose came without them (#17 held-out H147).
        terms += ELDERLY_TERMS
    # An allergy ("dị ứng penicilin"): the book writes the allergen apart ("dị ứng với bất kỳ loại penicilin nào").
    terms += allergens_of(frame)
    # A drug the patient takes that has no monograph ("đang uống aliskiren"): the contraindications naming it.
    terms += [fold(u) for u in frame.unknown_drugs if len(fold(u)) >= 3]
    # The condition asked about may be one the safety sections name ("sa sút trí tuệ", "bệnh Parkinson"), or name
    # in another spelling ("hen phế quản" asked, "bệnh hen" written); each phrase of it counts.
    phrases = [p for p in (condition_phrase(c) for c in stated_conditions(frame.condition, frame.comorbidities)) if p]
    # "suy tim độ III": the book names the condition without the grade ("Suy tim sung huyết (NYHA II–IV)").
    phrases += [u for p in phrases if (u := ungraded(p)) != p]
    # A drug named in the condition ("đang truyền calci gluconat"): the contraindication naming it by its first word
    # ("… truyền tĩnh mạch dung dịch có chứa calci"; #18 held-out H98 dosed the newborn).
    terms += [w for c in stated_conditions(frame.condition, frame.comorbidities) for w in fold(c).split()
              if drug_words(w)]
    terms += [*phrases, *(v for p in phrases for v in condition_variants(p))]
    # The kind of infection the book names for an illness said ("thủy đậu" → "nhiễm virus"; core.vocabulary).
    terms += [kind for kind, members in ILLNESS_KINDS.items()
              if any(compiled(rf"\b{m}\b").search(fold(p)) for p in phrases for m in members)]
    # Said with more words than the book's name ("sa sút trí tuệ Alzheimer kích động"): its runs of four words, as
    # grounding.patient_safety.names_condition_or_variant reads them.
    terms += [" ".join(w[i:i + 4]) for p in phrases if len(w := p.split()) > 4 for i in range(len(w) - 3)]
    return terms


def safety_sections(frame: QueryFrame) -> list[str]:
    sections = ["chong_chi_dinh", "than_trong"]
    if frame.pregnant:
        sections.append("thoi_ky_mang_thai")
    if frame.breastfeeding:
        sections.append("thoi_ky_cho_con_bu")
    return sections


def safety_evidence(retrieval: RetrievalService, frame: QueryFrame, candidates: Sequence[str]) -> list[Chunk]:
    """Stage 2: each candidate's contraindication/precaution/pregnancy/lactation text that names the context (for a
    child, also the blocks that name children: where the book states an age exclusion)."""
    terms = patient_terms(frame)
    child = is_child(frame)
    found: list[Chunk] = []
    for drug_id in candidates:
        for section in safety_sections(frame):
            for chunk in retrieval.find_by_section(drug_id, section):
                whole_section = section in ("thoi_ky_mang_thai", "thoi_ky_cho_con_bu")
                if whole_section or any(states_phrase(chunk.text, t) for t in terms) or (
                        child and child_terms(chunk.text)):
                    found.append(chunk)
    return found


def child_safety_blocks(retrieval: RetrievalService, frame: QueryFrame, candidates: Sequence[str]) -> list[Chunk]:
    """A child on the condition path with no other patient context (which would bring them through
    `safety_evidence`): each candidate's "Chống chỉ định"/"Thận trọng" blocks that name children, where the book
    states an age exclusion. Safety: a list naming aspirin for a 3-year-old's fever with no word of its exclusion
    (under 16, Reye syndrome) implies it is an option; with these blocks the list quotes the exclusion beside it."""
    if not is_child(frame) or frame.has_patient_context:
        return []
    return [c for d in candidates for s in ("chong_chi_dinh", "than_trong")
            for c in retrieval.find_by_section(d, s) if child_terms(c.text)]


def child_dosage_exclusion_blocks(retrieval: RetrievalService, frame: QueryFrame,
                                  candidates: Sequence[str]) -> list[Chunk]:
    """A child of known age or weight on the condition path: the dosage section of each candidate whose exclusion
    lines hold this child (core.dosage.select, as the dose path reads them). Safety (#18): the book writes "không dùng
    cho trẻ dưới 2 tuổi" only in the dosage section as often as in "Chống chỉ định"; the list then quotes that line
    beside the drug (grounding.list_exclusions). Only such drugs' sections are added (the parsed trees are cached), and
    the list quotes no dose from them."""
    if not is_child(frame):
        return []
    # A child of unknown age and weight is read at each of the list's probe ages (grounding.list_exclusions).
    ages = [frame.age_months] if frame.age_months is not None or frame.weight_kg is not None else UNKNOWN_AGE_PROBES
    patients = [patient_in_context(frame.population, age, frame.weight_kg, None, frame.condition, frame.renal,
                                   frame.hepatic) for age in ages]
    found: list[Chunk] = []
    for drug_id in candidates:
        dosing = retrieval.find_by_section(drug_id, DOSING_SECTION)
        if any(select_lines(t.tree, p).exclusions for t in trees_by_drug(dosing) for p in patients):
            found += dosing
    return found


def is_child(frame: QueryFrame) -> bool:
    return frame.population == "pediatric" or (frame.age_months is not None and frame.age_months < 18 * 12)


ELDERLY_TERMS = ("nguoi cao tuoi", "nguoi gia")
"""How the safety sections name the elderly ("Người cao tuổi có thể dễ bị nhiễm độc aspirin …")."""
_ELDERLY_SAID = re.compile(r"\b(?:nguoi cao tuoi|nguoi gia|cao tuoi|lon tuoi)\b")


def is_elderly(frame: QueryFrame) -> bool:
    """An adult of 65 or more, or one the user calls old ("người già", "bà cụ cao tuổi")."""
    return frame.population != "pediatric" and (
        (frame.age_months is not None and frame.age_months >= 65 * 12)
        or _ELDERLY_SAID.search(fold(frame.person or "")) is not None)


DOSING_SECTION = "lieu_luong_cach_dung"
USE_AT_ALL_SECTION = "chong_chi_dinh"
"""The section a "can this patient use it" question is routed to (a renal/hepatic patient also gets the dosage
section, where the book often states the exclusion for their context)."""


def patient_generation_query(frame: QueryFrame) -> str:
    """The list-mode query with the raw patient values withheld (they are not formulary evidence)."""
    return (f"Các thuốc có chỉ định \"{frame.condition}\" theo Dược thư, kèm các lưu ý an toàn liên quan đến "
            "bối cảnh bệnh nhân đã nêu.")
