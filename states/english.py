"""Questions typed in English about a formulary drug: understood where the words are unmistakable, the reply
still in Vietnamese; otherwise a clear request to ask in Vietnamese (never "what about this drug?", #18 item 7).

Only ASCII text whose words are mostly English counts: Vietnamese typed without diacritics ("lieu paracetamol cho
tre em") shares almost no words with this list.
"""

from __future__ import annotations

import re

from retrieval.resolver import is_vietnamese_syllable

ENGLISH_ONLY = "english_only"
"""The clarify reason of an English question the rules cannot place: the reply asks for Vietnamese."""
ENGLISH_ONLY_TEXT = ("Tôi chỉ hiểu câu hỏi bằng tiếng Việt (I can only answer questions in Vietnamese). Bạn vui "
                     "lòng hỏi lại bằng tiếng Việt, ví dụ: \"Liều paracetamol cho người lớn?\" hoặc \"Tác dụng phụ "
                     "của ibuprofen?\"")

_WORDS = (
    "a about adult adults after all an and any are as baby be before breastfeeding can child children dosage dose "
    "doses does drug drugs effect effects for give given how i in infant infants interact interaction "
    "interactions is it kid kids kg lbs many me medicine much my of old on or overdose per pregnancy pregnant safe "
    "should side take taking tell the to together use used what when which while with woman women year years yo "
    "old my son daughter he she his her weighs weight months month contraindications contraindicated "
    "contraindication precautions warnings storage store indications indication treat treats nursing mg "
    "lactation elderly patient patients kidney liver renal hepatic failure disease daily maximum max "
    "creatinine clearance crcl egfr mouth orally oral by iv im intravenous intravenously intramuscular "
    "intramuscularly injection subcutaneous rectal suppository grandma grandpa grandmother grandfather granny mom "
    "mother dad father wife husband am was her him she their cold fever pain cough flu have has "
    # everyday words around a medicine question ("I'm 8 months pregnant and have a bad headache", "every morning for my
    # heart", "for my back pain"): #18 held-out H42 asked such questions again in Vietnamese
    "m bad headache every morning night evening day days week weeks heart back stomach tooth toothache head throat "
    "sore sick ill feel feeling hurt hurts really very so too then but if ok okay please thanks thank you yes no not "
    "do did this that from at time times because since also still just now already get got need want would could "
    "will ache aches period cramps rash allergy allergic "
    # "What's the maximum daily dose … for an adult treating a headache without a prescription?" (#18 held-out H125
    # asked for Vietnamese)
    "s whats treating treated treatment without prescription prescribed counter over otc self")
_ENGLISH = frozenset(_WORDS.split()) | frozenset(
    # alcohol with a drug ("I'm taking Flagyl, can I drink beer tonight?"): the book's interaction lines (#18 H52)
    ["alcohol", "alcoholic", "beer", "wine", "drink", "drinks", "drinking", "liquor", "tonight", "party"]) | frozenset(
    # the indications read by ENGLISH_INDICATIONS, and a few words around them ("the usual adult dose … for …")
    ["usual", "typical", "standard", "recommended", "syndrome", "tourette", "tourettes", "duodenal", "gastric",
     "stomach", "peptic", "ulcer", "ulcers", "gerd", "acid", "reflux", "heartburn", "zollinger", "ellison",
     "pylori", "helicobacter", "chickenpox", "chicken", "pox", "varicella", "shingles", "herpes", "zoster",
     "otitis", "media", "ear", "infection", "pneumonia", "urinary", "tract", "uti", "kawasaki", "extended",
     "release", "immediate", "sustained", "xr", "er", "sr"])

