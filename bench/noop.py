"""No-op work for measuring the engine's orchestration and persistence alone (the LangGraph comparison).

Each provider returns a prepared result at once: the understander a drug-attribute frame, the index one
chunk, the generator a claim that restates that chunk and cites it, the verifier "entailed". What is left
of `Engine.handle` is the engine's own cost per turn: the store read (snapshot + history), the machine run
(every guard traced), the states' own work (frame merge, refusal patterns, the resolver, query synthesis,
the grounding check, reply composition), and one durable commit. That state work is real work LangGraph's
no-op nodes do not do: the like-for-like side of the comparison also swaps the state steps for prepared
updates (bench.noop_states), and this one is reported beside it.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.budget import RequestBudget
from core.corpus import Chunk, DrugNames, ScoredChunk
from grounding.answer import Answer, Claim, EntailmentResult, GenerationRequest
from states.frame import QueryFrame
from states.understander import Understanding, UnderstandingRequest

DRUG = DrugNames(drug_id="paracetamol", name="Paracetamol", aliases=("acetaminophen",))
CHUNK = Chunk(doc_id="paracetamol__chong_chi_dinh__0", drug_id="paracetamol", section_key="chong_chi_dinh",
              text="Người bệnh suy gan nặng.", page=1, drug_title="PARACETAMOL (dữ liệu thử nghiệm)")
FRAME = QueryFrame(turn_type="drug_attribute", drugs=["paracetamol"], section_key="chong_chi_dinh",
                   confidence=1.0, understood_by="rules")
ANSWER = Answer(claims=[Claim(text=CHUNK.text, citations=[CHUNK.doc_id])], generator="noop")


class NoOpUnderstander:
    name = "noop"

    def understand(self, request: UnderstandingRequest, budget: RequestBudget) -> Understanding:
        return Understanding(frame=FRAME)


class NoOpIndex:
    """A FormularyIndex holding one chunk of one drug."""

    def find_by_section(self, drug_id: str, section_key: str) -> list[Chunk]:
        return [CHUNK] if (drug_id, section_key) == (CHUNK.drug_id, CHUNK.section_key) else []

    def find_by_drug(self, drug_id: str) -> list[Chunk]:
        return [CHUNK] if drug_id == CHUNK.drug_id else []

    def search_text(self, query: str, *, section_keys: Sequence[str] | None = None,
                    limit: int = 10) -> list[ScoredChunk]:
        return []

    def search_dense(self, vector: Sequence[float], *, section_keys: Sequence[str] | None = None,
                     limit: int = 10) -> list[ScoredChunk]:
        return []

    def dense_embedder_name(self) -> str | None:
        return None

    def drug_names(self) -> list[DrugNames]:
        return [DRUG]

    def is_synthetic(self) -> bool:
        return False

    def count(self) -> int:
        return 1

    def close(self) -> None:
        pass


class NoOpGenerator:
    name = "noop"
    calls_llm = False

    def generate(self, request: GenerationRequest, budget: RequestBudget) -> Answer:
        return ANSWER

    def repair(self, request: GenerationRequest, answer: Answer, omissions: Sequence[str],
               budget: RequestBudget) -> Answer:
        return ANSWER


class NoOpVerifier:
    name = "noop"
    calls_llm = False

    def verify(self, answer: Answer, evidence: Sequence[Chunk], budget: RequestBudget) -> EntailmentResult:
        return EntailmentResult(ok=True)
