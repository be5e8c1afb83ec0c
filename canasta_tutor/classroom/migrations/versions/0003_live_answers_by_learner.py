"""Live answers by the learner's id: ``live_answers.learner_id``, one answer per learner (not per name) per puzzle.

A live answer was kept under the learner's name (the table's key: live puzzle and name) and the live puzzle's class
*code*: a learner of a later class with the same code (or none) and the same name met the old one's answer ("you
have answered already"), and a merge had to move answers by name. The table is made again with a key of its own,
one answer per learner id per puzzle (and per name for an answer given without an id); each older answer is given
the learner of that name in the class that was open, under that code, when it was answered (else the newest class
with that code that has a learner of that name); an answer no learner is found for keeps its name only. Every row
is carried over.

Revision ID: 0003
"""
import sqlalchemy as sa
from alembic import op

from canasta_tutor.classroom import db

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

OLD = "live_answers_0002"


def upgrade() -> None:
    bind = op.get_bind()
    columns = {c["name"] for c in sa.inspect(bind).get_columns("live_answers")}
    if "learner_id" in columns and "id" in columns:
        return  # made by 0001 from the current declaration (a new database)
    key = sa.inspect(bind).get_pk_constraint("live_answers").get("name")
    op.rename_table("live_answers", OLD)
    if bind.dialect.name == "postgresql" and key == "live_answers_pkey":  # the new table's key takes that name
        op.execute(f"ALTER TABLE {OLD} RENAME CONSTRAINT live_answers_pkey TO {OLD}_pkey")
    db.live_answers.create(bind)
    meta = sa.MetaData()
    old = sa.Table(OLD, meta, autoload_with=bind)
    lp, lr, c = db.live_puzzles, db.learners, db.classes
    codes = dict(bind.execute(sa.select(lp.c.id, lp.c.class_code)).fetchall())
    candidates: dict = {}  # (class code, name) -> [(learner id, class created, class archived)], newest class first
    for r in bind.execute(sa.select(lr.c.id, lr.c.name, c.c.code, c.c.created, c.c.archived)
                          .join(c, c.c.id == lr.c.class_id).order_by(c.c.id.desc())):
        candidates.setdefault((r.code, r.name), []).append((r.id, r.created, r.archived))
    la = db.live_answers
    seen: set = set()
    rows = bind.execute(sa.select(old.c.live_id, old.c.learner, old.c.answer, old.c.correct, old.c.answered_at)
                        .order_by(old.c.answered_at)).fetchall()
    for row in rows:
        found = candidates.get((codes.get(row.live_id), row.learner), [])
        when = row.answered_at
        open_then = [i for i, made, ended in found if made <= when and (ended is None or ended >= when)]
        whose = (open_then or [i for i, _m, _e in found] or [None])[0]
        if (row.live_id, whose) in seen:
            whose = None  # (one learner under two names answered it twice: the first keeps the id)
        if whose is not None:
            seen.add((row.live_id, whose))
        bind.execute(la.insert().values(live_id=row.live_id, learner=row.learner, answer=row.answer,
                                        correct=row.correct, answered_at=row.answered_at, learner_id=whose))
    op.drop_table(OLD)


def downgrade() -> None:
    bind = op.get_bind()
    meta = sa.MetaData()
    old = sa.Table(OLD, meta,
                   sa.Column("live_id", sa.Integer, sa.ForeignKey("live_puzzles.id"), primary_key=True),
                   sa.Column("learner", sa.Text, primary_key=True),
                   sa.Column("answer", sa.Text, nullable=False),
                   sa.Column("correct", sa.Integer, nullable=False),
                   sa.Column("answered_at", sa.Text, nullable=False))
    sa.Table("live_puzzles", meta, autoload_with=bind)
    old.create(bind)
    la = db.live_answers
    rows = bind.execute(sa.select(la.c.live_id, la.c.learner, la.c.answer, la.c.correct, la.c.answered_at)
                        .order_by(la.c.id)).fetchall()
    seen: set = set()
    for r in rows:
        if (r.live_id, r.learner) not in seen:
            seen.add((r.live_id, r.learner))
            bind.execute(old.insert().values(live_id=r.live_id, learner=r.learner, answer=r.answer,
                                             correct=r.correct, answered_at=r.answered_at))
    la.drop(bind)
    op.rename_table(OLD, "live_answers")