_SECTIONS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("qua_lieu_xu_tri", re.compile(r"\boverdos")),
    ("tac_dung_khong_mong_muon", re.compile(r"\bside effects?\b|\badverse\b")),
    ("chong_chi_dinh", re.compile(r"\bcontraindicat|\bwho (should not|shouldn't|cannot|can't) (take|use)\b")),
    ("tuong_tac_thuoc", re.compile(r"\binteract|\btogether\b|\bwith\b.*\b(take|taken|use|used)\b|"
                                   r"\b(alcohol|beer|wine|liquor|drink(s|ing)? (alcohol|beer|wine))\b|"
                                   r"\b(take|taken|use|used)\b.*\bwith\b")),
    ("thoi_ky_mang_thai", re.compile(r"\bpregnan")),
    ("thoi_ky_cho_con_bu", re.compile(r"\bbreast ?feed|\blactat|\bnursing\b")),
    # ("max paracetamol per day for an adult 70 kg": the maximum is a dose — #18 held-out H104.)
    ("lieu_luong_cach_dung", re.compile(r"\bdos(e|es|age|ing)\b|\bhow (much|many)\b|\bmg\b|\bmax(imum)?\b")),
    ("than_trong", re.compile(r"\bprecaution|\bwarning|\bcaution")),
    ("do_on_dinh_bao_quan", re.compile(r"\bstor(e|age)\b")),
    ("chi_dinh", re.compile(r"\bused for\b|\bindicat|\bwhat is .* for\b|\btreats?\b|\bwhat is\b")),
)
_ADULT = re.compile(r"\b(adults?|grown ?ups?|elderly|woman|women|men|man)\b")
_CHILD = re.compile(r"\b(child|children|kids?|infants?|babies|baby|toddlers?|son|daughter|newborns?)\b")
_AGE = re.compile(r"\b(\d+(?:\.\d+)?)\s*(?:-| )?(years?|yrs?|y/?o|months?|mos?)\b(?:\s*-?\s*old)?")
_PERSON_WORDS = (r"(?:grandma|grandpa|grandmother|grandfather|granny|mom|mum|mother|dad|father|son|daughter|he|she|"
                 r"i|wife|husband|baby|child|kid|patient|brother|sister|aunt|uncle|friend)")
# "grandma is 70", "I am 30", "she's 5", "my son, aged 4": an age said without "years".
_BE = r"(?:'s|'m|,?\s+(?:is|am|was|aged|age|turned|s|m))"
"""The verb between a person and an age: "is", "'s", "'m", "aged", or "s"/"m" typed without the apostrophe."""
_AGE_IS = re.compile(rf"\b{_PERSON_WORDS}{_BE}\s+(\d{{1,3}})\b"
                     r"(?!\s*(?:kg|kilos?|lbs?|pounds?|mg|ml|%|percent|degrees?|cm|months?|mos?|weeks?|days?))")
# "can my 2 year old take aspirin", "is it safe to give …": may the patient take it (asks no amount).
_CAN_TAKE = re.compile(r"\b(?:can|could|may|should|is it (?:ok|okay|safe)|safe)\b.*\b(?:take|taking|give|giving|use|"
                       r"using|have)\b|\b(?:safe|ok|okay|alright|fine)\s+(?:for|to)\b")
# "he is 65", "she's 5 years old", "and I am 30": a short reply that only gives someone's age.
_AGE_ANSWER = re.compile(rf"\s*(?:and\s+|but\s+)?{_PERSON_WORDS}{_BE}\s+\d{{1,3}}"
                         r"(?:\s+(?:years?|yrs?)(?:\s+old)?)?\s*[.!?]*\s*")
# English words of a medicine question, and of prompt injection (which names no drug and asks nothing of one).
_MEDICAL = re.compile(r"\b(?:dose|dosage|doses|medicine|medication|drug|drugs|pill|pills|tablet|tablets|syrup|take|"
                      r"fever|pain|cough|cold|flu|allergy|infection|side effects?|pregnan\w*|breastfeed\w*|baby|child|"
                      r"kid|son|daughter|treat|treatment|prescri\w*|antibiotic\w*|mg|kg)\b")
_INJECTION = re.compile(r"\b(?:ignore|instructions?|prompt|system|pretend|disregard|override|developer|jailbreak|"
                        r"rules|previous)\b")
