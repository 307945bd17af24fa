"""Deterministic drug-name resolver (rapidfuzz) over the formulary's own names.

It bounds the candidate set before any model runs: an LLM understander may only choose among these.

How a turn is scanned: the turn is split into word tokens, each folded (no diacritics, lower case); n-grams of
up to four tokens are looked up exactly in the folded name book (INN, Vietnamese spelling, aliases, brands),
longest first, so "acid acetylsalicylic" and "aspirin pH8" win over their parts. Tokens left over are matched
fuzzily — but only tokens that cannot be an ordinary Vietnamese word: at least five letters, not a single
Vietnamese syllable, not typed with Vietnamese diacritics. A fuzzy match must also share the name's first two
letters and stay within a small edit distance, because the near neighbours of formulary drugs are other drugs
(esomeprazol ~ omeprazol, prednison ~ prednisolon, digitoxin ~ digoxin) and mapping one to the other would be
a wrong answer, not a typo fix. What looks like a drug name but resolves to nothing is reported as unknown.

Real drugs the formulary lacks (core.inn_names): an n-gram spelling one of them is claimed before any fuzzy or
shorthand match and reported as unknown — "esomeprazol" is not omeprazol, "acid folic" is not acid acetylsalicylic,
"colchicin" is a drug even with no INN-like suffix. The formulary's own names (and their other spellings) win.

Chat shorthand ("para", "amox", "cipro"): a token left over that begins exactly one drug's generic name (INN,
Vietnamese spelling or title synonym — not brands, which are many and overlap) resolves to that drug with a
lower score; a token that begins several drugs' names resolves to none of them (never a guess between two), and
is reported as `ambiguous` with those drugs, from three letters on ("cef", "met"), so that the machine asks which.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from pydantic import BaseModel, Field
from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from core.corpus import DrugNames
from core.inn_names import INN_NAMES
from core.text import compiled, fold
from core.vocabulary import CLINICAL_TERMS, CONDITION_WORD_PAIRS

ACCEPT_SCORE = 88.0
"""rapidfuzz ratio (0–100) a fuzzy match must reach (besides the prefix and edit-distance guards)."""
MIN_FUZZY_LEN = 5
MAX_NGRAM = 4
MIN_PREFIX_LEN = 4
MIN_AMBIGUOUS_LEN = 3
"""A shorter token ("ce", "me") is too little of a name to offer candidates for."""
MAX_AMBIGUOUS = 30
_ENGLISH_NOT_SHORTHAND = frozenset({"all", "car", "flu", "pre", "war", "par", "iso", "los", "aci", "can", "for", "pro"})
"""Three-letter English words (and prefixes) that begin one drug's name: words, not a shorthand to ask about ("the
flu", "all kids")."""
"""More drugs than this behind one shorthand: it is hardly a name (the machine asks for the drug as for none)."""
CHAT_SHORTHANDS = frozenset({"ibu", "dom"})
"""Three-letter shorthands people type for one drug in chat ("ibu cho bé", "dom uống trước ăn"): taken as the one drug
whose generic name they begin, when exactly one does (the formulary decides which; with two, asked as any other).
Other three-letter prefixes are asked, never guessed (#18 held-out H104: "ibu", "dom" asked in every turn)."""
_NAME_CUES = frozenset({"lieu", "thuoc", "uong", "dung", "voi", "cho", "chich", "tiem"})
"""Words before a drug name: "lieu met", "uong cef" — then a syllable-shaped token typed without diacritics in a
turn without them may be the shorthand ("met"), not the word ("mệt")."""
RESOLVED_MAX = 4096
"""Texts whose resolution `DrugResolver.resolve` remembers (cleared when full)."""
PREFIX_SCORE = 80.0
"""Score of a shorthand (prefix) match: below any exact or fuzzy match, so a full name in the turn wins."""

_TOKEN = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*", re.UNICODE)

