import contextlib
import json
import math
import multiprocessing
import sqlite3
import time

import pytest
import sqlalchemy as sa

from canasta_tutor.classroom.progress import ENV_VAR, MAX_NAME, MAX_SECONDS, ProgressStore, default_path
from canasta_tutor.engine.errors import ProgressError


@contextlib.contextmanager
def _raw(url):
    """A connection (SQLAlchemy) to the test's database, either backend, in a transaction: to write rows the
    current code would not write (old or hand-made ones)."""
    from canasta_tutor.classroom import db

    with db.begin(db.target(url), write=True) as conn:
        yield conn


def _write_many(path, learner, n):
    store = ProgressStore(path)
    for i in range(n):
        store.record(learner=learner, puzzle_set="set", puzzle_id=f"p-{i}", kind="meld", topic="melds",
                     difficulty=1, answer={"valid": True}, correct=i % 2 == 0, seconds=1.5)
    for _ in range(50):  # an attempt kept while the others wrote is saved now
        if store.flush():
            break


def test_record_and_read(db_url):
    store = ProgressStore(db_url)
    store.record(learner="ana", puzzle_set="Melds", puzzle_id="m-1", kind="meld", topic="melds", difficulty=2,
                 answer={"valid": False, "canasta": "none"}, correct=False, seconds=3.25)
    store.record(learner="ana", puzzle_set="Melds", puzzle_id="m-2", kind="meld", topic="melds", difficulty=2,
                 answer={"valid": True, "canasta": "none"}, correct=True, seconds=2.0)
    store.record(learner="bo", puzzle_set="Scores", puzzle_id="s-1", kind="score-hand", topic="scoring",
                 difficulty=1, answer={"score": 30}, correct=True, seconds=None)
    frame = store.attempts()
    assert list(frame.columns) == ["id", "learner", "puzzle_set", "puzzle_id", "kind", "topic", "difficulty",
                                   "answer", "correct", "seconds", "timestamp"]
    assert len(frame) == 3 and frame["correct"].tolist() == [False, True, True]
    summary = store.summary()
    ana = summary[summary.learner == "ana"].iloc[0]
    assert (ana.attempts, ana.correct, ana.accuracy) == (2, 1, 0.5)
    assert len(store.summary("bo")) == 1
    assert [a.answer for a in store.history("bo")] == [{"score": 30}]


def test_env_var_names_the_database(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "here.sqlite3"))
    assert default_path() == tmp_path / "here.sqlite3"
    assert ProgressStore().path == tmp_path / "here.sqlite3"


def test_default_is_the_user_data_directory(tmp_path, monkeypatch):
    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path))
    path = default_path()
    assert str(path).startswith(str(tmp_path)) and path.name == "progress.sqlite3"
    assert "canasta-tutor" in str(path)


def test_concurrent_writers_lose_no_row(tmp_path):
    path = tmp_path / "shared.sqlite3"
    ProgressStore(path)
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_write_many, args=(str(path), f"learner-{i}", 60)) for i in range(5)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    frame = ProgressStore(path).attempts()
    assert len(frame) == 300
    assert frame.groupby("learner").size().tolist() == [60] * 5


def test_every_write_is_committed_at_once(tmp_path):
    # a kernel killed after answering loses nothing: the row is visible to a fresh connection immediately
    path = tmp_path / "p.sqlite3"
    ProgressStore(path).record(learner="ana", puzzle_set="s", puzzle_id="p", kind="meld", topic="t", difficulty=1,
                               answer={}, correct=True, seconds=1.0)
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM attempts").fetchone()[0] == 1


def test_unusable_path_gives_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(Exception) as e:
        ProgressStore(blocker / "p.sqlite3")
    assert "progress database" in str(e.value)


def test_progress_command(cli, db_url, monkeypatch):
    db = db_url
    _write_many(str(db), "ana", 4)
    r = cli("progress", "--db", str(db))
    assert r.returncode == 0 and "ana" in r.stdout and "50 %" in r.stdout
    r = cli("progress", "--db", str(db), "--learner", "bo")
    assert r.returncode == 0 and "No attempts recorded for bo" in r.stdout


