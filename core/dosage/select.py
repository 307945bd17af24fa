"""Which lines of a dosage tree are this patient's: the one definition the answer, the route question and the
verification binding share.

A line applies when every part of its context admits the patient: its routes (when the patient's is known), its
population, and each dimension of its band (age, weight, ClCr/eGFR, hepatic grade, gestation). A band dimension
whose patient value is unknown does not admit the patient — a dose is never shown on the guess that a child
might be in its band. Lines under a renal or hepatic lead-in are for patients with that impairment only.

Bands are half-open ("2 - 4 tuổi" then "4 - 6 tuổi": a 4-year-old is in the second); a patient exactly at the
top of the last band of a group is admitted by the closed reading only when no band of that group admits them
otherwise (`closed=True`).

An exclusion that admits the patient ("không khuyến cáo cho trẻ dưới 7 kg") means no dose at all: the selection
then carries the exclusion and no regimen line.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from core.dosage.bands import dialysis_kind, read_band
from core.dosage.device import of_device
from core.dosage.immune import ImmuneGroup, immune_group
from core.dosage.immune import immune_admits as _immune_admits
from core.dosage.indication import (
    FULL,
    is_formulation_label,
    is_partial,
    is_severity_label,
    match_score,
    severities,
    severity_admits,
    user_names,
)
from core.dosage.lines import dose_quantities
from core.dosage.model import Band, Bound, DosageTree, Patient, RegimenLine
from core.dosage.pregnancy import for_pregnancy
from core.dosage.purpose_sentences import band_clauses, case_clause, purpose_sentences
from core.text import bounded, fold
from core.vocabulary import risk_groups

ADULT_AGE_MONTHS = 18 * 12
"""An adult whose age is not stated is read as 18 years for age bands: "dưới 16 tuổi" never admits them."""
_GENERIC = frozenset(("viem", "nhiem", "khuan", "benh", "dieu", "tri", "do", "o", "va", "cac", "hoac", "cap",
                      "man", "nhe", "vua", "nang", "trong", "cho", "tre", "em", "nguoi", "lon", "de", "bi", "thuoc",
                      "lieu", "dung", "the", "tinh", "co", "khong", "kem", "theo", "sau", "khi", "phong", "du"))
_HEPATIC_COVERS = {"mild": {"mild"}, "moderate": {"mild", "moderate"}, "severe": {"severe"},
                   "any": {"mild", "moderate", "severe", "any"}}


@dataclass
class Selection:
    lines: list[RegimenLine] = field(default_factory=list)
    """The patient's own lines, in book order (regimen lines, their ceilings and notes)."""
    exclusions: list[RegimenLine] = field(default_factory=list)
    """Exclusions that admit the patient: when not empty, `lines` is empty (no dose)."""
    no_band: bool = False
    """The section has bands for this population/route and none admits the patient: `lines` are the general
    (unbanded) lines only, to be shown under a notice."""
    needs_renal_value: bool = False
    """Renal impairment without a ClCr/eGFR value, and the text adjusts by value: ask for it."""
    below_floor: RegimenLine | None = None
    """The patient is younger than every age band the section gives for them (abacavir "Trẻ trên 3 tháng tuổi …" for
    a 2-month-old): the line of the lowest band, whose band words (`band_words`, never its dose) are quoted as the
    floor. `lines` then hold no dose line, only the general notes."""
    other_bands: list[RegimenLine] = field(default_factory=list)
    """The book doses the indication the question names only for patients of other bands (Lyme carditis "Trẻ em dưới
    8 tuổi" for a child of 10): those lines, whose band words (`band_words`, never their dose) are quoted. `lines`
    then hold no dose line, only the general notes — the book gives this patient no dose for that indication, and
    another indication's dose is not theirs."""
    indication_unmatched: bool = False
    """The question names an indication none of the text's indication lead-ins match: every indication's lines
    are kept, each quoted with its path, under a notice (never one picked by guess)."""

    @property
    def maxima(self) -> list[str]:
        return [m.text for line in self.lines for m in line.maxima]


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", fold(text)) if w not in _GENERIC and len(w) >= 3}


_INLINE_LEADIN = re.compile(r"^(?!\()((?:[^:;.\d()]|\([^():;]{0,80}\)){3,160}?):\s")
"""A lead-in at the start of a line: no digit outside brackets (a digit is a dose or a band), a bracketed aside may
hold one ("Loại bỏ tái phát ở người … (ít nhất có 6 lần tái phát/năm): Uống 800 mg/ngày")."""
_OPENING = re.compile(r"^[^\d]{0,200}")
MAX_OPENING_WORDS = 40
"""Long enough for a sentence that lists the cases it is for before its dose ("Trong trường hợp cấp tính, cần sử dụng
ngay … như nhồi máu cơ tim, nhồi máu não, cơn đau thắt ngực không ổn định, dùng liều nạp 150 - 300 mg": at 25 words
the angina was cut off, and 'đau thắt ngực' named no indication)."""


def inline_leadin(line: RegimenLine) -> str | None:
    """A lead-in left at the start of a line's own text ("Tình trạng tăng tiết acid … Zollinger Ellison: Uống liều
    khởi đầu là 80 mg"): the indication the line is for, below those of its path."""
    m = _INLINE_LEADIN.match(line.text)
    if m is None or m.group(1).strip() in line.path:
        return None
    return m.group(1).strip()


def indication_labels(line: RegimenLine) -> tuple[str, ...]:
    """The indication lead-ins a line sits under, outermost first, its own inline lead-in last."""
    inline = inline_leadin(line)
    if inline and _names_no_one(inline):
        return (*line.context.indication, inline)
    return line.context.indication


_WHOM = re.compile(r"^(?:o |cho |voi |doi voi |neu |khi )?(?:tre|nguoi|benh nhan|so sinh|phu nu)\b")


def _names_no_one(label: str) -> bool:
    """An inline lead-in that is a population or band ("Trẻ em 6 - 12 tuổi:", "Ở người suy giảm miễn dịch:") is not
    an indication; one that opens with the indication and names its patients after it ("Loại bỏ tái phát ở người có
    khả năng miễn dịch:") is that indication's (its clauses are not a dose for every patient)."""
    folded = fold(label)
    return _WHOM.match(folded) is None and _NOT_INDICATION.match(folded) is None \
        and re.search(r"\b(tuoi|thang|kg)\b", folded) is None


_NOT_INDICATION = re.compile(r"^(lieu|toi da|toi thieu|thoi gian|cach dung|luu y|chu y|giam lieu|dieu chinh lieu|tu ngay|"
                             r"ngay dau|dieu tri nhieu lieu|dieu tri mot lieu|dieu tri dai ngay|dieu tri keo dai)\b")
"""An inline lead-in about the dose itself ("Liều giới hạn thông thường cho người lớn: 100 mg", "Giảm liều theo độ
thanh thải creatinin: 10–20 ml/phút …"), not its purpose."""


def _opening(line: RegimenLine) -> str:
    """The words a dose line opens with, before its first number ("Trong trường hợp dự phòng dài hạn biến chứng
    tim mạch …, dùng liều"): where the book names the purpose of a line that has no lead-in of its own."""
    m = _OPENING.match(line.text)
    head = m.group(0) if m else ""
    return " ".join(head.split()[:MAX_OPENING_WORDS])


_SENTENCE = re.compile(r"(?<=\.)\s+(?=[A-ZĐÀ-Ỹ])")


def line_sentences(text: str) -> list[str]:
    """A dosage line's sentences (a full stop, then a capital)."""
    return [p for p in _SENTENCE.split(text) if p.strip()]


def _purposes(line: RegimenLine) -> list[str]:
    """The opening words of each sentence of a line: a line that runs on ("… 75 - 150 mg/ngày. Trong trường hợp cấp
    tính, … như nhồi máu cơ tim, …, dùng liều nạp 150 - 300 mg") names the purpose of each of its doses where that
    dose's sentence opens, not only where the line does."""
    heads = [m.group(0) for part in _SENTENCE.split(line.text) if (m := _OPENING.match(part))]
    return [" ".join(h.split()[:MAX_OPENING_WORDS]) for h in heads if h.strip()]


def purpose_text(line: RegimenLine, indication: str | None) -> str:
    """The part of a line for the purpose the question names, when the line runs on with a dose per purpose ("… dự
    phòng dài hạn …: 75 - 150 mg/ngày. Trong trường hợp cấp tính, … nhồi máu cơ tim …: liều nạp 150 - 300 mg"): the
    sentence whose opening names it, and the dose-less sentences after it. The whole line when no indication is
    named, when fewer than two of its dosed sentences open with a purpose, or when the question does not name
    exactly one of them better than the others (#17: the long-term antiplatelet question was shown the loading
    dose of an infarction as well)."""
    if not indication or match_score(indication, indication_labels(line)) > 0:
        # (The question names the line's own lead-in, "Phù" of "Phù: khởi đầu 20–40 mg/ngày … Phù kháng trị có thể
        # cần 80–120 mg/ngày": the whole line is its dose, the later sentence a sub-case of it.)
        return line.text
    parts = [p for p in _SENTENCE.split(line.text) if p.strip()]
    dosed = [i for i, part in enumerate(parts) if dose_quantities(fold(part))]
    if len(dosed) < 2:
        return line.text
    scores = {}
    for i in dosed:
        m = _OPENING.match(parts[i])
        opening = " ".join((m.group(0) if m else "").split()[:MAX_OPENING_WORDS])
        scores[i] = match_score(indication, [opening]) if opening.strip() else 0
    best = max(scores.values())
    if best == 0 or list(scores.values()).count(best) > 1:
        return line.text
    first = next(i for i, score in scores.items() if score == best)
    end = next((i for i in dosed if i > first), len(parts))
    return " ".join(parts[first:end])


def context_sentences(line: RegimenLine, patient: Patient) -> list[str]:
    """The sentences after a line's first that name a condition the patient was stated to have and give a dose ("…
    Dưới 50 kg: 15 mg/kg …; tối đa là 60 mg/kg/ngày. Không được vượt quá liều tối đa 3 g/ngày ở bệnh nhân nghiện
    rượu, …"): a ceiling for every patient with that condition, whatever band the line opens with (#17: a 60 kg
    alcoholic on the infusion was shown the 4 g/ngày line without the 3 g cap written under the 50 kg band)."""
    if not patient.conditions or line.kind != "regimen":
        return []
    wanted = condition_terms(patient)
    found: list[str] = []
    for part in [p for p in _SENTENCE.split(line.text) if p.strip()][1:]:
        folded = fold(part)
        if dose_quantities(folded) and any(re.search(rf"\b{re.escape(c)}\b", folded) for c in wanted):
            found.append(part.strip())
    return found


def indication_matches(line: RegimenLine, indication: str) -> bool:
    """The line sits under an indication the question names (see core.dosage.indication)."""
    key = indication_key(line)
    return bool(key) and match_score(indication, key, _purposes(line)) > 0


def indication_scores(lines: list[RegimenLine], indication: str,
                      patient: Patient | None = None) -> dict[tuple[str, ...], int]:
    """How well the question's indication names each indication of `lines` (core.dosage.indication.match_score).

    With the patient: the indications with a line of their age and weight band are scored first, and one of them
    that matches is the answer — an indication whose lines are all of another band is another patient's, however
    well its words match ("Nhiễm VZV:" of the newborn block, 20 mg/kg, took a 5-year-old's varicella from the
    3 months - 12 years line; #17). Only when none of those matches is every indication scored: the book names the
    indication for other patients only (Lyme carditis "Trẻ em dưới 8 tuổi" for a child of 10), and the patient is
    then in no band of it (the floor or the no-band notice decide), not asked about the book's other indications."""
    groups: dict[tuple[str, ...], list[RegimenLine]] = {}
    for line in lines:
        key = indication_key(line)
        if key:
            groups.setdefault(key, []).append(line)

    def score(members: list[RegimenLine], key: tuple[str, ...]) -> int:
        return match_score(indication, key, [p for m in members if m.kind == "regimen" for p in _purposes(m)])

    if patient is not None:
        own = {key: score(members, key) for key, members in groups.items()
               if any(band_admits(_age_weight(m.band), patient, closed=True) for m in members)}
        if any(own.values()):
            return own
    return {key: score(members, key) for key, members in groups.items()}


def _age_weight(band: Band) -> Band:
    """The age and weight of a band: the dimensions that say whose line it is before any patient context."""
    return Band(age_months=band.age_months, weight_kg=band.weight_kg)


_DRUG_AMOUNT = re.compile(r"\d\s*(?:mg|g|gam|microgam|mcg|µg|ui|dvqt|mmol|mg/kg|mg/m2)\b")


_PROPHYLAXIS = re.compile(r"\b(?:du phong|phong ngua)\b")
_GROUP_WORDS = re.compile(r"\b(?:cao tuoi|nguoi gia|suy than|suy gan|dang dung|dang uong|thanh thai|mang thai|"
                          r"cho con bu|loc mau|tham phan|creatinin|clcr|egfr)\b")