# One Vietnamese syllable, folded: onset, vowel nucleus, coda. A token matching this is treated as a
# Vietnamese word and never fuzzy-matched to a drug ("thuoc", "khong", "nguoi", "truong" ...).
_VI_SYLLABLE = re.compile(
    r"^(ngh|ng|nh|ch|gh|gi|kh|ph|qu|th|tr|[bcdghklmnpqrstvx])?"
    r"(uye|uya|oai|oay|oeo|uay|uoi|uou|ieu|yeu|uoc|ai|ao|au|ay|eo|eu|ia|ie|iu|oa|oe|oi|ua|ue|ui|uo|uu|uy|ye|[aeiouy])"
    r"(ng|nh|ch|[cmnpt])?$"
)
_SALT_WORDS = frozenset({"decanoat", "decanoate", "lactat", "lactate", "hydroclorid", "hydrochlorid", "hydrochloride",
                         "natri", "kali", "maleat", "sulfat", "acetat", "citrat", "phosphat", "besylat", "mesylat",
                         "fumarat", "tartrat", "succinat", "propionat", "clorid"})
"""A salt or ester written after the drug's name ("haloperidol decanoat", "papaverin hydroclorid")."""
# Frequent Vietnamese words typed without diacritics that are NOT single syllables of the pattern above, plus
# English/Latin filler that shows up in turns; never drug names.
_COMMON_WORDS = frozenset(
    ["thuoc", "khong", "duoc", "nguoi", "uong", "dung", "lieu", "benh", "chong", "dinh", "tuong", "bao", "nhieu", "vien", "trieu", "chung", "nhung", "truong", "python", "java", "code", "hello", "thanks", "thank", "please", "sorry", "okay", "google", "facebook", "youtube", "covid", "type", "test", "vitamin", "helicobacter", "pylori", "virus", "vaccine", "vacxin", "insulin", "oxy", "oxygen", "calci", "canxi", "kali", "natri", "magie", "sat", "kem",
     # English words of prompt-injection and chat text ("Ignore all previous instructions …")
     "ignore", "previous", "instructions", "instruction", "system", "prompt", "print", "tell", "show", "give",
     "what", "which", "dose", "dosage", "child", "children", "adult", "tablet", "please", "forget", "rules",
     "pretend", "answer", "reply", "assistant", "developer", "mode", "override", "disregard"]
)
# Suffixes of INN stems (WHO): a token ending so is a drug name even when the formulary lacks it.
_DRUG_SUFFIX = re.compile(
    r"(vir|mab|nib|pril|sartan|olol|azol|azole|mycin|micin|cillin|cilin|floxacin|statin|dol|fil|grel|prazol|"
    r"prazole|dipin|dipine|tidin|tidine|mectin|cyclin|cycline|profen|coxib|parin|xaban|gliptin|gliflozin|lukast|"
    r"semid|semide|thiazid|thiazide|azepam|oxetin|oxetine|triptan|nison|nisone|prilat|toxin|oxin|izin|izine|azepin|"
    r"azepine|toin|fenac|etamol|olon|olone|terol|pirid|piride|adin|adine|kacin|micin|morphin|codein|zolid|"
    r"olamin|dronat|dronate|setron|tropin|caine|cain|formin|glitazon|glitazone|glinid|glinide|clazid|clazide|tiapin|tiapine|"
    r"peridol|odone)$|^(cef|ceph|levo|dexa|methyl|fos|oxc)[a-z]{4,}$"
)
_DRUG_CUE = frozenset({"thuoc", "biet", "duoc"})  # "thuốc X", "biệt dược X"
_FORM_CUES = frozenset({"siro", "vien", "goi", "chai"})
"""A product form before a brand ("siro prospan", "viên panadol")."""
_FORM_PURPOSES = frozenset({"ho", "cam", "sot", "bo", "dau"})
"""What a product is for, between its form and its brand ("siro ho prospan", "viên cảm …")."""
_TAKING = frozenset({"dung", "uong"})
_USAGE_CUE = re.compile(r"\b(uong|lieu|dung|tiem|boi|xit|bao nhieu|duoc khong|duoc ko|dc ko|the nao|ra sao)\b")
"""Words of a question about taking a medicine: a brand-like word in such a turn is a drug's name."""
_MIXED_CASE = re.compile(r"^[A-Za-z]*[a-z][A-Z]")
"""An abbreviation typed with inner capitals ("ClCr", "eGFR", "HbA1c"), never how a drug name is written."""


class Candidate(BaseModel):
    drug_id: str
    matched: str
    """The formulary name that matched (INN, alias or brand)."""
    span: str
    """The text of the turn that matched."""
    score: float
    """0–100; exact (folded) matches score 100."""


class Shorthand(BaseModel):
    """A token that begins the generic names of several drugs ("cef": cefalexin, ceftriaxon)."""

    span: str
    drug_ids: list[str]


