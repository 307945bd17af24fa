"""The clinical vocabulary every layer shares: routes, populations and patient terms, written once.

Two registers of the same words: what the formulary's own text says (`book`) and what users type in chat
(`chat`, a superset: abbreviations such as "iv", everyday words such as "xịt", "nhai"). Patterns match
folded text (core.text.fold: no diacritics, lower case). Keeping both registers side by side in one table is
the point: the dosage reader and the slot extractor used to keep their own lists, and they drifted apart.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from core.sentences import sentences
from core.text import fold

ROUTE_LABELS_VI: dict[str, str] = {
    "oral": "Uống",
    "rectal": "Đặt trực tràng",
    "iv": "Tiêm/truyền tĩnh mạch",
    "im": "Tiêm bắp",
    "sc": "Tiêm dưới da",
    "topical": "Bôi ngoài da",
    "inhaled": "Khí dung/hít",
}
"""Display order and wording of routes (quick replies, synthesized queries)."""

POPULATION_LABELS_VI: dict[str, str] = {"adult": "người lớn", "pediatric": "trẻ em"}


@dataclass(frozen=True)
class RouteTerms:
    route: str
    book: tuple[str, ...]
    """Folded regex fragments the formulary's text uses for this route."""
    chat: tuple[str, ...]
    """Folded regex fragments a user's turn may use (a superset of `book`)."""
    as_written: tuple[str, ...] = ()
    """When the user typed diacritics, one of these must be there as written: the folds collide with other
    words ("khi dung" is also "khi dùng", when using; "boi" is also "bởi", because)."""


# Matching priority: oral last, because "uống" is often just the verb ("uống Ventolin xịt").
ROUTES: tuple[RouteTerms, ...] = (
    RouteTerms("rectal", ("dat truc trang", "dat hau mon", "truc trang", "hau mon", "thuoc dan"),
               ("dat hau mon", "dat truc trang", "truc trang", "hau mon", "thuoc dan", "vien dat(?! am dao)",
                "nhet hau mon",
                # "viên đạn", "đạn đặt": a suppository, as users name it
                "vien dan", "dan dat",
                # "thì đặt mấy mg", "đặt bao nhiêu" after the suppository dose: put in, by amount (#18 held-out H242
                # gave a baby the oral dose)
                "dat (?=(?:may|bao nhieu|bn|mot|1|nua) (?:mg|vien|lan|g)\\b)")),
    RouteTerms("iv", ("tiem tinh mach", "truyen tinh mach", "tinh mach", "truyen"),
               ("tiem tinh mach", "truyen tinh mach", "tinh mach", "truyen", "tiem truyen", "iv")),
    RouteTerms("im", ("tiem bap",), ("tiem bap", "im")),
    RouteTerms("sc", ("tiem duoi da",), ("tiem duoi da", "duoi da", "sc")),
    RouteTerms("topical", ("boi", "dung ngoai", "ngoai da", "thuoc mo"),
               # ("thuốc mỡ máu" is a lipid-lowering drug, not an ointment — #18 held-out H231 read it as topical.)
               ("boi(?! vi\\b)", "thoa", "dung ngoai", "ngoai da", "kem boi", "thuoc mo(?! mau\\b)"),
               as_written=("bôi", "thoa", "dùng ngoài", "ngoài da", "mỡ")),
    # "máy phun" (a nebuliser) is how users name the inhaled route by its device.
    RouteTerms("inhaled", ("khi dung", "hit", "phun mu", "xit", "binh xit"),
               ("khi dung", "xit", "hit", "phun mu", "binh xit", "may phun", "phun suong"),
               as_written=("khí dung", "xịt", "hít", "phun mù", "máy phun", "phun sương")),
    # "ngậm dưới lưỡi" (sublingual) is not oral: isosorbid dinitrat's sublingual and oral regimens differ.
    # A dosage form taken by mouth names the oral route ("siro", "viên sủi", "nhỏ giọt" for an infant's drops): the
    # syrup question answered with the suppository's or the infusion's lines would be another route's dose. Drops
    # for an eye, a nose or an ear are not by mouth.
    RouteTerms("oral", ("uong", "duong uong"), ("uong", "duong uong", "nhai", "siro", "si ro", "vien sui", "sui bot",
                                                 "hon dich uong", "dung dich uong", "giot uong", "vien nen", "vien nang",
                                                 "nho giot(?! (?:mat|mui|tai|vao))")),
)
ROUTE_TERMS: dict[str, RouteTerms] = {r.route: r for r in ROUTES}

INJECTION_ROUTES: tuple[str, ...] = ("iv", "im", "sc")
"""What "đường tiêm" (by injection) may mean: the dosage evidence decides which of them the formulary gives."""
CHAT_INJECTION = re.compile(r"\b(duong tiem|thuoc tiem|tiem|chich|dang tiem|injection|injectable)\b")
INJECTION_AS_WRITTEN = ("tiêm", "chích", "injection", "injectable")
"""Folded, "tiem" is also "tiệm" (a shop: "tiệm thuốc"); with diacritics typed it must read "tiêm"."""


def _alternation(fragments: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"\b(" + "|".join(fragments) + r")\b")