def _for_a_group(line: RegimenLine) -> bool:
    """A line for patients of a group beyond age and weight (renal, hepatic, elderly, on another drug)."""
    band = line.band
    return band.renal_ml_min is not None or band.hepatic is not None or \
        _GROUP_WORDS.search(fold(" ".join(line.path) + " " + line.text[:80])) is not None


def narrow_to_indication(lines: list[RegimenLine], indication: str,
                         patient: Patient | None = None) -> tuple[list[RegimenLine], bool]:
    """The lines of the indication the question names, and the general lines (under no indication): (lines, True).
    An indication is every line under the same indication lead-ins; it matches by all its lead-ins and openings,
    and of those that match, the ones sharing most words with the question are kept — of the patient's age and
    weight band, when the patient is given (`indication_scores`). When none matches, every line is kept, each with
    its path (never one picked by guess): (lines, False). Either way a severity the question names keeps only the
    lines of that severity sub-band ("nhẹ" drops "Nhiễm khuẩn nặng:")."""
    scores = indication_scores(lines, indication, patient)
    best = max(scores.values(), default=0)
    if is_partial(best) and len({key[0] for key, score in scores.items() if score == best}) > 1:
        # Two indications are each a near paraphrase of the question, equally: neither is picked by guess (the
        # caller asks which, or shows each with its path).
        best = 0
    if best == 0 and _only_for(lines, indication):
        # "Trẻ em: Chỉ dùng trong bệnh Kawasaki, …. Giai đoạn cấp: …": the block's lines are all for the disease its
        # note restricts them to, which is the one asked — the indication is the book's, not unmatched (it was
        # answered under "Dược thư không ghi liều riêng cho chỉ định đã nêu").
        return [line for line in lines if severity_admits(indication, indication_labels(line))], True
    if best == 0 and _opens_for(lines, indication):
        # "Thông ống động mạch ở trẻ sơ sinh thiếu tháng: Một đợt điều trị gồm ba liều …", written inline where the
        # parser found no lead-in: a line under no indication that opens by naming the one asked makes the general
        # lines that indication's — not unmatched, where every other indication's weight exclusion ("không khuyến
        # cáo cho trẻ dưới 7 kg", of pain and fever) withheld a preterm baby's PDA dose (#17 held-out H78).
        return [line for line in lines if not indication_key(line)], True
    severity_only = best == 0 and is_severity_label(indication) and any(
        not indication_key(line) and any(is_severity_label(label) for label in indication_labels(line))
        for line in lines)
    if severity_only:
        # "nhiễm khuẩn nhẹ" where the book splits its general lines by severity under no indication ("Trẻ em: Nhiễm
        # khuẩn nhẹ, vừa: … Nhiễm khuẩn nặng: …"): the sub-band is the book's own, not an indication it does not
        # name — the general lines, narrowed to that severity below, without the unmatched notice.
        kept = [line for line in lines if not indication_key(line)]
    elif best == 0:
        # No lead-in names the indication asked: the general lines (under no indication: the book's usual dose) are
        # the answer when there are dose lines among them; other indications' doses are other patients' doses.
        # With no general dose line, every line is kept, each with its path (the machine asks which indication).
        general = [line for line in lines if not indication_key(line)]
        # (A general dose of another route is not this patient's: "uống haloperidol" for an agitated 80-year-old was
        # answered with the oral administration note alone, the injection's general dose counting as the dose and
        # then dropped by route — #17 held-out H43.)
        route = patient.route if patient is not None else None
        # An amount of the drug, not of the water it is taken with ("1 cốc nước (240 ml)" is no dose).
        dosed = any(line.kind == "regimen" and len(dose_quantities(line.text)) > len(line.maxima)
                    and _DRUG_AMOUNT.search(fold(line.text)) is not None
                    and (route is None or not line.routes or route in line.routes) for line in general)
        kept = general if dosed else lines
    else:
        kept = [line for line in lines if not indication_key(line) or scores.get(indication_key(line)) == best]
        # (A prophylaxis only: a purpose apart from the treatment the general lines dose. A narrower disease — "Phù
        # phổi cấp" beside the route's general oedema dose — keeps the general lines for "phù".)
        own = [line for line in kept if indication_key(line) and is_dosed(line)
               and _PROPHYLAXIS.search(fold(" ".join(indication_key(line)))) is not None
               and (patient is None or admits(line, patient, closed=True))]
        if own and patient is not None:
            # "bé 4 tuổi 15 kg sắp mổ, dự phòng bằng clindamycin tiêm": the indication asked doses this patient
            # ("Dự phòng trong phẫu thuật: … Trẻ cân nặng dưới 20 kg: 10 mg/kg một liều"); the book's usual treatment
            # dose by the same route, under no indication ("Trẻ em 1 tháng 16 tuổi: 20 - 40 mg/kg/ngày"), is another
            # purpose's dose, not shown beside it (#18 held-out H197, flagged).
            routes = {r for line in own for r in line.routes}
            # (Only a population's plain usual dose: a line for a group of patients — renal or hepatic bands, "Người
            # đang dùng thuốc lợi tiểu, người cao tuổi: khởi đầu 6,25 mg" — is this patient's own when they are in it.)
            kept = [line for line in kept if indication_key(line) or not is_dosed(line) or _for_a_group(line) or (
                routes and line.routes and not set(line.routes) & routes)]
    kept = [line for line in kept if severity_admits(indication, indication_labels(line))]
    if severities(indication) and any(is_dosed(line) and any(is_severity_label(label) for label in indication_labels(line))
                                      for line in kept):
        # "bé 3t 14kg bị nhiễm khuẩn nhẹ": the sub-band of the severity said is the dose; the general range "20–40
        # mg/kg/ngày … tùy mức độ nhiễm khuẩn" beside it spans the severe dose too (#18 held-out H57, flagged).
        kept = [line for line in kept if indication_key(line) or not is_dosed(line)
                or not _BY_SEVERITY.search(fold(line.text))]
    return kept, best > 0 or severity_only


_INLINE_LABEL = re.compile(r"^([^:.;]{8,90}):\s")


def _opens_for(lines: list[RegimenLine], indication: str) -> bool:
    """A line under no indication opens with a label ("…: ") that names the indication asked."""
    for line in lines:
        m = _INLINE_LABEL.match(line.text) if not indication_key(line) and line.kind == "regimen" else None
        if m and match_score(indication, [m.group(1)]) > 0:
            return True
    return False


_BY_SEVERITY = re.compile(r"\btuy (?:theo )?(?:muc do|do nang|tinh trang)\b")


_ONLY_IN = re.compile(r"^chi (?:dung|duoc dung|dinh) (?:trong|cho|de dieu tri) (?:benh )?([^,;.(]{3,60})")


def _only_for(lines: list[RegimenLine], indication: str) -> bool:
    """A note of the lines ("Chỉ dùng trong bệnh Kawasaki") restricts them to the indication asked, named in full; the
    lines of that population are then that indication's."""
    for line in lines:
        if line.kind != "note" or indication_key(line) or line.population is None:
            continue
        m = _ONLY_IN.match(fold(line.text))
        if m is None:
            continue
        phrase = line.text[m.start(1):m.end(1)] if len(fold(line.text)) == len(line.text) else m.group(1)
        if match_score(indication, [phrase]) >= FULL and all(
                other.population == line.population for other in lines if other.kind == "regimen"):
            return True
    return False


def is_dosed(line: RegimenLine) -> bool:
    """A regimen line that states a dose beyond its ceilings ("100 - 200 mg/kg/ngày"; not "Không tiêm vượt quá 25
    mg/kg một lần")."""
    return line.kind == "regimen" and len(dose_quantities(fold(line.text))) > len(line.maxima)


def dosed_indications(lines: list[RegimenLine]) -> list[tuple[str, ...]]:
    """The indications (`indication_key`) under which `lines` state a dose, in book order; renal and hepatic
    adjustment lines are no indication's."""
    found: list[tuple[str, ...]] = []
    for line in lines:
        key = indication_key(line)
        if key and key not in found and is_dosed(line) and not is_renal_line(line) and not line.context.hepatic:
            found.append(key)
    return found


_ROUTE_HEADING = re.compile(r"\b(tiem|truyen|uong|dat truc trang|duong truc trang)\b")
"""A lead-in of a line's path that names a route (the heading of that route's block)."""


def without_general_doses(chosen: list[RegimenLine], route: str | None = None,
                          indication: str = "") -> list[RegimenLine]:
    """The patient's lines once the indication they named is matched and has a dose of its own for them: a dose
    line under no indication on the same route (or on none) is the dose for the indications the book does not list
    apart — another indication's dose ("Tiêm tĩnh mạch: Trẻ em (từ 1 tháng - 15 tuổi): 100 - 200 mg/kg/ngày" beside
    "Dự phòng viêm nội tâm mạc: Trẻ em: Tiêm tĩnh mạch 50 mg/kg"). Notes, ceilings and the renal/hepatic
    adjustment lines stay; a route on which the indication has no dose keeps its general dose (asked or shown as
    that route's)."""
    # Only an indication the user named whole: "phù" (oedema) is matched by "Phù phổi cấp" (acute pulmonary oedema)
    # but does not name it, and the route's general dose is then this patient's, not another indication's to drop.
    own = [line for line in chosen if indication_key(line) and is_dosed(line)
           and user_names(indication, indication_key(line))]
    if not own:
        return chosen
    routes = {r for line in own for r in line.routes}
    kept = [line for line in chosen if indication_key(line) or not is_dosed(line) or is_renal_line(line)
            or line.context.hepatic or (line.routes and routes and not set(line.routes) & routes)]
    if route is not None and any(route in line.routes and any(_ROUTE_HEADING.search(fold(label)) for label in line.path)
                                 for line in own):
        # The matched indication has a dose under a heading for the patient's route ("Thuốc tiêm › Dùng trong loạn
        # thần cấp: Tiêm bắp ban đầu 2 - 5 mg"): a dose that names no route (the block before "Thuốc tiêm:", "Người
        # lớn: Ban đầu 0,5 - 5 mg") is not this route's. (A route read from a line's own words, "Liều uống thông
        # thường …", heads nothing: the routeless age bands beside it stay.)
        kept = [line for line in kept if line.routes or not is_dosed(line) or is_renal_line(line)
                or line.context.hepatic]
    return kept


def without_other_indications(chosen: list[RegimenLine]) -> list[RegimenLine]:
    """A dose question naming no indication, and the patient has a general dose line (under no indication lead-in:
    the book's usual dose for them): the lines under an indication lead-in are the doses of patients who have that
    indication ("Viêm màng não: 100 mg/kg/ngày" beside a child's "50–80 mg/kg/ngày"), not this patient's. Shown
    beside the usual dose they read as a choice of doses for the same child; dropped, as the general lines are
    the answer when a named indication matches no lead-in (`narrow_to_indication`). Renal and hepatic lines stay.
    Only for a child (the caller's rule): a child's dose is worked out per kg from the line read, and another
    indication's higher per-kg dose beside the usual one is a dose calculated on the wrong line; an adult's other
    indications stay shown, each labelled with its lead-in (the book's "Bệnh lậu: liều duy nhất 250 mg")."""
    general = [line for line in chosen if not indication_key(line) and is_dosed(line) and not is_renal_line(line)
               and not line.context.hepatic and not doses_as_other_route(line)]
    if not general:
        return chosen
    # Only dose lines: a note under a lead-in ("Theo dõi INR và điều chỉnh liều: Test sinh học …") gives no dose.
    return [line for line in chosen if not indication_key(line) or not is_dosed(line) or is_renal_line(line)
            or line.context.hepatic]


_AS_OTHER_ROUTE = re.compile(r"\b(?:lieu )?(?:nhu|giong(?: nhu)?) (?:duong|lieu) (?:uong|tiem|truyen)\b")
"""(Folded.) A line dosing its route as another ("Truyền tĩnh mạch – Trẻ em: Liều như đường uống: 6–12 mg/kg/ngày"): it
points at that route's lines, indication by indication — no general dose of its own beside them (#18 held-out H226
showed a child with thrush the invasive-infection figures of such a line, the oral indication lines withheld)."""


def doses_as_other_route(line: RegimenLine) -> bool:
    """The line doses its route as another route's lines (see `_AS_OTHER_ROUTE`): no general dose."""
    return _AS_OTHER_ROUTE.search(fold(line.text)) is not None


def indication_key(line: RegimenLine) -> tuple[str, ...]:
    """The indication lead-ins of a line without its severity sub-band: "Nhiễm khuẩn nhẹ, vừa" and "… nặng" under
    one infection are that one indication; a line under a severity lead-in only is under no indication."""
    return tuple(label for label in indication_labels(line) if not is_severity_label(label)
                 and not _names_the_elderly(label) and not _ORGAN_CONTEXT.match(fold(label)))


