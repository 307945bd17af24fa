"""The Claude generator: evidence as `search_result` blocks with citations enabled.

Each evidence chunk is one search result (source = doc_id, title = drug + section) whose content is the
chunk split into sentence-sized text blocks: a citation's `cited_text` is always whole text blocks, so
sentence blocks make every citation point at the exact sentence a claim rests on. Each sentence of the reply
(the API splits sentences into text blocks at citation boundaries) becomes a Claim citing the doc_ids of
its search results, with the cited text kept as quotes.

Text the model wrote without a citation is never shown as fact: a number-free framing sentence ("Theo Dược
thư:") is dropped; any other uncited sentence becomes an uncited claim, which grounding rejects.

Never generated over: quarantined chunks are filtered out before the request is built (the machine routes
them to verify_pdf first; this is the second line).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from pydantic import ValidationError

from core.budget import RequestBudget
from core.corpus import Chunk
from core.sections import SECTION_HEADINGS
from core.text import fold
from grounding.answer import Answer, CalculationRequest, Claim, GenerationRequest
from grounding.anthropic_adapter import CitedReply, ClaudeClient, SearchResult, TextPart, output_invalid
from grounding.offered import book_words, offered_lines, patient_bound
from grounding.sentences import sentences

CALL_SITE = "generate"
CALCULATION_MARKER = "TÍNH LIỀU:"
"""Opens the line where the model proposes a calculation as JSON operands (doc_id, rule, weight_kg)."""
REPAIR_SITE = "repair"
INSUFFICIENT = "[KHÔNG ĐỦ DỮ LIỆU]"
"""What the model answers, alone, when the search results do not state the answer."""
OFFERED_HEADER = "Dose lines the system selected for this patient"
"""Opens the list of the patient's lines in a dosing question (grounding.offered)."""
GLUE_MAX_WORDS = 12
_SENTENCE_END = re.compile(r"[.!?](\s|$)|\n")

SYSTEM_PROMPT = f"""\
You answer questions about the Vietnamese national drug formulary (Dược thư Quốc gia Việt Nam 2018) for
clinicians and pharmacists. The search results in the user's message are the formulary's own text and the
ONLY source you may use. Write in Vietnamese.

Rules:
- Every statement must come from the search results and cite them. Write one statement per sentence.
- Stay on the cited spans: make each statement the cited sentence itself, or a contiguous part of it, in the
  result's own words. Do not reword, summarise or join sentences: a statement that keeps its source's words
  is checked against it word for word, while a reworded one needs a second, slower check.
- Copy every number, unit, range and condition exactly as written in the result (decimal commas, dashes,
  "mg/kg", "mg/kg/ngày", "mỗi 4–6 giờ"). Never compute a dose, convert units, round, widen or merge ranges.
- Answer only what the question asks, for the population, age, weight and route it states. Do not add
  advice, opinions, rankings, recommendations or safety judgements the text does not state.
- Never state that a combination is safe because the results say nothing about it.
- No headings, no greeting, no closing remarks: start directly with the first statement.
- If the search results do not state the answer, reply with exactly {INSUFFICIENT} and nothing else.
- Never do arithmetic. When the question states the patient's weight and a result states a dose per kg that
  applies to this patient, you may propose the calculation as operands only, on a last line of its own,
  uncited: {CALCULATION_MARKER} {{"doc_id": "<the result's source>", "rule": "<the mg/kg dose as written>",
  "weight_kg": <the weight from the question>}}. Never write the result: the system computes it.
"""

_RETRY_NOTE = (
    "\n\nRe-read every search result above carefully: if any of them states the answer, answer from it with "
    f"citations; reply {INSUFFICIENT} only if none of them does."
)


def evidence_blocks(evidence: Sequence[Chunk]) -> tuple[list[Chunk], list[SearchResult]]:
    """The chunks that may be sent (never quarantined ones) and their search-result blocks, index-aligned."""
    usable = [c for c in evidence if not c.has_quarantined_content]
    blocks: list[SearchResult] = []
    kept: list[Chunk] = []
    for chunk in usable:
        texts = tuple(sentences(chunk.text))
        if not texts:
            continue
        drug = chunk.drug_title or chunk.drug_id
        blocks.append(SearchResult(chunk.doc_id, f"{drug} — {SECTION_HEADINGS.get(chunk.section_key, chunk.section_key)}",
                                   texts))
        kept.append(chunk)
    return kept, blocks


