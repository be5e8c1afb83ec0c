"""Where progress is kept: one storage layer (SQLAlchemy Core) for SQLite and PostgreSQL.

The database is named by ``$CANASTA_TUTOR_DB`` (or ``--db``, or a store's ``path`` argument):

* a file path (the default, ``progress.sqlite3`` in the user's data directory): SQLite;
* ``sqlite:///PATH``: the same, written as a URL;
* ``postgresql://user@host:port/database`` (or ``postgres://``): PostgreSQL, through the psycopg 3 driver.

Every table the classroom needs is declared once here (:data:`metadata`); the schema is created and kept
up to date by the Alembic migrations shipped in ``canasta_tutor/classroom/migrations``, which run by themselves the
first time a process opens a database (an SQLite file made by an older canasta-tutor is upgraded in place,
its rows kept). Nothing here imports Jupyter.

>>> target("progress.sqlite3").kind, target("postgresql://ana@db.example:5432/class").kind
('sqlite', 'postgresql')
>>> target("postgresql://ana:secret@db.example/class").shown
'postgresql://ana:***@db.example/class'
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import make_url

from ..engine.errors import ProgressError, clip_repr
from ..engine.i18n import gettext as _

metadata = sa.MetaData()

attempts = sa.Table(
    "attempts", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("learner", sa.Text, nullable=False),
    sa.Column("puzzle_set", sa.Text, nullable=False),
    sa.Column("puzzle_id", sa.Text, nullable=False),
    sa.Column("kind", sa.Text, nullable=False),
    sa.Column("topic", sa.Text, nullable=False),
    sa.Column("difficulty", sa.Integer, nullable=False),
    sa.Column("answer", sa.Text, nullable=False),
    sa.Column("correct", sa.Integer, sa.CheckConstraint("correct IN (0, 1)"), nullable=False),
    sa.Column("seconds", sa.Float),
    sa.Column("timestamp", sa.Text, nullable=False),
    sa.Column("class_id", sa.Integer),
    sa.Column("learner_id", sa.Integer),  # the learner (learners.id) of a class, when one was signed in
    sa.Index("attempts_by_learner", "learner", "id"),
    sa.Index("attempts_by_learner_id", "learner_id", "id"),
    sqlite_autoincrement=True,
)

classes = sa.Table(
    "classes", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("code", sa.Text, nullable=False, server_default=""),
    sa.Column("created", sa.Text, nullable=False),
    sa.Column("archived", sa.Text),
    sa.Column("language", sa.Text),  # the class's default language (the teacher's choice; NULL: none)
    sqlite_autoincrement=True,
)

learners = sa.Table(
    "learners", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id"), nullable=False),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("name_key", sa.Text, nullable=False),
    sa.Column("joined", sa.Text, nullable=False),
    sa.Column("code", sa.Text),  # the learner's personal code (their join card), unique in the class
    sa.Column("language", sa.Text),  # the language the learner chose (follows them to any device; NULL: none)
    sa.UniqueConstraint("class_id", "name_key"),
    sa.Index("learners_by_code", "class_id", "code", unique=True),
    sqlite_autoincrement=True,
)

#: a learner merged into another (:meth:`~canasta_tutor.classroom.accounts.Roster.merge`): a page still open under
#: the old name saves its answers to the learner kept
merged = sa.Table(
    "merged", metadata,
    sa.Column("old_id", sa.Integer, primary_key=True),
    sa.Column("new_id", sa.Integer, nullable=False),
)

#: who is signed in where: one row per browser (a learner's or the teacher's), until they sign out or the class
#: ends; the cookie holds the session id, the table only its SHA-256 (a copy of the table signs nobody in)
sessions = sa.Table(
    "sessions", metadata,
    sa.Column("id_hash", sa.Text, primary_key=True),
    sa.Column("learner_id", sa.Integer, sa.ForeignKey("learners.id")),  # NULL: a teacher's session
    sa.Column("teacher_key", sa.Text),  # a teacher's session: an HMAC of the key it was opened with
    sa.Column("created", sa.Text, nullable=False),
    sa.Index("sessions_by_learner", "learner_id"),
)

live_puzzles = sa.Table(
    "live_puzzles", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("class_code", sa.Text, nullable=False),
    sa.Column("puzzle", sa.Text, nullable=False),
    sa.Column("set_title", sa.Text, nullable=False),
    sa.Column("sent_at", sa.Text, nullable=False),
    sa.Column("revealed_at", sa.Text),
    sa.Index("live_puzzles_by_class", "class_code", "id"),
    sqlite_autoincrement=True,
)

#: one answer per learner per live puzzle: a signed-in learner's by their id (``learner_id``; ``learner`` is their
#: name when they answered), an answer without an id by its name (migration 0003)
live_answers = sa.Table(
    "live_answers", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("live_id", sa.Integer, sa.ForeignKey("live_puzzles.id"), nullable=False),
    sa.Column("learner", sa.Text, nullable=False),
    sa.Column("answer", sa.Text, nullable=False),
    sa.Column("correct", sa.Integer, sa.CheckConstraint("correct IN (0, 1)"), nullable=False),
    sa.Column("answered_at", sa.Text, nullable=False),
    sa.Column("learner_id", sa.Integer),
    sa.Index("live_answers_by_learner_id", "live_id", "learner_id", unique=True),
    sa.Index("live_answers_by_name", "live_id", "learner", unique=True,
             sqlite_where=sa.text("learner_id IS NULL"), postgresql_where=sa.text("learner_id IS NULL")),
    sqlite_autoincrement=True,
)

assignments = sa.Table(
    "assignments", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("class_code", sa.Text, nullable=False, server_default=""),
    sa.Column("title", sa.Text, nullable=False),
    sa.Column("set_title", sa.Text, nullable=False, unique=True),
    sa.Column("due", sa.Text),
    sa.Column("file", sa.Text, nullable=False),
    sa.Column("puzzle_ids", sa.Text, nullable=False),
    sa.Column("created", sa.Text, nullable=False),
    sa.Index("assignments_by_class", "class_code", "id"),
    sqlite_autoincrement=True,
)

#: a learner's costly decision in a coached hand, kept as a puzzle (:mod:`canasta_tutor.puzzles.decisions`; JSON in
#: ``puzzle``): it comes back in the trainer until answered right (``solved``: when); ``loss``: the points it cost
decision_puzzles = sa.Table(
    "decision_puzzles", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("learner", sa.Text, nullable=False),
    sa.Column("learner_id", sa.Integer),
    sa.Column("class_id", sa.Integer),
    sa.Column("puzzle_key", sa.Text, nullable=False),
    sa.Column("hand", sa.Text, nullable=False),
    sa.Column("loss", sa.Float, nullable=False),
    sa.Column("puzzle", sa.Text, nullable=False),
    sa.Column("created", sa.Text, nullable=False),
    sa.Column("tries", sa.Integer, nullable=False, server_default="0"),
    sa.Column("last_tried", sa.Text),
    sa.Column("solved", sa.Text),
    sa.Index("decision_puzzles_by_learner", "learner", "id"),
    sa.Index("decision_puzzles_by_class", "class_id", "loss"),
    sqlite_autoincrement=True,
)

#: How long an SQLite write waits for another writer (seconds); PostgreSQL connections time out after as long.
BUSY_SECONDS = 2.0


@dataclass(frozen=True)
class Target:
    """A database named by the user: ``kind`` is "sqlite" or "postgresql"; ``path`` is the SQLite file."""

    kind: str
    url: sa.URL
    path: Path | None
    shown: str          # for messages: the file, or the URL without its password

    @property
    def name(self):
        """What the stores keep as ``.path``: the file (a Path) or the URL (text); either opens the same database."""
        return self.path if self.path is not None else self.url.render_as_string(hide_password=False)


def target(name) -> Target:
    """Read a database name: a file path, ``sqlite:///PATH`` or ``postgresql://...`` (psycopg 3)."""
    if isinstance(name, Target):
        return name
    if not isinstance(name, (str, os.PathLike)):
        raise ProgressError(_("a progress database is named by a path or a URL, not {value}").format(
            value=clip_repr(name, 40)))
    text = os.fspath(name)
    if isinstance(text, bytes):
        text = os.fsdecode(text)
    if "://" in text and not isinstance(name, Path):
        try:
            url = make_url(text)
        except Exception:  # noqa: BLE001 - SQLAlchemy raises ArgumentError and ValueError for bad URLs
            raise ProgressError(_("{value} is not a database URL like postgresql://user@host:5432/database").format(
                value=clip_repr(text, 80))) from None
        backend = url.get_backend_name()
        if backend in ("postgresql", "postgres"):
            shown = url.set(drivername="postgresql").render_as_string(hide_password=True)
            url = url.set(drivername="postgresql+psycopg")
            if not url.database:
                raise ProgressError(_("the database URL {url} names no database "
                                      "(postgresql://user@host:5432/DATABASE)").format(url=url.render_as_string()))
            return Target("postgresql", url, None, shown)
        if backend == "sqlite":
            if not url.database or url.database == ":memory:":
                raise ProgressError(_("the database URL {url} names no file (sqlite:///path/to/progress.sqlite3)").format(
                    url=repr(text)))
            return _sqlite(Path(url.database).expanduser())
        raise ProgressError(_("the database URL {url} is neither sqlite:/// nor postgresql://: canasta-tutor keeps "
                              "progress in SQLite or PostgreSQL").format(url=url.render_as_string()))
    if text.startswith(("postgresql:", "postgres:", "sqlite:")) and not isinstance(name, Path):
        raise ProgressError(_("{value} looks like a database URL but is not one: write postgresql://user@host/db or "
                              "sqlite:///path").format(value=repr(text)))
    return _sqlite(Path(text).expanduser())