_ORGAN_CONTEXT = re.compile(r"^(?:o |doi voi )?(?:nguoi |benh nhan |nguoi benh )?(?:suy (?:than|gan)|tham phan|loc mau)"
                            r"(?: (?:nhe|vua|nang|man|cap))?(?:\s*\(.*\))?$"
                            r"|^(?:do )?thanh thai creatinin\b|^(?:clcr|egfr)\b")
"""A lead-in naming the kidneys or liver ("Suy thận:", "Suy gan nặng:") says whose line it is, not what for: as an
indication it was dropped for a patient who named theirs ("Bà 72t ClCr 25, tăng cholesterol, simvastatin khởi đầu"
was shown the usual start without the severe-renal 5 mg/ngày — #18 held-out H203, flagged)."""


def _names_the_elderly(label: str) -> bool:
    """A lead-in naming the elderly ("Người đang dùng thuốc lợi tiểu, người cao tuổi:") says whom its line is for, not
    what for: it is no indication (as an indication it was dropped for an elderly patient who named the disease, who
    was then shown only the younger adult's starting dose)."""
    folded = fold(label)
    return _WHOM.match(folded) is not None and _ELDERLY.search(folded) is not None


def _admits(bound: Bound | None, value: float | None, *, closed: bool) -> bool:
    if bound is None:
        return True
    return value is not None and bound.contains(value, closed=closed)


_NEONATAL_MONTHS = 3.0
"""How old a baby in a band by corrected gestational age can be: one born at 23 weeks reaches 37 weeks corrected at
about 14 weeks (3 months) old."""


def _gestation_admits(bound: Bound | None, patient: Patient) -> bool:
    """A newborn's gestation band ("Sơ sinh đủ tháng", "thiếu tháng", "28 - 32 tuần"): the stated weeks, or the
    stated range ("đủ tháng") when the band holds all of it — "thiếu tháng" alone is not in "28 - 32 tuần"."""
    if bound is None:
        return True
    if patient.gestation_weeks is not None:
        return bound.contains(patient.gestation_weeks)
    stated = patient.gestation
    if stated is None:
        return False
    if stated.low < bound.low or (stated.low == bound.low and bound.low_open and not stated.low_open):
        return False
    return (bound.high == math.inf or (stated.high != math.inf and (
        stated.high < bound.high or (stated.high == bound.high and (stated.high_open or not bound.high_open)))))


def band_admits(band: Band, patient: Patient, *, closed: bool = False) -> bool:
    age = patient.age_months
    if age is None and patient.population == "adult":
        age = ADULT_AGE_MONTHS
    if not _admits(band.age_months, age, closed=closed):
        return False
    if not _admits(band.weight_kg, patient.weight_kg, closed=closed):
        return False
    if not _gestation_admits(band.gestation_weeks, patient) and not (
            # The top of a weeks range is in it when nothing else holds the baby ("28 - 32 tuần" beside "trên 32
            # tuần": a baby of exactly 32 weeks is the first band's — #17 held-out H214 got no dose at all).
            closed and band.gestation_weeks is not None and patient.gestation_weeks is not None
            and band.gestation_weeks.high == patient.gestation_weeks
            and band.gestation_weeks.contains(patient.gestation_weeks, closed=True)):
        return False
    # (A newborn of no stated days whose corrected weeks are stated — "sơ sinh tuổi thai chỉnh 32 tuần" — is one.)
    if band.gestation_weeks is not None and band.age_months is None and (
            (age is None and patient.gestation_weeks is None) or (age is not None and age >= _NEONATAL_MONTHS)):
        # "Sơ sinh 28 - 37 tuần chỉnh theo tuổi thai" states the weeks, not the age: a 4-year-old "born at 30 weeks"
        # is not in it (#18: the neonatal dose was shown for one).
        return False
    if band.renal_ml_min is not None and patient.renal_ml_min is not None \
            and not band.renal_ml_min.contains(patient.renal_ml_min, closed=closed):
        return False
    if band.renal_ml_min is not None and patient.renal_ml_min is None and not patient.renal:
        return False
    if band.hepatic is not None:
        if patient.hepatic is None:
            return False
        if patient.hepatic != "any" and patient.hepatic not in _HEPATIC_COVERS[band.hepatic]:
            return False
    return True


@dataclass(frozen=True)
class _LineWords:
    """What a line's own words (its path and text) say of whom it is for: the patient-independent half of
    `context_admits`, read once per line (`_words_of`) instead of at each of the ~20 calls a dosing turn makes."""

    immune: ImmuneGroup | None
    pregnancy: bool
    dialysis: bool


_LINE_WORDS: dict[int, tuple[RegimenLine, _LineWords]] = {}
_LINE_WORDS_MAX = 16_384


def _words_of(line: RegimenLine) -> _LineWords:
    # Identity-keyed as `select` is: lines belong to read-only trees shared across turns; the entry keeps its line
    # alive, so its id cannot be reused by another line while remembered.
    hit = _LINE_WORDS.get(id(line))
    if hit is None or hit[0] is not line:
        if len(_LINE_WORDS) >= _LINE_WORDS_MAX:
            _LINE_WORDS.clear()
        joined = " ".join((*line.path, line.text))
        hit = (line, _LineWords(immune_group(joined), for_pregnancy(line), _DIALYSIS.search(fold(joined)) is not None))
        _LINE_WORDS[id(line)] = hit
    return hit[1]


def context_admits(line: RegimenLine, patient: Patient) -> bool:
    """Route, population and condition (not the band): is this line about patients like this one at all?"""
    c = line.context
    words = _words_of(line)
    if patient.route and c.routes and patient.route not in c.routes:
        return False
    if c.population and patient.population and c.population != patient.population:
        return False
    if c.population is None and patient.population == "pediatric" and line.kind == "regimen" and c.band.empty:
        return False  # an unlabelled dose is the book's adult default, never a child's
    if c.neonate and patient.age_months is not None and patient.age_months >= 1 and c.band.empty:
        return False
    if c.renal and not patient.renal:
        return False
    if words.immune is not None and not immune_admits(line, patient):  # (a line naming no status admits everyone)
        return False
    if words.pregnancy and not patient.pregnant:
        return False  # the pregnant women's line ("Ở phụ nữ mang thai: 15 mg/kg/lần") is hers only
    if not patient.renal and line.kind != "exclusion" and words.dialysis:
        # A line for patients on dialysis ("Người bệnh thẩm tách máu: …") is a renal patient's, whatever lead-in it
        # was read under.
        return False
    if c.hepatic and patient.hepatic is None:
        return False
    if line.kind == "regimen" and patient.population == "adult" and c.band.empty and not (c.renal or c.hepatic):
        return True  # a dose under no lead-in ("Liều dùng: … Liều bắt đầu thông thường là 5 mg") is the adult default
    return bool(c.path or c.routes or c.population or not c.band.empty)


_STRICT_TOP = re.compile(r"(?:\bduoi|\bnho hon|\bchua (?:den|du|toi)|\bit hon|<(?!=))\s*(\d+(?:[.,]\d+)?)")


def _strictly_below(line: RegimenLine, patient: Patient) -> bool:
    """The band's top is written as "under" ("Người dưới 40 kg", "< 40 kg") and the patient is at it: the book says
    the patient is not in it, so the closed fallback for a range's top edge ("16 - 18 tuổi" at 18) does not apply.
    Read, a 12-year-old of exactly 40 kg was given the under-40 kg anthrax dose (#17 held-out H62)."""
    words = fold(" ".join((*line.context.path, line.text[:80])))
    values = {v for v in (patient.weight_kg,) if v is not None}
    if patient.age_months is not None:
        values |= {patient.age_months, patient.age_months / 12}
    return any(float(m.group(1).replace(",", ".")) in values for m in _STRICT_TOP.finditer(words))


def _at_open_bottom(band: Band, patient: Patient) -> bool:
    """The patient is exactly at a bottom the book writes as "above" ("Trên 50 kg", "> 50 kg") — outside the band. The
    closed fallback is for a range's top edge only: at 50 kg a 17-year-old was shown the adults' "Trên 50 kg: 1 g"
    beside the children's "10 - 50 kg: 15 mg/kg" (#18 held-out H295)."""
    pairs = ((band.weight_kg, patient.weight_kg), (band.age_months, patient.age_months))
    return any(b is not None and v is not None and b.low_open and v == b.low for b, v in pairs)


def admits(line: RegimenLine, patient: Patient, *, closed: bool = False) -> bool:
    """The line is this patient's (context and band). The property tests hold `select` to this."""
    return context_admits(line, patient) and band_admits(line.band, patient, closed=closed)


_ELDERLY = re.compile(r"\b(nguoi cao tuoi|nguoi gia|cao tuoi)\b")
_ADULT = re.compile(r"\bnguoi lon\b")


ELDERLY_FROM_MONTHS = 60 * 12
"""Under 60 years an adult is not one of the book's elderly (it says 60 or 65): their lines are never such an adult's."""


_ELDERLY_OPENING = re.compile(r"^((o|doi voi|voi|cho) )?(nguoi cao tuoi|nguoi gia)\b")


_AS_ADULTS = re.compile(r"\b(?:nhu|giong|bang) (?:lieu )?(?:cua |o |danh cho )?nguoi lon\b|\bdung lieu (?:cua )?nguoi lon\b")
"""An elderly line that gives no dose of its own but the adults' ("liều như người lớn")."""


_ELDERLY_LOWER_START = re.compile(r"\blieu (?:dau tien|bat dau|khoi dau)\b[^.;]{0,30}\b(?:rat thap|thap hon)\b")
_USUAL_START = re.compile(r"\blieu (?:bat dau|khoi dau|dau tien)(?: thong thuong)?\b")


def _elderly_line(line: RegimenLine) -> bool:
    """Under an elderly lead-in, or a sentence opening with the elderly as its only patients ("Người cao tuổi thường
    dùng liều 30 - 65 mg …"; not "Người nhỏ nhắn, người cao tuổi, người suy nhược …: khởi đầu 2,5 mg", a line for
    several groups)."""
    return any(_ELDERLY.search(fold(label)) for label in line.path) or _ELDERLY_OPENING.match(
        fold(_opening(line))) is not None and not re.search(r",|\bhoac\b|\bva\b", fold(_opening(line)))


_CHILDREN_ONLY = re.compile(r"\b(?:cho|o|doi voi) (?:tre em|tre nho|tre)\b")


def _elderly_among_groups(line: RegimenLine) -> bool:
    """A dose line whose lead-in lists the elderly among its groups ("Người nhỏ nhắn, người cao tuổi, người suy
    nhược hoặc đang dùng thuốc hạ huyết áp khác: khởi đầu 2,5 mg/lần")."""
    head = inline_leadin(line)
    return line.kind == "regimen" and head is not None and _ELDERLY.search(fold(head)) is not None


def elderly_dose_line(line: RegimenLine) -> bool:
    """The line is the elderly's own (`_elderly_line`) or names them among its groups (`_elderly_among_groups`)."""
    return _elderly_line(line) or _elderly_among_groups(line)


def _not_elderly(patient: Patient) -> bool:
    """An adult known not to be elderly: no elderly words, and an age under 60 or none at all ("Người lớn …")."""
    return patient.population == "adult" and not patient.elderly and (
        patient.age_months is None or patient.age_months < ELDERLY_FROM_MONTHS)


def _adult_line(line: RegimenLine) -> bool:
    """A line under a lead-in naming adults (not the elderly), or opening with them in its own words: "Người lớn: …",
    "Liều thuốc tiêm … thường dùng cho người lớn là 30 mg"."""
    return any(_ADULT.search(fold(label)) for label in line.path) or (
        _ADULT.search(fold(_opening(line))) is not None and _ELDERLY.search(fold(_opening(line))) is None)


def group_of(line: RegimenLine) -> tuple[object, ...]:
    return _group(line)


def _conditional_caps(regimen: list[RegimenLine], chosen: list[RegimenLine],
                      patient: Patient) -> list[RegimenLine]:
    """An adult of no stated weight: a lower ceiling the book writes for a weight band of the same lead-in group
    ("Người có yếu tố nguy cơ độc tính trên gan (nghiện rượu, …) hoặc cân nặng dưới 50 kg: không quá 3 g/ngày" under
    "Uống – Người lớn"), quoted beside the usual line with its own words saying whom it is for.

    Safety (#17/#18, by omission): withheld as "another band", the adult saw "tối đa 4 g/ngày" alone and the reply
    said the book splits the dose by a weight the question did not give. A ceiling only lowers what may be taken, so
    showing it to someone outside its band harms no one; a band line that doses (a per-kg rule, "15 mg/kg/lần") is
    still another patient's and stays out."""
    groups = {_group(line) for line in chosen if line.kind == "regimen"}
    return [line for line in regimen if line not in chosen and _group(line) in groups
            and is_conditional_cap(line, patient)]


