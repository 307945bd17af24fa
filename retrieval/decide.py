"""The deterministic evidence decision. Never a model's self-reported confidence (ADR 0007/0008).

A quarantined block (a table that failed extraction) escalates to VERIFY_PDF — unless the block is, as far as its
own words show, about a patient context this patient does not have. The book's renal adjustment tables are the
common case: aciclovir's flattened "Với người bệnh suy thận: … Độ thanh thải creatinin (ml/phút) …" table is for
patients with renal impairment, and a patient who did not state any is asked about the usual dose, which the
readable text gives. Such a block is never quoted either way (it is not evidence a generator sees).

Safety: the topic is read only where it is certain. The block's opening words (before its first number) must name
the impaired patients ("người bệnh suy thận"), and every lead-in of the block (each phrase before a ":") must name
the context (or be a route, or a dialysis heading of that
context); a block that says anything else, or whose topic cannot be read, escalates as before. Only dosage blocks
are read so: a quarantined block of any other section may hold what the question asks (an interaction table).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import StrEnum

from core.corpus import Chunk
from core.text import fold
from core.vocabulary import route_patterns

DOSING_SECTION = "lieu_luong_cach_dung"
_RENAL = re.compile(r"\b(suy (giam chuc nang )?than|chuc nang than|thanh thai creatinin|clcr|egfr|loc cau than|"
                    r"tham phan|tham tach|loc mau|ton thuong than)\b")
_HEPATIC = re.compile(r"\b(suy (giam chuc nang )?gan|chuc nang gan|benh gan|xo gan|child[ -]pugh)\b")
# The opening must name the impaired patients in words: a table headed only by a measurement ("Độ thanh thải
# creatinin (ml/phút) | Liều duy trì") may hold the row of a patient whose function is normal (> 80 ml/phút), so it
# bears on every patient and escalates. A dialysis heading alone does not do: "Thẩm phân máu: Độ thanh thải
# creatinin … > 80 …" is a ClCr table whose lead-in was lost, not a table for patients on dialysis.
_RENAL_GROUP = re.compile(r"\b(suy (giam chuc nang )?than|ton thuong than)\b")
_HEPATIC_GROUP = re.compile(r"\b(suy (giam chuc nang )?gan|xo gan|benh gan)\b")
_TOPICS = {"renal": (_RENAL_GROUP, _RENAL), "hepatic": (_HEPATIC_GROUP, _HEPATIC)}
_REASON_LINE = re.compile(r"^\s*\[[^\]]*\]\s*")
_LEADIN = re.compile(r"([^.:;\d<>≤≥=]{3,120}):")
_ROUTES = route_patterns("book")
_MAX_ROUTE_WORDS = 5


class Decision(StrEnum):
    ANSWERABLE = "answerable"
    VERIFY_PDF = "verify_pdf"
    ABSTAIN = "abstain"


def quarantine_topic(chunk: Chunk) -> str | None:
    """The patient context ("renal", "hepatic") a quarantined dosage block is wholly about; None when not certain."""
    if chunk.section_key != DOSING_SECTION:
        return None
    text = fold(_REASON_LINE.sub("", re.sub(r"<!--.*?-->", " ", chunk.text, flags=re.S)))
    opening = re.split(r"\d", text, maxsplit=1)[0]
    leadins = [m.group(1).strip() for m in _LEADIN.finditer(text)]
    for topic, (group, pattern) in _TOPICS.items():
        if not group.search(opening):
            continue
        if all(pattern.search(phrase) or _route_only(phrase) for phrase in leadins):
            return topic
    return None


def _route_only(phrase: str) -> bool:
    words = phrase.split()
    return 0 < len(words) <= _MAX_ROUTE_WORDS and any(p.search(phrase) for _, p in _ROUTES)


def escalates(chunk: Chunk, *, renal: bool = True, hepatic: bool = True) -> bool:
    """A quarantined chunk sends the turn to the PDF unless it is about a context the patient is known not to be
    in. The defaults (both contexts assumed) make every quarantined chunk escalate."""
    if not chunk.has_quarantined_content:
        return False
    topic = quarantine_topic(chunk)
    return topic is None or (topic == "renal" and renal) or (topic == "hepatic" and hepatic)


def decide(evidence: Sequence[Chunk], *, renal: bool = True, hepatic: bool = True) -> Decision:
    """No provenance → ABSTAIN; a quarantined chunk that bears on this patient → VERIFY_PDF; else ANSWERABLE.

    `renal`/`hepatic`: whether the patient has (or may have) that impairment. The defaults treat every quarantined
    chunk as bearing on the patient; the machine passes False only for a context the patient did not state."""
    if not evidence or any(not c.doc_id or not c.drug_id for c in evidence):
        return Decision.ABSTAIN
    if any(escalates(c, renal=renal, hepatic=hepatic) for c in evidence):
        return Decision.VERIFY_PDF
    return Decision.ANSWERABLE
