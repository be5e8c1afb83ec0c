"""Identities that last a term: personal codes, the teacher's roster, and sessions kept in the database.

* every learner of a class has a **personal code** (``learners.code``, six letters and digits that cannot be
  misread: no 0/O, 1/I): it is on their join card, and with it they sign in again on any device, without an
  e-mail; a name that is on the class's list can be taken only with its code;
* :class:`Roster`: what the teacher does with the list, before or during the lesson: add learners, rename,
  merge two names (every answer kept), free a name nobody answered under, give a learner a new code;
* :func:`cookie_secret`: the secret that signs the server's cookies, kept beside the database (mode 0600);
* :class:`Sessions`: who is signed in on which browser. A browser's cookie holds a random session id; the
  database holds only its SHA-256, so a session lasts until the learner signs out, the teacher ends the class
  (a new class), merges or frees the learner or gives them a new code, and a restart of the server changes
  nothing.

Pure Python and SQLAlchemy; no Jupyter, no Tornado.

>>> import tempfile, os
>>> from canasta_tutor.classroom.roster import Classroom
>>> room = Classroom(os.path.join(tempfile.mkdtemp(), "p.sqlite3"))
>>> ana = Roster(room).add("Ana").learner
>>> room.join("Ana").codes
('name-taken',)
>>> room.join("", personal=ana["code"].lower()).learner["name"]
'Ana'
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa

from ..engine.errors import CanastaError
from ..engine.i18n import gettext as _
from ..engine.i18n import ngettext
from ..engine.verdict import Reason, verdict_type
from . import db
from .codes import CODE_ALPHABET, CODE_LENGTH, new_code, normal_code  # noqa: F401  (CODE_*: the accounts' public names)

RosterVerdict = verdict_type("RosterVerdict", "learner", (None,),
                             "What a change to the class's list did; ``learner``: the learner it concerns.")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _no(code: str, text: str) -> RosterVerdict:
    return RosterVerdict(False, (Reason(code, text),))


class Roster:
    """The teacher's list of the open class (``room``: a :class:`~canasta_tutor.classroom.roster.Classroom`)."""

    def __init__(self, room):
        self.room = room

    def _write(self, doing: str, work):
        """``work(conn)`` in a write transaction; ``doing``: the translated sentence of a failure, with
        ``{database}`` and ``{reason}``."""
        try:
            with self.room.store._begin(write=True) as conn:
                return work(conn)
        except sa.exc.IntegrityError:
            raise
        except db.DB_ERRORS as e:
            raise CanastaError(doing.format(database=self.room.store.where.shown, reason=db.reason(e))) from None

    def entries(self) -> list[dict]:
        """The open class's learners, by name: learner_id, name, code, joined, answers (how many)."""
        lr, t = db.learners, db.attempts
        answers = (sa.select(sa.func.count()).where(t.c.learner_id == lr.c.id).scalar_subquery())
        rows = self.room._query(sa.select(lr.c.id, lr.c.name, lr.c.code, lr.c.joined, answers)
                                .where(lr.c.class_id == self.room.current().id).order_by(lr.c.name_key))
        return [{"learner_id": r[0], "name": r[1], "code": r[2], "joined": r[3], "answers": int(r[4])}
                for r in rows]

    def find(self, learner_id) -> dict | None:
        return next((e for e in self.entries() if e["learner_id"] == learner_id), None)

    def add(self, name) -> RosterVerdict:
        """Put ``name`` on the list (before the lesson, say): they sign in with the code it is given."""
        verdict = self.room.join(name, self.room.current().code, by_teacher=True)
        if not verdict:
            return RosterVerdict(False, verdict.reasons)
        return RosterVerdict(True, (Reason("added", _("{name} is on the list, with the code {code}.").format(
            name=verdict.learner["name"], code=verdict.learner["code"])),), verdict.learner)

    def rename(self, learner_id, new_name) -> RosterVerdict:
        """Give a learner another name; their answers and sessions follow them."""
        from .roster import check_name, name_key

        who = self.find(learner_id)
        if who is None:
            return _no("no-learner", _("That learner is not in this class."))
        shown, problem = check_name(new_name)
        if problem is not None:
            return RosterVerdict(False, problem.reasons)
        lr, t, la = db.learners, db.attempts, db.live_answers

        def work(conn):
            conn.execute(lr.update().where(lr.c.id == who["learner_id"]).values(name=shown, name_key=name_key(shown)))
            conn.execute(t.update().where(t.c.learner_id == who["learner_id"]).values(learner=shown))
            conn.execute(la.update().where(la.c.learner_id == who["learner_id"]).values(learner=shown))
        try:
            self._write(_("cannot rename a learner in {database}: {reason}"), work)
        except sa.exc.IntegrityError:
            return _no("name-taken", _("Someone in this class is already called {name}: merge the two instead, "
                                       "if they are one learner.").format(name=shown))
        said = _("{old} is now called {new}.").format(old=who["name"], new=shown)
        return RosterVerdict(True, (Reason("renamed", said),),
                             {**who, "name": shown})

    def merge(self, keep_id, other_id) -> RosterVerdict:
        """One learner under two names: ``other_id``'s answers and signed-in browsers go to ``keep_id``, and the
        other name leaves the list. Every attempt is kept; of two live answers to one puzzle, the first stays."""
        keep, other = self.find(keep_id), self.find(other_id)
        if keep is None or other is None:
            return _no("no-learner", _("Both learners must be in this class."))
        if keep["learner_id"] == other["learner_id"]:
            return _no("same-learner", _("Choose two different names to merge."))
        lr, t, la, s, m = db.learners, db.attempts, db.live_answers, db.sessions, db.merged

        def work(conn):
            conn.execute(t.update().where(t.c.learner_id == other["learner_id"])
                         .values(learner_id=keep["learner_id"], learner=keep["name"]))
            both: dict = {}
            for r in conn.execute(sa.select(la.c.id, la.c.live_id, la.c.answered_at).where(
                    la.c.learner_id.in_([keep["learner_id"], other["learner_id"]]))):
                both.setdefault(r.live_id, []).append(r)
            later = [max(rows, key=lambda r: (r.answered_at, r.id)).id for rows in both.values() if len(rows) > 1]
            if later:  # one learner answered one live puzzle under both names: the first answer stays
                conn.execute(la.delete().where(la.c.id.in_(later)))
            conn.execute(la.update().where(la.c.learner_id == other["learner_id"])
                         .values(learner_id=keep["learner_id"], learner=keep["name"]))
            conn.execute(s.update().where(s.c.learner_id == other["learner_id"]).values(learner_id=keep["learner_id"]))
            conn.execute(m.update().where(m.c.new_id == other["learner_id"]).values(new_id=keep["learner_id"]))
            conn.execute(m.insert().values(old_id=other["learner_id"], new_id=keep["learner_id"]))
            conn.execute(lr.delete().where(lr.c.id == other["learner_id"]))
        self._write(_("cannot merge two learners in {database}: {reason}"), work)
        return RosterVerdict(True, (Reason("merged", ngettext(
            "{other}'s {count} answers are now {keep}'s.", "{other}'s {count} answers are now {keep}'s.",
            other["answers"]).format(count=other["answers"], other=other["name"], keep=keep["name"])),), keep)

    def free(self, learner_id) -> RosterVerdict:
        """Take a name off the list (a typo, a name taken by someone else), when nobody has answered under it."""
        who = self.find(learner_id)
        if who is None:
            return _no("no-learner", _("That learner is not in this class."))
        if who["answers"]:
            return _no("has-answers", ngettext(
                "{name} has {count} answers: rename them, or merge them into another name (merging keeps every "
                "answer).", "{name} has {count} answers: rename them, or merge them into another name (merging "
                "keeps every answer).", who["answers"]).format(name=who["name"], count=who["answers"]))
        lr, s = db.learners, db.sessions

        def work(conn):
            conn.execute(s.delete().where(s.c.learner_id == who["learner_id"]))
            conn.execute(lr.delete().where(lr.c.id == who["learner_id"]))
        self._write(_("cannot free a name in {database}: {reason}"), work)
        freed = _("The name {name} is free again.").format(name=who["name"])
        return RosterVerdict(True, (Reason("freed", freed),), who)

    def reset_code(self, learner_id) -> RosterVerdict:
        """A new personal code for a learner (a lost card); the browsers signed in with the old one sign out."""
        who = self.find(learner_id)
        if who is None:
            return _no("no-learner", _("That learner is not in this class."))
        lr, s = db.learners, db.sessions
        code = new_code()

        def work(conn):
            conn.execute(lr.update().where(lr.c.id == who["learner_id"]).values(code=code))
            conn.execute(s.delete().where(s.c.learner_id == who["learner_id"]))
        self._write(_("cannot give a new code in {database}: {reason}"), work)
        said = _("{name}'s new code is {code}.").format(name=who["name"], code=code)
        return RosterVerdict(True, (Reason("new-code", said),), {**who, "code": code})


