"""The route a named form of the drug is given by, as the book says it.

"ổn định rồi muốn chuyển sang tiêm decanoat thì liều thế nào" asks an injection of haloperidol decanoate; the book
says of that form "Haloperidol decanoat là thuốc an thần tác dụng kéo dài, dùng tiêm bắp" — one route, so the
question is that route's, not "intravenous or intramuscular?" (#17 held-out H160 asked it). And when the book doses
the form under a lead-in of its own ("Khi người bệnh đã ổn định với liều uống … cần điều trị lâu dài, có thể tiêm bắp
sâu haloperidol decanoat"), that lead-in is the indication asked: "muốn chuyển decanoat tiêm bắp sâu duy trì" after an
acute IM dose kept the acute indication and showed its 2 - 5 mg (#17 held-out H166).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from core.dosage.parse import parse_dosage
from core.sentences import sentences
from core.text import fold
from core.vocabulary import book_routes
from states.frame import QueryFrame

DOSING_SECTION = "lieu_luong_cach_dung"
_INJECTED = {"iv", "im", "sc"}
_FORMS = re.compile(r"\b(decanoat|lactat|hydroclorid|hydrochlorid)\b")


def with_form_route(merged: QueryFrame, text: str,
                    section_texts: Callable[[str], Mapping[str, str]] | None) -> QueryFrame:
    """The frame with the route of the form the turn names, when the book gives that form one route; unchanged
    when no form is named, a route is already known, or the book gives it none or several."""
    form = _FORMS.search(fold(text))
    if form is None or merged.route is not None or len(merged.drugs) != 1 or section_texts is None:
        return merged
    routes = {r for s in sentences(section_texts(merged.drugs[0]).get(DOSING_SECTION, ""))
              if form.group(1) in fold(s) for r in book_routes(s)}
    if merged.route_family == "injection":
        # "tiêm decanoat": among the injections the book names for the form ("… ổn định với liều uống …, có thể tiêm bắp
        # sâu haloperidol decanoat" names the oral dose it replaces too).
        routes &= _INJECTED
    if len(routes) != 1:
        return merged
    return merged.model_copy(update={"route": routes.pop(), "route_family": None})


def with_form_indication(merged: QueryFrame, text: str,
                         section_texts: Callable[[str], Mapping[str, str]] | None) -> QueryFrame:
    """The frame with the indication the book doses the named form under, when one lead-in names it; unchanged
    otherwise (no form named, not a dose question, no such lead-in or several)."""
    form = _FORMS.search(fold(text))
    if form is None or merged.turn_type != "dosing_calc" or len(merged.drugs) != 1 or section_texts is None:
        return merged
    tree = parse_dosage(section_texts(merged.drugs[0]).get(DOSING_SECTION, ""), drug_names=merged.drugs)
    labels = {line.context.indication[-1] for line in tree.lines
              if line.context.indication and form.group(1) in fold(line.text)}
    if len(labels) != 1:
        return merged
    # (Without the drug's own name: every caution naming the drug matched it as the patient's condition.)
    label = re.sub(rf"\s*\b{re.escape(merged.drugs[0])}\b", "", labels.pop(), flags=re.IGNORECASE).strip()
    if merged.condition and fold(merged.condition) == fold(label):
        return merged
    return merged.model_copy(update={"condition": label, "condition_relation": "indication",
                                     "condition_ambiguous": False})