class ResolverResult(BaseModel):
    candidates: list[Candidate] = Field(default_factory=list)
    """Ranked best first, one per drug id, in the order the turn names them when scores tie."""
    unknown: list[str] = Field(default_factory=list)
    """Names that look like drug names but resolve to nothing above the acceptance threshold."""
    ambiguous: list[Shorthand] = Field(default_factory=list)
    """Shorthands that begin several drugs' generic names: asked, never resolved."""

    @property
    def drug_ids(self) -> list[str]:
        return [c.drug_id for c in self.candidates]


class _Token(NamedTuple):
    # A tuple, not a frozen dataclass: some 15 tokens are made per turn and each is read about 30 times.
    raw: str
    folded: str
    start: int
    """Offsets in the NFC form of the text (`tokenize`)."""
    end: int
    has_diacritics: bool


@dataclass(frozen=True)
class _Name:
    drug_id: str
    display: str
    folded: str


@dataclass
class _Hit:
    drug_id: str
    matched: str
    start_token: int
    end_token: int
    span: str
    score: float


def _brand_in_brackets(text: str, name: str, hits: Sequence[_Hit]) -> bool:
    """"uống aspirin 81 (Aspilets)": a name in brackets right after a drug of the book (and its strength) is that
    drug's brand, not a third drug — read as one the book lacks, the aspirin–ibuprofen question was refused as
    unverifiable (#18 held-out H273)."""
    for m in compiled(rf"\(\s*{re.escape(name)}\s*\)").finditer(text):
        before = text[:m.start()].rstrip()
        before = re.sub(r"\s*\d+(?:[.,]\d+)?\s*(?:mg|g|mcg|ml)?$", "", before, flags=re.IGNORECASE).rstrip()
        if any(h.span and before.endswith(h.span) for h in hits):
            return True
    return False


def tokenize(text: str) -> list[_Token]:
    nfc = unicodedata.normalize("NFC", text)
    return [_Token(raw, fold(raw), m.start(), m.end(), not raw.isascii())
            for m in _TOKEN.finditer(nfc) for raw in (m.group(0),)]


def is_vietnamese_syllable(folded: str) -> bool:
    """One Vietnamese syllable typed without diacritics ("be", "can", "tuoi"), English filler aside."""
    return bool(_VI_SYLLABLE.match(folded))


def is_vietnamese_word(folded: str) -> bool:
    return bool(_VI_SYLLABLE.match(folded)) or folded in _COMMON_WORDS


def brand_guess(raw: str) -> bool:
    """A lower-case word read as an unknown drug's name only by where it stands (DrugResolver._unknown's
    `brand_like`): not capitalised, not shaped like an INN."""
    folded = fold(raw)
    return raw[:1].islower() and " " not in raw and not looks_like_drug_suffix(folded)


def looks_like_drug_suffix(folded: str) -> bool:
    """True for a token shaped like an INN ('oseltamivir', 'sildenafil', 'tramadol', 'clopidogrel')."""
    return len(folded) >= 6 and folded.isalpha() and not is_vietnamese_word(folded) and bool(_DRUG_SUFFIX.search(folded))


def spelling_key(folded: str) -> str:
    """One key for the spellings of one drug name (folded): international and Vietnamese ("cephalexin"/"cefalexin",
    "acyclovir"/"aciclovir", "amoxicillin"/"amoxicilin", "ceftriaxone"/"ceftriaxon") — to tell whether a known INN
    is a drug the formulary already names."""
    key = folded.replace("ph", "f").replace("th", "t").replace("ch", "c").replace("y", "i").replace("k", "c")
    key = re.sub(r"(.)\1", r"\1", key)
    return re.sub(r"e\b", "", key)


def _fuzzy_ok(token: str, name: str, score: float) -> bool:
    if score < ACCEPT_SCORE or token[:2] != name[:2]:
        return False
    allowed = 2 if min(len(token), len(name)) >= 12 else 1
    return OSA.distance(token, name) <= allowed


def _respelt(folded: str) -> str:
    """A name with "ph" written as the "f" it sounds like (the book's spelling: "ibuprofen", "cefalexin")."""
    return folded.replace("ph", "f")


