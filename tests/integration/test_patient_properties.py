"""Who the patient is (issue #18), as properties of the real embedded engine over the fixture formulary.

- For any conversation that moves to another person, no slot value of the earlier person appears in the frame
  or the reply of the later one (unless the later turn states it itself).
- For any weight in pounds, the weight band the answer shows is the band of its kilogram value.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.runner import Engine
from engine.store import MemoryStore
from states.quantities import LB_KG, fmt
from tests.engine_kit import EngineKit

pytestmark = pytest.mark.integration
PROPERTY = settings(max_examples=80, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    kit = EngineKit(tmp_path_factory.mktemp("patient-data"))
    yield kit.engine(MemoryStore())
    kit.close()


def _talk(engine: Engine, turns: list[str]) -> list:
    cid = None
    replies = []
    for text in turns:
        reply = engine.handle(text, cid)
        cid = reply.conversation_id
        replies.append(reply)
    return replies


# --- persons ----------------------------------------------------------------------------------------------

DOSED = ("paracetamol", "ibuprofen", "clarithromycin", "azithromycin", "amoxicilin")
# A weight with a decimal ("17,3 kg") cannot come from the book's text: seen in a later reply, it was carried.
first_weights = st.integers(min_value=100, max_value=400).map(lambda n: n / 10).filter(lambda w: w % 1)
first_ages = st.integers(min_value=2, max_value=12)
CONTEXT = ("", " bị suy thận", " bị suy gan", " đang bị hen")


@st.composite
def switch_conversations(draw: st.DrawFn) -> tuple[list[str], float, int, str, bool]:
    drug = draw(st.sampled_from(DOSED))
    age, weight = draw(first_ages), draw(first_weights)
    context = draw(st.sampled_from(CONTEXT))
    first = f"liều {drug} cho bé {age} tuổi nặng {fmt(weight)} kg{context} uống"
    later_age = draw(st.one_of(st.none(), st.integers(min_value=1, max_value=15).filter(lambda a: a != age)))
    switch = draw(st.sampled_from((
        "còn em nó{a} thì sao?", "thế mẹ bé{a} uống thì bao nhiêu?", "còn bố nó{a} thì sao?",
        "bà tôi{a} thì sao?", "còn người lớn thì sao?", "thế còn anh nó{a}?",
        # Another child of the household, named by rank or as the family says it.
        "còn đứa lớn{a} thì sao?", "bé thứ 2{a} thì sao?", "con gái lớn nhà tôi{a} thì uống bao nhiêu?",
        "còn đứa sinh đôi của nó thì sao?", "thằng em nó{a} thì sao?", "còn đứa còn lại{a} thì sao?",
    )))
    said_age = "{a}" in switch and later_age is not None
    text = switch.replace("{a}", f" {later_age} tuổi" if said_age else "")
    middle = draw(st.lists(st.sampled_from(("cảm ơn", "uống", "ok", "xin chào", "giá vàng hôm nay", "không biết")),
                           max_size=2))
    return [first, *middle, text], weight, age, context, said_age


@PROPERTY
@given(conversation=switch_conversations())
def test_no_value_of_an_earlier_person_reaches_a_later_one(engine: Engine, conversation) -> None:
    turns, weight, age, context, said_age = conversation
    later = _talk(engine, turns)[-1]
    frame = later.frame or {}
    assert frame.get("weight_kg") != weight, (turns, frame)
    assert said_age or frame.get("age_months") != age * 12, (turns, frame)
    assert not (context and (frame.get("renal") or frame.get("hepatic") or frame.get("comorbidities"))), (turns, frame)
    assert f"{fmt(weight)} kg" not in later.reply, (turns, later.reply)


# --- pounds -----------------------------------------------------------------------------------------------

BAND = re.compile(r"Trẻ (?:dưới )?[\d,]+(?:–[\d,]+)? kg")


def _bands(reply: str) -> set[str]:
    return set(BAND.findall(reply))


@PROPERTY
@given(drug=st.sampled_from(("clarithromycin", "azithromycin")), pounds=st.integers(min_value=18, max_value=99),
       age=st.integers(min_value=6, max_value=11))
def test_a_weight_in_pounds_gets_the_band_of_its_kilograms(engine: Engine, drug: str, pounds: int, age: int) -> None:
    kg = round(pounds * LB_KG, 1)
    in_pounds = _talk(engine, [f"liều {drug} cho bé {age} tuổi nặng {pounds} lbs"])[-1]
    in_kg = _talk(engine, [f"liều {drug} cho bé {age} tuổi nặng {fmt(kg)} kg"])[-1]
    # The same weight either way: kept, or (implausible for the age) asked again in both.
    assert (in_pounds.frame or {}).get("weight_kg") == (in_kg.frame or {}).get("weight_kg")
    assert (in_pounds.frame or {}).get("weight_kg") in (None, pytest.approx(kg))
    assert (in_pounds.outcome, in_pounds.reason) == (in_kg.outcome, in_kg.reason)
    assert _bands(in_pounds.reply) == _bands(in_kg.reply), (pounds, kg, in_pounds.reply, in_kg.reply)
    if in_pounds.outcome == "answerable":
        assert f"{pounds} lbs ≈ {fmt(kg)} kg" in in_pounds.reply


# --- a person's state (pregnancy, breastfeeding, a newborn's gestation) stays theirs ----------------------

@st.composite
def state_switch_conversations(draw: st.DrawFn) -> tuple[list[str], str]:
    drug = draw(st.sampled_from(DOSED))
    state = draw(st.sampled_from(("pregnant", "breastfeeding", "gestation")))
    if state == "gestation":
        first = f"trẻ sơ sinh {draw(st.sampled_from(('đủ tháng', 'thiếu tháng', 'sinh non 32 tuần')))} 3 kg, " \
                f"{draw(st.integers(min_value=2, max_value=20))} ngày tuổi, uống {drug} liều sao"
        switch = draw(st.sampled_from(("còn anh nó {a} tuổi thì sao?", "thế mẹ bé uống thì bao nhiêu?",
                                       "còn chị nó {a} tuổi nặng 20 kg thì sao")))
    else:
        words = "đang mang thai 5 tháng" if state == "pregnant" else "đang cho con bú"
        first = f"vợ tôi {words}, uống {drug} liều bao nhiêu"
        switch = draw(st.sampled_from(("còn bé nhà tôi {a} tuổi thì sao?", "thế bố nó thì sao?",
                                       "còn bà tôi 80 tuổi thì sao?", "còn con tôi {a} tuổi nặng 20 kg thì sao")))
    text = switch.replace("{a}", str(draw(st.integers(min_value=2, max_value=12))))
    middle = draw(st.lists(st.sampled_from(("cảm ơn", "ok")), max_size=1))
    return [first, *middle, text], state


@PROPERTY
@given(conversation=state_switch_conversations())
def test_a_persons_state_does_not_reach_another(engine: Engine, conversation) -> None:
    turns, state = conversation
    frame = _talk(engine, turns)[-1].frame or {}
    if state == "gestation":
        assert not frame.get("gestation"), (turns, frame)
    else:
        assert not frame.get(state), (turns, frame)
