"""Thanks, greetings and assent said before a question ("dạ vâng, cảm ơn nhiều ạ. Từ ngày thứ hai thì sao ạ?").

The question is what the turn asks: the politeness before it is not smalltalk to be answered with "Không có gì!".
"""

from __future__ import annotations

import re

from core.text import fold

# Words that make up a pleasantry and nothing else (folded): thanks, greetings, assent, address terms, particles.
_PLEASANTRY = re.compile(
    r"(?:(?:da|vang|u|uh|um|ok|oke|okay|cam on|camon|thanks|thank you|thank u|thank|tks|thks|thx|xin chao|chao|"
    r"hi|hello|hey|"
    r"ban|em|anh|chi|bac si|bac|ad|admin|nhieu|lam|rat|a|nhe|nha|oi|ha|nhieu nhe|roi|duoc roi|hieu roi|"
    r"toi hieu roi|minh hieu roi|em hieu roi)\s*)+")
_SEGMENT = re.compile(r"[^.!?,;]+[.!?,;]*")
_THANKS_OR_GREETING = re.compile(r"\b(cam on|camon|thanks|thank|tks|thks|thx|xin chao|chao|hello|hi)\b")


def without_pleasantries(text: str) -> str:
    """The turn without the thanks, greetings and assent it opens with, when a question follows them; the turn as it
    is otherwise (a pleasantry alone is smalltalk, and is answered as such)."""
    segments = [m.group(0) for m in _SEGMENT.finditer(text)]
    dropped = 0
    greeted = False
    for segment in segments:
        folded = fold(segment).strip(" .!?,;")
        if not folded or _PLEASANTRY.fullmatch(folded) is None:
            break
        greeted = greeted or _THANKS_OR_GREETING.search(folded) is not None
        dropped += 1
    if not dropped or dropped == len(segments) or not greeted:
        return text  # nothing to drop, nothing after it, or only "dạ," before an answer (which reads it already)
    rest = "".join(segments[dropped:]).strip()
    return rest if re.search(r"\w", rest) else text
