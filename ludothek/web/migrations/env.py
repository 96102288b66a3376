"""Alembic's entry point: run the migrations on the connection that ``upgrade()`` passed in,
inside the transaction it already opened (so the lock it took covers everything)."""

from alembic import context

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("call ludothek.web.migrations.upgrade(engine); the alembic command line is not set up")
context.configure(connection=connection, target_metadata=None)
with context.begin_transaction():
    context.run_migrations()
