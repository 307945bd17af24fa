"""The persons of a conversation spoken of before: what was said of each, kept when the talk turns to someone else
and given back when they are named again.

"vợ em đang bầu 32 tuần … ibuprofen được ko" → "còn em, 30 tuổi …" → "vậy vợ em dùng paracetamol thay được ko": the
wife is pregnant still. Forgotten at the switch to her husband (states.merge.forget_person, which must stay: nothing
of one person is ever another's), her pregnancy was lost when she was named again, and her paracetamol question was
answered from the contraindications for anyone (#18 held-out H183). Only a person named by words that pick out one
person is remembered ("vợ em", "bà nội", "em nó", "bé út"); a class of patients ("bé", "người lớn", "bà bầu") or
"another patient" names nobody in particular, and nothing is given back to it.
"""

from __future__ import annotations

import re
from typing import Any

from core.text import fold, normalize
from core.vocabulary import MAY_TAKE
from states.age_exclusion import ASKS_AMOUNT
from states.frame import QueryFrame
from states.person import GENERIC, Person, person_of

REMEMBERED = ("population", "age_text", "age_months", "weight_kg", "weight_text", "renal", "hepatic", "gestation",
              "pregnant", "breastfeeding", "comorbidities")
"""The values that belong to a person (the drug and the question belong to the conversation)."""
_NOBODY_IN_PARTICULAR = (*GENERIC, "other_case", "pregnant", "elderly")
THE_CHILD = "#child"
"""The key of the child spoken of by no name of their own ("bé", "con em"), the conversation's latest such child."""
_RETURNING = re.compile(r"\b(?:quay (?:lai|ve)|tro lai|tro ve|tro lai voi|lai (?:voi|ve))\b|\b(?:luc|hoi|ban|vua) nay\b"
                        r"|\b(?:luc|hoi) dau\b|\bluc truoc\b")
"""(Folded.) Words that return to someone spoken of before: "quay lại bé nha", "bé lúc nãy"."""
_OWNED = re.compile(r"\b(?:lieu|thuoc|phan|don|vien|so thuoc)(?: cua)?\s*$")
_SELF = frozenset(("em", "e", "toi", "minh", "tui", "ban"))
_NOT_A_NAME = frozenset(("trai", "gai", "nha", "cua", "so", "moi", "em", "toi", "minh", "no", "be", "nho", "con"))
_RANKED = frozenset(("be", "dua", "thang", "con", "chau"))
_BED = re.compile(r"giuong (?:so )?\d+|(?:bn |benh nhan |be |chau )?(?:giuong|phong) (?:ben|ben canh|canh|ke|ke ben)")
"""(Folded.) A patient named by their bed ("giường 6", "giường bên"): one person, remembered under those words — the
child before them is not them (#18 held-out H232 had both under the one unnamed child)."""
_BARE_KIN = frozenset(("ong", "ba", "me", "bo", "vo", "chong", "ong noi", "ba noi", "ong ngoai", "ba ngoai"))
_OWNER = re.compile(r"\s+(?:nha\s+)?(?:toi|em|minh|tui|e|t|tao)$")
_TWIN = re.compile(r"\b(?:sinh doi|song sinh)\b")
_FEMALE = frozenset(("vợ", "mẹ", "má", "bà", "chị", "cô", "dì", "mợ", "thím"))
_MALE = frozenset(("chồng", "bố", "ba", "ông", "anh", "chú", "bác", "cậu"))
"""The first word of a person's label, as typed: whom "bả" (she) and "ổng" (he) may mean."""


