"""Whether a newborn's gestation decides the dose and has not been said (the machine's guard `gestation_unknown`).

The book doses newborns by (corrected) gestational age ("Sơ sinh 28 - 37 tuần chỉnh theo tuổi thai: 5 mg/kg cách 8
giờ", "Sơ sinh đủ tháng dưới 1 tháng tuổi: …"), and a newborn whose gestation is unknown is in none of those bands
(core.dosage.model.Band). Left so, the reply showed the one line that did admit the baby — clindamycin's surgical
prophylaxis "Trẻ cân nặng dưới 20 kg: 10 mg/kg một liều" — as a 20-day-old's dose (#18 held-out H117). The rule: when
the lines this patient would be given differ with the gestation, the gestation is asked, as route and indication are
("when the book's doses for this patient differ by it and the user named none, the machine asks"). A gestation said
as a range the book splits ("thiếu tháng" against "28 - 32" and "32 - 37 tuần") is asked again for its weeks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from core.corpus import Chunk
from core.dosage.bands import patient_gestation
from core.dosage.select import select as select_lines
from grounding.dosing_select import trees_by_drug
from states.calculating import patient_of
from states.frame import QueryFrame

NEWBORN_MONTHS_BELOW = 1.0
"""A newborn is in its first month ("Sơ sinh"); an older child's gestation is not asked (a neonatal band that the
parser read with its weeks but no age would otherwise seem to admit a 4-year-old "born at 30 weeks")."""
_PROBE_WEEKS = (23.0, 25.0, 27.0, 29.0, 31.0, 33.0, 35.0, 36.5, 38.0, 41.0)
"""Gestations (weeks) the patient's selection is tried at: one inside each band the book's neonatal tables use
(extremely, very and moderately preterm by two-week steps, late preterm, term, post-term)."""


def gestation_unknown(frame: QueryFrame, evidence: Sequence[Chunk]) -> bool:
    """A newborn's dose question whose dose lines differ by a gestation not said (or said as a range that the book's
    bands split). Only a frame with the age and weight the gate asked first; the route and indication are asked
    before this (the guards before it in the machine)."""
    if frame.turn_type != "dosing_calc" or frame.section_overview or frame.age_months is None \
            or frame.age_months >= NEWBORN_MONTHS_BELOW or frame.weight_kg is None or frame.population != "pediatric":
        return False
    trees = [t for t in trees_by_drug(evidence) if any(line.band.gestation_weeks for line in t.tree.lines)]
    if not trees:
        return False
    weeks, stated = patient_gestation(f"Tuổi thai: {frame.gestation}") if frame.gestation else (None, None)
    if weeks is not None:
        return False
    patient = patient_of(frame)
    probes = [w for w in _PROBE_WEEKS if stated is None or stated.contains(w)]
    seen = {frozenset((t.drug_id, line.start) for t in trees
                      for line in select_lines(t.tree, replace(patient, gestation_weeks=w, gestation=None)).lines
                      if line.kind == "regimen")
            for w in probes}
    return len(seen) > 1