def _weight_band_ceiling(line: RegimenLine) -> bool:
    """A weight band's line that is a ceiling only: maxima read by the parser, no dose rule of its own."""
    return line.kind == "regimen" and line.rule is None and bool(line.maxima) and line.band.weight_kg is not None


def is_conditional_cap(line: RegimenLine, patient: Patient) -> bool:
    """`line` is a weight band's ceiling alone and the patient an adult whom it may hold: of no stated weight, or
    outside the weight band of a lead-in that names another case beside it ("Người có yếu tố nguy cơ … hoặc cân nặng
    dưới 50 kg"). `_conditional_caps`; the verifier's dosing binding admits it alike."""
    if patient.population == "pediatric" or (patient.age_months is not None and patient.age_months < ADULT_AGE_MONTHS):
        return False
    band = line.band
    if not _weight_band_ceiling(line) or band.weight_kg is None or band.weight_kg.high is None \
            or band.age_months is not None or band.renal_ml_min is not None or band.hepatic is not None:
        return False
    folded = fold(line.text)
    lead = folded.split(":", 1)[0] if ":" in folded else ""
    return patient.weight_kg is None or bool(re.search(r"\bhoac\b", lead))


def caps_patient(line: RegimenLine, patient: Patient) -> bool:
    """A weight band's ceiling alone whose band holds the patient's stated weight ("… hoặc cân nặng dưới 50 kg: không
    quá 3 g/ngày" for an adult of 45 kg): the usual maximum beside it is not theirs."""
    return patient.weight_kg is not None and _weight_band_ceiling(line) and band_admits(line.band, patient)


def _group(line: RegimenLine) -> tuple[object, ...]:
    """The sibling bands of one lead-in group (for the closed fallback at a band's top edge). Not split by routes:
    a band whose route is read from its own words ("Trẻ cân nặng dưới 25 kg uống …") and the next clause's band
    ("trẻ nặng hơn …", no route word) are siblings — split, a 25 kg child was admitted to "dưới 25 kg" by the
    closed reading although "trẻ nặng hơn" holds them."""
    c = line.context
    return (c.path, c.population, c.indication)


def indication_words(text: str) -> set[str]:
    """The words of an indication phrase that tell it from another (generic words dropped)."""
    return _words(text)


_NORMAL_RENAL = re.compile(r"\b(chuc nang than|than) (binh thuong|con tot)\b")
_DIALYSIS = re.compile(r"\b(tham phan|tham tach|loc mau|sieu loc|chay than)\b")


def immune_admits(line: RegimenLine, patient: Patient) -> bool:
    """The line's immune status admits the patient (core.dosage.immune)."""
    return _immune_admits(" ".join((*line.path, line.text)), indication_labels(line), patient.immunocompromised,
                          patient.indication)


def is_renal_line(line: RegimenLine) -> bool:
    return line.context.renal or line.band.renal_ml_min is not None


def _normal_renal(line: RegimenLine) -> bool:
    """Under a lead-in (or itself) for patients whose renal function is normal."""
    return any(_NORMAL_RENAL.search(fold(label)) for label in (*line.path, line.text))


def states_amount(line: RegimenLine) -> bool:
    """The line states a dose amount of its own (a dose or a ceiling: "250 mg", "tối đa 2 g/ngày"), not only how
    the usual dose is changed (an interval, "giảm liều", a percentage of the usual dose)."""
    return bool(dose_quantities(fold(line.text)))


def _dialysis(line: RegimenLine) -> bool:
    """A renal line for patients on dialysis, with no ClCr band of its own: not a patient known by a value."""
    return line.band.renal_ml_min is None and _DIALYSIS.search(fold(line.text)) is not None


def _for_dialysis(line: RegimenLine, patient: Patient) -> bool:
    """A line (with no ClCr band) for patients on the dialysis this patient is on (either kind when one of them
    named none)."""
    if patient.dialysis is None or line.band.renal_ml_min is not None or line.kind == "exclusion":
        return False
    kind = dialysis_kind(" ".join((*line.path, line.text)))
    return kind is not None and (kind == patient.dialysis or "any" in (kind, patient.dialysis))


def admit_renal_hepatic(chosen: list[RegimenLine], regimen: list[RegimenLine],
                        patient: Patient) -> tuple[list[RegimenLine], list[RegimenLine]]:
    """The patient's renal/hepatic adjustment REPLACES the usual doses: (chosen, regimen) narrowed to the adjustment
    lines when one holds for this patient.

    - ClCr/eGFR value inside an adjustment band: that band's lines only (the usual line shown beside it is the dose
      of a patient whose kidneys are not impaired), and no line for patients on dialysis;
    - renal impairment without a value, and the text adjusts by value: the adjustment lines only (the caller adds
      every one of them and asks for the value);
    - hepatic impairment and a hepatic line with a dose that holds for the patient: the hepatic lines only.
    Lines the text gives "for normal renal function" are never a renal patient's.
    """
    dialysis = [line for line in regimen if _for_dialysis(line, patient)]
    banded_all = [line for line in regimen if line.kind == "regimen" and line.band.renal_ml_min is not None]
    if dialysis:
        # A patient on dialysis: the book's line for that dialysis (a dose and the supplement after each session) is
        # theirs; the ClCr bands are the doses of patients not on dialysis, and asking their value would not help.
        chosen = regimen = dialysis
    elif patient.renal and patient.renal_ml_min is None and any(
            line.band.renal_ml_min is not None for line in regimen):
        chosen = [line for line in chosen if is_renal_line(line)]
        regimen = [line for line in regimen if is_renal_line(line)]
    elif patient.renal_ml_min is not None and any(is_renal_line(line) and line.kind == "regimen"
                                                  and line.band.renal_ml_min is not None for line in chosen):
        banded = [line for line in chosen if line.kind == "regimen" and line.band.renal_ml_min is not None]
        if any(states_amount(line) for line in banded):
            # The band states its own dose ("Clcr 10 - 50: 250 mg mỗi 12 giờ"): it replaces the usual dose.
            chosen = [line for line in chosen if is_renal_line(line) and not _dialysis(line)]
        else:
            # The band only changes how the usual dose is given ("Người lớn, Clcr 10 - 50 ml/phút, cho cách nhau 6
            # giờ/lần", "giảm liều hàng ngày"): shown alone, it gives the patient no dose at all — the usual dose of
            # the patient's route and population is the one it modifies, and is shown with it.
            chosen = [line for line in chosen if not _dialysis(line)]
        regimen = list(chosen)
    elif patient.hepatic is not None and any(line.context.hepatic and line.kind == "regimen" for line in chosen):
        if any(line.context.hepatic and line.kind == "regimen" and states_amount(line) for line in chosen):
            chosen = [line for line in chosen if line.context.hepatic]
        # else: "Suy gan nhẹ không cần điều chỉnh liều" states no dose of its own — shown alone it gave a mild
        # hepatic patient no dose at all (#18 held-out H136); the usual dose it leaves unchanged is shown with it.
        regimen = list(chosen)
    above_every_band = patient.renal_ml_min is not None and not dialysis and bool(banded_all) and not any(
        band_admits(line.band, patient) for line in banded_all) and all(
        line.band.renal_ml_min is not None and line.band.renal_ml_min.high <= patient.renal_ml_min
        for line in banded_all)
    if above_every_band:
        # "bn 72t …, ClCr 50, amoxicilin uống liều?": a clearance above every adjustment band the book gives (< 10,
        # 10 - 30) — the usual dose, which the book writes "for normal renal function", is theirs; the dialysis line
        # is not (#17 held-out H201 showed the haemodialysis dose, flagged).
        chosen = [line for line in chosen if not _dialysis(line)]
        regimen = [line for line in regimen if not _dialysis(line)]
    elif patient.renal and any(is_renal_line(line) for line in (*chosen, *regimen)):
        chosen = [line for line in chosen if not _normal_renal(line)]
        regimen = [line for line in regimen if not _normal_renal(line)]
    return chosen, regimen


_SELECTIONS: dict[tuple[int, Patient], tuple[DosageTree, Selection]] = {}
_SELECTIONS_MAX = 1024


def select(tree: DosageTree, patient: Patient) -> Selection:
    """The patient's lines of `tree` (`_select`), remembered per (tree, patient).

    One dosing turn selects the same section for the same patient several times (the route and indication
    questions, the extractive answer, the calculator's guard and state, the verification binding), and the
    parsed trees are shared across turns (`parse_dosage` is cached). A selection depends only on the tree
    (read-only) and the patient (frozen), so it is computed once; each caller gets its own copy of the lists.
    The entry keeps its tree alive, so the tree's id cannot be reused by another tree while it is remembered."""
    key = (id(tree), patient)
    hit = _SELECTIONS.get(key)
    if hit is None or hit[0] is not tree:
        if len(_SELECTIONS) >= _SELECTIONS_MAX:
            _SELECTIONS.clear()
        hit = (tree, _select(tree, patient))
        _SELECTIONS[key] = hit
    return replace(hit[1], lines=list(hit[1].lines), exclusions=list(hit[1].exclusions),
                   other_bands=list(hit[1].other_bands))


_INJECTED = frozenset({"iv", "im", "sc"})
_ONLY_FOR = re.compile(r"^chi (?:dung|dinh|su dung)\b[^()]*\((?P<items>[^()]{4,200})\)")
_ITEM_SPLIT = re.compile(r",|;|\bhoac\b")


def restricted_to_others(candidates: list[RegimenLine], patient: Patient) -> list[RegimenLine]:
    """The heading that limits the patient's lines to indications it lists ("Uống – Trẻ em: Chỉ dùng khi lợi ích vượt
    trội nguy cơ (nhiễm khuẩn đường tiết niệu có biến chứng, nhiễm Pseudomonas …, bệnh than):"), when the patient's
    indication is none of them: the book gives them no dose for it. A child with a sore throat was quoted the
    restricted group's 10–20 mg/kg (#18 held-out H148)."""
    if not patient.indication:
        return []
    for line in candidates:
        folded = fold(line.text)
        m = _ONLY_FOR.match(folded) if line.kind == "note" and len(folded) == len(line.text) else None
        if m is None:
            continue
        items = [i.strip(" .:") for i in _ITEM_SPLIT.split(line.text[m.start("items"):m.end("items")]) if i.strip(" .:")]
        if len(items) >= 2 and all(match_score(patient.indication, [item]) == 0 for item in items):
            return [line]
    return []


def indication_route(tree: DosageTree, patient: Patient) -> str | None:
    """The one route the book doses the patient's indication on, when it is not the route asked: "còn dùng thuốc đó
    chống nôn sau mổ thì liều thế nào" after an IV question — the antiemetic dose is the book's "1 - 2 mg tiêm bắp",
    and with the IV route kept every other indication's IV lines were shown under "no dose for this indication"
    (#17 held-out H164). The line names its route, so the answer says which it is."""
    if patient.route is None or not patient.indication:
        return None
    on_route = [line for line in tree.lines if context_admits(line, patient)]
    if not any(indication_key(line) for line in on_route) or narrow_to_indication(on_route, patient.indication,
                                                                                 patient)[1]:
        return None
    anyroute = replace(patient, route=None)
    lines = [line for line in tree.lines if context_admits(line, anyroute)]
    matched, found = narrow_to_indication(lines, patient.indication, anyroute)
    routes = {route for line in matched if indication_key(line) and is_dosed(line) for route in line.routes}
    dosed = [line for line in matched if indication_key(line) and is_dosed(line)]
    if not found or not dosed or len(routes) != 1 or any(not line.routes for line in dosed):
        return None
    route = next(iter(routes))
    if patient.route not in _INJECTED or route not in _INJECTED:
        # Only one injection for another: an injection asked is never answered by mouth ("loét tá tràng chảy máu, tiêm
        # TM" matched the oral ulcer line better than the IV "Loét dạ dày - tá tràng, trào ngược …" — #17 held-out
        # H174 was shown the oral dose), nor the other way round.
        return None
    return route


_CO_MEDICATION_CAP = re.compile(r"^(?:khi|neu|o nguoi|nguoi) (?:dang )?(?:dung|uong|phoi hop)(?: (?:cung|chung|kem))?"
                                r"(?: voi)? (?P<drugs>[^:]{3,120}):")


