"""A class: who is in it, and how it is doing (pure Python and SQLAlchemy; no Jupyter import).

The class tables live in the progress database, beside the attempts:

* ``classes``: one row per class; the newest open one is the class being taught,
  starting a new class archives the old one (its rows stay, for the record);
* ``learners``: the names signed in to each class, unique per class whatever
  their case or surrounding spaces ("Ana" and " ana" are one name), each with a
  personal code (see :mod:`.accounts`: a name on the list needs its code);
* ``attempts.class_id``: filled when the attempt is saved, when its learner is
  signed in to the open class, so the trainer saves its attempts exactly as it
  always did.

The tables are declared in :mod:`.db` and made by its migrations (SQLite or PostgreSQL).

>>> import tempfile, os
>>> room = Classroom(os.path.join(tempfile.mkdtemp(), "p.sqlite3"))
>>> ana = room.join("Ana")
>>> ana.ok, room.join(" ana ").ok
(True, False)
>>> room.join(" ana ").codes
('name-taken',)
>>> room.join("", personal=ana.learner["code"]).learner["name"]
'Ana'
"""

from __future__ import annotations

import io
import os
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

import sqlalchemy as sa

from ..engine.errors import CanastaError
from ..engine.i18n import NP_, normalise_language, pgettext
from ..engine.i18n import gettext as _
from ..engine.verdict import Reason, verdict_type
from . import db, names
from .cells import neutral_frame
from .codes import new_code, normal_code
from .progress import ProgressStore

JoinVerdict = verdict_type("JoinVerdict", "learner", (None,),
                           "Whether a name could join the class; ``learner``: its learner_id, name, class_id.")

MAX_NAME = names.MAX_NAME
STUCK_AFTER = 3  # this many misses in a row, the last answers of a learner, mean "stuck"

def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def name_key(name: str) -> str:
    """The form of a name used to tell two learners apart: trimmed, spaces collapsed, case folded."""
    return " ".join(str(name).split()).casefold()


def clean_name(name) -> str:
    """A name as it will be shown: exactly as typed, only surrounding and repeated spaces removed."""
    return " ".join(str(name or "").split())


@dataclass(frozen=True)
class ClassInfo:
    id: int
    code: str
    created: str
    archived: str | None