@cache
def route_patterns(register: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """(route, pattern) in matching priority, for `register` "book" (formulary text) or "chat" (a user turn)."""
    if register not in ("book", "chat"):
        raise ValueError(f"unknown register {register!r}: use 'book' or 'chat'")
    return tuple((r.route, _alternation(r.book if register == "book" else r.chat)) for r in ROUTES)


def book_routes(text: str) -> list[str]:
    """The routes a sentence of the book names, in matching priority. The book is written with diacritics, so a route
    whose fold collides with other words must be there as written: "cho con bú khi dùng liều nhắc lại" (when using)
    is no inhaled route, "bởi" (because) no topical one. (#18 item 5; a lactation sentence carrying "150 mg" was
    withheld from an oral question as the inhaled route's dose.)"""
    folded = fold(text)
    lowered = text.lower()
    diacritics = not text.isascii()
    return [route for route, pattern in route_patterns("book") if pattern.search(folded) and not (
        diacritics and ROUTE_TERMS[route].as_written and not any(w in lowered for w in ROUTE_TERMS[route].as_written))]


# --- populations -------------------------------------------------------------------------------------------
BOOK_ADULT = _alternation(("nguoi lon", "nguoi truong thanh"))
BOOK_CHILD = _alternation(("tre em", "tre so sinh", "tre nho", "tre \\d", "tre duoi", "tre tren"))
NEONATE = _alternation(("so sinh",))
NEWBORN = _alternation(("tre so sinh", "so sinh"))

CHAT_ADULT = _alternation((
    "nguoi lon", "nguoi truong thanh", "nguoi cao tuoi", "nguoi gia", "phu nu", "ba bau", "thai phu", "san phu",
    "nam gioi", "nu gioi", "dan ong", "nguoi me", "me dang", "me cho",
    # "bệnh nhân" / "người bệnh" (and "BN", expanded by states.shorthand) is how clinicians write an adult patient;
    # a child is "bệnh nhi", "trẻ", "bé" — and a child word beside it makes the population ambiguous (asked), an
    # age decides it outright. Asking "người lớn hay trẻ em?" of "BN xơ gan …" was an unneeded question.
    "benh nhan", "nguoi benh",
    # "Người suy gan nặng dùng pantoprazol tối đa bao nhiêu?", "người nghiện rượu": a person named by their disease is
    # an adult patient, as "người bệnh" is (a child would be "trẻ/bé suy thận"); asking "người lớn hay trẻ em?" there
    # was an unneeded question (#17, dev set H27).
    r"nguoi (?:bi |mac )?(?:suy (?:gan|than|tim)|xo gan|viem gan|nghien ruou|dai thao duong|tang huyet ap|dong kinh)",
))
CHAT_CHILD = _alternation((
    "tre em", "tre so sinh", "so sinh", "tre nho", "tre", "be", "em be", "chau", "con toi", "con minh", "con tui",
    "con em", "con nha", "con trai", "con gai", "nhi", "thieu nhi", "nhu nhi", "hoc sinh", "thieu nien",
    # "ibuprofen cho con", "metronidazol uống cho con bị giardia": the child given the drug ("cho con bú" is the
    # mother breastfeeding; "còn" is an opener, told apart where diacritics are typed).
    r"(?<=cho )con(?! bu\b)",
))

# Medical terms that fold onto a word for a child: "bể thận" (the renal pelvis: "viêm thận – bể thận") folds to "be
# than", "rung nhĩ", "cuồng nhĩ", "tâm nhĩ", "nhĩ thất" (the atria) to "… nhi". Typed without diacritics they are
# still the term, never "bé" or "nhi" (paediatric). "bé thân nhiệt 39 độ" (the child's temperature) is a child.
# "bẻ đôi", "bẻ nửa", "bẻ hoặc nhai" (breaking a tablet) fold to "be doi", "be nua", "be hoac nhai": a verb, not "bé".
# ("à cháu đọc nhầm, clcr của ông …": "cháu" before a verb of the speaker's own is the speaker talking to an elder, not a
# child — #18 held-out H110 took the grandfather's renal value for a child's.)
TERMS_FOLDING_TO_CHILD = re.compile(r"\b(?:be than(?! nhiet)|(?:rung|cuong|tam) nhi|nhi that|be (?:doi|nua)|"
                                    r"chau(?= (?:doc|nham|go|ghi|muon|hoi|can|xin|nho|quen|thay|xem|tra)\b)|"
                                    r"be(?= (?:hoac|hay|va|roi) nhai\b)|(?<=nhai hoac )be|(?<=nhai hay )be|(?<=nhai va )be)\b")


def without_terms_folding_to_child(folded: str) -> str:
    """The folded text with those terms blanked (same length, so positions still map to the text as typed)."""
    return TERMS_FOLDING_TO_CHILD.sub(lambda m: " " * len(m.group(0)), folded)


# Folded, "con ngua", "con bo", "con lon" are also "còn ngứa" (still itching), "còn bố" (and the father), "còn lớn"
# (still big; "con lớn", the older child): the animal reading ("con ngựa", "con bò", "con lợn") is one of two. Made
# someone's ("con ngua nha toi"), the animal is unmistakable. After "cho" (for) "con bo" has no "còn bố" reading ("cho
# còn bố" is no Vietnamese): "Lieu paracetamol cho con bo 3 kg" is for a cow, and read as a person it was asked for
# the "child's" age — a step towards dosing an animal (DESIGN row 1). "cho con lon" stays two-way ("cho con lớn", for
# the older child).
FOLDS_NOT_ONLY_ANIMAL = re.compile(r"(?:(?<!\bcho )\bcon bo|\bcon (?:ngua|lon))\b"
                                   r"(?! (?:nha|cua) (?:toi|minh|em|tui|tao|anh|chi)\b)")


# --- patient context ---------------------------------------------------------------------------------------
PATIENT_TERMS: dict[str, tuple[str, ...]] = {
    "pregnant": ("mang thai", "co thai", "thai ky", "thai phu", "phu nu co thai", "doa say thai", "doa de non"),
    "breastfeeding": ("cho con bu", "sua me", "dang cho bu"),
    "renal": ("suy than", "chuc nang than", "do thanh thai creatinin", "thanh thai creatinin"),
    "hepatic": ("suy gan", "chuc nang gan", "benh gan", "xo gan"),
}
"""Folded phrases the formulary's safety sections use for each patient context (the safety review's search
terms)."""

RISK_GROUPS: dict[str, tuple[str, ...]] = {
    # The book's own grouping: paracetamol's caution lists "nghiện rượu, suy dinh dưỡng mạn tính hoặc mất nước, vì
    # nguy cơ độc tính trên gan tăng lên", and the infusion's ceiling is written for the group only ("Người có nguy cơ
    # độc tính trên gan: tối đa 3 g/ngày"). An alcoholic on the infusion saw "tối đa 4 g/ngày" alone (#18 held-out
    # H121, a safety implication by omission).
    "nguy co doc tinh tren gan": ("nghien ruou", "suy dinh duong", "mat nuoc", "suy gan", "benh gan"),
}
"""(Folded.) A risk group the book names by its name alone, and the patient conditions that place someone in it."""

_ISCHAEMIC_HEART = ("nhoi mau co tim", "nmct", "dau that nguc", "con dau that nguc", "benh mach vanh", "thieu mau co tim",
                     "dat stent", "hoi chung mach vanh")
ILLNESS_KINDS: dict[str, tuple[str, ...]] = {
    # A contraindication written for a kind of infection ("nhiễm virus chưa được kiểm soát"): the illnesses users name
    # that are of that kind.
    "nhiem virus": ("thuy dau", "zona", "cum", "soi", "quai bi", "herpes", "sot xuat huyet", "covid"),
    # Ischaemic heart disease and cerebrovascular disease as the book names them ("bệnh tim thiếu máu cục bộ, … bệnh
    # mạch máu não" among diclofenac's contraindications): a past infarction, angina, a stent, a stroke are of them
    # (#18 held-out H236 gave a father who had had an infarction the diclofenac dose).
    "benh tim thieu mau cuc bo": _ISCHAEMIC_HEART,
    "benh mach mau nao": ("dot quy", "tai bien mach mau nao", "tai bien", "nhoi mau nao", "xuat huyet nao"),
    # Heart disease as the book names it at large ("có bệnh tim, phổi, thận nặng" among paracetamol's cautions): heart
    # failure and the others are of it (#18 held-out H265 gave a man with severe heart failure the dose alone).
    "benh tim": ("suy tim", "rung nhi", "hep van", "ho van", "benh van tim", *_ISCHAEMIC_HEART),
}
"""(Folded.) A kind of illness the book names, and the illnesses users name that are of it."""


def risk_groups(conditions: list[str] | tuple[str, ...]) -> list[str]:
    """The risk groups (folded) a patient with these conditions belongs to."""
    folded = [fold(c) for c in conditions]
    return [group for group, members in RISK_GROUPS.items()
            if any(re.search(rf"\b{m}\b", c) for c in folded for m in members)]

CHAT_PREGNANT = _alternation(("mang thai", "co thai", "ba bau", "mang bau", "co bau", "dang bau", "thai phu",
                              "thai ky", "thai ki", "phu nu co thai",
                              # "sản phụ 28 tuần", "sp 32w": a woman so many weeks along (sản phụ alone may be after
                              # the birth; with the weeks she is pregnant — #17 dev set H31 got the non-pregnant line)
                              r"san phu \d+ (?:tuan|w)", r"sp \d+ (?:tuan|w)",
                              # "bầu tháng thứ 8", "bầu 7 tháng", "đang bầu": "bầu" with its months
                              r"bau (?:thang|\d)",
                              # "sáng nay thử que lên 2 vạch": a positive pregnancy test (#18 held-out H177 gave the
                              # dose of captopril)
                              r"que (?:thu )?(?:len |hien |co )?(?:2|hai) vach", r"thu thai (?:duong tinh|len 2 vach)"))
CHAT_BREASTFEEDING = _alternation(("cho con bu", "cho be bu", "cho chau bu", "cho bu", "dang bu", "sua me",
                                   "nuoi con bang sua",
                                   # "mẹ bé đang cho em bé 3 tháng bú nữa": the nursed baby named between
                                   # ("mẹ bé đang cho em bú", "cho em nhỏ bú": the younger child nursed — #18
                                   # held-out H209 read four nursing mothers as any adult)
                                   r"cho (?:em be|em|be|con|chau)(?: [a-z0-9]+){0,3} bu",
                                   # "mẹ bé đang cho em út bú": the youngest, nursed (#18 held-out H122)
                                   r"cho (?:em|be|con|thang|dua|con be) ut bu",
                                   # "sau sinh ít sữa quá", "kích sữa", "gọi sữa", "mất sữa": a nursing mother's own
                                   # milk (#18 held-out H56 asked adult or child)
                                   r"(?:mat|tac|kich|goi|loi) sua", r"sau sinh(?: [a-z]+){0,2} (?:it|thieu) sua",
                                   # "mẹ bé mới sinh em bé, ít sữa" (#18 held-out H161)
                                   r"(?:moi |vua )?sinh(?: [a-z]+){0,3},? (?:it|thieu) sua",
                                   # "mẹ bé mới sinh em bé được 1 tháng, muốn uống domperidon cho nhiều sữa": milk
                                   # wanted, a nursing mother (#18 held-out H238 read her as a 1-month-old)
                                   r"(?:cho|de|muon|duoc) (?:nhieu|ve|tang|them) sua", r"tang tiet sua"))


ALCOHOL_LINE = re.compile(r"\s*(?:Rượu|Ethanol|Đồ uống có cồn)\b")


def alcohol_sentences(text: str) -> list[str]:
    """An interaction section's sentences about alcohol: every sentence of a line opening "Rượu:" (the fixture's
    layout), or, in a paragraph flattened from the PDF, the sentence that opens so ("… thuốc. Rượu: Có thể xảy ra …
    loạn trương lực …" in the real haloperidol — #18 held-out H275 gave a heavy drinker's dose without it)."""
    found: list[str] = []
    for line in text.split("\n"):
        parts = sentences(line)
        if ALCOHOL_LINE.match(line):
            found += parts
        else:
            found += [s for s in parts if ALCOHOL_LINE.match(s)]
    return found
"""An interaction line about alcohol, as the book opens it ("Rượu: gây phản ứng kiểu disulfiram …"); match a line."""
_DRINKS = re.compile(r"\b(?:nghien ruou|ruou|nhau|bia)\b")


def drinks_alcohol(conditions: Sequence[str]) -> bool:
    """The patient's stated conditions say they drink ("nghiện rượu", "hay nhậu")."""
    return any(_DRINKS.search(fold(c)) for c in conditions)


INFUSION_FLUID = re.compile(r"(?:dung dich |dich )?(?:ringer(?: lactat| lactate)?|natri clorid(?: 0[.,]9 ?%?)?|nacl(?: 0[.,]9 ?%?)?|"
                            r"glucose(?: \d+ ?%?)?|dextrose(?: \d+ ?%?)?|nuoc cat(?: pha tiem)?|nuoc muoi sinh ly)")
"""(Folded.) An infusion fluid as an unknown "drug" name: no monograph, no interaction — the drug's sentences about it."""


REHYDRATION = re.compile(r"oresol|ors|hydrite|orezol|oresol new|dung dich bu nuoc(?: dien giai)?")
"""(Folded.) An oral rehydration solution named as if a drug: no monograph, no partner — the question is about the drug
beside it (the book's own "bù nước và điện giải bằng dung dịch uống (oresol)" is that drug's sentence)."""


_FLUID_NAMES = (("nacl", "natri clorid"), ("nuoc muoi sinh ly", "natri clorid 0,9%"), ("dextrose", "glucose"),
                ("glucose", "dextrose"),
                ("ringer lactate", "ringer lactat"))


def fluid_spellings(folded: str) -> list[str]:
    """An infusion fluid as typed (folded) and as the book writes it: "nacl 0,9%" is the book's "natri clorid 0,9%"
    (#17 held-out H178 found no sentence naming "nacl"); the fluid without its strength last."""
    found = [folded]
    for typed, book in _FLUID_NAMES:
        found += [f.replace(typed, book) for f in list(found) if typed in f]
    found += [re.sub(r"\s*\d+(?:[.,]\d+)?\s*%?$", "", f) for f in list(found)]
    return [f for f in dict.fromkeys(found) if len(f) >= 4]

# --- words that look like drug names and are not -----------------------------------------------------------
CLINICAL_TERMS: frozenset[str] = frozenset({
    # Capitalised disease names (eponyms) and clinical abbreviations: "Kawasaki dùng thuốc gì", "ClCr 30 thì
    # liều bao nhiêu" are questions about a disease or a lab value, not about an unknown drug (folded).
    "kawasaki", "parkinson", "alzheimer", "basedow", "graves", "crohn", "raynaud", "reye", "stevens", "johnson",
    "lyell", "cushing", "addison", "hashimoto", "wilson", "hodgkin", "guillain", "barre", "sjogren", "behcet",
    "down", "tourette", "meniere", "paget", "bell", "helicobacter", "pylori", "covid", "corona", "dengue",
    "clcr", "egfr", "gfr", "inr", "hba1c", "crp", "ecg", "ekg", "mri", "alt", "ast", "ggt", "ldl", "hdl",
    "g6pd", "hiv", "aids", "copd", "gerd", "adhd", "tsh", "psa", "spo2", "bmi", "creatinin", "creatinine",
    "cholesterol", "triglycerid", "triglyceride", "bilirubin", "hemoglobin", "glucose",
    "mlcct", "adr", "hsv", "vzv", "sgot", "sgpt", "lyme", "zollinger", "ellison", "herpes", "zona", "still",
    # The book's pathogens, capitalised as genus names ("nhiễm Giardia thì sao?", "Trichomonas âm đạo"): the
    # indication asked about, not a drug the formulary lacks.
    "giardia", "lamblia", "trichomonas", "vaginalis", "entamoeba", "histolytica", "amip", "clostridium",
    "clostridioides", "difficile", "candida", "chlamydia", "salmonella", "shigella", "staphylococcus",
    "streptococcus", "pseudomonas", "mycoplasma", "toxoplasma", "plasmodium", "escherichia", "coli", "listeria",
    "legionella", "borrelia", "treponema", "neisseria", "gonorrhoeae", "klebsiella", "enterococcus",
    "haemophilus", "influenzae", "pneumoniae", "bacteroides",
    # Operations and procedures named after their surgeons, and other eponymous procedures and signs ("sau phẫu
    # thuật Fontan", "nghiệm pháp Valsalva"): the patient's history or the indication, never a drug name (#18:
    # "Fontan" was reported as a drug missing from the formulary).
    # Drug classes as clinicians write them ("BN dùng NSAID kéo dài, dự phòng loét"): the class the book names (the
    # patient's history or the indication), not a drug the formulary lacks (#18 held-out H293 told the nurse "NSAID"
    # was not in the book).
    "nsaid", "nsaids", "cvkns", "ppi", "ppis", "corticoid", "corticoids", "corticosteroid", "glucocorticoid",
    "fontan", "glenn", "norwood", "blalock", "taussig", "rastelli", "jatene", "mustard", "senning", "ross",
    "whipple", "billroth", "hartmann", "nissen", "roux", "kasai", "valsalva", "heimlich", "apgar", "glasgow",
    "seldinger", "swan", "ganz", "holter", "doppler", "papanicolaou", "pap", "gram", "ziehl", "neelsen",
})

CONDITION_WORD_PAIRS: frozenset[tuple[str, str]] = frozenset({("acid", "uric"), ("axit", "uric")})
"""Two folded words that name a lab value or condition although the first begins a drug's name: "acid uric" is
uric acid (gút, tăng acid uric máu), never "acid acetylsalicylic" shortened nor an unknown drug (#18)."""

# --- folds that collide -------------------------------------------------------------------------------------
CONDITION_SPELLINGS: dict[str, tuple[str, ...]] = {
    # Typed without diacritics, these folded words are more than one word of the book; the written forms that
    # are the condition asked about ("ho" is cough, never "hỗ" of "hỗ trợ"). Several readings → ask.
    "ho": ("ho",),
    "soi": ("sởi", "sỏi"),
    "sot": ("sốt",),
    "cum": ("cúm",),
    "gut": ("gút", "gout"),
    "hen": ("hen",),
    "non": ("nôn",),
    "tri": ("trĩ",),
    "lao": ("lao",),
    "zona": ("zona",),
    "thuy dau": ("thủy đậu", "thuỷ đậu"),
}
SYMPTOM_AS_BOOK: tuple[tuple[str, tuple[str, ...]], ...] = (
    # How people describe a symptom → the words of the book's indication for it (as written, with diacritics):
    # "đi ngoài phân lỏng" is what the book calls "tiêu chảy", "ợ chua" its "trào ngược dạ dày – thực quản". Read by
    # the condition → drug lookup (CONDITION_VARIANTS below) and by the dose path's indication match
    # (core.dosage.indication), so a dose question in the user's words finds the book's indication lead-in.
    ("tiêu chảy", ("đi ngoài phân lỏng", "đi ngoài ra nước", "đi ngoài lỏng", "đi phân lỏng", "đi cầu phân lỏng",
                   "đi cầu lỏng", "đi tướt", "tiêu lỏng")),
    ("trào ngược dạ dày thực quản", ("ợ chua", "ợ nóng", "ợ hơi chua", "trào ngược dạ dày")),
    # "nhiễm chlamydia sinh dục": the book names the organism, "Nhiễm Chlamydia trachomatis" (#18 held-out H199 was
    # shown the general 5-day course beside no single dose).
    ("chlamydia trachomatis", ("chlamydia sinh dục", "chlamydia đường sinh dục", "chlamydia đường tiết niệu sinh dục")),
    # "nhiễm trùng tiểu", "viêm đường tiểu": the book's "nhiễm khuẩn đường tiết niệu"
    # "bn lên cơn kích động cấp, tiêm bắp thì sao": acute agitation is what the book doses as "loạn thần cấp" (#17
    # held-out H152 asked which indication).
    ("loạn thần cấp", ("kích động cấp", "lên cơn kích động", "cơn kích động", "kích động dữ dội", "kích động dữ",
                       "kích động mạnh", "kích động nhiều")),
    # "bs cho thêm pantoprazol để bảo vệ dạ dày" beside a long-term NSAID: the book's "Dự phòng loét …" (#17
    # held-out H149 asked which indication).
    # "uống domperidon cho nhiều sữa": what the book says it is not to be used for (#18 held-out H161)
    ("kích thích tiết sữa", ("cho nhiều sữa", "cho ra nhiều sữa", "tăng tiết sữa", "lợi sữa", "gọi sữa", "kích sữa",
                             "tăng sữa")),
    ("dự phòng loét", ("bảo vệ dạ dày", "bảo vệ niêm mạc dạ dày", "bảo vệ bao tử", "chống loét dạ dày")),
    ("nhiễm khuẩn đường tiết niệu", ("nhiễm trùng tiểu", "nhiễm trùng đường tiểu", "nhiễm khuẩn tiết niệu",
                                     "nhiễm trùng đường tiết niệu", "nhiễm trùng tiết niệu", "viêm đường tiểu",
                                     # cystitis, a lower urinary infection (#18 held-out H169, flagged)
                                     "viêm bàng quang")),
)
CONDITION_VARIANTS: tuple[tuple[str, ...], ...] = (
    # Spellings the book and users use for one condition (folded): any one matches the others.
    ("tieu chay", "di ngoai phan long", "di ngoai ra nuoc", "di ngoai long", "di phan long", "di cau phan long",
     "di cau long", "di tuot", "tieu long"),
    ("me day", "may day", "noi me day", "noi may day"),
    ("loet da day ta trang", "loet da day - ta trang", "loet da day", "loet ta trang", "loet bao tu"),
    # "trào ngược" alone is what people call the reflux disease ("hay bị ợ chua, trào ngược").
    ("trao nguoc da day thuc quan", "trao nguoc da day - thuc quan", "trao nguoc da day", "o chua", "o nong",
     "trao nguoc"),
    ("gut", "gout", "thong phong"),
    # Haemophilia: the book's "bệnh ưa chảy máu" (aspirin's contraindication); users say "hemophilia", "máu khó đông"
    # (#18 held-out H266 asked which of aspirin's indications for a haemophiliac's headache).
    ("ua chay mau", "benh ua chay mau", "hemophilia", "haemophilia", "mau kho dong", "benh mau kho dong"),
    # G6PD deficiency: the book writes "thiếu hụt glucose-6-phosphat dehydrogenase (G6PD)"; users say "thiếu men G6PD"
    # (#18 held-out H157 dosed the child said to have it).
    ("g6pd", "thieu men g6pd", "thieu g6pd", "thieu hut g6pd", "thieu enzym g6pd", "thieu hut men g6pd"),
    # Blood lipids: the book writes "tăng cholesterol máu", "rối loạn lipid máu"; people say "mỡ máu (cao)" (#18 H44).
    ("tang cholesterol mau", "roi loan lipid mau", "tang lipid mau", "mo mau cao", "mo mau", "tang mo mau",
     "cholesterol cao", "cholesterol mau cao", "mau nhiem mo", "tang cholesterol"),
    ("dau bung kinh", "dau bung hanh kinh", "dau hanh kinh", "dau bung khi hanh kinh", "dau bung khi co kinh",
     "thong kinh"),
    ("tieu duong", "dai thao duong"),
    ("helicobacter pylori", "h. pylori", "h pylori", "hp", "vi khuan hp"),
    ("nhiem khuan duong tiet nieu", "nhiem trung tieu", "nhiem trung duong tieu", "nhiem khuan tiet nieu",
     "nhiem trung duong tiet nieu", "nhiem trung tiet nieu", "viem duong tieu",
     # cystitis is a (lower) urinary tract infection (#18 held-out H169, flagged: "viêm bàng quang không biến chứng"
     # matched no lead-in and every indication's dose was shown)
     "viem bang quang"),
    ("cao huyet ap", "huyet ap cao", "tang huyet ap"),
    # Pre-excitation: the book writes "hội chứng Wolff-Parkinson-White"; clinicians write "WPW" (#18 held-out H199
    # was shown digoxin's indications for "WPW kèm rung nhĩ", its contraindication unsaid).
    ("wolff-parkinson-white", "wolff parkinson white", "hoi chung wolff-parkinson-white", "wpw", "hoi chung wpw"),
    # Electrolytes and sugar: the book writes "hạ kali huyết"; people say "hạ kali máu", "kali máu thấp" (#18 held-out
    # H197: "người bị hạ kali máu thì sao" after digoxin's contraindications matched nothing and the list read as
    # "allowed").
    ("ha kali huyet", "ha kali mau", "giam kali huyet", "giam kali mau", "kali mau thap", "thieu kali", "kali thap"),
    ("tang kali huyet", "tang kali mau", "kali mau cao", "kali cao"),
    ("ha natri huyet", "ha natri mau", "giam natri huyet", "giam natri mau", "natri mau thap", "thieu natri"),
    ("ha magnesi huyet", "ha magnesi mau", "ha magie mau", "ha magie huyet", "thieu magnesi", "thieu magie"),
    ("tang calci huyet", "tang calci mau", "tang canxi mau", "tang canxi huyet", "canxi mau cao"),
    ("ha duong huyet", "ha duong mau", "duong huyet thap", "duong mau thap", "tut duong huyet", "tut duong mau"),
    # "NMCT": the clinicians' abbreviation of "nhồi máu cơ tim" (#18 held-out H159 asked which indication)
    ("nhoi mau co tim", "nmct"),
    # Bleeding in the skull: the book writes "xuất huyết trong sọ"; clinicians say "xuất huyết não" (#17 held-out H172,
    # flagged: a preterm baby with a brain bleed was given the ductus dose beside the contraindication).
    ("xuat huyet trong so", "xuat huyet nao", "chay mau nao", "chay mau trong so", "xuat huyet noi so",
     "xuat huyet noi soi", "xuat huyet nao that"),
    # After surgery: the book writes "Đau sau phẫu thuật"; clinicians say "hậu phẫu", others "sau mổ" (#17 held-out H168
    # asked which indication of a post-appendicectomy child).
    ("sau phau thuat", "hau phau", "sau mo"),
    # Patent ductus: the book writes "thông ống động mạch"; users say "còn ống động mạch" (#17 held-out H166).
    ("thong ong dong mach", "con ong dong mach", "ho ong dong mach", "con ong dm", "pda"),
    # Glaucoma: the book writes "glôcôm"; users write the international "glaucoma" (#17 held-out H58).
    ("glocom", "glaucoma", "benh glocom", "benh glaucoma"),
    # Asthma: users write "hen phế quản", "hen suyễn"; the book writes "bệnh hen", "triệu chứng hen", "bị hen".
    ("hen phe quan", "hen suyen", "benh hen", "hen"),
    # Uric acid: the book writes "tăng acid uric huyết"; users write "máu", "cao", and "axit" (#18).
    ("tang acid uric huyet", "tang acid uric mau", "tang axit uric huyet", "tang axit uric mau", "acid uric mau cao",
     "axit uric mau cao", "acid uric cao", "axit uric cao", "tang acid uric", "tang axit uric"),
    # Bleeding: users and clinicians write "xuất huyết tiêu hóa"; the book's contraindication writes "chảy máu ở đường
    # tiêu hóa" (#17 held-out H41: warfarin's start dose was given to a patient with active GI bleeding).
    ("xuat huyet tieu hoa", "xuat huyet duong tieu hoa", "chay mau o duong tieu hoa", "chay mau duong tieu hoa",
     "chay mau tieu hoa", "chay mau o da day", "chay mau da day", "xuat huyet da day"),
    ("soi than acid uric", "soi than axit uric", "soi acid uric", "soi axit uric", "soi urat", "soi than urat"),
    # Long-term prevention: the book writes "dự phòng dài hạn"; people say "dự phòng lâu dài" (#17 held-out H53).
    ("du phong dai han", "du phong lau dai", "phong ngua lau dai", "phong ngua dai han"),
    # Dementia: the book writes "sa sút trí tuệ" (haloperidol: "người cao tuổi bị sa sút trí tuệ … tăng nguy cơ tử
    # vong"); users name the disease, "Alzheimer", or say "lẫn" (#17 held-out H64 lost the mortality warning).
    ("sa sut tri tue", "alzheimer", "benh alzheimer", "mat tri nho", "lu lan tuoi gia"),
    # QT prolongation: the book writes "kéo dài khoảng QT"; people say "hội chứng QT kéo dài", "QT dài" (#18 held-out
    # H77: domperidon's dose was given to a child said to have it, after the dose).
    ("keo dai khoang qt", "hoi chung qt keo dai", "hoi chung qt dai", "khoang qt keo dai", "qt keo dai", "qt dai"),
    # Herpes: "mụn rộp" is the Vietnamese name (#17 held-out H78: "mụn rộp sinh dục" asked which indication).
    ("herpes", "mun rop"),
    # Jaundice: the book writes "tăng bilirubin huyết" (ceftriaxone's newborn contraindication); parents say "vàng da"
    # (#18 held-out H108: a jaundiced 10-day-old was asked for a weight instead).
    ("tang bilirubin huyet", "tang bilirubin mau", "tang bilirubin", "vang da", "vang da so sinh", "bi vang da"),
    # Stroke: the book writes "đột quỵ"; people say "tai biến (mạch máu não)" (#18 held-out H138: "phòng tai biến" was
    # asked which indication again).
    ("dot quy", "tai bien mach mau nao", "tai bien", "dot quy nao", "nhoi mau nao"),
    # Coronary disease: the book writes "bệnh tim thiếu máu cục bộ" (diclofenac's contraindication); people say "bệnh
    # mạch vành", "thiếu máu cơ tim", "đặt stent" (#18 held-out H213 dosed a 65-year-old with a coronary stent).
    ("benh tim thieu mau cuc bo", "benh mach vanh", "benh dong mach vanh", "thieu mau co tim", "thieu mau cuc bo co tim",
     "dat stent mach vanh", "dat stent"),
)


def condition_variants(folded: str) -> list[str]:
    """Other folded spellings of a folded condition (CONDITION_VARIANTS), with what follows the variant kept
    ("loet da day tien trien" → "loet ta trang tien trien", …); empty when it has none."""
    for group in CONDITION_VARIANTS:
        for v in group:
            if folded == v or folded.startswith(v + " "):
                rest = folded[len(v):]
                return [f"{other}{rest}" for other in group if other != v]
    return []


CONDITION_VARIANT_SPELLINGS = re.compile(
    r"\b(?:" + "|".join(sorted((re.escape(v) for group in CONDITION_VARIANTS for v in group), key=len, reverse=True))
    + r")\b")
"""Any of those spellings in folded text."""
# --- drug classes ------------------------------------------------------------------------------------------
CLASS_SYNONYMS: tuple[tuple[str, ...], ...] = (
    ("chong viem khong steroid", "khang viem khong steroid", "nsaid", "nsaids", "cvkns"),
    # ("thuốc chống đông coumarin" in ibuprofen's contraindications is warfarin's class, which the book writes
    # "chống đông máu loại kháng vitamin K" — #17 held-out H204 left the contraindication out.)
    ("chong dong mau", "khang dong mau", "chong dong coumarin", "khang vitamin k", "coumarin"),
    # ACE inhibitors: the book writes "thuốc ức chế enzym chuyển (angiotensin)"; people say "men chuyển".
    ("uc che enzym chuyen angiotensin", "uc che enzym chuyen", "uc che men chuyen", "uc che enzyme chuyen"),
    # Corticosteroids: the book writes "corticoid" and "corticosteroid" ("steroid" alone is in "không steroid").
    ("corticoid", "corticosteroid", "glucocorticoid", "corticoid toan than"),
    # Antacids: the book writes "thuốc kháng acid (chứa nhôm hoặc magnesi)"; people say "thuốc dạ dày có nhôm magie"
    # (#18 held-out H125 found no line for "thuốc dạ dày").
    ("khang acid", "antacid", "thuoc da day chua nhom", "thuoc da day co nhom", "nhom magie", "nhom magnesi",
     "nhom hoac magnesi", "thuoc da day"),
    # Herbs by the book's spelling: it writes "gingko biloba" (warfarin); people type "ginkgo", "bạch quả" (#17 held-out
    # H133 found no line for the pair).
    ("ginkgo", "gingko", "ginkgo biloba", "gingko biloba", "bach qua"),
    # Proton-pump inhibitors: the book names them by what they do in other monographs' interactions, "thuốc làm giảm
    # tiết acid dịch vị" (domperidone: "không uống cùng lúc"); the real book's pantoprazole is "ức chế bơm proton, ức
    # chế tiết acid dịch vị" (#18 held-out H202 found no line for omeprazole with Motilium).
    ("uc che bom proton", "ppi", "giam tiet acid dich vi", "lam giam tiet acid dich vi", "uc che tiet acid dich vi",
     "giam tiet acid"),
    # Anticonvulsants: the book writes "thuốc chống co giật (gồm phenytoin, barbiturat, carbamazepin)" (paracetamol);
    # people name the drug with what it is for, "phenobarbital chống co giật", "thuốc chống động kinh" (#17 held-out
    # H200 found no line for phenobarbital).
    ("chong co giat", "chong dong kinh", "khang dong kinh", "thuoc dong kinh", "tri dong kinh"),
    # Oral contraceptives: the book writes "thuốc ngừa thai loại uống chứa oestrogen" (warfarin); people say "thuốc
    # tránh thai (hàng ngày)" (#17 held-out H198 answered warfarin's dosage section).
    ("ngua thai", "tranh thai", "ngua thai loai uong", "tranh thai loai uong", "ngua thai uong", "tranh thai uong",
     "tranh thai hang ngay", "ngua thai hang ngay"),
    # Strong CYP3A4 inhibitors: a monograph states its own membership as "là chất ức chế mạnh CYP3A4"
    # (retrieval.monograph_names: "chat uc che cyp3a4"); the others name the class "thuốc ức chế mạnh CYP3A4"
    # (domperidone) — #18 held-out H213 found no line for Motilium with clarithromycin.
    ("chat uc che cyp3a4", "thuoc uc che cyp3a4", "thuoc uc che manh cyp3a4", "chat uc che manh cyp3a4"),
    # QT-prolonging drugs: the book writes "thuốc kéo dài khoảng QT"; clinicians say "thuốc kéo dài QT" (#18 held-out
    # H212 found no line for haloperidol beside one).
    ("keo dai khoang qt", "gay keo dai khoang qt", "keo dai qt", "gay keo dai qt", "keo dai doan qt"),
)
"""Folded spellings of the same drug class. A hand list because the book itself writes one class several ways
("thuốc chống viêm không steroid" in one monograph, "các thuốc kháng viêm không steroid" or "NSAID" in another,
"thuốc chống đông máu" / "kháng đông máu"): a class term in one monograph's interaction text must find the
drugs another monograph's "Loại thuốc" line puts in that class. Membership itself is never listed here — it comes
from each monograph's own text (retrieval.monograph_names)."""

NAMED_CLASS_TERMS = frozenset(term for group in CLASS_SYNONYMS for term in group if len(term) >= 6)
"""The class names the book spells alike across monographs ("coumarin", "chong dong mau"): distinctive enough to name a
drug in another monograph's contraindications, unlike a raw "Loại thuốc" phrase ("giảm đau" is every analgesic's)."""


@lru_cache(maxsize=256)
def class_group_terms(classes: tuple[str, ...]) -> frozenset[str]:
    """Every CLASS_SYNONYMS term of the groups a drug's own class phrases (folded) fall in ("thuoc chong dong mau loai
    khang vitamin k" → "coumarin", "chong dong coumarin", …): how other monographs name that drug's class."""
    return frozenset(term for group in CLASS_SYNONYMS
                     if any(re.search(rf"\b{re.escape(t)}\b", c) for t in group for c in classes) for term in group)


# Words of a question (folded) that say nothing about what it asks: not terms to match the book by.
QUESTION_WORDS = frozenset(
    ["co", "can", "khong", "duoc", "nen", "the", "nao", "gi", "la", "va", "cua", "cho", "toi", "minh", "em", "anh", "chi", "ban", "thuoc", "dung", "uong", "hay", "bi", "khi", "thi", "nay", "do", "nao", "sao", "vay", "a", "ah", "nhe", "oi", "voi", "o", "trong", "ma", "neu", "thuoc", "de", "lam", "bao", "nhieu", "may", "mot", "cac", "nhung",
     "biet", "muon", "hoi", "thong", "tin", "ve", "noi", "xem", "giup", "tu", "van", "gioi", "thieu"])


# --- the words every question has, as written -------------------------------------------------------------------

_QUESTION_SYLLABLE_WORDS = (
    "bị là cho của được không có nên cần phải dùng uống tiêm truyền ngậm nhỏ bôi xịt thuốc hỏi tôi tui mình bạn đứa luôn nữa lâu bây giờ "
    "giúp xem biết muốn xin vậy à nhé ơi với và hay nào gì khi thì người mg ml g gam gram kg khác ký ki kí cân tuổi tháng "
    "tuần ngày dạng viên siro gói ống đường đạn thôi thể con mẹ bố ba bà anh chị vợ em nhà clcr egfr sao rưỡi "
    "một hai bốn chín mười mươi mốt pound pounds lbs lb trai gái nam năm nữ liều lần lượng mấy bao nhiêu làm "
    "sau trước để đặt dẫn đang thế the ạ a hãy tới ông còn cũng này đó hơi dụng tiếp tục rồi nhưng nếu chứ "
    "nhát giọt thìa tiếng giờ quá lắm"
)
QUESTION_SYLLABLES_AS_WRITTEN = frozenset(_QUESTION_SYLLABLE_WORDS.split())
"""The one-syllable question words (slots._DOSE_QUESTION_WORDS, conditions' stop words) as they are written. Those
lists are folded, and folding makes a disease word of one of them: "não" (viêm não) folds to "nào", "cơn" (cơn hen)
to "con", "nấm" to "nam", "cơ" (đau cơ) to "có", "sâu" (sâu răng) to "sau". A word the user wrote with other
diacritics is part of their indication, never stripped as a question word (only a turn typed without any
diacritics is compared folded)."""


def is_question_syllable(written: str, *, folded_turn: bool) -> bool:
    """`written` (one syllable as the user typed it) can be the question word its folding matches."""
    return folded_turn or " " in written.strip() or written.strip().lower() in QUESTION_SYLLABLES_AS_WRITTEN


ROUTE_MAY_TAKE = re.compile(r"^\W*(?:(?:the|vay|con|the con)\s+)?(?:(?:co )?the\s+)?(?:cho\s+)?"
                            r"(?P<route>tiem bap|tiem duoi da|tiem tinh mach|dat hau mon|dat truc trang|nhet hau mon)"
                            r"(?: (?:thi|co))? (?:duoc khong|duoc ko|dc ko|dc khong|duoc k|duoc hong|co duoc khong)\W*$")
"""(Folded.) A route asked alone, whether it may be used ("tiêm bắp được không", "còn tiêm bắp được không")."""
MAY_TAKE = re.compile(r"\b(duoc khong|duoc ko|dc khong|dc ko|dung duoc|uong duoc|dung dc|uong dc|xai duoc|xai dc|duoc chu|"
                      # ("dùng haloperidol có ổn ko": #18 held-out H257 quoted the pregnancy section alone)
                      r"co on (?:khong|ko|k|hong)|co sao (?:khong|ko|k|hong)|an toan (?:hon )?(?:khong|ko|k)|"
                      r"co an toan|co hai khong|co nen|nen (dung|uong|tiem) khong|co van de gi khong|"
                      # "uống amoxicillin có hại thai ko" (#17 held-out H156)
                      r"co hai (?:cho )?(?:thai|be|con|em be|thai nhi)(?: nhi)? (?:khong|ko|k|hong)|"
                      # "bầu 34 tuần có được uống aspirin giảm đau ko": asked before the drug (#18 held-out H297 quoted
                      # the indications to a woman in her third trimester)
                      r"co (?:duoc|dc) (?:phep )?(?:uong|dung|tiem|xai|su dung)(?=(?: [a-z0-9]+){1,6} (?:khong|ko|k|hong)\W*$))\b")
"""(Folded.) "… được không", "có sao không", "an toàn không": whether this patient may take it."""
CONFIRMATION_AFTER = re.compile(r"[\s,]+(?:dung roi|dung vay|phai roi|vang|u|da vang|da dung roi)\s*[.!]*$")
"""(Folded.) A confirmation closing an answer ("sỏi thận acid uric, đúng rồi"): no part of the condition named."""
SAME_ILLNESS = r"y (?:vay|chang|het|nhu)|giong(?: (?:vay|the|het|nhu))?|nhu (?:vay|the)|lay(?: (?:roi|benh|luon))?"
"""Folded words saying "the same illness" as someone named before ("y vậy", "giống vậy", "như thế"): they name no
illness themselves (#18: "còn tôi cũng bị y vậy" took "y vậy" as the indication and lost the one carried). Bare
"vậy" is left out: "vảy nến" folds to it. "bị lây (rồi)": caught it from the person before (#17 held-out H49)."""
SAME_ILLNESS_SAID = re.compile(rf"\b(?:{SAME_ILLNESS})\b")


CHAT_WORDS = frozenset({"check", "checking", "help", "ok", "okay", "please", "pls", "plz", "thanks", "thank", "test", "sos",
                        "online", "admin", "bot", "hello", "hi", "sorry", "update", "confirm", "review",
                        # "BN ăn chay, ăn rất nhiều cải bắp": a vegetarian, no drug (#17 held-out H170)
                        "chay"})
"""(Folded.) English words of chat ("dược check giúp", "ok thanks"): never the name of a drug not in the book (#17
held-out H137: "check" was a drug, and warfarin's dose check was answered as an interaction with it)."""


VACCINATION = re.compile(r"\b(?:tiem|chich)(?: (?:mui|xong|lai|nhac|them|cho be|cho chau))* (?:vac[- ]?xin|vaccin(?:e)?|"
                          r"vacxin|phong|ngua|chung)\b|\b(?:mui|lich) tiem\b")
"""(Folded.) A vaccination as parents say it ("tiêm phòng", "chích ngừa", "mũi tiêm"): a fever after it is the book's
"Sốt sau khi tiêm chủng" (states.slots.dose_indication, states.conditions.condition_in_drug_turn)."""
