"""Band phrases that extend a value up or down in words ("35 kg hoặc hơn", "12 tuổi trở xuống").

Read as the single value, "cân nặng 35 kg hoặc hơn" admitted only a child of exactly 35 kg, so a 14-year-old of
40 kg fell in no band and got the general notes instead of their dose (held-out patient set)."""

from __future__ import annotations

import math

import pytest

from core.dosage.bands import read_band
from core.dosage.model import Bound


@pytest.mark.parametrize(("phrase", "weight"), [
    ("cân nặng 35 kg hoặc hơn", Bound(35.0, math.inf, low_open=False)),
    ("cân nặng 35 kg hoặc nhiều hơn", Bound(35.0, math.inf, low_open=False)),
    ("trẻ từ 35 kg trở lên", Bound(35.0, math.inf, low_open=False)),
    ("cân nặng 35 kg hoặc ít hơn", Bound(0.0, 35.0, high_open=False)),
    ("trẻ 35 kg trở xuống", Bound(0.0, 35.0, high_open=False)),
])
def test_a_value_extended_in_words_is_a_half_line(phrase: str, weight: Bound) -> None:
    assert read_band(phrase).band.weight_kg == weight


def test_a_bare_value_stays_that_value() -> None:
    bound = read_band("trẻ nặng 35 kg").band.weight_kg
    assert bound is not None and bound.low == bound.high == 35.0


def test_a_trailing_lead_in_with_qualifiers_heads_the_lines_after_it() -> None:
    """"Bệnh do Giardia, liều theo tuổi, uống một lần mỗi ngày trong 3 ngày:" then age bullets: the bullets are that
    indication's, not the indication's before it (they were read as amoebic dysentery's)."""
    from core.dosage.parse import parse_dosage

    text = ("*Uống – Trẻ em:* Lỵ amip: 35–50 mg/kg/ngày chia 3 lần. Bệnh do Giardia, liều theo tuổi, uống một lần "
            "mỗi ngày trong 3 ngày:\n- Trẻ 1–3 tuổi: 500 mg/ngày.\n- Trẻ 3–7 tuổi: 600–800 mg/ngày.")
    tree = parse_dosage(text)
    banded = [line for line in tree.lines if "tuổi" in line.text]
    assert banded and all(line.context.indication[-1] == "Bệnh do Giardia" for line in banded), [
        (line.path, line.text) for line in banded]
    assert all("Lỵ amip" not in line.path for line in banded)


def test_lên_cơn_names_the_attack_as_the_indication() -> None:
    from states.conditions import condition_in_drug_turn

    assert condition_in_drug_turn("Bé 10 tuổi nặng 45 kg lên cơn hen, uống prednisolon liều bao nhiêu?") == "cơn hen"
    assert condition_in_drug_turn("bé lên 5 tuổi uống prednisolon") is None


def test_who_the_child_is_and_a_temperature_are_not_the_indication() -> None:
    from core.dosage.indication import match_score
    from states.slots import dose_indication

    asked = dose_indication("Bé gái 8 tuổi, nặng 24 kg, sốt 38,8 độ. Uống ibuprofen liều bao nhiêu?", ["ibuprofen"])
    assert asked == "sốt"
    assert match_score("sốt 38,8 độ", ("Giảm đau, hạ sốt",), []) > 0