def co_medication_caps(candidates: list[RegimenLine], patient: Patient) -> list[RegimenLine]:
    """The regimen lines whose lead-in names a drug the patient takes ("Khi dùng cùng amiodaron, verapamil hoặc
    diltiazem: không quá 10 mg/ngày"), the patient's stated co-medication among them; [] when none."""
    if not patient.conditions:
        return []
    taken = [fold(c) for c in patient.conditions if len(c) >= 4]
    found = []
    for line in candidates:
        if line.kind != "regimen":
            continue
        # The lead-in is the line's own opening, or the context it was placed under ("Người đang dùng thuốc lợi tiểu,
        # người cao tuổi: khởi đầu 6,25 mg/lần" — the parser reads that lead-in as the line's indication).
        leads = [fold(line.text), *(f"{fold(lead)}:" for lead in line.context.indication)]
        for lead in leads:
            m = _CO_MEDICATION_CAP.match(lead)
            if m and any(re.search(rf"\b{re.escape(t)}\b", m.group("drugs")) for t in taken):
                found.append(line)
                break
    return found


def _select(tree: DosageTree, patient: Patient) -> Selection:
    if (route := indication_route(tree, patient)) is not None:
        patient = replace(patient, route=route)
    candidates = of_device([line for line in tree.lines if context_admits(line, patient)], patient.device)
    if patient.route in _INJECTED and any(patient.route in line.routes and is_dosed(line) for line in candidates):
        # An injection asked where the book doses that injection on lines of its own: a dose line naming no route
        # ("Bệnh loạn thần … Người lớn: Ban đầu 0,5 - 5 mg, 2 - 3 lần/24 giờ", haloperidol's oral doses under no route
        # lead-in) is not that injection's (#17 held-out H154 asked which indication of an IV question).
        candidates = [line for line in candidates if line.routes or not is_dosed(line)]
    if restricted := restricted_to_others(candidates, patient):
        return Selection(exclusions=restricted)
    if co_medication := co_medication_caps(candidates, patient):
        # "ông đang uống amiodaron, simvastatin tối đa bao nhiêu": the book's cap for patients on that drug ("Khi dùng
        # cùng amiodaron …: không quá 10 mg/ngày") is the answer; the usual 20–40 mg beside it is another patient's
        # (#18 held-out H171, flagged). The general notes stay.
        return Selection(lines=[line for line in candidates if line.kind == "note" and not indication_key(line)
                                and not is_dosed(line)] + co_medication)
    if patient.indication:
        # The patient's indication narrows lines that name an indication, when the text has one that matches;
        # a line under another indication is another patient's ("Bệnh Lyme" for an otitis).
        named = any(indication_key(line) for line in candidates)
        every_indication = candidates
        candidates, matched = narrow_to_indication(candidates, patient.indication, patient)
        unmatched = not matched and named
        if unmatched:
            # The book does not name the indication asked ("sốt sau tiêm chủng"), so no lead-in tells which of its
            # exclusions is this patient's: one that holds the patient under any indication of their population
            # ("Trẻ em › giảm đau hoặc sốt: … không khuyến cáo dùng cho trẻ cân nặng dưới 7 kg") still excludes them.
            # Read as another indication's, it was skipped and a 5 kg infant was answered as if only the indication
            # were missing. An exclusion lifted for a purpose (`_exclusion_for`) stays lifted.
            # Only an exclusion naming its band in its own words (age, weight): one written for a condition
            # ("không dùng khi tăng bilirubin huyết") is about a patient who has it, shown as such elsewhere.
            excluded = [line for line in _exclusions(every_indication, patient) if not line.absence
                        and _states_age_or_weight(line.text)]
            if excluded:
                return Selection(exclusions=excluded)
        elif matched:
            # The same indication in other words under another lead-in ("Trẻ em: Liều uống thông thường để giảm đau
            # hoặc sốt … không khuyến cáo dùng cho trẻ cân nặng dưới 7 kg" beside "Giảm đau và hạ sốt: Trẻ 3 - 6
            # tháng: …"): an exclusion there naming its own age or weight band holds this patient too (#17 held-out
            # H55: a 4,5 kg infant was given the 3 - 6 months' 50 mg).
            scores = indication_scores(every_indication, patient.indication, patient)
            excluded = [line for line in _exclusions(every_indication, patient) if not line.absence
                        and line not in candidates and _states_age_or_weight(line.text)
                        and scores.get(indication_key(line), 0) > 0]
            if excluded:
                return Selection(exclusions=excluded)
        # (Only when the patient has no general dose either: the book's usual dose for them is then the answer,
        # under the notice, as for any indication it does not name.)
        general_dose = any(is_dosed(line) and not indication_key(line) and not is_renal_line(line)
                           and not line.context.hepatic for line in candidates)
        other_population = _other_population_lines(tree, patient) if unmatched and not general_dose else []
        if other_population:
            # The book doses the indication asked for the other population only (H. pylori for adults, asked for a
            # child): said so with those lines' lead-ins, no dose — neither theirs nor another indication's.
            return Selection(lines=[line for line in candidates if line.kind == "note" and not indication_key(line)],
                             no_band=True, other_bands=other_population)
    else:
        unmatched = False
    # For an elderly patient, a line whose lead-in names the elderly among other groups ("Người nhỏ nhắn, người cao
    # tuổi, người suy nhược …: khởi đầu 2,5 mg") is theirs too: an 80-year-old was shown the usual 5 mg start beside
    # it (#18 held-out H91). (For a younger adult it is not withheld: they may be in one of its other groups.)
    elderly_lines = [line for line in candidates if elderly_dose_line(line)] if patient.elderly else []
    # (An elderly line with no amount of its own — "Người cao tuổi: khởi đầu với liều thấp nhất và tăng liều từ từ" —
    # says how to use the adults' doses, as "liều như người lớn" does: they stay beside it; a 65-year-old was shown the
    # elderly note alone, no dose of the extended-release tablet asked — #18 held-out H211.)
    if elderly_lines and not all(_AS_ADULTS.search(fold(line.text)) or not dose_quantities(fold(line.text))
                                 for line in elderly_lines):
        # The book gives the elderly their own lines ("Người cao tuổi: 0,5 mg …"): the general adult lines beside
        # them ("Người lớn: … tới 60 mg/ngày") are another patient's, as the older child's are for a newborn. When
        # the elderly line only refers back ("Người cao tuổi: liều như người lớn nếu …"), the adult lines are the
        # dose it names, and stay beside it.
        candidates = [line for line in candidates if line in elderly_lines or not _adult_line(line)]
    elif _not_elderly(patient):
        # "Người cao tuổi: 0,5 - 2 mg/ngày" is the dose of another patient for an adult of 40 or of no stated age.
        candidates = [line for line in candidates if not _elderly_line(line)]
    if elderly_lines and any(_ELDERLY_LOWER_START.search(fold(line.text)) for line in elderly_lines):
        # "Người cao tuổi: Liều đầu tiên phải rất thấp" beside "Liều bắt đầu thông thường là 5 mg": the usual
        # starting dose is the book's for other adults, not this patient's (#17 final held-out H37, flagged: a
        # 78-year-old was shown the 5 mg start). The elderly lines, and the usual lines that are not a start, stay.
        candidates = [line for line in candidates if _elderly_line(line) or not (
            line.kind == "regimen" and _USUAL_START.search(fold(line.text)))]
    exclusions = _exclusions(candidates, patient)
    absences = [line for line in exclusions if line.absence]
    if absences and len(absences) == len(exclusions):
        # "No data for 12 months - 10 years" (of one dose) does not withhold a line whose own band holds the patient
        # (the starting dose for 12 months - 18 years): those lines and the absence are shown; the general lines
        # without a band are withheld. With no such line the absence is the answer, as an exclusion is.
        own = [line for line in candidates if line.kind != "exclusion" and not line.band.empty
               and line.band.renal_ml_min is None and line.band.hepatic is None and band_admits(line.band, patient)
               and line.rule is not None]
        if own:
            kept = [line for line in candidates if line in absences or (line.kind != "exclusion" and (
                band_admits(line.band, patient) and (not line.band.empty or line.kind == "note")))]
            return Selection(lines=sorted(kept, key=lambda line: line.start),
                             indication_unmatched=unmatched)
    if exclusions:
        return Selection(exclusions=exclusions)
    regimen = [line for line in candidates if line.kind != "exclusion"
               or (line.band.renal_ml_min is not None and patient.renal_ml_min is None)
               or (line.band.hepatic not in (None, "any") and patient.hepatic == "any")]
    if patient.age_months is not None and (
            (patient.age_months < 1 and any(line.context.neonate for line in regimen))
            or any(_newborn_band_holds(line, patient) for line in regimen)):
        # A newborn, and the text has newborn lines for this route: the older child's general lines are not
        # theirs (the fixture's "*Uống – Trẻ em:*" weight rule beside "*Uống – Trẻ sơ sinh:*"). So for an infant
        # past the first month whom a newborn block's own age band holds ("Trẻ sơ sinh và trẻ dưới 3 tháng tuổi:
        # tối đa 30 mg/kg/ngày" for a 2-month-old): the older child's doses beside it would exceed that ceiling.
        regimen = [line for line in regimen if line.context.neonate or not line.band.empty
                   or line.population != "pediatric"]
    chosen = [line for line in regimen if band_admits(line.band, patient)]
    # A band line whose lead-in names the patient's stated condition beside its band ("Người có yếu tố nguy cơ độc tính
    # trên gan (nghiện rượu, …) hoặc cân nặng dưới 50 kg: không quá 3 g/ngày") holds them whatever their weight: an
    # alcoholic of 60 kg (or of no stated weight) was shown the 4 g/ngày maximum without this 3 g cap (#17).
    chosen += [line for line in regimen if line not in chosen and names_patient_condition(line, patient)]
    # Closed fallback per group: a patient at the top edge of a group's last band ("16 - 18 tuổi" at 18).
    groups_with_open = {_group(line) for line in chosen if not line.band.empty}
    for line in regimen:
        if line in chosen or line.band.empty or _group(line) in groups_with_open:
            continue
        if line.band.renal_ml_min is not None and line.band.renal_ml_min.low == 0:
            # "Độ thanh thải creatinin dưới 40 ml/phút": a clearance of exactly 40 is not under it — the usual dose
            # (#18 held-out H203 gave the 75 mg/ngày renal ceiling at ClCr 40). A range's top ("10 - 30" at 30) stays.
            continue
        if band_admits(line.band, patient, closed=True) and not _strictly_below(line, patient) and \
                not _at_open_bottom(line.band, patient):
            chosen.append(line)
    chosen = _without_default_beside_weight_band(chosen, patient)
    chosen += _weight_bands_beside_default(regimen, chosen, patient)
    chosen = _without_list_heading_beside_band(chosen)
    chosen = _without_routes_withheld_from_child(chosen, tree, patient)
    chosen = _preterm_line_first(chosen, patient)
    chosen = _not_the_term_babys(chosen, regimen, patient)
    chosen += _conditional_caps(regimen, chosen, patient)
    general: list[RegimenLine] = []
    if patient.indication and not unmatched:
        kept = without_general_doses(chosen, patient.route, patient.indication)
        general = [line for line in chosen if line not in kept]
        chosen = kept
    elif not patient.indication and patient.population == "pediatric":
        chosen = without_other_indications(chosen)
    if patient.pregnant:
        chosen = _pregnant_lines_replace(chosen)
    chosen, regimen = admit_renal_hepatic(chosen, regimen, patient)
    # (A cross-reference set aside as another indication's general line still gives this patient the adult dose:
    # "Trẻ cân nặng 50 kg hoặc hơn: dùng liều người lớn" for a 52 kg child with meningitis — #18 held-out H93 was told
    # no band held them and shown the children's 100 mg/kg/ngày.)
    referred = adult_lines_referred(tree, [*chosen, *general], patient)
    if referred:
        # The adult dose the child's band refers to replaces the children's doses written without a band beside it
        # (the 100 mg/kg/ngày of "Viêm màng não" is the dose of the children under 50 kg).
        chosen = [line for line in chosen if not (line.kind == "regimen" and line.population == "pediatric"
                                                  and line.band.empty and not refers_to_adult_dose(line))]
        chosen += [line for line in general if refers_to_adult_dose(line) and line not in chosen]
    if referred and patient.indication:
        # The adult lines a cross-reference gives are narrowed by the patient's indication like their own lines;
        # when none matches, they are every indication's lines, shown (or asked) as an unmatched indication.
        referred, referred_matched = narrow_to_indication(referred, patient.indication)
        unmatched = unmatched or (not referred_matched and any(indication_key(line) for line in referred))
    chosen = sorted({*chosen, *referred}, key=lambda line: line.start)
    banded = [line for line in regimen if line.kind == "regimen" and not line.band.empty
              and line.band.renal_ml_min is None and line.band.hepatic is None]
    # A newborn block's band ("Trẻ sơ sinh và trẻ dưới 3 tháng tuổi") is not one of an older child's bands: a
    # 3-year-old outside it is in the child block beside it, not "in no band". (The floor still reads every band:
    # a newborn's gestation band says the book does give the youngest a dose.)
    own_bands = [line for line in banded if not (line.context.neonate and patient.age_months is not None
                                                 and patient.age_months >= 1 and not band_admits(line.band, patient))]
    # A band on a note ("người … cân nặng dưới 50 kg, liều đầu tiên … thấp hơn") is not a dose band: only dose lines
    # decide whether the patient is in one of the section's bands.
    # (A band line left out as another indication's general dose still holds the patient: they are in a band.)
    no_band = bool(own_bands) and not any(line in own_bands for line in (*chosen, *general)) and not referred
    if no_band and _weight_bounded_line(chosen, tree.lines, patient):
        no_band = False  # the per-kg line bounded by its weight floor is this child's band
    floor = _age_floor(banded, patient) if no_band else None
    if floor is not None:
        # Younger than the book's youngest band: the book gives this child no dose. The general dose lines are not
        # theirs either (they read as the doses of the banded children); only the notes are shown, under the floor.
        chosen = [line for line in chosen if line.kind == "note"]
    # (A dose of the indication without a band of its own, "Liều theo cân nặng: … 0,08 mg/kg/lần" beside "Trẻ 20–50
    # kg: …", is the patient's: they are not outside the indication's bands then.)
    other_bands = [line for line in banded if indication_key(line) and is_dosed(line) and band_words(line)] \
        if no_band and floor is None and patient.indication and not unmatched \
        and not any(indication_key(line) and is_dosed(line) for line in chosen) else []
    if other_bands:
        # The named indication is dosed for other bands only (`indication_scores` matched it there): its doses are
        # other patients', and so are the general doses (the book names this indication apart). Notes only.
        chosen = [line for line in chosen if line.kind == "note"]
    needs_value = floor is None and patient.renal and patient.renal_ml_min is None and any(
        line.band.renal_ml_min is not None for line in regimen)
    if needs_value:
        # Renal impairment, value not given: every adjustment line (and a question for the value).
        chosen = sorted({*chosen, *(line for line in regimen if line.context.renal)}, key=lambda line: line.start)
    if patient.indication and not unmatched:
        # A line giving several doses, each in a sentence naming its own case (aspirin's long-term prevention and
        # acute loading dose): the sentence the question names (core.dosage.purpose_sentences).
        chosen = [part for line in chosen for part in purpose_sentences(line, patient.indication)]
    said = [c for c in (patient.indication, *patient.conditions) if c]
    if said or patient.hepatic is not None:
        # A line's own clause for the patient's case ("…; dùng 0,1 mg/kg/ngày nếu … sau phẫu thuật Fontan") is their
        # dose, not the usual one before it (core.dosage.purpose_sentences.case_clause).
        chosen = [case_clause(line, said, patient.hepatic is not None) for line in chosen]
    # A sentence giving one dose per age group ("… đối với trẻ trên 1 tháng, và … đối với trẻ sơ sinh"): the
    # patient's group's clause only (core.dosage.purpose_sentences.band_clauses).
    chosen = [band_clauses(line, patient.age_months) for line in chosen]
    if patient.population == "adult":
        # A note of no population whose words are about children only ("… không nên cho trẻ em quá 5 liều paracetamol
        # … trong vòng 24 giờ"): another patient's, not an adult's (it was shown to every adult asking paracetamol).
        chosen = [line for line in chosen if not (line.kind == "note" and line.population is None
                                                  and _CHILDREN_ONLY.search(fold(line.text))
                                                  and not _ADULT.search(fold(line.text)))]
    if floor is None and not other_bands:
        chosen += _risk_group_ceilings(tree, chosen, patient)
    return Selection(lines=chosen, no_band=no_band, needs_renal_value=needs_value, below_floor=floor,
                     other_bands=other_bands, indication_unmatched=unmatched)


