"""The book's usual indication among a patient's dose lines, for a dose question that names none.

A dose question that names no indication ("Liều ibuprofen cho trẻ con", "người lớn uống amoxicilin") means the
drug's everyday use: pain and fever for an analgesic, a common susceptible infection for an antibiotic. When the
patient's lines sit under several indication lead-ins and one of them is that everyday use ("Đau, sốt", "giảm đau
hoặc sốt", "Nhiễm vi khuẩn nhạy cảm ở tai, mũi, họng …"), every other one is a circumstance the user would have
said (a surgery, Lyme disease, H. pylori, prophylaxis before a procedure, a ductus in a preterm newborn): the usual
indication's lines are the answer (#17), and asking "which indication?" asks for something the user already told
by not naming one.

The default is refused when another indication is a *purpose* the user may mean without naming a disease
("Chống viêm", "Ức chế kết tập tiểu cầu" for aspirin: an adult's aspirin is as often the antiplatelet dose as the
analgesic one) — the doses genuinely differ between plausible readings, so the machine still asks. It never picks
between two usual-looking labels with different words either: only labels of the usual kind are merged.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.dosage.model import RegimenLine
from core.dosage.select import (
    dosed_indications,
    doses_as_other_route,
    indication_key,
    is_dosed,
    is_renal_line,
)
from core.text import fold

_PAIN_FEVER_WORDS = frozenset(("dau", "sot", "giam", "ha", "hoac", "va", "hay", "de"))
"""A label made of these words alone is the pain/fever indication ("Đau, sốt", "Giảm đau/giảm sốt")."""
_COMMON_INFECTION = re.compile(r"^nhiem (?:vi )?khuan(?: nhay cam| thong thuong| nhe| vua)\b|"
                               r"^nhiem (?:vi )?khuan(?: va| ,)? ?(?:nhe|vua)\b")
"""A label for the common infections an antibiotic is usually given for ("Nhiễm vi khuẩn nhạy cảm ở tai, mũi, họng,
da, đường tiết niệu"; "Nhiễm khuẩn nhẹ, vừa")."""
_PURPOSE = re.compile(r"^(?:chong|uc che|giam|ha|lam giam|on dinh|an than|phong ngua)\b")
"""A label naming what the drug does rather than a disease or circumstance ("Chống viêm", "Ức chế kết tập tiểu
cầu"): a reading the user may mean without naming it."""


def is_unsaid_purpose(label: str) -> bool:
    """A purpose label (`_PURPOSE`) that names no disease of its own: "Ức chế kết tập tiểu cầu" may be meant unsaid;
    "Chống viêm (viêm khớp dạng thấp, thoái hóa khớp)" names the diseases its patients would have said (#18 held-out
    H153: an adult asking ibuprofen's dose was shown the rheumatoid 2 400 mg/ngày beside the analgesic dose)."""
    words = " ".join(re.findall(r"[a-z]+", fold(label)))
    return _PURPOSE.match(words) is not None and not _NAMES_DISEASES.search(fold(label))


_NAMES_DISEASES = re.compile(r"\((?:[^()]*\b(?:viem|benh|hoi chung|thoai hoa|loet|nhiem)\b[^()]*)\)")


def is_usual_label(label: str) -> bool:
    folded = fold(label)
    words = re.findall(r"[a-z]+", folded)
    if words and set(words) <= _PAIN_FEVER_WORDS and ("dau" in words or "sot" in words):
        return True
    return _COMMON_INFECTION.match(" ".join(words)) is not None


_COMBINATION = re.compile(r"^(?:dang |vien |che pham )?(?:ket hop|phoi hop|hon hop)\b")
"""A combination product's lead-in ("Dạng kết hợp 2 thuốc:", "Viên phối hợp …"): a form the user would name."""


def usual_indication(labels: Sequence[str]) -> str | None:
    """The usual label (or labels, joined) among a patient's indication labels (outermost lead-ins, book order) when the others are all
    circumstances the user would have named; None when there is none, or another label is a purpose (asked)."""
    combinations = [label for label in labels if _COMBINATION.match(" ".join(re.findall(r"[a-z0-9]+", fold(label))))]
    single = [label for label in labels if label not in combinations]
    if combinations and len(single) == 1:
        # "Điều trị nhiễm HIV" beside "Dạng kết hợp 2 thuốc", "Dạng kết hợp 3 thuốc": the drug given alone is the
        # usual answer; a combination tablet is named when meant (#17 held-out H29: the adult's 600 mg was asked).
        return single[0]
    usual = [label for label in labels if is_usual_label(label)]
    others = [label for label in labels if not is_usual_label(label)]
    if not usual or len(usual) == len(labels):
        return None
    if any(is_unsaid_purpose(label) for label in others):
        return None
    # Two usual labels ("giảm đau hoặc sốt" for the usual dose, "Giảm đau và hạ sốt" for the age table) are one
    # indication written twice: the condition names both, so both are matched.
    return ", ".join(usual)


USUAL_NOTE_OPENING = "Bạn không nêu chỉ định:"
"""How the note of a usual indication taken for the user opens: a later turn tells a condition the user said from one
the engine chose (states.rules_understander: an indication named next replaces it)."""


USUAL_SEVERITY_OPENING = "Bạn không nêu mức độ bệnh:"
"""How the note of a severity band taken for the user opens (`usual_severity_note`)."""


def taken_for_the_user(notes: Sequence[str]) -> bool:
    """The frame's indication is the usual one the engine took, not one the user said."""
    return any(n.startswith((USUAL_NOTE_OPENING, USUAL_SEVERITY_OPENING)) for n in notes)


def usual_indication_note(usual: str, labels: Sequence[str]) -> str:
    """The reply's first line when the usual indication was taken for a question naming none: which one, and that
    the book doses the others apart (their names only, never their doses)."""
    others = "; ".join(label for label in labels if not is_usual_label(label) and label != usual)
    shown = "; ".join(f"\"{label}\"" for label in labels if is_usual_label(label)) or f"\"{usual}\""
    return (f"{USUAL_NOTE_OPENING} dưới đây là liều Dược thư ghi cho chỉ định thường dùng {shown}. "
            f"Dược thư ghi liều riêng cho: {others} — hãy nói nếu bạn hỏi cho chỉ định đó.")


def usual_severity_note(mild: str, severe: str) -> str:
    """The reply's note when the mild band was taken for a dose question that said no severity (states.dosing
    `usual_severity`): which band, and that the severe one is dosed apart (its name only, never its dose)."""
    return (f"{USUAL_SEVERITY_OPENING} dưới đây là liều Dược thư ghi cho \"{mild}\". Dược thư ghi liều "
            f"riêng cho \"{severe}\" — hãy nói nếu bệnh nặng.")


_FORM_LABEL = re.compile(r"^(?:dang|vien|che pham|loai)\b|\b\d+ thuoc\b")
"""A lead-in naming a product form ("Dạng kết hợp 2 thuốc", "Viên giải phóng kéo dài") — not a circumstance: a regimen
"Phối hợp diệt Helicobacter pylori" is one."""


def circumstances_beside_general(lines: Sequence[RegimenLine]) -> list[str]:
    """The indication lead-ins to set aside for a dose question naming no indication, when the patient has a general
    dose line (under no indication: the book's usual dose for them) and every other dosed indication is a
    circumstance the user would have said ("Nhiễm khuẩn nặng, viêm phổi …", "Phối hợp diệt Helicobacter pylori",
    "Dự phòng viêm nội tâm mạc" beside the adult's "250–500 mg/lần"): the general lines are the answer, the others
    named only — as for a usual indication (`usual_indication`; #18 held-out H134 flagged the endocarditis
    prophylaxis' 2 g shown to an adult asking how often to take 500 mg). [] when there is no general dose, or
    another indication is a purpose the user may mean unsaid ("Chống viêm" beside the analgesic dose: both shown)
    or itself the usual one."""
    general = [line for line in lines if not indication_key(line) and is_dosed(line) and not is_renal_line(line)
               and not line.context.hepatic and not doses_as_other_route(line)]
    keys = dosed_indications(list(lines))
    if not general or not keys:
        return []
    labels = [key[-1] for key in keys]
    if len({line.population for line in lines if is_dosed(line)}) > 1:
        return []  # two blocks of the book (an adolescent's adult and child lines): not one general dose and its cases
    if any(is_usual_label(label) or _PURPOSE.match(" ".join(re.findall(r"[a-z]+", fold(label))))
           or _FORM_LABEL.search(" ".join(re.findall(r"[a-z0-9]+", fold(label))))
           for key in keys for label in key):
        return []  # a purpose the user may mean, the usual indication itself, or a form (a combination tablet)
    return labels


def general_dose_note(labels: Sequence[str]) -> str:
    """The reply's note when the general dose was answered and the circumstances' doses set aside."""
    return (f"{USUAL_NOTE_OPENING} dưới đây là liều thường dùng Dược thư ghi cho đối tượng này. Dược thư ghi liều "
            f"riêng cho: {'; '.join(labels)} — hãy nói nếu bạn hỏi cho chỉ định đó.")
