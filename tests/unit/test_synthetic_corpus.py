"""The scaled benchmark corpus: renamed copies, enough chunks, no new drug names."""

from __future__ import annotations

from retrieval.chunking import chunk_monograph
from retrieval.markdown_loader import parse_markdown
from retrieval.synthetic import scaled_corpus

MD = "# **IBUPROFEN**\n## **Chỉ định**\nĐau.\n## **Tên thương mại**\nBrufen.\n"


def test_scaled_corpus_reaches_the_target_with_renamed_copies() -> None:
    original = parse_markdown(MD, "i.md")[0]
    scaled = scaled_corpus(original, target_chunks=25)
    assert sum(len(chunk_monograph(m)) for m in scaled) >= 25
    assert scaled[0] == original[0]
    copies = scaled[1:]
    assert [m.drug_id for m in copies[:2]] == ["synthetic_0001", "synthetic_0002"]
    assert all(m.synthetic and not m.brands and not m.aliases for m in copies)
    assert len({m.drug_id for m in scaled}) == len(scaled)
