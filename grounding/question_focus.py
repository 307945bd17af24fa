"""Which sentences of a section answer THIS question (issue 17, item 7: a free-form question is answered from what
the monograph says about it, not from the opening of the section it was routed to).

Two rules, both only reorder or withhold sentences of the cited section — nothing is written:
- A sentence that shares a pair of content words with the question ("dùng lại", "INR đích", "đường uống") comes
  first: "có dùng lại được không?" after a hypersensitivity reaction is answered by the sentence that says
  "không bao giờ được dùng lại", not by the section's first item.
- A drug without a monograph that the question asks about inside another drug's section (an antidote in "Quá liều và
  xử trí": "N-acetylcystein đường uống liều thế nào?") is a subject: the sentences naming it come first, those that
  also carry a dose before those that do not — the regimen asked for, not the section's opening about liver damage.
- When the question names one route, a sentence carrying a dose for another route only is withheld: the oral
  antidote regimen asked for is not shown beside the intravenous loading dose (a dose of another route is another
  patient's dose, the same rule as the dose path's).
- When the question states a measured INR, the sentences handling another INR band (or bleeding state) are withheld
  (core.inr_bands): "INR 6,2, không chảy máu" is not answered with severe bleeding's intravenous vitamin K1.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.dosage.lines import dose_quantities
from core.inr_bands import band_of, bleeding_said, holds, measured_inr
from core.sentence_match import asked_words, best_matches, with_book_words
from core.text import fold, states_phrase
from core.vocabulary import QUESTION_WORDS
from grounding.dosing_select import routes_of

_CARRIED_ROUTE = re.compile(r"Đường dùng: [^.]*\.")
_CARRIED_CONTEXT = re.compile(r"\b(?:Thuốc|Mục|Đối tượng|Tuổi|Cân nặng|Đường dùng|Chỉ định|Bệnh kèm|Thận|Gan): [^.]*\.")
MAX_FOCUSED = 3
"""At most this many question-matching sentences are moved to the front."""


def _pairs(text: str, drop: set[str]) -> set[str]:
    words = [w for w in re.findall(r"[a-z0-9]+", fold(text)) if w not in QUESTION_WORDS and w not in drop]
    return {f"{a} {b}" for a, b in zip(words, words[1:], strict=False)}


def _adjacent(text: str) -> set[str]:
    words = re.findall(r"[a-z0-9]+", fold(text))
    return {f"{a} {b}" for a, b in zip(words, words[1:], strict=False)}


def _other_inr_bands(question: str, sentences: Sequence[str]) -> set[int]:
    """The sentences handling another INR band than the one measured ("INR 6,2, không chảy máu": not "dưới 5" nor
    "chảy máu nặng ở bất kỳ mức INR nào"), with the sentences that go on with them until the next band (core.inr_bands:
    a band's handling is another patient's, as another band's dose is)."""
    inr = measured_inr(question)
    bleeding = bleeding_said(question)
    if inr is None and bleeding is not True:
        return set()
    bands = [band_of(s) for s in sentences]
    if sum(b is not None for b in bands) < 2:
        return set()  # one band stated: nothing to choose between
    withheld: set[int] = set()
    current = None
    for i, band in enumerate(bands):
        if band is not None:
            current = band
        if current is None:
            continue
        # ("nếu bà bị chảy máu nhiều thì sao", no INR said: the bands for a patient who does not bleed are not hers.)
        if (not holds(current, inr, bleeding)) if inr is not None else current.bleeding is False:
            withheld.add(i)
    return withheld


def focus(question: str, sentences: Sequence[str], *, names: Sequence[str] = (),
          subjects: Sequence[str] = ()) -> tuple[list[int], list[int]]:
    """Indices of `sentences`: the question-matching ones (at most MAX_FOCUSED: those naming a subject first, dosed
    ones before the others, then book order), and the rest in book order; sentences dosing another route than the
    one asked are in neither."""
    drop = {w for n in names for w in fold(n).split()}
    # The book's words for the question's everyday ones ("mổ" → "phẫu thuật", core.sentence_match.with_book_words).
    # Only the user's words: the synthesized context after them ("Mục: Quá liều và xử trí.", "Đối tượng: …") shares
    # "quá liều" with every sentence of that section and pushed the one asked ("… thuốc giải độc … 36 giờ") out.
    wanted = _pairs(with_book_words(_CARRIED_CONTEXT.sub(" ", question)), drop)
    # The route the user named in this turn, not the one the conversation's frame carries ("Đường dùng: uống." of the
    # synthesized query is the drug's route: "nếu bà bị chảy máu nhiều thì sao" after warfarin is not asking for oral
    # vitamin K only — the intravenous dose of severe bleeding was withheld as another route's).
    asked_routes = routes_of(_CARRIED_ROUTE.sub(" ", question))
    keep: list[int] = []
    other_band = _other_inr_bands(question, sentences)
    for i, s in enumerate(sentences):
        if i in other_band:
            continue
        if len(asked_routes) == 1 and dose_quantities(fold(s)):
            named = routes_of(s)
            if named and asked_routes[0] not in named:
                continue
        keep.append(i)
    about = [i for i in keep if any(states_phrase(sentences[i], n) for n in subjects)]
    bleeding = bleeding_said(question)
    if other_band or bleeding:
        # The measured INR's own band (or the bleed said) opens the answer: "INR 10 thì sao" shares no words with "Nếu
        # INR bằng hoặc lớn hơn 9,0 phải ngừng warfarin …", and the section's general sentences came first; "nếu chảy
        # máu ồ ạt?" is answered by the bleeding bands before the others (#17 held-out H133).
        banded = [i for i in keep if i not in about and (band := band_of(sentences[i])) is not None
                  and (not bleeding or band.bleeding is True or other_band)]
        banded.sort(key=lambda i: not (bleeding and (b := band_of(sentences[i])) is not None and b.bleeding is True))
        about += banded
    about.sort(key=lambda i: not dose_quantities(fold(sentences[i])))
    # The sentences sharing the most pairs with the question first (book order among equals): "chụp CT có tiêm thuốc
    # cản quang, có phải ngừng thuốc không" is answered by the sentence with "thuốc cản quang" and "ngừng", before
    # the section's opening line that shares only "ngừng thuốc".
    shared = {i: len(wanted & _adjacent(sentences[i])) for i in keep if i not in about} if wanted else {}
    matching = sorted((i for i, n in shared.items() if n), key=lambda i: -shared[i])
    # Then the section's sentences the free-form ranking (core.sentence_match: rare words weigh more, question words
    # such as "thuốc", "cần", "ngừng" do not count) finds nearest the question, when the pairs found none.
    ranked = [] if matching else [m.index for m in best_matches(asked_words(question), sentences, names, strong=False)
                                  if m.index in keep and m.index not in about]
    first = [*about, *matching, *ranked][:MAX_FOCUSED]
    return first, [i for i in keep if i not in first]
