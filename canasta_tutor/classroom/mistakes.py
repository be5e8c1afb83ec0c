"""Learn from your mistakes, in the progress database: a learner's costly decisions kept as puzzles
(:mod:`canasta_tutor.puzzles.decisions`), brought back until answered right, and the class's costliest for the
teacher.

Table ``decision_puzzles`` (:mod:`.db`, migration 0005), the same code path for SQLite and PostgreSQL. A decision
the learner has not yet put right is kept once (the same hand replayed makes the same puzzle: it is not added
twice). The puzzles come back like missed puzzles: the one tried longest ago (or never) first, until answered
right.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import sqlalchemy as sa

from ..engine.errors import CanastaError
from ..engine.i18n import gettext as _
from ..puzzles.decisions import DecisionPuzzle, plan_words, puzzle_from_json
from . import db
from .progress import ProgressStore, clean_name


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class KeptPuzzle:
    """A stored decision puzzle: its row ``id``, the ``puzzle``, how often it was ``tries``-ed, ``solved``."""

    id: int
    learner: str
    puzzle: DecisionPuzzle
    tries: int
    solved: bool


class MistakeStore:
    """The decision puzzles in a progress database (``store``: a :class:`~.progress.ProgressStore`, or a path)."""

    def __init__(self, store: ProgressStore | str | None = None):
        self.store = store if isinstance(store, ProgressStore) else ProgressStore(store)

    def _run(self, doing: str, work, write: bool = False):
        """``work(conn)`` in a transaction; ``doing``: the translated sentence of a failure, with ``{database}`` and
        ``{reason}`` (``ProgressStore._error``)."""
        try:
            with self.store._begin(write=write) as conn:
                return work(conn)
        except db.DB_ERRORS as e:
            raise self.store._error(doing, e) from None

    @staticmethod
    def _class_of(conn, learner: str, learner_id: int | None) -> tuple[int | None, int | None]:
        lr, c, m = db.learners, db.classes, db.merged
        if learner_id is not None:
            moved = conn.execute(sa.select(m.c.new_id).where(m.c.old_id == learner_id)).scalar()
            learner_id = moved or learner_id
            return learner_id, conn.execute(sa.select(lr.c.class_id).where(lr.c.id == learner_id)).scalar()
        row = conn.execute(sa.select(lr.c.id, lr.c.class_id).join(c, c.c.id == lr.c.class_id)
                           .where(c.c.archived.is_(None), lr.c.name == learner)
                           .order_by(c.c.id.desc()).limit(1)).first()
        return (row.id, row.class_id) if row else (None, None)

    def save(self, learner: str, puzzles, *, learner_id: int | None = None) -> int:
        """Keep ``puzzles`` (:class:`DecisionPuzzle` s) for ``learner``; how many were new (one not yet put right
        is not kept twice)."""
        learner = clean_name(learner)
        puzzles = list(puzzles)
        if not all(isinstance(p, DecisionPuzzle) for p in puzzles):
            raise CanastaError(_("save: decision puzzles only (from canasta_tutor.puzzles.decisions)"))
        t = db.decision_puzzles

        def work(conn):
            whose, class_id = self._class_of(conn, learner, learner_id)
            mine = t.c.learner_id == whose if whose is not None else t.c.learner == learner
            open_keys = set(conn.execute(sa.select(t.c.puzzle_key).where(mine, t.c.solved.is_(None))).scalars())
            new = [p for p in puzzles if p.key not in open_keys]
            if new:
                conn.execute(t.insert(), [dict(learner=learner, learner_id=whose, class_id=class_id,
                                               puzzle_key=p.key, hand=p.hand, loss=float(p.loss),
                                               puzzle=p.to_json(), created=_now(), tries=0) for p in new])
            return len(new)

        return self._run(_("cannot save a decision puzzle in the progress database {database}: {reason}"), work,
                         write=True)

    def _rows(self, where, order):
        t = db.decision_puzzles
        rows = self._run(_("cannot read the progress database {database}: {reason}"), lambda conn: conn.execute(
            sa.select(t.c.id, t.c.learner, t.c.puzzle, t.c.tries, t.c.solved).where(*where).order_by(*order))
            .fetchall())
        out = []
        for r in rows:
            try:
                puzzle = puzzle_from_json(r.puzzle)
            except CanastaError:
                continue  # a damaged row is left alone (the others still come)
            out.append(KeptPuzzle(r.id, r.learner, puzzle, int(r.tries or 0), r.solved is not None))
        return out

    def due(self, learner: str, *, learner_id: int | None = None) -> list[KeptPuzzle]:
        """The learner's puzzles not yet answered right: never tried first, then the one tried longest ago."""
        t = db.decision_puzzles
        mine = t.c.learner_id == int(learner_id) if learner_id is not None else t.c.learner == clean_name(learner)
        return self._rows((mine, t.c.solved.is_(None)),
                          (t.c.last_tried.is_not(None), t.c.last_tried, t.c.id))

    def answered(self, puzzle_id: int, right: bool) -> None:
        """Note an answer to the stored puzzle ``puzzle_id``: right takes it out of the queue."""
        t = db.decision_puzzles
        now = _now()
        values = {"tries": t.c.tries + 1, "last_tried": now, **({"solved": now} if right else {})}
        done = self._run(_("cannot save an answer in the progress database {database}: {reason}"),
                         lambda conn: conn.execute(t.update().where(t.c.id == int(puzzle_id)).values(values)).rowcount,
                         write=True)
        if not done:
            raise CanastaError(_("decision puzzle {number}: there is no such puzzle").format(number=puzzle_id))

    def costliest(self, class_id: int | None = None, *, per_learner: int = 3) -> list[dict]:
        """The costliest decisions of each learner of the class (``class_id``; default: every class), costliest
        first: ``learner``, ``hand``, ``yours`` and ``better`` (the plans in words), ``points``, ``solved``."""
        t = db.decision_puzzles
        where = (t.c.class_id == int(class_id),) if class_id is not None else ()
        rows = self._rows(where, (t.c.loss.desc(), t.c.id))
        count: dict[str, int] = {}
        out = []
        for k in rows:
            if count.get(k.learner, 0) >= per_learner:
                continue
            count[k.learner] = count.get(k.learner, 0) + 1
            p = k.puzzle
            out.append({"learner": k.learner, "hand": p.hand, "yours": plan_words(p.yours, p.obs),
                        "better": plan_words(p.best, p.obs), "points": p.points, "solved": k.solved})
        return out


__all__ = ["KeptPuzzle", "MistakeStore"]