# --- faults: damaged, foreign or locked databases ----------------------------------------------------------

def _attempt(store, pid="p-1", learner="ana", seconds=2.0, **kw):
    return store.record(learner=learner, puzzle_set="set", puzzle_id=pid, kind="meld", topic="melds", difficulty=1,
                        answer={"valid": True}, correct=True, seconds=seconds, **kw)


def test_a_damaged_file_gives_a_progress_error_naming_it(tmp_path):
    path = tmp_path / "p.sqlite3"
    path.write_bytes(b"this is not SQLite at all" * 100)
    with pytest.raises(ProgressError) as e:
        ProgressStore(path)
    assert str(path) in str(e.value) and "not a database" in str(e.value)
    with pytest.raises(ProgressError):
        ProgressStore(path, create=False).history()


def test_a_file_damaged_after_opening_keeps_the_answer(tmp_path):
    path = tmp_path / "p.sqlite3"
    store = ProgressStore(path)
    path.write_bytes(b"x" * 8192)
    result = _attempt(store)
    assert not result and result.kept == 1 and str(path) in result.problem
    with pytest.raises(ProgressError):
        store.history("ana")


def test_a_foreign_database_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
    before = path.read_bytes()
    for make in (lambda: ProgressStore(path), lambda: ProgressStore(path, create=False).summary()):
        with pytest.raises(ProgressError) as e:
            make()
        assert "not a canasta-tutor progress database" in str(e.value) and "recipes" in str(e.value)
    assert path.read_bytes() == before  # not switched to WAL, no table added
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE recipes")
        conn.execute("CREATE TABLE attempts (learner TEXT)")
    with pytest.raises(ProgressError) as e:
        ProgressStore(path)
    assert "no columns id, puzzle_set" in str(e.value)


def test_reading_never_creates_anything(tmp_path):
    target = tmp_path / "new" / "folder" / "p.sqlite3"
    with pytest.raises(ProgressError) as e:
        ProgressStore(target, create=False)
    assert str(e.value) == f"no progress database at {target}"
    assert not (tmp_path / "new").exists()


def test_a_bad_json_row_does_not_break_reading(tmp_path):
    path = tmp_path / "p.sqlite3"
    store = ProgressStore(path)
    _attempt(store, "p-1")
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO attempts (learner, puzzle_set, puzzle_id, kind, topic, difficulty, answer, correct, "
                     "seconds, timestamp) VALUES ('ana', 'set', 'p-2', 'meld', 'melds', 'hard', '{not json', 0, "
                     "'slow', 'now')")
    history = store.history("ana")
    assert [a.puzzle_id for a in history] == ["p-1", "p-2"]
    assert history[1].answer == "{not json" and history[1].difficulty == 1 and history[1].seconds is None
    assert history[1].correct is False
    row = store.summary("ana").iloc[0]
    assert (row.attempts, row.correct, row.median_seconds) == (2, 1, 2.0)


def test_a_held_write_lock_keeps_the_answer_and_saves_it_later(tmp_path):
    path = tmp_path / "p.sqlite3"
    store = ProgressStore(path, busy_seconds=0.2)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    start = time.perf_counter()
    result = _attempt(store, "p-1")
    waited = time.perf_counter() - start
    assert not result and result.kept == 1 and "locked" in result.problem and str(path) in result.problem
    assert waited < 5
    assert store.journal.exists() and len(store.journal.read_text("utf-8").splitlines()) == 1
    result = _attempt(store, "p-2")
    assert not result and result.kept == 2
    holder.execute("ROLLBACK")
    holder.close()
    # another kernel (a new store on the same file) saves the journal's attempts before its own, in order
    result = _attempt(ProgressStore(path), "p-3")
    assert result and result.kept == 0
    assert [a.puzzle_id for a in store.history("ana")] == ["p-1", "p-2", "p-3"]
    assert not store.journal.exists() and store.pending() == 0