def _sqlite(path: Path) -> Target:
    return Target("sqlite", sa.URL.create("sqlite+pysqlite", database=str(path)), path, str(path))


_engines: dict[tuple, sa.Engine] = {}
_ready: set[tuple] = set()
_lock = threading.Lock()


def engine(where: Target, busy_seconds: float = BUSY_SECONDS) -> sa.Engine:
    """The process's engine for this database (one pool per database and process)."""
    key = (os.getpid(), where.url.render_as_string(hide_password=False), busy_seconds)
    with _lock:
        found = _engines.get(key)
        if found is not None:
            return found
        if where.kind == "sqlite":
            made = sa.create_engine(where.url, connect_args={"timeout": busy_seconds},
                                    poolclass=sa.pool.NullPool)

            @sa.event.listens_for(made, "connect")
            def _pragmas(dbapi_conn, _record):
                dbapi_conn.isolation_level = None  # we say BEGIN ourselves (see the "begin" hook)
                cur = dbapi_conn.cursor()
                cur.execute(f"PRAGMA busy_timeout = {int(busy_seconds * 1000)}")
                cur.execute("PRAGMA synchronous = NORMAL")
                cur.close()

            @sa.event.listens_for(made, "begin")
            def _begin(conn):
                conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.info.get("write") else "BEGIN")
        else:
            made = sa.create_engine(where.url, pool_pre_ping=True, pool_size=5, max_overflow=10,
                                    connect_args={"connect_timeout": max(1, int(busy_seconds * 2))})
        _engines[key] = made
        return made


