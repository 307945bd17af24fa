"""Choosing the dosing text for one patient, from the dosage tree of the retrieved section.

The retrieved chunks of a drug's dosage section are joined back into the section (in book order; a chunk that
continues the previous one's paragraph is joined with a space, so a band's continuation sentence is not cut off
from its band), parsed into the tree (core.dosage), and the patient's lines selected there (core.dosage.select).
Each selected line is quoted with its context path and cites the chunk(s) that hold it and its lead-ins.

The label helpers at the end (`label_of`, `paragraphs`, …) read the fixture's `*Uống – Trẻ em:*` labels; the
lexical verifier's omission check still uses them for blocks the tree does not cover.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from core.corpus import Chunk
from core.dosage.bands import dialysis_kind, hepatic_grade, impairment_grades, patient_gestation, renal_value
from core.dosage.device import device_said
from core.dosage.indication import parts_of
from core.dosage.model import DosageTree, HepaticGrade, Patient, RegimenLine
from core.dosage.parse import parse_dosage
from core.dosage.select import Selection, routes_for, select
from core.text import fold
from core.vocabulary import BOOK_ADULT, BOOK_CHILD, CHAT_PREGNANT, NEONATE, PATIENT_TERMS, book_routes
from grounding.answer import GenerationRequest

DOSING_SECTION = "lieu_luong_cach_dung"
_STRUCTURED_START = re.compile(r"^\s*(\*(?!\*)|[-•+]\s|\d+[.)]\s)")


@dataclass
class SectionTree:
    """One drug's dosage section as retrieved: the joined text, where each chunk sits in it, and its tree."""

    drug_id: str
    text: str
    spans: list[tuple[int, int, Chunk]] = field(default_factory=list)
    tree: DosageTree = field(default_factory=lambda: DosageTree(text=""))
    _line_doc_ids: list[tuple[RegimenLine, frozenset[str]]] | None = field(default=None, init=False, repr=False,
                                                                          compare=False)

    def chunks_at(self, start: int, end: int) -> list[Chunk]:
        return [c for s, e, c in self.spans if s < end and start < e]

    def line_doc_ids(self) -> list[tuple[RegimenLine, frozenset[str]]]:
        """Each line of the tree with the ids of the chunks it sits in (computed once per tree: the tree and its
        spans are read-only once built, and the binding checks ask for every claim)."""
        found = self._line_doc_ids
        if found is None:
            found = self._line_doc_ids = [
                (line, frozenset(c.doc_id for c in self.chunks_at(line.start, line.end))) for line in self.tree.lines]
        return found

    def citations(self, line: RegimenLine) -> list[str]:
        """The chunk holding the line, then those holding its context lead-ins (the path is quoted too)."""
        ids = [c.doc_id for c in self.chunks_at(line.start, line.end)]
        for label in line.path:
            at = self.text.rfind(label, 0, line.start)
            if at >= 0:
                ids += [c.doc_id for c in self.chunks_at(at, at + len(label)) if c.doc_id not in ids]
        return ids


def _joiner(previous: Chunk, chunk: Chunk) -> str:
    """A space when the chunk continues the previous one's paragraph (flattened text cut at a sentence), else a
    line break. Chunks that start with a label or list item, or follow a multi-line chunk, are structured."""
    if chunk.continues:
        return " "
    if "\n" in previous.text.strip() or _STRUCTURED_START.match(chunk.text):
        return "\n"
    return " "


def section_tree(chunks: Sequence[Chunk], drug_names: Sequence[str] = ()) -> SectionTree:
    """The tree of one drug's dosage chunks (quarantined blocks are left out: they are never quoted)."""
    quotable = [c for c in chunks if not c.has_quarantined_content and "<!-- QUARANTINED" not in c.text]
    drug_id = quotable[0].drug_id if quotable else ""
    parts: list[str] = []
    spans: list[tuple[int, int, Chunk]] = []
    pos = 0
    for i, chunk in enumerate(quotable):
        if i:
            sep = _joiner(quotable[i - 1], chunk)
            parts.append(sep)
            pos += len(sep)
        parts.append(chunk.text)
        spans.append((pos, pos + len(chunk.text), chunk))
        pos += len(chunk.text)
    text = "".join(parts)
    names = [*drug_names, *(c.drug_title for c in quotable[:1])]
    return SectionTree(drug_id, text, spans, parse_dosage(text, drug_names=names))