def test_kept_attempts_stay_in_memory_when_the_journal_cannot_be_written(tmp_path):
    path = tmp_path / "p.sqlite3"
    store = ProgressStore(path, busy_seconds=0.1)
    store.journal.mkdir()  # a folder where the journal file should go: appending to it fails
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    assert not _attempt(store, "p-1")
    assert store.pending() == 1
    holder.execute("ROLLBACK")
    holder.close()
    assert store.flush() and store.pending() == 0
    assert [a.puzzle_id for a in store.history()] == ["p-1"]


def test_a_journal_line_cut_short_by_a_crash_is_skipped(db_url):
    path = db_url
    store = ProgressStore(path)
    row = ["ana", "set", "p-1", "meld", "melds", 1, json.dumps({"valid": True}), 1, 2.0, "2026-01-01T00:00:00+00:00"]
    store.journal.write_text(json.dumps(row) + "\n" + json.dumps(row)[:20], encoding="utf-8")
    assert _attempt(store, "p-2")
    assert [a.puzzle_id for a in store.history()] == ["p-1", "p-2"]


# --- learner names and times -------------------------------------------------------------------------------

def test_learner_names_are_capped_and_stripped_of_control_characters(db_url):
    store = ProgressStore(db_url)
    with pytest.raises(ProgressError) as e:
        _attempt(store, learner="a" * 200_000)
    assert f"at most {MAX_NAME}" in str(e.value) and len(str(e.value)) < 200
    with pytest.raises(ProgressError):
        _attempt(store, learner=" \x1b\x07 ")
    assert _attempt(store, learner="x" * MAX_NAME)
    for typed, stored in (("\x1b[31mEvil\x1b[0m", "[31mEvil[0m"), ("Zoë O'Neill", "Zoë O'Neill"),
                          ("<b>bold</b>", "<b>bold</b>"), ("李 小龍", "李 小龍"), ("a\u202eb", "ab"),
                          ("tab\there", "tabhere")):
        assert _attempt(store, learner=typed)
        assert store.history(typed)[-1].learner == stored
    assert not any("\x1b" in a.learner for a in store.history())


def test_progress_command_shows_escape_codes_as_text(cli, db_url):
    path = db_url
    ProgressStore(path)
    with _raw(path) as conn:  # a row written before names were cleaned
        conn.execute(sa.text("INSERT INTO attempts (learner, puzzle_set, puzzle_id, kind, topic, difficulty, answer, "
                             "correct, seconds, timestamp) VALUES (:name, 's', 'p', 'meld', 'melds', 1, '{}', 1, 1.0, "
                             "'now')"), {"name": "\x1b[41mred\x1b[0m" + "z" * 300})
    r = cli("progress", "--db", str(path))
    assert r.returncode == 0 and "\x1b" not in r.stdout and "\\x1b[41mred" in r.stdout
    assert max(len(line) for line in r.stdout.splitlines()) < 200


@pytest.mark.parametrize("seconds, stored", [(2.2, 2.2), (0, 0.0), (MAX_SECONDS, MAX_SECONDS), (MAX_SECONDS + 1, None),
                                             (-3, None), (math.nan, None), (math.inf, None), ("abc", None),
                                             (None, None), (10 ** 400, None)])
def test_absurd_times_are_stored_as_unknown(db_url, seconds, stored):
    store = ProgressStore(db_url)
    assert _attempt(store, seconds=seconds)
    assert store.history()[0].seconds == stored


def test_median_seconds_leaves_out_unknown_and_away_times(db_url):
    path = db_url
    store = ProgressStore(path)
    for i, seconds in enumerate((2.0, 4.0, 9.0, None, 737.0)):
        _attempt(store, f"p-{i}", seconds=seconds)
    with _raw(path) as conn:  # an "away" time written before times were checked
        conn.exec_driver_sql("INSERT INTO attempts (learner, puzzle_set, puzzle_id, kind, topic, difficulty, answer, "
                             "correct, seconds, timestamp) VALUES ('ana', 's', 'old', 'meld', 'melds', 1, '{}', 1, "
                             "90000, 'then')")
    row = store.summary("ana").iloc[0]
    assert row.attempts == 6
    assert row.median_seconds == 6.5  # median of 2, 4, 9, 737: None and 90,000 s are left out
    _attempt(store, "q", learner="bo", seconds=None)
    assert math.isnan(store.summary("bo").iloc[0].median_seconds)
