"""Identities that last a term: a personal code per learner, sessions kept in the database, attempts by learner id.

* ``learners.code``: each learner's personal code (their join card), unique within the class; the learners of an
  older database are given one each;
* ``sessions``: the signed-in browsers (a restart of the server signs nobody out); ``merged``: which learner a
  merged one became;
* ``attempts.learner_id``: whose attempt it is, by the learner's id in the class, not by a name that a learner of
  another class may share; filled for the older attempts of a class from the learner of that name in that class.

Migration 0001 makes any missing table from the current declarations (:mod:`canasta_tutor.classroom.db`), so on a
new database every column is already there: each step here checks first.

Revision ID: 0002
"""
import secrets

import sqlalchemy as sa
from alembic import op

from canasta_tutor.classroom import db

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # as canasta_tutor.classroom.accounts.CODE_ALPHABET


def _columns(bind, table: str) -> set:
    return {c["name"] for c in sa.inspect(bind).get_columns(table)}


def _indexes(bind, table: str) -> set:
    return {i["name"] for i in sa.inspect(bind).get_indexes(table)}


def upgrade() -> None:
    bind = op.get_bind()
    for table in (db.sessions, db.merged):
        if table.name not in set(sa.inspect(bind).get_table_names()):
            table.create(bind)
    if "learner_id" not in _columns(bind, "attempts"):
        op.add_column("attempts", sa.Column("learner_id", sa.Integer))
    if "attempts_by_learner_id" not in _indexes(bind, "attempts"):
        op.create_index("attempts_by_learner_id", "attempts", ["learner_id", "id"])
    if "code" not in _columns(bind, "learners"):
        op.add_column("learners", sa.Column("code", sa.Text))
    lr, t = db.learners, db.attempts
    for (learner_id,) in bind.execute(sa.select(lr.c.id).where(lr.c.code.is_(None))).fetchall():
        bind.execute(lr.update().where(lr.c.id == learner_id)
                     .values(code="".join(secrets.choice(CODE_ALPHABET) for _ in range(6))))
    if "learners_by_code" not in _indexes(bind, "learners"):
        op.create_index("learners_by_code", "learners", ["class_id", "code"], unique=True)
    same = (sa.select(lr.c.id).where(lr.c.class_id == t.c.class_id, lr.c.name == t.c.learner)
            .limit(1).scalar_subquery())
    bind.execute(t.update().where(t.c.learner_id.is_(None), t.c.class_id.is_not(None)).values(learner_id=same))


def downgrade() -> None:
    op.drop_index("learners_by_code", "learners")
    op.drop_index("attempts_by_learner_id", "attempts")
    with op.batch_alter_table("learners") as batch:
        batch.drop_column("code")
    with op.batch_alter_table("attempts") as batch:
        batch.drop_column("learner_id")
    db.merged.drop(op.get_bind(), checkfirst=True)
    db.sessions.drop(op.get_bind(), checkfirst=True)
