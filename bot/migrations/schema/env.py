"""Alembic's entry point: run the revisions on the connection storage hands over.

The bot runs the revisions itself at start (`bot.migrations.upgrade`, inside its own
transaction); the `alembic` command line (alembic.ini at the repository root) works too, on
the database given as ``-x url=…`` (default: a scratch SQLite file), e.g. to write the next
revision with ``alembic revision -m "what changes"``.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from bot.schema import add_postgresql_options, metadata

add_postgresql_options()  # autogenerate on PostgreSQL compares the partial index's WHERE too

config = context.config


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


given = config.attributes.get("connection")
if given is not None:
    _run(given)
else:
    url = context.get_x_argument(as_dictionary=True).get("url", "sqlite:///alembic-scratch.db")
    with create_engine(url).connect() as conn:
        _run(conn)
        conn.commit()
