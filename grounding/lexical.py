"""The offline entailment check: a claim is entailed when its content words and numbers are in its cited blocks.

Deterministic and LLM-free. Words are folded syllables minus a small Vietnamese stopword list; a claim
passes when at least `MIN_COVERAGE` of its content words occur in the cited blocks (plus their drug's
title, since a list claim names the drug whose block it cites) and every number is stated there.

Omissions (which drive the machine's repair path) are deliberately narrow: for a dosing answer, a
ceiling ("tối đa …", "không quá …") of the group the answer quotes from — the quoted band's own or the general
lines' — whose limit the answer does not state, read from the dosage tree. Another band's limit is never
reported.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.budget import RequestBudget
from core.corpus import Chunk
from core.sections import SECTION_HEADINGS
from core.text import fold
from grounding.answer import Answer, EntailmentResult
from grounding.dosing_binding import missing_maxima
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
        # A claim labelled with the section it quotes ("Ciprofloxacin (Chống chỉ định) — Phối hợp với tizanidin."):
        # the label names the cited block, it claims nothing (#18 held-out H52 abstained on it).
        words.update(_WORD.findall(fold(SECTION_HEADINGS.get(b.section_key, ""))))
    return words


def coverage(text: str, blocks: Sequence[Chunk]) -> float:
    words = content_words(text)
    if not words:
        return 1.0
    vocabulary = _vocabulary(blocks)
    return sum(w in vocabulary for w in words) / len(words)


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
        """The ceilings of what the answer quotes that it leaves out, read from the dosage tree of the cited
        sections (dosing_binding.missing_maxima): the quoted line's own band and the general lines of its group,
        never another band's limit."""
        cited = {d for c in answer.claims for d in c.citations}
        drugs = {by_id[d].drug_id for d in cited if d in by_id and by_id[d].section_key == DOSING_SECTION}
        sections = [c for c in by_id.values() if c.section_key == DOSING_SECTION and c.drug_id in drugs]
        return missing_maxima(answer, sections, None)