def _risk_group_ceilings(tree: DosageTree, chosen: list[RegimenLine], patient: Patient) -> list[RegimenLine]:
    """A ceiling the book writes under a lead-in naming a group the patient's stated conditions put them in ("Người
    có nguy cơ độc tính trên gan: tối đa 3 g/ngày" for an alcoholic, core.vocabulary.RISK_GROUPS), on a route of the
    doses chosen: shown beside them. Withheld as another indication's line, the alcoholic on the infusion saw
    "tối đa 4 g/ngày" alone (#18 held-out H121). Only a maximum with no dose of its own: a ceiling only lowers what
    may be taken."""
    if not patient.conditions:
        return []
    named = condition_terms(patient)
    routes = {r for line in chosen if line.kind == "regimen" and is_dosed(line) for r in line.routes}
    if not routes:
        return []
    return [line for line in tree.lines
            if line not in chosen and line.kind == "regimen" and line.rule is None and line.maxima
            and line.band.empty and set(line.routes) & routes and context_admits(line, patient)
            and any(re.search(rf"\b{re.escape(n)}\b", fold(" ".join(line.context.path))) for n in named)]


def _preterm_line_first(chosen: list[RegimenLine], patient: Patient) -> list[RegimenLine]:
    """A preterm baby the book doses by corrected gestational age ("Sơ sinh thiếu tháng trên 32 tuần chỉnh theo tuổi
    thai, 7,5 mg/kg cách 8 giờ/lần"): that line is theirs; the term newborn's "Sơ sinh: 10 mg/kg cách 4 - 6 giờ" and the
    weight band "Trẻ em cân nặng < 10 kg: 10 mg/kg …" of the same route, which also hold them by age or weight, are
    the doses of babies born at term (#17 held-out H62 showed the three side by side to a 34-week baby)."""
    if patient.gestation_weeks is None:
        return chosen
    preterm = [line for line in chosen if line.kind == "regimen" and line.band.gestation_weeks is not None]
    if not preterm:
        return chosen
    routes = {r for line in preterm for r in line.routes}
    return [line for line in chosen if line in preterm or line.kind != "regimen" or line.band.gestation_weeks is not None
            or line.band.empty or not (set(line.routes) & routes)]


_TERM = 37.0
"""Weeks of (corrected) gestation from which a baby is born at term."""


def _not_the_term_babys(chosen: list[RegimenLine], regimen: list[RegimenLine], patient: Patient) -> list[RegimenLine]:
    """A preterm baby in none of the gestation bands the book gives for a route ("Sơ sinh thiếu tháng trên 32 tuần …"
    for a 30-week baby): the route's "Sơ sinh: 10 mg/kg" and weight bands are the doses of babies born at term, not
    theirs — no dose by that route (#17 held-out H201 computed the term newborn's IV dose for a 30-week baby)."""
    if patient.gestation_weeks is None or patient.gestation_weeks >= _TERM or (
            # (A child born preterm years ago is no newborn: the book's newborn lines are not theirs anyway.)
            patient.age_months is not None and patient.age_months >= _NEONATAL_MONTHS):
        return chosen
    banded_routes = {r for line in regimen if line.kind == "regimen" and line.band.gestation_weeks is not None
                     for r in line.routes}
    held = {r for line in chosen if line.kind == "regimen" and line.band.gestation_weeks is not None
            for r in line.routes}
    excluded = banded_routes - held
    if not excluded:
        return chosen
    return [line for line in chosen if line.kind != "regimen" or line.band.gestation_weeks is not None
            or line.band.empty or not line.routes or not set(line.routes) <= excluded]


def _without_default_beside_weight_band(chosen: list[RegimenLine], patient: Patient) -> list[RegimenLine]:
    """"Truyền tĩnh mạch – Người lớn: 1 g/lần, mỗi 6 giờ …; Người lớn cân nặng 33–50 kg: 15 mg/kg/lần …": a fixed
    dose under a lead-in, followed in the same group by a weight band capped above, is the dose of the patients outside
    that band. A 45 kg adult the band holds was shown the 1 g line beside their own 15 mg/kg line — the ≥ 50 kg dose
    for a patient the book doses by weight (and caps at 3 g/ngày). The fixed line is withheld then; a mg/kg line
    without a band ("Liều theo cân nặng: …") is every patient's of the group and stays."""
    if patient.weight_kg is None:
        return chosen
    held = [line for line in chosen if line.band.weight_kg is not None and band_admits(line.band, patient)]
    if not held:
        return chosen
    return [line for line in chosen if not any(default_outside_band(line, band) for band in held)]


def _weight_bands_beside_default(regimen: list[RegimenLine], chosen: list[RegimenLine],
                                 patient: Patient) -> list[RegimenLine]:
    """An adult of no stated weight: beside a fixed dose that is the dose of patients outside a weight band of its group
    (`default_outside_band`: "1 g/lần …" before "Người lớn cân nặng 33–50 kg: 15 mg/kg/lần …"), that band's line too,
    with its band — the fixed dose alone reads as every adult's, and an 80-year-old of unknown (or mistyped) weight was
    shown the ≥ 50 kg 1 g/lần only (#18 held-out H211). A child's weight is asked before any dose, never guessed."""
    if patient.weight_kg is not None or patient.population != "adult":
        return []
    return [band for band in regimen if band not in chosen and band.band.age_months is None
            and any(default_outside_band(line, band) for line in chosen)]


def is_weight_band_beside_default(line: RegimenLine, tree: DosageTree, patient: Patient) -> bool:
    """`line` is a weight band quoted beside the fixed dose of the adults outside it, for an adult of no stated weight
    (`_weight_bands_beside_default`): theirs to read with its band, not another patient's."""
    return patient.weight_kg is None and patient.population == "adult" and line.band.age_months is None and \
        line.band.weight_kg is not None and any(default_outside_band(other, line) for other in tree.lines)


def _without_list_heading_beside_band(chosen: list[RegimenLine]) -> list[RegimenLine]:
    """"Uống – Trẻ em: Khởi đầu 5 mg/kg/ngày …; tối đa 300 mg/ngày:" followed by "- Trẻ 1 tháng tuổi – 12 tuổi: …" and
    "- Trẻ 12–18 tuổi: … (tối đa 600 mg/ngày)": a dose line without a band that ends with a colon heads the list of
    bands after it. When the patient is in one of those bands, the band's own line is their dose; the heading's figures
    are a summary of some of the list (here the younger children's) and beside the patient's band read as a second,
    conflicting dose — a 14-year-old was shown "tối đa 300 mg/ngày" beside their "tối đa 600 mg/ngày", a 4-year-old
    "10–20 mg/kg/ngày" beside their "150 mg/ngày" (#18 held-out H102, flagged both). The heading is withheld then; a
    patient in none of the list's bands still gets it as the general line."""
    return [line for line in chosen if not any(heads_list_of(line, band) for band in chosen)]


def heads_list_of(line: RegimenLine, band: RegimenLine) -> bool:
    """`line` is a dose line without a band ending with a colon, and `band` a dosed age or weight band of the list it
    heads (the same group, after it): not the band's dose (see `_without_list_heading_beside_band`)."""
    return (line.kind == "regimen" and line.band.empty and line.text.rstrip().endswith(":")
            and band.kind == "regimen" and is_dosed(band)
            and (band.band.age_months is not None or band.band.weight_kg is not None)
            and _group(band) == _group(line) and line.start < band.start and not _restates(line, band))


def _restates(heading: RegimenLine, band: RegimenLine) -> bool:
    """The heading gives the band's own dose ("50–80 mg/kg/ngày, tiêm một lần mỗi ngày hoặc chia 2 lần …; không quá 4
    g/ngày:" over "Trẻ 1 tháng tuổi – 12 tuổi, cân nặng dưới 50 kg: 50–80 mg/kg/ngày"): no conflicting figure — its
    frequency and maximum are the band's, and withheld they were lost (#18 held-out H125)."""
    a, b = heading.rule, band.rule
    if _STARTS.search(fold(heading.text)) and not _STARTS.search(fold(band.text)):
        # "Động kinh: khởi đầu 5 mg/kg/ngày, tăng dần … đến liều duy trì 10–20 mg/kg/ngày …; liều theo tuổi:" over
        # "Trẻ 5–10 tuổi: 400–600 mg/ngày": the band states no start, so the heading's start is every listed child's
        # first dose — withheld, the child was shown the age band's full daily dose to begin with (#18 held-out H221,
        # carbamazepine: 400 mg/ngày for a 25 kg child whose book start is 125 mg). A band that states its own start
        # ("Trẻ 12–18 tuổi: khởi đầu 150–300 mg/ngày …") still replaces the heading (H102).
        return True
    if _OWN_DOSES_FOLLOW.search(fold(heading.text)):
        # "… 10–20 mg/kg/ngày chia 3 lần, tối đa 400 mg/ngày; liều theo tuổi:": the list gives each age its own dose,
        # and the heading's frequency is a summary, not the band's (a 14-year-old was shown "chia 3 lần").
        return False
    return a is not None and b is not None and (a.kind, a.low, a.high, a.unit) == (b.kind, b.low, b.high, b.unit)


