"""An indication line of another age band, or of another population, is never scored for this patient (issue 17):
the indication words of a line the patient cannot be given do not decide which of their own lines they get, nor
their route. When the book doses the indication asked for other bands only, the patient is told so, with those
bands' words and no dose.

Synthetic sections in the book's shape (own sentences, own numbers); a property over the fixture's and the real
text's dosage trees."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from core.budget import RequestBudget
from core.corpus import Chunk
from core.dosage.model import Bound, Patient, RegimenLine
from core.dosage.parse import parse_dosage
from core.dosage.select import admits, indication_key, indication_matches, routes_for, select
from grounding.answer import GenerationRequest
from grounding.extractive import OTHER_BAND_PREAMBLE, ExtractiveGenerator
from grounding.verify import verify_grounding
from states.conditions import condition_in_drug_turn
from tests.unit.test_dosage_selection_properties import _trees

ADULT_WORDS_CLOSER = ("Uống: Người lớn: Viêm phổi cộng đồng: 500 mg/lần, 3 lần/ngày. "
                      "Tiêm tĩnh mạch: Trẻ em: Viêm phổi: 20 mg/kg/lần, cách 8 giờ/lần. "
                      "Uống: Trẻ em: Viêm tai giữa: 15 mg/kg/lần, 2 lần/ngày.")
YOUNGER_ONLY = ("Uống: Bệnh X: Viêm tim: Người lớn: 300 mg/lần, 3 lần/ngày. Trẻ em dưới 8 tuổi: 40 mg/kg/ngày chia 3 lần. "
                "Viêm khớp do bệnh X: Người lớn: 300 mg/lần, 3 lần/ngày. Trẻ em: 40 mg/kg/ngày chia 3 lần.")
CHILD = dict(population="pediatric", age_months=60.0, weight_kg=18.0)
CHILD_10Y = dict(population="pediatric", age_months=120.0, weight_kg=30.0)


def test_an_adults_lead_in_that_names_the_childs_indication_better_does_not_take_the_childs_route() -> None:
    tree = parse_dosage(ADULT_WORDS_CLOSER)
    patient = Patient(**CHILD, indication="viêm phổi cộng đồng")  # type: ignore[arg-type]
    assert routes_for(tree, patient) == ["iv"]


def test_an_adults_lead_in_that_names_the_childs_indication_better_does_not_take_the_childs_dose() -> None:
    tree = parse_dosage(ADULT_WORDS_CLOSER)
    shown = " ".join(line.text for line in select(tree, Patient(**CHILD, route="iv",  # type: ignore[arg-type]
                                                                  indication="viêm phổi cộng đồng")).lines)
    assert "20 mg/kg/lần" in shown and "500 mg" not in shown


def test_an_indication_dosed_for_younger_children_only_gives_an_older_child_its_band_and_no_dose() -> None:
    selection = select(parse_dosage(YOUNGER_ONLY), Patient(**CHILD_10Y, route="oral",  # type: ignore[arg-type]
                                                           indication="bệnh X viêm tim"))
    assert [line.text.split(":")[0] for line in selection.other_bands] == ["Trẻ em dưới 8 tuổi"]
    assert not [line for line in selection.lines if line.kind == "regimen"]


def test_the_same_indication_gives_a_child_of_its_band_that_bands_dose() -> None:
    selection = select(parse_dosage(YOUNGER_ONLY), Patient(**CHILD, route="oral",  # type: ignore[arg-type]
                                                           indication="bệnh X viêm tim"))
    assert not selection.other_bands
    assert [line.text for line in selection.lines if line.kind == "regimen"] == ["Trẻ em dưới 8 tuổi: 40 mg/kg/ngày chia 3 lần."]


def test_the_answer_quotes_the_other_bands_words_under_a_notice_and_no_dose() -> None:
    chunk = Chunk(doc_id="x__lieu_luong_cach_dung__1", drug_id="x", section_key="lieu_luong_cach_dung",
                  text=YOUNGER_ONLY)
    request = GenerationRequest(query="liều", evidence=[chunk], section_key="lieu_luong_cach_dung", drug_ids=["x"],
                                route="oral", condition="bệnh X viêm tim", **CHILD_10Y)  # type: ignore[arg-type]
    answer = ExtractiveGenerator().generate(request, RequestBudget())
    text = " ".join(c.text for c in answer.claims)
    assert OTHER_BAND_PREAMBLE in answer.preamble
    assert "dưới 8 tuổi" in text and "mg" not in text
    assert verify_grounding(answer, [chunk], request=request).ok


# --- property: a patient with a line of their own for the indication asked is given a dose --------------------

def _child_lines() -> list[tuple[int, RegimenLine]]:
    return [(i, line) for i, tree in enumerate(_trees()) for line in tree.lines
            if line.kind == "regimen" and line.population == "pediatric" and indication_key(line)
            and not line.context.neonate and not line.context.renal and not line.context.hepatic]


def _within(bound: Bound | None, low: float, high: float) -> st.SearchStrategy[float]:
    if bound is None:
        return st.floats(min_value=low, max_value=high)
    top = min(bound.high, high)
    return st.floats(min_value=max(bound.low, low), max_value=max(top, max(bound.low, low)))


@st.composite
def children_of_a_line(draw: st.DrawFn) -> tuple[int, Patient]:
    """A child whom a child's indication line of one of the trees is for, asking for an indication of that tree."""
    lines = _child_lines()
    assume(lines)
    index, line = draw(st.sampled_from(lines))
    age = draw(_within(line.band.age_months, 1, 18 * 12 - 1))
    weight = draw(_within(line.band.weight_kg, 3, 80))
    # The line's own route: with no route, the engine asks it when the indication is dosed on several (routes_for).
    routes: list[str | None] = list(line.routes) or [None]
    route = draw(st.sampled_from(routes))
    # Any lead-in of the section: one of another band may name the child's indication better than their own does.
    labels = sorted({label for other in _trees()[index].lines for label in indication_key(other)})
    asked = draw(st.sampled_from(labels))
    return index, Patient(population="pediatric", age_months=age, weight_kg=weight, route=route, indication=asked)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(child=children_of_a_line())