def question_text(request: GenerationRequest) -> str:
    """The user's question part of the prompt, with the mode's own constraints."""
    lines = [f"Câu hỏi: {request.query}"]
    if request.section_key:
        lines.append(f"Mục cần trả lời: {SECTION_HEADINGS.get(request.section_key, request.section_key)}.")
    if request.mode == "interaction":
        lines.append("State only what each drug's interaction section says about the other drug(s). If neither "
                     f"section mentions the other, reply {INSUFFICIENT}.")
    elif offered := offered_lines(request):
        # The patient's lines were selected by code from the dosage tree (age/weight band, route, indication,
        # renal/hepatic context): the model cites them rather than guessing which band is this patient's. Code
        # still checks every line it cites (dosing binding), whatever it cites.
        lines.append(f"{OFFERED_HEADER} (by age, weight, route, indication and renal/hepatic context), as the "
                     "formulary writes them:")
        lines += [f"- {line}" for line in offered]
        lines.append("")
        lines.append("Answer with these lines only, citing the search-result sentences that state them; never cite "
                     "a dose line of another population, age or weight band, or route. Your statements are shown as "
                     "the sentences you cite.")
    elif request.mode == "list":
        allowed = ", ".join(request.candidate_drug_ids) or "(none)"
        lines.append("List, one statement per drug, the drugs whose indication in the results matches the "
                     f"condition. You may name ONLY these drugs (formulary ids): {allowed}. This is a factual "
                     "list from the formulary, not a ranking or a treatment recommendation.")
    return "\n".join(lines)


def _is_glue(text: str) -> bool:
    return not re.search(r"\d", text) and len(text.split()) <= GLUE_MAX_WORDS


def _mentions(text: str, names: dict[str, list[str]]) -> list[str]:
    folded = f" {fold(text)} "
    return [d for d, ns in names.items() if any(n and f" {fold(n)} " in folded for n in ns)]


def _statements(parts: Sequence[TextPart]) -> list[list[TextPart]]:
    """Group response text blocks into sentences: the API splits a sentence at each citation boundary."""
    groups: list[list[TextPart]] = []
    current: list[TextPart] = []
    for part in parts:
        current.append(part)
        if _SENTENCE_END.search(part.text):
            groups.append(current)
            current = []
    if current:
        groups.append(current)
    return groups


def answer_from_reply(reply: CitedReply, sent: Sequence[Chunk], request: GenerationRequest) -> Answer:
    """Map the reply's sentences and their citations onto claims (search_result_index → the chunk's doc_id).

    A sentence keeps all its text, cited or not, so what is shown is exactly what is verified. A sentence
    with no citation is dropped when it is number-free framing ("Theo Dược thư:"), and otherwise kept as an
    uncited claim, which grounding rejects.
    """
    if INSUFFICIENT in reply.text:
        return Answer(claims=[], generator="anthropic", insufficient=True)
    parts, requests = calculation_requests(reply.parts)
    claims: list[Claim] = []
    for group in _statements(parts):
        text = re.sub(r"\s+", " ", "".join(p.text for p in group)).strip().lstrip("-•* ").strip()
        spans = [s for p in group for s in p.citations]
        if not text:
            continue
        if not spans:
            if not _is_glue(text):
                claims.append(Claim(text=text))  # uncited substance: grounding rejects it
            continue
        for s in spans:
            if s.source != sent[s.search_result_index].doc_id:
                raise output_invalid(CALL_SITE, f"citation source {s.source!r} is not search result "
                                                f"{s.search_result_index} ({sent[s.search_result_index].doc_id})")
        doc_ids = list(dict.fromkeys(sent[s.search_result_index].doc_id for s in spans))
        drug_ids: list[str] = []
        if request.mode == "list":
            cited_drugs = [sent[s.search_result_index].drug_id for s in spans]
            # A drug is named by its name, alias or brand; a class phrase ("giảm đau") names no one drug.
            names = request.drug_own_names or request.drug_names
            drug_ids = list(dict.fromkeys([*cited_drugs, *_mentions(text, names)]))
        claims.append(Claim(text=text, citations=doc_ids, drug_ids=drug_ids,
                            quotes=list(dict.fromkeys(s.cited_text for s in spans))))
    if patient_bound(request):
        # A dosing answer about one patient is shown in the book's own words: each cited claim is its cited spans.
        # Which lines it may quote (dosing binding) and which ceilings it must state (omissions) are decided by
        # code, so what the claim adds beyond its spans could only be unverified wording (grounding.offered).
        claims = book_words(claims)
    return Answer(claims=claims, generator="anthropic", calculation_requests=requests)


