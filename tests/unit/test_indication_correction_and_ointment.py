"""A corrected indication replaces the one carried; an ointment's how-often lines are its route's regimen (#17)."""

from __future__ import annotations

from core.dosage.model import Patient
from core.dosage.parse import parse_dosage
from core.dosage.select import local_regimen, routes_for
from states.next_indication import corrected_indication_text
from states.slots import dose_indication

# Synthetic, in the real book's shape (numbers changed).
SECTION = (
    "Uống: Zona: Người lớn, 700 mg/lần, 5 lần/ngày. Thủy đậu: Người lớn, 700 mg/lần, 4 lần/ngày. "
    "Thuốc mỡ: Cách dùng thuốc mỡ: Bôi lên vị trí tổn thương cách 4 giờ một lần (5 đến 6 lần mỗi ngày)."
)
CHILD = Patient(population="pediatric", age_months=60, weight_kg=18)


def test_the_denied_indication_is_not_the_new_one() -> None:
    rest = corrected_indication_text("à nhầm, là thủy đậu chứ không phải zona")
    assert rest is not None and dose_indication(rest, []) == "thủy đậu"


def test_a_denial_first_names_the_new_indication_after_it() -> None:
    rest = corrected_indication_text("không phải zona, bé bị thủy đậu")
    assert rest is not None and dose_indication(rest, []) == "thủy đậu"


def test_a_turn_that_corrects_nothing_is_no_correction() -> None:
    assert corrected_indication_text("còn thủy đậu thì sao") is None


def test_an_ointment_line_is_the_regimen_of_the_route_named() -> None:
    tree = parse_dosage(SECTION)
    assert any(local_regimen(line) for line in tree.lines)
    assert "topical" in routes_for(tree, CHILD, asked_route="topical")


def test_an_ointment_is_never_offered_when_no_one_asked_for_it() -> None:
    assert "topical" not in routes_for(parse_dosage(SECTION), CHILD)
