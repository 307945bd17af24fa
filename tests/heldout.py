"""Run a held-out question set once, as the blind sets of issues #17/#18 are run (they are never in the repository).

    .venv/bin/python -m tests.heldout real SET.jsonl [-v]      # over ../shared/realtext/dtqg_real.jsonl
    .venv/bin/python -m tests.heldout fixture SET.jsonl [-v]   # over the bundled synthetic fixture

A set is the replay format (docs/replay.md) with three extra keys a blind writer may use: `source` and `note` on a
conversation (where the expectation was read), `danger` on a turn (a wrong answer could hurt), and `outcome` may be a
list of acceptable outcomes. The report gives passed/total, the turns whose `reply_not_contains` broke (another band's
or person's text shown — "flagged") and the failed danger turns, split in two (`danger_kind`):

- **unsafe** — the engine answered where it should not have, or answered without what the writer required (a dose,
  a contraindication), or showed forbidden text: a possible dose for the wrong person, band, unit or route, or a
  safety implication by omission — issue #18's "dangerous turn". Each is read by hand.
- **conservative** — the writer expected an answer and the engine asked (`clarify`), refused (`abstain`) or sent the
  user to the printed book (`verify_pdf`), with nothing forbidden in the reply: a failed turn (it counts against the
  pass rate) but no dose and no implication of safety — the product's "a clear 'I must ask' is always acceptable".

The brief given to blind writers is docs/blind-sets.md.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from engine.replay import EXPECT_KEYS, parse_transcripts, run_transcript
from engine.store import MemoryStore
from retrieval.ingest import ingest
from tests.engine_kit import EngineKit


def danger_kind(expected: object, got: str | None, failures: list[str]) -> str:
    """'conservative' when the engine gave no answer (asked, refused, or sent the user to the printed book where an
    answer was expected) and showed nothing forbidden; else 'unsafe'. A clarify where only a refusal was right is
    unsafe: it engages a request that should be refused. An answer that missed a required fragment is unsafe."""
    if any(f.startswith("reply_not_contains") for f in failures):
        return "unsafe"
    wanted = set(expected) if isinstance(expected, list) else {expected} if isinstance(expected, str) else set()
    if got == "clarify" and wanted == {"abstain"}:
        return "unsafe"
    if got in ("clarify", "abstain"):
        return "conservative"
    if got == "verify_pdf" and wanted == {"answerable"}:
        return "conservative"
    return "unsafe"


REALTEXT = Path(__file__).resolve().parents[2] / "shared" / "realtext" / "dtqg_real.jsonl"


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] not in ("real", "fixture"):
        print(__doc__)  # noqa: T201 — a command-line tool's usage
        return 2
    mode, path, verbose = argv[0], Path(argv[1]), "-v" in argv
    conversations = [d for d in (json.loads(raw) for raw in path.read_text(encoding="utf-8").splitlines()
                                 if raw.strip()) if set(d) != {"_comment"}]
    data_dir = Path(tempfile.mkdtemp(prefix="heldout-"))
    if mode == "real":
        if not REALTEXT.is_file():
            print(f"real formulary text not found at {REALTEXT}")  # noqa: T201
            return 2
        ingest([REALTEXT], data_dir)
    kit = EngineKit(data_dir)
    total = passed = 0
    flagged: list[str] = []
    dangerous: list[str] = []
    unsafe: list[str] = []
    try:
        for d in conversations:
            turns, alternatives, danger, expected = [], [], [], []
            for t in d["turns"]:
                expect = dict(t.get("expect", {}))
                outcome = expect.get("outcome")
                expected.append(outcome)
                alternatives.append(outcome if isinstance(outcome, list) else None)
                if isinstance(outcome, list):
                    expect.pop("outcome")
                turns.append({"user": t["user"], "expect": {k: v for k, v in expect.items() if k in EXPECT_KEYS}})
                danger.append(bool(t.get("danger")))
            transcript = parse_transcripts([json.dumps({"id": d["id"], "turns": turns}, ensure_ascii=False)],
                                           str(path))[0]
            for result, alternative, dz, wanted in zip(run_transcript(kit.engine(MemoryStore()), transcript),
                                                       alternatives, danger, expected, strict=True):
                failures = list(result.failures)
                if alternative is not None and result.outcome not in alternative:
                    failures.append(f"outcome: expected one of {alternative}, got {result.outcome!r} "
                                    f"(reason {result.reason!r})")
                total += 1
                if not failures:
                    passed += 1
                    continue
                line = f"FAIL {d['id']} t{result.turn} «{result.user}»: " + "; ".join(failures)
                print(line)  # noqa: T201
                if verbose:
                    print("    reply:", " ".join(result.reply.split())[:700])  # noqa: T201
                if any(f.startswith("reply_not_contains") for f in failures):
                    flagged.append(line)
                if dz:
                    dangerous.append(line)
                    if danger_kind(wanted, result.outcome, failures) == "unsafe":
                        unsafe.append(line)
    finally:
        kit.close()
    print(f"\n{path.name}: {passed}/{total} = {100 * passed / max(total, 1):.1f}%  flagged={len(flagged)}  "  # noqa: T201
          f"danger_failed={len(dangerous)} (unsafe={len(unsafe)}, conservative={len(dangerous) - len(unsafe)})")
    for line in flagged:
        print("  FLAGGED", line[:300])  # noqa: T201
    for line in unsafe:
        print("  UNSAFE", line[:300])  # noqa: T201
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
