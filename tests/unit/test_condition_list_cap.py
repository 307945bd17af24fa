"""A condition → drug list names at most MAX_LIST_CANDIDATES drugs, and says so when the book names more."""

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
from states.paths import LIST_TRUNCATED_NOTE, MAX_LIST_CANDIDATES, condition_evidence
from states.scripted import ScriptedUnderstander
from tests.unit.machine_kit import AllCandidatesResolver


def _formulary(drugs: int) -> MemoryIndex:
    chunks = [Chunk(doc_id=f"thuoc{i:02d}__chi_dinh__0", drug_id=f"thuoc{i:02d}", section_key="chi_dinh",
                    text="Điều trị sốt rét do Plasmodium falciparum.", page=i + 1) for i in range(drugs)]
    chunks.append(Chunk(doc_id="khac__chi_dinh__0", drug_id="khac", section_key="chi_dinh",
                        text="Điều trị tăng huyết áp.", page=99))
    names = [DrugNames(drug_id=c.drug_id, name=c.drug_id.capitalize()) for c in chunks]
    return MemoryIndex(chunks, names)


FRAME = QueryFrame(turn_type="condition_to_drug", condition="sốt rét", confidence=1.0)


def test_a_condition_stated_by_more_drugs_than_the_cap_lists_the_cap_and_says_the_list_is_partial() -> None:
    evidence, candidates, truncated = condition_evidence(RetrievalService(_formulary(MAX_LIST_CANDIDATES + 3)), FRAME)

    assert len(candidates) == MAX_LIST_CANDIDATES and truncated
    assert {c.drug_id for c in evidence} == set(candidates)


def test_a_condition_stated_by_exactly_the_cap_is_a_complete_list() -> None:
    evidence, candidates, truncated = condition_evidence(RetrievalService(_formulary(MAX_LIST_CANDIDATES)), FRAME)

    assert len(candidates) == MAX_LIST_CANDIDATES and not truncated
    assert "khac" not in candidates


def test_the_partial_list_reply_says_it_is_partial_and_the_complete_one_does_not() -> None:
    def reply(drugs: int) -> str:
        index = _formulary(drugs)
        engine = Engine(spec=build_spec(), understander=ScriptedUnderstander([FRAME]),
                        resolver=AllCandidatesResolver(),  # type: ignore[arg-type]
                        retrieval=RetrievalService(index), generator=ExtractiveGenerator(),
                        verifier=LexicalVerifier(), store=MemoryStore())
        out = engine.handle("Thuốc nào điều trị sốt rét?")
        assert out.outcome == "answerable", (out.reason, out.trace.notes)
        return out.reply

    partial = reply(MAX_LIST_CANDIDATES + 5)
    assert partial.startswith(LIST_TRUNCATED_NOTE)
    assert sum(line.startswith("- ") for line in partial.splitlines()) == MAX_LIST_CANDIDATES
    assert LIST_TRUNCATED_NOTE not in reply(3)