class Classroom:
    """The class being taught and its learners, in the progress database (``path``: as for ProgressStore)."""

    def __init__(self, path: str | os.PathLike | None = None):
        self.store = ProgressStore(path)   # opens the database and runs its migrations (every class table)
        self.path = self.store.path

    def _query(self, query) -> list:
        try:
            with self.store._begin() as conn:
                return conn.execute(query).fetchall()
        except db.DB_ERRORS as e:
            raise CanastaError(_("cannot read the class tables in {database}: {reason}").format(
                database=self.store.where.shown, reason=db.reason(e))) from None

    # --- the class -------------------------------------------------------------------
    def current(self) -> ClassInfo:
        """The open class (one is opened, without a code, when there is none)."""
        c = db.classes
        rows = self._query(sa.select(c.c.id, c.c.code, c.c.created, c.c.archived).where(c.c.archived.is_(None))
                           .order_by(c.c.id.desc()).limit(1))
        if rows:
            return ClassInfo(*rows[0])
        return self.new_class()

    def classes(self) -> list[ClassInfo]:
        c = db.classes
        return [ClassInfo(*r) for r in self._query(sa.select(c.c.id, c.c.code, c.c.created, c.c.archived)
                                                   .order_by(c.c.id))]

    def new_class(self, code: str = "") -> ClassInfo:
        """Archive the open class (its learners and results stay) and open a new one with this code."""
        stamp = _now()
        c = db.classes
        try:
            with self.store._begin(write=True) as conn:
                conn.execute(c.update().where(c.c.archived.is_(None)).values(archived=stamp))
                new_id = conn.execute(c.insert().values(code=str(code or "").strip(), created=stamp)
                                      .returning(c.c.id)).scalar_one()
        except db.DB_ERRORS as e:
            raise CanastaError(_("cannot start a new class in {database}: {reason}").format(
                database=self.store.where.shown, reason=db.reason(e))) from None
        return ClassInfo(new_id, str(code or "").strip(), stamp, None)

    def set_code(self, code: str) -> ClassInfo:
        """Give the open class this code (learners must type it to join)."""
        info = self.current()
        c = db.classes
        try:
            with self.store._begin(write=True) as conn:
                conn.execute(c.update().where(c.c.id == info.id).values(code=str(code or "").strip()))
        except db.DB_ERRORS as e:
            raise CanastaError(_("cannot set the class code in {database}: {reason}").format(
                database=self.store.where.shown, reason=db.reason(e))) from None
        return self.current()

    # --- languages (canasta_tutor.web.language) ----------------------------------------
    def class_language(self) -> str | None:
        """The open class's default language (set by the teacher), or None."""
        c = db.classes
        info = self.current()
        rows = self._query(sa.select(c.c.language).where(c.c.id == info.id))
        return rows[0][0] if rows and rows[0][0] else None

    def set_class_language(self, code: str | None) -> None:
        """The open class's default language (``None`` or ``""``: none, each browser's own)."""
        value = normalise_language(code) if code else None
        info = self.current()
        c = db.classes
        try:
            with self.store._begin(write=True) as conn:
                conn.execute(c.update().where(c.c.id == info.id).values(language=value))
        except db.DB_ERRORS as e:
            raise CanastaError(_("cannot set the class's language in {database}: {reason}").format(
                database=self.store.where.shown, reason=db.reason(e))) from None

    def learner_language(self, learner_id: int) -> str | None:
        """The language the learner chose (on any device), or None."""
        t = db.learners
        rows = self._query(sa.select(t.c.language).where(t.c.id == int(learner_id)))
        return rows[0][0] if rows and rows[0][0] else None

    def set_learner_language(self, learner_id: int, code: str) -> None:
        value = normalise_language(code)
        t = db.learners
        try:
            with self.store._begin(write=True) as conn:
                conn.execute(t.update().where(t.c.id == int(learner_id)).values(language=value))
        except db.DB_ERRORS as e:
            raise CanastaError(_("cannot keep the learner's language in {database}: {reason}").format(
                database=self.store.where.shown, reason=db.reason(e))) from None

    # --- learners --------------------------------------------------------------------
    def join(self, name, code: str = "", *, personal: str = "", by_teacher: bool = False) -> JoinVerdict:
        """Sign ``name`` in to the open class. Truthy with ``learner_id``/``name``/``class_id``/``code`` (the
        learner's personal code) when it worked, and ``new`` when the name was not on the list before; otherwise
        the reasons say what to change.

        ``personal``: a learner's personal code (their join card): it alone signs them in again, whatever name is
        typed. A name already on the list is never given to anyone without its code. ``by_teacher``: the teacher
        puts the name on the list (no class code needed)."""
        if normal_code(personal):
            return self._join_by_code(normal_code(personal))
        shown, problem = check_name(name)
        if problem is not None:
            return problem
        info = self.current()
        if not by_teacher and info.code and str(code or "").strip().casefold() != info.code.casefold():
            return _no("wrong-code", _("That is not this class's code: ask your teacher for it."))
        free = names.check_not_taken(shown, [r["name"] for r in self.learners(info.id)])
        if not free:
            if any(r.code == "name-taken" for r in free.reasons):
                return _taken(shown)
            return JoinVerdict(False, free.reasons)
        lr = db.learners
        for _attempt in range(3):  # a new code that happens to be another learner's: draw again
            personal_code = new_code()
            try:
                with self.store._begin(write=True) as conn:
                    learner_id = conn.execute(lr.insert().values(class_id=info.id, name=shown,
                                                                 name_key=name_key(shown), joined=_now(),
                                                                 code=personal_code).returning(lr.c.id)).scalar_one()
                break
            except sa.exc.IntegrityError:
                if any(name_key(r["name"]) == name_key(shown) for r in self.learners(info.id)):
                    return _taken(shown)  # signed in at the same instant
            except db.DB_ERRORS as e:
                raise CanastaError(_("cannot sign in to the class in {database}: {reason}").format(
                    database=self.store.where.shown, reason=db.reason(e))) from None
        else:
            raise CanastaError(_("cannot give a new learner a code of their own: try again"))
        return JoinVerdict(True, (Reason("joined", _("Welcome, {name}.").format(name=shown)),),
                           {"learner_id": learner_id, "name": shown, "class_id": info.id, "code": personal_code,
                            "new": True})

    def _join_by_code(self, personal: str) -> JoinVerdict:
        lr = db.learners
        info = self.current()
        rows = self._query(sa.select(lr.c.id, lr.c.name).where(lr.c.class_id == info.id, lr.c.code == personal))
        if not rows:
            return _no("wrong-personal-code", _("That personal code is not on this class's list: check your card, "
                                                "or ask your teacher."))
        return JoinVerdict(True, (Reason("welcome-back", _("Welcome back, {name}.").format(name=rows[0][1])),),
                           {"learner_id": rows[0][0], "name": rows[0][1], "class_id": info.id, "code": personal,
                            "new": False})

    def learner(self, learner_id: int) -> dict | None:
        """The learner with this id, if they belong to the open class."""
        lr, c = db.learners, db.classes
        rows = self._query(sa.select(lr.c.id, lr.c.name, lr.c.class_id, lr.c.code).join(c, c.c.id == lr.c.class_id)
                           .where(lr.c.id == int(learner_id), c.c.archived.is_(None)))
        return ({"learner_id": rows[0][0], "name": rows[0][1], "class_id": rows[0][2], "code": rows[0][3]}
                if rows else None)

    def learners(self, class_id: int | None = None) -> list[dict]:
        cid = self.current().id if class_id is None else class_id
        lr = db.learners
        rows = self._query(sa.select(lr.c.id, lr.c.name, lr.c.joined).where(lr.c.class_id == cid)
                           .order_by(lr.c.name_key))
        return [{"learner_id": r[0], "name": r[1], "joined": r[2]} for r in rows]

    # --- results ---------------------------------------------------------------------
    def attempts(self, class_id: int | None = None, learner: str | None = None):
        """The attempts of a class (default: the open one) as a DataFrame, oldest first."""
        import pandas as pd

        cid = self.current().id if class_id is None else class_id
        t = db.attempts
        query = sa.select(t.c.id, t.c.learner, t.c.puzzle_set, t.c.puzzle_id, t.c.kind, t.c.topic, t.c.difficulty,
                          t.c.answer, t.c.correct, t.c.seconds, t.c.timestamp, t.c.learner_id
                          ).where(t.c.class_id == cid)
        if learner is not None:
            query = query.where(t.c.learner == learner)
        try:
            with self.store._begin() as conn:
                frame = pd.read_sql_query(query.order_by(t.c.id), conn)
        except (*db.DB_ERRORS, pd.errors.DatabaseError) as e:
            raise CanastaError(_("cannot read the class's attempts in {database}: {reason}").format(
                database=self.store.where.shown, reason=db.reason(e))) from None
        frame["correct"] = frame["correct"].astype(bool)
        return frame

    def report(self, class_id: int | None = None) -> ClassReport:
        cid = self.current().id if class_id is None else class_id
        names = [row["name"] for row in self.learners(cid)]
        return ClassReport(self.attempts(cid), names)


