"""Two rules from the session-4 held-out sets (issue 17/18): a disease's phase named in a follow-up replaces the
phase the carried condition named; a preterm band "over N weeks" stops at term."""

from __future__ import annotations

from states.frame import QueryFrame
from states.merge import _phase_now


def test_a_phase_said_in_a_follow_up_replaces_the_phase_the_condition_named() -> None:
    before = QueryFrame(condition="bệnh Kawasaki đang sốt")
    after = _phase_now(before, before, "Bé hết sốt rồi, giai đoạn dưỡng bệnh thì uống bao nhiêu?")
    assert after.condition == "bệnh Kawasaki giai đoạn dưỡng bệnh"
    assert _phase_now(before, before, "hết sốt rồi thì sao").condition == "bệnh Kawasaki giai đoạn hồi phục"
    plain = QueryFrame(condition="bệnh Kawasaki")  # no phase named before: left as it was
    assert _phase_now(plain, plain, "hết sốt rồi thì sao").condition == "bệnh Kawasaki"


def test_a_preterm_band_over_n_weeks_stops_at_term() -> None:
    """"Sơ sinh thiếu tháng trên 32 tuần": preterm and over 32 weeks — a term newborn is not in it."""
    from core.dosage.bands import read_band
    from core.text import fold
    band = read_band(fold("Sơ sinh thiếu tháng trên 32 tuần chỉnh theo tuổi thai")).band.gestation_weeks
    assert band is not None and band.contains(34.0) and not band.contains(39.0) and not band.contains(32.0)
