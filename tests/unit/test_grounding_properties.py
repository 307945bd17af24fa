"""Properties of grounding: answers assembled from evidence sentences pass; changing any number fails."""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from core.budget import RequestBudget
from core.corpus import Chunk
from grounding.answer import Answer, Claim
from grounding.lexical import LexicalVerifier
from grounding.verify import verify_grounding
from tests.unit.grounding_fixtures import chunk

UNITS = ["mg", "g", "mcg", "µg", "microgam", "mg/kg", "mg/kg/ngày", "mg/kg/lần", "mg/lần", "ml", "giờ", "ngày",
         "tuần", "tuổi", "tháng", "kg", "%", "lần", "g/ngày", "mg/5 ml"]
WORDS = ["dùng", "uống", "người", "bệnh", "mỗi", "cần", "theo", "dõi", "trẻ", "em", "thuốc", "viên", "sau",
         "ăn", "chia", "nhỏ", "tăng", "giảm", "hạ", "sốt", "đau", "kéo", "dài", "liệu", "trình"]
SEPARATORS = ["–", "-", " – ", " đến "]


@dataclass(frozen=True)
class Number:
    low: Decimal
    high: Decimal | None
    unit: str
    separator: str
    style: str
    """'plain', 'space' (1 000) or 'dot' (1.000) thousands; decimals always with a comma."""

    def render(self) -> str:
        body = _numeral(self.low, self.style)
        if self.high is not None:
            body = f"{body}{self.separator}{_numeral(self.high, self.style)}"
        return f"{body} {self.unit}".rstrip()


def _numeral(value: Decimal, style: str) -> str:
    if value != value.to_integral_value():
        return f"{value:f}".replace(".", ",")
    n = int(value)
    if n >= 1000 and style == "space":
        return f"{n:,}".replace(",", " ")
    if n >= 1000 and style == "dot":
        return f"{n:,}".replace(",", ".")
    return str(n)


@dataclass(frozen=True)
class Sentence:
    words: tuple[tuple[str, ...], ...]
    """Word runs before, between and after the numbers (one more run than numbers)."""
    numbers: tuple[Number, ...]

    def render(self) -> str:
        parts: list[str] = []
        for i, run in enumerate(self.words):
            parts.append(" ".join(run))
            if i < len(self.numbers):
                parts.append(self.numbers[i].render())
        text = " ".join(p for p in parts if p)
        return text[0].upper() + text[1:] + "."


values = st.one_of(
    st.integers(min_value=1, max_value=2000).map(Decimal),
    st.integers(min_value=1, max_value=99).map(lambda n: Decimal(n) / 10),
)


# Strategies are built once: constructing them inside each draw dominates the run time.
_widths = st.none() | values
_single_units = st.sampled_from(["", *UNITS])
_range_units = st.sampled_from(UNITS)
_separators = st.sampled_from(SEPARATORS)
_styles = st.sampled_from(["plain", "space", "dot"])
_runs = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(tuple)


@st.composite
def numbers(draw: st.DrawFn) -> Number:
    low = draw(values)
    width = draw(_widths)
    high = None if width is None else low + width
    unit = draw(_single_units if high is None else _range_units)
    return Number(low, high, unit, draw(_separators), draw(_styles))


_number_lists = st.lists(numbers(), min_size=0, max_size=3)


@st.composite
def sentences(draw: st.DrawFn) -> Sentence:
    nums = tuple(draw(_number_lists))
    words = tuple(draw(_runs) for _ in range(len(nums) + 1))
    return Sentence(words, nums)


Case = tuple[list[list[Sentence]], list[tuple[int, int]]]
"""Evidence blocks (as sentences) and the (block, sentence) picks an answer quotes."""


@st.composite
def evidence_and_answer(draw: st.DrawFn) -> Case:
    blocks = draw(st.lists(st.lists(sentences(), min_size=1, max_size=5), min_size=1, max_size=3))
    picks = [(b, s) for b, block in enumerate(blocks) for s in range(len(block))]
    chosen = draw(st.lists(st.sampled_from(picks), min_size=1, max_size=6, unique=True))
    return blocks, chosen


def _doc_id(b: int) -> str:
    return f"drug{b}__lieu_luong_cach_dung__0"


def _build(blocks: list[list[Sentence]], chosen: list[tuple[int, int]],
           override: dict[tuple[int, int], Sentence] | None = None) -> tuple[list[Chunk], Answer]:
    evidence = [chunk(_doc_id(b), " ".join(s.render() for s in block)) for b, block in enumerate(blocks)]
    override = override or {}
    claims = [Claim(text=override.get((b, s), blocks[b][s]).render(), citations=[_doc_id(b)]) for b, s in chosen]
    return evidence, Answer(claims=claims, generator="assembled")


@given(evidence_and_answer())
def test_an_answer_assembled_only_from_evidence_sentences_is_grounded_and_entailed(case: Case) -> None:
    blocks, chosen = case
    evidence, answer = _build(blocks, chosen)
    assert verify_grounding(answer, evidence).ok, verify_grounding(answer, evidence).problems
    entailment = LexicalVerifier().verify(answer, evidence, RequestBudget())
    assert not entailment.rejected, entailment.problems


@given(evidence_and_answer(), st.data())
def test_changing_any_number_in_a_claim_makes_grounding_reject(case: Case, data: st.DataObject) -> None:
    blocks, chosen = case
    with_numbers = [(b, s) for b, s in chosen if blocks[b][s].numbers]
    if not with_numbers:
        with_numbers = [(b, s) for b in range(len(blocks)) for s in range(len(blocks[b])) if blocks[b][s].numbers]
        if not with_numbers:
            return
    b, s = data.draw(st.sampled_from(with_numbers))
    if (b, s) not in chosen:
        chosen = [*chosen, (b, s)]
    sentence = blocks[b][s]
    i = data.draw(st.integers(min_value=0, max_value=len(sentence.numbers) - 1))
    target = sentence.numbers[i]
    # A value written nowhere in the evidence, and equal to none of it under unit conversion (it ends in 7).
    largest = max(n for block in blocks for sent in block for num in sent.numbers
                  for n in (num.low, num.high or num.low))
    fresh = Decimal(int(largest) * 10 + 7)
    end = data.draw(st.sampled_from(["low", "high"] if target.high is not None else ["low"]))
    mutated_number = replace(target, low=fresh) if end == "low" else replace(target, high=fresh)
    mutated = replace(sentence, numbers=(*sentence.numbers[:i], mutated_number, *sentence.numbers[i + 1:]))
    evidence, answer = _build(blocks, chosen, {(b, s): mutated})
    result = verify_grounding(answer, evidence)
    assert not result.ok, (mutated.render(), [e.text for e in evidence])
