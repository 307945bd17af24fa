"""Which corpus format a file is in, read from its content (the extension is only a hint).

A formulary export saved as `data.txt`, or a JSON Lines file named `.json`, must still load; a Markdown file is
anything else that has a `# ` title line. Detection reads the file's start only, except for a `{`-document, which
must be parsed to tell an export (`{"drugs": [...]}`) from one JSON Lines record.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from core.corpus import Monograph
from retrieval.json_export_loader import is_json_export, load_json_export
from retrieval.jsonl_loader import load_jsonl
from retrieval.load_report import LoadReport
from retrieval.markdown_loader import load_markdown

Format = Literal["markdown", "jsonl", "json_export"]
Loader = Callable[[Path], tuple[list[Monograph], LoadReport]]

CORPUS_SUFFIXES = (".md", ".markdown", ".jsonl", ".json")
"""Files a folder is searched for; a file named explicitly is read whatever its name."""
_SNIFF = 4096


def detect_format(path: Path) -> Format | None:
    """The format of the file's content, or None when it is none of the three."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(_SNIFF)
    except OSError:
        return None
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff")
    stripped = text.lstrip()
    if stripped.startswith("{"):
        first_line = stripped.split("\n", 1)[0]
        try:
            first = json.loads(first_line)
        except json.JSONDecodeError:
            pass
        else:  # a whole object on the first line: an export written on one line, or JSON Lines
            return "json_export" if is_json_export(first) else "jsonl"
        try:
            data = json.loads(path.read_text(encoding="utf-8").lstrip("\ufeff"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            return "jsonl" if path.suffix.lower() == ".jsonl" else None
        return "json_export" if is_json_export(data) else None
    if any(line.startswith("#") for line in text.splitlines()) or path.suffix.lower() in (".md", ".markdown"):
        return "markdown"
    return None


def loader_for(path: Path) -> Loader | None:
    fmt = detect_format(path)
    if fmt == "json_export":
        return load_json_export
    if fmt == "jsonl":
        return _jsonl_or_export
    if fmt == "markdown":
        return load_markdown
    return None


def _jsonl_or_export(path: Path) -> tuple[list[Monograph], LoadReport]:
    """A one-line document is JSON Lines unless it is an export (`{"drugs": [...]}` written on one line)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return load_jsonl(path)
    return load_json_export(path) if is_json_export(data) else load_jsonl(path)
