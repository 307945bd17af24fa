"""A scripted Claude for the benchmarks: `grounding.fake_messages.FakeMessages` with a responder per call site.

Every request goes through the real `anthropic` SDK and the project's adapters; the fake answers as a
well-behaved model would:

- understand (forced `record_query_frame`): the frame the rules understander produced for the same turn
  (the hybrid asks the model only when that frame's confidence is low; here the model agrees with it);
- generate / repair (search results, citations enabled): the sentence blocks a real model would cite, as
  the Messages API returns cited text. For a dosing question about one patient, the engine's prompt lists
  the lines it selected as this patient's (`grounding.claude_generator.OFFERED_HEADER`), and a repair prompt
  the statements left out: the model cites the blocks that state them (not the first results, which may be
  another population's band). Otherwise it cites the first sentence blocks of the first results. The
  VERBATIM model quotes them exactly, the PARAPHRASING model rewords each (a reporting clause in front, a
  few synonyms swapped; every number, unit and negation kept) so the verifier cannot skip entailment: its
  claims no longer only restate their spans;
- entail (forced `record_entailment`): every claim entailed, no omissions;
- sufficiency (forced `record_sufficiency`): sufficient.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core.budget import RequestBudget
from core.text import fold
from grounding.claude_generator import OFFERED_HEADER
from grounding.fake_messages import Cite, FakeMessages, RecordedRequest, Reply, Text, TextReply, ToolReply
from states.understander import Understander, Understanding, UnderstandingRequest

BLOCKS_PER_RESULT = 2
RESULTS_CITED = 2


class RecordingRules:
    """Wraps the rules understander and keeps its last frame, which the scripted model then returns."""

    def __init__(self, rules: Understander) -> None:
        self.rules = rules
        self.name = rules.name
        self.last: Understanding | None = None

    def understand(self, request: UnderstandingRequest, budget: RequestBudget) -> Understanding:
        self.last = self.rules.understand(request, budget)
        return self.last


def _frame_reply(rules: RecordingRules | None, request: RecordedRequest) -> Reply:
    last = rules.last if rules is not None else None
    frame = last.frame.model_dump(exclude={"understood_by", "confidence"}) if last else {}
    tool: dict[str, Any] = next((t for t in request.body.get("tools", []) if t.get("name") == "record_query_frame"), {})
    allowed = tool.get("input_schema", {}).get("properties", {}).get("drugs", {}).get("items", {}).get("enum")
    frame["drugs"] = [d for d in frame.get("drugs", []) if allowed and d in allowed]
    return ToolReply(input=frame)


def _claim_indexes(request: RecordedRequest) -> list[int]:
    text = request.user_text
    claims = text.split("Claims:", 1)[1] if "Claims:" in text else ""
    return [int(m) for m in re.findall(r"^(\d+)\. ", claims, flags=re.MULTILINE)]


SYNONYMS = (("người bệnh", "bệnh nhân"), ("sử dụng", "dùng"), ("thuốc", "dược phẩm"), ("gây", "làm xuất hiện"))
"""Swaps that keep meaning, numbers and negations: what a model writing its own sentence might do."""


def paraphrase(text: str) -> str:
    """The sentence reworded as a model that does not copy would: new words in front, synonyms swapped."""
    body = text.strip()
    for a, b in SYNONYMS:
        body = re.sub(rf"\b{a}\b", b, body, flags=re.IGNORECASE)
    if body[:1].isupper() and not body[1:2].isupper():
        body = body[:1].lower() + body[1:]
    return f"Dược thư nêu rằng {body}"


MIN_MATCH_CHARS = 12
"""A block shorter than this ("Uống:") is not matched inside a line: it would match every band's lead-in."""


def _listed(text: str, header: str) -> list[str]:
    """The "- " lines of the prompt's list that opens with `header`, up to the first blank line."""
    if header not in text:
        return []
    found: list[str] = []
    for line in text.split(header, 1)[1].splitlines()[1:]:
        if not line.strip():
            break
        if line.startswith("- "):
            found.append(line[2:].strip())
    return found


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", fold(text)).strip()