class Sessions:
    """The signed-in browsers of ``room``'s classes, kept in its database. ``secret`` (bytes) makes the teacher's
    mark: a teacher's session is good only with the key it was opened with."""

    def __init__(self, room, secret: bytes):
        self.room = room
        self.secret = secret

    @staticmethod
    def _hash(sid: str) -> str:
        return hashlib.sha256(str(sid).encode("utf-8", "surrogatepass")).hexdigest()

    def _mark(self, key: str) -> str:
        return hmac.new(self.secret, key.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()

    def _write(self, doing: str, stmt) -> None:
        try:
            with self.room.store._begin(write=True) as conn:
                conn.execute(stmt)
        except db.DB_ERRORS as e:
            raise CanastaError(doing.format(database=self.room.store.where.shown, reason=db.reason(e))) from None

    def open(self, *, learner_id: int | None = None, teacher_key: str | None = None) -> str:
        """A new session for a learner or (``teacher_key``) the teacher; returns its id, for the cookie."""
        sid = secrets.token_urlsafe(24)
        mark = self._mark(teacher_key) if teacher_key is not None else None
        self._write(_("cannot sign in in {database}: {reason}"),
                    db.sessions.insert().values(id_hash=self._hash(sid), learner_id=learner_id, teacher_key=mark,
                                                created=_now()))
        return sid

    def learner(self, sid) -> dict | None:
        """The learner signed in with session ``sid``, when they are in the open class."""
        if not sid:
            return None
        s, lr, c = db.sessions, db.learners, db.classes
        rows = self.room._query(sa.select(lr.c.id, lr.c.name, lr.c.class_id)
                                .join(s, s.c.learner_id == lr.c.id).join(c, c.c.id == lr.c.class_id)
                                .where(s.c.id_hash == self._hash(sid), c.c.archived.is_(None)))
        return {"learner_id": rows[0][0], "name": rows[0][1], "class_id": rows[0][2]} if rows else None

    def is_teacher(self, sid, teacher_key: str) -> bool:
        """Whether ``sid`` is a teacher's session opened with ``teacher_key``."""
        if not sid or not teacher_key:
            return False
        s = db.sessions
        rows = self.room._query(sa.select(s.c.teacher_key).where(s.c.id_hash == self._hash(sid),
                                                                 s.c.learner_id.is_(None)))
        return bool(rows) and rows[0][0] is not None and hmac.compare_digest(rows[0][0], self._mark(teacher_key))

    def close(self, sid) -> None:
        """Sign this browser out (its session can never be used again)."""
        if sid:
            self._write(_("cannot sign out in {database}: {reason}"),
                        db.sessions.delete().where(db.sessions.c.id_hash == self._hash(sid)))


def secret_path(store) -> Path:
    """Where the cookie secret of ``store``'s database is kept: beside its journal (beside an SQLite file)."""
    journal = Path(store.journal)
    return journal.with_name(journal.name.removesuffix(".pending.jsonl") + ".cookie-secret")


def cookie_secret(store) -> bytes:
    """The secret that signs the server's cookies, kept beside the database (:func:`secret_path`), readable only by
    this user (mode 0600), made once: a restart of the server signs nobody out. A file that others could read is
    made private again; one that belongs to another user, or that is damaged, is refused with a message."""
    path = secret_path(store)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    except OSError as e:
        raise CanastaError(_("cannot keep the cookie secret in {path}: {problem}").format(
            path=path, problem=e.strerror or e)) from None
    else:
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32) + "\n")
            f.flush()
            os.fsync(f.fileno())
    try:
        info = path.stat()
        if hasattr(os, "getuid") and info.st_uid != os.getuid():
            raise CanastaError(_("the cookie secret {path} belongs to another user: remove it (everyone signs in "
                                 "again) or start the server as its owner").format(path=path))
        if info.st_mode & 0o077:
            path.chmod(0o600)  # readable by others (copied, unpacked from a backup): private again
        text = path.read_text("ascii").strip()
    except (OSError, UnicodeDecodeError) as e:
        raise CanastaError(_("cannot read the cookie secret {path}: {problem}").format(
            path=path, problem=getattr(e, "strerror", None) or e)) from None
    if len(text) < 32:
        raise CanastaError(_("the cookie secret {path} is damaged (too short): remove it, and a new one is made "
                             "(everyone signs in again)").format(path=path))
    return text.encode("ascii")
