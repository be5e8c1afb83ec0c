"""Alembic migrations of the progress database (run by :func:`canasta_tutor.classroom.db.migrate`)."""
