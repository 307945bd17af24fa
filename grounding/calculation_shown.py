"""Which computed amounts a reply shows: each beside the line it was computed from.

The calculation block is headed "theo dòng liều được trích dẫn" (computed from the quoted dose line), so a calculation is
shown only when the answer states its line — quoted, or its per-kg figure as a model wrote it. The calculator chooses
its line from the dosage tree; the answer may quote another (the indication's oral line, while the infusion's unsplit
"7,5 mg/kg mỗi 8 giờ" was the one computed), or none (a free-form answer about when to take it). Shown then, the
arithmetic read as the quoted line's (session 16: 405 mg/ngày under metronidazole's 600–800 mg/ngày giardia line).
"""

from __future__ import annotations

from core.numbers import extract_quantities
from core.text import fold
from grounding.answer import Answer
from grounding.calculator import Calculation


def shown_with_its_line(answer: Answer) -> Answer:
    """The answer with only the calculations whose line it states."""
    if not answer.calculations:
        return answer
    said = fold(" ".join(" ".join(c.text for c in answer.claims).split()))
    kept = [calc for calc in answer.calculations if _stated(calc, said)]
    return answer if len(kept) == len(answer.calculations) else answer.model_copy(update={"calculations": kept})


def _stated(calc: Calculation, said: str) -> bool:
    line = fold(" ".join(calc.derivation.rule_line.text.split()))
    figures = [fold(q.text) for q in extract_quantities(calc.derivation.rule_line.text) if "/kg" in q.unit]
    return line in said or any(f in said for f in figures)
