"""A condition → drug list for a child quotes, under a listed drug, the exclusion the book writes only in that drug's
dosage section ("không dùng cho trẻ dưới 2 tuổi") when the child's age is in it — and no dose of that section."""

from __future__ import annotations

from core.corpus import Chunk, DrugNames
from engine.runner import Engine
from engine.spec import build_spec
from engine.store import MemoryStore
from grounding.extractive import ExtractiveGenerator
from grounding.lexical import LexicalVerifier
from retrieval.memory_index import MemoryIndex
from retrieval.service import RetrievalService
from states.frame import QueryFrame
from states.scripted import ScriptedUnderstander
from tests.unit.machine_kit import AllCandidatesResolver

CHUNKS = [
    Chunk(doc_id="dextromethorphan__chi_dinh__0", drug_id="dextromethorphan", section_key="chi_dinh",
          text="Giảm ho khan.", page=10, drug_title="DEXTROMETHORPHAN"),
    Chunk(doc_id="dextromethorphan__lieu_luong_cach_dung__0", drug_id="dextromethorphan",
          section_key="lieu_luong_cach_dung", page=11, drug_title="DEXTROMETHORPHAN",
          text="*Uống – Trẻ em:*\n- Trẻ 6–12 tuổi: 15 mg/lần, mỗi 6–8 giờ.\n- Không dùng cho trẻ dưới 2 tuổi."),
]
NAMES = [DrugNames(drug_id="dextromethorphan", name="Dextromethorphan")]


def _reply(age_months: float) -> str:
    frame = QueryFrame(turn_type="condition_to_drug", condition="ho", population="pediatric", age_months=age_months,
                       confidence=1.0)
    engine = Engine(spec=build_spec(), understander=ScriptedUnderstander([frame]),
                    resolver=AllCandidatesResolver(),  # type: ignore[arg-type]
                    retrieval=RetrievalService(MemoryIndex(CHUNKS, NAMES)), generator=ExtractiveGenerator(),
                    verifier=LexicalVerifier(), store=MemoryStore())
    out = engine.handle("Bé bị ho thì dùng thuốc gì?")
    assert out.outcome == "answerable", (out.reason, out.trace.notes)
    return out.reply


def test_a_one_year_olds_cough_list_says_the_drug_is_not_for_under_two_beside_it_and_gives_no_dose() -> None:
    reply = _reply(12)
    assert "Giảm ho khan" in reply and "⚠" in reply and "Không dùng cho trẻ dưới 2 tuổi" in reply
    assert "15 mg" not in reply


def test_an_eight_year_olds_cough_list_has_no_exclusion_and_no_dose() -> None:
    reply = _reply(8 * 12)
    assert "Giảm ho khan" in reply and "⚠" not in reply and "15 mg" not in reply
