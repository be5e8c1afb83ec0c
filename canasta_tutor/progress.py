"""Learner progress: every attempt stored in SQLite.

The database is ``$CANASTA_TUTOR_DB`` when set, otherwise ``progress.sqlite3`` in
the user's data directory. Every attempt is written in its own transaction
the moment it is answered, so a kernel killed mid-puzzle loses at most the
puzzle on screen, and several learners (one kernel each) can write to the same
file at once: SQLite's write-ahead log lets readers go on while one writer
commits, and writers wait (up to 30 s) for each other instead of failing.

>>> import tempfile, os
>>> store = ProgressStore(os.path.join(tempfile.mkdtemp(), "p.sqlite3"))
>>> store.record(learner="ana", puzzle_set="Melds", puzzle_id="m-001", kind="meld", topic="melds",
...              difficulty=1, answer={"valid": True}, correct=True, seconds=4.2)
>>> row = store.summary().iloc[0]
>>> row.learner, row.topic, int(row.attempts), int(row.correct)
('ana', 'melds', 1, 1)
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from .errors import CanastaError

ENV_VAR = "CANASTA_TUTOR_DB"
COLUMNS = ("id", "learner", "puzzle_set", "puzzle_id", "kind", "topic", "difficulty", "answer", "correct",
           "seconds", "timestamp")
_SCHEMA = """
CREATE TABLE IF NOT EXISTS attempts (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    learner    TEXT    NOT NULL,
    puzzle_set TEXT    NOT NULL,
    puzzle_id  TEXT    NOT NULL,
    kind       TEXT    NOT NULL,
    topic      TEXT    NOT NULL,
    difficulty INTEGER NOT NULL,
    answer     TEXT    NOT NULL,
    correct    INTEGER NOT NULL CHECK (correct IN (0, 1)),
    seconds    REAL,
    timestamp  TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS attempts_by_learner ON attempts (learner, id);
"""


def default_path() -> Path:
    """Where progress is kept: ``$CANASTA_TUTOR_DB`` or the user's data directory."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_path

    return user_data_path("canasta-tutor", appauthor=False) / "progress.sqlite3"


@dataclass(frozen=True)
class Attempt:
    learner: str
    puzzle_set: str
    puzzle_id: str
    kind: str
    topic: str
    difficulty: int
    correct: bool
    seconds: float | None
    answer: object = None
    timestamp: str = ""


class ProgressStore:
    """The attempts of every learner in one SQLite file."""

    def __init__(self, path: str | os.PathLike | None = None):
        self.path = Path(path) if path is not None else default_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._connect() as conn:
                conn.executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as e:
            raise CanastaError(f"cannot open the progress database {self.path}: {e}") from None

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=30)
        conn.execute("PRAGMA busy_timeout = 30000")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        return conn

    def record(self, *, learner: str, puzzle_set: str, puzzle_id: str, kind: str, topic: str, difficulty: int,
               answer, correct: bool, seconds: float | None, timestamp: str | None = None) -> None:
        """Store one attempt in its own transaction."""
        stamp = timestamp or datetime.now(timezone.utc).isoformat(timespec="seconds")
        row = (learner, puzzle_set, puzzle_id, kind, topic, int(difficulty), json.dumps(answer, ensure_ascii=False),
               1 if correct else 0, None if seconds is None else round(float(seconds), 3), stamp)
        conn = self._connect()
        try:
            with conn:
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("INSERT INTO attempts (learner, puzzle_set, puzzle_id, kind, topic, difficulty, answer, "
                             "correct, seconds, timestamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
        except sqlite3.Error as e:
            raise CanastaError(f"could not save the attempt in {self.path}: {e}") from None
        finally:
            conn.close()

    def _select(self, learner: str | None, read):
        """Run ``read(connection, query, params)`` on every attempt (of ``learner``), oldest first."""
        query = f"SELECT {', '.join(COLUMNS)} FROM attempts"
        params: tuple = ()
        if learner is not None:
            query += " WHERE learner = ?"
            params = (learner,)
        conn = self._connect()
        try:
            return read(conn, query + " ORDER BY id", params)
        finally:
            conn.close()

    def history(self, learner: str | None = None) -> list[Attempt]:
        """The attempts in the order they were made (all learners when ``learner`` is None)."""
        rows = self._select(learner, lambda conn, q, p: conn.execute(q, p).fetchall())
        return [Attempt(learner=r[1], puzzle_set=r[2], puzzle_id=r[3], kind=r[4], topic=r[5], difficulty=r[6],
                        answer=json.loads(r[7]), correct=bool(r[8]), seconds=r[9], timestamp=r[10]) for r in rows]

    def attempts(self, learner: str | None = None):
        """Every attempt as a pandas DataFrame."""
        import pandas as pd

        frame = self._select(learner, lambda conn, q, p: pd.read_sql_query(q, conn, params=p))
        frame["correct"] = frame["correct"].astype(bool)
        return frame

    def summary(self, learner: str | None = None):
        """Per learner and topic: attempts, correct answers, accuracy, median seconds, last attempt."""
        import pandas as pd

        frame = self.attempts(learner)
        columns = ["learner", "topic", "attempts", "correct", "accuracy", "median_seconds", "last_attempt"]
        if frame.empty:
            return pd.DataFrame(columns=columns)
        grouped = frame.groupby(["learner", "topic"], sort=True)
        out = grouped.agg(attempts=("id", "count"), correct=("correct", "sum"),
                          median_seconds=("seconds", "median"), last_attempt=("timestamp", "max")).reset_index()
        out["correct"] = out["correct"].astype(int)
        out["accuracy"] = (out["correct"] / out["attempts"]).round(2)
        return out[columns]
