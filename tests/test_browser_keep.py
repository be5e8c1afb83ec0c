"""An answer given while the disk is full survives its kernel: the page keeps it in the browser's localStorage
(canasta_tutor.widgets.keep and the ``canasta`` template's script), and the next page's kernel saves it once the
database takes writes again (Chromium through Playwright; a tiny lesson; 127.0.0.7, ports 9160-9169)."""

from __future__ import annotations

import time

import nbformat
from test_browser import block_other_hosts, browser, serve  # noqa: F401 (browser: a fixture)
from test_web_handlers import HOST, free_port

from canasta_tutor.classroom.progress import ProgressStore

PUZZLES = """title: Keep test
puzzles:
  - {id: tk, kind: take-pile, topic: taking, hand: 7H 4C 9D QS, melds: [KH KS KD], score: 0, pile: 5D 2C 7C,
     expect: {take: false}}
"""
CELL = """import pathlib
import sqlalchemy as sa
from canasta_tutor.classroom.progress import ProgressStore
from canasta_tutor.widgets import Trainer

FULL = pathlib.Path({full!r})

class Disk(ProgressStore):
    # a full disk while the file FULL exists: neither the database nor the journal file can be written
    def _insert(self, rows):
        if FULL.exists():
            raise sa.exc.OperationalError("INSERT", {{}}, Exception("database or disk is full"))
        super()._insert(rows)

    def _append_journal(self, rows):
        return not FULL.exists() and super()._append_journal(rows)

Trainer({puzzles!r}, learner="ana", store=Disk({db!r}), ask_name=False)"""


def test_an_answer_kept_in_the_browser_is_saved_by_the_next_kernel(tmp_path, browser):  # noqa: F811
    full, db = tmp_path / "disk-full", tmp_path / "progress.sqlite3"
    (tmp_path / "keep.yaml").write_text(PUZZLES)
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(CELL.format(full=str(full), puzzles=str(tmp_path / "keep.yaml"),
                                                      db=str(db)))]
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nbformat.write(nb, lessons / "index.ipynb")
    full.touch()
    with serve(tmp_path, ["--ip", HOST, "--no-preheat", "--lessons", str(lessons)], host=HOST,
               port=free_port(range(9160, 9170)), ready_path="/voila/tree", notebooks=[]) as (base, _proc):
        context = browser.new_context()
        page = context.new_page()
        outside = block_other_hosts(page, base)
        page.goto(base + "/voila/render/index.ipynb")
        page.get_by_role("button", name="No", exact=True).click()
        page.get_by_text("could not keep it on its disk either").wait_for()
        kept = "() => Object.keys(JSON.parse(localStorage.getItem('canasta-tutor-waiting') || '{}')).length"
        page.wait_for_function(kept + " === 1")
        page.close()  # the kernel is shut down with the page: the answer lives only in the browser now
        assert len(ProgressStore(db).attempts("ana")) == 0
        full.unlink()  # the disk has room again
        again = context.new_page()
        block_other_hosts(again, base)
        again.goto(base + "/voila/render/index.ipynb")
        again.wait_for_function(kept + " === 0", timeout=60_000)
        deadline = time.monotonic() + 10
        while len(ProgressStore(db).attempts("ana")) == 0 and time.monotonic() < deadline:
            time.sleep(0.3)
        rows = ProgressStore(db).attempts("ana")
        assert rows["puzzle_id"].tolist() == ["tk"] and rows["correct"].tolist() == [1]
        context.close()
        assert not outside