_REQUEST_LINE = re.compile(rf"^[ \t]*{re.escape(CALCULATION_MARKER)}(.*)$", re.MULTILINE)


def calculation_requests(parts: Sequence[TextPart]) -> tuple[list[TextPart], list[CalculationRequest]]:
    """Take the proposed-calculation lines out of the uncited text: operands, never shown, never a claim.

    A line that is not valid operands is kept as a request naming no line, so the calculating state rejects it
    and the trace says so. A marker inside cited text is left where it is (a cited sentence is never edited)."""
    kept: list[TextPart] = []
    requests: list[CalculationRequest] = []
    for part in parts:
        if part.citations or CALCULATION_MARKER not in part.text:
            kept.append(part)
            continue
        for m in _REQUEST_LINE.finditer(part.text):
            try:
                requests.append(CalculationRequest.model_validate(json.loads(m.group(1))))
            except (ValueError, ValidationError):
                requests.append(CalculationRequest(doc_id="", rule=m.group(1).strip()[:200]))
        rest = _REQUEST_LINE.sub("", part.text)
        if rest.strip():
            kept.append(TextPart(rest, part.citations))
    return kept, requests


def asks_question(reply: CitedReply) -> bool:
    return "?" in reply.text


class ClaudeGenerator:
    name = "anthropic"
    calls_llm = True

    def __init__(self, client: ClaudeClient) -> None:
        self.client = client

    def generate(self, request: GenerationRequest, budget: RequestBudget) -> Answer:
        sent, blocks = evidence_blocks(request.evidence)
        if not blocks:
            # Nothing generatable (all quarantined or empty): no call; grounding rejects an empty answer.
            return Answer(claims=[], generator="anthropic", insufficient=True)
        question = question_text(request)
        reply = self.client.call_with_search_results(CALL_SITE, SYSTEM_PROMPT, question, blocks, budget)
        answer = answer_from_reply(reply, sent, request)
        if answer.insufficient and not asks_question(reply):
            # The reference system's one retry: only when the model itself reported the evidence insufficient
            # without asking a question (a question means the turn, not the reading, was the problem).
            reply = self.client.call_with_search_results(CALL_SITE, SYSTEM_PROMPT, question + _RETRY_NOTE, blocks,
                                                         budget)
            answer = answer_from_reply(reply, sent, request)
        return answer

    def repair(
        self, request: GenerationRequest, answer: Answer, omissions: Sequence[str], budget: RequestBudget
    ) -> Answer:
        sent, blocks = evidence_blocks(request.evidence)
        if not blocks:
            return Answer(claims=[], generator="anthropic", insufficient=True)
        previous = "\n".join(f"- {c.text}" for c in answer.claims) or "(empty)"
        missing = "\n".join(f"- {o}" for o in omissions)
        question = (
            f"{question_text(request)}\n\nA previous answer was:\n{previous}\n\nIt left out these statements, which "
            f"the search results make:\n{missing}\n\nWrite the complete answer again, including them, with "
            "citations, under the same rules."
        )
        reply = self.client.call_with_search_results(REPAIR_SITE, SYSTEM_PROMPT, question, blocks, budget)
        return answer_from_reply(reply, sent, request)