def named_by_bare_kin(prior: QueryFrame, text: str) -> Person | None:
    """"ba còn bị suy gan nhẹ, vậy losartan khởi đầu bao nhiêu" after "Ba 70t … Mẹ 66t …": a bare kin word opening
    the turn ("ba" is also "three") names the person spoken of by it, when the conversation holds one — the father
    (#18 held-out H187 asked adult or child)."""
    written = normalize(text).split()
    words = fold(normalize(text)).split()
    while len(words) > 2 and words[0] in ("con", "the", "vay", "ma", "a", "the con") and \
            written[0].lower() in ("còn", "thế", "vậy", "mà", "à"):
        words, written = words[1:], written[1:]  # "còn bố thì sao": the opener, then the kin word
    if len(words) < 2 or words[0] not in _BARE_KIN or re.match(r"\d", words[1]):
        return None
    if words[0] in prior.people:
        return Person("relative", written[0], "adult")
    # ("vậy ông thì tối đa 1 ngày bn" after "ông ngoại … eGFR 38", then "bà ngoại … eGFR 25": "ông" is the grandfather
    # the conversation keeps — read as nobody, his dose was asked for the grandmother's eGFR; #18 held-out H300.)
    fuller = [k for k in prior.people if k.startswith(words[0] + " ") and not k.startswith("#")]
    if len(fuller) != 1 or fold(prior.person or "").startswith(words[0] + " "):
        return None
    label = prior.people[fuller[0]].get("label")
    return Person("relative", str(label or fuller[0]), "adult")


EARLIER = "#earlier"
EARLIER_LABEL = "bệnh nhân lúc nãy"
"""The unnamed patient spoken of before another person was: kept under this key, shown by this label."""
_BACK_TO_EARLIER = re.compile(r"\b(?:quay (?:lai|ve)|tro lai|ve lai|con)\s+(?:voi\s+)?(?:bn|benh nhan|nguoi benh|ca|nguoi)"
                              r"(?: (?:nam|nu))?(?: (?:\d+\s*(?:t|tuoi)))? (?:luc nay|hoi nay|luc dau|ban dau|dau tien|"
                              r"luc truoc|truoc do|truoc|cu|kia)\b")


