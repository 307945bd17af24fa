"""review.html as a pharmacist reads it: clinical numbering, plain wording, English complete, sign-offs shown,
the machine by phase, and one example conversation per routing row."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from functools import lru_cache
from html.parser import HTMLParser

import pytest

from engine.config import Settings
from engine.fingerprint import spec_fingerprint
from engine.review.examples import Example, collect_examples
from engine.review.html import render_html, render_markdown_inline
from engine.review.labels import Lang, row_labels
from engine.review.phases import PHASES, render_phase_dot, unplaced_states
from engine.review.wording import missing_wording
from engine.spec import MachineSpec, build_spec
from engine.store.base import SignOff

SPEC = build_spec()
NOW = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)
VIETNAMESE = re.compile(r"[ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹàáèéìíòóùúýĩũõ]", re.I)


@lru_cache(maxsize=1)
def _examples() -> dict[int, Example]:
    return collect_examples(SPEC, Settings())


def _page(lang: Lang = "vi", signoffs: list[SignOff] | None = None, spec: MachineSpec = SPEC) -> str:
    return render_html(spec, svg=None, mermaid="", generated=NOW, lang=lang, signoffs=signoffs,
                       examples=_examples() if spec is SPEC else {})


class _Cells(HTMLParser):
    """Visible text, split into the clinical part and the parts allowed to hold codes or Vietnamese replies."""

    def __init__(self) -> None:
        super().__init__()
        self.clinical: list[str] = []
        self.exempt: list[str] = []
        self._stack: list[bool] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("style", "script"):
            self._skip += 1
        classes = (dict(attrs).get("class") or "").split()
        ident = dict(attrs).get("id") or ""
        exempt = bool({"details", "example", "fp", "cmd"} & set(classes)) or tag == "code" or ident == "fingerprint"
        self._stack.append(exempt or (bool(self._stack) and self._stack[-1]))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script"):
            self._skip -= 1
        if self._stack:
            self._stack.pop()

    def handle_data(self, data: str) -> None:
        if self._skip or not data.strip():
            return
        (self.exempt if self._stack and self._stack[-1] else self.clinical).append(data.strip())


def _cells(page: str) -> _Cells:
    parser = _Cells()
    parser.feed(page)
    return parser


def test_rows_are_numbered_as_the_clinical_table_with_sub_rows() -> None:
    numbers = list(row_labels(SPEC).values())
    assert numbers == ["1", "2", "3", "4a", "4b", "5", "6", "7", "8a", "8b", "9", "10", "11", "12", "13", "14",
                       "15", "16"]
    page = _page()
    assert re.findall(r'<tr id="row-([0-9a-z]+)">', page) == numbers


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_clinical_text_names_no_code(lang: Lang) -> None:
    codes = {s.name for s in SPEC.states if "_" in s.name} | {g.name for g in SPEC.guards} | {
        t.reason for t in SPEC.transitions if t.reason and "_" in t.reason}
    clinical = " ".join(_cells(_page(lang)).clinical)
    found = sorted(c for c in codes if re.search(rf"\b{re.escape(c)}\b", clinical))
    assert found == [], f"code names in clinical text: {found}"
    assert "()" not in clinical and "drug_id" not in clinical


def test_the_english_page_is_english_everywhere_outside_the_example_replies() -> None:
    vietnamese = [text for text in _cells(_page("en")).clinical if VIETNAMESE.search(text)]
    assert vietnamese == []


def test_every_spec_rationale_and_guard_effect_has_reviewed_wording() -> None:
    assert missing_wording(SPEC) == []


def test_recorded_signoffs_of_the_fingerprint_are_shown_with_the_command_that_signs() -> None:
    signed = [SignOff(spec_fingerprint=spec_fingerprint(SPEC), signed_by="DS. Lê Thị D", role="Dược sĩ lâm sàng",
                      signed_at=NOW)]
    page = _page(signoffs=signed)
    assert 'class="signed"' in page and "DS. Lê Thị D" in page and "2026-12-03 09:00 UTC" in page
    unsigned = _page(signoffs=[])
    assert 'class="unsigned"' in unsigned and "Chưa có ai ký duyệt" in unsigned
    assert f"formulary-fsm signoff --by &quot;NAME&quot; --role &quot;ROLE&quot; --fingerprint {spec_fingerprint(SPEC)}" \
        in unsigned
    assert "Không đọc được danh sách ký duyệt" in _page(signoffs=None)


def test_each_routing_row_shows_an_example_conversation_or_says_why_not() -> None:
    page = _page()
    numbers = row_labels(SPEC)
    for i, number in numbers.items():
        section = page.split(f'id="example-{number}"', 1)[1].split("<h3", 1)[0]
        assert ('class="example"' in section) == (i in _examples()), number
    reached = {numbers[i] for i in _examples()}
    assert {"1", "2", "3", "7", "11", "13", "15", "16"} <= reached


def test_an_example_is_the_conversation_as_the_user_sees_it() -> None:
    by_row = {row_labels(SPEC)[i]: e for i, e in _examples().items()}
    greeting = by_row["11"].turns[-1][1]
    assert greeting.reason == "smalltalk"
    page = _page()
    greeting_html = page.split('id="example-11"', 1)[1].split("<h3", 1)[0]
    assert 'class="badge' not in greeting_html, "a greeting wears no badge"
    child = page.split('id="example-3"', 1)[1].split("<h3", 1)[0]
    assert "Cần thêm thông tin" in child and "missing_pediatric_age_or_weight" not in child


def test_quotes_render_emphasis_and_escape_everything_else() -> None:
    assert render_markdown_inline("*Uống – Trẻ em:* 10 mg <b>x</b> **tối đa**") == (
        "<em>Uống – Trẻ em:</em> 10 mg &lt;b&gt;x&lt;/b&gt; <strong>tối đa</strong>")


def test_every_state_belongs_to_one_phase_and_every_transition_is_drawn_in_its_phase() -> None:
    assert unplaced_states(SPEC) == []
    owners = [s for p in PHASES for s in p.states]
    assert len(owners) == len(set(owners))
    for phase in PHASES:
        dot = render_phase_dot(SPEC, phase)
        for t in SPEC.transitions:
            if t.source in phase.states:
                target = t.dest if t.dest in phase.states else f"{t.dest}__from__{t.source}"
                assert f"  {t.source} -> {target} " in dot, (phase.key, t)
