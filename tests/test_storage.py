"""The storage layer (canasta_tutor/classroom/db.py): load, faults and migrations, on SQLite and PostgreSQL."""
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import sqlalchemy as sa
from pgserver import PORTS
from test_trainer import SET, buttons

from canasta_tutor.classroom import db
from canasta_tutor.classroom.progress import ProgressStore
from canasta_tutor.classroom.roster import Classroom
from canasta_tutor.engine.errors import ProgressError

ROOT = Path(__file__).resolve().parent.parent


def _count(url) -> int:
    with db.begin(db.target(url)) as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(db.attempts)).scalar_one()


# --- load ------------------------------------------------------------------------------------------------------

def test_thirty_concurrent_writers_lose_no_row(db_url):
    ProgressStore(db_url)
    errors, kept = [], []

    def write(n):
        try:
            # SQLite: a short wait for the write lock, so that some attempts are kept and saved later under load
            store = ProgressStore(db_url, busy_seconds=0.2)
            for i in range(100):
                kept.append(not store.record(learner=f"learner-{n}", puzzle_set="load", puzzle_id=f"p-{i}",
                                             kind="meld", topic="melds", difficulty=1, answer={"valid": True},
                                             correct=i % 3 == 0, seconds=1.0))
            for _ in range(1000):  # an attempt kept while the others held the database is saved now
                if store.flush() and store.pending() == 0:
                    break
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=write, args=(n,)) for n in range(30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert not errors
    print(f"{sum(kept)} of 3000 attempts were kept for a while")
    frame = ProgressStore(db_url).attempts()
    assert len(frame) == 3000 == _count(db_url)
    assert frame.groupby("learner").size().tolist() == [100] * 30
    assert not frame.duplicated(["learner", "puzzle_id"]).any()


# --- the server goes away in the middle of a lesson --------------------------------------------------------------

def test_answers_given_while_the_server_is_down_are_kept_and_saved_when_it_is_back(pg_server, tmp_path, monkeypatch):
    from canasta_tutor.widgets import Trainer

    monkeypatch.setenv("CANASTA_TUTOR_FILES", str(tmp_path / "files"))
    name = "server_restart"
    pg_server.psql(f'DROP DATABASE IF EXISTS "{name}"')
    url = pg_server.create_database(name)
    store = ProgressStore(url, busy_seconds=1)
    t = Trainer(SET, ids=["tk", "fz", "md"], learner="ana", store=store)
    buttons(t)["No"].click()  # tk: saved while the server runs
    assert _count(url) == 1 and "could not be saved" not in t.message.value
    pg_server.stop()
    try:
        t.next()
        buttons(t)["Yes"].click()  # fz: the server is down
        assert "Right!" in t.feedback.value
        assert "could not be saved yet" in t.message.value  # the learner is told, in a sentence
        assert store.pending() == 1 and store.journal.is_file()
    finally:
        pg_server.start()
    assert _count(url) == 1  # nothing reached the database while it was down
    t.next()
    buttons(t)["Mixed canasta"].click()  # md: the next answer saves the kept one first
    assert "could not be saved" not in t.message.value
    assert store.pending() == 0 and not store.journal.exists()
    assert store.attempts("ana")["puzzle_id"].tolist() == ["tk", "fz", "md"]
    db.forget(db.target(url))
    pg_server.psql(f'DROP DATABASE "{name}" WITH (FORCE)')


# --- clear messages, never a traceback ---------------------------------------------------------------------------

def _unused_port(pg_server) -> int:
    import socket

    for port in PORTS:
        if port == pg_server.port:
            continue
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) != 0:
                return port
    pytest.fail("no unused port in 9300-9319")