def test_a_child_with_a_line_of_their_band_for_the_indication_asked_is_never_left_without_a_dose(
        child: tuple[int, Patient]) -> None:
    # Another band's lines under a better-matching lead-in (a newborn's "Nhiễm VZV:" for a 5-year-old's varicella)
    # once took the indication, and the child was shown only the notes.
    index, patient = child
    tree = _trees()[index]
    indication = patient.indication or ""
    own = [line for line in tree.lines if line.kind == "regimen" and admits(line, patient)
           and indication_matches(line, indication) and not line.context.neonate]
    assume(own)
    selection = select(tree, patient)
    assume(not selection.exclusions)
    assert any(line.kind == "regimen" for line in selection.lines), (indication, [line.text[:60] for line in own])
    assert not selection.other_bands


# --- an indication the book doses for the other population only -----------------------------------------------

ADULT_ONLY = ("Uống: Nhiễm khuẩn tai: Người lớn: 500 mg/lần, 3 lần/ngày. Trẻ em: 30 mg/kg/ngày chia 3 lần. "
              "Nhiễm vi khuẩn W: Người lớn: 1 g/lần, 2 lần/ngày trong 7 ngày.")


def test_an_indication_dosed_for_adults_only_gives_a_child_that_lead_in_and_no_dose() -> None:
    selection = select(parse_dosage(ADULT_ONLY), Patient(**CHILD_10Y, route="oral",  # type: ignore[arg-type]
                                                         indication="nhiễm vi khuẩn W"))
    assert [line.path[-1] for line in selection.other_bands] == ["Người lớn"]
    assert not [line for line in selection.lines if line.kind == "regimen"]
    assert not selection.indication_unmatched  # nothing to ask: the book names the indication, for adults only


def test_a_child_whose_indication_the_book_does_not_name_is_still_asked_or_shown_under_the_notice() -> None:
    selection = select(parse_dosage(ADULT_ONLY), Patient(**CHILD_10Y, route="oral",  # type: ignore[arg-type]
                                                         indication="viêm màng não"))
    assert not selection.other_bands


def test_an_abbreviated_genus_is_part_of_the_indication_named() -> None:
    # "H. pylori": cut at its full stop, the indication was "nhiễm H" and the child was asked which of the book's
    # other indications they meant.
    assert condition_in_drug_turn("Trẻ 8 tuổi nặng 25 kg bị nhiễm H. pylori, liều amoxicilin uống?") == "nhiễm H. pylori"
    assert condition_in_drug_turn("Bé bị sốt. Liều paracetamol?") == "sốt"
