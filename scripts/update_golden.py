"""Re-make tests/golden/solve-puzzles.jsonl (and solve-puzzles.{nl,da,af}.jsonl) after a REVIEWED change of wording.

    .venv/bin/python scripts/update_golden.py

Then read `git diff tests/golden` line by line before committing it: the files
are what learners read, and the tests compare the engine against them.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from test_golden import GOLDEN, solve_output  # noqa: E402
from test_golden_languages import TRANSLATED, golden  # noqa: E402
from test_golden_languages import solve_output as solve_in  # noqa: E402

GOLDEN.write_text(solve_output(), encoding="utf-8")
written = [GOLDEN]
for lang in TRANSLATED:
    golden(lang).write_text(solve_in(lang), encoding="utf-8")
    written.append(golden(lang))
for path in written:
    print(f"wrote {path.relative_to(ROOT)}")
print("now review: git diff tests/golden")
