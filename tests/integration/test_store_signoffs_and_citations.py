"""The store keeps sign-offs by fingerprint and the citations a user saw, on every backend."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.store import ConversationStore, ConversationUpdate, SignOff, SignOffStore, TurnRecord
from tests.integration.test_sql_store import Backend, backend  # noqa: F401  (the backend fixture)

pytestmark = pytest.mark.integration

CITATION = {"doc_id": "paracetamol__chi_dinh__0", "drug_id": "paracetamol", "drug_name": "Paracetamol",
            "section_key": "chi_dinh", "section_title": "Chỉ định", "quote": "Giảm đau *nhẹ*.", "page": 1090}


@pytest.fixture
def store(backend: Backend) -> Iterator[ConversationStore]:  # noqa: F811
    s = backend.open()
    yield s
    s.close()


def test_a_signoff_is_stored_with_its_time_and_read_back_only_for_its_fingerprint(store: ConversationStore) -> None:
    assert isinstance(store, SignOffStore)
    stored = store.record_signoff(SignOff(spec_fingerprint="fp-a", signed_by="DS. A", role="Dược sĩ", note="ok"))
    store.record_signoff(SignOff(spec_fingerprint="fp-b", signed_by="BS. B"))
    assert stored.signed_at is not None
    found = store.signoffs("fp-a")
    assert [(s.signed_by, s.role, s.note) for s in found] == [("DS. A", "Dược sĩ", "ok")]
    assert found[0].signed_at is not None and store.signoffs("fp-c") == []


def test_a_turn_keeps_the_citations_and_quick_replies_the_user_saw(store: ConversationStore) -> None:
    update = ConversationUpdate(state="ready", frame=None, pending=None, clarify_streak=0, spec_fingerprint="fp")
    record = TurnRecord(seq=1, user_text="paracetamol chỉ định", reply_text="Theo Dược thư…", outcome="answerable",
                        reason="single_drug", citations=[CITATION], quick_replies=["Người lớn"])
    store.commit_turn("c-1", None, 0, update, record)
    [read] = store.turns("c-1")
    assert read.citations == [CITATION] and read.quick_replies == ["Người lớn"]
