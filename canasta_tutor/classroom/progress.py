"""Learner progress: every attempt stored in SQLite or PostgreSQL (one code path: :mod:`.db`).

The database is ``$CANASTA_TUTOR_DB`` when set (a file path, or a ``postgresql://`` URL), otherwise
``progress.sqlite3`` in the user's data directory; its tables are made and upgraded by migrations.
Every attempt is written in its own transaction
the moment it is answered, so a kernel killed mid-puzzle loses at most the
puzzle on screen, and several learners (one kernel each) can write to the same
file at once: SQLite's write-ahead log lets readers go on while one writer
commits, and a writer waits a little (``BUSY_SECONDS``) for another.

A learner's answer is never lost to a database fault. When a write fails (the
file is locked for longer than that, damaged, or on a full disk),
:meth:`ProgressStore.record` keeps the attempt in memory and appends it to a
journal file next to the database (``progress.sqlite3.pending.jsonl``), and
says so in the :class:`SaveResult` it returns; the next write that succeeds
saves the kept attempts first, in order. Reading never creates anything
(``ProgressStore(path, create=False)``), and every fault is a
:class:`~canasta_tutor.engine.errors.ProgressError` naming the file and what failed.

Learner names are kept as typed (any letters, spaces, ``<b>`` stays text) but
without control characters (a terminal escape code in a name would recolour
the teacher's terminal) and at most ``MAX_NAME`` characters long. A time over
``MAX_SECONDS`` means the learner was away: it is stored as unknown.

>>> import tempfile, os
>>> store = ProgressStore(os.path.join(tempfile.mkdtemp(), "p.sqlite3"))
>>> store.record(learner="ana", puzzle_set="Melds", puzzle_id="m-001", kind="meld", topic="melds",
...              difficulty=1, answer={"valid": True}, correct=True, seconds=4.2)
SaveResult(saved=True, kept=0, problem='')
>>> row = store.summary().iloc[0]
>>> row.learner, row.topic, int(row.attempts), int(row.correct)
('ana', 'melds', 1, 1)
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import threading
import time
from dataclasses import dataclass, field

try:
    import fcntl
except ImportError:  # Windows: one kernel per machine there, no lock needed
    fcntl = None
from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa

from ..engine.errors import ProgressError, clip, clip_repr
from ..engine.i18n import gettext as _
from ..engine.i18n import grouped, ngettext
from ..engine.numbers import is_whole_number
from . import db
from . import names as _names

ENV_VAR = "CANASTA_TUTOR_DB"
COLUMNS = ("id", "learner", "puzzle_set", "puzzle_id", "kind", "topic", "difficulty", "answer", "correct",
           "seconds", "timestamp")
#: How long a write waits for another writer before the attempt is kept for later.
BUSY_SECONDS = db.BUSY_SECONDS
#: The longest learner name (longer ones are refused with a message): the sign-in page's limit.
MAX_NAME = _names.MAX_NAME
#: A puzzle answered after more than this many seconds counts as "away": its time is not kept.
MAX_SECONDS = 30 * 60
# Control characters (C0, DEL, C1) and the bidirectional overrides that reorder what a terminal shows.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def clean_name(name) -> str:
    """A learner's name as stored: control characters removed, spaces at the ends trimmed.

    Raises :class:`ProgressError` for a name that is empty or longer than :data:`MAX_NAME`.

    >>> clean_name("  Zoë O'Neill <b> ")
    "Zoë O'Neill <b>"
    >>> clean_name("\x1b[31mred\x1b[0m")
    '[31mred[0m'
    """
    if not isinstance(name, str):
        raise ProgressError(_("a learner's name must be text, not {type}").format(type=type(name).__name__))
    cleaned = _CONTROL.sub("", name).strip()
    if not cleaned:
        raise ProgressError(_("a learner's name cannot be empty"))
    if len(cleaned) > MAX_NAME:
        raise ProgressError(_("the name {name} is {length} characters long; a name may have at most {most}").format(
            name=repr(clip(cleaned, 30)), length=grouped(len(cleaned)), most=MAX_NAME))
    return cleaned


def printable(text) -> str:
    """``text`` safe to print on a terminal: control characters shown as ``\\x1b``-style escapes, clipped."""
    text = "" if text is None else str(text)
    return clip(_CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text), MAX_NAME + 20)


def clean_seconds(seconds) -> float | None:
    """The time taken as stored: ``None`` when unknown, negative, not a number, or longer than :data:`MAX_SECONDS`."""
    if seconds is None or isinstance(seconds, bool):
        return None
    try:
        value = float(seconds)
    except (TypeError, ValueError, OverflowError):
        return None
    if not math.isfinite(value) or value < 0 or value > MAX_SECONDS:
        return None
    return round(value, 3)


def default_path() -> Path | str:
    """Where progress is kept: ``$CANASTA_TUTOR_DB`` (a file, or a database URL kept as text) or the user's data
    directory."""
    env = os.environ.get(ENV_VAR)
    if env:
        return env if "://" in env else Path(env).expanduser()
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


@dataclass(frozen=True)
class SaveResult:
    """What :meth:`ProgressStore.record` did: truthy when the attempt is in the database now.

    ``kept`` counts the attempts waiting in memory or in the journal file (this one included when it could
    not be saved); ``problem`` says why the database could not be written.
    """

    saved: bool
    kept: int = 0
    problem: str = ""
    #: when not saved: whether the attempt is in the journal file (on disk), not only in this process's memory
    journal: bool = field(default=False, repr=False)

    def __bool__(self) -> bool:
        return self.saved


class ProgressStore:
    """The attempts of every learner in one database: an SQLite file or a PostgreSQL URL (see :mod:`.db`).

    ``create=False`` opens an existing database only (for reading: nothing is created, not even folders).
    """

    def __init__(self, path: str | os.PathLike | None = None, *, create: bool = True,
                 busy_seconds: float = BUSY_SECONDS):
        self.where = db.target(path if path is not None else default_path())
        self.path = self.where.name
        if self.where.path is not None:
            self.journal = self.where.path.with_name(self.where.path.name + ".pending.jsonl")
        else:
            url = self.where.url
            self.journal = db.files_folder(self.where) / (
                "progress-" + re.sub(r"[^A-Za-z0-9._-]+", "_", f"{url.host}-{url.port or 5432}-{url.database}")
                + ".pending.jsonl")
        self.busy_seconds = busy_seconds
        self._kept: list[tuple] = []  # attempts that reached neither the database nor the journal
        if not create:
            if self.where.path is not None and not self.where.path.is_file():
                raise ProgressError(_("no progress database at {path}").format(path=self.path), path=self.path)
            self._open(migrate=False)
            return
        if self.where.path is not None:
            try:
                self.where.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise ProgressError(_("cannot open the progress database {path}: {problem}").format(
                    path=self.path, problem=e.strerror or e), path=self.path) from None
        else:
            try:  # the journal's folder; when it cannot be made, kept attempts stay in memory
                self.journal.parent.mkdir(parents=True, exist_ok=True)
            except OSError:
                pass
        self._open(migrate=True)

    def _open(self, migrate: bool) -> None:
        """Check that the database is ours (or empty), then bring its tables up to date (when ``migrate``)."""
        try:
            with db.engine(self.where, self.busy_seconds).connect() as conn:
                tables = set(sa.inspect(conn).get_table_names())
                if "alembic_version" not in tables or not migrate:
                    self._check_tables(conn, tables, missing_ok=migrate)
            if migrate:
                db.migrate(self.where, self.busy_seconds)
                if self.where.kind == "sqlite":
                    raw = db.engine(self.where, self.busy_seconds).raw_connection()
                    try:
                        raw.driver_connection.execute("PRAGMA journal_mode = WAL")
                    finally:
                        raw.close()
        except db.DB_ERRORS as e:
            raise self._error(_("cannot open the progress database {database}: {reason}"), e) from None

    # --- connections and checks --------------------------------------------------------
    def _error(self, sentence: str, e: Exception) -> ProgressError:
        """``sentence`` (translated, with ``{database}`` and ``{reason}``) for the database error ``e``, the
        driver's own words followed by what they likely mean."""
        if isinstance(e, ProgressError):
            return e
        text = db.reason(e)
        if "not a database" in text or "malformed" in text:
            text = _("{error} (the file is damaged or is not a canasta-tutor progress database)").format(error=text)
        elif "locked" in text or "busy" in text:
            text = _("{error} (another program has held it for more than {seconds} s)").format(
                error=text, seconds=f"{self.busy_seconds:g}")
        elif self.where.kind == "postgresql" and isinstance(e, sa.exc.OperationalError):
            text = _("{error} (is the PostgreSQL server running, and is the URL right?)").format(error=text)
        elif "readonly" in text or "read-only" in text:
            text = _("{error} (the file or its folder cannot be written: check its permissions)").format(error=text)
        return ProgressError(sentence.format(database=self.where.shown, reason=text), path=self.path)

    def _begin(self, write: bool = False):
        """A connection in a transaction (SQLite: the write lock is taken at once when ``write``)."""
        return db.begin(self.where, write=write, busy_seconds=self.busy_seconds)

    def _connect(self):
        """A connection (SQLAlchemy) to the database, for the other stores; close it when done."""
        try:
            return db.engine(self.where, self.busy_seconds).connect()
        except db.DB_ERRORS as e:
            raise self._error(_("cannot open the progress database {database}: {reason}"), e) from None

    def _check_tables(self, conn, tables: set, missing_ok: bool = False) -> bool:
        """True if the ``attempts`` table is there with every column; raise if the database is foreign."""
        if "attempts" not in tables:
            if missing_ok and not (tables - {"alembic_version"}):
                return False
            shown = sorted(tables)
            said = (_("{database} is not a canasta-tutor progress database: it holds the tables {tables}, but no "
                      "'attempts' table") if shown else
                    _("{database} is not a canasta-tutor progress database: it is empty, but no 'attempts' table"))
            raise ProgressError(said.format(database=self.where.shown, tables=", ".join(map(printable, shown[:5]))),
                                path=self.path)
        columns = {c["name"] for c in sa.inspect(conn).get_columns("attempts")}
        missing = [c for c in COLUMNS if c not in columns]
        if missing:
            raise ProgressError(ngettext("{database} is not a canasta-tutor progress database: its 'attempts' table "
                                         "has no column {columns}",
                                         "{database} is not a canasta-tutor progress database: its 'attempts' table "
                                         "has no columns {columns}", len(missing)).format(
                database=self.where.shown, columns=", ".join(missing)), path=self.path)
        return True

    def _insert(self, rows: list[tuple]) -> None:
        """Write ``rows`` in one transaction. An attempt with a learner id (the 11th field) is that learner's, in
        their class; one without goes to the learner of that name in the open class, if there is one."""
        t, c, lr, m = db.attempts, db.classes, db.learners, db.merged
        by_name = (sa.select(lr.c.id).join(c, c.c.id == lr.c.class_id)
                   .where(c.c.archived.is_(None), lr.c.name == sa.bindparam("p_learner"))
                   .order_by(c.c.id.desc()).limit(1).scalar_subquery())
        given = sa.bindparam("p_learner_id", type_=sa.Integer)
        # a learner merged into another while their page was open: the answer is the kept learner's
        merged_into = sa.select(m.c.new_id).where(m.c.old_id == given).scalar_subquery()
        learner_id = sa.func.coalesce(merged_into, given, by_name)
        in_class = sa.select(lr.c.class_id).where(lr.c.id == learner_id).scalar_subquery()
        # the learner's name now (renamed or merged while their page was open), else the name given
        name_now = sa.func.coalesce(sa.select(lr.c.name).where(lr.c.id == learner_id).scalar_subquery(),
                                    sa.bindparam("p_learner"))
        stmt = t.insert().values({**{name: sa.bindparam("p_" + name) for name in COLUMNS[1:]},
                                  "learner": name_now, "learner_id": learner_id, "class_id": in_class})
        with self._begin(write=True) as conn:
            conn.execute(stmt, [{**{"p_" + name: value for name, value in zip(COLUMNS[1:], row)},
                                 "p_learner_id": row[10] if len(row) > 10 else None} for row in rows])

    # --- writing -------------------------------------------------------------------------
    def record(self, *, learner: str, puzzle_set: str, puzzle_id: str, kind: str, topic: str, difficulty: int,
               answer, correct: bool, seconds: float | None, timestamp: str | None = None,
               learner_id: int | None = None) -> SaveResult:
        """Store one attempt in its own transaction, after any attempts kept from earlier failures.

        ``learner_id``: the signed-in learner's id in their class (:mod:`.roster`), whose attempt this is, whatever
        their name; without it, the attempt is the open class's learner of that name, if any.

        Returns a :class:`SaveResult`: ``saved`` when the attempt is in the database now; otherwise it is kept
        (in memory and in the journal file) and saved by the next write that succeeds. Raises
        :class:`ProgressError` only for a bad learner name.
        """
        stamp = timestamp or datetime.now(UTC).isoformat(timespec="seconds")
        if not is_whole_number(difficulty):
            raise ProgressError(_("difficulty must be a whole number, not {value}").format(
                value=clip_repr(difficulty, 40)))
        row = (clean_name(learner), str(puzzle_set), str(puzzle_id), str(kind), str(topic), difficulty,
               json.dumps(answer, ensure_ascii=False, default=str), 1 if correct else 0, clean_seconds(seconds),
               stamp, None if learner_id is None else int(learner_id))
        try:
            rows = self._take_journal() + self._kept + [row]
        except ProgressError as e:
            return self._keep(row, e)
        try:
            self._insert(rows)
        except (*db.DB_ERRORS, ProgressError) as e:
            error = self._error(_("could not save the attempt in the progress database {database}: {reason}"), e)
            self._put_back(rows[:-1])
            return self._keep(row, error)
        self._kept = []
        self._forget_taken()
        return SaveResult(saved=True)

    def pending(self) -> int:
        """How many attempts wait to be saved (kept in memory or in the journal file)."""
        return len(self._kept) + len(self._read_journal(self.journal))

    def flush(self) -> SaveResult:
        """Try to save the kept attempts now (without a new one)."""
        try:
            rows = self._take_journal() + self._kept
        except ProgressError as e:
            return SaveResult(saved=False, kept=self.pending(), problem=str(e))
        if not rows:
            return SaveResult(saved=True)
        try:
            self._insert(rows)
        except (*db.DB_ERRORS, ProgressError) as e:
            self._put_back(rows)
            error = self._error(_("could not save the attempts in the progress database {database}: {reason}"), e)
            return SaveResult(saved=False, kept=self.pending(), problem=str(error))
        self._kept = []
        self._forget_taken()
        return SaveResult(saved=True)

    def _keep(self, row: tuple, error: ProgressError) -> SaveResult:
        journal = self._append_journal([row])
        if not journal:
            self._kept.append(row)
        return SaveResult(saved=False, kept=self.pending(), problem=str(error), journal=journal)

    @contextlib.contextmanager
    def _journal_lock(self):
        """Hold the journal's lock file: an answer appended while another kernel (or thread) takes the journal
        lands either in what it takes, before it reads, or in the next journal, never in a file already read."""
        try:
            handle = open(self.journal.with_name(self.journal.name + ".lock"), "a")
        except OSError:
            yield  # no lock file possible (the folder cannot be written): the journal cannot be written either
            return
        try:
            if fcntl is not None:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            yield
        finally:
            handle.close()  # closing releases the lock

    def _append_journal(self, rows: list[tuple]) -> bool:
        if not rows:
            return True
        try:
            with self._journal_lock(), open(self.journal, "a", encoding="utf-8") as f:
                f.write("".join(json.dumps(list(r), ensure_ascii=False) + "\n" for r in rows))
            return True
        except OSError:
            return False

    @staticmethod
    def _read_journal(path: Path) -> list[tuple]:
        try:
            text = path.read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            return []
        rows = []
        for line in text.splitlines():
            try:
                row = json.loads(line)
            except ValueError:
                continue  # a line cut short by a crash: the rest are still good
            if isinstance(row, list) and len(row) in (10, 11):  # (10: written before learner ids)
                rows.append(tuple(row))
        return rows

    def _take_journal(self) -> list[tuple]:
        """The journal's attempts; the file is first renamed, so that other kernels' new lines go to a new one."""
        self._taken = None
        if not self.journal.exists():
            return []
        taken = self.journal.with_name(f"{self.journal.name}.{os.getpid()}-{threading.get_ident()}-"
                                       f"{time.monotonic_ns()}")
        with self._journal_lock():
            try:
                os.replace(self.journal, taken)
            except FileNotFoundError:
                return []
            except OSError as e:
                raise ProgressError(_("cannot read the kept attempts in {journal}: {problem}").format(
                    journal=self.journal, problem=e.strerror or e)) from None
        self._taken = taken
        return self._read_journal(taken)

    def _forget_taken(self) -> None:
        if getattr(self, "_taken", None) is not None:
            try:
                self._taken.unlink()
            except OSError:
                pass
            self._taken = None

    def _put_back(self, rows: list[tuple]) -> None:
        """Rows that were taken for a write that failed go back to the journal (or to memory)."""
        self._forget_taken()
        self._kept = []
        if not self._append_journal(rows):
            self._kept = list(rows)

    # --- reading -------------------------------------------------------------------------
    def _select(self, learner: str | None, read, learner_id: int | None = None):
        """Run ``read(connection, select)`` on every attempt (of ``learner_id``, else of ``learner``), oldest
        first."""
        t = db.attempts
        query = sa.select(*(t.c[name] for name in COLUMNS))
        if learner_id is not None:
            query = query.where(t.c.learner_id == int(learner_id))
        elif learner is not None:
            query = query.where(t.c.learner == clean_name(learner))
        try:
            with self._begin() as conn:
                return read(conn, query.order_by(t.c.id))
        except db.DB_ERRORS as e:
            raise self._error(_("cannot read the progress database {database}: {reason}"), e) from None

    def history(self, learner: str | None = None, *, learner_id: int | None = None) -> list[Attempt]:
        """The attempts in the order they were made: ``learner_id``'s (a learner of a class: theirs only, never
        those of a namesake in another class), else ``learner``'s by name, else everyone's.

        A row that cannot be read in full (an answer that is not JSON, a missing time) is still returned,
        with what could be read.
        """
        rows = self._select(learner, lambda conn, q: conn.execute(q).fetchall(), learner_id)
        return [Attempt(learner=r[1], puzzle_set=r[2], puzzle_id=r[3], kind=r[4], topic=r[5],
                        difficulty=_int_or(r[6], 1), answer=_json_or_text(r[7]), correct=r[8] in (1, True, "1"),
                        seconds=clean_seconds(r[9]), timestamp=r[10]) for r in rows]

    def attempts(self, learner: str | None = None):
        """Every attempt as a pandas DataFrame."""
        import pandas as pd

        frame = self._select(learner, lambda conn, q: pd.read_sql_query(q, conn))
        frame["correct"] = frame["correct"].isin([1, True, "1"])
        return frame

    def summary(self, learner: str | None = None):
        """Per learner and topic: attempts, correct answers, accuracy, median seconds, last attempt.

        ``median_seconds`` is the median of the attempts whose time is known and at most :data:`MAX_SECONDS`
        (a longer one means the learner was away); it is empty (NaN) when no time is known.
        """
        import pandas as pd

        frame = self.attempts(learner)
        columns = ["learner", "topic", "attempts", "correct", "accuracy", "median_seconds", "last_attempt"]
        if frame.empty:
            return pd.DataFrame(columns=columns)
        seconds = pd.to_numeric(frame["seconds"], errors="coerce")
        frame["seconds"] = seconds.where((seconds >= 0) & (seconds <= MAX_SECONDS))
        grouped = frame.groupby(["learner", "topic"], sort=True)
        out = grouped.agg(attempts=("id", "count"), correct=("correct", "sum"),
                          median_seconds=("seconds", "median"), last_attempt=("timestamp", "max")).reset_index()
        out["correct"] = out["correct"].astype(int)
        out["accuracy"] = (out["correct"] / out["attempts"]).round(2)
        return out[columns]


def _int_or(value, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        return default


def _json_or_text(text):
    try:
        return json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return text
