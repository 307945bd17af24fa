"""Which regimen line the calculator may compute for this patient, and the maxima that bind it.

The calculator is only as safe as the line it is handed. The drug's dosage blocks are read as one section (joined
back exactly as the quoting joins them), and a line is computed only when all of these hold, each for its own
reason (otherwise a refusal, for the trace, and the cited line is shown alone, as without a calculator):
- no block is quarantined (never computed over text that failed extraction);
- the weight is known and plausible for the population;
- the patient has no renal/hepatic context (those lines adjust the dose in words a calculator cannot apply);
- no exclusion line applies to the patient ("Không khuyến cáo cho trẻ dưới 7 kg");
- the line is for this route, this population, this band (age, weight, gestation), and, when it is under an
  indication lead-in, for the indication the user named; a neonatal line only for a neonate, and a child's line
  for a neonate only when its own paragraph caps neonates;
- exactly one weight-based line applies (two — "liều thử …; sau đó …" — is never settled by guess);
- its rule is read with certainty, in mg per kg (not mcg/g/IU per kg; a dose per m² is out of scope and the
  reply says so);
- every dose number on the line and on its ceiling lines is understood (the rule or a maximum placed per dose
  or per day): a cap the parser did not read ("… hoặc 100 mg/ngày", "không vượt quá liều người lớn") stops the
  calculation rather than letting an unread maximum pass;
- the line and each ceiling sit in one block, so each can be cited as an exact span.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from core.corpus import Chunk
from core.dosage.lines import dose_quantities, maxima, rule
from core.dosage.model import Band, Bound, Maximum, Patient, RegimenLine, Rule
from core.dosage.select import routes_for
from core.dosage.select import select as select_lines
from core.text import fold
from grounding.calculator import Ceiling, Span
from grounding.dosing_select import SectionTree, section_tree

DOSING_SECTION = "lieu_luong_cach_dung"
MIN_WEIGHT_KG = 0.4
MAX_WEIGHT_KG = {"pediatric": 150.0, "adult": 250.0}
NEONATE_MONTHS = 1.0
_MAX_CUE = re.compile(r"\b(toi da|khong (duoc )?(qua|vuot qua|vuot)|khong (tiem|truyen|dung) (vuot )?qua)\b")
_DOSES_CAP = re.compile(r"\b(toi da|khong qua|khong vuot qua) (\d+) lan( trong| moi|/| /) ?(24 gio|ngay)\b")
_NOT_MG = re.compile(r"\b(mcg|microgam|µg|ug|g|ui|iu|don vi)/(kg|m2|m²)\b|/m2\b|/m²")
_BODY_SURFACE = re.compile(r"\b(mg|mcg|g|microgam)/m(2|²)\b|\b(mg|mcg|g)/m²")
BODY_SURFACE_REFUSAL = "dose per body surface area (mg/m²)"
# More than one frequency on a line ("mỗi 8 giờ hoặc mỗi 12 giờ", "một lần mỗi ngày hoặc chia 2 lần"): the
# split of a daily dose is not a reading of the text.
_FREQUENCY = re.compile(r"\b(chia( lam| thanh)? \d|\d+(\s*[-–]\s*\d+)? lan\s*/\s*(ngay|24 gio)|(moi|cach|cu)( nhau)?"
                        r"( khoang)? \d+(\s*[-–]\s*\d+)?\s*gio|(mot|hai|ba|bon) lan (moi|mot|trong|/) ?ngay)")


@dataclass(frozen=True)
class Selected:
    """A line the calculator may compute, with everything it needs."""

    chunk: Chunk
    line: RegimenLine
    rule: Rule
    """`rule_of(line.text)`: what the derivation check re-reads from the cited text."""
    span: Span
    ceilings: tuple[Ceiling, ...]
    frequency_certain: bool
    frequency_shown: str


@lru_cache(maxsize=256)
def _section(blocks: tuple[tuple[str, str, str, bool, str], ...]) -> SectionTree:
    """One drug's dosage blocks joined back into the section and parsed (cached: the guard and the step read the
    same blocks). The join is the quoting's own (`dosing_select.section_tree`), so both read the same tree."""
    return section_tree([Chunk(doc_id=d, drug_id=drug, section_key=DOSING_SECTION, text=text, continues=continues,
                               drug_title=title) for d, drug, text, continues, title in blocks])


def weight_plausible(weight_kg: float | None, population: str | None) -> bool:
    if weight_kg is None or population not in MAX_WEIGHT_KG:
        return False
    return MIN_WEIGHT_KG <= weight_kg <= MAX_WEIGHT_KG[population]


