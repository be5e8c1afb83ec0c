"""Golden file: every hand-written puzzle's answer and explanation, as ``canasta-tutor solve puzzles/`` prints it.

The file ``tests/golden/solve-puzzles.jsonl`` was read line by line by a person
(the sentences are what learners read). Any change of wording makes this test
fail with a diff; after reviewing the new sentences, re-make the file with

    .venv/bin/python scripts/update_golden.py

(or ``CANASTA_UPDATE_GOLDEN=1 bash scripts/test.sh tests/test_golden.py``) and
read the diff (``git diff tests/golden``) before committing it.
"""

from __future__ import annotations

import difflib
import io
import os
from contextlib import redirect_stdout
from pathlib import Path

from canasta_tutor.cli import main

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "solve-puzzles.jsonl"


def solve_output() -> str:
    """What ``canasta-tutor solve puzzles/`` prints, run from the repository root."""
    buffer = io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with redirect_stdout(buffer):
            status = main(["solve", "puzzles/"])
    finally:
        os.chdir(cwd)
    assert status == 0, buffer.getvalue()[-2000:]
    return buffer.getvalue()


def test_solve_output_matches_the_reviewed_golden_file():
    got = solve_output()
    if os.environ.get("CANASTA_UPDATE_GOLDEN"):
        GOLDEN.write_text(got, encoding="utf-8")
    want = GOLDEN.read_text(encoding="utf-8")
    if got != want:
        diff = "".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                            "tests/golden/solve-puzzles.jsonl (reviewed)", "solve puzzles/ (now)", n=0))
        raise AssertionError("the explanations learners read have changed; review the diff and, if it is right, "
                             "run scripts/update_golden.py:\n" + diff)


def test_golden_file_covers_every_puzzle_and_holds_no_error():
    import json

    lines = [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines()]
    assert len(lines) >= 200
    assert all("error" not in line and line["explanation"] for line in lines)