def begin(where: Target, *, write: bool = False, busy_seconds: float = BUSY_SECONDS):
    """A connection in a transaction (``with begin(t, write=True) as conn:``); SQLite takes the write lock at once."""
    eng = engine(where, busy_seconds)
    conn = eng.connect()
    conn.info["write"] = write
    return _Tx(conn)


class _Tx:
    def __init__(self, conn: sa.Connection):
        self.conn = conn

    def __enter__(self) -> sa.Connection:
        try:
            self.conn.begin()
        except BaseException:
            self.conn.close()
            raise
        return self.conn

    def __exit__(self, kind, value, tb):
        try:
            if kind is None:
                self.conn.commit()
            else:
                self.conn.rollback()
        finally:
            self.conn.info.pop("write", None)
            self.conn.close()
        return False


#: The newest migration's revision (``migrations/versions``); tests/test_storage.py checks it is Alembic's head.
HEAD_REVISION = "0005"


def _at_head(where: Target, busy_seconds: float) -> bool:
    """Is the database already at :data:`HEAD_REVISION`? (Read with plain SQL; any doubt means "no".)"""
    try:
        with engine(where, busy_seconds).connect() as conn:
            if not sa.inspect(conn).has_table("alembic_version"):
                return False
            rows = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalars().all()
    except sa.exc.SQLAlchemyError:
        return False
    return rows == [HEAD_REVISION]


def migrate(where: Target, busy_seconds: float = BUSY_SECONDS) -> None:
    """Bring the database's tables up to the newest migration (once per process and database)."""
    key = (os.getpid(), where.url.render_as_string(hide_password=False))
    if key in _ready:
        return
    if _at_head(where, busy_seconds):   # the usual case: nothing to do, and no need to load Alembic (11 MB a kernel)
        _ready.add(key)
        return
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    eng = engine(where, busy_seconds)
    with eng.connect() as conn:
        conn.info["write"] = True
        with conn.begin():
            if where.kind == "postgresql":  # two processes opening a new database at once: one migrates
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(4242017)"))
            config.attributes["connection"] = conn
            command.upgrade(config, "head")
        conn.info.pop("write", None)
    _ready.add(key)


def forget(where: Target) -> None:
    """Drop the process's engine for this database (tests that delete a database, a store closing)."""
    with _lock:
        for key in [k for k in _engines if k[1] == where.url.render_as_string(hide_password=False)]:
            _engines.pop(key).dispose()
        _ready.difference_update({k for k in _ready if k[1] == where.url.render_as_string(hide_password=False)})


def files_folder(where: Target) -> Path:
    """Where files that go with the database are kept (assignment files, the journal of unsaved answers):
    beside an SQLite file; for PostgreSQL, ``$CANASTA_TUTOR_FILES`` or the user's data directory."""
    if where.path is not None:
        return where.path.parent
    env = os.environ.get("CANASTA_TUTOR_FILES")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_path

    return user_data_path("canasta-tutor", appauthor=False)


def reason(e: BaseException) -> str:
    """What went wrong, in one line, from a database error (the driver's words, without SQLAlchemy's wrapping)."""
    inner = getattr(e, "orig", None) or e
    lines = [line.strip() for line in str(inner).strip().splitlines() if line.strip()]
    text = "; ".join(lines[:2]) if lines else type(inner).__name__
    return text


DB_ERRORS = (sa.exc.SQLAlchemyError,)
