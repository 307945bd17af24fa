"""Shared pieces for the Claude adapter tests: a tiny formulary, an Engine builder, recorded-shape replies."""

from __future__ import annotations

from collections.abc import Sequence

from core.budget import RequestBudget
from core.corpus import Chunk, DrugNames
from engine.runner import Engine
from engine.spec import MachineSpec, build_spec
from engine.store import MemoryStore
from grounding.anthropic_adapter import ClaudeClient
from grounding.claude_generator import ClaudeGenerator
from grounding.claude_verifier import ClaudeVerifier
from grounding.fake_messages import Cite, FakeMessages, TextReply, ToolReply, cited
from retrieval.memory_index import MemoryIndex
from retrieval.resolver import Candidate, ResolverResult
from retrieval.service import RetrievalService
from states.claude_understander import ClaudeUnderstander
from states.frame import QueryFrame
from states.understander import Understander, Understanding, UnderstandingRequest

ADULT_ORAL = "paracetamol__lieu_luong_cach_dung__0"
ADULT_RECTAL = "paracetamol__lieu_luong_cach_dung__1"
QUARANTINED = "paracetamol__lieu_luong_cach_dung__2"


def _c(n: int, text: str, section: str = "lieu_luong_cach_dung", quarantined: bool = False) -> Chunk:
    return Chunk(doc_id=f"paracetamol__{section}__{n}", drug_id="paracetamol", section_key=section, text=text,
                 page=120 + n, has_quarantined_content=quarantined, drug_title="PARACETAMOL (Acetaminophen)")


CHUNKS = [
    _c(0, "*Uống – Người lớn:* 500 mg – 1 g mỗi 4–6 giờ. Tối đa 4 g/ngày."),
    _c(1, "*Đặt trực tràng – Người lớn:* 650 mg mỗi 4–6 giờ."),
    _c(0, "Suy gan nặng. Quá mẫn với paracetamol.", section="chong_chi_dinh"),
]
QUARANTINED_CHUNK = _c(2, "<!-- QUARANTINED: bảng liều -->| BẢNG-HỎNG-XYZ | 999 mg |", quarantined=True)
NAMES = [DrugNames(drug_id="paracetamol", name="Paracetamol", aliases=("acetaminophen",), brands=("Panadol",))]


class ParacetamolResolver:
    """The resolver bound: paracetamol is the only candidate of every turn."""

    def resolve(self, text: str) -> ResolverResult:
        return ResolverResult(candidates=[Candidate(drug_id="paracetamol", matched="Paracetamol",
                                                    span="paracetamol", score=100)])


class FixedRules:
    """A tiny stand-in for the rules understander: one frame, one confidence, no call."""

    name = "rules"

    def __init__(self, frame: QueryFrame) -> None:
        self.frame = frame
        self.calls = 0

    def understand(self, request: UnderstandingRequest, budget: RequestBudget) -> Understanding:
        self.calls += 1
        return Understanding(frame=self.frame)


def client_for(fake: FakeMessages, *, read_timeout_s: float = 20.0) -> ClaudeClient:
    return ClaudeClient.from_settings(
        api_key="test-key", base_url="http://fake-anthropic.invalid", model="claude-test", max_tokens=1024,
        read_timeout_s=read_timeout_s, max_attempts=2, http_client=fake.http_client(),
    )


def claude_engine(client: ClaudeClient, *, understander: Understander | None = None,
                  spec: MachineSpec | None = None, chunks: Sequence[Chunk] = CHUNKS,
                  names: Sequence[DrugNames] = NAMES) -> Engine:
    return Engine(
        spec=spec or build_spec(),
        understander=understander or ClaudeUnderstander(client),
        resolver=ParacetamolResolver(),  # type: ignore[arg-type]
        retrieval=RetrievalService(MemoryIndex(list(chunks), list(names))),
        generator=ClaudeGenerator(client),
        verifier=ClaudeVerifier(client),
        store=MemoryStore(),
    )


def frame_reply(**fields: object) -> ToolReply:
    """The understanding tool call, as the API returns it."""
    return ToolReply(input=dict(fields))


ADULT_ORAL_FRAME = {"turn_type": "dosing_calc", "drugs": ["paracetamol"], "section_key": "lieu_luong_cach_dung",
                    "population": "adult", "route": "oral"}


def adult_oral_answer() -> TextReply:
    """A citations reply restating the adult oral sentence, as the system prompt asks (no preamble)."""
    return TextReply((cited("Người lớn uống 500 mg – 1 g mỗi 4–6 giờ.", Cite(source=ADULT_ORAL, contains="500 mg")),))
