"""The shipped TrigramEmbedder: deterministic across processes, normalised, and lexically close for run-together words."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from core.errors import ConfigurationError
from retrieval.embedder import DenseEmbedder, TrigramEmbedder, cosine, make_embedder

TEXT = "Tăng huyết áp, dùng đơn độc hoặc phối hợp với các thuốc hạ huyết áp khác."


def test_the_trigram_embedder_implements_the_protocol() -> None:
    assert isinstance(TrigramEmbedder(), DenseEmbedder)


def test_vectors_are_the_same_in_another_process() -> None:
    # Python's hash() is salted per process; a stable hash is what lets an index outlive the process that built it.
    code = ("import json; from retrieval.embedder import TrigramEmbedder; "
            f"print(json.dumps(TrigramEmbedder().embed([{TEXT!r}])[0]))")
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={"PYTHONHASHSEED": "12345", "PATH": ""})
    assert json.loads(other.stdout) == TrigramEmbedder().embed([TEXT])[0]


def test_vectors_have_the_configured_size_and_unit_length() -> None:
    for dim in (64, 256):
        (vector,) = TrigramEmbedder(dim=dim).embed([TEXT])
        assert len(vector) == dim
        assert math.isclose(math.sqrt(sum(v * v for v in vector)), 1.0)


def test_an_empty_text_is_the_zero_vector_not_an_error() -> None:
    assert TrigramEmbedder(dim=16).embed([""]) == [[0.0] * 16]


def test_run_together_hypertension_is_closer_to_hypertension_than_to_diabetes() -> None:
    run_together, hypertension, diabetes = TrigramEmbedder().embed(["tanghuyetap", "tăng huyết áp", "đái tháo đường"])
    assert cosine(run_together, hypertension) > 0.7 > 0.2 > cosine(run_together, diabetes)


def test_accents_and_case_do_not_change_the_vector() -> None:
    embedder = TrigramEmbedder()
    assert embedder.embed(["TĂNG HUYẾT ÁP"]) == embedder.embed(["tang huyet ap"])


def test_the_embedder_name_records_its_size() -> None:
    assert TrigramEmbedder(dim=64).name != TrigramEmbedder(dim=256).name


def test_the_setting_names_the_embedder() -> None:
    assert make_embedder("none") is None
    assert isinstance(make_embedder("trigram"), TrigramEmbedder)
    with pytest.raises(ConfigurationError):
        make_embedder("word2vec")
