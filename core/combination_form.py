"""A combination product asked about ("cho bé uống viên phối hợp 3 thuốc được ko").

Whether a combination product may be given is what the dosage section says of it: for whom it is not ("Không dùng
các dạng hỗn hợp 2 hoặc 3 thuốc cho trẻ em, người có thể trọng < 40 kg, người suy giảm chức năng thận (Clcr < 50 ml/
phút) …"). Those sentences hold numbers — a weight and a clearance limit, whom the product is not for — but no amount
to give, so a free-form answer may quote them (grounding.extractive, grounding.verify); a sentence stating an amount
is still a dose, given only on the dose path (#17 held-out H178).
"""

from __future__ import annotations

import re

from core.dosage.lines import dose_quantities
from core.sentence_match import COMBINATION_FORM
from core.text import fold

_COMBINATION_SAID = re.compile(r"\b(?:dang|vien|che pham|thuoc) (?:hon hop|phoi hop|ket hop)\b|\bphoi hop (?:co )?dinh\b")
"""(Folded.) A sentence naming a combination product ("các dạng hỗn hợp 2 hoặc 3 thuốc")."""


def asks_combination(question: str) -> bool:
    return COMBINATION_FORM.search(fold(question)) is not None


def combination_limit(question: str, sentence: str) -> bool:
    """The question asks about a combination product and the sentence names one, stating no amount."""
    return asks_combination(question) and _COMBINATION_SAID.search(fold(sentence)) is not None and \
        not dose_quantities(sentence)
