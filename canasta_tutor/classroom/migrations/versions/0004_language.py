"""Languages: the one a learner chose (``learners.language``, so that it follows them to another device) and the
class's default, set by the teacher on the dashboard (``classes.language``); NULL: no choice made.

Migration 0001 makes any missing table from the current declarations (:mod:`canasta_tutor.classroom.db`), so on a
new database the columns are already there: each step checks first. (Its down_revision is the head when it was
written; a 0003 made meanwhile goes before it.)

Revision ID: 0004
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

COLUMNS = (("learners", "language"), ("classes", "language"))


def _columns(bind, table: str) -> set:
    return {c["name"] for c in sa.inspect(bind).get_columns(table)}


def upgrade() -> None:
    bind = op.get_bind()
    for table, column in COLUMNS:
        if column not in _columns(bind, table):
            op.add_column(table, sa.Column(column, sa.Text))


def downgrade() -> None:
    bind = op.get_bind()
    for table, column in COLUMNS:
        if column in _columns(bind, table):
            with op.batch_alter_table(table) as batch:
                batch.drop_column(column)