def trees_by_drug(evidence: Sequence[Chunk], drug_names: dict[str, list[str]] | None = None) -> list[SectionTree]:
    """One tree per drug whose dosage section is in the evidence, in evidence order.

    Remembered (`_trees_by_drug`): one dosing turn asks for the trees of the same evidence several times (the
    route and indication questions, the extractive answer, the binding and omission checks). The trees depend only
    on the dosage chunks (frozen) and the names; they are read-only (as `parse_dosage`'s cached trees already are)."""
    dosing = tuple(c for c in evidence if c.section_key == DOSING_SECTION)
    if not dosing:
        return []
    names = tuple((d, tuple(ns)) for d, ns in drug_names.items()) if drug_names else ()
    return list(_trees_by_drug(dosing, names))


@lru_cache(maxsize=512)
def _trees_by_drug(dosing: tuple[Chunk, ...], drug_names: tuple[tuple[str, tuple[str, ...]], ...]
                   ) -> tuple[SectionTree, ...]:
    order: list[str] = []
    for c in dosing:
        if c.drug_id not in order:
            order.append(c.drug_id)
    # Only one-word names are running-header noise ("Ibuprofen Trẻ 4 - 7 tuổi"); the title is added by section_tree.
    # A class term among the names ("thuốc chống viêm không steroid") would strip the book's own lead-ins
    # ("Chống viêm (viêm khớp dạng thấp …):") and put their lines under the indication before them.
    names = {d: [n for n in ns if " " not in n.strip()] for d, ns in drug_names}
    return tuple(section_tree([c for c in dosing if c.drug_id == d], names.get(d, [])) for d in order)


_BREASTFEEDING = re.compile(r"\b(cho con bu|dang cho bu)\b")
# Pregnancy words of the patient context: the one vocabulary the understanding reads them with.
_PREGNANT = CHAT_PREGNANT
_ELDERLY = re.compile(r"\b(nguoi cao tuoi|nguoi gia|cao tuoi|lon tuoi)\b")
ELDERLY_AGE_MONTHS = 65 * 12
"""From 65 an adult is one of the book's elderly whatever words they use (the book says 60 or 65; 60-64 is neither
read as elderly nor excluded from the elderly lines)."""


@lru_cache(maxsize=4096)
def patient_of(population: str | None, age_months: float | None, weight_kg: float | None, route: str | None,
               condition: str | None = None, context_text: str = "") -> Patient:
    """The patient the dose path knows, from the request's slots and its patient-context text (the synthesized
    query's "Bệnh nền: suy thận, eGFR 25" — renal and hepatic phrases as the user wrote them). Cached: a pure
    function of its arguments (the Patient is frozen), read several times per dosing turn."""
    folded = fold(context_text)
    dialysis = dialysis_kind(folded)
    renal = any(re.search(rf"\b{t}\b", folded) for t in PATIENT_TERMS["renal"]) or \
        re.search(r"\b(clcr|egfr)\b", folded) is not None or dialysis is not None
    # The grade the user gives cirrhosis or liver disease ("xơ gan mức độ vừa") is the impairment's grade.
    graded = re.sub(r"\b(?:xo gan|benh gan)\b(?= (?:o )?(?:muc do |muc |do )?(?:nhe|vua|nang|trung binh)\b)", "suy gan",
                    folded)
    # The Child-Pugh class is the grade: A mild, B moderate, C severe.
    graded = re.sub(r"\bchild\W?pugh\s*([abc])\b",
                    lambda m: {"a": "suy gan nhe", "b": "suy gan vua", "c": "suy gan nang"}[m.group(1)], graded)
    hepatic: HepaticGrade | None = hepatic_grade(graded) if re.search(r"\bsuy gan\b", graded) else None
    if hepatic is None and any(re.search(rf"\b{t}\b", folded) for t in PATIENT_TERMS["hepatic"]):
        hepatic = "any"
    weeks, gestation = patient_gestation(context_text) if population == "pediatric" else (None, None)
    return Patient(
        population=population if population in ("adult", "pediatric") else None,  # type: ignore[arg-type]
        age_months=age_months, weight_kg=weight_kg, route=route, indication=condition or None,
        gestation_weeks=weeks, gestation=gestation,
        renal_ml_min=renal_value(context_text), renal=renal, dialysis=dialysis, hepatic=hepatic,
        pregnant=population != "pediatric" and _PREGNANT.search(folded) is not None,
        elderly=population == "adult" and (_ELDERLY.search(folded) is not None or (
            age_months is not None and age_months >= ELDERLY_AGE_MONTHS)),
        device=device_said(context_text) if route == "inhaled" else None)


