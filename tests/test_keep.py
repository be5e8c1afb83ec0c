"""Faults say the truth, in the trainer: where an answer that could not be saved waits, said as it is (on the server's
disk; or, with the disk full, only in the page and the browser), and the browser's copy (canasta_tutor.widgets.keep)
saved by a new kernel after the first one died, once, and only when the server signed it."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa
from test_trainer import buttons, trainer

from canasta_tutor.classroom.progress import ProgressStore
from canasta_tutor.widgets import keep


class FullDisk(ProgressStore):
    """A database whose writes fail as on a full disk; ``journal``: whether the journal file can still be written."""

    def __init__(self, path, journal: bool):
        super().__init__(path)
        self.full, self.journal_ok = True, journal

    def _insert(self, rows):
        if self.full:
            raise sa.exc.OperationalError("INSERT", {}, Exception("database or disk is full"))
        super()._insert(rows)

    def _append_journal(self, rows):
        return self.journal_ok and super()._append_journal(rows)


@pytest.fixture
def fresh_keeper(monkeypatch):
    monkeypatch.setenv(keep.KEY_ENV, "a-servers-key")
    monkeypatch.setattr(keep, "_keeper", None)


def waiting(t) -> list:
    return json.loads(t.keep.out.value or "{}").get("waiting", [])


def test_with_the_disk_full_the_page_says_the_answer_is_kept_only_here_and_the_browser_has_it(tmp_path, fresh_keeper):
    store = FullDisk(tmp_path / "p.sqlite3", journal=False)
    t = trainer(store, ["tk", "fz"])
    buttons(t)["No"].click()
    assert "could not be saved yet" in t.message.value and "disk full" in t.message.value
    assert "could not keep it on its disk either" in t.message.value and "in this browser" in t.message.value
    assert "will be saved with your next answer" not in t.message.value
    assert len(waiting(t)) == 1 and not store.journal.exists()


def test_with_the_journal_on_disk_the_page_says_it_is_kept_on_the_server(tmp_path, fresh_keeper):
    store = FullDisk(tmp_path / "p.sqlite3", journal=True)
    t = trainer(store, ["tk", "fz"])
    buttons(t)["No"].click()
    assert "kept on the server and will be saved as soon as the database is back" in t.message.value
    assert waiting(t) == [] and store.pending() == 1  # on the server's disk: the browser need not keep it


def test_a_new_kernel_saves_what_the_browser_kept_once_and_only_what_the_server_signed(tmp_path, fresh_keeper):
    path = tmp_path / "p.sqlite3"
    t = trainer(FullDisk(path, journal=False), ["tk", "fz"])
    buttons(t)["No"].click()
    kept = waiting(t)  # what the page put in localStorage; then the kernel died (its memory is gone)
    assert len(kept) == 1
    stamp = json.loads(kept[0]["body"])["timestamp"]

    new = keep.BrowserKeep()  # the next kernel: the database is back
    new.store, new.learner = ProgressStore(path), "ana"
    body = json.loads(kept[0]["body"])
    forged = {"body": json.dumps({**body, "uid": "u2", "correct": not body["correct"]}, sort_keys=True),
              "sig": kept[0]["sig"]}  # the answer's right/wrong changed in the browser
    other = keep.sign("x1", {"learner": "bo", "puzzle_set": "s", "puzzle_id": "p", "kind": "meld", "topic": "melds",
                            "difficulty": 1, "answer": {}, "correct": True, "seconds": 1.0})
    assert new.take_back(json.dumps([forged, other])) == 0  # a made-up answer; another learner's (it waits)
    new.back.value = json.dumps(kept)  # the page sends it back (as the template's script does)
    new.back.value = json.dumps(kept + [{"junk": 1}])  # and again, on another reconnection
    rows = ProgressStore(path).attempts("ana")
    assert rows["puzzle_id"].tolist() == ["tk"] and rows["timestamp"].tolist() == [stamp]
    assert json.loads(new.out.value)["done"] == [json.loads(kept[0]["body"])["uid"]]  # the page may forget it


def test_the_servers_signing_key_is_the_one_the_kernels_read_and_outlives_a_restart(tmp_path):
    from canasta_tutor.web.app import KEEP_KEY_ENV, keep_key

    assert KEEP_KEY_ENV == keep.KEY_ENV
    first = keep_key(tmp_path)
    assert len(first) >= 32 and keep_key(tmp_path) == first  # the next start reads the same key
    assert (tmp_path / "browser-keep.key").stat().st_mode & 0o077 == 0  # the server's user's only
    assert keep_key(tmp_path / "no" / "such" / "folder") != first  # no file possible: a key of this start
