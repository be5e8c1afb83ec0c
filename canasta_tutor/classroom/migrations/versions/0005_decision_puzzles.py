"""Learn from your mistakes: ``decision_puzzles``, a learner's costly decisions of a coached hand kept as puzzles.

Migration 0001 makes any missing table from the current declarations (:mod:`canasta_tutor.classroom.db`), so on a
new database the table is already there: this step checks first. The same on SQLite and PostgreSQL (SQLAlchemy
Core's declaration).

Revision ID: 0005
"""
import sqlalchemy as sa
from alembic import op

from canasta_tutor.classroom import db

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    if "decision_puzzles" not in set(sa.inspect(bind).get_table_names()):
        db.decision_puzzles.create(bind)


def downgrade() -> None:
    db.decision_puzzles.drop(op.get_bind(), checkfirst=True)