def _bound_has(bound: Bound | None, value: float | None, *, closed: bool) -> bool:
    if bound is None:
        return True
    return value is not None and bound.contains(value, closed=closed)


def band_contains(band: Band, patient: Patient, *, closed: bool = False) -> bool:
    """Every dimension the band states is known for the patient and holds them (an unknown value is in no band)."""
    if band.renal_ml_min is not None or band.hepatic is not None:
        return False  # never computed for a renal/hepatic band (the calculator refuses those patients anyway)
    return (_bound_has(band.age_months, patient.age_months, closed=closed)
            and _bound_has(band.weight_kg, patient.weight_kg, closed=closed)
            and _bound_has(band.gestation_weeks, patient.gestation_weeks, closed=closed))


def _for_route(line: RegimenLine, route: str | None) -> bool:
    return bool(line.routes) and (route is None or route in line.routes)


def _for_indication(line: RegimenLine, condition: str | None) -> bool:
    if not line.context.indication:
        return True
    if not condition:
        return False  # a line for one indication is not this patient's without that indication named
    wanted = fold(condition)
    return any(wanted in fold(i) or fold(i) in wanted for i in line.context.indication)


def _for_age_group(line: RegimenLine, patient: Patient) -> bool:
    neonate = patient.age_months is not None and patient.age_months < NEONATE_MONTHS
    if line.context.neonate == neonate:
        return True
    # Across the neonatal divide only when the band itself names the patient's age ("trẻ dưới 3 tháng tuổi").
    return line.band.age_months is not None and band_contains(line.band, patient, closed=True)


def _is_prefix(outer: tuple[str, ...], inner: tuple[str, ...]) -> bool:
    return inner[: len(outer)] == outer


def _applies(line: RegimenLine, patient: Patient, *, closed: bool) -> bool:
    return (line.population == patient.population and _for_route(line, patient.route)
            and _for_indication(line, patient.indication) and not line.context.renal and not line.context.hepatic
            and _for_age_group(line, patient) and band_contains(line.band, patient, closed=closed))


def _neonate(patient: Patient) -> bool:
    return patient.age_months is not None and patient.age_months < NEONATE_MONTHS


def _understood(text: str, has_rule: bool) -> bool:
    """Every dose number of the line is the rule or a maximum the parser read (a doses-a-day cap has no dose)."""
    return len(dose_quantities(text)) == int(has_rule) + len([m for m in maxima(text) if m.kind != "doses_per_day"])


@lru_cache(maxsize=4096)
def as_written(text: str, folded: str) -> str:
    """The span of `text` whose folded form is `folded` ('moi 4–6 gio' → 'mỗi 4–6 giờ'); `folded` if none.

    Cached (a pure function of its strings): the search folds every short substring of the line, and the
    calculator's selection and the derivation check ask it for the same line."""
    parts = [p for p in folded.split(", ") if p]
    found: list[str] = []
    for part in parts:
        hit = next((text[i:j] for i in range(len(text)) for j in range(i + len(part), min(len(text), i + len(part) + 8) + 1)
                    if fold(text[i:j]) == part), None)
        found.append((hit or part).strip())
    return ", ".join(found)


def doses_cap(text: str) -> tuple[Maximum, ...]:
    """'không quá 4 lần trong 24 giờ' / 'tối đa 3 lần/ngày' as a doses-a-day maximum (when the parser has none)."""
    if any(m.kind == "doses_per_day" for m in maxima(text)):
        return ()
    m = _DOSES_CAP.search(fold(text))
    if m is None:
        return ()
    n = float(m.group(2))
    return (Maximum("doses_per_day", n, n, "lan/ngay", m.group(0)),)


@lru_cache(maxsize=16_384)
def line_maxima(text: str) -> tuple[Maximum, ...]:
    """Every maximum a line states that the calculator reads: the parser's, and a doses-a-day cap (cached: a pure
    function of the line, read for every line of the section and for every candidate line's ceilings)."""
    return (*maxima(text), *doses_cap(text))


def frequency_certain(text: str) -> bool:
    """The line states one frequency ("mỗi 8 giờ hoặc mỗi 12 giờ" states two: the split is not computed)."""
    folded = fold(text)
    return len(_FREQUENCY.findall(folded)) <= 1 and " hoac " not in folded