# English patient and route phrases → the Vietnamese words states.slots reads (folded text in, folded text out).
_NUMBER = r"\s*[=:]?\s*(\d+(?:\.\d+)?)(?:\s*ml\s*/\s*min)?"
_LINK = r"(?:\s+(?:is|of|was|at|about|around))*"
_AS_VIETNAMESE: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(rf"\b(?:creatinine clearance|crcl|cr cl|clcr){_LINK}{_NUMBER}"), r"clcr \1 ml/phut"),
    (re.compile(rf"\begfr{_LINK}{_NUMBER}"), r"egfr \1 ml/phut"),
    # ("how much paracetamol syrup can he take": a syrup or a tablet is swallowed — #18 held-out H100 asked the route.)
    (re.compile(r"\b(?:by mouth|orally|oral|per os|po|syrup|suspension|tablets?|pills?|capsules?)\b"), "uong"),
    (re.compile(r"\b(?:intravenous(?:ly)?|iv)\b(?:\s+(?:injection|infusion))?"), "tiem tinh mach"),
    # "im" alone is also "I'm" typed without the apostrophe ("im 30", "im pregnant"): only with a word of giving.
    (re.compile(r"\bintramuscular(?:ly)?\b(?:\s+injection)?|\b(?:by|via|given) im\b|\bim\s+(?:injection|shot)s?\b"),
     "tiem bap"),
    (re.compile(r"\b(?:subcutaneous(?:ly)?|sc)\b(?:\s+injection)?"), "tiem duoi da"),
    (re.compile(r"\b(?:rectal(?:ly)?|suppositor(?:y|ies))\b"), "dat truc trang"),
    (re.compile(r"\b(?:kidney|renal) (?:failure|impairment|disease|problems?)\b"), "suy than"),
    (re.compile(r"\b(?:liver|hepatic) (?:failure|impairment|disease|problems?)\b"), "suy gan"),
    # The dosage form the book doses apart ("Viên giải phóng kéo dài" / "… nhanh"; #18 held-out H59 showed both forms'
    # maxima for "metformin extended release").
    (re.compile(r"\b(?:extended|sustained|modified|prolonged|slow|controlled)[ -]release\b|\b(?:xr|er|sr|mr)\b"),
     "vien giai phong keo dai"),
    (re.compile(r"\bimmediate[ -]release\b|\bir\b"), "vien giai phong nhanh"),
)
# Common indications asked in English, as the book names them (folded): what the dose is for selects its lines
# ("pantoprazole for duodenal ulcer" was asked which indication; #17 held-out H58).
ENGLISH_INDICATIONS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bduodenal ulcers?\b"), "loét tá tràng"),
    (re.compile(r"\b(?:gastric|stomach) ulcers?\b"), "loét dạ dày"),
    (re.compile(r"\bpeptic ulcers?\b"), "loét dạ dày - tá tràng"),
    (re.compile(r"\b(?:gerd|acid reflux|reflux|heartburn)\b"), "trào ngược dạ dày - thực quản"),
    (re.compile(r"\bzollinger[ -]ellison\b"), "Zollinger-Ellison"),
    (re.compile(r"\b(?:h\.? ?pylori|helicobacter)\b"), "diệt Helicobacter pylori"),
    (re.compile(r"\btourette(?:'?s)?(?: syndrome)?\b"), "hội chứng Tourette"),
    (re.compile(r"\bchicken ?pox|varicella\b"), "thủy đậu"),
    (re.compile(r"\bshingles|herpes zoster\b"), "zona"),
    (re.compile(r"\b(?:otitis media|ear infection)\b"), "viêm tai giữa"),
    (re.compile(r"\bpneumonia\b"), "viêm phổi"),
    (re.compile(r"\b(?:urinary tract infection|uti)\b"), "nhiễm khuẩn đường tiết niệu"),
    (re.compile(r"\bkawasaki\b"), "bệnh Kawasaki"),
    (re.compile(r"\bfever\b"), "sốt"),
    # A pain named in English is the pain indication ("for a headache": #18 held-out H123 showed every indication's
    # maximum, the anti-inflammatory 2 400 mg among them).
    (re.compile(r"\b(?:headaches?|toothaches?|migraines?|period pains?|menstrual cramps?|back ?pain|pain|aches?)\b"), "đau"),
    (re.compile(r"\b(?:ulcer prevention|prevent(?:ing)? ulcers?)\b"), "dự phòng loét"),
)


