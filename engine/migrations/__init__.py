"""Alembic migrations of the conversation store, packaged with the engine and run by engine.store.migrate."""