def test_an_unreachable_server_is_named_in_a_clear_message(pg_server, tmp_path, monkeypatch, cli):
    monkeypatch.chdir(tmp_path)
    url = f"postgresql://postgres:secret@127.0.0.1:{_unused_port(pg_server)}/nowhere"
    with pytest.raises(ProgressError) as e:
        ProgressStore(url, busy_seconds=0.5)
    text = str(e.value)
    assert "127.0.0.1" in text and "nowhere" in text and "refused" in text and "PostgreSQL server" in text
    assert "secret" not in text  # the password is never shown
    r = cli("progress", "--db", url, cwd=tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr and "refused" in r.stderr
    env = {**os.environ, "CANASTA_TUTOR_DB": url}
    r = subprocess.run([sys.executable, "-m", "canasta_tutor.cli", "progress"], capture_output=True, text=True,
                       cwd=tmp_path, env=env)
    assert r.returncode == 2 and "Traceback" not in r.stderr and "nowhere" in r.stderr
    assert list(tmp_path.iterdir()) == []  # a URL is never taken for a file path (no folder "postgresql:")


@pytest.mark.parametrize("name, words", [
    ("postgresql:/db", "looks like a database URL"),
    ("mysql://u@h/db", "neither sqlite:/// nor postgresql://"),
    ("postgresql://u@h:5432/", "names no database"),
    ("sqlite://", "names no file"),
])
def test_a_bad_url_is_refused_with_a_message(name, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ProgressError) as e:
        ProgressStore(name)
    assert words in str(e.value)
    assert list(tmp_path.iterdir()) == []


def test_a_sqlite_url_is_the_same_file(tmp_path):
    ProgressStore(f"sqlite:///{tmp_path}/p.sqlite3").record(
        learner="ana", puzzle_set="s", puzzle_id="p", kind="meld", topic="t", difficulty=1, answer={}, correct=True,
        seconds=1)
    assert len(ProgressStore(tmp_path / "p.sqlite3").history()) == 1


def test_a_missing_folder_when_reading_is_named(tmp_path, cli):
    target = tmp_path / "no" / "such" / "folder" / "p.sqlite3"
    r = cli("progress", "--db", str(target))
    assert r.returncode == 2 and "Traceback" not in r.stderr and str(target) in r.stderr
    assert not (tmp_path / "no").exists()


def _read_only(path: Path, on: bool) -> None:
    """Make a file read-only even for root (who writes any file whatever its mode): chattr's immutable flag."""
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i" if on else "-i", str(path)], check=True, capture_output=True)
    else:
        path.chmod(0o444 if on else 0o644)


def test_a_read_only_file_gives_a_clear_message_and_keeps_the_answer(tmp_path):
    path = tmp_path / "p.sqlite3"
    store = ProgressStore(path)
    _attempt = dict(learner="ana", puzzle_set="s", kind="meld", topic="t", difficulty=1, answer={}, correct=True,
                    seconds=1)
    assert store.record(puzzle_id="p-1", **_attempt)
    _read_only(path, True)
    try:
        with pytest.raises(OSError):
            path.open("ab")  # the plant that makes this test mean something: the file really is read-only
        result = store.record(puzzle_id="p-2", **_attempt)
        assert not result and result.kept == 1
        assert str(path) in result.problem and "readonly" in result.problem and "cannot be written" in result.problem
    finally:
        _read_only(path, False)
    assert store.flush() and store.pending() == 0
    assert [a.puzzle_id for a in store.history()] == ["p-1", "p-2"]


# --- migrations --------------------------------------------------------------------------------------------------

OLD_SCHEMA = """
CREATE TABLE attempts (
    id INTEGER PRIMARY KEY AUTOINCREMENT, learner TEXT NOT NULL, puzzle_set TEXT NOT NULL, puzzle_id TEXT NOT NULL,
    kind TEXT NOT NULL, topic TEXT NOT NULL, difficulty INTEGER NOT NULL, answer TEXT NOT NULL,
    correct INTEGER NOT NULL CHECK (correct IN (0, 1)), seconds REAL, timestamp TEXT NOT NULL);
CREATE INDEX attempts_by_learner ON attempts (learner, id);
CREATE TABLE classes (id INTEGER PRIMARY KEY AUTOINCREMENT, code TEXT NOT NULL DEFAULT '', created TEXT NOT NULL,
    archived TEXT);
CREATE TABLE learners (id INTEGER PRIMARY KEY AUTOINCREMENT, class_id INTEGER NOT NULL REFERENCES classes (id),
    name TEXT NOT NULL, name_key TEXT NOT NULL, joined TEXT NOT NULL, UNIQUE (class_id, name_key));
ALTER TABLE attempts ADD COLUMN class_id INTEGER;
CREATE TRIGGER attempts_in_class AFTER INSERT ON attempts WHEN NEW.class_id IS NULL
BEGIN
    UPDATE attempts SET class_id = (
        SELECT l.class_id FROM learners l JOIN classes c ON c.id = l.class_id
        WHERE c.archived IS NULL AND l.name = NEW.learner ORDER BY c.id DESC LIMIT 1)
    WHERE id = NEW.id;
END;
INSERT INTO classes (code, created) VALUES ('7B', '2026-01-01T09:00:00+00:00');
INSERT INTO learners (class_id, name, name_key, joined) VALUES (1, 'Ana', 'ana', '2026-01-01T09:01:00+00:00');
INSERT INTO attempts (learner, puzzle_set, puzzle_id, kind, topic, difficulty, answer, correct, seconds, timestamp)
    VALUES ('Ana', 'S', 'm-1', 'meld', 'melds', 1, '{"valid": true}', 1, 3.5, '2026-01-01T09:02:00+00:00');
INSERT INTO attempts (learner, puzzle_set, puzzle_id, kind, topic, difficulty, answer, correct, seconds, timestamp)
    VALUES ('solo', 'S', 'm-2', 'meld', 'melds', 2, '{"valid": false}', 0, NULL, '2026-01-01T09:03:00+00:00');
"""
OLDEST_SCHEMA = OLD_SCHEMA.split("CREATE TABLE classes")[0] + OLD_SCHEMA[OLD_SCHEMA.index("INSERT INTO attempts"):]


def test_a_file_made_by_the_old_code_is_upgraded_in_place(tmp_path):
    import sqlite3

    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.executescript(OLD_SCHEMA)
    room = Classroom(path)
    assert [c.code for c in room.classes()] == ["7B"] and [r["name"] for r in room.learners()] == ["Ana"]
    assert [a.puzzle_id for a in room.store.history()] == ["m-1", "m-2"]
    assert room.attempts()["puzzle_id"].tolist() == ["m-1"]  # its class survived
    room.store.record(learner="Ana", puzzle_set="S", puzzle_id="m-3", kind="meld", topic="melds", difficulty=1,
                      answer={}, correct=True, seconds=1)
    assert room.attempts()["puzzle_id"].tolist() == ["m-1", "m-3"]  # a new attempt still goes to Ana's class
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [(db.HEAD_REVISION,)]
        assert conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall() == []
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"live_puzzles", "live_answers", "assignments"} <= tables