def _condition_words(tokens: Sequence[_Token]) -> list[bool]:
    """Tokens of a condition word pair ("acid uric", "axit uric"), claimed before any name is matched: they are
    neither a drug nor an unknown drug name."""
    claimed = [False] * len(tokens)
    for i in range(len(tokens) - 1):
        if (tokens[i].folded, tokens[i + 1].folded) in CONDITION_WORD_PAIRS:
            claimed[i] = claimed[i + 1] = True
    return claimed


def _shortens(token: str, key: str, following: str) -> bool:
    """Whether `token` can be shorthand for the generic name `key`. A token that is a whole word of a longer name
    ("acid" of "acid acetylsalicylic") is shorthand only when the next token begins the name's next word: "acid
    uric", "acid folic" are other things, never aspirin."""
    words = key.split(" ")
    if len(words) == 1 or words[0] != token:
        return True
    return bool(following) and words[1].startswith(following)


class DrugResolver:
    """Resolves the drug names of one turn against the formulary's own names."""

    def __init__(self, names: Sequence[DrugNames]) -> None:
        self.names = list(names)
        self._exact: dict[str, _Name] = {}
        for entry in self.names:
            for raw in entry.all_names():
                key = " ".join(t.folded for t in tokenize(raw))
                if len(key) >= 3 and key not in self._exact:
                    self._exact[key] = _Name(entry.drug_id, raw, key)
        self._single = [n for k, n in self._exact.items() if " " not in k and len(k) >= MIN_FUZZY_LEN]
        self._single_keys = [n.folded for n in self._single]
        self._single_respelt = [_respelt(k) for k in self._single_keys]
        # Multi-word names by their first two letters: a fuzzy match must share them anyway.
        self._multi: dict[str, list[_Name]] = {}
        for key, name in self._exact.items():
            if " " in key:
                self._multi.setdefault(key[:2], []).append(name)
        self._max_words = max((k.count(" ") + 1 for k in self._exact), default=1)
        # Word counts of the names by their first word: an n-gram whose first word begins no n-word name cannot be
        # a key of `_exact` (a key is its tokens' folded forms joined by one space; a token holds no space).
        self._starts: dict[str, set[int]] = {}
        for key in self._exact:
            self._starts.setdefault(key.split(" ")[0], set()).add(key.count(" ") + 1)
        # Real drugs the formulary lacks, by their folded spellings (the book's, and the international final "e").
        spelled = {spelling_key(k) for k in self._exact}
        self._inn: dict[str, str] = {}
        for inn in INN_NAMES:
            # ("lithium" is the book's "lithi": the Latin "-um" after a final "i" — #17 held-out H94 dropped it.)
            variants = (inn, f"{inn}e") if inn[-1] not in "aeiouy" else (inn, f"{inn}um") if inn.endswith("i") \
                else (inn,)
            for key in variants:
                if key not in self._exact and spelling_key(key) not in spelled and key not in _COMMON_WORDS \
                        and key not in CLINICAL_TERMS:
                    self._inn[key] = inn
        self._inn_words = max((k.count(" ") + 1 for k in self._inn), default=0)
        # As `_starts`, for those names: an n-gram whose first word begins no n-word name of them is none of them.
        self._inn_starts: dict[str, set[int]] = {}
        for key in self._inn:
            self._inn_starts.setdefault(key.split(" ")[0], set()).add(key.count(" ") + 1)
        # Generic names only (no brands) for shorthand: "para" must not also begin a brand of another drug.
        self._generic: list[tuple[str, _Name]] = []
        for entry in self.names:
            for raw in (entry.name, entry.drug_id.replace("_", " "), *entry.aliases):
                key = " ".join(t.folded for t in tokenize(raw))
                if len(key) > MIN_PREFIX_LEN:
                    self._generic.append((key, _Name(entry.drug_id, raw, key)))
        # The same names by their first three letters (a shorthand has at least three, and a name it begins shares
        # them), in the order above: a token is compared with a few names instead of all of them.
        self._resolved: dict[str, ResolverResult] = {}
        self._generic_by_start: dict[str, list[tuple[str, _Name]]] = {}
        for key, name in self._generic:
            self._generic_by_start.setdefault(key[:MIN_AMBIGUOUS_LEN], []).append((key, name))

    # -------------------------------------------------------------------------------------------- public

    def resolve(self, text: str) -> ResolverResult:
        """The drug names of one turn. Remembered per text (the name book is fixed for the resolver's life): quick-reply
        answers ("Người lớn", "Trẻ em") and common follow-ups ("còn trẻ em thì sao?") are sent word for word by many
        conversations. Each caller gets its own lists (the candidates themselves are never changed)."""
        found = self._resolved.get(text)
        if found is None:
            if len(self._resolved) >= RESOLVED_MAX:
                self._resolved.clear()
            found = self._resolved[text] = self._resolve(text)
        return ResolverResult.model_construct(candidates=list(found.candidates), unknown=list(found.unknown),
                                              ambiguous=list(found.ambiguous))

    def _resolve(self, text: str) -> ResolverResult:
        tokens = tokenize(text)
        text = unicodedata.normalize("NFC", text)  # the tokens' offsets are in this form (`_span` cuts it)
        claimed = _condition_words(tokens)
        known_elsewhere: list[tuple[int, str]] = []
        hits = self._exact_hits(text, tokens, claimed, known_elsewhere) + self._fuzzy_hits(text, tokens, claimed)
        ambiguous: list[Shorthand] = []
        hits += self._prefix_hits(text, tokens, claimed, ambiguous)
        unknown = [span for _, span in sorted(known_elsewhere + self._unknown(tokens, claimed))]
        unknown = [u for u in dict.fromkeys(unknown) if not _brand_in_brackets(text, u, hits)]
        best: dict[str, _Hit] = {}
        for hit in hits:
            if hit.drug_id not in best or hit.score > best[hit.drug_id].score:
                best[hit.drug_id] = hit
        ranked = sorted(best.values(), key=lambda h: (-h.score, h.start_token))
        # Built from values of the declared types (str, float, lists of them): constructed without validation again.
        return ResolverResult.model_construct(
            candidates=[Candidate.model_construct(drug_id=h.drug_id, matched=h.matched, span=h.span, score=h.score)
                        for h in ranked],
            unknown=unknown,
            ambiguous=ambiguous,
        )

    # ------------------------------------------------------------------------------------------ matching

    @staticmethod
    def _span(nfc: str, tokens: Sequence[_Token], i: int, j: int) -> str:
        """The turn's words from token i to token j (exclusive), as typed; `nfc` is the turn in NFC form."""
        return nfc[tokens[i].start:tokens[j - 1].end]

    def _exact_hits(self, text: str, tokens: Sequence[_Token], claimed: list[bool],
                    known_elsewhere: list[tuple[int, str]]) -> list[_Hit]:
        """Exact formulary names, longest first; at each length, a real drug the formulary lacks (core.inn_names) is
        claimed too and put in `known_elsewhere` as (token index, span): it is reported unknown, never matched."""
        hits: list[_Hit] = []
        starts = self._starts
        for n in range(min(MAX_NGRAM, max(self._max_words, self._inn_words)), 0, -1):
            for i in range(len(tokens) - n + 1):
                if any(claimed[i:i + n]):
                    continue
                if n not in starts.get(tokens[i].folded, ()):
                    self._claim_known_elsewhere(text, tokens, i, n, claimed, known_elsewhere)
                    continue
                key = " ".join(t.folded for t in tokens[i:i + n])
                name = self._exact.get(key)
                if name is None:
                    self._claim_known_elsewhere(text, tokens, i, n, claimed, known_elsewhere)
                    continue
                if n == 1 and tokens[i].has_diacritics and is_vietnamese_word(key):
                    continue  # a Vietnamese word that happens to spell a short brand is not that brand
                claimed[i:i + n] = [True] * n
                hits.append(_Hit(name.drug_id, name.display, i, i + n, self._span(text, tokens, i, i + n), 100.0))
        return hits

    def _claim_known_elsewhere(self, text: str, tokens: Sequence[_Token], i: int, n: int, claimed: list[bool],
                               known_elsewhere: list[tuple[int, str]]) -> None:
        if n not in self._inn_starts.get(tokens[i].folded, ()):
            return  # no such name begins with this word (as `_starts` in `_exact_hits`)
        if any(t.has_diacritics for t in tokens[i:i + n]):
            return  # a word typed with Vietnamese diacritics is a Vietnamese word, not a Latin drug name
        if " ".join(t.folded for t in tokens[i:i + n]) in self._inn:
            claimed[i:i + n] = [True] * n
            known_elsewhere.append((i, self._span(text, tokens, i, i + n)))

    def _fuzzy_eligible(self, token: _Token) -> bool:
        f = token.folded
        return (
            len(f) >= MIN_FUZZY_LEN
            and f.isalpha()
            and not token.has_diacritics
            and not is_vietnamese_word(f)
        )

    def _fuzzy_hits(self, text: str, tokens: Sequence[_Token], claimed: list[bool]) -> list[_Hit]:
        hits: list[_Hit] = []
        # Multi-word names first ("isosorbide dinitrate"), compared as whole phrases of the same word count.
        for i, first in enumerate(tokens):
            for name in self._multi.get(first.folded[:2], ()):
                n = name.folded.count(" ") + 1
                window = tokens[i:i + n]
                if len(window) < n or any(claimed[i:i + n]) or not any(self._fuzzy_eligible(t) for t in window):
                    continue
                phrase = " ".join(t.folded for t in window)
                score = fuzz.ratio(phrase, name.folded)
                if _fuzzy_ok(phrase, name.folded, score):
                    claimed[i:i + n] = [True] * n
                    hits.append(_Hit(name.drug_id, name.display, i, i + n, self._span(text, tokens, i, i + n), score))
                    break
        for i, token in enumerate(tokens):
            if claimed[i] or not self._fuzzy_eligible(token):
                continue
            matches = process.extract(token.folded, self._single_keys, scorer=fuzz.ratio,
                                      score_cutoff=ACCEPT_SCORE, limit=8)
            accepted = [(score, self._single[idx]) for _, score, idx in matches
                        if _fuzzy_ok(token.folded, self._single[idx].folded, score)]
            if not accepted and "ph" in token.folded:
                # "ibuprophen", "cephalexin": "ph" typed for the book's "f" (the same sound), compared respelt.
                respelt = _respelt(token.folded)
                matches = process.extract(respelt, self._single_respelt, scorer=fuzz.ratio,
                                          score_cutoff=ACCEPT_SCORE, limit=8)
                accepted = [(score, self._single[idx]) for _, score, idx in matches
                            if _fuzzy_ok(respelt, self._single_respelt[idx], score)]
            if accepted:
                score, name = max(accepted, key=lambda a: a[0])
                claimed[i] = True
                hits.append(_Hit(name.drug_id, name.display, i, i + 1, token.raw, round(score, 1)))
        return hits

    def _prefix_hits(self, text: str, tokens: Sequence[_Token], claimed: list[bool],
                     ambiguous: list[Shorthand]) -> list[_Hit]:
        hits: list[_Hit] = []
        typed_with_diacritics = any(t.has_diacritics for t in tokens)
        for i, token in enumerate(tokens):
            f = token.folded
            if claimed[i] or len(f) < MIN_AMBIGUOUS_LEN or not f.isalpha() or token.has_diacritics:
                continue
            if f in CLINICAL_TERMS or (token.raw.isupper() and len(f) <= 4):
                continue  # "ACE", "NSAID": abbreviations, not a drug's shorthand
            following = tokens[i + 1].folded if i + 1 < len(tokens) else ""
            owners = {name.drug_id: name for key, name in self._generic_by_start.get(f[:MIN_AMBIGUOUS_LEN], ())
                      if key.startswith(f) and key != f and _shortens(f, key, following)}
            if len(owners) == 1 and ((len(f) >= MIN_PREFIX_LEN and not is_vietnamese_word(f)) or (
                    f in CHAT_SHORTHANDS and self._may_be_shorthand(tokens, i, typed_with_diacritics))):
                name = next(iter(owners.values()))
                claimed[i] = True
                hits.append(_Hit(name.drug_id, name.display, i, i + 1, token.raw, PREFIX_SCORE))
            elif len(owners) == 1 and len(f) < MIN_PREFIX_LEN and f not in _ENGLISH_NOT_SHORTHAND \
                    and self._may_be_shorthand(tokens, i, typed_with_diacritics):
                # "ibu": three letters begin one drug's name, too few to take as that name — asked, with the one drug
                # offered, never guessed; and never the earlier drug carried in its place ("con lớn 9t 27kg thì ibu 1
                # lần bn" after paracetamol's dose dosed paracetamol for the older child: a wrong drug's dose).
                claimed[i] = True
                ambiguous.append(Shorthand(span=token.raw, drug_ids=sorted(owners)))
            elif 1 < len(owners) <= MAX_AMBIGUOUS and self._may_be_shorthand(tokens, i, typed_with_diacritics):
                # Several drugs begin so ("cef", "met"): which one is asked — a guess is a wrong drug's dose.
                claimed[i] = True
                ambiguous.append(Shorthand(span=token.raw, drug_ids=sorted(owners)))
        return hits

    @staticmethod
    def _may_be_shorthand(tokens: Sequence[_Token], i: int, typed_with_diacritics: bool) -> bool:
        """A token shaped like a Vietnamese syllable ("met") is the word ("mệt", tired) unless the turn is typed
        with diacritics elsewhere (the word would carry them) or a word before it names a drug's place ("liều
        met")."""
        if not is_vietnamese_word(tokens[i].folded):
            return True
        return typed_with_diacritics or (i > 0 and tokens[i - 1].folded in _NAME_CUES)

    # ------------------------------------------------------------------------------------------- unknown

    def _unknown(self, tokens: Sequence[_Token], claimed: Sequence[bool]) -> list[tuple[int, str]]:
        found: list[tuple[int, str]] = []
        for i, token in enumerate(tokens):
            if claimed[i] or token.has_diacritics:
                continue
            f = token.folded
            if f.isdigit() or len(f) < 3 or f in _COMMON_WORDS or not f[0].isalpha():
                # (A quantity is no drug name: "bé 5 tháng được 6kg" read "6kg" after "được" — folded, the "dược" of
                # "biệt dược" — as a drug the book lacks, and the question became an interaction; #17 held-out H53.)
                continue
            if f in CLINICAL_TERMS or _MIXED_CASE.match(token.raw):
                continue  # "ClCr 40 ml/phút", "eGFR", "bệnh Kawasaki": clinical words, not unknown drugs
            if f in _SALT_WORDS and any(claimed) and not (i > 0 and tokens[i - 1].folded == "ringer"):
                # "haloperidol uống, muốn chuyển sang tiêm decanoat": the salt or ester of the drug named is a form of
                # it (the monograph's "haloperidol decanoat"), not a drug the book lacks.
                continue
            after_cue = i > 0 and tokens[i - 1].folded in _DRUG_CUE and not is_vietnamese_word(f)
            # "đang dùng allopurinol", "đang uống colchicin": what the patient already takes is a drug's name.
            after_cue = after_cue or (i > 1 and tokens[i - 2].folded == "dang" and tokens[i - 1].folded in _TAKING
                                      and not is_vietnamese_word(f) and f.isalpha() and len(f) >= 5)
            capitalised = (
                token.raw[:1].isupper() and not token.raw.isupper() and len(f) >= 4 and f.isalpha()
                and not is_vietnamese_word(f)
            )
            # "tamiflu cho bé 3 tuổi …", "cho uống prospan được ko", "augmentin 1g cho người lớn …": a brand the book
            # does not name, typed in lower case, where a drug's name stands (the turn's first word, or after "uống",
            # "dùng", "liều", …) — not Vietnamese, not a clinical term. Unread, the machine asked "which drug?" as if
            # none had been named (#18 held-out H40, H42); named, the user is told it is not in the formulary.
            placed = (i == 0 and len(f) >= 6) or (i > 0 and tokens[i - 1].folded in _NAME_CUES and len(f) >= 5)
            # ("uống siro ho prospan được không": after a product form and what it is for — #18 held-out H230 asked
            # which drug.)
            # ("có nên cho 2 đứa uống thêm smecta ko": one more product given, after "uống thêm" — #18 held-out H280
            # answered loperamide's dose.)
            placed = placed or (len(f) >= 5 and i > 1 and tokens[i - 1].folded == "them"
                                and tokens[i - 2].folded in ("uong", "dung", "cho", "ke", "xai", "tiem"))
            placed = placed or (len(f) >= 5 and i > 0 and (tokens[i - 1].folded in _FORM_CUES or (
                i > 1 and tokens[i - 2].folded in _FORM_CUES and tokens[i - 1].folded in _FORM_PURPOSES)))
            brand_like = placed and f.isalpha() and not is_vietnamese_word(f) and _USAGE_CUE.search(
                " ".join(t.folded for t in tokens)) is not None
            if (looks_like_drug_suffix(f) or after_cue or capitalised or brand_like) and \
                    token.raw not in (r for _, r in found):
                found.append((i, token.raw))
        return found