@lru_cache(maxsize=4096)
def patient_in_context(population: str | None, age_months: float | None, weight_kg: float | None,
                       route: str | None, condition: str | None, renal: str | None, hepatic: str | None,
                       context_text: str = "") -> Patient:
    """The patient of the frame's slots, with renal and hepatic impairment read ONLY from the frame's renal/hepatic
    phrases as the user wrote them — never from `context_text` (the synthesized query, where "chức năng thận bình
    thường" would read as renal impairment), which is read for the rest. Any renal phrase ("chạy thận", "lọc máu")
    is renal impairment, any hepatic phrase ("xơ gan") hepatic impairment of the grade it names, or unknown.
    Cached as `patient_of` (the answer, the calculator's guard and state, and the verification each ask)."""
    patient = patient_of(population, age_months, weight_kg, route, condition, context_text)
    stated = patient_of(population, age_months, weight_kg, route, condition,
                        ", ".join(c for c in (renal, hepatic) if c))
    named = impairment_grades(fold(renal), "renal") if renal else set()
    return replace(patient, renal=bool(renal), renal_ml_min=stated.renal_ml_min if renal else None,
                   renal_grade=next(iter(named)) if len(named) == 1 else None,  # type: ignore[arg-type]
                   dialysis=dialysis_kind(renal) if renal else None,
                   hepatic=(stated.hepatic or "any") if hepatic else None,
                   immunocompromised=immune_status(context_text))


# ("ko", "k", "hong": the chat spellings of "không" — #17 held-out H94: "bà ko bị suy giảm miễn dịch" was read as
# immunocompromised and shown the 10 mg/kg line.)
_IMMUNOCOMPETENT = re.compile(r"\b(mien dich (binh thuong|tot|khoe)|(?:khong|ko|k|kh|hong|hok) (bi )?suy giam mien dich|"
                              r"co kha nang mien dich)\b")
_IMMUNOCOMPROMISED = re.compile(r"\b(suy giam mien dich|uc che mien dich)\b")


def immune_status(text: str) -> bool | None:
    """The immune status the user stated: False for "miễn dịch bình thường", True for "suy giảm miễn dịch"/HIV,
    None when not stated (or both are named)."""
    folded = fold(text)
    competent = _IMMUNOCOMPETENT.search(folded) is not None
    compromised = _IMMUNOCOMPROMISED.search(_IMMUNOCOMPETENT.sub(" ", folded)) is not None
    if competent != compromised:
        return compromised
    return None


def patient_of_request(request: GenerationRequest) -> Patient:
    """The patient of a generation request (its slots and patient-context fields, filled from the frame)."""
    return _patient_of_request(request.population, request.age_months, request.weight_kg, request.route,
                               request.condition, request.renal, request.hepatic, request.query,
                               tuple(request.comorbidities), tuple(request.taking), bool(request.pregnant))


