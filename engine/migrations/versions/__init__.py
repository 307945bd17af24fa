"""Alembic revision files (a package so setuptools ships them with the engine)."""
