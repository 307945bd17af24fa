"""Loader for the common JSON export of the formulary: one document of monograph records, fields named by section.

Public extractions of the 2018 formulary publish it this way (`../shared/realtext/source/drugapp_subset.json`):

    {"meta": {"source": "Dược thư Quốc gia Việt Nam 2018", "count": 683},
     "drugs": [{"id": 0, "name": "Abacavir", "atc": "J05AF06",
                "s": {"loai_thuoc": "…", "chi_dinh": "…", "lieu_dung": "…", "mang_thai": "…", …}}]}

A record's section fields sit under `s` or directly in the record; each is mapped to a section key by its name
(`FIELD_SECTIONS`, the mapping of ../shared/realtext/SOURCES.md). A field this loader does not know is reported
(file, record, field) and its text is not loaded — nothing is placed in a section by guess. Fields the export
derives from others (`flags`, `tt_lc`, a lower-cased copy of `tuong_tac`) are skipped on purpose. Records are
cleaned by the same hygiene as the other formats (retrieval.hygiene), over the whole document at once.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from core.corpus import Monograph, Section
from core.errors import CorpusError, CorpusFormatError
from core.sections import SECTION_HEADINGS
from retrieval.hygiene import apply_hygiene
from retrieval.load_report import LoadIssue, LoadReport
from retrieval.monograph_names import clean_title, complete_names, display_name, drug_id_from_title

FIELD_SECTIONS: dict[str, str] = {
    "atc": "ma_atc",
    "loai_thuoc": "loai_thuoc",
    "dang_ham_luong": "dang_thuoc_ham_luong",
    "duoc_ly": "duoc_ly_co_che",
    "chi_dinh": "chi_dinh",
    "chong_chi_dinh": "chong_chi_dinh",
    "than_trong": "than_trong",
    "mang_thai": "thoi_ky_mang_thai",
    "cho_con_bu": "thoi_ky_cho_con_bu",
    "adr": "tac_dung_khong_mong_muon",
    "xu_tri_adr": "huong_dan_xu_tri_adr",
    "lieu_dung": "lieu_luong_cach_dung",
    "tuong_tac": "tuong_tac_thuoc",
    "on_dinh": "do_on_dinh_bao_quan",
    "tuong_ky": "tuong_ky",
    "qua_lieu": "qua_lieu_xu_tri",
    "qui_che": "thong_tin_quy_che",
    "quy_che": "thong_tin_quy_che",
    "ten_thuong_mai": "ten_thuong_mai",
    "ten_chung_quoc_te": "ten_chung_quoc_te",
    **{key: key for key in SECTION_HEADINGS},  # a record may already use the project's own keys
}
"""Export field name → section key."""

RECORD_FIELDS = frozenset({"id", "name", "title", "s", "sections"})
"""Identity fields of a record (not sections)."""
DERIVED_FIELDS = frozenset({"flags", "tt_lc"})
"""Fields the export derives from the others (`tt_lc` is `tuong_tac` lower-cased): skipped, not reported."""


def is_json_export(data: Any) -> bool:
    """The parsed document has the export's shape: an object with a list of records under `drugs`."""
    return isinstance(data, dict) and isinstance(data.get("drugs"), list)


def _record_fields(record: dict[str, Any]) -> dict[str, Any]:
    fields = {k: v for k, v in record.items() if k not in ("s", "sections")}
    nested = record.get("s", record.get("sections"))
    if isinstance(nested, dict):
        fields.update(nested)
    return fields


def _record(record: Any, n: int, source: str, report: LoadReport) -> Monograph | None:
    where = f"record {n}"
    if not isinstance(record, dict):
        report.add_error(CorpusFormatError(source, None, f"{where}: expected an object, got {type(record).__name__}"))
        return None
    name = record.get("name") or record.get("title")
    if not isinstance(name, str) or not name.strip():
        report.add_error(CorpusFormatError(source, None, f"{where}: no 'name' (the monograph title)"))
        return None
    title = clean_title(name)
    drug_id = drug_id_from_title(title)
    if not drug_id:
        report.add_error(CorpusFormatError(source, None, f"{where} ({name!r}): no name to derive a drug id from"))
        return None
    where = f"record {n} ({title})"
    sections: list[Section] = []
    for field_name, value in _record_fields(record).items():
        if field_name in RECORD_FIELDS or field_name in DERIVED_FIELDS:
            continue
        key = FIELD_SECTIONS.get(field_name)
        if key is None:
            report.unknown_headings.append(LoadIssue(
                file=source, problem=f"{where}: unknown field {field_name!r}; its text was not loaded"))
            continue
        if not isinstance(value, str):
            report.add_error(CorpusFormatError(source, None, f"{where}: field {field_name!r} is not text"))
            continue
        if value.strip():
            sections.append(Section(key=key, heading=SECTION_HEADINGS[key], text=value.strip()))
    if not sections:
        report.add_error(CorpusFormatError(source, None, f"{where}: no section text"))
        return None
    return Monograph(drug_id=drug_id, title=title, name=display_name(title), sections=sections, source=source)


def parse_json_export(data: Any, source: str) -> tuple[list[Monograph], LoadReport]:
    """Monographs of a parsed export document; problems are reported, never raised for bad content."""
    report = LoadReport()
    if not is_json_export(data):
        report.add_error(CorpusFormatError(source, None, "not a formulary export: expected {\"drugs\": [...]}"))
        return [], report
    monographs: list[Monograph] = []
    for n, record in enumerate(data["drugs"]):
        monograph = _record(record, n, source, report)
        if monograph is not None:
            monographs.append(monograph)
            report.monographs += 1
            report.sections += len(monograph.sections)
    return [complete_names(m) for m in apply_hygiene(monographs, report)], report


def load_json_export(path: Path) -> tuple[list[Monograph], LoadReport]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        report = LoadReport()
        report.add_error(CorpusFormatError(str(path), None, f"not UTF-8 text ({exc.reason})"))
        return [], report
    except OSError as exc:
        raise CorpusError(f"{path}: cannot read ({exc.strerror or exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        report = LoadReport()
        report.add_error(CorpusFormatError(str(path), exc.lineno, f"not valid JSON ({exc.msg})"))
        return [], report
    return parse_json_export(data, str(path))
