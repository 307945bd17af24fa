"""The offline entailment check: a claim is entailed when its content words and numbers are in its cited blocks.

Deterministic and LLM-free. Words are folded syllables minus a small Vietnamese stopword list; a claim
passes when at least `MIN_COVERAGE` of its content words occur in the cited blocks (plus their drug's
title, since a list claim names the drug whose block it cites) and every number is stated there.

Omissions (which drive the machine's repair path) are deliberately narrow: for a dosing answer, a
maximum-dose sentence ("tối đa …", "không quá …") of a cited block's general lines whose limit the answer
does not state. Band lines (`- Trẻ dưới 10 kg: …; tối đa 30 mg/kg/ngày`) are another child's limit and are
never reported.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.budget import RequestBudget
from core.corpus import Chunk
from core.text import fold
from grounding.answer import Answer, EntailmentResult
from grounding.dosing_select import DosingParagraph, paragraphs
from grounding.numbers import Quantity, extract_quantities
from grounding.sentences import clean, split_sentences
from grounding.verify import ungrounded_quantities

MIN_COVERAGE = 0.8
DOSING_SECTION = "lieu_luong_cach_dung"

STOPWORDS = frozenset(
    ["va", "hoac", "voi", "cua", "cho", "la", "thi", "ma", "nhung", "cac", "mot", "nhu", "de", "duoc", "bi", "tu", "den", "trong", "tren", "duoi", "khi", "neu", "tai", "theo", "nay", "do", "ay", "co", "khong", "se", "da", "dang", "van", "rat", "cung", "hon", "nhat", "moi", "vi", "nen", "o", "ra", "vao", "lai"]
)
_WORD = re.compile(r"[a-z]+")
_MAX_DOSE = re.compile(r"\b(toi da|khong qua|khong duoc qua|khong vuot qua)\b")
_BULLET = re.compile(r"^\s*(?:[-•+]|\d+[.)])\s+")


def content_words(text: str) -> list[str]:
    """Folded content words of a text, in order (numbers are checked separately)."""
    return [w for w in _WORD.findall(fold(text)) if w not in STOPWORDS and len(w) >= 2]


def _vocabulary(blocks: Sequence[Chunk]) -> set[str]:
    words: set[str] = set()
    for b in blocks:
        words.update(_WORD.findall(fold(b.text)))
        words.update(_WORD.findall(fold(b.drug_title)))
        words.update(_WORD.findall(fold(b.drug_id.replace("_", " "))))
    return words


def coverage(text: str, blocks: Sequence[Chunk]) -> float:
    words = content_words(text)
    if not words:
        return 1.0
    vocabulary = _vocabulary(blocks)
    return sum(w in vocabulary for w in words) / len(words)


def _max_dose_sentences(paragraph: DosingParagraph) -> list[str]:
    """General (non-band) sentences of a dosage paragraph that state a maximum with a number."""
    found: list[str] = []
    for raw in paragraph.lines:
        if not raw.strip() or raw.strip().startswith("<!--") or _BULLET.match(raw):
            continue
        for sentence in split_sentences(clean(raw)):
            if _MAX_DOSE.search(fold(sentence)) and extract_quantities(sentence):
                found.append(sentence)
    return found


def _limit_quantities(sentence: str) -> list[Quantity]:
    """The quantities stated from the first maximum phrase on (the limit itself, not the dose before it)."""
    folded = fold(sentence)
    m = _MAX_DOSE.search(folded)
    return extract_quantities(folded[m.start():] if m else folded)


def _stated(q: Quantity, said: Sequence[Quantity]) -> bool:
    return any(s.unit == q.unit and s.low == q.low and s.high == q.high for s in said)


class LexicalVerifier:
    name = "lexical"
    calls_llm = False

    def __init__(self, min_coverage: float = MIN_COVERAGE) -> None:
        self.min_coverage = min_coverage

    def verify(self, answer: Answer, evidence: Sequence[Chunk], budget: RequestBudget) -> EntailmentResult:
        by_id = {c.doc_id: c for c in evidence}
        rejected: list[int] = []
        problems: list[str] = []
        for i, claim in enumerate(answer.claims):
            cited = [by_id[d] for d in claim.citations if d in by_id and not by_id[d].has_quarantined_content]
            if not cited:
                rejected.append(i)
                problems.append(f"claim {i}: cites no retrieved block (lexical entailment)")
                continue
            share = coverage(claim.text, cited)
            missing_numbers = ungrounded_quantities(claim.text, cited)
            if share < self.min_coverage or missing_numbers:
                rejected.append(i)
                detail = f"{share:.0%} of its content words" if share < self.min_coverage else \
                    f"numbers {', '.join(q.text for q in missing_numbers)} not"
                problems.append(f"claim {i} «{claim.text[:60]}»: {detail} found in "
                                f"{', '.join(c.doc_id for c in cited)} (lexical entailment, "
                                f"threshold {self.min_coverage:.0%})")
        omissions = [] if rejected else self._omissions(answer, by_id)
        problems += [f"omission: the cited dosage block also states «{o}» (completeness)" for o in omissions]
        return EntailmentResult(ok=not rejected and not omissions, rejected=rejected, omissions=omissions,
                                problems=problems)

    def _omissions(self, answer: Answer, by_id: dict[str, Chunk]) -> list[str]:
        said = [q for c in answer.claims for q in extract_quantities(c.text)]
        said_text = " ".join(fold(c.text) for c in answer.claims)
        cited_dosing: list[Chunk] = []
        for claim in answer.claims:
            for doc_id in claim.citations:
                block = by_id.get(doc_id)
                if block is not None and block.section_key == DOSING_SECTION and block not in cited_dosing:
                    cited_dosing.append(block)
        omissions: list[str] = []
        for block in cited_dosing:
            quoted = [fold(clean(c.text)) for c in answer.claims if block.doc_id in c.citations]
            for paragraph in paragraphs(block):
                # Only paragraphs the answer quoted from: a chunk may also hold another population's paragraph.
                body = " ".join(fold(clean(line)) for line in paragraph.lines)
                if not any(q and q in body for q in quoted):
                    continue
                for sentence in _max_dose_sentences(paragraph):
                    limits = _limit_quantities(sentence)
                    if fold(sentence) in said_text or all(_stated(q, said) for q in limits):
                        continue
                    if sentence not in omissions:
                        omissions.append(sentence)
        return omissions
