import multiprocessing
import sqlite3

import pytest

from canasta_tutor.progress import ENV_VAR, ProgressStore, default_path


def _write_many(path, learner, n):
    store = ProgressStore(path)
    for i in range(n):
        store.record(learner=learner, puzzle_set="set", puzzle_id=f"p-{i}", kind="meld", topic="melds",
                     difficulty=1, answer={"valid": True}, correct=i % 2 == 0, seconds=1.5)


def test_record_and_read(tmp_path):
    store = ProgressStore(tmp_path / "p.sqlite3")
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


def test_progress_command(cli, tmp_path, monkeypatch):
    db = tmp_path / "p.sqlite3"
    _write_many(str(db), "ana", 4)
    r = cli("progress", "--db", str(db))
    assert r.returncode == 0 and "ana" in r.stdout and "50 %" in r.stdout
    r = cli("progress", "--db", str(db), "--learner", "bo")
    assert r.returncode == 0 and "No attempts recorded for bo" in r.stdout
