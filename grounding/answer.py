"""Answers as claims with citations, and the results of each verification step."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from core.corpus import Chunk
from grounding.calculator import Calculation

NOT_SAFE = "Điều này KHÔNG có nghĩa là an toàn khi phối hợp."
"""Said wherever the book states nothing about a pair: its silence is no safety statement."""


class Claim(BaseModel):
    text: str
    citations: list[str] = Field(default_factory=list)
    """doc_ids of the evidence blocks this claim cites."""
    drug_ids: list[str] = Field(default_factory=list)
    """List mode: the drugs this claim names as candidates."""
    quotes: list[str] = Field(default_factory=list)
    """The exact text of the spans the provider cited (Claude citations); empty for other generators."""


class CalculationRequest(BaseModel):
    """A model's proposal of a calculation, as structured operands only: which cited line, which rule, which weight.

    Code checks each operand against the line it names and the frame, and computes; the proposal never carries a
    result that is shown."""

    doc_id: str
    rule: str = ""
    """The rule as the model read it on the line ('10–15 mg/kg/lần')."""
    weight_kg: float | None = None


class Answer(BaseModel):
    claims: list[Claim] = Field(default_factory=list)
    generator: str = ""
    insufficient: bool = False
    """The generator itself reported the evidence insufficient (without asking a question)."""
    preamble: str = ""
    """Fixed, number-free framing text (e.g. "Theo Dược thư:") — not a claim, never contains numbers."""
    calculation_requests: list[CalculationRequest] = Field(default_factory=list)
    """Calculations a generator proposes (operands only); the `calculating` state decides and computes."""
    calculation_notes: list[str] = Field(default_factory=list)
    """Number-free notices of the calculator (a dose per m² it does not compute); grounding rejects any digit."""
    calculations: list[Calculation] = Field(default_factory=list)
    """Computed by code (grounding.calculator) in the `calculating` state; accepted by grounding only when each
    derivation reproduces from the cited text and the frame's weight (grounding.derivation_check)."""

    @property
    def text(self) -> str:
        body = "\n".join(f"- {c.text} [{', '.join(c.citations)}]" for c in self.claims)
        return f"{self.preamble}\n{body}".strip()


GenerationMode = Literal["single", "interaction", "list"]


class GenerationRequest(BaseModel):
    """Everything generation sees: the synthesized query and the evidence. No history."""

    query: str
    evidence: list[Chunk]
    mode: GenerationMode = "single"
    section_key: str | None = None
    drug_ids: list[str] = Field(default_factory=list)
    candidate_drug_ids: list[str] = Field(default_factory=list)
    """List mode: the only drugs the answer may name."""
    population: Literal["adult", "pediatric"] | None = None
    age_months: float | None = None
    weight_kg: float | None = None
    route: str | None = None
    condition: str | None = None
    renal: str | None = None
    """The patient's renal context as the user wrote it ("suy thận", "ClCr 20 ml/phút"), from the frame."""
    hepatic: str | None = None
    """The patient's hepatic context as written ("suy gan nặng"), from the frame."""
    pregnant: bool = False
    breastfeeding: bool = False
    comorbidities: list[str] = Field(default_factory=list)
    """Other conditions the user stated ("bệnh nền: hen"), as written (the frame's `comorbidities`)."""
    free_form: bool = False
    """A free-form question answered from the dosage section (how to take it, a missed dose, crushing a tablet): only
    the section's sentences that match the question and carry no number are quoted — never a dose, which is given
    only on the dose path for a known patient."""
    drug_names: dict[str, list[str]] = Field(default_factory=dict)
    """Per drug id: its names, aliases, brands and class phrases (folded), to find mentions in evidence."""
    taking: list[str] = Field(default_factory=list)
    """Drugs the user said the patient takes that have no monograph, as written (the frame's `unknown_drugs`): a
    contraindication naming one is this patient's."""
    partners: list[str] = Field(default_factory=list)
    """Interaction mode: the drugs or classes the question pairs with the formulary drug that have no monograph, as
    written ("allopurinol", "thuốc chống trầm cảm ba vòng"): the lines naming them are the answer."""
    drug_own_names: dict[str, list[str]] = Field(default_factory=dict)
    """Per drug id: its names, aliases and brands only (folded): what NAMES the drug in a list answer's claim. A class
    phrase ("giảm đau") is shared by many drugs and names none of them."""


class GroundingResult(BaseModel):
    ok: bool
    problems: list[str] = Field(default_factory=list)
    omissions: list[str] = Field(default_factory=list)
    """Lines the answer must include and left out, found by code (a dosing answer's applicable ceiling): not a
    grounding failure but an omission, repaired like the verifier's omissions (drives repair)."""


class EntailmentResult(BaseModel):
    ok: bool
    rejected: list[int] = Field(default_factory=list)
    """Indexes of claims not entailed by their cited blocks."""
    omissions: list[str] = Field(default_factory=list)
    """Grounded omissions: evidence statements the answer should have included (drives repair)."""
    problems: list[str] = Field(default_factory=list)
