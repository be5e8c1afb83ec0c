"""Every table of the classroom, and the upgrade of SQLite files made before migrations existed.

A database made by canasta-tutor before Alembic has some of these tables (``attempts`` always; ``classes``,
``learners``, ``live_*`` and ``assignments`` when those features were used; ``attempts.class_id`` and the
trigger that filled it when a class was taught). This migration creates what is missing and keeps every row.
The trigger goes: the class of an attempt is now set by the insert itself, the same on SQLite and PostgreSQL.

Revision ID: 0001
"""
import sqlalchemy as sa
from alembic import op

from canasta_tutor.classroom import db

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS attempts_in_class")
    have = set(sa.inspect(bind).get_table_names())
    for table in db.metadata.sorted_tables:
        if table.name not in have:
            table.create(bind)
    if "attempts" in have:
        columns = {c["name"] for c in sa.inspect(bind).get_columns("attempts")}
        if "class_id" not in columns:
            op.add_column("attempts", sa.Column("class_id", sa.Integer))


def downgrade() -> None:
    for table in reversed(db.metadata.sorted_tables):
        table.drop(op.get_bind(), checkfirst=True)