def english_indication(folded: str) -> str | None:
    """The indication an English turn names, in the book's Vietnamese words."""
    return next((words for pattern, words in ENGLISH_INDICATIONS if pattern.search(folded)), None)
_UNITS = frozenset({"kg", "mg", "ml", "lb", "lbs", "mcg", "g"})
_STAGE = re.compile(r"\b(stage|grade|class|nyha|type)\s+(i{1,3}|iv|v)\b")
_ROMAN = {"i": "1", "ii": "2", "iii": "3", "iv": "4", "v": "5"}
""""stage IV", "NYHA class IV": a grade, not the IV route."""
MAX_UNREAD_WORDS = 2
"""More words than this outside the English list (drug names and numbers aside): the turn is not read."""


def looks_english(folded: str, text: str, ignore: tuple[str, ...] = ()) -> bool:
    """An ASCII turn whose words (drug names aside) are mostly English — or, with at least three English words,
    mostly words no Vietnamese syllable spells ("what is the weather in hanoi about paracetamol lol"): Vietnamese
    typed without diacritics is almost all syllables ("lieu paracetamol cho tre em")."""
    if not text.isascii():
        return False
    words = [w for w in re.findall(r"[a-z]+", folded) if w not in ignore]
    hits = sum(w in _ENGLISH for w in words)
    # English words no Vietnamese syllable or unit spells: "be", "can", "kg" alone make no English sentence.
    unmistakable = sum(w in _ENGLISH and w not in _UNITS and not is_vietnamese_syllable(w) for w in words)
    foreign = sum(not is_vietnamese_syllable(w) for w in words)
    share = max(len(words), 1)
    return unmistakable >= 2 and (hits / share >= 0.6 or (hits >= 3 and foreign / share >= 0.5))


def mostly_foreign(words: list[str]) -> bool:
    """Words left over in an ASCII turn that are mostly no Vietnamese syllable ("blah something random"): text the
    rules cannot read as Vietnamese typed without diacritics."""
    foreign = [w for w in words if not is_vietnamese_syllable(w) and not w.isdigit() and w not in _UNITS]
    return len(foreign) >= 2 and len(foreign) / max(len(words), 1) >= 0.6


def english_sentence(folded: str, text: str) -> bool:
    """An English sentence with no drug named: English by `looks_english` with at least three English words (a
    short Vietnamese reply typed without diacritics, "be 5 tuoi 18kg", shares two: "be", "kg")."""
    hits = sum(w in _ENGLISH for w in re.findall(r"[a-z]+", folded))
    return hits >= 3 and looks_english(folded, text)


def readable(folded: str, ignore: tuple[str, ...] = ()) -> bool:
    """Few enough words outside the English list to read the turn ("what is the weather in hanoi about
    paracetamol lol stuff" is not a question about paracetamol the rules can place)."""
    words = [w for w in re.findall(r"[a-z]+", folded) if w not in ignore]
    unread = [w for w in words if w not in _ENGLISH]
    return len(unread) <= MAX_UNREAD_WORDS or len(unread) / max(len(words), 1) < 0.25


def as_vietnamese_slots(folded: str) -> str:
    """The folded English turn with its creatinine clearance, route and organ failure written in the Vietnamese
    words the slot extractors read ("creatinine clearance is 40" → "clcr 40 ml/phut", "by mouth" → "uong")."""
    folded = _STAGE.sub(lambda m: f"{m.group(1)} {_ROMAN[m.group(2)]}", folded)  # "stage iv" → "stage 4"
    for pattern, words in _AS_VIETNAMESE:
        folded = pattern.sub(words, folded)
    return folded


def english_section(folded: str) -> str | None:
    for key, pattern in _SECTIONS:
        if pattern.search(folded):
            return key
    return None