def rule_of(text: str) -> Rule | None:
    """The line's rule as the calculator reads it; the derivation check re-reads a cited line with this same function.

    "tối đa 3 lần/ngày" states the most doses a day, not the number: 1 to 3."""
    parsed = rule(text)
    if parsed is None or parsed.doses_per_day is None:
        return parsed
    folded = fold(text)
    at = folded.find(parsed.frequency_text) if parsed.frequency_text else -1
    if at > 0 and re.search(r"(toi da|khong qua)\s*$", folded[:at]):
        return replace(parsed, doses_per_day=(1.0, parsed.doses_per_day[1]),
                       frequency_text=f"{folded[:at].split()[-2]} {folded[:at].split()[-1]} {parsed.frequency_text}")
    return parsed


def _has_unread_maximum(line: RegimenLine) -> bool:
    """A 'tối đa' / 'không vượt quá' not read as a number ("Không vượt quá liều người lớn")."""
    return bool(_MAX_CUE.search(fold(line.text))) and not line_maxima(line.text)


def select(evidence: Sequence[Chunk], patient: Patient) -> tuple[list[Selected], list[str]]:
    """The lines the calculator may compute for this patient, and why any other weight-based line was refused.

    The lines of every dosage block of the evidence are read together: a neonatal cap may sit in its own
    labelled block ("*Uống – Trẻ sơ sinh:* … trẻ dưới 3 tháng tuổi: tối đa 30 mg/kg/ngày").
    """
    if not weight_plausible(patient.weight_kg, patient.population):
        return [], ["weight missing or implausible"]
    if patient.renal or patient.renal_ml_min is not None or patient.hepatic is not None:
        return [], ["renal or hepatic context: the adjustment is in words, not computed"]
    refused: list[str] = []
    blocks = [c for c in evidence if c.section_key == DOSING_SECTION]
    quarantined = [c for c in blocks if c.has_quarantined_content or "<!-- QUARANTINED" in c.text]
    if quarantined:
        return [], [f"{quarantined[0].doc_id}: quarantined block"]
    section = _section(tuple((c.doc_id, c.drug_id, c.text, c.continues, c.drug_title) for c in blocks))
    if patient.route is None and patient.indication:
        # The indication asked is dosed on one route for this patient: that route's lines, as the answer quotes them
        # (grounding.extractive) — the infusion's "7,5 mg/kg mỗi 8 giờ" beside the oral "Bệnh do Giardia" lines was
        # computed while the giardia line was quoted (session 16).
        own = routes_for(section.tree, patient)
        if len(own) == 1:
            patient = replace(patient, route=own[0])
    # Each line is read in the whole section (a paragraph cut across blocks is joined back, as the quoting does)
    # and cited in the one block that holds it; a line across two blocks has no span and is never computed.
    placed: list[tuple[Chunk, RegimenLine]] = []
    spans: dict[int, Span] = {}
    paragraph: dict[str, int] = {}
    for i, (_, _, c) in enumerate(section.spans):
        paragraph[c.doc_id] = paragraph[section.spans[i - 1][2].doc_id] if i and c.continues else i
    for line in section.tree.lines:
        holders = [(start, c) for start, end, c in section.spans if start <= line.start and line.end <= end]
        if holders:
            start, c = holders[0]
            spans[id(line)] = Span(doc_id=c.doc_id, start=line.start - start, end=line.end - start, text=line.text)
            placed.append((c, line))
        else:
            placed.append((section.chunks_at(line.start, line.end)[0], line))
    excluded = [line for _, line in placed if line.kind == "exclusion" and line.population == patient.population
                and (not line.routes or _for_route(line, patient.route))
                and not line.band.empty and band_contains(line.band, patient, closed=True)]
    if excluded:
        return [], [f"excluded for this patient: «{excluded[0].text}»"]
    regimen = [(c, line) for c, line in placed if line.kind == "regimen"]
    weight_based = [(c, line) for c, line in regimen if line.rule is not None and line.rule.kind != "fixed"]
    # The neonate's own age stands in for an unbanded child's line only through `speaks_to_neonates` below.
    def speaks_to_neonates(line: RegimenLine) -> bool:
        # A child's line computed for a neonate only when its own paragraph caps neonates ("Trẻ sơ sinh: không
        # vượt quá 50 mg/kg/ngày"): the text then says the line is for them too, within that cap.
        return any(other.context.neonate and other.path == line.path and line_maxima(other.text)
                   and band_contains(other.band, patient, closed=True) for _, other in placed)

    def applies(line: RegimenLine, closed: bool) -> bool:
        if _applies(line, patient, closed=closed):
            return True
        relaxed = replace(patient, age_months=None) if _neonate(patient) and line.band.age_months is None else None
        return relaxed is not None and not line.context.neonate and speaks_to_neonates(line) and _applies(
            line, replace(relaxed, age_months=NEONATE_MONTHS), closed=closed)

    surface = [line for _, line in regimen if _BODY_SURFACE.search(fold(line.text)) and applies(line, True)]
    if surface:
        # mg/m² needs a body surface area the frame never holds: out of scope, and the reply says so.
        return [], [f"{BODY_SURFACE_REFUSAL}: «{surface[0].text}»"]
    # Only a line the answer shows the patient (core.dosage.select) is computed: the closed reading below once
    # admitted "Trẻ cân nặng dưới 25 kg … 60 - 130 mg/kg/ngày" for a 25 kg child, whose own band ("trẻ nặng hơn …
    # 2,4 - 3,6 g/ngày") is a fixed dose and so not among the weight-based lines this step compares.
    shown = {id(line) for line in select_lines(section.tree, patient).lines}
    weight_based = [(c, line) for c, line in weight_based if id(line) in shown]
    chosen = [(c, line) for c, line in weight_based if applies(line, False)]
    if not chosen:
        chosen = [(c, line) for c, line in weight_based if applies(line, True)]
    if patient.indication and len(chosen) > 1:
        # The indication the user named picks its own line over the general one ("Viêm màng não: 100 mg/kg/ngày").
        specific = [(c, line) for c, line in chosen if line.context.indication]
        chosen = specific or chosen
    if len(chosen) > 1 and len({(line.rule.kind, line.rule.low, line.rule.high, line.rule.unit)
                                for _, line in chosen if line.rule is not None}) == 1:
        # One rule said twice — a list's heading restating its band's dose ("50–80 mg/kg/ngày, … chia 2 lần …; không
        # quá 4 g/ngày:" over "Trẻ 1 tháng tuổi – 12 tuổi, …: 50–80 mg/kg/ngày"): the line that also says how often
        # and how much at most is computed.
        chosen = [max(chosen, key=lambda cl: (cl[1].rule is not None and cl[1].rule.doses_per_day is not None,
                                               len(line_maxima(cl[1].text))))]
    if len(chosen) > 1:
        # Two weight-based rules for one patient ("liều thử …; sau đó …", two routes, two indications): never by
        # guess.
        return [], ["several weight-based rules apply: " + " | ".join(line.text for _, line in chosen)]
    selected: list[Selected] = []
    for chunk, line in chosen:
        parsed = rule_of(line.text)
        if _NOT_MG.search(fold(line.text)):
            # "100 mcg/kg": the amount would be shown in mg beside a line written in mcg — a unit slip waiting to
            # happen at the bedside. The cited line alone.
            refused.append(f"«{line.text}»: written in another unit than mg")
            continue
        if parsed is None:
            refused.append(f"«{line.text}»: rule not read with certainty")
            continue
        ceiling_lines = [(c, other) for c, other in placed if other.kind != "exclusion" and line_maxima(other.text)
                         and (other is line or (
            other.rule is None and other.population == line.population and other.routes == line.routes
            and _is_prefix(other.path, line.path) and band_contains(other.band, patient, closed=True)
            and (_for_age_group(other, patient) or _neonate(patient)) and not other.context.renal and not other.context.hepatic
            and _for_indication(other, patient.indication)))]
        unread = [other for c, other in placed if paragraph[c.doc_id] == paragraph[chunk.doc_id] and other is not line
                  and other.population in (None, line.population) and other.routes in ((), line.routes)
                  and band_contains(other.band, patient, closed=True)
                  and (_has_unread_maximum(other) or (other.maxima and not _understood(other.text, other.rule
                                                                                       is not None)))]
        if not _understood(line.text, True) or _has_unread_maximum(line) or unread:
            refused.append(f"a maximum on «{(unread or [line])[0].text}» is not read as a number: not computed")
            continue
        unplaced = [other for _, other in [(chunk, line), *ceiling_lines] if id(other) not in spans]
        if unplaced:
            refused.append(f"«{unplaced[0].text}» runs across two blocks: not cited as one line, not computed")
            continue
        ceilings = tuple(Ceiling(m, spans[id(other)]) for _, other in ceiling_lines for m in line_maxima(other.text))
        unplaceable = [c for c in ceilings if c.maximum.kind == "absolute"]
        if unplaceable:
            # "tối đa 6,25 mg": per dose or per day is not stated, so it cannot be applied, so nothing is computed.
            refused.append(f"maximum «{unplaceable[0].span.text}» is not stated per dose or per day")
            continue
        selected.append(Selected(chunk, line, parsed, spans[id(line)], ceilings, frequency_certain(line.text),
                                 as_written(line.text, parsed.frequency_text)))
    return selected, refused