def _no(code: str, text: str) -> JoinVerdict:
    return JoinVerdict(False, (Reason(code, text),))


def check_name(name) -> tuple[str, JoinVerdict | None]:
    """A name as it will be kept and shown, and None; or a refusal saying what to change (joining, adding,
    renaming). The rules a name follows are :func:`names.check_name`'s (NFKC, one length limit, no invisible,
    control or direction-changing characters)."""
    named = names.check_name(name)
    if not named:
        return "", JoinVerdict(False, named.reasons)
    return named.name, None


def _taken(shown: str) -> JoinVerdict:
    return _no("name-taken", _("Someone in this class is already called {name}. If that is you, type your personal "
                               "code (on your card: your teacher has it); otherwise choose another name (add an "
                               "initial, say).").format(name=shown))


class ClassReport:
    """What a teacher wants to know about a class, from its attempts (a DataFrame as ``Classroom.attempts``)."""

    def __init__(self, attempts, learners=()):
        self.frame = attempts
        self.names = sorted(set(learners) | set(attempts["learner"]), key=name_key)

    def per_learner(self):
        """One row per learner: attempts, correct, accuracy, last activity, misses in a row at the end, stuck."""
        import pandas as pd

        rows = []
        for name in self.names:
            mine = self.frame[self.frame["learner"] == name]
            tail = 0
            for ok in reversed(mine["correct"].tolist()):
                if ok:
                    break
                tail += 1
            n = len(mine)
            right = int(mine["correct"].sum())
            rows.append({"learner": name, "attempts": n, "correct": right,
                         "accuracy": round(right / n, 2) if n else None,
                         "topics": int(mine["topic"].nunique()),
                         "last_activity": mine["timestamp"].max() if n else "",
                         "misses_in_a_row": tail, "stuck": tail >= STUCK_AFTER})
        return pd.DataFrame(rows, columns=["learner", "attempts", "correct", "accuracy", "topics",
                                           "last_activity", "misses_in_a_row", "stuck"])

    def per_puzzle(self):
        """One row per puzzle: attempts, misses, accuracy, the most common wrong answer and how often it was given."""
        import pandas as pd

        columns = ["puzzle_set", "puzzle_id", "topic", "attempts", "misses", "accuracy", "common_wrong_answer",
                   "times_given"]
        rows = []
        for (pset, pid), group in self.frame.groupby(["puzzle_set", "puzzle_id"], sort=False):
            wrong = group.loc[~group["correct"], "answer"]
            counts = wrong.value_counts()
            n = len(group)
            rows.append({"puzzle_set": pset, "puzzle_id": pid, "topic": group["topic"].iloc[0], "attempts": n,
                         "misses": int((~group["correct"]).sum()),
                         "accuracy": round(float(group["correct"].mean()), 2),
                         "common_wrong_answer": _answer_text(counts.index[0]) if len(counts) else "",
                         "times_given": int(counts.iloc[0]) if len(counts) else 0})
        out = pd.DataFrame(rows, columns=columns)
        return out.sort_values(["misses", "accuracy", "puzzle_id"], ascending=[False, True, True],
                               kind="stable").reset_index(drop=True)

    def grid(self):
        """Learners x topics: (attempts, correct) per cell, as a dict of dicts; topics sorted."""
        topics = sorted(self.frame["topic"].unique()) if len(self.frame) else []
        cells = {name: {} for name in self.names}
        for (name, topic), group in self.frame.groupby(["learner", "topic"]):
            cells.setdefault(name, {})[topic] = (len(group), int(group["correct"].sum()))
        return topics, cells

    # --- pictures --------------------------------------------------------------------
    def heatmap_svg(self) -> str:
        """The learners x topics accuracy grid as inline SVG (:func:`.heatmap.heatmap_svg`, the dashboard's)."""
        from .heatmap import heatmap_svg

        return heatmap_svg(self)

    def to_csv(self, which: str = "learners") -> str:
        """One table as CSV, no cell able to start a formula (:func:`.gradebook.neutral_frame`); the teacher's
        downloads are :class:`.gradebook.Gradebook`'s."""
        frame = self.per_learner() if which == "learners" else self.per_puzzle()
        return neutral_frame(frame).to_csv(index=False)

    def to_excel(self) -> bytes:
        """A workbook with three sheets: Learners, Puzzles, Attempts (openpyxl, through pandas), no cell able to
        start a formula."""
        import pandas as pd

        buffer = io.BytesIO()
        with pd.ExcelWriter(buffer, engine="openpyxl") as writer:
            for name, frame in (("Learners", self.per_learner()), ("Puzzles", self.per_puzzle()),
                                ("Attempts", self.frame.drop(columns=["id", "learner_id"], errors="ignore"))):
                neutral_frame(frame).to_excel(writer, sheet_name=name, index=False)
        return buffer.getvalue()


