"""Claude entailment verification.

Entailment runs after citation/numeric grounding has passed: one forced tool call judges, per cited claim,
whether its blocks state its content, and lists grounded omissions (statements of the cited blocks the
answer must include not to mislead; each must name a retrieved block and its numbers must be in it, or it
is dropped). It fails closed: a provider failure or a verdict missing for any claim raises.

Two call savers, both safe:
- a claim that only restates the exact spans the provider cited for it (every folded word and number of
  the claim is in its quotes, same negations) needs no model to judge it: only the other claims are sent
  (keeping their own indexes), and when every claim is such, the call is skipped (DESIGN.md, "Grounding").
  Omission detection is then skipped too — the price of the saved call, kept switchable
  (`skip_when_covered`); a dosing answer about one patient has its omitted ceilings found by code
  (`GroundingResult.omissions`) whichever way this goes.
- the reference's one same-claim retry on a lone reject (the call is measurably noisy), only while the
  budget allows it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import BaseModel, Field

from core.budget import RequestBudget
from core.corpus import Chunk
from core.text import fold
from grounding.answer import Answer, Claim, EntailmentResult
from grounding.anthropic_adapter import ClaudeClient, ToolSpec, output_invalid, parse_tool_input
from grounding.verify import ungrounded_quantities

CALL_SITE = "entail"
RETRY_SITE = "entail_retry"
TOOL_NAME = "record_entailment"

NEGATIONS = frozenset({"khong", "chua", "cam", "tranh", "ngung", "chong", "not", "no"})
"""Folded words that turn a statement around: a claim and its spans must carry the same ones."""

SYSTEM_PROMPT = """\
You verify answers about the Vietnamese national drug formulary (Dược thư Quốc gia Việt Nam 2018) against
the formulary blocks they cite. You never rewrite the answer. Call the record_entailment tool exactly once.

For every claim, decide `entailed`: true only when the claim's content — every fact, number, unit,
population, route, condition and negation — is stated by the block(s) it cites. A claim that adds, drops a
condition from, generalises, or contradicts its block is not entailed. Give a short reason.

Then list `omissions`: statements in the cited blocks that the answer must include so that what it says is
not misleading (a maximum dose, an age or weight limit, a condition of use, an exception) — each with the
doc_id of the block that states it, quoted as written. Do not list merely related extra facts.
"""

ENTAILMENT_SCHEMA = {
    "type": "object",
    "properties": {
        "claims": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "index": {"type": "integer", "minimum": 0},
                    "entailed": {"type": "boolean"},
                    "reason": {"type": "string"},
                },
                "required": ["index", "entailed"],
            },
        },
        "omissions": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"statement": {"type": "string"}, "doc_id": {"type": "string"}},
                "required": ["statement", "doc_id"],
            },
        },
    },
    "required": ["claims", "omissions"],
}


class ClaimVerdict(BaseModel):
    index: int = Field(ge=0)
    entailed: bool
    reason: str = ""


class Omission(BaseModel):
    statement: str
    doc_id: str


class EntailmentOutput(BaseModel):
    claims: list[ClaimVerdict]
    omissions: list[Omission] = Field(default_factory=list)


_ATTRIBUTION = re.compile(
    r"^\W*(?:theo\s+(?:duoc\s+thu|dtqg|sach)|duoc\s+thu\s+(?:neu|ghi|viet|cho\s+biet|noi)(?:\s+ro)?(?:\s+rang)?)"
    r"\s*[:,]?\s*")
"""A lead-in that only says where the sentence comes from ("Theo Dược thư, …", "Dược thư nêu rằng …"), on the
folded claim: it states nothing a block must entail. Only at the start and only these words: "Dược thư
không nêu …" is not a lead-in (its negation is content), and a source named mid-sentence is left in."""


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", fold(text)))


def claim_content(text: str) -> str:
    """The claim without an attribution lead-in, folded."""
    return _ATTRIBUTION.sub("", fold(text), count=1)


