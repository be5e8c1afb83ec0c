"""Run every lesson and store only the outputs nbval compares (cells marked NBVAL_CHECK_OUTPUT).

    .venv/bin/python scripts/refresh_lesson_outputs.py

Everything else is cleared, so the notebooks stay short and diff well: widget
outputs are made fresh by the kernel each time.
"""

import os
import sys
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent


def refresh(path: Path) -> None:
    book = nbformat.read(path, as_version=4)
    NotebookClient(book, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    count = 0
    for cell in book.cells:
        cell.metadata.pop("execution", None)
        if cell.cell_type != "code":
            continue
        count += 1
        if "NBVAL_CHECK_OUTPUT" not in cell.source:
            cell.outputs = []
            cell.execution_count = None
        else:  # nbval compares only cells that were run: keep the count
            cell.execution_count = count
            for out in cell.outputs:
                if "execution_count" in out:
                    out["execution_count"] = count
    book.metadata.pop("widgets", None)
    nbformat.write(book, path)


if __name__ == "__main__":
    os.environ.setdefault("CANASTA_TUTOR_DB", str(Path(tempfile.mkdtemp()) / "lessons.sqlite3"))
    paths = [Path(p) for p in sys.argv[1:]] or sorted((ROOT / "lessons").glob("*.ipynb"))
    for p in paths:
        refresh(p)
        print("refreshed", p.relative_to(ROOT) if p.is_absolute() else p)
