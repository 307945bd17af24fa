"""Route abbreviations clinicians type: "TM" (tĩnh mạch), "TTM" (truyền tĩnh mạch), "TMC" (tĩnh mạch chậm), "TB"
(tiêm bắp), "TDD" (tiêm dưới da), "PO" (uống). ("IV", "IM", "SC" are chat words of core.vocabulary's routes.)

"TB" is also "trung bình" (average, moderate: "liều TB", "mức độ TB", "nhẹ–TB"), "tế bào" and tuberculosis. So it
is a route only where nothing reads it otherwise: typed in capitals with no such word before it and no "trung
bình" in the turn, or in any case right after "tiêm", "chích", "đường" or an amount ("1 g TB"). A TB not read as
a route leaves the route open, and the machine asks which one — never the wrong route's dose.
"""

from __future__ import annotations

import re

from core.text import fold

_ROUTE_OF: dict[str, str] = {"tm": "iv", "ttm": "iv", "tmc": "iv", "tb": "im", "tdd": "sc", "po": "oral"}
_TOKEN = re.compile(r"(?<![\w/.-])(TTM|TMC|TM|TB|TDD|PO)(?![\w/-])", re.IGNORECASE)
# Right before "TB", these make it "trung bình", a cell or a disease: "mức độ TB", "liều TB", "bệnh TB".
_NOT_ROUTE_BEFORE = re.compile(r"\b(?:muc|do|muc do|lieu|gia tri|diem|khoang|nhe|vua|nang|loai|benh|lao|dieu tri|"
                               r"nhiem|te bao|hong cau|bach cau|tieu cau|huyet ap|nhip|so|chi so|ket qua|xep loai)"
                               r"\s*[(\-–/,]?\s*$")
_NOT_ROUTE_AFTER = re.compile(r"^\s*(?:[-–/]\s*)?(?:nang|nhe|kha|hoac nang|den nang|mau|lao)\b")
# Before any abbreviation: the injection verb or an amount makes it a route whatever its case.
_ROUTE_BEFORE = re.compile(r"(?:\b(?:tiem|chich|duong|truyen)|\d\s*(?:mg|g|ml|mcg|ui|iu|mg/kg)?)\s*$")


def _reads_as_route(text: str, m: re.Match[str]) -> bool:
    token = m.group(1)
    before = fold(text[:m.start()])
    after = fold(text[m.end():])
    if _ROUTE_BEFORE.search(before):
        return True
    if token.lower() != "tb":
        return True
    if token != "TB" or "trung binh" in fold(text):
        return False
    return not (_NOT_ROUTE_BEFORE.search(before) or _NOT_ROUTE_AFTER.match(after))


def route_abbreviations(text: str) -> list[tuple[str, tuple[int, int]]]:
    """(route, span in `text`) of each abbreviation the turn uses as a route, in order."""
    return [(_ROUTE_OF[m.group(1).lower()], m.span()) for m in _TOKEN.finditer(text) if _reads_as_route(text, m)]


def abbreviated_routes(text: str) -> list[str]:
    """The routes the turn names by abbreviation, each once, in order."""
    return list(dict.fromkeys(route for route, _ in route_abbreviations(text)))