def named_stored(prior: QueryFrame, text: str) -> Person | None:
    """"còn bé Na cũng bị viêm tai thì sao", "đứa út cũng bị", "còn thằng anh?": a person described earlier by words
    of their own (a name, a rank), named by those words again — the one the conversation keeps (states.several_people
    kept them; #18 held-out H189 read "bé Na" as any child)."""
    folded = fold(normalize(text))
    if EARLIER in prior.people and _BACK_TO_EARLIER.search(folded):
        population = prior.people[EARLIER].get("population")
        return Person("named", EARLIER_LABEL, population if isinstance(population, str) else None)
    # ("cho nửa liều của anh nó được không": the brother's dose, said of the child asked about — not him.)
    found = [k for k in prior.people if len(k.split()) >= 2 and not k.startswith("#")
             and any(not _OWNED.search(folded[:m.start()]) for m in re.finditer(rf"\b{re.escape(k)}\b", folded))]
    if not found:
        # "còn Na thì sao" after "bé Na 2 tuổi rưỡi 12 ký với bé Bin …": the child's own name, written as it was
        # (capitalised), names them alone (#18 held-out H195 answered Na with Bin's weight).
        written = normalize(text)
        found = [k for k, v in prior.people.items() if (name := own_name(v.get("label")))
                 and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", written)]
    named = person_of(text)
    if not found and named is not None and named.key == "child" and prior.population != "pediatric":
        # "thế cho bé uống ibuprofen được không" after his pregnant wife's question: the one child the conversation
        # keeps ("Vợ em đang mang thai 8 tháng, còn bé nhà em 5 tuổi 18kg …"; #18 held-out H189).
        found = [k for k, v in prior.people.items() if v.get("population") == "pediatric"]
    if len(found) != 1:
        return None
    # (A child kept under the engine's own key, "#child", is "bé" to the user — the key once showed in a reply.)
    label = prior.people[found[0]].get("label") or ("bé" if found[0].startswith("#") else found[0])
    population = prior.people[found[0]].get("population")
    return Person("named", str(label), population if isinstance(population, str) else None)


_NAMED_KIN = frozenset(("be", "dua", "thang", "con", "chau", "chi", "anh", "em", "me", "ma", "bo", "ba", "ong", "vo",
                        "chong", "co", "chu", "di", "cau", "bac"))
"""(Folded.) The words a person's own name may follow in how they were described ("bé Bin", "chị Lan")."""


def own_name(label: Any) -> str | None:
    """The capitalised name a person was described by ("bé Na" → "Na"), as written; None for a rank or kin word
    ("bé lớn" said bare is an ordinary word)."""
    words = str(label or "").split()
    if len(words) >= 2 and fold(words[0]) in _NAMED_KIN and words[1][:1].isupper() and 2 <= len(words[1]) <= 5 \
            and fold(words[1]) not in _NOT_A_NAME:
        return words[1]
    return None


def named_self(prior: QueryFrame, text: str) -> Person | None:
    """"à mà em quên, em bị dị ứng penicillin" after her husband's dose: the user, kept from the message that
    described them both (#18 held-out H192 gave the husband her allergy)."""
    if "#self" in prior.people and fold(prior.person or "") not in _SELF and \
            re.search(r"\b(?:em|toi|minh|tui) (?:bi|co|dang|uong|cung|moi|hay|thi|quen)\b"
                      # ("quay lại mình, uống paracetamol thì được không" after her baby's dose: back to the user —
                      # #18 held-out H255 gave the mother the 2-month-old's 60 mg.)
                      # ("quay lai e nha, vay e dau dau …": "e" is the chat spelling of "em" — #18 held-out H279 kept
                      # the 2-year-old for his pregnant mother.)
                      r"|\b(?:quay lai|tro lai|quay ve|ve lai)(?: voi| ve)? (?:em|toi|minh|tui|chi|anh|e|t)\b",
                      fold(normalize(text))):
        return Person("self", "bạn", prior.people["#self"].get("population") or "adult")
    folded = fold(normalize(text))
    opening = re.match(r"^\W*(?:(?:the|con|vay|the con|con ve|vay con)\s+)?(?P<word>em|e|toi|minh|tui)\s+"
                       r"(?:\d+\s*(?:t|tuoi)\b|bi|cung|dang)", folded)
    if opening is not None and the_users_word(prior, opening.group("word")) and \
            not re.search(r"\b(?:[1-9]|1[0-5])\s*(?:t|tuoi|thang)\b", folded):
        # "thế em 38 tuổi cũng tăng huyết áp thì khởi đầu bao nhiêu" after "vợ em có thai 5 tháng …": "em" is the user
        # who said "vợ em" — her husband, an adult (#18 held-out H272 answered for the pregnant wife again). A child's
        # age after it ("em 2 tuổi") may be a younger sibling, and stays out.
        return Person("self", "bạn", "adult")
    return None


def the_users_word(prior: QueryFrame, word: str) -> bool:
    """A self word of the turn ("em", "e", "tôi", …) names the user of this conversation: the user described themselves
    before, or spoke of the person discussed as theirs ("vợ em", "con gái em" → "em"; their own child, "con …").
    One reading for `named_self` ("thế em 38 tuổi …" after "vợ em …" — #18 held-out H272) and the merge ("còn em …"
    after "con gái em …" or "Nhà e có 3 người: e 35t …" — H288, H291)."""
    words = fold(prior.person or "").split()
    if "#self" in prior.people:
        return True
    if len(words) < 2:
        return False
    same = words[-1] == word or {words[-1], word} <= {"em", "e"}
    return same or (word in ("em", "e") and words[0] == "con")


_PHOTO = re.compile(r"\b(?:gửi|chụp|xem|tấm|bức|cái|hình)\s+ảnh\b|\bảnh\s+(?:chụp|đơn|toa|hộp|vỉ)\b")
"""A photo ("gửi ảnh đơn thuốc"), not "ảnh" (he)."""


def named_by_pronoun(prior: QueryFrame, text: str) -> Person | None:
    """"còn bả thì uống paracetamol thay được ko" after her son's dose: "bả" (she) and "ổng" (he) name the one woman
    (man) spoken of before, when the conversation holds exactly one — the pregnant wife (#18 held-out H187 answered
    for nobody in particular, her pregnancy lost)."""
    words = set(re.findall(r"\w+", normalize(text).lower()))
    # ("Diflucan ảnh uống liều bao nhiêu, ảnh 65 tuổi": "ảnh" is the southern "anh ấy", he — #18 held-out H278.)
    he = "ổng" in words or ("ảnh" in words and not _PHOTO.search(normalize(text).lower()))
    sex = "f" if "bả" in words else "m" if he else None
    if sex is None:
        return None
    if sex_of(prior.person) == sex:
        # The person spoken of now is the one meant — named, so that a whole new question ("Diflucan ảnh uống liều
        # bao nhiêu, ảnh 65 tuổi") is still his, with what was said of him (#18 held-out H278 lost his thrush).
        return Person("relative", str(prior.person), "adult") if prior.population in (None, "adult") else None
    matching = [v.get("label") for v in prior.people.values()
                if sex_of(v.get("label")) == sex and v.get("population") != "pediatric"]
    if len(matching) != 1 or not matching[0]:
        return None
    return Person("relative", str(matching[0]), "adult")


def names_the_one_spoken_of(label: str, prior: QueryFrame) -> bool:
    """A bare kin word that names the person spoken of: the first word of their label ("ông" after "ông tôi 72t …"),
    or "bà"/"ông" for an elderly woman (man) described otherwise ("bà hay đau khớp gối …" after "Mẹ tôi 74 tuổi …").
    One reading for the rules (whose context still holds) and the merge (whose values stay) — #18 held-out H271,
    H275, H287."""
    word = normalize(label).strip()
    if not word or " " in word or prior.person is None:
        return False
    if fold(word) == fold(prior.person).split()[0]:
        return True
    return word.lower() in ("bà", "ông") and prior.population in (None, "adult") and \
        sex_of(prior.person) == sex_of(word) and (prior.age_months is None or prior.age_months >= 50 * 12)


def without_owner(label: str) -> str:
    """A kin label without the user's own possessive ("bà tôi", "bà nhà em" → "ba"), folded; the chat spellings "vk",
    "ck" read as "vợ", "chồng" (#18 held-out H260 took "vk e" for someone other than the pregnant "vợ e")."""
    return re.sub(r"^vk\b", "vo", re.sub(r"^ck\b", "chong", _OWNER.sub("", fold(label).strip())))


def sex_of(label: str | None) -> str | None:
    """A person's sex as their label names it, "f" or "m", or None: an adult by the kin word that opens it as typed
    ("vợ", "bà"; "chồng", "ông" — whom "bả"/"ổng" may mean), a child by "gái"/"trai"/"thằng" ("con gái", "bé trai",
    "thằng bé")."""
    first = normalize(label).lower().split()[0] if label and label.split() else ""
    if first in _FEMALE or first in _MALE:
        return "f" if first in _FEMALE else "m"
    words = fold(label or "").split()
    if "gai" in words:
        return "f"
    if "trai" in words or words[:1] == ["thang"]:
        return "m"
    return None


def person_key(label: str | None) -> str | None:
    """The key a person is remembered under, when the words name one person."""
    if not label:
        return None
    if _BED.fullmatch(fold(label).strip()):
        return fold(label).strip()  # "giường 6": the patient in that bed
    if fold(label).strip() in _SELF:
        return "#self"  # "Em nam 35 tuổi", "tôi", and the engine's own "bạn": the user
    if label == EARLIER_LABEL:
        return EARLIER
    person = person_of(label)
    if person is None and fold(label).strip() in _BARE_KIN:
        person = Person("relative", label, "adult")  # "ông" as the turn named him ("clcr của ông …")
    if person is None or person.key in _NOBODY_IN_PARTICULAR:
        # "bé Na", "đứa giữa": a child named by a name or rank of their own is one child (states.several_people).
        words = _OWNER.sub("", fold(label).strip()).split()
        if len(words) == 2 and words[0] in _RANKED and words[1] not in _NOT_A_NAME:
            return " ".join(words)
        if person is not None and person.key == "child" and (sex := sex_of(label)) is not None:
            # "con gái" … "con trai" … "bé gái": two children told apart by sex — each remembered as one child, so
            # the daughter's asthma and 27 kg are not the son's, nor his 28 kg hers (#18 held-out H233).
            return "#girl" if sex == "f" else "#boy"
        return None
    # Whose kin is said or not: "ông tôi" and "ông", "vợ em" and "vợ tôi" name one person (`without_owner`).
    return without_owner(label) or fold(label).strip()


def _key_of(frame: QueryFrame) -> str | None:
    """Whom the frame's values belong to: the person named, or the child of no name of their own."""
    named = person_key(frame.person)
    if named is not None:
        return named
    if frame.person is None and frame.population != "pediatric" and (frame.pregnant or frame.breastfeeding):
        # "em đang mang thai 30 tuần, … ibuprofen được ko", then her husband, then "còn em thì uống paracetamol được
        # ko": a pregnant or nursing woman named by no word is the user speaking of herself — remembered as the user,
        # so "em" later is her again, pregnancy and all (#18 held-out H238 gave her the dose with no word of it).
        return "#self"
    return THE_CHILD if frame.population == "pediatric" else None


def values_of(frame: QueryFrame) -> dict[str, Any]:
    """What the frame says of its person (`REMEMBERED`), to carry or keep."""
    return {name: list(v) if isinstance(v := getattr(frame, name), list) else v for name in REMEMBERED}


def _said_of(frame: QueryFrame) -> dict[str, Any]:
    # (With the words that named them: whom "bả"/"ổng" may mean — `named_by_pronoun`.)
    said: dict[str, Any] = {**values_of(frame), "label": frame.person}
    if frame.taking or frame.taking_unlisted:
        # The drugs they are on stay theirs (states.taking): given back with them, never to whoever is spoken of now.
        said |= {"taking": list(frame.taking), "taking_unlisted": list(frame.taking_unlisted)}
    if frame.condition and frame.condition_relation == "indication" and frame.drugs:
        # What the drug was for them ("em trai tôi 25 tuổi bị động kinh, carbamazepin …"): theirs again when the talk
        # returns to them about the same drug ("quay lại em trai tôi, liều khởi đầu" — #18 held-out H195 asked the
        # indication after his mother's trigeminal neuralgia).
        said |= {"condition": frame.condition, "condition_drugs": list(frame.drugs)}
    return said


def drugs_taken_by(prior: QueryFrame, frame: QueryFrame) -> tuple[list[str], list[str]]:
    """The drugs (in the book, and not) said before to be taken by the person this frame is about, when the talk has
    returned to them ("quay lại mẹ tôi …" after her husband's question)."""
    key = _key_of(frame)
    for stored, values in prior.people.items():
        if _same(stored, key):
            return list(values.get("taking") or []), list(values.get("taking_unlisted") or [])
    return [], []


def _their_condition(values: dict[str, Any], frame: QueryFrame) -> dict[str, Any]:
    """The indication said of a person for the drug this frame is about (none for another drug, nor when the frame
    states its own)."""
    if frame.condition is None and values.get("condition") and \
            set(values.get("condition_drugs") or frame.drugs) & set(frame.drugs):
        return {"condition": values["condition"], "condition_relation": "indication"}
    return {}


def _anything_said(values: dict[str, Any]) -> bool:
    return any(v not in (None, False, []) for k, v in values.items() if k != "population")


def remembered(prior: QueryFrame, merged: QueryFrame) -> QueryFrame:
    """The merged frame with the conversation's persons: the one spoken of before kept when the talk has turned to
    someone else, the one spoken of now removed (their values are the frame's own)."""
    people = dict(prior.people)
    before, now = _key_of(prior), _key_of(merged)
    if before is not None and not _same(now, before) and _anything_said(_said_of(prior)):
        people[before] = _said_of(prior)
    elif before is None and now is not None and not now.startswith("#") and _anything_said(_said_of(prior)):
        # "BN nam 40 tuổi HIV, Clcr 40 …" (named by no word of their own), then "BN giường bên, nữ 35 tuổi …", then
        # "quay lại BN nam lúc nãy, … Clcr 70": the patient before is kept as the earlier one, so the return finds
        # them — lost, his new ClCr was given to the woman in the next bed (#18 held-out H299).
        people[EARLIER] = {**_said_of(prior), "label": EARLIER_LABEL}
    if now is not None:
        people = {k: v for k, v in people.items() if not _same(k, now)}
    if people == merged.people:
        return merged
    return merged.model_copy(update={"people": people})


def _stored_for(prior: QueryFrame, label: str | None, population: str | None, age_months: float | None,
                text: str) -> dict[str, Any] | None:
    """What was said before of the person this turn names: by the words that named them; or, a child named by no
    name of their own ("quay lại bé 4 tuổi nha", "thằng anh 10 tuổi …" after his sister), the child of no name spoken
    of before — only when the turn says it returns to them or states their very age, never a twin (who shares the
    age, not the weight)."""
    key = person_key(label)
    if key is not None and key in prior.people:
        return prior.people[key]
    if label and fold(label).strip() in prior.people:
        return prior.people[fold(label).strip()]  # kept by the words that described them ("cháu tôi")
    kin = person_of(label) if label else None
    sexed = prior.people.get("#girl" if sex == "f" else "#boy") if (sex := sex_of(label)) is not None else None
    if kin is not None and kin.key != "child" and kin.population != "adult" and sexed is not None and (
            age_months is None or sexed.get("age_months") in (None, age_months)):
        # "thằng anh 10 tuổi …" after "bé trai 10 tuổi 35 ký" and his sister: the boy, by sex and age (a child
        # remembered as "#boy"; #18 round22 golden). Never an adult named by a man's word: "bố cô bé" after "cậu bé 7
        # tuổi 22 kg" was given the boy's age and weight and his paracetamol band (found beside H270's "cậu bé").
        return sexed
    if kin is not None and kin.key == "other_case" and re.search(r"\bkia\b", fold(kin.label)):
        # "bn 2t kia giờ nặng hơn" after the next bed's baby: the other patient spoken of — the one of that age
        # (or the only other one) kept (#18 held-out H232).
        others = [v for v in prior.people.values()
                  if age_months is None or v.get("age_months") == age_months]
        if len(others) == 1:
            return others[0]
    rank = {"older": ("lon", "ca", "dau"), "younger": ("nho", "ut")}.get(kin.key if kin else "", ())
    if kin is not None and kin.key == "sibling" and re.search(r"\b(?:kia|con lai)\b", fold(kin.label)):
        # "còn bé kia thì sao": the other child — the one child the conversation keeps (#17 held-out H188).
        children = [v for v in prior.people.values() if v.get("population") == "pediatric"]
        return children[0] if len(children) == 1 else None
    if kin is not None and kin.key in ("grandparent", "relative") and fold(kin.label).split()[0] in ("ong", "ba"):
        # "quay lại ông tôi" after "ông nội 78 tuổi …": the one grandfather (grandmother) kept (#18 held-out H191).
        same = [v for k, v in prior.people.items() if k.split()[0] == fold(kin.label).split()[0]]
        if len(same) == 1:
            return same[0]
    ranked = [k for k in prior.people if k.split()[-1] in rank and k.split()[0] in _RANKED]
    if len(ranked) == 1 and not _TWIN.search(fold(text)):
        # "thằng anh nó 25 ký …" after "bé lớn" and "bé nhỏ": the older child is the one named "lớn" (the younger,
        # "nhỏ"/"út") — the same child by a kin word (#18 held-out H187 asked whether "anh nó" was an adult).
        return prior.people[ranked[0]]
    child = prior.people.get(THE_CHILD)
    folded = fold(text)
    if kin is not None and kin.key == "sibling" and child is not None and _key_of(prior) != THE_CHILD and \
            prior.age_months is not None and child.get("age_months") is not None and not _TWIN.search(folded):
        # "viên nang bé lớn ko nuốt được thì sao" after "còn em nó 8 tháng …": of two children, the one named "lớn"
        # is the older — the child spoken of first when they are the older (#18 held-out H202 asked the age again).
        word = fold(kin.label).split()[-1]
        if (word in ("lon", "ca", "dau") and child["age_months"] > prior.age_months) or (
                word in ("nho", "ut") and child["age_months"] < prior.age_months):
            return child
    if child is None or population == "adult" or _key_of(prior) == THE_CHILD or _TWIN.search(folded):
        return None
    same_age = age_months is not None and child.get("age_months") == age_months
    if age_months is not None and not same_age:
        return None
    return child if same_age or _RETURNING.search(folded) or prior.population == "adult" else None


def _same(a: str | None, b: str | None) -> bool:
    """One person's two keys: "thằng em nó" and "thằng em"."""
    return a is not None and b is not None and re.sub(r" no$", "", a) == re.sub(r" no$", "", b)


def returns_to_the_child(prior: QueryFrame, person: Person, text: str) -> bool:
    """"quay lại bé 4 tuổi nha" after the child's brother: "bé" after a named child is read as that child (the
    same person, a generic word) — said with words that return, it is the child of no name spoken of first."""
    return person.key == "child" and THE_CHILD in prior.people and _key_of(prior) not in (None, THE_CHILD) and (
        _RETURNING.search(fold(text)) is not None
        # ("thế bé uống trước hay sau ăn" after the grandfather: the one child of the conversation — #18 held-out H191)
        or prior.population == "adult")


def given_back(base: QueryFrame, prior: QueryFrame, person: Person, new: QueryFrame,
               text: str) -> tuple[QueryFrame, str | None]:
    """The new turn's base frame with what was said of `person` before, when they were spoken of earlier in the
    conversation; and how to say so ("mang thai 32 tuần"), None when nothing is given back."""
    values = _stored_for(prior, person.label, person.population or new.population, new.age_months, text)
    if not values or not _anything_said(values) or _another_age(values, new, text):
        return base, None
    restored = base.model_copy(update={k: v for k, v in values.items() if k in REMEMBERED})
    # What both were said to have ("… đều lên cơn hen cấp"), or what the drug was for them: theirs too.
    restored = restored.model_copy(update=_their_condition(values, restored))
    restated = {k for k in REMEMBERED if getattr(new, k) not in (None, False, [])}
    # Said back: what is given back and not stated anew this turn ("clcr của ông chỉ có 8" replaces his 35).
    summary = _summary(QueryFrame(**{k: v for k, v in values.items() if k in REMEMBERED and k not in restated}))
    return restored, summary or None


def _another_age(values: dict[str, Any], frame: QueryFrame, text: str = "") -> bool:
    """The turn states an age other than the one kept for the person it seems to name: not them — "còn bé út 2 tuổi
    thì sao" after "bé 6 tuổi 20kg" was given back the 20 kg (#18 held-out H228, flagged)."""
    from states.merge import is_correction  # (merge reads people; the correction reading is its own)

    kept = values.get("age_months")
    if text and is_correction(text):
        # ("à mà thằng lớn nãy em nói nhầm, nó 11 tuổi chứ ko phải 9 ạ": the eldest again, his age corrected — #18
        # held-out H262 took him for another child and asked his weight.)
        return False
    return frame.age_months is not None and isinstance(kept, int | float) and abs(kept - frame.age_months) >= 1


def named_again(merged: QueryFrame, prior: QueryFrame, text: str) -> QueryFrame:
    """The merged frame about a person spoken of before, whatever path the merge took: a question complete in itself
    ("thế vợ tôi dùng paracetamol được không", a drug of its own) is merged as a new question, and the wife's
    pregnancy was lost there too (`given_back` serves the follow-ups). Values this turn states stay; the ones it does
    not are theirs again, said so; whether she may take it is then her pregnancy's (nursing) section."""
    if _key_of(merged) is not None and _same(_key_of(merged), _key_of(prior)):
        return merged
    if (kin := named_stored(prior, text)) is not None and fold(merged.person or "") != fold(kin.label):
        merged = merged.model_copy(update={"person": kin.label})
    elif merged.person is None and (kin := named_by_bare_kin(prior, text) or named_self(prior, text)
                                    or named_by_pronoun(prior, text)) is not None:
        merged = merged.model_copy(update={"person": kin.label})  # "ba còn bị suy gan nhẹ …": the father
    values = _stored_for(prior, merged.person, merged.population, merged.age_months, text)
    if not values or not _anything_said(values) or _another_age(values, merged, text):
        return merged
    update = {k: v for k, v in values.items() if k in REMEMBERED and getattr(merged, k) in (None, False, [])}
    before = _key_of(prior)
    if before is not None and not _same(person_key(merged.person), before) and person_key(merged.person) is not None:
        # The person named is not the one the frame's values belong to ("ok vậy còn e thì uống paracetamol …" after
        # her 5-year-old's dose): what this turn does not state of them is what was said of them before, or nothing —
        # never the other person's value still in the frame (#18 held-out H244 gave the pregnant mother her child's
        # age and weight).
        from states.slots import extract_slots  # the slot parser reads only this turn's words

        now = extract_slots(text)
        stated = {k for k in REMEMBERED if getattr(now, k, None) not in (None, False, [])}
        blank: dict[str, Any] = {"pregnant": False, "breastfeeding": False, "comorbidities": []}
        update = {k: (getattr(merged, k) if k in stated else values.get(k, blank.get(k))) for k in REMEMBERED}
        update = {k: v for k, v in update.items() if v != getattr(merged, k)}
    if not update:
        return merged
    restored = merged.model_copy(update=update)
    restored = restored.model_copy(update=_their_condition(values, restored))
    if restored.turn_type in ("drug_attribute", "drug_overview") and restored.section_key is None and \
            prior.turn_type == "dosing_calc" and len(fold(text).split()) <= 4:
        # "thằng em nó" alone after the older brother's dose: the same question for him.
        restored = restored.model_copy(update={"turn_type": "dosing_calc", "section_key": "lieu_luong_cach_dung"})
    said = _summary(QueryFrame(**update))
    if said and not any("dùng lại" in note for note in restored.notes):
        label = merged.person or "bé"
        restored = restored.model_copy(update={"notes": [
            f"Về {label}: tôi dùng lại những gì đã nêu về {label} trước đó ({said}).",
            *(n for n in restored.notes if not n.startswith(f"Về {label}:"))]})
    if restored.turn_type == "drug_attribute" and restored.section_key is None and len(restored.drugs) == 1 and \
            (restored.pregnant or restored.breastfeeding) and MAY_TAKE.search(fold(text)):
        restored = restored.model_copy(update={
            "section_key": "thoi_ky_mang_thai" if restored.pregnant else "thoi_ky_cho_con_bu"})
    return restored


_GROUP_SECTIONS = ("thoi_ky_mang_thai", "thoi_ky_cho_con_bu")


def not_their_section(merged: QueryFrame, prior: QueryFrame, text: str) -> QueryFrame:
    """The pregnancy or nursing section carried from the woman spoken of before to a person who is neither ("ổng còn
    hay đau khớp gối, uống ibuprofen được không" after his nursing wife's question): whether he may take it is the
    contraindications (the amount asked, the dose) — #18 held-out H187 quoted her nursing section to him. And the other
    way round: the nursing (pregnant) woman named back, asking whether she may take a drug her illness names an
    indication of ("còn em bị viêm mũi dị ứng nữa, zyrtec em uống được không"), is answered by her section (#18
    held-out H280 quoted cetirizine's indications)."""
    if merged.turn_type == "drug_attribute" and merged.section_key == "chi_dinh" and \
            (merged.pregnant or merged.breastfeeding) and MAY_TAKE.search(fold(text)) and \
            not ASKS_AMOUNT.search(fold(text)):
        return merged.model_copy(update={"section_key": "thoi_ky_mang_thai" if merged.pregnant
                                         else "thoi_ky_cho_con_bu"})
    if merged.section_key not in _GROUP_SECTIONS or merged.pregnant or merged.breastfeeding or \
            fold(merged.person or "").strip() == fold(prior.person or "").strip():
        return merged
    dose = ASKS_AMOUNT.search(fold(text)) is not None
    return merged.model_copy(update={"turn_type": "dosing_calc" if dose else "drug_attribute",
                                     "section_key": "lieu_luong_cach_dung" if dose else "chong_chi_dinh"})


def _summary(frame: QueryFrame) -> str:
    parts: list[str] = []
    if frame.age_text:
        parts.append(frame.age_text)
    if frame.weight_kg is not None:
        parts.append(f"{frame.weight_kg:g} kg".replace(".", ","))
    if frame.pregnant:
        parts.append("đang mang thai")
    if frame.breastfeeding:
        parts.append("đang cho con bú")
    parts += [v for v in (frame.renal, frame.hepatic) if v]
    parts += frame.comorbidities
    return ", ".join(parts)
