"""Re-make tests/golden/solve-puzzles.jsonl after a REVIEWED change of wording.

    .venv/bin/python scripts/update_golden.py

Then read `git diff tests/golden` line by line before committing it: the file
is what learners read, and the test compares the engine against it.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from test_golden import GOLDEN, solve_output  # noqa: E402

GOLDEN.write_text(solve_output(), encoding="utf-8")
print(f"wrote {GOLDEN.relative_to(ROOT)}; now review: git diff {GOLDEN.relative_to(ROOT)}")
