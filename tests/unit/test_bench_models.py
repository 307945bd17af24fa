"""The bench's scripted paraphrasing model and scaled corpus measure what they claim to measure."""

from __future__ import annotations

import re

from bench.corpus import realistic_scaled_corpus
from bench.fixture import fixture_monographs
from bench.scripted_claude import paraphrase
from core.numbers import extract_quantities
from grounding.answer import Claim
from grounding.claude_verifier import covered_by_quotes

SENTENCE = "Người bệnh suy gan nặng không được dùng quá 4 g/ngày; trẻ em 10–15 mg/kg mỗi 4–6 giờ."


def test_a_paraphrased_claim_cannot_skip_entailment_but_a_verbatim_one_can() -> None:
    doc = "paracetamol__lieu_luong_cach_dung__0"
    verbatim = Claim(text=SENTENCE, citations=[doc], quotes=[SENTENCE])
    reworded = Claim(text=paraphrase(SENTENCE), citations=[doc], quotes=[SENTENCE])
    assert covered_by_quotes(verbatim)
    assert not covered_by_quotes(reworded)


def test_paraphrasing_keeps_every_number_unit_and_negation() -> None:
    reworded = paraphrase(SENTENCE)
    assert len(extract_quantities(SENTENCE)) >= 3
    assert [str(q) for q in extract_quantities(reworded)] == [str(q) for q in extract_quantities(SENTENCE)]
    assert "không" in reworded


def test_the_scaled_corpus_names_its_copies_without_digits_and_unlike_any_real_drug() -> None:
    fixture = list(fixture_monographs())
    corpus = realistic_scaled_corpus(fixture, 3_000)
    copies = corpus[len(fixture):]
    assert copies, "3,000 chunks need copies of the fixture"
    real_ids = {m.drug_id for m in fixture}
    assert len({m.drug_id for m in corpus}) == len(corpus)
    for copy in copies:
        assert not re.search(r"\d", copy.name + copy.title + copy.drug_id)
        assert copy.drug_id not in real_ids
        assert copy.synthetic