_STARTS = re.compile(r"\bkhoi dau\b|\blieu (?:dau|ban dau)\b")
"""(Folded.) A titration's first dose stated ("khởi đầu 5 mg/kg/ngày", "liều ban đầu")."""
_OWN_DOSES_FOLLOW = re.compile(r"\b(?:lieu|dung|chia) theo (?:tuoi|lua tuoi|nhom tuoi|can nang|the trong)\s*:\s*$"
                               r"|\bnhu sau\s*:\s*$")


def default_outside_band(line: RegimenLine, band: RegimenLine) -> bool:
    """`line` is a fixed dose without a band written before `band`, a weight band capped above, in the same group:
    the dose of the patients outside that band, not of those it holds (see `_without_default_beside_weight_band`)."""
    return (line.kind == "regimen" and line.band.empty and line.rule is not None and line.rule.kind == "fixed"
            and not line.context.renal and not line.context.hepatic
            # The band line gives a dose of its own: a ceiling alone ("… hoặc cân nặng dưới 50 kg: không quá 3 g/ngày")
            # caps the usual dose for those patients, it does not replace it.
            and band.kind == "regimen" and band.rule is not None
            and band.band.weight_kg is not None and band.band.weight_kg.high != math.inf
            and _group(band) == _group(line) and line.start < band.start)


def _states_age_or_weight(text: str) -> bool:
    band = read_band(text).band
    return band.age_months is not None or band.weight_kg is not None


def _exclusions(candidates: list[RegimenLine], patient: Patient) -> list[RegimenLine]:
    """The exclusion lines of `candidates` that hold the patient."""
    return [line for line in candidates if line.kind == "exclusion"
            # An exclusion names whom it excludes: a band, or a population in its own words ("không khuyến
            # cáo tiêm bắp … cho trẻ em"; the parser marks no other band-less line an exclusion).
            and (not line.band.empty or line.context.population is not None)
            and band_admits(line.band, patient) and _exclusion_for(line, patient, candidates)
            and not _for_impairment_not_had(line, patient)
            and not _for_condition_not_had(line, patient)
            and not _for_route_not_taken(line, patient, candidates)
            # "eGFR dưới 30: chống chỉ định" excludes only a patient whose value is known to be under 30;
            # without the value it is one of the adjustment lines shown with the question for it.
            and not (line.band.renal_ml_min is not None and patient.renal_ml_min is None)
            # "Chống chỉ định khi suy gan nặng" does not exclude a patient whose grade is not known: it is
            # shown with the hepatic lines instead.
            and not (line.band.hepatic not in (None, "any") and patient.hepatic == "any")]


_WHEN_CONDITION = re.compile(r"\b(?:khong (?:duoc )?(?:dung|nen dung|su dung)|chong chi dinh|tranh dung)\s+"
                             r"(?:khi|neu|o tre|o nguoi benh|o nguoi|trong truong hop)\s+(?:co\s+|bi\s+|dang\s+)?"
                             r"(?P<condition>[a-z][a-z ]{3,})")


def _for_condition_not_had(line: RegimenLine, patient: Patient) -> bool:
    """An exclusion qualified by a condition ("Trẻ sơ sinh: …; không dùng khi tăng bilirubin huyết hoặc khi cần truyền
    dung dịch có chứa calci") excludes a patient who has it, not every patient of the band: a newborn with neither got
    no meningitis dose at all (the contraindications' same groups are quoted as conditional, grounding.patient_safety).
    Renal and hepatic qualifiers are `_for_impairment_not_had`'s."""
    m = _WHEN_CONDITION.search(fold(line.text))
    if m is None or RENAL_WORDS.search(m.group("condition")) or HEPATIC_WORDS.search(m.group("condition")):
        return False
    said = " ".join(fold(c) for c in patient.conditions)
    words = [w for w in m.group("condition").split()[:3] if len(w) > 2]
    return not (words and said and all(w in said for w in words[:2]))


def conditional_exclusions(tree: DosageTree, patient: Patient) -> list[RegimenLine]:
    """The exclusions written for a state of the patient's own renal or hepatic impairment that the patient is not
    known to be in ("Suy gan: …; chống chỉ định khi tiền hôn mê hoặc hôn mê gan" for a patient with liver disease of
    no stated stage): they do not exclude the patient (`_for_condition_not_had`), but the dose quoted beside the
    impairment's own note is not the whole of what the book says of it — "bà 70 tuổi suy gan, furosemid uống" was
    shown "Dùng thận trọng, bắt đầu bằng liều thấp" and not the contraindication written in the same line (#18
    held-out H211). Quoted as conditional, never as a reason to withhold the dose."""
    if not patient.renal and patient.hepatic is None:
        return []
    return [line for line in tree.lines if line.kind == "exclusion"
            and ((patient.renal and line.context.renal) or (patient.hepatic is not None and line.context.hepatic))
            and band_admits(line.band, patient) and _for_condition_not_had(line, patient)
            and (patient.route is None or not line.routes or patient.route in line.routes)]


def _for_route_not_taken(line: RegimenLine, patient: Patient, candidates: list[RegimenLine]) -> bool:
    """An exclusion of one route ("Không khuyến cáo tiêm bắp haloperidol … cho trẻ em"): it excludes a patient given
    the drug that way, not one whose route is another — nor one whose route is not yet said while the book doses
    them by another route (#17 held-out H49: an 8-year-old's oral dose was withheld for it; asked with the injection
    route, it still excludes). With no other route dosed, the exclusion stands whatever the route said."""
    routes = set(line.routes)  # the parser's: the line's lead-ins and its own words ("tiêm bắp")
    if not routes:
        return False
    if patient.route is not None:
        return patient.route not in routes
    # (A dose line of no stated route, under the patient's own band, is such another way: the book's oral lines
    # often name no route.)
    return any(c.kind == "regimen" and not set(c.routes) & routes and not c.band.empty and band_admits(c.band, patient)
               for c in candidates)


def _without_routes_withheld_from_child(chosen: list[RegimenLine], tree: DosageTree,
                                       patient: Patient) -> list[RegimenLine]:
    """A route the book withholds from children ("Không khuyến cáo tiêm bắp haloperidol … cho trẻ em", "Liều tiêm
    thông thường cho trẻ em: Chưa xác định được độ an toàn và hiệu quả"): its lines that name no population are the
    adults' ("Tiêm bắp ban đầu 2 - 5 mg", "có thể tiêm bắp sâu haloperidol decanoat"), not a child's whose route is not
    said while the book doses them another way. Shown beside the child's oral band, they made the answer a mix of the
    two that could not be bound to the child and it abstained. A child asked with that route keeps them (the route's
    exclusion then holds them, `_for_route_not_taken`)."""
    if patient.population != "pediatric" or patient.route is not None:
        return chosen
    withheld = {route for line in tree.lines if line.kind == "exclusion" and line.population == "pediatric"
                and line.routes and (line.band.empty or band_admits(line.band, patient)) for route in line.routes}
    if not withheld or not any(line.kind == "regimen" and not set(line.routes) & withheld for line in chosen):
        return chosen
    return [line for line in chosen if not (line.routes and set(line.routes) <= withheld and line.population is None
                                            and line.band.empty)]


def _other_population_lines(tree: DosageTree, patient: Patient) -> list[RegimenLine]:
    """The dose lines of the other population (adult ↔ child) under an indication the question names fully, on the
    patient's route when known: the book doses that indication for them only."""
    if patient.population is None or not patient.indication:
        return []
    other = "adult" if patient.population == "pediatric" else "pediatric"
    lines = [line for line in tree.lines if line.population == other and is_dosed(line) and indication_key(line)
             and not (patient.route and line.routes and patient.route not in line.routes)
             and not line.context.renal and not line.context.hepatic]
    scores = indication_scores(lines, patient.indication)
    best = max(scores.values(), default=0)
    return [line for line in lines if best >= FULL and scores.get(indication_key(line)) == best]


def _pregnant_lines_replace(chosen: list[RegimenLine]) -> list[RegimenLine]:
    """A pregnant patient, and the book gives pregnant women their own dose under lead-ins she is under: the other
    doses under the same lead-ins ("Ở người có khả năng miễn dịch: 5 mg/kg/lần" beside "Ở phụ nữ mang thai: 15
    mg/kg/lần") are other patients'."""
    groups = {_group(line) for line in chosen if for_pregnancy(line) and is_dosed(line)}
    return [line for line in chosen if for_pregnancy(line) or not is_dosed(line) or _group(line) not in groups]


def _newborn_band_holds(line: RegimenLine, patient: Patient) -> bool:
    """A dose line of a newborn block whose own age band holds the patient."""
    return line.kind == "regimen" and line.context.neonate and line.band.age_months is not None \
        and band_admits(line.band, patient)


# ("dùng liều người lớn", without "như": the fixture's ceftriaxone "Trẻ cân nặng 50 kg hoặc hơn: dùng liều người lớn".)
_AS_ADULT = re.compile(r"\b(lieu|dung)( lieu)? (nhu|bang|giong)( (lieu|o|cua|voi))* nguoi lon\b"
                       r"|\b(?:dung|theo|ap dung) (?:lieu|lieu dung) (?:cua |danh cho )?nguoi lon\b")


def refers_to_adult_dose(line: RegimenLine) -> bool:
    """A band whose regimen is the adult dose, stated by reference and with no dose of its own: "Trẻ > 16 tuổi có
    thể dùng liều như người lớn", "Trẻ em cân nặng > 50 kg: Dùng liều như người lớn". A fraction of it ("dùng 1/2
    liều người lớn") is not: that is another dose, never shown as the adult's."""
    folded = fold(line.text)
    return _AS_ADULT.search(folded) is not None and not dose_quantities(folded) and not re.search(
        r"\d\s*/\s*\d", folded)


def adult_lines_referred(tree: DosageTree, chosen: list[RegimenLine], patient: Patient) -> list[RegimenLine]:
    """The adult lines a cross-reference band of this patient gives them (the cross-reference is shown with them):
    the lines an adult of the patient's route, indication, weight and renal/hepatic context is given — those under
    the cross-reference's own indication when the adult has lines there, else the adult's lines under no indication,
    else every adult line, each quoted with its path. Without a cross-reference that holds the patient: none."""
    refs = [line for line in chosen if not line.band.empty and line.population != "adult"
            and refers_to_adult_dose(line)]
    if not refs or patient.population == "adult":
        return []
    adult = Patient(**{**patient.__dict__, "population": "adult", "age_months": None, "elderly": False,
                       "gestation_weeks": None, "gestation": None})
    selection = select(tree, adult)
    if selection.exclusions or selection.below_floor is not None or selection.other_bands:
        return []
    lines = [line for line in selection.lines if line.population != "pediatric" and not line.context.neonate]
    keys = {indication_key(ref) for ref in refs}
    for scope in (lambda line: indication_key(line) in keys, lambda line: not indication_key(line)):
        scoped = [line for line in lines if scope(line)]
        if any(line.kind == "regimen" for line in scoped):
            return scoped
    return lines


def _weight_bounded_line(chosen: list[RegimenLine], lines: Sequence[RegimenLine], patient: Patient) -> bool:
    """A dose by weight with no age band, bounded by the weight floor the book puts right after it, which the patient
    is above ("Liều theo cân nặng: 20–30 mg/kg/ngày …; tối đa 40 mg/kg/ngày. Không khuyến cáo cho trẻ dưới 7 kg"
    beside an age table from 1 year): the book bounds that line by weight, not by the table's ages — an 8-month-old
    of 8 kg is its patient, not below the table's floor (#18 held-out H183 withheld it). Without that weight floor
    the age table's floor stands: a bare per-kg line beside an age table reads as the dose of the table's children."""
    if patient.weight_kg is None:
        return False
    ordered = sorted(lines, key=lambda line: line.start)
    for line in chosen:
        if line.kind != "regimen" or not line.band.empty or "/kg" not in line.text or line not in ordered:
            continue
        after = ordered[ordered.index(line) + 1:ordered.index(line) + 2]
        bound = after[0].band.weight_kg if after and after[0].kind == "exclusion" else None
        if bound is not None and bound.low == 0 and after[0].band.age_months is None and \
                patient.weight_kg >= bound.high:
            return True
    return False


def _age_floor(banded: list[RegimenLine], patient: Patient) -> RegimenLine | None:
    """The line of the lowest age band of the patient's banded lines, when the patient is below all of them (and no
    newborn's line by gestation could be theirs)."""
    age = patient.age_months
    aged = [line for line in banded if line.band.age_months is not None]
    if age is None or not aged or any(line.band.gestation_weeks is not None for line in banded):
        return None
    lowest = min(aged, key=lambda line: (line.band.age_months.low, not line.band.age_months.low_open,  # type: ignore[union-attr]
                                         line.start))
    bound = lowest.band.age_months
    assert bound is not None
    below = age < bound.low or (age == bound.low and bound.low_open)
    return lowest if below and bound.low > 0 and band_words(lowest) else None