#: The answers' keys and word values (the puzzle contract's), as a teacher reads them in the current language.
ANSWER_WORDS = {pair[1]: pair for pair in (
    NP_("answer key", "points"), NP_("answer key", "valid"), NP_("answer key", "canasta"),
    NP_("answer key", "minimum"), NP_("answer key", "enough"), NP_("answer key", "frozen"),
    NP_("answer key", "take"), NP_("answer key", "go_out"), NP_("answer key", "score"),
    NP_("answer value", "none"), NP_("answer value", "natural"), NP_("answer value", "mixed"),
    NP_("answer value", "samba"))}


def _word(value) -> str:
    if value is True or value is False:
        return _("Yes") if value else _("No")
    if isinstance(value, str) and value in ANSWER_WORDS:
        return pgettext(*ANSWER_WORDS[value])
    return str(value)


def answer_keys_text(value: dict) -> str:
    """An answer's keys and values as a teacher reads them: 'take: No', 'points: 60' (in the current language)."""
    return ", ".join(f"{_word(k) if k in ANSWER_WORDS else k}: {_word(v)}" for k, v in value.items())


def _answer_text(answer_json: str) -> str:
    """A stored answer (JSON) as a teacher reads it: 'take: No', 'points: 60'."""
    import json

    try:
        value = json.loads(answer_json)
    except (TypeError, ValueError):
        return str(answer_json)
    if isinstance(value, dict):
        return answer_keys_text(value)
    return str(value)


# --- reaching the class ----------------------------------------------------------------
def network_addresses() -> list[str]:
    """Every IPv4 address of this machine other than loopback and link-local ones (psutil)."""
    import ipaddress
    import socket

    import psutil

    found = []
    for addrs in psutil.net_if_addrs().values():
        for a in addrs:
            if a.family != socket.AF_INET:
                continue
            ip = ipaddress.ip_address(a.address)
            if ip.is_loopback or ip.is_link_local or ip.is_unspecified:
                continue
            if a.address not in found:
                found.append(a.address)
    return found


def qr_svg(text: str, *, scale: int = 6) -> str:
    """``text`` as a QR code in inline SVG (segno), for learners' phones and tablets."""
    import segno

    return segno.make(text, error="m").svg_inline(scale=scale, dark="#000", light="#fff")


def new_key() -> str:
    """A teacher key: hard to guess, easy to type (12 letters and digits)."""
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(12))