def covered_by_quotes(claim: Claim) -> bool:
    """The claim only restates the spans cited for it: no word or number the quotes lack, same negations.

    An attribution lead-in is not content ("Theo Dược thư, <the cited sentence>" restates the sentence); any
    other word the quotes lack — a synonym, a paraphrase — needs the model's judgement."""
    if not claim.quotes or not claim.citations:
        return False
    claim_words = set(re.findall(r"\w+", claim_content(claim.text)))
    quoted = set().union(*(_words(q) for q in claim.quotes))
    return bool(claim_words) and claim_words <= quoted and (claim_words & NEGATIONS) == (quoted & NEGATIONS)


def _blocks_text(chunks: Sequence[Chunk]) -> str:
    return "\n\n".join(f"[{c.doc_id}]\n{c.text}" for c in chunks)


def _prompt(claims: Sequence[tuple[int, Claim]], cited: Sequence[Chunk]) -> str:
    lines = ["Cited blocks:", _blocks_text(cited), "", "Claims:"]
    lines += [f"{i}. {c.text}  (cites: {', '.join(c.citations)})" for i, c in claims]
    return "\n".join(lines)


class ClaudeVerifier:
    name = "anthropic"
    calls_llm = True

    def __init__(self, client: ClaudeClient, *, skip_when_covered: bool = True, retry_lone_reject: bool = True) -> None:
        self.client = client
        self.skip_when_covered = skip_when_covered
        self.retry_lone_reject = retry_lone_reject

    def verify(self, answer: Answer, evidence: Sequence[Chunk], budget: RequestBudget) -> EntailmentResult:
        by_id = {c.doc_id: c for c in evidence if not c.has_quarantined_content}
        indexed = list(enumerate(answer.claims))
        if not indexed:
            return EntailmentResult(ok=False, problems=["answer has no claims to verify"])
        # A claim that only restates its cited spans needs no model; the others are judged, in one call.
        judged = [(i, c) for i, c in indexed if not (self.skip_when_covered and covered_by_quotes(c))]
        if not judged:
            return EntailmentResult(ok=True, problems=[])
        # Every cited block is sent, the covered claims' too: the omissions are read from all of them.
        cited = [by_id[d] for d in dict.fromkeys(d for _, c in indexed for d in c.citations) if d in by_id]
        output = self._judge(CALL_SITE, judged, cited, budget)
        rejected = [v.index for v in output.claims if not v.entailed]
        reasons = {v.index: v.reason for v in output.claims}
        if self.retry_lone_reject and len(rejected) == 1 and budget.can_call():
            lone = rejected[0]
            again = self._judge(RETRY_SITE, [indexed[lone]], cited, budget)
            if all(v.entailed for v in again.claims):
                rejected = []
        problems = [f"claim {i} not entailed by its block(s): {reasons.get(i) or 'no reason given'}" for i in rejected]
        omissions: list[str] = []
        for o in output.omissions:
            block = by_id.get(o.doc_id)
            if block is None:
                problems.append(f"omission dropped: cites {o.doc_id}, which the answer did not retrieve")
            elif ungrounded_quantities(o.statement, [block]):
                problems.append(f"omission dropped: its numbers are not in {o.doc_id}: «{o.statement}»")
            else:
                omissions.append(o.statement)
        return EntailmentResult(ok=not rejected and not omissions, rejected=rejected, omissions=omissions,
                                problems=problems)

    def _judge(self, site: str, claims: Sequence[tuple[int, Claim]], cited: Sequence[Chunk],
               budget: RequestBudget) -> EntailmentOutput:
        tool = ToolSpec(TOOL_NAME, "Record the entailment verdict of every claim, and grounded omissions.",
                        ENTAILMENT_SCHEMA)
        raw = self.client.call_tool(site, SYSTEM_PROMPT, [{"role": "user", "content": _prompt(claims, cited)}],
                                    tool, budget)
        output = parse_tool_input(EntailmentOutput, raw, site)
        expected = {i for i, _ in claims}
        judged = {v.index for v in output.claims}
        if judged != expected:
            # Fail closed: a claim without a verdict is a claim nobody verified.
            raise output_invalid(site, f"verdicts for claims {sorted(judged)}, expected {sorted(expected)}")
        return output

