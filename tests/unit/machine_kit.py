"""A small, hand-written formulary and an Engine builder for machine-level unit tests."""

from __future__ import annotations

from collections.abc import Sequence

from core.budget import Clock, RequestBudget, monotonic_ms
from core.corpus import Chunk, DrugNames
from engine.runner import Engine
from engine.spec import MachineSpec, build_spec
from engine.store import MemoryStore
from grounding.answer import Answer, Claim, EntailmentResult, GenerationRequest
from grounding.dosing_binding import binding_problems, patient_for
from retrieval.memory_index import MemoryIndex
from retrieval.resolver import Candidate, ResolverResult
from retrieval.service import RetrievalService
from states.scripted import ScriptedUnderstander


def _c(drug: str, section: str, n: int, text: str, quarantined: bool = False) -> Chunk:
    return Chunk(doc_id=f"{drug}__{section}__{n}", drug_id=drug, section_key=section, text=text, page=10 + n,
                 has_quarantined_content=quarantined)


CHUNKS = [
    _c("paracetamol", "chi_dinh", 0, "Điều trị đau nhẹ và vừa; hạ sốt."),
    _c("paracetamol", "chong_chi_dinh", 0, "Suy gan nặng. Quá mẫn với paracetamol."),
    _c("paracetamol", "lieu_luong_cach_dung", 0, "*Uống – Người lớn:* 500 mg – 1 g mỗi 4–6 giờ; tối đa 4 g/ngày."),
    _c("paracetamol", "lieu_luong_cach_dung", 1, "*Uống – Trẻ em:* Trẻ 4–6 tuổi: 240 mg/lần. 10–15 mg/kg/lần."),
    _c("paracetamol", "lieu_luong_cach_dung", 2, "*Đặt trực tràng – Người lớn:* 650 mg mỗi 4–6 giờ."),
    _c("paracetamol", "lieu_luong_cach_dung", 3, "*Đặt trực tràng – Trẻ em:* 15 mg/kg/lần."),
    _c("paracetamol", "tuong_tac_thuoc", 0, "Dùng dài ngày liều cao làm tăng nhẹ tác dụng của warfarin."),
    _c("paracetamol", "thoi_ky_mang_thai", 0, "Chỉ dùng khi thật cần khi mang thai."),
    _c("ibuprofen", "chi_dinh", 0, "Giảm đau, hạ sốt ở trẻ em."),
    _c("ibuprofen", "lieu_luong_cach_dung", 0, "*Uống – Trẻ em:* 20–30 mg/kg/ngày chia nhiều lần."),
    _c("ibuprofen", "lieu_luong_cach_dung", 1, "*Uống – Người lớn:* 200–400 mg mỗi 4–6 giờ."),
    _c("ibuprofen", "tuong_tac_thuoc", 0, "Ibuprofen làm giảm tác dụng chống kết tập tiểu cầu của aspirin."),
    _c("warfarin", "tuong_tac_thuoc", 0, "Aspirin làm tăng nguy cơ chảy máu."),
    _c("warfarin", "tuong_tac_thuoc", 1, "| bảng hỏng |", quarantined=True),
    _c("cetirizin", "tuong_tac_thuoc", 0, "Theophylin làm giảm nhẹ độ thanh thải cetirizin."),
    _c("amlodipin", "tuong_tac_thuoc", 0, "Simvastatin: tăng nồng độ simvastatin."),
]
NAMES = [
    DrugNames(drug_id="paracetamol", name="Paracetamol", aliases=("acetaminophen",), brands=("Panadol",)),
    DrugNames(drug_id="ibuprofen", name="Ibuprofen", classes=("NSAID",)),
    DrugNames(drug_id="warfarin", name="Warfarin"),
    DrugNames(drug_id="acid_acetylsalicylic", name="Acid acetylsalicylic", aliases=("aspirin",)),
    DrugNames(drug_id="cetirizin", name="Cetirizin"),
    DrugNames(drug_id="amlodipin", name="Amlodipin"),
]


class AllCandidatesResolver:
    """Every known drug is a candidate: these tests exercise the machine, not the resolver."""

    def resolve(self, text: str) -> ResolverResult:
        return ResolverResult(candidates=[Candidate(drug_id=n.drug_id, matched=n.name, span=n.name, score=100)
                                          for n in NAMES])


class QuoteGenerator:
    """Quotes every non-quarantined evidence chunk (machine tests only; the real one is ExtractiveGenerator)."""

    name = "quote"
    calls_llm = False

    def generate(self, request: GenerationRequest, budget: RequestBudget) -> Answer:
        claims = [Claim(text=c.text, citations=[c.doc_id]) for c in request.evidence if not c.has_quarantined_content]
        patient = patient_for(request)
        if patient is not None:
            # A dose for one patient quotes only that patient's paragraphs: verification rejects a line of another
            # population, band or route (dosing binding), and these tests are about routing, not that check.
            claims = [c for c in claims
                      if not binding_problems(Answer(claims=[c]), request.evidence, patient)]
        return Answer(claims=claims)

    def repair(self, request: GenerationRequest, answer: Answer, omissions: Sequence[str],
               budget: RequestBudget) -> Answer:
        return answer


class AcceptingVerifier:
    name = "accepting"
    calls_llm = False

    def verify(self, answer: Answer, evidence: Sequence[Chunk], budget: RequestBudget) -> EntailmentResult:
        return EntailmentResult(ok=True)


def make_engine(understander: ScriptedUnderstander, *, spec: MachineSpec | None = None, store: MemoryStore | None = None,
                generator: object | None = None, verifier: object | None = None, clock: Clock = monotonic_ms,
                ) -> Engine:
    return Engine(
        spec=spec or build_spec(),
        understander=understander,
        resolver=AllCandidatesResolver(),  # type: ignore[arg-type]
        retrieval=RetrievalService(MemoryIndex(CHUNKS, NAMES)),
        generator=generator or QuoteGenerator(),  # type: ignore[arg-type]
        verifier=verifier or AcceptingVerifier(),  # type: ignore[arg-type]
        store=store or MemoryStore(),
        clock=clock,
    )