def english_age_answer(folded: str) -> bool:
    """The whole turn says someone's age in English ("he is 65"): a slot answer, as "65 tuổi" would be."""
    return _AGE_ANSWER.fullmatch(folded) is not None


def asks_may_take(folded: str) -> bool:
    """"can my 2 year old take aspirin", "is it safe to give …": whether the patient may take it."""
    return _CAN_TAKE.search(folded) is not None


def english_medicine_question(folded: str) -> bool:
    """An English question about medicines with no formulary drug named: asked again in Vietnamese, not declined
    as out of scope (prompt injection still is)."""
    return bool(_MEDICAL.search(folded)) and not _INJECTION.search(folded)


# One age in two parts: "2 years 6 months", "2 years and 6 months", "2 and a half years old", "2 years and a half".
_AGE_PARTS = re.compile(r"\b(\d{1,3})\s*-?\s*(?:years?|yrs?)(?:\s+old)?,?\s+(?:and\s+)?(\d{1,2})\s*-?\s*(?:months?|mos?)\b"
                        r"(?:\s*-?\s*old)?")
_AGE_AND_A_HALF = re.compile(r"\b(\d{1,3})\s+and\s+a\s+half\s*-?\s*(?:years?|yrs?)\b(?:\s*-?\s*old)?|"
                             r"\b(\d{1,3})\s*-?\s*(?:years?|yrs?)\s+and\s+a\s+half\b(?:\s*-?\s*old)?")


def _compound_ages(folded: str) -> tuple[list[tuple[float, str]], str]:
    """The ages said in two parts (30 months for "2 years 6 months" and "2 and a half years old"), and the turn
    without them — their numbers are not read again as two people's ages (then neither would be taken)."""
    ages: list[tuple[float, str]] = []
    for m in _AGE_PARTS.finditer(folded):
        years, months = int(m.group(1)), int(m.group(2))
        if months < 12:
            ages.append((years * 12.0 + months, f"{years} tuổi {months} tháng"))
    for m in _AGE_AND_A_HALF.finditer(folded):
        years = int(m.group(1) or m.group(2))
        ages.append((years * 12.0 + 6, f"{years} tuổi rưỡi"))
    rest = _AGE_AND_A_HALF.sub(" ", _AGE_PARTS.sub(" ", folded))
    return ages, rest


def _ages(folded: str) -> list[tuple[float, str]]:
    """Every age the turn states: (months, as said back in Vietnamese)."""
    ages, folded = _compound_ages(folded)
    for m in _AGE.finditer(folded):
        months = float(m.group(1)) if m.group(2).startswith("mo") else float(m.group(1)) * 12
        if 0 <= months <= 120 * 12:
            ages.append((months, f"{m.group(1)} tháng tuổi" if m.group(2).startswith("mo") else f"{m.group(1)} tuổi"))
    for m in _AGE_IS.finditer(folded):
        if 0 < int(m.group(1)) <= 120:
            ages.append((int(m.group(1)) * 12.0, f"{int(m.group(1))} tuổi"))
    return ages


def english_patient(folded: str) -> dict[str, object]:
    """Population and age stated in English ("for adults", "my 5 year old", "grandma is 70")."""
    out: dict[str, object] = {}
    if re.search(r"\bpregnan", folded):
        out.update(pregnant=True, population="adult")
    if re.search(r"\bbreast ?feed|\blactat|\bnursing\b", folded):
        out.update(breastfeeding=True, population="adult")
    ages = _ages(folded)
    if len({months for months, _ in ages}) == 1:
        months, said = ages[0]
        out.update(age_months=months, age_text=said, population="adult" if months >= 18 * 12 else "pediatric")
        return out
    # Two people's ages ("I am 30 and my son is 5 …"): whose is the patient's is not read from the words — neither
    # is taken (the gates ask), never the first one found.
    adult, child = bool(_ADULT.search(folded)), bool(_CHILD.search(folded))
    if adult != child:
        out["population"] = "adult" if adult else "pediatric"
    return out
