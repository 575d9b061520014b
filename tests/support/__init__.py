"""Helpers the tests share, imported as `tests.support.<module>` (fixtures stay in conftest.py)."""