def names_patient_condition(line: RegimenLine, patient: Patient) -> bool:
    """The line's lead-in (its words before the dose) names a condition the patient was stated to have."""
    if not patient.conditions or line.kind != "regimen" or line.band.empty:
        return False
    words = fold(band_words(line))
    if not re.search(r"\bhoac\b", words) and not band_admits(line.band, patient):
        # The condition AND a band ("Viêm họng do liên cầu ở trẻ từ 2 tuổi: 12 mg/kg/lần") holds only the patients
        # of both: an 18-month-old with strep throat was given it (#18 held-out H106, flagged). Only a condition
        # given as an alternative to the band ("… (nghiện rượu, …) hoặc cân nặng dưới 50 kg") holds them whatever
        # their weight or age.
        return False
    return any(bounded(c, "word").search(words) is not None for c in condition_terms(patient))


def condition_terms(patient: Patient) -> list[str]:
    """The folded words a line may name the patient's stated conditions by: each condition (of four letters or more)
    and the risk groups the book puts it in (core.vocabulary.RISK_GROUPS)."""
    return [c for c in (fold(c) for c in patient.conditions) if len(c) >= 4] + risk_groups(patient.conditions)


def band_words(line: RegimenLine) -> str:
    """The words of a line before its first dose, as written ("Trẻ trên 3 tháng tuổi đến 12 tuổi"): whom it is for,
    without what it gives them. '' when the line opens with its dose."""
    folded = fold(line.text)
    doses = [folded.find(q.text) for q in dose_quantities(folded) if q.text in folded]
    opening = line.text[:min(doses)] if doses else ""
    opening = re.sub(r"(\s+(là|dùng|uống|có thể|liều))+$", "", opening.rstrip(" :,;(")).rstrip(" :,;(")
    return opening if read_band(opening).dimensions else ""


RENAL_WORDS = re.compile(r"\b(suy than|suy chuc nang than|thanh thai creatinin|clcr|egfr|muc loc cau than)\b")
HEPATIC_WORDS = re.compile(r"\b(suy gan|suy chuc nang gan|benh gan)\b")
_BOTH = re.compile(r"\b(kem|kem theo|ca gan (va|lan) than|ca than (va|lan) gan)\b")


def _for_impairment_not_had(line: RegimenLine, patient: Patient) -> bool:
    """An exclusion written for renal or hepatic impairment in its own words ("Chưa xác định được độ an toàn của
    thuốc ở người suy thận", under a child's indication) is not about a patient without that impairment: withholding
    their dose for it would hide the dose the book gives them."""
    if line.either and line.band.renal_ml_min is None and line.band.hepatic is None:
        # "… cho trẻ dưới 6 tuổi hoặc trẻ có eGFR dưới 30": the age alternative excludes every child under 6, whatever
        # their kidneys; only the eGFR alternative is about renal impairment.
        return False
    folded = fold(line.text)
    renal = bool(RENAL_WORDS.search(folded))
    hepatic = bool(HEPATIC_WORDS.search(folded))
    if not (renal or hepatic):
        return False
    had_renal, had_hepatic = renal and patient.renal, hepatic and patient.hepatic is not None
    if renal and hepatic and _BOTH.search(folded):
        # "chống chỉ định khi suy gan nặng kèm suy thận": both, not either.
        return not (had_renal and had_hepatic)
    return not (had_renal or had_hepatic)


def _exclusion_for(line: RegimenLine, patient: Patient, lines: list[RegimenLine]) -> bool:
    """An exclusion stated for a purpose ("để giảm đau, hạ sốt") does not exclude a patient whose indication is
    given and is another the section names (aspirin for Kawasaki disease). Words the book's lead-ins do not
    match (a stray word of the question) never lift an exclusion."""
    if not patient.indication:
        return True
    purpose = re.search(r"\bde ([a-z ,]+)", fold(line.text))
    if purpose is None:
        return True
    if _words(patient.indication) & _words(purpose.group(1)):
        return True
    # Lifted only when the section itself names the patient's indication (a lead-in, or a line's own words:
    # "Chỉ dùng trong bệnh Kawasaki …").
    # A near paraphrase (partial match) never lifts an exclusion.
    return not any(not is_partial(score) and score > 0
                   for score in (match_score(patient.indication, indication_key(other), [other.text])
                                 for other in lines))


_ROUTES: dict[tuple[int, Patient, str | None], tuple[DosageTree, tuple[str, ...]]] = {}


def routes_for(tree: DosageTree, patient: Patient, asked_route: str | None = None) -> list[str]:
    """Routes that have a regimen line for a patient like this one (route not yet chosen). `asked_route`: the route
    the user named, whose skin application lines count as its regimen (`local_regimen`).

    Remembered per (tree, patient, asked route) as `select` is, for the same reasons (a read-only tree shared across
    turns, a frozen patient): about half the calls of the bench's turn mix are for a drug and patient asked before,
    and one call reads every line of the section (≈ 0.3 ms). Each caller gets its own list."""
    key = (id(tree), patient, asked_route)
    hit = _ROUTES.get(key)
    if hit is None or hit[0] is not tree:
        if len(_ROUTES) >= _SELECTIONS_MAX:
            _ROUTES.clear()
        hit = (tree, tuple(_routes_for(tree, patient, asked_route)))
        _ROUTES[key] = hit
    return list(hit[1])


def _routes_for(tree: DosageTree, patient: Patient, asked_route: str | None) -> list[str]:
    unrouted = Patient(**{**patient.__dict__, "route": None})
    known = patient.age_months is not None or patient.weight_kg is not None
    exclusions = select(tree, unrouted).exclusions
    if any(not line.routes for line in exclusions):
        # An exclusion for this patient on every route ("không khuyến cáo cho trẻ dưới 7 kg"): no route to choose;
        # the answer is the exclusion, whatever the route.
        return []
    # A route on which this patient is excluded ("Uống: … không khuyến cáo cho trẻ dưới 7 kg") is not offered.
    excluded = {r for line in exclusions for r in line.routes}
    lines = list(tree.lines)
    if patient.indication:
        # "Liều aciclovir cho người lớn bị viêm não?": the indication the question names is written under one route
        # only (the infusion's "Viêm não do HSV:"), so that route is the answer's, not a question to ask. Only when
        # the book's lead-ins match it; otherwise every route stays offered.
        lines = _lines_of_indication(tree, patient.indication, unrouted)
    found: list[str] = []
    for line in lines:
        local = local_regimen(line) and (asked_route or patient.route) in line.routes  # (only when the user named it)
        if (line.kind != "regimen" and not refers_to_adult_dose(line) and not local) \
                or not context_admits(line, unrouted):
            # A cross-reference band ("Trẻ em cân nặng > 50 kg: Dùng liều như người lớn") gives its route's adult
            # dose: the route is this patient's.
            continue
        if line.context.neonate and patient.age_months is not None and patient.age_months >= 1 \
                and not _newborn_band_holds(line, unrouted):
            # A newborn's line (by gestation, not asked before the route) is not an older child's route; a newborn
            # block whose own age band holds the infant ("Trẻ sơ sinh cho tới 3 tháng tuổi" at 1 month) is theirs.
            continue
        # Only the dimensions the patient has decide here (a newborn's gestation is not asked before the route):
        # a route whose only lines are other children's age/weight bands is not offered to this one.
        by_age_weight = Band(age_months=line.band.age_months, weight_kg=line.band.weight_kg)
        if known and not by_age_weight.empty and not band_admits(by_age_weight, unrouted, closed=True):
            continue
        found += [r for r in line.routes if r not in found and r not in excluded]
    return found


_LOCAL_ROUTES = frozenset({"topical"})
_HOW_OFTEN = re.compile(r"\b(\d+|mot|hai|ba|bon|nam|sau)( (den|-|hoac) (\d+|mot|hai|ba|bon|nam|sau))? lan"
                        r"( moi| mot| trong| mot)? ?(ngay|/ ?ngay)\b|\bgio (mot|1) lan\b|\bngay (boi|ta|nho) \d+ lan\b")


def local_regimen(line: RegimenLine) -> bool:
    """A skin or mucosa application given by how often, with no amount ("Bôi lên vị trí tổn thương cách 4 giờ một
    lần (5 đến 6 lần mỗi ngày)"): the regimen of that route — the book has no mg for an ointment, and without it the
    ointment route was "not documented" (#17)."""
    return bool(line.routes) and set(line.routes) <= _LOCAL_ROUTES and _HOW_OFTEN.search(fold(line.text)) is not None


_FORM_WORD = re.compile(r"\b(?:gel|kem|thuoc mo|siro|hon dich|dung dich|vien|thuoc dan|thuoc nho|\d+ ?%)")
"""(Folded.) A dosage form in a lead-in ("Gel diclofenac 1%"): the form, not an indication."""


def _lines_of_indication(tree: DosageTree, indication: str, unrouted: Patient) -> list[RegimenLine]:
    """The lines whose routes are offered for the indication asked: that indication's lines (of the patient's band),
    and the lines of routes on which the book does not split this patient's doses by indication at all
    (ciprofloxacin's child infusion line, beside the oral line that names the indications: it still gives that
    indication's dose, so the route is asked, not chosen by the other route's wording). Every line when the book's
    lead-ins do not name the indication.

    A route whose own lead-ins name the indication fully is offered even when another route's lead-in names it with
    more words: the oral "Thủy đậu:" beside the infusion's newborn "Nhiễm VZV:" made the infusion undocumented for a
    1-month-old with varicella (#17) — which words the book uses on each route does not decide the route.

    Only the lines of patients like this one are scored: an adult's "Viêm phổi cộng đồng:" on one route names a
    child's "viêm phổi cộng đồng" better than the child's own "Viêm phổi:" on another, and took the child's route."""
    lines = [line for line in tree.lines if context_admits(line, unrouted)]
    narrowed, matched = narrow_to_indication(lines, indication, unrouted)
    if matched and not any(indication_key(line) and line.kind == "regimen" for line in narrowed):
        # "Thông ống động mạch ở trẻ sơ sinh thiếu tháng: …" written inline on the infusion: that line's route is the
        # indication's (#17 held-out H107 asked a premature baby's route, oral or IV).
        opening = [line for line in lines if _opens_for([line], indication)]
        if opening:
            return opening
    if not (matched and any(indication_key(line) and line.kind == "regimen" for line in narrowed)):
        # An indication no lead-in names ("viêm họng" for an adult on azithromycin): its dose is the general lines'
        # (answered so, under a notice) — a route whose every line is another indication's ("Truyền tĩnh mạch – Người
        # lớn: Viêm phổi mắc phải cộng đồng: …") is not this patient's route to choose (#18 held-out H215 asked oral or
        # IV for a sore throat).
        # (A dosage form's lead-in — "Gel diclofenac 1%:" — is no indication: that route stays.)
        general = {r for line in lines if line.kind == "regimen" and (
            not indication_key(line) or all(is_formulation_label(k) or _FORM_WORD.search(fold(k))
                                            for k in indication_key(line))) for r in line.routes}
        if general:
            return [line for line in lines if not line.routes or set(line.routes) & general]
        return lines
    keyed = {r for line in lines if line.kind == "regimen" and indication_key(line) for r in line.routes}
    # A route whose lines name no indication at all is not offered beside the route whose lead-ins name the one asked:
    # "bé bị giardia, metronidazol bao nhiêu" is the oral "Bệnh do Giardia" lines — the infusion's unsplit "7,5 mg/kg
    # mỗi 8 giờ" is the dose of the infections the book names elsewhere (#18 held-out H108, #17 H105: three blind
    # writers expected the named indication's route; the reply names the route in each line's path, and "tiêm thì
    # sao" asks the other).
    indicated = {r for line in narrowed if line.kind == "regimen" and indication_key(line) for r in line.routes}
    kept = [line for line in narrowed if indication_key(line) or set(line.routes) & indicated
            or (not line.routes and not indicated)]
    named = {r for line in kept if line.kind == "regimen" and indication_key(line) for r in line.routes}
    # A lead-in fully named that is only part of the indication asked ("Phù:" of "phù phổi cấp" — edema, not acute
    # pulmonary edema, whose own lead-in "Phù phổi cấp:" is on the infusion) does not offer its route when another
    # route's lead-in names every word asked (#18 held-out H67 asked oral or IV for acute pulmonary edema).
    asked = indication_words(indication)
    exact = any(asked and asked <= indication_words(" ".join(indication_key(line))) for line in kept
                if line.kind == "regimen" and indication_key(line))
    for route in sorted(keyed - named):
        on_route = [line for line in lines if route in line.routes]
        scores = indication_scores(on_route, indication, unrouted)
        best = max(scores.values(), default=0)
        if best >= FULL:
            kept += [line for line in on_route if scores.get(indication_key(line)) == best and (
                not exact or not indication_words(" ".join(indication_key(line))) < asked)]
    return sorted(set(kept), key=lambda line: line.start)
