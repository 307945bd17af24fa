"""The dependency rule the README states, checked on the imports the code actually has.

core ← retrieval, grounding (side by side, neither imports the other) ← states ← engine.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN: dict[str, set[str]] = {
    "core": {"retrieval", "grounding", "states", "engine"},
    "retrieval": {"grounding", "states", "engine"},
    "grounding": {"retrieval", "states", "engine"},
    "states": {"engine"},
}


def _imported_packages(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_a_layer_never_imports_a_layer_above_or_beside_it(package: str) -> None:
    offences = [
        f"{path.relative_to(ROOT)} imports {sorted(_imported_packages(path) & FORBIDDEN[package])}"
        for path in sorted((ROOT / package).rglob("*.py"))
        if _imported_packages(path) & FORBIDDEN[package]
    ]
    assert not offences, "dependency rule broken:\n" + "\n".join(offences)
