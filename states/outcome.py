"""The outcome states' step (answered, flagged, clarified, abstained): compose the reply text. No I/O."""

from __future__ import annotations

from core.corpus import Chunk
from core.sections import SECTION_HEADINGS
from grounding.calculation_shown import shown_with_its_line
from states import replies, verify_pdf
from states.calculating import calculation_lines
from states.citation import Citation
from states.overdose import with_overdose_framing
from states.same_drug import with_same_drug_notice
from states.step import Services, TurnView, Update


def outcome(ctx: TurnView, services: Services) -> Update:
    """Compose the reply text of an outcome state (no I/O)."""
    state = ctx.state
    values: dict[str, object] = {}
    reason, reply_text = ctx.reason, ctx.reply_text
    if state == "answered":
        if reason == "smalltalk":
            reply_text = replies.smalltalk_reply(ctx.text)
        else:
            reason = ctx.path if not services.retrieval_only else "retrieval_only"
            assert ctx.answer is not None
            reply_text, citations = compose_answer(ctx, services)
            values["citations"], values["reason"] = citations, reason
            if ctx.path == "condition_to_drug":
                # The drugs this answer listed: "thuốc đó" in the next turn refers to them (states.merge).
                listed = list(dict.fromkeys(c.drug_id for c in citations))
                values["frame"] = ctx.frame.model_copy(update={"listed": listed})
    elif state == "flagged":
        reply_text, values["citations"] = compose_verify_pdf(ctx, services)
    elif state == "abstained":
        reply_text = replies.abstain_text(reason or "system_error", ctx.frame, services.names, question=ctx.text)
        values["citations"] = []
        values["quick_replies"] = []
    if reason != "smalltalk" and ctx.frame.refusal is None:
        # Two names of one drug in the turn: said first, whatever the outcome (states.same_drug: safety reason there).
        reply_text = with_same_drug_notice(reply_text, ctx.text, ctx.frame.drugs, services.names)
    if reason != "smalltalk":
        # An overdose question opens with "get care now", whatever the outcome (states.overdose).
        reply_text = with_overdose_framing(reply_text, ctx.frame)
    if state in ("answered", "flagged") and services.synthetic_corpus and reason != "smalltalk":
        reply_text = f"{reply_text}\n\n{replies.SYNTHETIC_NOTICE}"
    if not ctx.memory_loaded:
        reply_text = f"{replies.NO_MEMORY_NOTICE}\n{reply_text}"
    return Update({"reply_text": reply_text, **values})


def compose_answer(ctx: TurnView, services: Services) -> tuple[str, list[Citation]]:
    assert ctx.answer is not None
    by_id = {c.doc_id: c for c in ctx.evidence}
    text = replies.answer_text(ctx.answer, ctx.path or "single_drug", ctx.frame, services.names)
    text = "\n".join([text, *calculation_lines(ctx.answer)])
    cited: list[str] = []
    for claim in ctx.answer.claims:
        cited += [d for d in claim.citations if d not in cited]
    derived = {c.derivation.doc_id: c for c in shown_with_its_line(ctx.answer).calculations}
    cited += [d for d in derived if d not in cited]
    return text, [citation(by_id[d], services).model_copy(update={"derivation": derived[d].derivation,
                                                                   "calculation_lines": derived[d].lines})
                  if d in derived else citation(by_id[d], services) for d in cited if d in by_id]


def compose_verify_pdf(ctx: TurnView, services: Services) -> tuple[str, list[Citation]]:
    composed = verify_pdf.compose_verify_pdf(ctx.evidence, ctx.frame, ctx.path or "single_drug", services.names)
    return composed.text, [citation(chunk, services, quote=quote) for chunk, quote in composed.quotes]


def citation(chunk: Chunk, services: Services, quote: str | None = None) -> Citation:
    return Citation(
        doc_id=chunk.doc_id,
        drug_id=chunk.drug_id,
        drug_name=services.retrieval.display_name(chunk.drug_id),
        section_key=chunk.section_key,
        section_title=SECTION_HEADINGS.get(chunk.section_key, chunk.section_key),
        quote=quote if quote is not None else chunk.text,
        page=chunk.page,
    )