@dataclass(frozen=True)
class Wanted:
    """A statement the prompt asks for, folded: the whole line, its context path and its body. The engine writes a
    line after its path ("Uống › Người lớn: …"), which the book's sentence ("Uống – Người lớn: …") does not repeat
    word for word, and another route's sentence may have the same body ("Đặt trực tràng – Người lớn: …")."""

    line: str
    path: tuple[str, ...]
    body: str

    @classmethod
    def of(cls, line: str) -> Wanted:
        head, sep, body = line.partition(": ")
        path = tuple(_norm(p) for p in head.split(" › ")) if " › " in head and sep else ()
        return cls(_norm(line), path, _norm(body) if path else _norm(line))


def _wanted(request: RecordedRequest) -> list[Wanted]:
    """What the prompt asks the model to state: the patient's offered lines, and a repair's left-out statements."""
    text = request.user_text
    return [Wanted.of(t) for t in (*_listed(text, OFFERED_HEADER), *_listed(text, "It left out these statements"))]


def _states(block: str, wanted: list[Wanted], blocks: list[str]) -> bool:
    """The block is the line (or a sentence of it), or holds its body under the same path; else it is the only block
    holding the body (its path is in a lead-in block before it)."""
    b = _norm(block)
    if not b:
        return False
    for w in wanted:
        if (len(b) >= MIN_MATCH_CHARS and b in w.line) or w.line in b:
            return True
        if w.body and w.body in b and (all(p in b for p in w.path)
                                       or sum(w.body in _norm(o) for o in blocks) == 1):
            return True
    return False


_LIST_PROMPT = re.compile(r"ONLY these drugs \(formulary ids\): ([^.]*)\.")


def _list_candidates(request: RecordedRequest) -> set[str]:
    m = _LIST_PROMPT.search(request.user_text)
    return {d.strip() for d in m.group(1).split(",") if d.strip()} if m else set()


def _cited_reply(request: RecordedRequest, reword: bool = False) -> Reply:
    parts: list[Text | str] = []
    wanted = _wanted(request)
    if wanted:
        # The lines the engine offered as this patient's (and what a repair asks for), wherever they are.
        blocks = [b.get("text", "") for r in request.search_results for b in r.get("content", [])]
        for i, result in enumerate(request.search_results):
            for k, block in enumerate(result.get("content", [])):
                text = block.get("text", "")
                if _states(text, wanted, blocks):
                    parts.append(Text((paraphrase(text) if reword else text) + "\n", (Cite(index=i, start=k, end=k + 1),)))
    elif allowed := _list_candidates(request):
        # A list question: one statement per candidate drug, from its own first result (the indication it matched).
        seen: set[str] = set()
        for i, result in enumerate(request.search_results):
            drug = str(result.get("source", "")).split("__", 1)[0]
            if drug not in allowed or drug in seen:
                continue
            seen.add(drug)
            for k, block in enumerate(result.get("content", [])[:BLOCKS_PER_RESULT]):
                text = block.get("text", "")
                parts.append(Text((paraphrase(text) if reword else text) + "\n", (Cite(index=i, start=k, end=k + 1),)))
    else:
        for i, result in enumerate(request.search_results[:RESULTS_CITED]):
            for k, block in enumerate(result.get("content", [])[:BLOCKS_PER_RESULT]):
                text = block.get("text", "")
                parts.append(Text((paraphrase(text) if reword else text) + "\n", (Cite(index=i, start=k, end=k + 1),)))
    return TextReply(tuple(parts) if parts else ("[KHÔNG ĐỦ DỮ LIỆU]",))


def responder(rules: RecordingRules | None = None, *, paraphrasing: bool = False) -> Callable[[RecordedRequest], Reply]:
    def respond(request: RecordedRequest) -> Reply:
        tool = request.forced_tool
        if tool == "record_query_frame":
            return _frame_reply(rules, request)
        if tool == "record_entailment":
            verdicts: list[dict[str, Any]] = [{"index": i, "entailed": True, "reason": "stated by its block"}
                                              for i in _claim_indexes(request)]
            return ToolReply(input={"claims": verdicts, "omissions": []})
        if tool == "record_sufficiency":
            return ToolReply(input={"sufficient": True})
        return _cited_reply(request, reword=paraphrasing)

    return respond


def scripted_fake(rules: RecordingRules | None = None, *, latency: Callable[[RecordedRequest], float] | None = None,
                  paraphrasing: bool = False) -> FakeMessages:
    return FakeMessages(fallback=responder(rules, paraphrasing=paraphrasing), latency=latency)
