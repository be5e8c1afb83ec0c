"""Alembic's entry point: migrate the connection :func:`canasta_tutor.classroom.db.migrate` hands over."""
from alembic import context

from canasta_tutor.classroom.db import metadata


def run() -> None:
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):  # run by Alembic; imported by anything else (pytest's doctest collection), idle
    run()