@lru_cache(maxsize=4096)
def _patient_of_request(population: str | None, age_months: float | None, weight_kg: float | None,
                        route: str | None, condition: str | None, renal: str | None, hepatic: str | None,
                        query: str, comorbidities: tuple[str, ...], taking: tuple[str, ...],
                        pregnant: bool) -> Patient:
    # Cached as `patient_in_context` (the answer, the calculator, the binding and omission checks each ask it of
    # one turn's request): a pure function of these fields, and the Patient is frozen.
    patient = patient_in_context(population, age_months, weight_kg, route, condition, renal, hepatic, query)
    return replace(patient, conditions=stated_conditions(condition, comorbidities, taking), pregnant=pregnant)


def stated_conditions(condition: str | None, comorbidities: Sequence[str] = (),
                      taking: Sequence[str] = ()) -> tuple[str, ...]:
    """Every condition the user stated about the patient: the one asked about and the others ("bệnh nền"), and the
    drugs they said the patient takes that have no monograph ("đang uống aliskiren"): a contraindication "Phối hợp
    với aliskiren ở người bệnh suy thận" is then this patient's. Each phrase of a condition counts as well as the
    whole: "rung nhĩ, chưa kiểm soát được" states both."""
    stated = [p for c in (condition, *comorbidities, *taking) if c for p in (c, *parts_of(c))]
    if any(_LOSING_FLUID.search(fold(c)) for c in stated):
        # "bé bị tiêu chảy, nôn nhiều": a child losing fluid is the book's "mất nước" ("Trẻ em bị mất nước (nôn, tiêu
        # chảy) có nguy cơ suy thận cấp khi dùng ibuprofen") — #18 held-out H148/H151 quoted the contraindications
        # without it.
        stated.append("mất nước")
    return tuple(dict.fromkeys(stated))


_LOSING_FLUID = re.compile(r"\b(?:tieu chay|di ngoai (?:phan long|ra nuoc|long)|non(?: oi)?(?: nhieu| lien tuc)|oi nhieu|"
                           r"non (?:va|,) tieu chay)\b")


def select_for(tree: SectionTree, patient: Patient) -> Selection:
    return select(tree.tree, patient)


def routes_offered(trees: Sequence[SectionTree], patient: Patient, asked_route: str | None = None) -> list[str]:
    found: list[str] = []
    for t in trees:
        found += [r for r in routes_for(t.tree, patient, asked_route) if r not in found]
    return found


# --- the fixture's labels (lexical verifier, route guard fallbacks) ----------------------------------------

LABEL = re.compile(r"^\s*\*([^*]{2,80}?):?\*\s*:?\s*")


def label_of(text: str) -> str:
    """The folded label a paragraph starts with (`*Uống – Trẻ em:*` → 'uong – tre em'); '' if none."""
    m = LABEL.match(text)
    return fold(m.group(1)) if m else ""


def routes_of(text: str) -> list[str]:
    return book_routes(text)


def population_of(text: str) -> set[str]:
    folded = fold(text)
    found: set[str] = set()
    if BOOK_ADULT.search(folded):
        found.add("adult")
    if BOOK_CHILD.search(folded) or NEONATE.search(folded):
        found.add("pediatric")
    return found


@dataclass
class DosingParagraph:
    """One labelled paragraph of a dosage chunk, as its lines (markup kept: they are quoted from the chunk)."""

    chunk: Chunk
    label: str
    lines: list[str] = field(default_factory=list)


def paragraphs(chunk: Chunk) -> list[DosingParagraph]:
    """Split a dosage chunk at its labels (a chunk may hold one labelled paragraph or several)."""
    found: list[DosingParagraph] = []
    current: DosingParagraph | None = None
    for raw in chunk.text.splitlines():
        line = raw.strip()
        if not line or line.startswith("<!--"):
            continue
        label = label_of(line)
        if label or current is None:
            current = DosingParagraph(chunk, label, [line])
            found.append(current)
        else:
            current.lines.append(line)
    return found