def test_a_file_from_before_classes_gets_every_table(tmp_path):
    import sqlite3

    path = tmp_path / "oldest.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.executescript(OLDEST_SCHEMA)
    store = ProgressStore(path)
    assert [a.learner for a in store.history()] == ["Ana", "solo"]
    room = Classroom(path)
    room.join("Ana")
    store.record(learner="Ana", puzzle_set="S", puzzle_id="m-3", kind="meld", topic="melds", difficulty=1,
                 answer={}, correct=True, seconds=1)
    assert room.attempts()["puzzle_id"].tolist() == ["m-3"]


def test_a_new_database_has_exactly_the_declared_tables(db_url):
    ProgressStore(db_url)
    with db.begin(db.target(db_url)) as conn:
        inspector = sa.inspect(conn)
        tables = set(inspector.get_table_names())
        assert tables == set(db.metadata.tables) | {"alembic_version"}
        for table in db.metadata.sorted_tables:
            assert {c["name"] for c in inspector.get_columns(table.name)} == set(table.c.keys()), table.name
        assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one() == db.HEAD_REVISION


def test_head_revision_is_alembics_head():
    """db.HEAD_REVISION lets a store skip loading Alembic when the database is up to date: it must be the head."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(Path(db.__file__).with_name("migrations")))
    assert ScriptDirectory.from_config(config).get_current_head() == db.HEAD_REVISION


def test_an_up_to_date_database_is_opened_without_alembic(tmp_path):
    """A learner's kernel opens an existing, up-to-date database without importing Alembic (memory per kernel);
    a new one is still migrated."""
    path = tmp_path / "p.sqlite3"
    code = ("import sys; from canasta_tutor.classroom.progress import ProgressStore; "
            "s = ProgressStore(sys.argv[1]); s.record(learner='a', puzzle_set='x', puzzle_id='t-1', kind='take-pile', "
            "topic='t', difficulty=1, answer={'take': True}, correct=True, seconds=1.0); "
            "print('alembic' in sys.modules)")
    first = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True)
    again = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True)
    assert first.stdout.split() == ["True"], first.stderr   # a new file: migrated by Alembic
    assert again.stdout.split() == ["False"], again.stderr  # up to date: Alembic not loaded
