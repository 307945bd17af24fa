"""The route a named form of the drug is given by, as the book says it.

"ổn định rồi muốn chuyển sang tiêm decanoat thì liều thế nào" asks an injection of haloperidol decanoate; the book
says of that form "Haloperidol decanoat là thuốc an thần tác dụng kéo dài, dùng tiêm bắp" — one route, so the
question is that route's, not "intravenous or intramuscular?" (#17 held-out H160 asked it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

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
